"""The pegging protocol: table events in, game actions out. A record played on the mat (its
placement script, as the tracker would report it) must score exactly as the record; the device
asks and waits when unsure, and refuses what the rules refuse."""

from __future__ import annotations

from pathlib import Path

import pytest

from device.protocols import PhoneOnly, TableProtocol, protocol_for, register_protocol, registered_protocols
from device.protocols.pegging import PeggingProtocol
from device.protocols.script import ScriptTable, play_script, record_to_script
from device.session import Session
from device.store import Store
from games import registered_games
from games.bhargage.autoplay import autoplay as decktet_autoplay
from games.cribbage.autoplay import autoplay
from games.errors import PegpiError
from games.records import replay
from games.table import Zone
from vision.events import TableEvent


def _session(tmp_path: Path, record: dict, name: str = "t.db") -> Session:
    return Session(Store(tmp_path / name), game=record["game"], players=record["players"],
                   options=record.get("options"), ping_s=0.01)


def _first(steps: list[dict], op: str, zone_prefix: str = "seat", after: int = 0) -> int:
    return next(i for i, s in enumerate(steps) if i >= after and s["op"] == op
                and str(s.get("zone", "")).startswith(zone_prefix) and s.get("card") not in (None, "back"))


@pytest.mark.parametrize(("game", "seed"),
                         [(g, s) for g in ("cribbage", "cribbage5", "bhargage", "suitcases") for s in range(4)])
def test_a_game_played_on_the_mat_scores_as_the_record(tmp_path: Path, game: str, seed: int) -> None:
    maker = decktet_autoplay if game in ("bhargage", "suitcases") else autoplay
    record = maker(game, seed=seed, known_hands=False)
    steps = record_to_script(record)
    assert not any(s["op"] == "say" and s["action"]["act"] == "play" for s in steps)  # plays are seen
    assert isinstance(_session(tmp_path, record, "probe.db").protocol, PeggingProtocol)
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
            ask = session.view().to_json()["ask"]
            assert ask["kind"] == "confirm" and ask["card"] == steps[k]["card"]
            assert steps[k]["card"] in session.view().to_json()["message"]
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
            assert session.view().to_json()["ask"]["card"] == wrong
            session.resolve(right, source="phone")
            assert session.view().to_json()["ask"] is None
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
    play_script(session, steps, on_step=lambda i, s, e: asked.append(session.view().to_json()["ask"]) if i == k else None)
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
    view = session.view().to_json()
    assert view["ask"]["kind"] == "illegal" and card in view["message"]
    assert len(session.store.rows(session.game_id)) == rows
    session.confirm(source="button")  # OK: ignore that card
    assert session.view().to_json()["ask"] is None and len(session.store.rows(session.game_id)) == rows


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
    ask = session.view().to_json()["ask"]
    assert ask["kind"] == "illegal" and "turn" in ask["text"] and session.state.count == 12


# ------------------------------------------------------------------ the registry


def test_every_game_gets_the_protocol_its_table_names_or_says_it_is_phone_only(tmp_path: Path) -> None:
    protocols = registered_protocols()
    assert protocols["pegging"] is PeggingProtocol
    phone_only = set()
    for spec in registered_games():
        players = [f"P{i}" for i in range(spec.players[0])]
        session = Session(Store(tmp_path / f"{spec.name}.db"), game=spec.name, players=players, ping_s=0.01)
        protocol = session.protocol
        if spec.table in protocols and protocols[spec.table].serves(session.state):
            assert type(protocol) is protocols[spec.table] and protocol.notice is None, spec.name
            assert session.view().to_json()["message"] is None
        else:  # games whose table's questions they do not answer yet (Gin Rummy, Ricochet...)
            assert isinstance(protocol, PhoneOnly), spec.name
            message = session.view().to_json()["message"]
            assert spec.table in message and "phone" in message and spec.title in message
            phone_only.add(spec.name)
    assert not {"cribbage", "patience", "bhargage"} & phone_only


def test_a_new_table_protocol_is_a_registration(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import device.protocols as protocols

    protocols.registered_protocols()  # every module of the package registers its own first
    monkeypatch.setattr(protocols, "_PROTOCOLS", {k: v for k, v in protocols._PROTOCOLS.items() if k != "tricks"})

    @register_protocol
    class Tricks(TableProtocol):
        name = "tricks"

    session = Session(Store(tmp_path / "t.db"), game="ohhell", players=["Ann", "Bob", "Cy"], ping_s=0.01)
    assert type(protocol_for(session)) is Tricks
    with pytest.raises(ValueError, match="taken"):
        register_protocol(type("Other", (TableProtocol,), {"name": "tricks"}))


# ------------------------------------------------------------------ Suitcases at the table


def test_suitcases_played_on_the_mat_infers_its_passes_from_the_order_of_plays(tmp_path: Path) -> None:
    session = Session(Store(tmp_path / "t.db"), game="suitcases", players=["Ann", "Bob"], ping_s=0.01)
    assert isinstance(session.protocol, PeggingProtocol)
    session.submit({"act": "deal", "dealer": 0})
    t = iter(range(1000))

    def lay(zone: str, card: str, slot: int) -> None:
        session.table_events([TableEvent(zone, card, "placed", float(next(t)), 0.99, slot)])
        assert session.view().to_json()["ask"] is None, (zone, card, session.view().to_json()["message"])

    for slot in range(4):
        lay("crib", "back", slot)  # two each laid away, face down
    lay("starter", "Ace of Moons", 0)
    lay("seat1", "the Author", 0)  # Bob leads: Moons, Knots
    lay("seat0", "the Origin", 0)  # Waves, Leaves
    lay("seat1", "the Desert", 1)  # Suns, Wyrms: all six suits are used
    # Ann's Painter cannot go on (Suns, Knots used): Ann passed, then Bob, who pegs 1 for last,
    # and Ann leads the next suit attempt with it
    lay("seat0", "the Painter", 1)
    assert [e.action for e in session.entries[-3:]] == [
        {"act": "pass", "player": 0}, {"act": "pass", "player": 1},
        {"act": "play", "player": 0, "card": "the Painter"}]
    second_pass = len(session.entries) - 2
    assert [(e.kind, e.seat, e.points) for e in session.state.events if e.action_index == second_pass] == [
        ("last", 1, 1)]
    lay("seat1", "Ace of Waves", 2)
    lay("seat0", "the Savage", 2)  # Leaves, Wyrms
    # Bob is to play; a card in Ann's row means Bob passed (Ann plays on alone)
    lay("seat0", "the Huntress", 3)
    assert [e.action["act"] for e in session.entries[-2:]] == ["pass", "play"]
    lay("seat1", "the Sailor", 3)  # Bob's last card leads a new attempt; the play is over
    assert session.state.phase == "show" and session.state.prompt() == "dealer to count the crib"
    for slot in range(4):  # the crib is turned up
        session.table_events([TableEvent("crib", "back", "removed", float(next(t)), 0.99, slot)])
    for slot, card in enumerate(["the Journey", "the Mountain", "the Forest", "the Lunatic"]):
        lay("crib", card, slot)
    session.table_events([], on_table={})  # the mat is cleared: the next deal, Bob's
    mat = dict(session.protocol.mat) if isinstance(session.protocol, PeggingProtocol) else {}
    for (zone, slot) in mat:
        session.table_events([TableEvent(zone.name, mat[(zone, slot)].card, "removed", 99.0, 0.99, slot)])
    want = [
        {"act": "deal", "dealer": 0}, {"act": "discard", "player": 0}, {"act": "discard", "player": 1},
        {"act": "starter", "card": "Ace of Moons"},
        {"act": "play", "player": 1, "card": "the Author"}, {"act": "play", "player": 0, "card": "the Origin"},
        {"act": "play", "player": 1, "card": "the Desert"}, {"act": "pass", "player": 0},
        {"act": "pass", "player": 1}, {"act": "play", "player": 0, "card": "the Painter"},
        {"act": "play", "player": 1, "card": "Ace of Waves"}, {"act": "play", "player": 0, "card": "the Savage"},
        {"act": "pass", "player": 1}, {"act": "play", "player": 0, "card": "the Huntress"},
        {"act": "play", "player": 1, "card": "the Sailor"}, {"act": "show", "player": 1},
        {"act": "show", "player": 0},
        {"act": "crib", "cards": ["the Journey", "the Mountain", "the Forest", "the Lunatic"]},
        {"act": "deal", "dealer": 1},
    ]
    assert [e.action for e in session.entries] == want
    expected = replay({"game": "suitcases", "players": ["Ann", "Bob"], "actions": want}).state
    assert session.state.scores == expected.scores and expected.scores[1] >= 2  # at least 1 for last twice
    assert {e.source for e in session.entries[1:]} == {"table"}


# ------------------------------------------------------------------ the game changed under the table


def _deal_one(record: dict) -> tuple[list[dict], int, int]:
    """The script of ``record``, the step turning up deal 1's crib, and deal 1's last play step."""
    steps = record_to_script(record)
    crib = next(i for i, s in enumerate(steps) if s["op"] == "place" and s["zone"] == "crib"
                and s["card"] != "back")
    last = max(i for i in range(crib) if steps[i]["op"] == "place" and steps[i]["zone"].startswith("seat"))
    return steps, crib, last


def test_a_correction_that_clashes_with_the_crib_can_be_set_aside_and_undone(tmp_path: Path) -> None:
    """Issue 39: a played card corrected to one of the crib's made the crib refused; OK asked the
    same again; correcting it back did not read the crib again, and the game froze."""
    from games.cards import Card
    from games.cribbage.scoring import value

    for seed in range(20):
        record = autoplay("cribbage", seed=seed, known_hands=False)
        steps, crib, last = _deal_one(record)
        played = steps[last]["card"]
        crib_cards = [s["card"] for s in steps[crib:crib + 4]]
        lower = [c for c in crib_cards if value(Card.parse(c)) <= value(Card.parse(played))]
        if lower:
            break
    clash = lower[0]
    session = _session(tmp_path, record)
    play_script(session, steps[:crib], start=0)
    index = next(i for i, e in enumerate(session.entries) if e.action.get("card") == played
                 and e.action["act"] == "play")
    seat = session.entries[index].action["player"]
    session.correct(index, {"act": "play", "player": seat, "card": clash})  # the wrong correction
    play_script(session, steps[:crib + 4], start=crib)  # the crib is turned up
    ask = session.view().to_json()["ask"]
    assert ask["kind"] == "illegal" and clash in ask["text"] and "already been seen" in ask["text"]
    counted = len(session.entries)
    session.confirm(source="button")  # OK: leave it
    assert session.view().to_json()["ask"] is None and len(session.entries) == counted
    with pytest.raises(PegpiError, match="nothing to confirm"):
        session.confirm(source="button")  # not asked again
    session.correct(index, {"act": "play", "player": seat, "card": played})  # put right
    assert session.entries[-1].action["act"] == "crib" and session.view().to_json()["ask"] is None  # the crib is read again
    play_script(session, steps, start=crib + 4)
    assert session.state.scores == replay(record).state.scores


def test_an_undone_count_from_the_table_is_not_applied_again_until_the_mat_changes(tmp_path: Path) -> None:
    record = autoplay("cribbage", seed=4, known_hands=False)
    steps, crib, _ = _deal_one(record)
    session = _session(tmp_path, record)
    play_script(session, steps[:crib + 4], start=0)
    assert session.entries[-1].action["act"] == "crib"
    session.undo()
    assert session.entries[-1].action["act"] != "crib" and session.state.phase == "show"
    # the dealer straightens a crib card: the crib is read again
    zone, slot, card = steps[crib]["zone"], steps[crib]["slot"], steps[crib]["card"]
    session.table_events([TableEvent(zone, card, "removed", 500.0, 0.99, slot),
                          TableEvent(zone, card, "placed", 501.0, 0.99, slot)])
    assert session.entries[-1].action["act"] == "crib"
    play_script(session, steps, start=crib + 4)
    assert session.state.scores == replay(record).state.scores


def test_a_card_named_on_the_phone_is_what_lies_there_from_then_on(tmp_path: Path) -> None:
    record = autoplay("cribbage", seed=9, known_hands=False)
    steps = record_to_script(record)
    k = _first(steps, "place", after=_first(steps, "place", "starter"))
    zone, slot, card = steps[k]["zone"], steps[k]["slot"], steps[k]["card"]
    steps[k] = {**steps[k], "card": "unknown", "confidence": 0.2}  # it stays unreadable
    session = _session(tmp_path, record)
    play_script(session, steps[: k + 1], start=0)
    assert session.view().to_json()["ask"]["kind"] == "unreadable"
    session.submit({"act": "play", "player": Zone.parse(zone).seat, "card": card})  # entered on the phone
    protocol = session.protocol
    assert isinstance(protocol, PeggingProtocol)
    assert [s.card for (z, s_), s in protocol.mat.items() if (z.name, s_) == (zone, slot)] == [card]
    for index, step, events in ScriptTable(steps).events(k + 1):  # the camera goes on (no re-sighting)
        if step["op"] == "say":
            session.submit(step["action"], input=f"script:{index}")
        else:
            session.table_events(events, input=f"script:{index}")
    assert session.state.scores == replay(record).state.scores


def test_an_undone_play_whose_card_is_taken_back_stays_undone(tmp_path: Path) -> None:
    """Undo a lead and take its card back (the starter and the crib still lie there): the game
    waits for the lead; only the card laid again is played."""
    record = autoplay("cribbage", seed=4, known_hands=False)
    steps = record_to_script(record)
    lead = _first(steps, "place", after=_first(steps, "place", "starter"))
    session = _session(tmp_path, record)
    play_script(session, steps[: lead + 1], start=0)
    assert session.entries[-1].action["act"] == "play"
    session.undo()
    zone, slot, card = steps[lead]["zone"], steps[lead]["slot"], steps[lead]["card"]
    session.table_events([TableEvent(zone, card, "removed", 500.0, 0.99, slot)])
    assert session.entries[-1].action["act"] == "starter" and session.protocol.ask is None
    session.table_events([TableEvent(zone, card, "placed", 501.0, 0.99, slot)])
    assert session.entries[-1].action == {"act": "play", "player": Zone.parse(zone).seat, "card": card}
    play_script(session, steps, start=lead + 1)
    assert session.state.scores == replay(record).state.scores


def test_cards_laid_again_out_of_order_are_taken_once_they_fit(tmp_path: Path) -> None:
    """After undos, the rows are laid again seat by seat: a card the rules refuse for now is let
    lie with OK, and is taken as soon as the card it follows is played."""
    record = autoplay("cribbage", seed=4, known_hands=False)
    steps = record_to_script(record)
    starter = _first(steps, "place", "starter")
    plays = [i for i in range(starter + 1, len(steps)) if steps[i]["op"] == "place"][:4]
    session = _session(tmp_path, record)
    play_script(session, steps[: plays[-1] + 1], start=0)
    played = [e.action for e in session.entries]
    for _ in plays:
        session.undo()
    t = 600.0
    for i in sorted(plays, key=lambda i: (steps[i]["zone"], steps[i]["slot"])):  # row by row
        zone, slot, card = steps[i]["zone"], steps[i]["slot"], steps[i]["card"]
        session.table_events([TableEvent(zone, card, "removed", t, 0.99, slot),
                              TableEvent(zone, card, "placed", t + 1, 0.99, slot)])
        t += 2
        if session.protocol.ask is not None:
            assert session.protocol.ask.kind == "illegal"
            session.confirm()  # OK: let it lie
    assert [e.action for e in session.entries] == played
    play_script(session, steps, start=plays[-1] + 1)
    assert session.state.scores == replay(record).state.scores
