"""`pegpi table-sim`: a random game of a catalogue game laid on the simulated table, read by the
real pipeline and its table protocol, compared with what was played."""

from __future__ import annotations

import json

import pytest

from pegpi.cli import main
from pegpi.tablesim import table_sim


def test_a_cribbage_deal_read_from_frames_is_the_deal_played(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["table-sim", "--game", "cribbage", "--seed", "2", "--fps", "15", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["same"] is True and report["game"] == "cribbage" and report["seats"] == 2
    assert report["events_read"] == report["events_played"] > 20
    assert report["scores"] == report["scores_played"] and sum(report["scores"]) > 0


@pytest.mark.parametrize(("game", "seats"), [("cribbage4", 4), ("cribbage3", 3), ("suitcases", 2)])
def test_the_protocol_alone_scores_a_deal_as_played(game: str, seats: int) -> None:
    report = table_sim(game, seats=seats, seed=1, frames=False)
    assert report.same, report.to_json()
    assert report.actions_recorded > 10


def test_a_seat_count_the_game_does_not_allow_is_one_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["table-sim", "--game", "cribbage", "--seats", "5"]) != 0
    err = capsys.readouterr().err
    assert "Cribbage is played by 2 players, not 5" in err and "Traceback" not in err


def test_a_decktet_deal_is_read_from_frames_once_the_deck_is_enrolled() -> None:
    report = table_sim("bhargage", seed=3, fps=15)
    assert "Decktet enrolled" in report.classifier or "stand-in" in report.classifier
    assert report.same, report.to_json()
    assert report.events_read == report.events_played > 15


VARIANTS = [("cribbage", 2), ("cribbage3", 3), ("cribbage3-solo", 3), ("cribbage4", 4), ("cribbage5", 2),
            ("cribbage7", 2), ("auction", 2), ("costly", 2), ("noddy", 2), ("losing", 2), ("losing", 3),
            ("losing", 4), ("revised", 2), ("revised", 3), ("revised", 4)]


@pytest.mark.parametrize(("game", "seats"), VARIANTS)
def test_a_deal_of_every_cribbage_variant_is_scored_from_the_table(game: str, seats: int) -> None:
    report = table_sim(game, seats=seats, seed=2, frames=False)
    assert report.same, report.to_json()
    assert report.scores == report.scores_played and report.problems == ()


def test_an_auction_deal_read_from_frames_is_the_deal_played() -> None:
    report = table_sim("auction", seed=1, fps=15)
    assert report.same, report.to_json()
    assert report.events_read == report.events_played > 20


def test_a_four_seat_deal_is_read_from_the_a2_mat() -> None:
    report = table_sim("cribbage4", seats=4, seed=1, fps=15)
    assert report.same, report.to_json()
    assert report.events_read == report.events_played > 20


def test_a_read_the_players_corrected_counts_as_the_card_named_and_is_still_reported() -> None:
    from pegpi.tablesim import _Reader
    from vision.events import TableEvent

    reader = _Reader()
    reader([TableEvent("seat2", "back", "placed", 1.0, 0.99, 0), TableEvent("seat2", "back", "removed", 5.0, 0.99, 0)])
    reader([TableEvent("seat2", "JC", "placed", 5.0, 0.55, 0)])
    reader.corrected("seat2", 0, "JS")  # the device asked about the JC; the players said JS
    reader([TableEvent("seat1", "7H", "placed", 6.0, 0.62, 0)])
    reader.corrected("seat1", 0, "7H")  # not a correction: the card read was the card
    reader([TableEvent("seat2", "JS", "removed", 9.0, 1.0, 0)])
    read, said = reader.as_corrected()
    assert read == [("seat2", 0, "back", "placed"), ("seat2", 0, "back", "removed"), ("seat2", 0, "JS", "placed"),
                    ("seat1", 0, "7H", "placed"), ("seat2", 0, "JS", "removed")]
    assert said == ["event 2: read JC in seat2[0] at 5.0 s, the players said JS"]
    assert [e.card for e in reader.events][2] == "JC"  # the raw reads are kept as read
