"""The combinations protocol (Fight the Landlord): a seat's new cards read as one play once the
group is down, the passes the order of play proves, the round over when its combination to beat
is lifted, the kitty turned up, and every doubtful, unreadable or refused play asked about with
nothing recorded lost."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from device.protocols.combos import STILL_S, CombosProtocol, combos_script
from device.protocols.script import play_script, record_to_script
from device.session import TEACH_ASKED, Session
from device.store import Store
from games.errors import PegpiError
from games.records import replay
from games.table import KITTY, CombosTable, Zone
from vision.events import TableEvent

PLAYERS = ["Ann", "Bob", "Cy"]
MIDDLE = ["AC", "2S", "2C"]


class Table:
    """Events laid by hand, one clock for all (half a second a card)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.t = 0.0

    def lay(self, zone: str, *cards: str, confidence: float = 0.99, start: int = 0) -> None:
        for slot, card in enumerate(cards, start):
            self.t += 0.5
            self.session.table_events([TableEvent(zone, card, "placed", self.t, confidence, slot)])

    def lift(self, zone: str, *slots: int, wait: float = 0.5) -> None:
        for slot in slots:
            self.t += wait
            card = self.session.protocol.mat[(Zone.parse(zone), slot)].card
            self.session.table_events([TableEvent(zone, card, "removed", self.t, 1.0, slot)])


def _played(session: Session) -> list[dict[str, Any]]:
    return [dict(e.action) for e in session.entries if e.action["act"] in ("play", "pass", "kitty")]


def _ask(session: Session) -> dict[str, Any] | None:
    ask: dict[str, Any] | None = session.view().to_json()["ask"]
    return ask


@pytest.fixture
def table(tmp_path: Path) -> Table:
    """Ann bids 3 and is the landlord; the middle cards lie face down, then are turned up."""
    session = Session(Store(tmp_path / "t.db"), game="landlord", players=PLAYERS, ping_s=0.01)
    assert isinstance(session.protocol, CombosProtocol) and isinstance(session.state, CombosTable)
    session.submit({"act": "deal", "first": 0})
    at = Table(session)
    at.lay("kitty", "back", "back", "back")
    session.submit({"act": "bid", "player": 0, "points": 3})
    assert session.state.phase == "kitty" and not _played(session)  # face down: nothing yet
    for slot, card in enumerate(MIDDLE):
        at.lift("kitty", slot)
        at.lay("kitty", card, start=slot)
    assert _played(session) == [{"act": "kitty", "cards": MIDDLE}]
    at.lift("kitty", 0, 1, 2)  # Ann takes them into her hand: that means nothing more
    assert len(session.entries) == 3 and session.state.whose_turn() == 0 and _ask(session) is None
    return at


def test_a_combination_is_read_as_one_group_once_the_next_seat_plays(table: Table) -> None:
    session = table.session
    table.lay("seat0", "5S", "5H")
    assert not _played(session)[1:]  # a single 5S is no play while the pair is being laid
    assert "5S 5H" in (session.view().to_json()["message"] or "")  # the board shows the group being laid
    table.lay("seat1", "7S", "7H")
    assert _played(session)[1:] == [{"act": "play", "player": 0, "cards": ["5S", "5H"]}]
    session.confirm(source="button")  # OK: Bob's pair is down
    assert _played(session)[2:] == [{"act": "play", "player": 1, "cards": ["7S", "7H"]}]
    view = session.view().to_json()
    assert view["beat"]["cards"] == ["7S", "7H"] and view["turn"] == 2 and view["landlord"] == 0
    assert "pair of 7 (7S 7H)" in view["prompt"] and "landlord Ann" in view["prompt"]


def test_passes_are_inferred_from_the_order_and_the_round_ends_when_its_play_is_lifted(table: Table) -> None:
    session = table.session
    table.lay("seat0", "5S", "5H")
    table.lay("seat2", "9S", "9H")  # Cy plays while Bob was to: Bob passed
    session.confirm(source="button")
    assert _played(session)[1:] == [{"act": "play", "player": 0, "cards": ["5S", "5H"]},
                                    {"act": "pass", "player": 1},
                                    {"act": "play", "player": 2, "cards": ["9S", "9H"]}]
    table.lift("seat0", 0, 1)  # Ann's old pair lifted: it is not the one to beat, nothing follows
    assert len(_played(session)) == 4
    table.lift("seat2", 0)
    assert len(_played(session)) == 4  # one card of the 9s still lies
    table.lift("seat2", 1)  # the pair to beat is gone: Ann and Bob passed, Cy leads
    assert _played(session)[4:] == [{"act": "pass", "player": 0}, {"act": "pass", "player": 1}]
    assert session.state.whose_turn() == 2 and session.view().to_json()["beat"] is None


def test_a_leader_s_new_play_proves_both_passes_without_the_round_lifted(table: Table) -> None:
    session = table.session
    table.lay("seat0", "5S", "5H")
    session.confirm(source="button")
    table.lay("seat0", "8S", "8H", start=2)  # Ann lays again beside her pair: Bob and Cy passed
    session.confirm(source="button")
    assert _played(session)[2:] == [{"act": "pass", "player": 1}, {"act": "pass", "player": 2},
                                    {"act": "play", "player": 0, "cards": ["8S", "8H"]}]


def test_a_play_that_does_not_beat_is_named_and_waits(table: Table) -> None:
    session = table.session
    table.lay("seat0", "9S", "9H")
    table.lay("seat1", "3S", "3H")
    session.confirm(source="button")
    ask = _ask(session)
    assert ask is not None and ask["kind"] == "illegal" and ask["zone"] == "seat1"
    assert ask["text"].startswith("3S 3H: it does not beat 9S 9H")
    assert session.view().to_json()["message"] == ask["text"]
    assert len(_played(session)) == 2  # Ann's pair only
    table.lift("seat1", 0, 1)  # Bob takes his 3s back: the question is answered
    table.lay("seat1", "10S", "10H")
    session.confirm(source="button")
    assert _played(session)[2:] == [{"act": "play", "player": 1, "cards": ["10S", "10H"]}]
    assert _ask(session) is None and session.state.whose_turn() == 2


def test_ok_on_a_refused_play_sets_it_aside_and_play_goes_on(table: Table) -> None:
    session = table.session
    table.lay("seat1", "4S")  # Ann leads: Bob cannot play first
    session.confirm(source="button")
    ask = _ask(session)
    assert ask is not None and ask["kind"] == "illegal" and "Ann leads: Bob plays out of turn" in ask["text"]
    session.confirm(source="button")  # leave it
    assert _ask(session) is None and len(_played(session)) == 1
    table.lay("seat0", "6S")
    session.confirm(source="button")
    assert _played(session)[1:] == [{"act": "play", "player": 0, "cards": ["6S"]}]


def test_a_group_with_an_unsure_card_is_asked_about_before_it_is_judged(table: Table) -> None:
    session = table.session
    table.lay("seat0", "5S")
    table.lay("seat0", "5H", confidence=0.4, start=1)
    table.lay("seat1", "7S")
    ask = _ask(session)
    assert ask is not None and ask["kind"] == "confirm" and ask["card"] == "5H" and ask["slot"] == 1
    assert "Ann's zone (5S 5H)" in ask["text"]
    assert ask["actions"] == [{"act": "play", "player": 0, "cards": ["5S", "5H"]}]
    assert len(_played(session)) == 1  # nothing counts before OK; Bob's card waits
    session.confirm(source="button")
    assert _played(session)[1:] == [{"act": "play", "player": 0, "cards": ["5S", "5H"]}]
    table.lay("seat1", "7H", start=1)  # Bob's pair goes on as laid
    session.confirm(source="button")
    assert _played(session)[2:] == [{"act": "play", "player": 1, "cards": ["7S", "7H"]}]


def test_an_unsure_card_corrected_on_the_phone_plays_as_corrected(table: Table) -> None:
    session = table.session
    table.lay("seat0", "5S")
    table.lay("seat0", "5H", confidence=0.4, start=1)
    session.confirm(source="button")  # the play is down; the 5H is asked about
    assert (_ask(session) or {})["kind"] == "confirm"
    with pytest.raises(PegpiError):
        session.resolve("ZZ")  # no such card: the question stands
    session.resolve("5D")
    assert _played(session)[1:] == [{"act": "play", "player": 0, "cards": ["5S", "5D"]}]
    assert _ask(session) is None


def test_a_recorded_play_corrected_on_the_phone_is_not_read_again(table: Table) -> None:
    session = table.session
    table.lay("seat0", "5S", "5H")
    session.confirm(source="button")
    index = len(session.entries) - 1
    session.correct(index, {"act": "play", "player": 0, "cards": ["5S", "5D"]})  # it was the 5D
    table.lay("seat1", "7S", "7H")
    session.confirm(source="button")
    assert _played(session)[1:] == [{"act": "play", "player": 0, "cards": ["5S", "5D"]},
                                    {"act": "play", "player": 1, "cards": ["7S", "7H"]}]
    mat = session.protocol.mat
    assert mat[(Zone.row(0), 1)].card == "5D"  # the card lying there takes the corrected name
    table.lift("seat0", 0, 1)  # the corrected pair lifted: not the pair to beat, nothing follows
    assert len(_played(session)) == 3


def test_an_undone_play_is_not_read_again_until_its_zone_changes(table: Table) -> None:
    session = table.session
    table.lay("seat0", "5S", "5H")
    session.confirm(source="button")
    session.undo()
    assert len(_played(session)) == 1 and _ask(session) is None
    table.lift("seat0", 1)
    table.lay("seat0", "5D", start=1)
    session.confirm(source="button")
    assert _played(session)[1:] == [{"act": "play", "player": 0, "cards": ["5S", "5D"]}]


def test_an_unreadable_card_is_named_and_the_phone_entry_answers_it(table: Table) -> None:
    session = table.session
    table.lay("seat0", "6S", "unknown")
    session.confirm(source="button")
    ask = _ask(session)
    assert ask is not None and ask["kind"] == "unreadable" and ask["zone"] == "seat0" and ask["slot"] == 1
    session.submit({"act": "play", "player": 0, "cards": ["6S", "6H"]})
    assert _ask(session) is None and session.state.whose_turn() == 1
    table.lay("seat1", "8S", "8H")
    session.confirm(source="button")
    assert _played(session)[2:] == [{"act": "play", "player": 1, "cards": ["8S", "8H"]}]


def test_a_play_lain_still_is_made_before_its_cards_are_lifted(table: Table) -> None:
    session = table.session
    table.lay("seat0", "5S", "5H")  # nobody presses OK, Bob and Cy pass in silence
    table.lift("seat0", 0, 1, wait=STILL_S + 1)  # the round is lifted
    assert _played(session)[1:] == [{"act": "play", "player": 0, "cards": ["5S", "5H"]},
                                    {"act": "pass", "player": 1}, {"act": "pass", "player": 2}]
    assert session.state.whose_turn() == 0


def test_a_card_taken_back_at_once_is_a_correction_of_the_group_being_laid(table: Table) -> None:
    session = table.session
    table.lay("seat0", "5S", "6H")
    table.lift("seat0", 1)  # at once: a slip, not a play
    table.lay("seat0", "5H", start=1)
    table.lay("seat1", "7S", "7H")
    assert _played(session)[1:] == [{"act": "play", "player": 0, "cards": ["5S", "5H"]}]


# ------------------------------------------------------------------ the script


HANDS = [
    "5S 5H 5D 5C BJ RJ 3S 4S 6S 7S 8S 9S 10S JS QS KS AS",
    "3H 4H 6H 7H 8H 9H 10H JH QH KH AH 2H 3D 4D 6D 7D 8D",
    "9D 10D JD QD KD AD 2D 3C 4C 6C 7C 8C 9C 10C JC QC KC",
]


def _record(*plays: dict[str, Any]) -> dict[str, Any]:
    deal = {"act": "deal", "first": 0, "hands": [h.split() for h in HANDS], "cards": MIDDLE}
    return {"game": "landlord", "players": PLAYERS,
            "actions": [deal, {"act": "bid", "player": 0, "points": 3}, {"act": "kitty", "cards": MIDDLE}, *plays]}


def test_a_play_too_long_for_the_outlines_is_entered_on_the_phone_and_the_script_plays_as_recorded(
        tmp_path: Path) -> None:
    chain = "3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS".split()  # twelve cards: Ann's zone has nine outlines
    record = _record({"act": "play", "player": 0, "cards": chain}, {"act": "pass", "player": 1},
                     {"act": "pass", "player": 2}, {"act": "play", "player": 0, "cards": ["5H", "5D"]},
                     {"act": "play", "player": 1, "cards": ["6H", "6D"]}, {"act": "pass", "player": 2},
                     {"act": "pass", "player": 0}, {"act": "play", "player": 1, "cards": ["3H"]})
    steps = record_to_script(record)
    assert steps == combos_script(replay(record))
    said = [s["action"] for s in steps if s["op"] == "say"]
    assert {"act": "play", "player": 0, "cards": chain} in said
    assert not [a for a in said if a["act"] == "pass"]  # every pass shows on the mat
    assert sum(s["op"] == "place" and s["zone"] == KITTY.name for s in steps) == 6  # face down, then up
    session = Session(Store(tmp_path / "t.db"), game="landlord", players=PLAYERS, ping_s=0.01)
    errors: list[object] = []
    play_script(session, steps, on_step=lambda i, step, error: error and errors.append((i, step, error)))
    assert errors == [] and session.protocol.ask is None
    assert [e.action for e in session.entries] == [a.to_json() for a in replay(record).actions]


def test_passes_nothing_on_the_mat_proves_are_said(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from device.protocols import combos

    monkeypatch.setattr(combos, "_slots", lambda seats: {"seat0": 1, "seat1": 1, "seat2": 1, "kitty": 3})
    pair9, pair10 = ["9C", "9D"], ["10C", "10D"]  # one outline a seat: a pair is entered on the phone
    record = _record({"act": "play", "player": 0, "cards": ["3S"]}, {"act": "pass", "player": 1},
                     {"act": "play", "player": 2, "cards": ["KC"]}, {"act": "pass", "player": 0},
                     {"act": "pass", "player": 1},
                     {"act": "play", "player": 2, "cards": pair9}, {"act": "pass", "player": 0},
                     {"act": "pass", "player": 1},
                     {"act": "play", "player": 2, "cards": pair10}, {"act": "pass", "player": 0},
                     {"act": "pass", "player": 1}, {"act": "play", "player": 2, "cards": ["3C"]})
    steps = record_to_script(record)
    said = [s["action"] for s in steps if s["op"] == "say" and s["action"]["act"] in ("pass", "play")]
    # Bob's first pass shows by Cy's KC; the next two end a round whose KC is lifted; the last two
    # by Cy's 3C laid next. Only the passes between two plays entered on the phone are said.
    assert said == [{"act": "play", "player": 2, "cards": pair9}, {"act": "pass", "player": 0},
                    {"act": "pass", "player": 1}, {"act": "play", "player": 2, "cards": pair10}]
    session = Session(Store(tmp_path / "t.db"), game="landlord", players=PLAYERS, ping_s=0.01)
    errors: list[object] = []
    play_script(session, steps, on_step=lambda i, step, error: error and errors.append((i, step, error)))
    assert errors == [] and session.protocol.ask is None
    assert [e.action for e in session.entries] == [a.to_json() for a in replay(record).actions]


def test_a_deal_read_with_doubtful_and_wrong_cards_is_played_as_recorded_once_answered(tmp_path: Path) -> None:
    import random

    from device.protocols.script import mat_at
    from games.playouts import playout

    record = playout("landlord", seats=3, seed=4, deals=1)
    truth = record_to_script(record)
    rng = random.Random(7)
    steps = [dict(s) for s in truth]
    doubted = 0
    for step in steps:
        if step["op"] == "place" and step["card"] != "back" and rng.random() < 0.3:
            step["confidence"] = 0.5
            doubted += 1
            if rng.random() < 0.5:
                step["card"] = "KH" if step["card"] != "KH" else "QH"  # read wrongly, and doubted
    session = Session(Store(tmp_path / "t.db"), game="landlord", players=PLAYERS, ping_s=0.01)
    answers = []

    def answer(index: int, step: Any, error: object) -> None:
        assert error is None, (index, step, error)
        lying = mat_at(truth, index + 1)
        while (ask := session.protocol.ask) is not None:
            assert ask.kind == "confirm" and ask.where is not None, ask.text
            really = lying[(ask.where.name, ask.slot or 0)][0]
            answers.append(really == ask.card)
            session.confirm(source="button") if really == ask.card else session.resolve(really)

    play_script(session, steps, on_step=answer)
    assert doubted > 10 and len(answers) == doubted and not all(answers)
    assert [e.action for e in session.entries] == [a.to_json() for a in replay(record).actions]


def test_cards_the_table_read_as_others_suggest_teaching_the_deck(table: Table, tmp_path: Path) -> None:
    """A card the players name otherwise when asked, or correct once recorded, was misread; at
    the second in a game every phone suggests teaching pegpi the deck, after a restart too. The
    same cards reordered, or a card typed on the phone and corrected, are no misreading, and a
    new game starts afresh."""
    session = table.session
    kitty = next(i for i, e in enumerate(session.entries) if e.action["act"] == "kitty")
    assert session.entries[kitty].source == "table"
    assert (session.view().misread, session.view().teach) == (0, None)
    session.correct(kitty, {"act": "kitty", "cards": MIDDLE[::-1]})  # the same cards: no misreading
    assert session.view().misread == 0
    table.lay("seat0", "5S")
    table.lay("seat0", "5H", confidence=0.4, start=1)
    session.confirm(source="button")
    session.resolve("5D")  # asked about the 5H: it is the 5D
    assert (session.view().misread, session.view().teach) == (1, None)
    table.lay("seat1", "7S", "7H")
    table.lay("seat2", "9S")  # Bob's pair is recorded as read once Cy plays
    bob = next(i for i, e in enumerate(session.entries) if e.source == "table" and e.action.get("player") == 1)
    session.correct(bob, {**session.entries[bob].action, "cards": ["7S", "7D"]})  # recorded 7H: it was the 7D
    view = session.view(seat=1)
    assert (view.misread, view.teach) == (2, "misread")
    assert view.to_json()["teach"] == "misread"
    session.correct(kitty, {"act": "kitty", "cards": ["AC", "2S", "4C"]})  # the phone's own entry, corrected
    assert session.view().misread == 2
    store = Store(tmp_path / "t.db")  # the device restarted: the game and its count come back
    restarted = Session(store, game="landlord", players=PLAYERS)
    assert (restarted.view().misread, restarted.view().teach) == (2, "misread")
    store.close()
    session.new_game("landlord", PLAYERS)
    assert (session.view().misread, session.view().teach) == (0, None)


def test_a_deck_the_table_keeps_asking_about_brings_the_offer_to_teach_it(table: Table) -> None:
    """Each card the device asks about counts, whatever the answer; at TEACH_ASKED in a game the
    phones offer to teach the deck (so taught, the table asks about almost none)."""
    session = table.session
    singles = ["3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS"]
    for i, card in enumerate(singles):
        table.lay(f"seat{i % 3}", card, confidence=0.4)  # each read unsurely
        ask = _ask(session)
        if i == 0:
            assert ask is None  # a single is judged once the next seat plays
            continue
        assert ask is not None and ask["kind"] == "confirm" and ask["card"] == singles[i - 1]
        assert session.view().asked == i
        assert session.view().teach == (None if i < TEACH_ASKED else "asked")
        session.confirm(source="button")  # "yes, that's right": asked all the same
    assert session.view().misread == 0 and session.view().asked == len(singles) - 1
