"""The golden records of Ricochet Poker and Skull (the rule cards' worked examples and whole games
played by the random player) replay to the results written in them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.records import replay

GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize("name", ["skull_seed_rounds", "skull_one_game", "ricochet_seed_example",
                                  "ricochet_three_deals"])
def test_golden_records_replay_to_their_expected_result(name: str) -> None:
    record = json.loads((GOLDEN / f"{name}.json").read_text())
    state = replay(record).state
    assert state.scores == record["expect"]["scores"] and state.winner == record["expect"]["winner"]
    for side, score in enumerate(state.scores):  # every point or chip moved is a score event
        assert sum(e.points for e in state.events if e.side == side) == score
    if record["game"] == "skull" and state.is_over:
        assert max(state.scores) == 2 or sum(1 for h in state.held if h) == 1
