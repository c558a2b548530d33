"""The card renderer: deterministic per seed, every card and back, held-out designs apart."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.render import (
    CARD_IDS,
    HELDOUT_DESIGN_SEEDS,
    TRAIN_DESIGN_RANGE,
    design_from_seed,
    index_box,
    render_card,
)
from vision.render.decktet import DECKTET_NAMES, render_decktet
from vision.render.fonts import font_pool
from vision.render.photo import compose_scene, index_shown, non_card_crop, table_crop


def test_card_ids_match_the_engine() -> None:
    from games.cards import Card

    assert len(CARD_IDS) == 54
    assert all(str(Card.parse(c)) == c for c in CARD_IDS)


def test_deterministic_per_seed() -> None:
    a = render_card("10H", 3, px_per_mm=2.0)
    b = render_card("10H", 3, px_per_mm=2.0)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, render_card("10H", 4, px_per_mm=2.0))
    r1 = render_card("QS", 5, px_per_mm=2.0, rng=np.random.default_rng(1))
    r2 = render_card("QS", 5, px_per_mm=2.0, rng=np.random.default_rng(1))
    assert np.array_equal(r1, r2)


@pytest.mark.parametrize("seed", [0, HELDOUT_DESIGN_SEEDS[0]])
def test_every_face_and_back_renders(seed: int) -> None:
    for cid in (*CARD_IDS, "back"):
        img = render_card(cid, seed, px_per_mm=1.5)
        assert img.shape == (132, 94, 3) and img.dtype == np.uint8
        assert img.std() > 3  # something is drawn
    rgba = render_card("AS", seed, px_per_mm=4.0, alpha=True)
    assert rgba.shape == (352, 252, 4) and rgba[0, 0, 3] < 128 and rgba[176, 126, 3] == 255


def test_ornate_courts_in_both_pools() -> None:
    """Commercial court cards are dense print: about half the decks of each pool draw their
    figures that way, the same on every render, while pip cards are untouched."""
    from dataclasses import replace

    for pool in (range(0, 400), HELDOUT_DESIGN_SEEDS):
        share = np.mean([design_from_seed(s).ornate for s in pool])
        assert 0.3 < share < 0.7, share
    seed = next(s for s in range(100) if design_from_seed(s).ornate and design_from_seed(s).court_style != 3
                and not design_from_seed(s).pictorial)
    plain = replace(design_from_seed(seed), ornate=False)
    ornate = render_card("KH", seed, px_per_mm=3.0)
    assert np.array_equal(ornate, render_card("KH", seed, px_per_mm=3.0))
    drawn = np.abs(ornate.astype(int) - render_card("KH", plain, px_per_mm=3.0).astype(int)).sum(axis=2) > 40
    assert drawn.mean() > 0.1  # a good part of the figure is re-printed
    assert np.array_equal(render_card("7H", seed, px_per_mm=3.0), render_card("7H", plain, px_per_mm=3.0))


def _ink_blobs(img: np.ndarray, box: tuple[int, int, int, int]) -> list[tuple[float, float]]:
    """Centres of the separate blobs of ink inside ``box`` (x0, y0, x1, y1, px) of a card."""
    x0, y0, x1, y1 = box
    grey = cv2.cvtColor(img[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
    _, ink = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    n, _, stats, centres = cv2.connectedComponentsWithStats(ink)
    return [tuple(c) for c, st in zip(centres[1:], stats[1:], strict=True) if st[cv2.CC_STAT_AREA] > 30]


def test_commercial_features_in_both_pools() -> None:
    """Renderer version 3 draws what commercial decks print and version 2 never did, in both
    the training and the held-out pools: full-colour court pictures, continental pip layouts,
    big pips, small aces, jokers as a coloured picture."""
    for pool in (range(0, 400), HELDOUT_DESIGN_SEEDS):
        designs = [design_from_seed(s) for s in pool]
        assert 0.3 < np.mean([d.pictorial for d in designs]) < 0.7
        assert 0.2 < np.mean([d.pip_variant == 1 for d in designs]) < 0.5
        assert 0.3 < np.mean([d.joker_picture for d in designs]) < 0.7
        assert 0.05 < np.mean([d.pip_h > 12.0 for d in designs]) < 0.4
        assert 0.1 < np.mean([d.ace_scale < 0.3 for d in designs]) < 0.45


def test_pictorial_courts_are_full_colour_beside_the_index() -> None:
    """A traditional court is a large picture in the traditional inks (red, blue, yellow),
    framed beside the corner index, never printed under it."""
    k = 4.0
    seeds = [s for s in range(60) if design_from_seed(s).pictorial][:6]
    assert len(seeds) == 6
    for seed in seeds:
        img = render_card("QH", seed, px_per_mm=k)
        hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV)
        vivid = (hsv[..., 1] > 120) & (hsv[..., 2] > 90)
        hue = hsv[..., 0][vivid].astype(int)
        shares = [np.mean((hue >= lo) & (hue <= hi)) * vivid.mean() for lo, hi in ((15, 35), (95, 130))]
        assert all(sh > 0.02 for sh in shares), (seed, shares)  # yellow and blue, not only the suit's red
        x0, y0, x1, y1 = (int(round(v * k)) for v in index_box("QH", seed, px_per_mm=k))
        corner = hsv[y0:y1, x0:x1]
        assert not ((corner[..., 1] > 120) & (corner[..., 0] >= 95) & (corner[..., 0] <= 130)).any(), seed


def test_continental_eight_is_two_columns_of_four() -> None:
    from dataclasses import replace

    seed = next(s for s in range(200) if design_from_seed(s).pip_h < 11 and design_from_seed(s).four_corners is False)
    k = 4.0
    d = design_from_seed(seed)
    box = (int(14 * k), int(10 * k), int(49 * k), int(78 * k))  # the pips, clear of both indices
    for variant, columns in ((0, [3, 2, 3]), (1, [4, 0, 4])):
        blobs = _ink_blobs(render_card("8S", replace(d, pip_variant=variant), px_per_mm=k), box)
        xs = np.array([x for x, _y in blobs]) / (box[2] - box[0])
        assert [int(np.sum(xs < 0.3)), int(np.sum((xs >= 0.3) & (xs <= 0.7))), int(np.sum(xs > 0.7))] == columns
    nine = _ink_blobs(render_card("9S", replace(d, pip_variant=1), px_per_mm=k), box)
    centre = [y for x, y in nine if 0.3 <= x / (box[2] - box[0]) <= 0.7]
    assert len(nine) == 9 and len(centre) == 1 and centre[0] < 0.3 * (box[3] - box[1])  # the centre pip sits high


def test_jester_pictures_leave_both_corners_clear() -> None:
    from dataclasses import replace

    k = 4.0
    for seed in [s for s in range(80) if design_from_seed(s).joker_picture][:5]:
        d = design_from_seed(seed)
        picture, plain = render_card("RJ", d, px_per_mm=k), render_card("RJ", replace(d, joker_picture=False), px_per_mm=k)
        x0, y0, x1, y1 = (int(round(v * k)) for v in index_box("RJ", d, px_per_mm=k))
        for img in (picture, picture[::-1, ::-1]):  # the corner and the turned one
            ref = plain if img is picture else plain[::-1, ::-1]
            assert np.array_equal(img[y0:y1, x0:x1], ref[y0:y1, x0:x1]), seed
        assert np.abs(picture.astype(int) - plain.astype(int)).sum(axis=2).astype(bool).mean() > 0.2


@pytest.mark.parametrize("seed", range(12))
def test_spades_are_pointed_and_clubs_round_topped(seed: int) -> None:
    """Printed spades come to a sharp point and swell out below it; a club starts with a round
    lobe. The old dome-topped spades taught the model every printed spade was a club."""
    from vision.render.glyphs import random_suit_params, suit_mask

    rng = np.random.default_rng(seed)

    def width_at(mask: np.ndarray, frac: float) -> float:
        row = mask[int(frac * (mask.shape[0] - 1))]
        return float((row > 0.5).sum()) / mask.shape[1]

    spade = suit_mask("S", random_suit_params("S", rng), 200)
    club = suit_mask("C", random_suit_params("C", rng), 200)
    assert width_at(spade, 0.04) < 0.12, "a spade's tip is a point"
    assert width_at(spade, 0.25) > 2.5 * width_at(spade, 0.04), "and its sides swell out below it"
    assert max(width_at(spade, f) for f in np.linspace(0.3, 0.7, 9)) > 0.95, "to the full width at the lobes"
    assert width_at(club, 0.04) > 1.5 * width_at(spade, 0.04)
    assert 0.8 < spade.shape[0] / spade.shape[1] < 1.35, "about as tall as wide, stem included"


def test_unknown_card_id_is_refused() -> None:
    with pytest.raises(ValueError):
        render_card("1X", 0)


def test_heldout_designs_use_only_heldout_fonts() -> None:
    assert not set(HELDOUT_DESIGN_SEEDS) & set(TRAIN_DESIGN_RANGE)
    train_fonts = {f.path or f.name for f in font_pool(False)}
    held_fonts = {f.path or f.name for f in font_pool(True)}
    assert not train_fonts & held_fonts
    assert {design_from_seed(s).font.family for s in HELDOUT_DESIGN_SEEDS} <= {f.family for f in font_pool(True)}
    assert len({design_from_seed(s).font.family for s in range(200)}) >= 8  # many index styles in training


def test_decktet_cards() -> None:
    assert len(DECKTET_NAMES) == 45
    a = render_decktet("the Author", 0, px_per_mm=2.0)
    assert a.shape == (176, 126, 3)
    assert not np.array_equal(a, render_decktet("the Origin", 0, px_per_mm=2.0))


def test_photo_effects_and_scenes() -> None:
    rng = np.random.default_rng(0)
    face = render_card("7D", 1, px_per_mm=3.0, alpha=True)
    crop = table_crop(face, rng, px_per_mm=2.0)
    assert 150 < crop.shape[0] < 210 and 105 < crop.shape[1] < 150
    assert non_card_crop(rng).ndim == 3
    img, corners = compose_scene([face, render_card("KS", 1, px_per_mm=3.0, alpha=True)], rng, size=(640, 480),
                                 card_px=(120, 160))
    assert img.shape == (480, 640, 3) and len(corners) == 2
    for q in corners:
        assert q.shape == (4, 2) and (q[:, 0] >= 0).all() and (q[:, 0] < 640).all()


@pytest.mark.parametrize("layout", ["fan", "arc"])
def test_overlapping_layouts_leave_every_index_in_sight(layout: str) -> None:
    """In a row or a held fan each card lies on the one before it, and every card's top-left
    index (the corner region 8 x 12 mm) stays uncovered by the cards laid after it."""

    rng = np.random.default_rng(4)
    faces = [render_card(c, 2, px_per_mm=3.0, alpha=True) for c in ("AS", "7H", "QD", "10C", "3S")]
    _, corners = compose_scene(faces, rng, layout=layout)
    for i, q in enumerate(corners):
        tl, right, down = q[0], (q[1] - q[0]) / 63.0, (q[3] - q[0]) / 88.0  # image px per card mm
        index_centre = tl + right * 5 + down * 8
        for later in corners[i + 1:]:
            assert cv2.pointPolygonTest(later.reshape(-1, 1, 2), tuple(map(float, index_centre)), False) < 0
    # overlapping: each card covers part of the one before it
    for a, b in zip(corners, corners[1:], strict=False):
        inter, _ = cv2.intersectConvexConvex(a, b)
        assert inter > 0


def test_index_box_and_what_of_it_shows() -> None:
    """Where a card's corner index is printed, and how much of it the cards laid after it leave
    in sight (the bench counts a card whose index shows apart from one partly covered)."""
    for cid, seed in (("AS", 2), ("10H", HELDOUT_DESIGN_SEEDS[3]), ("RJ", 5), ("QC", 7)):
        x0, y0, x1, y1 = index_box(cid, seed)
        assert 0 < x0 < x1 < 31.5 and 0 < y0 < y1 < 44, (cid, (x0, y0, x1, y1))
        card = render_card(cid, seed, px_per_mm=4.0)
        ink = card[int(y0 * 4):int(y1 * 4), int(x0 * 4):int(x1 * 4)]
        assert ink.min() < 150  # the box holds the printed index
    with pytest.raises(ValueError, match="index"):
        index_box("back", 2)
    card = np.array([[0, 0], [63, 0], [63, 88], [0, 88]], np.float32) * 3
    box = (2.0, 2.0, 10.0, 20.0)
    assert index_shown([card, card + [90, 0]], [box, box]) == [1.0, 1.0]  # apart
    covered = index_shown([card, card + [15, 0]], [box, box])  # the next card 5 mm along covers most of it
    assert 0.1 < covered[0] < 0.6 and covered[1] == 1.0


@pytest.mark.parametrize("row", [False, True], ids=["held-fan", "row"])
def test_held_crop_is_deterministic_and_covers_all_but_the_index(row: bool) -> None:
    """Training views of a card in a held fan or a row on the table: same seed, same crop; the
    card's index corner is in sight as printed, its middle is covered."""
    from vision.render.photo import held_crop

    face = render_card("9D", 3, px_per_mm=3.0, alpha=True)
    covers = [render_card(c, 3, px_per_mm=2.5, alpha=True) for c in ("KS", "2C")]
    a, b = (held_crop(face, covers, np.random.default_rng(8), px_per_mm=2.0, strength=0.0, row=row) for _ in range(2))
    assert np.array_equal(a, b)
    small = cv2.resize(np.ascontiguousarray(face[..., :3]), None, fx=2 / 3, fy=2 / 3, interpolation=cv2.INTER_AREA)  # 2 px/mm, as the crop
    index = small[4:44, 4:22]  # the top-left 2-20 x 2-11 mm: rank and suit
    middle = small[60:116, 20:106]  # the middle pips

    def seen(patch: np.ndarray) -> float:  # best match anywhere in the crop, either way up
        return max(float(cv2.matchTemplate(x, patch, cv2.TM_CCOEFF_NORMED).max()) for x in (a, a[::-1, ::-1].copy()))

    assert seen(index) > 0.8  # the index strip is in sight
    assert seen(middle) < 0.6  # the body is covered


def test_clubs_have_no_hole_of_paper_above_the_stem() -> None:
    """The paper inside a club's box all reaches the box's edge: printed clubs are one solid
    shape (v4 left a hole of up to 53 px, at this size, between the side lobes and the stem; a
    lone pixel of anti-aliasing is not a hole)."""
    from vision.render.glyphs import random_suit_params, suit_mask

    rng = np.random.default_rng(5)
    for _ in range(40):
        club = suit_mask("C", random_suit_params("C", rng), 120)
        paper = np.pad((club < 0.5).astype(np.uint8), 1, constant_values=1)
        _, labels = cv2.connectedComponents(paper, connectivity=4)
        assert int((labels > 1).sum()) <= 1, "no paper enclosed by the club"


def test_some_training_designs_print_symbol_font_pips() -> None:
    from vision.render.suitfonts import FAMILIES, face_names

    train = [design_from_seed(s) for s in range(300)]
    share = sum(bool(d.suit_font) for d in train) / len(train)
    assert 0.3 < share < 0.5
    assert {d.suit_font.split("/")[0] for d in train if d.suit_font} == set(FAMILIES), "every family is drawn"
    assert all(d.suit_font in face_names() for d in train if d.suit_font), "a design records a name, not a path"
    assert not any(design_from_seed(s).suit_font for s in HELDOUT_DESIGN_SEEDS), "held-out pips stay parametric"


@pytest.mark.parametrize("family", ["dejavu", "noto-symbols-2", "noto-emoji"])
def test_a_symbol_font_draws_the_four_suits(family: str) -> None:
    """The font's own symbols, not a missing-glyph box: a spade is pointed and a club is not,
    a diamond is widest at its middle, and the four differ."""
    from vision.render.glyphs import suit_mask
    from vision.render.suitfonts import face_names

    face = next(n for n in face_names() if n.startswith(family + "/"))
    masks = {s: suit_mask(s, (), 120, font=face) for s in "SHDC"}

    def width_at(mask: np.ndarray, frac: float) -> float:
        row = mask[int(frac * (mask.shape[0] - 1))]
        return float((row > 0.5).sum()) / mask.shape[1]

    assert width_at(masks["S"], 0.04) < 0.25 < width_at(masks["C"], 0.04)
    assert width_at(masks["D"], 0.5) > 0.9 and width_at(masks["D"], 0.05) < 0.3
    assert width_at(masks["H"], 0.95) < 0.3 < width_at(masks["H"], 0.3)
    small = [cv2.resize(m, (32, 32), interpolation=cv2.INTER_AREA) for m in masks.values()]
    assert min(float(np.abs(a - b).mean()) for i, a in enumerate(small) for b in small[i + 1:]) > 0.05


def test_an_unknown_symbol_font_is_named() -> None:
    from vision.render.suitfonts import face_path

    with pytest.raises(ValueError, match="unknown suit font 'comic/sans.ttf'"):
        face_path("comic/sans.ttf")


def test_frameless_court_figures_leave_the_corner_indices_clear() -> None:
    """A frameless figure is nearly as wide as the card, but nothing of it is printed in the
    corners where the indices are: only the index's own ink is there."""
    from dataclasses import replace

    from vision.render.cards import _corner_clearance, index_box

    designs = [d for d in map(design_from_seed, range(400))
               if d.pictorial and d.frameless and d.border is None and not d.wear][:4]
    assert designs
    k = 4.0
    for d in designs:
        for card in ("QH", "KC", "JS"):
            face = render_card(card, d, px_per_mm=k).astype(np.float32)
            cx, cy = (round(v * k) for v in _corner_clearance(d))
            ix0, iy0, ix1, iy1 = (round(v * k) for v in index_box(card, d, px_per_mm=k))
            corner = np.abs(face[:cy, :cx] - np.asarray(d.paper, np.float32)).sum(axis=2) > 60
            corner[max(iy0 - 2, 0): iy1 + 2, max(ix0 - 2, 0): ix1 + 2] = False
            assert corner.sum() == 0, f"design {d.seed} {card}: the figure reaches into the corner"
            framed = render_card(card, replace(d, frameless=False), px_per_mm=k)
            # and it is wider than the framed figure, which starts beside the index
            ink = (np.abs(face.astype(np.float32) - np.asarray(d.paper, np.float32)).sum(axis=2) > 60)
            ink_framed = (np.abs(framed.astype(np.float32) - np.asarray(d.paper, np.float32)).sum(axis=2) > 60)
            mid = slice(face.shape[0] // 3, 2 * face.shape[0] // 3)
            assert np.nonzero(ink[mid].any(axis=0))[0].min() < np.nonzero(ink_framed[mid].any(axis=0))[0].min()


def test_some_training_backs_carry_a_picture_and_no_index() -> None:
    """About one training deck in five prints a picture on its back (a figure like a court's, or
    one upright scene): full colour over most of the back, and no rank or suit in its corner,
    so only a corner index tells a court from such a back. Held-out designs keep plain backs."""
    from dataclasses import replace

    train = [design_from_seed(s) for s in range(300)]
    pictured = [d for d in train if d.back_picture]
    assert 0.12 < len(pictured) / len(train) < 0.28
    assert {d.back_picture for d in pictured} == {1, 2}
    assert not any(design_from_seed(s).back_picture for s in HELDOUT_DESIGN_SEEDS)
    for d in pictured[:4]:
        back = render_card("back", d, px_per_mm=3.0)
        plain = render_card("back", replace(d, back_picture=0), px_per_mm=3.0)
        assert np.array_equal(back, render_card("back", d, px_per_mm=3.0)), "deterministic"
        h, w = back.shape[:2]
        middle = (slice(h // 4, 3 * h // 4), slice(w // 4, 3 * w // 4))
        changed = np.abs(back.astype(np.int16) - plain.astype(np.int16)).sum(axis=2) > 30
        assert changed[middle].mean() > 0.5, f"design {d.seed}: the picture covers the middle"
        hsv = cv2.cvtColor(back, cv2.COLOR_BGR2HSV)
        assert np.percentile(hsv[..., 1][middle], 75) > 80, "in colour"
        # the faces are what they were: only the back changed
        for card in ("KS", "7D"):
            assert np.array_equal(render_card(card, d, px_per_mm=2.0), render_card(card, replace(d, back_picture=0), px_per_mm=2.0))


def test_a_court_whose_index_shows_the_rank_alone_prints_its_suit_by_the_head() -> None:
    """A frameless court whose index shows the rank alone prints its suit by the head, top and
    bottom, on bare card, in the suit's ink. (Before renderer version 7 such a court showed its
    suit nowhere, and no one could read it.)"""
    from dataclasses import replace

    from vision.render.cards import _corner_clearance

    designs = [d for d in map(design_from_seed, range(3000))
               if d.pictorial and d.frameless and d.index_layout == 2 and d.border is None and not d.wear][:3]
    assert designs
    k = 4.0
    for d in designs:
        over = replace(d, index_layout=0)  # the same figure, its index the rank over the suit
        cx, cy = (round(max(a, b) * k) for a, b in zip(_corner_clearance(d), _corner_clearance(over), strict=True))
        for card in ("KS", "QC", "JH"):
            alone = render_card(card, d, px_per_mm=k).astype(np.float32)
            shown = render_card(card, over, px_per_mm=k).astype(np.float32)
            H, W = alone.shape[:2]
            changed = np.abs(alone - shown).sum(axis=2) > 60
            for y, x in ((slice(0, cy), slice(0, cx)), (slice(0, cy), slice(W - cx, W))):
                changed[y, x] = changed[H - y.stop:H - y.start, W - x.stop:W - x.start] = False
            suit_ink = np.abs(alone - np.asarray(d.ink(card[-1]), np.float32)).sum(axis=2) < 60
            pip = changed & suit_ink
            top, bottom = pip[:H // 4].sum(), pip[3 * H // 4:].sum()
            least = 0.2 * (4.5 * k) ** 2  # a pip at least 4.5 mm tall
            assert top > least and bottom > least, f"design {d.seed} {card}: no suit by the head ({top}, {bottom} px)"
            assert not pip[H // 4: 3 * H // 4].any()
