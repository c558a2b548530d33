"""The tricks protocol: cards laid in each seat's place round the mat become plays, the trump
card in the centre names trumps; cards out of order are named and nothing recorded is lost."""

from __future__ import annotations

from pathlib import Path

import pytest

from device.protocols import registered_protocols
from device.protocols.script import record_to_script
from device.protocols.tricks import TricksProtocol
from device.session import Session
from device.store import Store
from games.errors import PegpiError
from games.playouts import playout
from games.table import TRUMP, TricksTable, Zone
from pegpi.tablesim import table_sim
from vision.events import TableEvent


def _session(tmp_path: Path, game: str = "ohhell", players: tuple[str, ...] = ("Ann", "Bob", "Cy"),
             options: dict | None = None) -> Session:
    return Session(Store(tmp_path / "t.db"), game=game, players=list(players), options=options, ping_s=0.01)


def put(session: Session, zone: str, card: str, confidence: float = 1.0) -> None:
    session.table_events([TableEvent(zone, card, "placed", 0.0, confidence, 0)])


def take(session: Session, zone: str, card: str) -> None:
    session.table_events([TableEvent(zone, card, "removed", 0.0, 1.0, 0)])


def plays(session: Session) -> list[tuple[int, str]]:
    return [(e.action["player"], e.action["card"]) for e in session.entries if e.action["act"] == "play"]


def bid_round(tmp_path: Path) -> Session:
    """Oh Hell, three players, two cards each (deals of 2, 1, 2), Ann deals: trump laid, bids said."""
    session = _session(tmp_path, options={"most": 2})
    session.submit({"act": "deal", "dealer": 0})
    put(session, "trump", "9D")
    for seat, bid in ((1, 1), (2, 0), (0, 0)):
        session.submit({"act": "bid", "player": seat, "tricks": bid})
    return session


def test_the_trick_games_get_the_tricks_protocol_and_answer_its_questions(tmp_path: Path) -> None:
    assert registered_protocols()["tricks"] is TricksProtocol
    for game, seats in (("ohhell", 3), ("bourre", 2), ("briscola", 5)):
        session = _session(tmp_path / game, game, tuple(f"P{i}" for i in range(seats)))
        assert isinstance(session.protocol, TricksProtocol)
        assert isinstance(session.state, TricksTable)
        assert session.view().to_json()["message"] is None


def test_the_trump_card_and_plays_in_turn_are_read_and_the_winner_named(tmp_path: Path) -> None:
    session = bid_round(tmp_path)
    assert session.entries[1].action == {"act": "trump", "card": "9D"} and session.entries[1].source == "table"
    put(session, "seat1", "AH")
    put(session, "seat2", "KC")
    put(session, "seat0", "2H")
    assert plays(session) == [(1, "AH"), (2, "KC"), (0, "2H")]
    view = session.view().to_json()
    assert view["tricks"] == [0, 1, 0] and view["last_trick"]["winner"] == 1
    assert view["message"] == "Bob takes the trick with the AH: clear it; Bob leads"
    for zone, card in (("seat1", "AH"), ("seat2", "KC"), ("seat0", "2H")):
        take(session, zone, card)
    assert session.view().to_json()["message"] is None and session.protocol.ask is None
    put(session, "seat1", "3S")  # the winner leads the next trick
    assert plays(session)[-1] == (1, "3S")


def test_a_card_out_of_turn_is_named_and_counts_when_its_turn_comes(tmp_path: Path) -> None:
    session = bid_round(tmp_path)
    put(session, "seat2", "KC")  # Cy before Bob, who leads
    ask = session.view().to_json()["ask"]
    assert ask["kind"] == "illegal" and ask["zone"] == "seat2" and "out of turn" in ask["text"]
    assert "Bob is to play first" in session.view().to_json()["message"] and plays(session) == []
    put(session, "seat1", "AH")
    assert plays(session) == [(1, "AH"), (2, "KC")] and session.protocol.ask is None


def test_a_second_card_from_one_seat_is_named_and_nothing_is_lost(tmp_path: Path) -> None:
    session = bid_round(tmp_path)
    put(session, "seat1", "AH")
    session.table_events([TableEvent("seat1", "AH", "removed", 0.0, 1.0, 0),
                          TableEvent("seat1", "4D", "placed", 0.0, 1.0, 0)])
    ask = session.view().to_json()["ask"]
    assert ask["kind"] == "illegal" and "Bob has already played the AH" in ask["text"] and ask["card"] == "4D"
    assert plays(session) == [(1, "AH")]
    session.table_events([TableEvent("seat1", "4D", "removed", 0.0, 1.0, 0),
                          TableEvent("seat1", "AH", "placed", 0.0, 1.0, 0)])
    assert session.protocol.ask is None and plays(session) == [(1, "AH")]
    put(session, "seat2", "KC")
    assert plays(session) == [(1, "AH"), (2, "KC")]


def test_a_trick_cleared_too_early_is_named_and_put_back(tmp_path: Path) -> None:
    session = bid_round(tmp_path)
    put(session, "seat1", "AH")
    put(session, "seat2", "KC")
    take(session, "seat1", "AH")
    ask = session.view().to_json()["ask"]
    assert ask["kind"] == "illegal" and "the trick is not over: Ann still to play" in ask["text"]
    assert "Bob's AH" in ask["text"] and plays(session) == [(1, "AH"), (2, "KC")]
    put(session, "seat1", "AH")  # put back: seen again, not played twice
    assert session.protocol.ask is None and plays(session) == [(1, "AH"), (2, "KC")]
    take(session, "seat2", "KC")
    session.confirm(source="button")  # OK: go on without it
    assert session.protocol.ask is None
    put(session, "seat0", "2H")
    assert plays(session)[-1] == (0, "2H") and session.view().to_json()["last_trick"]["winner"] == 1


def test_a_doubtful_read_waits_for_ok_and_a_misread_is_corrected(tmp_path: Path) -> None:
    session = bid_round(tmp_path)
    put(session, "seat1", "AH", confidence=0.4)
    ask = session.view().to_json()["ask"]
    assert ask["kind"] == "confirm" and ask["card"] == "AH" and plays(session) == []
    put(session, "seat2", "KC")  # laid meanwhile: waits behind the question
    assert plays(session) == []
    session.confirm(source="button")
    assert plays(session) == [(1, "AH"), (2, "KC")]
    put(session, "seat0", "4H", confidence=0.3)
    session.resolve("2H", source="phone")  # the phone names the card that truly lies there
    assert plays(session)[-1] == (0, "2H") and session.protocol.ask is None


def test_a_card_the_rules_refuse_is_not_applied_and_the_device_says_why(tmp_path: Path) -> None:
    session = bid_round(tmp_path)
    session.submit({"act": "hand", "player": 1, "cards": ["AH", "4D"]})  # Bob enters his hand on his phone
    put(session, "seat1", "QS")
    ask = session.view().to_json()["ask"]
    assert ask["kind"] == "illegal" and "Bob does not hold QS" in ask["text"] and plays(session) == []
    with pytest.raises(PegpiError):
        session.resolve("XX", source="phone")  # no such card: the question stands
    assert session.protocol.ask is not None
    session.resolve("AH", source="phone")  # it was the ace all along
    assert plays(session) == [(1, "AH")] and session.protocol.ask is None


def test_an_undone_play_is_not_read_again_until_the_mat_changes(tmp_path: Path) -> None:
    session = bid_round(tmp_path)
    put(session, "seat1", "AH")
    session.undo()
    assert plays(session) == [] and session.protocol.ask is None
    session.table_events([TableEvent("seat1", "AH", "removed", 0.0, 1.0, 0),
                          TableEvent("seat1", "4H", "placed", 0.0, 1.0, 0)])
    assert plays(session) == [(1, "4H")]


def test_a_correction_renames_the_card_lying_there(tmp_path: Path) -> None:
    session = bid_round(tmp_path)
    put(session, "seat1", "AH")
    index = len(session.entries) - 1
    session.correct(index, {"act": "play", "player": 1, "card": "AD"})
    assert plays(session) == [(1, "AD")]
    put(session, "seat2", "KC")
    assert plays(session) == [(1, "AD"), (2, "KC")] and session.protocol.mat[(Zone.row(1), 0)].card == "AD"


def test_a_card_laid_during_the_bidding_is_named(tmp_path: Path) -> None:
    session = _session(tmp_path, options={"most": 2})
    session.submit({"act": "deal", "dealer": 0})
    put(session, "trump", "9D")
    put(session, "seat1", "AH")
    ask = session.view().to_json()["ask"]
    assert ask["kind"] == "illegal" and "Bob to bid" in ask["text"] and plays(session) == []
    session.submit({"act": "bid", "player": 1, "tricks": 1})
    session.submit({"act": "bid", "player": 2, "tricks": 1})
    session.submit({"act": "bid", "player": 0, "tricks": 1})
    assert plays(session) == [(1, "AH")]  # the card lying there counts once the play begins


def test_a_revoke_proven_at_the_table_is_named_and_accepted(tmp_path: Path) -> None:
    session = bid_round(tmp_path)
    for zone, card in (("seat1", "AH"), ("seat2", "KC"), ("seat0", "2S")):  # Ann shows no heart
        put(session, zone, card)
    for zone, card in (("seat1", "AH"), ("seat2", "KC"), ("seat0", "2S")):
        take(session, zone, card)
    put(session, "seat1", "3C")
    put(session, "seat2", "QC")
    put(session, "seat0", "5H")  # and then a heart: she held one in trick 1
    claim = session.view().to_json()["claims"][0]
    assert claim["player"] == 0 and claim["trick"] == 1 and claim["proof"] == "5H" and claim["status"] == "open"
    assert "Ann failed to follow suit in trick 1" in claim["say"] and "10 points" in claim["say"]
    assert session.view().to_json()["message"].startswith(claim["say"])  # the board and the phones say it
    score = session.state.scores[0]
    session.submit({"act": "accept", "claim": 0})
    assert session.state.scores[0] == score - 10
    assert "failed to follow suit" not in (session.view().to_json()["message"] or "")


def test_the_script_lays_every_card_and_says_the_rest() -> None:
    record = playout("bourre", seats=4, seed=2)
    steps = record_to_script(record)
    said = {s["action"]["act"] for s in steps if s["op"] == "say"}
    assert "play" not in said and "trump" not in said and {"ante", "deal"} <= said
    placed = [s for s in steps if s["op"] == "place"]
    assert placed[0]["zone"] == TRUMP.name
    assert sum(1 for a in record["actions"] if a["act"] == "play") == sum(1 for s in placed if s["zone"] != "trump")


@pytest.mark.parametrize(("game", "seats"), [("ohhell", n) for n in range(3, 8)] + [("bourre", n) for n in range(2, 9)]
                         + [("briscola", 5)])
def test_a_deal_played_on_the_mat_scores_as_the_record(game: str, seats: int) -> None:
    report = table_sim(game, seats=seats, seed=1, frames=False)
    assert report.same, report.to_json()
    assert report.actions_recorded == report.actions_played


@pytest.mark.parametrize("options", [{"variant": "buio"}, {"variant": "monte"}])
def test_briscola_variants_play_on_the_mat(tmp_path: Path, options: dict) -> None:
    from device.protocols.script import play_script
    from games.records import replay

    record = playout("briscola", seats=5, seed=3, options=options)
    session = _session(tmp_path, "briscola", tuple(record["players"]), record.get("options"))
    problems: list[object] = []
    play_script(session, record_to_script(record), on_step=lambda i, s, e: e and problems.append((i, e)))
    assert problems == [] and session.protocol.ask is None
    assert session.state.scores == replay(record).state.scores


@pytest.mark.parametrize(("game", "seats", "seed"), [("ohhell", 3, 1), ("bourre", 3, 1), ("briscola", 5, 2)])
def test_a_deal_on_rendered_frames_reads_and_scores_as_played(game: str, seats: int, seed: int) -> None:
    report = table_sim(game, seats=seats, seed=seed, fps=5)
    assert report.same, report.to_json()
    assert report.events_played == report.events_read > 0
