"""The pegging protocol: table events in, game actions out. A record played on the mat (its
placement script, as the tracker would report it) must score exactly as the record; the device
asks and waits when unsure, and refuses what the rules refuse."""

from __future__ import annotations

from pathlib import Path

import pytest

from device.protocols.script import ScriptTable, play_script, record_to_script
from device.session import Session
from device.store import Store
from games.bhargage.autoplay import autoplay as decktet_autoplay
from games.cribbage.autoplay import autoplay
from games.records import replay
from vision.events import TableEvent


def _session(tmp_path: Path, record: dict, name: str = "t.db") -> Session:
    return Session(Store(tmp_path / name), game=record["game"], players=record["players"],
                   options=record.get("options"), ping_s=0.01)


def _first(steps: list[dict], op: str, zone_prefix: str = "seat", after: int = 0) -> int:
    return next(i for i, s in enumerate(steps) if i >= after and s["op"] == op
                and str(s.get("zone", "")).startswith(zone_prefix) and s.get("card") not in (None, "back"))


@pytest.mark.parametrize(("game", "seed"),
                         [(g, s) for g in ("cribbage", "cribbage5", "bhargage") for s in range(4)])
def test_a_game_played_on_the_mat_scores_as_the_record(tmp_path: Path, game: str, seed: int) -> None:
    maker = decktet_autoplay if game == "bhargage" else autoplay
    record = maker(game, seed=seed, known_hands=False)
    steps = record_to_script(record)
    assert not any(s["op"] == "say" and s["action"]["act"] == "play" for s in steps)  # plays are seen
    session = _session(tmp_path, record)
    problems: list[object] = []
    play_script(session, steps, on_step=lambda i, step, error: error and problems.append((i, error)))
    want = replay(record).state
    assert problems == [] and session.protocol.ask is None
    assert session.state.scores == want.scores and session.state.winner == want.winner
    assert [e.kind for e in session.state.events] == [e.kind for e in want.events]
    sources = {e.source for e in session.entries}
    assert "table" in sources  # scored from the table, not typed in


def test_a_doubtful_read_is_asked_about_and_play_waits_until_ok(tmp_path: Path) -> None:
    record = autoplay("cribbage", seed=7, known_hands=False)
    steps = record_to_script(record)
    k = _first(steps, "place", after=_first(steps, "place", "starter"))
    steps[k] = {**steps[k], "confidence": 0.4}
    session = _session(tmp_path, record)
    updates = session.subscribe()
    next(updates)
    table = ScriptTable(steps)
    for index, _, events in table.events():
        session.table_events(events, input=f"script:{index}")
        if index == k:
            pending = []
            while (update := next(updates).to_json())["type"] != "ping":  # what the phones were told at once
                pending.append(update)
            assert any(u["type"] == "ask" and u["ask"]["card"] == steps[k]["card"] for u in pending)
            updates.close()
            held = len(session.entries)
            ask = session.view()["ask"]
            assert ask["kind"] == "confirm" and ask["card"] == steps[k]["card"]
            assert steps[k]["card"] in session.view()["message"]
        if index == k + 6:
            break
    assert len(session.entries) == held  # nothing scored while the device waits
    session.confirm(source="button")  # OK: the card was right; what waited is played now
    for index, _, events in table.events(k + 7):
        session.table_events(events, input=f"script:{index}")
    assert session.state.scores == replay(record).state.scores
    assert any(e.source == "button" for e in session.entries)


def test_a_misread_card_is_corrected_from_the_phone(tmp_path: Path) -> None:
    record = autoplay("cribbage", seed=8, known_hands=False)
    steps = record_to_script(record)
    k = _first(steps, "place", after=_first(steps, "place", "starter"))
    right = steps[k]["card"]
    a = max(i for i in range(k) if steps[i]["op"] == "remove")
    b = min(i for i in range(k, len(steps)) if steps[i]["op"] == "remove")
    used = {s.get("card") for s in steps[a:b]}  # the cards of this deal
    wrong = next(f"{r}{s}" for s in "SHDC" for r in ("A", "2", "3", "4") if f"{r}{s}" not in used)
    steps[k] = {**steps[k], "card": wrong, "confidence": 0.5}
    session = _session(tmp_path, record)
    told: list[tuple[str, int | None, str]] = []
    session.on_resolved = lambda zone, slot, card: told.append((zone, slot, card))  # the table's kept crop moves
    table = ScriptTable(steps)
    for index, _, events in table.events():
        session.table_events(events, input=f"script:{index}")
        if index == k:
            assert session.view()["ask"]["card"] == wrong
            session.resolve(right, source="phone")
            assert session.view()["ask"] is None
    assert session.state.scores == replay(record).state.scores
    fixed = [e.action for e in session.entries if e.source == "phone"]
    assert fixed and fixed[-1]["card"] == right
    assert told == [(steps[k]["zone"], steps[k]["slot"], right)]


def test_an_unreadable_card_waits_and_taking_it_back_answers(tmp_path: Path) -> None:
    record = autoplay("cribbage", seed=9, known_hands=False)
    steps = record_to_script(record)
    k = _first(steps, "place", after=_first(steps, "place", "starter"))
    zone, slot = steps[k]["zone"], steps[k]["slot"]
    steps[k:k] = [{"op": "place", "zone": zone, "slot": slot, "card": "unknown", "confidence": 0.2},
                  {"op": "remove", "zone": zone, "slot": slot}]  # straightened: read again
    session = _session(tmp_path, record)
    asked = []
    play_script(session, steps, on_step=lambda i, s, e: asked.append(session.view()["ask"]) if i == k else None)
    assert asked[0]["kind"] == "unreadable" and "cannot read" in asked[0]["text"]
    assert session.state.scores == replay(record).state.scores


def test_a_play_the_rules_refuse_is_not_applied_and_the_device_says_why(tmp_path: Path) -> None:
    record = autoplay("cribbage", seed=10, known_hands=False)
    steps = record_to_script(record)
    k = _first(steps, "place", after=_first(steps, "place", "starter"))
    session = _session(tmp_path, record)
    play_script(session, steps[: k + 1], start=0)
    rows = len(session.store.rows(session.game_id))
    card = steps[k]["card"]
    other = "seat1" if steps[k]["zone"] == "seat0" else "seat0"
    session.table_events([TableEvent(other, card, "placed", 99.0, 0.99, 4)])  # the same card again
    view = session.view()
    assert view["ask"]["kind"] == "illegal" and card in view["message"]
    assert len(session.store.rows(session.game_id)) == rows
    session.confirm(source="button")  # OK: ignore that card
    assert session.view()["ask"] is None and len(session.store.rows(session.game_id)) == rows


def test_cards_seen_again_after_a_restart_are_not_applied_twice(tmp_path: Path) -> None:
    record = autoplay("cribbage", seed=11, known_hands=False)
    steps = record_to_script(record)
    k = len(steps) // 2
    session = _session(tmp_path, record)
    play_script(session, steps[:k], start=0)
    rows = len(session.store.rows(session.game_id))
    session.store.close()
    again = _session(tmp_path, record)  # a restart: the tracker finds every card on the mat again
    again.table_events(ScriptTable(steps).resight(k))
    assert len(again.store.rows(again.game_id)) == rows
    play_script(again, steps, start=k)
    assert again.state.scores == replay(record).state.scores


def test_go_and_a_new_count_are_inferred_from_the_order_of_plays(tmp_path: Path) -> None:
    session = Session(Store(tmp_path / "t.db"), players=["Ann", "Bob"])
    for action in ({"act": "deal", "dealer": 0}, {"act": "discard", "player": 0},
                   {"act": "discard", "player": 1}, {"act": "starter", "card": "2C"}):
        session.submit(action)
    plays = [("seat1", "KH"), ("seat0", "QH"), ("seat1", "5S"), ("seat0", "4D")]  # 10 20 25 29
    for i, (zone, card) in enumerate(plays):
        session.table_events([TableEvent(zone, card, "placed", float(i), 0.99, i // 2)])
    assert session.state.count == 29 and session.state.turn == 1
    # Bob lays a 3: it cannot fit 29, so Bob had said go, Ann could not play either (1 for last),
    # and Bob leads the next count
    session.table_events([TableEvent("seat1", "3D", "placed", 9.0, 0.99, 2)])
    assert [e.action["act"] for e in session.entries[-3:]] == ["play", "go", "play"]
    assert session.state.count == 3 and session.state.scores == [1, 0]
    assert session.state.events[-1].kind == "last"
    # Ann's 9 lands next: fine. Then Bob's 10 and Ann's... a card in Ann's row while Bob is to
    # play at a count of 12 cannot mean Bob said go (every card fits 12): it is refused, with why
    session.table_events([TableEvent("seat0", "9D", "placed", 10.0, 0.99, 3)])
    assert session.state.count == 12
    session.table_events([TableEvent("seat0", "AD", "placed", 11.0, 0.99, 4)])
    ask = session.view()["ask"]
    assert ask["kind"] == "illegal" and "turn" in ask["text"] and session.state.count == 12
