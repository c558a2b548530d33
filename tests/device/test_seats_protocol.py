"""The seats protocol: Ricochet Poker's hands dealt face up into each seat's outlines, Skull's
cards counted face down on each mat and turned up in the revelation order. Cards in the wrong
place are named, unsure reads asked about, corrections taken, removals mean nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from device.protocols.script import play_script, record_to_script
from device.protocols.seats import SeatsProtocol
from device.session import Session
from device.store import Store
from games.playouts import playout
from games.records import replay
from pegpi.tablesim import table_sim
from vision.events import TableEvent

NAMES = ["Ann", "Bob", "Cy", "Di"]


def _session(tmp_path: Path, game: str, seats: int) -> Session:
    return Session(Store(tmp_path / "t.db"), game=game, players=NAMES[:seats], ping_s=0.01)


def _placed(zone: str, card: str, slot: int = 0, confidence: float = 1.0) -> TableEvent:
    return TableEvent(zone, card, "placed", 0.0, confidence, slot)


def _removed(zone: str, card: str, slot: int = 0) -> TableEvent:
    return TableEvent(zone, card, "removed", 0.0, 1.0, slot)


def _acts(session: Session) -> list[tuple[str, str]]:
    return [(e.action["act"], e.source) for e in session.entries]


# ------------------------------------------------------------------ Ricochet Poker


def test_a_ricochet_deal_is_given_face_up_and_plays_as_the_record(tmp_path: Path) -> None:
    record = playout("ricochet", seats=3, seed=2)
    steps = record_to_script(record)
    gives = [a for a in record["actions"] if a["act"] == "give"]
    assert [s["card"] for s in steps if s["op"] == "place"] == [a["card"] for a in gives]
    assert {s["action"]["act"] for s in steps if s["op"] == "say"} <= {"deal", "buy", "fold"}
    session = _session(tmp_path, "ricochet", 3)
    assert isinstance(session.protocol, SeatsProtocol)
    problems: list[object] = []
    play_script(session, steps, on_step=lambda i, step, error: error and problems.append((i, error)))
    assert problems == [] and session.protocol.ask is None
    assert session.state.scores == replay(record).state.scores
    assert {source for act, source in _acts(session) if act == "give"} == {"table"}


def test_a_card_given_to_the_wrong_seat_is_named_and_taking_it_back_answers(tmp_path: Path) -> None:
    session = _session(tmp_path, "ricochet", 3)
    session.submit({"act": "deal", "dealer": 0})
    session.table_events([_placed("seat2", "8H")])  # Bob (seat 1) is due the first card
    ask = session.view().to_json()["ask"]
    assert ask["kind"] == "illegal" and "8H" in ask["text"] and "the dealer gives to Bob now" in ask["text"]
    assert _acts(session) == [("deal", "phone")]
    session.table_events([_removed("seat2", "8H"), _placed("seat1", "8H")])
    assert session.protocol.ask is None
    assert session.view().to_json()["groups"][0]["cards"] == ["8H"]
    assert _acts(session)[-1] == ("give", "table")


def test_an_unsure_card_is_asked_and_a_correction_is_the_card_given(tmp_path: Path) -> None:
    session = _session(tmp_path, "ricochet", 2)
    session.submit({"act": "deal", "dealer": 1})
    session.table_events([_placed("seat0", "8H", confidence=0.3)])
    ask = session.view().to_json()["ask"]
    assert ask["kind"] == "confirm" and ask["card"] == "8H" and "Ann's hand" in ask["text"]
    session.table_events([_placed("seat1", "2C")])  # waits behind the question
    assert len(session.entries) == 1
    session.resolve("8D", source="phone")  # it was the eight of diamonds
    hands = {g["seat"]: g["cards"] for g in session.view().to_json()["groups"]}
    assert hands == {0: ["8D"], 1: ["2C"]}


def test_a_fold_is_said_and_the_hand_turned_over_or_taken_away_means_nothing(tmp_path: Path) -> None:
    session = _session(tmp_path, "ricochet", 3)
    session.submit({"act": "deal", "dealer": 0})
    session.table_events([_placed("seat1", "2C"), _placed("seat2", "KS"), _placed("seat0", "AH")])
    assert session.state.whose_turn() == 1  # Bob's 2 high is lowest
    session.submit({"act": "fold", "player": 1})
    before = len(session.entries)
    session.table_events([_removed("seat1", "2C"), _placed("seat1", "back"), _removed("seat1", "back")])
    assert session.protocol.ask is None and len(session.entries) == before
    session.table_events([_placed("seat2", "back")])  # Cy's card is not due: turning it means nothing
    assert session.protocol.ask is None and len(session.entries) == before


def test_a_card_due_face_up_laid_face_down_is_asked_to_be_turned(tmp_path: Path) -> None:
    session = _session(tmp_path, "ricochet", 2)
    session.submit({"act": "deal", "dealer": 1})
    session.table_events([_placed("seat0", "back")])
    ask = session.view().to_json()["ask"]
    assert ask["kind"] == "illegal" and "face up" in ask["text"]
    session.resolve("9C", source="phone")
    assert session.view().to_json()["groups"][0]["cards"] == ["9C"]


# ------------------------------------------------------------------ Skull


def _skull_round(tmp_path: Path) -> Session:
    """Ann, Bob, Cy: two cards each face down, then Ann challenges for 3 and everyone passes."""
    session = _session(tmp_path, "skull", 3)
    session.table_events([_placed(f"seat{s}", "back", 0) for s in (2, 0, 1)])
    session.table_events([_placed(f"seat{s}", "back", 1) for s in (0, 1, 2)])
    session.submit({"act": "challenge", "player": 0, "count": 3})
    session.submit({"act": "pass", "player": 1})
    session.submit({"act": "pass", "player": 2})
    return session


def test_skull_backs_are_counted_as_each_seats_lay(tmp_path: Path) -> None:
    session = _session(tmp_path, "skull", 3)
    session.table_events([_placed("seat1", "back"), _placed("seat0", "back"), _placed("seat2", "back")])
    assert _acts(session) == [("lay", "table")] * 3
    assert session.view().to_json()["mats"] == [1, 1, 1]
    session.table_events([_removed("seat1", "back"), _placed("seat1", "back")])  # nudged: seen again
    assert len(session.entries) == 3 and session.protocol.ask is None
    session.table_events([_placed("seat0", "back", 1), _placed("seat1", "back", 1)])
    assert session.view().to_json()["mats"] == [2, 2, 1]


def test_skull_backs_out_of_turn_or_order_are_named(tmp_path: Path) -> None:
    session = _session(tmp_path, "skull", 3)
    session.table_events([_placed(f"seat{s}", "back") for s in range(3)])
    session.table_events([_placed("seat0", "back", 2)])  # outline 2 skipped
    assert "outline 2" in session.view().to_json()["ask"]["text"]
    session.confirm(source="button")  # OK: ignore it
    session.table_events([_placed("seat1", "back", 1)])  # Ann (seat 0) lays first this round
    ask = session.view().to_json()["ask"]
    assert ask["kind"] == "illegal" and "Bob's mat" in ask["text"]
    assert len(session.entries) == 3


def test_an_unsure_back_is_asked_before_it_counts(tmp_path: Path) -> None:
    session = _session(tmp_path, "skull", 3)
    session.table_events([_placed("seat1", "back", confidence=0.2)])
    ask = session.view().to_json()["ask"]
    assert ask["kind"] == "confirm" and "face down" in ask["text"] and not session.entries
    session.confirm(source="button")
    assert _acts(session) == [("lay", "button")]  # confirmed with OK


def test_skull_flips_follow_the_revelation_order(tmp_path: Path) -> None:
    session = _skull_round(tmp_path)
    entries = len(session.entries)
    session.table_events([_removed("seat1", "back", 1), _placed("seat1", "4D", 1)])
    ask = session.view().to_json()["ask"]
    assert ask["kind"] == "illegal" and "own mat first" in ask["text"]
    session.table_events([_removed("seat1", "4D", 1), _placed("seat1", "back", 1)])  # turned back down
    assert session.protocol.ask is None and len(session.entries) == entries
    session.table_events([_removed("seat0", "back", 0), _placed("seat0", "3H", 0)])  # under the top card
    ask = session.view().to_json()["ask"]
    assert ask["kind"] == "illegal" and "top card of Ann's mat first" in ask["text"]
    session.table_events([_removed("seat0", "3H", 0), _placed("seat0", "back", 0)])
    session.table_events([_removed("seat0", "back", 1), _placed("seat0", "5H", 1)])
    session.table_events([_removed("seat0", "back", 0), _placed("seat0", "3H", 0)])
    session.table_events([_removed("seat2", "back", 1), _placed("seat2", "7C", 1)])  # the third rose
    flips = [e.action for e in session.entries if e.action["act"] == "flip"]
    assert [(f["mat"], f["card"]) for f in flips] == [(0, "5H"), (0, "3H"), (2, "7C")]
    assert session.state.scores == [1, 0, 0]
    session.table_events([_removed(f"seat{s}", c, slot) for s, c, slot in
                          ((0, "5H", 1), (0, "3H", 0), (1, "back", 0), (1, "back", 1), (2, "back", 0),
                           (2, "7C", 1))])  # the mats picked up: nothing
    assert session.protocol.ask is None and session.view().to_json()["mats"] == [0, 0, 0]


def test_a_skull_turned_up_ends_the_bet_and_the_loss_is_said(tmp_path: Path) -> None:
    session = _skull_round(tmp_path)
    session.table_events([_removed("seat0", "back", 1), _placed("seat0", "KH", 1)])
    assert session.state.phase == "lose"
    session.table_events([_removed("seat0", "back", 0), _placed("seat0", "2H", 0)])
    assert session.view().to_json()["ask"]["kind"] == "illegal"  # no card is turned now
    session.confirm(source="button")
    session.submit({"act": "lose", "player": 0})
    assert session.view().to_json()["held"] == [3, 4, 4]


# ------------------------------------------------------------------ the simulated table


@pytest.mark.parametrize(("game", "seats"), [("ricochet", 2), ("ricochet", 8), ("skull", 3), ("skull", 6)])
def test_table_sim_events_play_as_the_record(game: str, seats: int) -> None:
    report = table_sim(game, seats=seats, seed=3, frames=False)
    assert report.same and report.actions_same, report.to_json()


def test_ricochet_read_from_frames_is_the_deal_played() -> None:
    report = table_sim("ricochet", seats=2, seed=1, fps=15)
    assert report.same, report.to_json()
    assert report.events_read == report.events_played > 0


def test_skull_read_from_frames_counts_the_backs_and_the_cards_turned_up() -> None:
    report = table_sim("skull", seats=3, seed=26, fps=15)  # two rounds: backs, flips, mats picked up
    assert report.same, report.to_json()
    assert report.events_read == report.events_played >= 20
