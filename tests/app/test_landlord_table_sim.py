"""Fight the Landlord on the simulated table: random deals laid on the combinations mat and played
through its protocol score as played; the jokers are read from frames like any card."""

from __future__ import annotations

import json

import pytest

from pegpi.cli import main
from pegpi.tablesim import table_sim


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_deal_played_through_the_protocol_is_the_deal_played(seed: int) -> None:
    report = table_sim("landlord", seats=3, seed=seed, frames=False)
    assert report.same and report.actions_same, report.to_json()
    assert report.actions_recorded == report.actions_played > 40 and sum(report.scores) > 0


def test_a_whole_game_played_through_the_protocol_is_the_game_played(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["table-sim", "--game", "landlord", "--seats", "3", "--seed", "2", "--events", "--game-to-end",
                 "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["same"] and report["winner"] == report["winner_played"] is not None


def test_the_jokers_are_read_from_frames_upright_and_sideways() -> None:
    from pegpi.companion import load_classifier
    from vision.mat import layout_for
    from vision.pipeline import TablePipeline
    from vision.simtable import Idle, Place, SimTable

    classifier, _ = load_classifier(simulated=True, deck="french54")
    mat = layout_for("combos", 3)
    script = [Idle(0.4), Place("BJ", "seat0", 0), Place("RJ", "seat0", 1), Place("RJ", "seat1", 2),
              Place("BJ", "kitty", 1), Place("back", "kitty", 0), Idle(1.0)]
    sim = SimTable(mat, script, fps=10, seed=3)
    pipeline = TablePipeline(mat, classifier)
    read = [(e.zone, e.slot, e.card) for f in sim.frames() for e in pipeline.process(f.image, f.t).events]
    assert read == [(e.zone, e.slot, e.card) for e in sim.truth]
