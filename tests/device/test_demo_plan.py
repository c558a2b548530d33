"""The camera-frame demo's simulated table from any script step (issue 39, item 12): a camera that
starts mid-game finds the mat as the steps left it, and each frame is tagged with a step only once
the mat shows that step, so a restart from the step after the last tag loses and doubles nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from device.demo import StepClock, demo_record, press_times, sim_plan, sim_steps, step_marks
from device.protocols.script import mat_at, record_to_script, resume_point
from device.session import Session
from device.store import Store
from games.errors import PegpiError
from vision.events import TableEvent
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


def _camera(session: Session, start: int, *, latency: float, stop_at: int | None = None) -> None:
    """What a camera that reads every card right reports of the simulated table from step
    ``start``, ``latency`` seconds after each card settles, tagged as the demo tags it, with the
    buttons pressed when the script says; cut off (a power cut) once the game has ``stop_at`` actions."""
    plan = sim_plan(STEPS, start=start)
    sim = SimTable(LAYOUT, plan.script, fps=10.0)
    times = press_times(plan, LAYOUT, 10.0)
    clock = StepClock(step_marks(plan, sim.truth, times), start)
    press = [(t, index, step) for t, (_, index, step) in zip(times, plan.buttons, strict=True)]
    events = [(e.t + latency, e) for e in sim.truth]
    while events or press:
        if press and (not events or press[0][0] <= events[0][0]):
            _, index, step = press.pop(0)
            try:
                if step["op"] == "say":
                    session.submit(step["action"], source="button", input=f"script:{index}")
                else:
                    session.confirm(source="button", input=f"script:{index}")
            except PegpiError:
                pass
        else:
            t, e = events.pop(0)
            session.table_events([TableEvent(e.zone, e.card, e.kind, t, 0.99, e.slot)], input=clock.tag(t))
        if stop_at is not None and len(session.entries) >= stop_at:
            return


@pytest.mark.parametrize(("latency", "cuts"), [(0.0, [9, 40, 41, 77]), (0.7, [6, 30, 55, 56, 90])])
def test_a_demo_cut_off_again_and_again_records_the_game_of_an_uncut_one(
        tmp_path: Path, latency: float, cuts: list[int]) -> None:
    with Store(tmp_path / "calm.db") as store:
        calm = Session(store, players=["Ann", "Bob"])
        _camera(calm, 0, latency=latency)
        played = [e.action for e in calm.entries]
    assert calm.state.is_over

    db = tmp_path / "cut.db"
    for cut in [*cuts, None]:
        with Store(db) as store:
            session = Session(store, players=["Ann", "Bob"])
            start = resume_point(session)
            assert (start == 0) == (cut == cuts[0])  # only the first run starts the game
            _camera(session, start, latency=latency, stop_at=cut)
            got = [e.action for e in session.entries]
            assert got == played[:len(got)]  # nothing lost, nothing twice
            assert [r.kind for r in store.rows(session.game_id)] == ["action"] * len(got)
    assert got == played
