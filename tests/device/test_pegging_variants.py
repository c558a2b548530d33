"""The cribbage variants at the table: hand-written table events (and the buttons and the phone
for what the camera cannot see) through the pegging protocol into a real session, including
cards laid in the wrong order, doubtful reads and corrections."""

from __future__ import annotations

from pathlib import Path

import pytest

from device.board.panel import phase_line
from device.board.view import board_of
from device.session import Session
from device.store import Store
from games.playouts import playout
from games.records import replay
from vision.events import TableEvent


def _session(tmp_path: Path, game: str, players: list[str], options: dict | None = None) -> Session:
    return Session(Store(tmp_path / "t.db"), game=game, players=players, options=options, ping_s=0.01)


def _lay(session: Session, zone: str, card: str, slot: int, confidence: float = 0.99) -> None:
    session.table_events([TableEvent(zone, card, "placed", 0.0, confidence, slot)])


def _lift(session: Session, zone: str, card: str, slot: int) -> None:
    session.table_events([TableEvent(zone, card, "removed", 0.0, 0.99, slot)])


def _acts(session: Session) -> list[str]:
    return [e.action["act"] for e in session.entries]


# ------------------------------------------------------------------ Auction: the bids come between

def _auction_to_the_crib(tmp_path: Path, backs: int = 4) -> Session:
    session = _session(tmp_path, "auction", ["Ann", "Bob"])
    session.submit({"act": "deal", "dealer": 0})
    for slot in range(backs):
        _lay(session, "crib", "back", slot)
    return session


def test_auction_the_full_crib_records_the_discards_so_the_bids_can_be_said(tmp_path: Path) -> None:
    session = _auction_to_the_crib(tmp_path)
    assert _acts(session) == ["deal", "discard", "discard"]
    session.submit({"act": "bid", "player": 0, "points": 0}, source="button")
    session.submit({"act": "bid", "player": 1, "points": 0}, source="button")
    _lay(session, "starter", "5H", 0)
    assert _acts(session)[-1] == "starter" and session.state.starter is not None
    _lay(session, "seat1", "10S", 0)  # Bob (pone) leads
    assert _acts(session)[-1] == "play"


def test_auction_a_starter_turned_before_the_bids_waits_for_them(tmp_path: Path) -> None:
    session = _auction_to_the_crib(tmp_path)
    _lay(session, "starter", "JH", 0)  # too early: nothing is recorded, nothing is asked
    assert _acts(session) == ["deal", "discard", "discard"] and session.protocol.ask is None
    session.submit({"act": "bid", "player": 0, "points": 0})
    session.submit({"act": "bid", "player": 1, "points": 0})
    assert _acts(session)[-1] == "starter" and session.state.scores == [2, 0]  # his heels, to Ann


def test_auction_a_stacked_crib_is_recorded_with_the_starter_which_then_waits(tmp_path: Path) -> None:
    session = _auction_to_the_crib(tmp_path, backs=1)  # the four discards lie in one pile
    assert _acts(session) == ["deal"]
    _lay(session, "starter", "5H", 0)
    assert _acts(session) == ["deal", "discard", "discard"] and session.protocol.ask is None
    session.submit({"act": "bid", "player": 0, "points": 0})
    session.submit({"act": "bid", "player": 1, "points": 0})
    assert _acts(session)[-1] == "starter"


# ------------------------------------------------------------------ Noddy and Costly Colours

def test_noddy_hands_are_announced_and_a_card_past_31_ends_the_play(tmp_path: Path) -> None:
    session = _session(tmp_path, "noddy", ["Ann", "Bob"])
    session.submit({"act": "deal", "dealer": 0})
    _lay(session, "starter", "5H", 0)
    session.submit({"act": "show", "player": 1, "claim": 2})
    session.submit({"act": "show", "player": 0, "claim": 0})
    for slot, (zone, card) in enumerate([("seat1", "KH"), ("seat0", "QS"), ("seat1", "9D")]):
        _lay(session, zone, card, slot // 2)
    assert session.state.count == 29 and session.protocol.ask is None
    _lay(session, "seat0", "5C", 1)  # 34: no go in Noddy, the count passes 31 and the play ends
    assert _acts(session)[-1] == "play" and session.state.phase == "deal"
    assert session.state.events[-1].kind == "last" and session.state.scores == [0, 3]


def test_costly_an_ace_declared_eleven_is_said_then_laid_and_not_played_twice(tmp_path: Path) -> None:
    session = _session(tmp_path, "costly", ["Ann", "Bob"])
    session.submit({"act": "deal", "dealer": 0})
    _lay(session, "starter", "7C", 0)
    session.submit({"act": "mog", "player": 1})
    session.submit({"act": "refuse", "player": 0})  # Bob pegs 1
    session.submit({"act": "play", "player": 1, "card": "AC", "eleven": True})
    _lay(session, "seat1", "AC", 0)
    assert _acts(session).count("play") == 1 and session.state.count == 11
    _lay(session, "seat0", "4D", 0)  # 15 with two cards: 2 to Ann
    assert session.state.count == 15 and session.state.scores == [2, 1]


# ------------------------------------------------------------------ three seats: go from the order

def _three_hand_at_play(tmp_path: Path) -> Session:
    session = _session(tmp_path, "cribbage3", ["Ann", "Bob", "Cy"])
    session.submit({"act": "deal", "dealer": 0})
    for slot in range(3):
        _lay(session, "crib", "back", slot)
    _lay(session, "starter", "2C", 0)
    return session


def test_three_hand_a_play_by_the_next_but_one_means_the_player_between_said_go(tmp_path: Path) -> None:
    session = _three_hand_at_play(tmp_path)
    assert _acts(session)[-1] == "starter" and _acts(session).count("discard") == 3
    for zone, card in [("seat1", "KH"), ("seat2", "QH"), ("seat0", "9D")]:  # 10 20 29
        _lay(session, zone, card, 0)
    assert session.state.turn == 1
    _lay(session, "seat2", "2D", 1)  # Cy makes 31: Bob had said go
    assert _acts(session)[-2:] == ["go", "play"]
    assert session.state.scores == [0, 0, 2] and session.state.count == 0


def test_three_hand_a_card_out_of_turn_is_named_asked_about_and_lifting_it_loses_nothing(tmp_path: Path) -> None:
    session = _three_hand_at_play(tmp_path)
    _lay(session, "seat1", "KH", 0)
    rows = len(session.store.rows(session.game_id))
    _lay(session, "seat1", "3S", 1)  # Bob again at 10: Cy and Ann can always play on 10
    view = session.view().to_json()
    assert view["ask"]["kind"] == "illegal" and view["message"].startswith("Bob's row: 3S")
    assert "turn" in view["message"] and board_of(session.view()).message == view["message"]
    assert len(session.store.rows(session.game_id)) == rows  # nothing recorded
    _lift(session, "seat1", "3S", 1)  # taken back: the question is answered, play goes on
    assert session.view().to_json()["ask"] is None
    _lay(session, "seat2", "5S", 0)
    assert session.state.count == 15 and session.state.scores == [0, 0, 2]


# ------------------------------------------------------------------ doubtful reads

def test_a_doubtful_starter_is_asked_about_never_scored_blind(tmp_path: Path) -> None:
    session = _session(tmp_path, "cribbage", ["Ann", "Bob"])
    session.submit({"act": "deal", "dealer": 0})
    for slot in range(4):
        _lay(session, "crib", "back", slot)
    _lay(session, "starter", "JD", 0, confidence=0.5)
    ask = session.view().to_json()["ask"]
    assert ask["kind"] == "confirm" and "JD" in ask["text"]
    assert session.state.scores == [0, 0] and session.state.starter is None  # no heels yet
    session.resolve("QD")  # the phone's card picker: it was the queen
    assert str(session.state.starter) == "QD" and session.state.scores == [0, 0]


def test_a_doubtful_play_confirmed_with_ok_scores_then(tmp_path: Path) -> None:
    session = _session(tmp_path, "cribbage4", ["Ann", "Bob", "Cy", "Di"])
    session.submit({"act": "deal", "dealer": 0})
    for slot in range(4):
        _lay(session, "crib", "back", slot)
    _lay(session, "starter", "2C", 0)
    _lay(session, "seat1", "7H", 0)
    _lay(session, "seat2", "8H", 0, confidence=0.4)  # fifteen, if it is the 8
    assert session.state.count == 7 and session.state.scores == [0, 0]
    session.confirm(source="button")
    assert session.state.count == 15 and session.state.scores == [2, 0]  # Cy pegs for Ann and Cy's side


# ------------------------------------------------------------------ Revised: one shuffle, cards out

def test_revised_the_cards_faced_since_the_shuffle_are_shown_and_refused_again() -> None:
    from games.errors import IllegalActionError

    record = playout("revised", seats=2, seed=2, deals=2)
    actions = replay(record).actions
    second = [i for i, a in enumerate(actions) if a.act == "deal"][1]
    state = replay({**record, "actions": [a.to_json() for a in actions[:second]]}).state
    first_deal = {str(c) for row in state.played for c in row} | {str(state.starter)}
    state = state.apply(actions[second])
    view = state.view_for(None)
    assert first_deal <= set(view.seen_since_shuffle) and view.deal_in_shuffle == 2
    assert phase_line(board_of(view)).endswith(f", {len(view.seen_since_shuffle)} out")
    for seat in range(2):
        state = state.apply_json({"act": "discard", "player": seat})
    with pytest.raises(IllegalActionError, match="earlier deal from this shuffle"):
        state.apply_json({"act": "starter", "card": sorted(first_deal)[0]})


# ------------------------------------------------------------------ whole games on the mat

@pytest.mark.parametrize("name", ["costly_whole_game", "noddy_whole_game", "cribbage5_whole_game"])
def test_a_whole_golden_game_played_on_the_mat_ends_as_recorded(tmp_path: Path, name: str) -> None:
    import json

    from device.protocols.script import play_script, record_to_script

    record = json.loads((Path(__file__).parents[1] / "games" / "golden" / f"{name}.json").read_text())
    session = _session(tmp_path, record["game"], record["players"], record.get("options"))
    problems: list[object] = []
    play_script(session, record_to_script(record), on_step=lambda i, s, e: e and problems.append((i, e)))
    assert problems == [] and session.protocol.ask is None
    assert session.state.is_over and session.state.scores == record["expect"]["scores"]
    assert len(session.state.events) == record["expect"]["events"]
    assert "table" in {e.source for e in session.entries}
