"""Finding the card in photos where it fills the frame, on light and busy tables, and where a
court's printed frame is a strong card-shaped rectangle inside the card."""

from __future__ import annotations

import numpy as np
import pytest

from vision.api import CARD_MM
from vision.classify import load_default_classifier
from vision.doubt import DOUBT
from vision.recognize import _outermost, card_outlines, read_card, recognize
from vision.render import HELDOUT_DESIGN_SEEDS, render_card
from vision.render.photo import _paste_card, background, camera


def _filling(card: str, seed: int, share: float, light: bool) -> tuple[np.ndarray, np.ndarray]:
    """A photo whose card covers ``share`` of it, on a plain light table or a busy one."""
    rng = np.random.default_rng(seed)
    face = render_card(card, HELDOUT_DESIGN_SEEDS[seed % 8], px_per_mm=3.0, rng=rng, alpha=True)
    cw, ch = CARD_MM[0] * 3.0, CARD_MM[1] * 3.0
    w, h = int(cw / np.sqrt(share)), int(ch / np.sqrt(share))
    canvas = np.full((h, w, 3), 235, np.float32) if light else background(h, w, rng).astype(np.float32)
    x0, y0 = (w - cw) / 2, (h - ch) / 2
    quad = np.array([[x0, y0], [x0 + cw, y0], [x0 + cw, y0 + ch], [x0, y0 + ch]], np.float32)
    _paste_card(canvas, face, quad)
    return camera(np.clip(canvas, 0, 255).astype(np.uint8), rng, 0.3), quad


@pytest.mark.parametrize(("card", "seed", "share", "light"), [
    ("7H", 1, 0.9, False), ("QS", 2, 0.8, False), ("4C", 4, 0.7, True)])
def test_recognize_finds_a_card_that_fills_the_photo(card: str, seed: int, share: float, light: bool) -> None:
    img, quad = _filling(card, seed, share, light)
    found = recognize(img, load_default_classifier())
    assert found and found[0].card == card, [(d.card, d.confidence) for d in found]
    err = min(np.abs(found[0].corners - np.roll(quad, k, axis=0)).max() for k in (0, 2))
    assert err < 0.1 * img.shape[0], err


@pytest.mark.parametrize(("card", "seed", "light"), [("KD", 3, True), ("JS", 5, False), ("QH", 6, True)])
def test_a_court_filling_the_photo_is_read_right_or_not_surely(card: str, seed: int, light: bool) -> None:
    img, _ = _filling(card, seed, 0.9, light)
    clf = load_default_classifier()
    d = read_card(img, clf)
    assert d.card == card or d.confidence <= DOUBT, (d.card, d.confidence)
    for f in recognize(img, clf):
        assert f.card == card or f.confidence <= DOUBT, (f.card, f.confidence)


def test_a_court_s_inner_frame_gives_way_to_the_card_round_it() -> None:
    card = np.array([[10, 10], [136, 10], [136, 186], [10, 186]], np.float32)
    frame = np.array([[30, 35], [116, 35], [116, 160], [30, 160]], np.float32)  # the picture's frame
    shadowed = card + np.array([[0, 0], [4, 0], [4, 5], [0, 5]], np.float32)  # the card with its shadow
    apart = card + 200
    assert [q.tolist() for q in _outermost([frame, card, apart])] == [card.tolist(), apart.tolist()]
    assert len(_outermost([card, shadowed])) == 2


def test_the_single_card_locator_skips_the_inner_frame_of_a_court() -> None:
    img, quad = _filling("KS", 7, 0.55, False)
    outlines = card_outlines(img)
    assert outlines, "no outline found"
    err = min(np.abs(outlines[0] - np.roll(quad, k, axis=0)).max() for k in (0, 2))
    assert err < 0.08 * img.shape[0], err
