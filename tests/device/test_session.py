"""The session: the TableService surface, record-before-show, replay on start-up, undo and
corrections as recorded actions, listeners."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from device.service import TableService
from device.session import CODE_ALPHABET, CODE_LENGTH, Session
from device.store import Store, StoreFullError
from games.cribbage.autoplay import autoplay
from games.errors import IllegalActionError, UnknownGameError
from games.records import replay
from games.table import Zone

RECORD = autoplay("cribbage", seed=5, known_hands=False)


def _session(path: Path, **kw) -> Session:
    return Session(Store(path / "t.db", **kw), players=RECORD["players"])


def _play(session: Session, actions: list[dict]) -> None:
    for action in actions:
        session.submit(action, source="test")


def _deal_starts(actions: list[dict]) -> list[int]:
    return [i for i, a in enumerate(actions) if a["act"] == "deal"]


def test_session_has_every_method_of_the_table_service(tmp_path: Path) -> None:
    session = _session(tmp_path)
    for name, member in inspect.getmembers(TableService):
        if name.startswith("_"):
            continue
        assert hasattr(session, name), name
        if callable(member):
            want = inspect.signature(member)
            got = inspect.signature(getattr(Session, name))
            for param in want.parameters.values():
                assert param.name in got.parameters, f"{name}() lacks {param.name}"
                assert got.parameters[param.name].kind == param.kind, f"{name}({param.name})"
    code = session.pairing_code
    assert len(code) == CODE_LENGTH and set(code) <= set(CODE_ALPHABET)
    assert [g["name"] for g in session.games()] == sorted(g["name"] for g in session.games())
    assert session.camera_frame() is None


def test_a_refused_action_changes_nothing_and_is_not_recorded(tmp_path: Path) -> None:
    session = _session(tmp_path)
    _play(session, RECORD["actions"][:8])
    before = session.view()
    with pytest.raises(IllegalActionError):
        session.submit({"act": "play", "player": 0, "card": RECORD["actions"][7].get("card", "AS")})
    assert session.view() == before
    assert len(session.store.rows(session.game_id)) == 8


def test_start_up_replays_the_store_to_the_exact_state(tmp_path: Path) -> None:
    half = len(RECORD["actions"]) // 2
    session = _session(tmp_path)
    _play(session, RECORD["actions"][:half])
    session.undo()
    session.submit(RECORD["actions"][half - 1])
    view, history, code = session.view(0), session.history(), session.pairing_code
    session.store.close()
    again = _session(tmp_path)
    assert again.view(0) == view
    assert again.history() == history
    assert again.pairing_code == code
    assert again.state.scores == replay(RECORD, upto=half).state.scores


def test_undo_reaches_back_into_an_earlier_deal(tmp_path: Path) -> None:
    actions = RECORD["actions"]
    deals = _deal_starts(actions)
    upto = deals[2] + 3  # into the third deal
    session = _session(tmp_path)
    _play(session, actions[:upto])
    back_to = deals[1] - 2  # the end of the first deal
    for _ in range(upto - back_to):
        session.undo(source="button")
    assert session.state.scores == replay(RECORD, upto=back_to).state.scores
    assert session.view().to_json()["deal"] == 1
    kinds = [r.kind for r in session.store.rows(session.game_id)]
    assert kinds.count("undo") == upto - back_to and kinds.count("action") == upto  # nothing erased
    _play(session, actions[back_to:upto])  # and play goes on from there
    assert session.state.scores == replay(RECORD, upto=upto).state.scores


def test_a_correction_in_an_earlier_deal_rescores_everything_after_it(tmp_path: Path) -> None:
    actions = RECORD["actions"]
    deals = _deal_starts(actions)
    upto = deals[2]
    session = _session(tmp_path)
    _play(session, actions[:upto])
    first_deal = actions[deals[0]:deals[1]]
    starter = next(i for i, a in enumerate(actions) if a["act"] == "starter")
    seen = {c for a in first_deal for c in ([a.get("card")] + list(a.get("cards") or [])) if c}
    other = next(c for c in (f"{r}{s}" for s in "SHDC" for r in ("A", *map(str, range(2, 11)), "J", "Q", "K"))
                 if c not in seen)
    session.correct(starter, {"act": "starter", "card": other}, source="phone")
    fixed = {**RECORD, "actions": [*actions[:starter], {"act": "starter", "card": other}, *actions[starter + 1:upto]]}
    assert session.state.scores == replay(fixed).state.scores
    assert session.history()[starter].corrected is True
    with pytest.raises(IllegalActionError, match="does not fit"):  # a card already played in that deal
        session.correct(starter, {"act": "starter", "card": next(a["card"] for a in first_deal
                                                                 if a["act"] == "play")})
    assert session.state.scores == replay(fixed).state.scores
    assert [r.kind for r in session.store.rows(session.game_id)][-1] == "correct"


def test_history_gives_the_points_each_action_scored(tmp_path: Path) -> None:
    session = _session(tmp_path)
    _play(session, RECORD["actions"])
    history = session.history()
    assert len(history) == len(RECORD["actions"])
    per_side = [0, 0]
    for entry in history:
        assert entry.points == sum(event.points for event in entry.scores)
        for event in entry.scores:
            per_side[event.side] += event.points
    assert per_side == session.state.scores == replay(RECORD).state.scores
    assert session.export()["actions"] == RECORD["actions"]


def test_listeners_get_the_view_then_scores_and_views_and_can_leave(tmp_path: Path) -> None:
    session = _session(tmp_path)
    updates = session.subscribe()
    assert next(updates).kind == "view"
    assert session.listeners == 1
    jack = next(a for a in RECORD["actions"] if a["act"] == "starter")
    _play(session, RECORD["actions"][:6])
    seen = []
    while True:
        update = next(updates)
        seen.append(update.kind)
        if update.kind == "view" and update.to_json()["view"]["actions"] == 6:
            break
    assert seen.count("action") == 6
    if jack["card"].startswith("J"):
        assert "score" in seen
    updates.close()
    assert session.listeners == 0


def test_a_full_disk_refuses_the_action_and_says_so(tmp_path: Path) -> None:
    session = _session(tmp_path, max_bytes=48 * 1024)
    for filler in ({"act": "show", "player": 0, "cards": ["5H"] * 300}, RECORD["actions"][0]):
        with pytest.raises(StoreFullError):  # fill the store up, to the last row the size of the action
            for _ in range(5000):
                session.store.append(session.game_id, [("action", filler, None)], source="test")
    before = session.state
    with pytest.raises(StoreFullError):
        session.submit(RECORD["actions"][0])
    assert session.state is before
    assert "full" in session.view().to_json()["message"]


def test_new_game_keeps_the_old_one_and_refuses_unknown_games(tmp_path: Path) -> None:
    session = _session(tmp_path)
    _play(session, RECORD["actions"][:5])
    first = session.game_id
    with pytest.raises(UnknownGameError):
        session.new_game("tiddlywinks", ["A", "B"])
    assert session.game_id == first
    view = session.new_game("cribbage5", ["Cy", "Di"], {"target": 61})
    assert view.game == "cribbage5"
    fields = view.to_json()
    assert fields["target"] == 61 and fields["actions"] == 0
    assert [g.id for g in session.store.games()] == [first, session.game_id]
    assert len(session.store.export(first)["actions"]) == 5


def test_nothing_to_confirm_or_undo_is_said(tmp_path: Path) -> None:
    session = _session(tmp_path)
    with pytest.raises(IllegalActionError, match="nothing to confirm"):
        session.confirm()
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        session.undo()


def _crib_misread(tmp_path: Path) -> tuple[Session, list[dict], int, str, str]:
    """A game on the mat up to the first crib turned face up, its last card misread as a card
    already played in that deal: the crib cannot be counted and the device says why."""
    from device.protocols.script import play_script, record_to_script

    steps = record_to_script(RECORD)
    last = max(i for i, s in enumerate(steps[:_first_crib_end(steps) + 1]) if s.get("zone") == "crib")
    deal = max(i for i in range(last) if steps[i].get("zone") == "crib" and steps[i]["card"] == "back")
    right = steps[last]["card"]
    wrong = next(s["card"] for s in steps[deal:last] if s["op"] == "place" and str(s["zone"]).startswith("seat"))
    steps[last] = {**steps[last], "card": wrong}
    session = _session(tmp_path)
    play_script(session, steps[:last + 1], start=0)
    return session, steps, last, right, wrong


def _first_crib_end(steps: list[dict]) -> int:
    faces = [i for i, s in enumerate(steps) if s.get("zone") == "crib" and s["op"] == "place" and s["card"] != "back"]
    return faces[3]


def test_ok_to_ignore_a_misread_is_not_asked_again_until_the_table_changes(tmp_path: Path) -> None:
    from vision.events import TableEvent

    session, steps, last, right, wrong = _crib_misread(tmp_path)
    ask = session.view().to_json()["ask"]
    assert ask is not None and ask["kind"] == "illegal" and "crib" in ask["text"]
    rows = len(session.store.rows(session.game_id))
    updates = session.subscribe()
    next(updates)
    session.confirm(source="button")  # OK: ignore it
    assert session.view().to_json()["ask"] is None
    session.table_events([TableEvent("seat0", "KD", "placed", 1.0, 0.99, 7)])  # the camera goes on
    assert session.view().to_json()["ask"] is None
    assert len(session.store.rows(session.game_id)) == rows
    told = []
    while (update := next(updates)).kind != "ping":
        told.append(update)
    assert [u.ask for u in told if u.kind == "ask"] == [None]  # the question went, and stayed away
    updates.close()
    slot = steps[last]["slot"]
    session.table_events([TableEvent("crib", wrong, "removed", 2.0, 0.0, slot)])  # taken off...
    session.table_events([TableEvent("crib", right, "placed", 3.0, 0.99, slot)])  # ...and read right
    assert session.view().to_json()["ask"] is None
    assert session.entries[-1].action["act"] == "crib" and right in session.entries[-1].action["cards"]


def test_a_dismissed_question_comes_back_when_the_card_is_laid_again_as_wrong(tmp_path: Path) -> None:
    from vision.events import TableEvent

    session, steps, last, _, wrong = _crib_misread(tmp_path)
    session.confirm(source="button")
    slot = steps[last]["slot"]
    session.table_events([TableEvent("crib", wrong, "removed", 2.0, 0.0, slot),
                          TableEvent("crib", wrong, "placed", 3.0, 0.99, slot)])
    assert "crib" in session.view().to_json()["ask"]["text"]  # a new reading, the same problem


def test_undo_and_correct_keep_the_store_label_in_step_with_the_game(tmp_path: Path) -> None:
    session = _session(tmp_path)
    _play(session, RECORD["actions"])
    info = session.store.game(session.game_id)
    assert info.ended is not None and info.result == session.state.result_text()
    session.undo()
    assert session.store.game(session.game_id).result is None  # in play again
    _play(session, RECORD["actions"][-1:])
    assert session.store.game(session.game_id).result == session.state.result_text()
    session.correct(len(session.entries) - 1, RECORD["actions"][-1])
    assert session.store.game(session.game_id).result == session.state.result_text()


def test_a_full_disk_on_undo_says_so_and_changes_nothing(tmp_path: Path) -> None:
    session = _session(tmp_path, max_bytes=48 * 1024)
    _play(session, RECORD["actions"][:5])
    with pytest.raises(StoreFullError):
        for _ in range(5000):
            session.store.append(session.game_id, [("action", {"act": "show", "player": 0, "cards": ["5H"] * 300},
                                                    None)], source="test")
    with pytest.raises(StoreFullError):
        for _ in range(5000):
            session.store.append(session.game_id, [("undo", None, None)], source="test")
    before = session.state
    with pytest.raises(StoreFullError):
        session.undo()
    assert session.state is before and "full" in session.view().to_json()["message"]


def test_a_seat_the_game_does_not_have_sees_what_a_spectator_sees(tmp_path: Path) -> None:
    session = _session(tmp_path)
    _play(session, RECORD["actions"][:8])
    assert session.view(7) == session.view(None) and session.view(-1) == session.view(None)


def test_an_ok_the_store_refuses_dismisses_nothing(tmp_path: Path) -> None:
    from device.protocols import Ask

    session = _session(tmp_path, max_bytes=48 * 1024)
    _play(session, RECORD["actions"][:1])
    cut = {"act": "cut", "player": 1, "card": next(c for c in ("2C", "3C") if c != RECORD["actions"][0]["card"])}
    session.protocol.ask = Ask("confirm", "is that the card in Bob's row?", Zone.parse("seat1"), 0, cut["card"],
                               [session.game.action_from_json(cut)])
    with pytest.raises(StoreFullError):
        for _ in range(5000):
            session.store.append(session.game_id, [("action", {"act": "show", "player": 0, "cards": ["5H"] * 300},
                                                    None)], source="test")
    with pytest.raises(StoreFullError):
        for _ in range(5000):
            session.store.append(session.game_id, [("action", cut, None)], source="test")
    with pytest.raises(StoreFullError):
        session.confirm()
    assert session.view().to_json()["ask"]["card"] == cut["card"]  # still asked: OK again once there is room
