"""The index network's views cut by a photo's edge (:func:`vision.train.index.photo_edge`): a card
the photo cuts off shows black beyond the edge, and the index it is read by stays whole."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch")

from vision.render import HELDOUT_DESIGN_SEEDS, index_box, render_card  # noqa: E402
from vision.train.index import photo_edge  # noqa: E402
from vision.train.model import CORNER_H, CORNER_W  # noqa: E402

PX_PER_MM = 2.0  # the index network's corner: 36 x 28 mm at 2 px a mm


def _corners(cards: list[str]) -> tuple[np.ndarray, list[tuple[int, int, int, int]]]:
    """Rendered corner regions of ``cards`` in held-out designs, and each index's box in pixels."""
    regions, boxes = [], []
    for i, card in enumerate(cards):
        design = HELDOUT_DESIGN_SEEDS[i % len(HELDOUT_DESIGN_SEEDS)]
        face = render_card(card, design, px_per_mm=PX_PER_MM)
        regions.append(np.ascontiguousarray(face[:CORNER_H, :CORNER_W, :3]))
        x0, y0, x1, y1 = (round(v * PX_PER_MM) for v in index_box(card, design))
        boxes.append((x0, y0, x1, y1))
    return np.stack(regions), boxes


def test_a_view_cut_by_the_photo_s_edge_is_black_beyond_it_and_keeps_its_index() -> None:
    cards = ["10H", "QS", "7C", "AD", "3D", "KC", "6S", "9H"] * 25
    regions, boxes = _corners(cards)
    cut = photo_edge(regions, np.random.default_rng(5))
    assert cut.shape == regions.shape and cut.dtype == np.uint8
    assert not np.shares_memory(cut, regions)
    index_whole = 0
    for before, after, (x0, y0, x1, y1) in zip(regions, cut, boxes, strict=True):
        black = after.max(axis=2) == 0
        # the photo ends somewhere in each view, and its edge comes in from the view's border
        assert black.mean() > 0.01
        assert black[0].any() or black[-1].any() or black[:, 0].any() or black[:, -1].any()
        # short of the edge the card is as it was
        far = after.max(axis=2) == before.max(axis=2)
        assert (far | black).mean() > 0.95
        index_whole += bool(np.array_equal(after[y0:y1, x0:x1], before[y0:y1, x0:x1]))
    # most cuts pass below or right of the index; a few take a strip of the margin
    assert index_whole >= 0.75 * len(cards)
    assert index_whole < len(cards)
