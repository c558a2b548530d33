"""The simulated table: scripts laid out in time, the ground truth, and the frames it renders."""

from __future__ import annotations

import numpy as np
import pytest

from vision.errors import ScriptError
from vision.mat import layout_for
from vision.simtable import (
    Clear,
    HandPass,
    Idle,
    Light,
    Place,
    Remove,
    Shake,
    SimTable,
    Timing,
)

LAYOUT = layout_for("pegging", 2)


def flat(card: str) -> np.ndarray:
    """Plain card art: white faces, a blue back (rendering details do not matter here)."""
    colour = (160, 60, 30) if card == "back" else (235, 235, 235)
    return np.full((264, 189, 3), colour, np.uint8)


def sim(script, **kw) -> SimTable:
    kw.setdefault("fps", 10.0)
    kw.setdefault("timing", Timing(reach_s=0.3, settle_s=0.5))
    return SimTable(LAYOUT, script, card_art=flat, **kw)


def test_truth_follows_the_script_in_order_and_time():
    table = sim([Idle(1.0), Place("7H", "seat0"), Place("8C", "seat0"), Place("back", "crib", 2),
                 Remove("seat0"), Clear()])
    assert [(e.zone, e.slot, e.card, e.kind) for e in table.truth] == [
        ("seat0", 0, "7H", "placed"),
        ("seat0", 1, "8C", "placed"),
        ("crib", 2, "back", "placed"),
        ("seat0", 1, "8C", "removed"),  # the last card placed in the zone
        ("seat0", 0, "7H", "removed"),  # clearing goes zone by zone
        ("crib", 2, "back", "removed"),
    ]
    # 1 s idle, then each step: 0.3 s reaching in, 0.3 s out (the card is seen free), 0.5 s settling
    assert [e.t for e in table.truth] == pytest.approx([1.6, 2.7, 3.8, 4.9, 6.0, 7.1])
    assert table.duration == pytest.approx(7.6)


def test_hands_appear_only_while_reaching_and_light_and_shake_take_effect():
    table = sim([Idle(0.2), HandPass("seat1", 1.0), Light(0.5, 0.2), Shake(2.0), Idle(0.2)])
    hands = [s.hand is not None for s in table.scenes]
    assert hands == [False] * 2 + [True] * 10 + [False] * 4
    assert table.truth == []
    assert table.scenes[-1].gain == pytest.approx(0.5) and table.scenes[-1].shake == 2.0


@pytest.mark.parametrize(("script", "message"), [
    ([Place("7H", "discard")], "step 0 .*no zone 'discard'"),
    ([Place("7H", "seat0", 9)], "slots 0 to 4, not 9"),
    ([Place("7H", "starter"), Place("8C", "starter", 0)], "step 1 .*already holds 7H"),
    ([Place("7H", "starter"), Place("8C", "starter")], "starter is full"),
    ([Remove("crib")], "holds no card"),
    ([Remove("crib", 1)], "slot 1 of crib is empty"),
])
def test_bad_scripts_name_the_step_and_the_problem(script, message):
    with pytest.raises(ScriptError, match=message):
        sim(script)


def test_frames_are_camera_sized_deterministic_and_show_the_cards():
    script = [Idle(0.2), Place("7H", "starter", hand=False), Idle(0.2)]
    a, b = sim(script, seed=3), sim(script, seed=3)
    first, last = a.render(0), a.render(len(a.scenes) - 1)
    assert first.shape == (720, 1280, 3) and first.dtype == np.uint8
    assert np.array_equal(last, b.render(len(b.scenes) - 1))
    # where the starter lies, the white card now shows in the camera frame
    x, y = a.layout.zone("starter").slots[0].center
    px = a.to_frame() @ np.array([x, y, 1.0])
    u, v = int(px[0] / px[2]), int(px[1] / px[2])
    assert first[v, u].mean() < 150 < last[v, u].mean()


def test_the_simulator_is_a_frame_source():
    table = sim([Idle(0.5)])
    with table.source() as source:
        frames = list(source)
    assert [f.index for f in frames] == list(range(5))
    assert [f.t for f in frames] == pytest.approx([0.0, 0.1, 0.2, 0.3, 0.4])
