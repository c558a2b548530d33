"""The locator on rendered frames: cards found in the right slots, hands are occlusion, light is not a card."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.api import CARD_MM
from vision.locate import Locator, crop_card, similarity, upright
from vision.mat import layout_for
from vision.mat_find import MatFinder, warp_mat
from vision.render.cards import HELDOUT_DESIGN_SEEDS
from vision.simtable import CameraPose, HandPass, Idle, Light, Place, SimTable, default_card_art

LAYOUT = layout_for("pegging", 2)
CARDS = [("seat0", "7H"), ("seat0", "8C"), ("seat0", "JS"), ("seat1", "2D"), ("seat1", "QC"),
         ("starter", "5D"), ("crib", "back"), ("crib", "KD")]


@pytest.fixture(scope="module")
def table():
    """Frames of one simulated table: empty, eight cards (neighbours touching), a hand, dim light."""
    script = [Idle(0.1)] + [Place(card, zone, hand=False) for zone, card in CARDS] + [Idle(0.1)]
    script += [HandPass("seat0", 1.0), Light(0.6, 0.1), Idle(0.1)]
    sim = SimTable(LAYOUT, script, fps=10, pose=CameraPose(roll=2.0, tilt=0.1), seed=11,
                   card_art=default_card_art(px_per_mm=3.0))
    finder = MatFinder(LAYOUT)
    mats = {}

    def mat(index):
        frame = sim.render(index)
        pose = finder.find(frame, sim.scenes[index].t)
        return frame, pose, warp_mat(frame, pose, LAYOUT, 1.0).copy()

    full = next(i for i, s in enumerate(sim.scenes) if len(s.cards) == len(CARDS))
    hand = next(i for i, s in enumerate(sim.scenes) if s.hand is not None and i > full + 5)
    mats = {"empty": mat(0), "full": mat(full), "hand": mat(hand), "dim": mat(len(sim.scenes) - 1)}
    return sim, mats


def test_cards_are_found_in_their_slots_even_when_neighbours_touch(table):
    _, mats = table
    locator = Locator(LAYOUT)
    reference = mats["empty"][2]
    sighting, _ = locator.locate(mats["full"][2], reference)
    expected = {}
    for zone, _card in CARDS:
        expected[(zone, sum(1 for z in expected if z[0] == zone))] = True
    assert sorted((c.zone, c.slot) for c in sighting.cards) == sorted(expected)
    assert sighting.occluded == frozenset()
    for c in sighting.cards:
        short = np.linalg.norm(c.quad[1] - c.quad[0])
        long = np.linalg.norm(c.quad[2] - c.quad[1])
        assert short == pytest.approx(CARD_MM[0], abs=6) and long == pytest.approx(CARD_MM[1], abs=6)


def test_an_empty_mat_has_no_cards(table):
    _, mats = table
    sighting, mask = Locator(LAYOUT).locate(mats["empty"][2], mats["empty"][2])
    assert sighting.cards == () and sighting.occluded == frozenset()
    assert mask.max() == 0


def test_a_hand_freezes_the_zones_under_it_and_hides_no_card_elsewhere(table):
    _, mats = table
    sighting, _ = Locator(LAYOUT).locate(mats["hand"][2], mats["empty"][2])
    assert "seat0" in sighting.occluded
    assert all(c.zone not in sighting.occluded for c in sighting.cards)
    assert "seat1" in {c.zone for c in sighting.cards}  # the far row stays in view


def test_dimmed_light_is_not_a_card(table):
    _, mats = table
    sighting, _ = Locator(LAYOUT).locate(mats["dim"][2], mats["empty"][2])
    assert len(sighting.cards) == len(CARDS) and sighting.occluded == frozenset()


def test_signatures_tell_cards_apart_but_not_frames_apart(table):
    _, mats = table
    locator = Locator(LAYOUT)
    first, _ = locator.locate(mats["full"][2], mats["empty"][2])
    again, _ = locator.locate(mats["dim"][2], mats["empty"][2])
    by_place = {(c.zone, c.slot): c.signature for c in first.cards}
    for c in again.cards:
        assert similarity(c.signature, by_place[(c.zone, c.slot)]) > 0.85
    seat0 = [c.signature for c in first.cards if c.zone == "seat0"]
    assert similarity(seat0[0], seat0[2]) < 0.8  # 7H and JS


def test_crops_are_upright_cards_from_the_camera_frame(table):
    sim, mats = table
    frame, pose, mat = mats["full"]
    sighting, _ = Locator(LAYOUT).locate(mat, mats["empty"][2])
    art = default_card_art(px_per_mm=2.0)
    for c in sighting.cards:
        crop = crop_card(frame, pose.to_frame, c.quad, 2.0)
        assert crop.shape == (176, 126, 3)
        if c.zone == "starter":
            face = np.ascontiguousarray(art("5D")[..., :3])
            # either way up: a card's index is in two opposite corners
            score = max(cv2.matchTemplate(crop, face, cv2.TM_CCOEFF_NORMED).max(),
                        cv2.matchTemplate(crop, face[::-1, ::-1].copy(), cv2.TM_CCOEFF_NORMED).max())
            assert score > 0.6


@pytest.mark.parametrize("angle", [0, 5, 30, 85, 90, 95, 180, 265])
def test_upright_orders_corners_clockwise_with_the_short_edge_on_top(angle):
    box = cv2.boxPoints(((100.0, 80.0), (63.0, 88.0), float(angle)))
    rng = np.random.default_rng(angle)
    q = upright(box[rng.permutation(4)])
    assert np.linalg.norm(q[1] - q[0]) == pytest.approx(63.0, abs=0.01)
    assert np.linalg.norm(q[2] - q[1]) == pytest.approx(88.0, abs=0.01)
    edge1, edge2 = q[1] - q[0], q[2] - q[1]
    assert edge1[0] * edge2[1] - edge1[1] * edge2[0] > 0  # clockwise on screen (y down)


def test_a_coin_on_the_mat_freezes_nothing_and_is_no_card(table):
    _, mats = table
    mat = mats["full"][2].copy()
    x, y = (round(v) for v in LAYOUT.zone("seat1").slots[4].center)
    cv2.circle(mat, (x, y), 11, (40, 170, 200), -1)  # a coin in an empty outline of seat1
    sighting, _ = Locator(LAYOUT).locate(mat, mats["empty"][2])
    assert sighting.occluded == frozenset()
    assert ("seat1", 4) not in {(c.zone, c.slot) for c in sighting.cards}
    assert len(sighting.cards) == len(CARDS)


#: a held-out design whose back is a fine black-and-white pattern printed to its edge, its mean
#: near the felt's: it differs from the empty mat in thin lines a pixel apart
FINE_BACK = HELDOUT_DESIGN_SEEDS[16]


def _laid_on_the_layout_mat(cards: list[str], design: int, seed: int, *, grey: bool = False) -> list[list[int]]:
    """``cards`` laid at once on the layout mat's outlines in turn, ``design``'s art, a camera of
    ``seed`` (grey and noisy if ``grey``): in each frame once all lie there, the outlines the
    locator finds a card in."""
    layout = layout_for("layout", 1)
    script = [Idle(0.3)] + [Place(card, "grid", i, hand=False) for i, card in enumerate(cards)] + [Idle(0.8)]
    rng = np.random.default_rng(seed)
    camera = {"grey": True, "noise": 10.0} if grey else {"noise": 3.0}
    sim = SimTable(layout, script, fps=10, pose=CameraPose.random(rng), seed=seed,
                   card_art=default_card_art(design=design), **camera)
    finder, locator = MatFinder(layout), Locator(layout)
    locator.grey = grey
    reference = None
    seen = []
    for index, scene in enumerate(sim.scenes):
        frame = sim.render(index)
        mat = warp_mat(frame, finder.find(frame, scene.t), layout, 1.0).copy()
        if reference is None:
            reference = mat
        elif len(scene.cards) == len(cards):
            sighting, _ = locator.locate(mat, reference)
            seen.append(sorted(c.slot for c in sighting.cards))
    return seen


@pytest.mark.parametrize("seed", [5, 6])
def test_a_fine_patterned_back_is_found_in_every_frame(seed):
    """A crib or a stock of such backs, lying edge to edge, is found card by card in every frame
    once laid, not taken for a hand over the zone (before: found in no frame)."""
    seen = _laid_on_the_layout_mat(["back"] * 8, FINE_BACK, seed)
    assert len(seen) >= 5
    assert seen == [list(range(8))] * len(seen)


#: held-out designs whose courts, through a grey camera, cut their cards in pieces (art the grey
#: of the felt) or whose sixteen cards edge to edge cover more than sixteen cards and a third
SPLIT_COURTS = [HELDOUT_DESIGN_SEEDS[6], HELDOUT_DESIGN_SEEDS[30], HELDOUT_DESIGN_SEEDS[1]]


@pytest.mark.parametrize("design", SPLIT_COURTS)
def test_a_grey_camera_finds_sixteen_courts_laid_edge_to_edge(design):
    """Enrolling a deck through a camera that shows no colour: the twelve courts and four aces laid
    at once on the layout mat are found card by card once laid, not taken for a hand over the mat
    (before: the whole mat frozen in most frames)."""
    cards = [rank + suit for rank in "JQKA" for suit in "SHDC"]
    seen = _laid_on_the_layout_mat(cards, design, design, grey=True)
    assert len(seen) >= 5
    assert seen == [list(range(len(cards)))] * len(seen)
