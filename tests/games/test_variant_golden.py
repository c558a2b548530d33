"""Golden records of the cribbage variants, replayed; their expected scores were counted by hand
from the rules (the counts are written out in each game's rule card in seeds/)."""

import json
from pathlib import Path

import pytest

from games.cribbage.patience import PatienceView
from games.records import replay

GOLDEN = Path(__file__).parent / "golden"
VARIANT_RECORDS = [
    "cribbage7_one_deal", "losing_one_deal", "auction_one_deal", "cribbage3_one_deal",
    "cribbage3-solo_one_deal", "cribbage4_one_deal", "patience_square", "noddy_one_deal",
    "costly_one_deal", "revised_one_deal",
]


@pytest.mark.parametrize("name", VARIANT_RECORDS)
def test_golden_record_replays_to_the_hand_counted_scores(name):
    record = json.loads((GOLDEN / f"{name}.json").read_text())
    result = replay(record)
    expect = record["expect"]
    assert result.state.scores == expect["scores"]
    for key in ("winner", "loser"):
        if key in expect:
            assert getattr(result.state, key) == expect[key]
    # every point is a score event of the record
    for side, score in enumerate(result.state.scores):
        assert sum(e.points for e in result.events if e.side == side) == score


def test_patience_golden_gives_every_line():
    record = json.loads((GOLDEN / "patience_square.json").read_text())
    view = replay(record).state.view_for(0)
    assert isinstance(view, PatienceView)
    assert {line.line: line.total for line in view.lines} == record["expect"]["lines"]


def test_every_variant_has_a_golden_record():
    from games import registered_games

    names = {s.name for s in registered_games()}
    variants = {"cribbage7", "losing", "auction", "cribbage3", "cribbage3-solo", "cribbage4", "patience",
                "noddy", "costly", "revised"}
    assert variants <= names
    for name in variants:
        assert any(json.loads(p.read_text())["game"] == name for p in GOLDEN.glob(f"{name}*.json"))


WHOLE_GAMES = sorted(p.stem for p in GOLDEN.glob("*_whole_game.json")
                     if json.loads(p.read_text())["game"] not in ("bhargage", "suitcases", "ohhell"))


def test_every_cribbage_variant_has_a_whole_game_at_every_seat_count():
    from games import get_game

    have = {(json.loads((GOLDEN / f"{n}.json").read_text())["game"],
             len(json.loads((GOLDEN / f"{n}.json").read_text())["players"])) for n in WHOLE_GAMES}
    for name in ("cribbage", "cribbage3", "cribbage3-solo", "cribbage4", "cribbage5", "cribbage7", "auction",
                 "costly", "noddy", "losing", "revised"):
        for seats in get_game(name).spec.players:
            assert (name, seats) in have, (name, seats)


@pytest.mark.parametrize("name", WHOLE_GAMES)
def test_a_whole_game_replays_to_its_recorded_end(name):
    record = json.loads((GOLDEN / f"{name}.json").read_text())
    state = replay(record).state
    assert state.is_over
    assert state.scores == record["expect"]["scores"] and state.winner == record["expect"]["winner"]
    assert len(state.events) == record["expect"]["events"]
