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
