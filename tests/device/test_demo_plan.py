"""The camera-frame demo's simulated table from any script step (issue 39, item 12): a camera that
starts mid-game finds the mat as the steps left it, and each frame is tagged with a step only once
the mat shows that step, so a restart from the step after the last tag loses and doubles nothing."""

from __future__ import annotations

import pytest

from device.demo import StepClock, demo_record, press_times, sim_plan, sim_steps, step_marks
from device.protocols.script import mat_at, record_to_script
from vision.mat import layout_for
from vision.simtable import SimTable

STEPS = record_to_script(demo_record("cribbage", 3))
LAYOUT = layout_for("pegging", 2)


def test_from_the_start_the_plan_is_the_whole_script() -> None:
    plan = sim_plan(STEPS)
    assert sim_steps(STEPS) == (plan.script, [(n, step) for n, _, step in plan.buttons])
    assert plan.owners[0] == 0  # no card lies before the game


@pytest.mark.parametrize("start", [0, 5, 40, 123, len(STEPS) - 3])
def test_the_mat_shows_every_step_by_the_time_it_is_tagged(start: int) -> None:
    plan = sim_plan(STEPS, start=start)
    sim = SimTable(LAYOUT, plan.script, fps=10.0)
    lying = mat_at(STEPS, start)
    first = {(e.zone, e.slot or 0): e.card for e in sim.truth[:len(lying)]}
    assert first == {key: card for key, (card, _) in lying.items()}  # the camera finds the mat as it was
    assert all(e.kind == "placed" and e.t <= sim.truth[len(lying)].t for e in sim.truth[:len(lying)])

    marks = step_marks(plan, sim.truth, press_times(plan, LAYOUT, 10.0))
    steps = [i for _, i in marks]
    assert steps == sorted(set(steps)) and steps[0] >= start and steps[-1] == len(STEPS) - 1
    assert [t for t, _ in marks] == sorted(t for t, _ in marks)
    clock = StepClock(marks, start)
    assert clock.tag(0.0) == (f"script:{start - 1}" if start else None)
    for t, index in marks:  # at the moment a step's tag is given, the mat shows it
        assert clock.tag(t) == f"script:{index}"
        mat: dict[tuple[str, int], str] = {}
        for event in sim.truth:
            if event.t > t:
                break
            if event.kind == "placed":
                mat[(event.zone, event.slot or 0)] = event.card
            else:
                mat.pop((event.zone, event.slot or 0), None)
        assert mat == {key: card for key, (card, _) in mat_at(STEPS, index + 1).items()}, index
