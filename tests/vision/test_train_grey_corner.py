"""The grey corner suit network's training views (:func:`vision.train.grey_corner.views`): the
index corner of a card, grey, often with the next card over all but its index strip."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch")

from vision.model_input import preprocess  # noqa: E402
from vision.render import HELDOUT_DESIGN_SEEDS, render_card  # noqa: E402
from vision.train.grey_corner import views  # noqa: E402
from vision.train.model import CORNER_H, CORNER_W  # noqa: E402


def _crops(cards: list[str]) -> np.ndarray:
    """Preprocessed crops of ``cards`` in held-out designs, as the training set holds them."""
    return np.stack([preprocess(render_card(c, HELDOUT_DESIGN_SEEDS[i % len(HELDOUT_DESIGN_SEEDS)], px_per_mm=3.0)[..., :3])
                     for i, c in enumerate(cards)])


def test_the_views_are_grey_index_corners_some_under_the_next_card() -> None:
    crops = _crops(["10H", "QS", "7C", "AD", "3D", "KC", "6S", "9H"] * 8)
    out = views(crops, np.arange(len(crops)), np.random.default_rng(3), covered=1.0, edge_cut=0.0)
    assert out.shape == (len(crops), CORNER_H, CORNER_W, 3) and out.dtype == np.uint8
    assert np.array_equal(out[..., 0], out[..., 1]) and np.array_equal(out[..., 1], out[..., 2])  # grey
    plain = views(crops, np.arange(len(crops)), np.random.default_rng(3), covered=0.0, edge_cut=0.0)
    # the index strip on the left shows the card itself; the next card covers the right more
    left = np.abs(out[:, 8:48, 2:14].astype(int) - plain[:, 8:48, 2:14]).mean()
    right = np.abs(out[:, 8:48, -14:].astype(int) - plain[:, 8:48, -14:]).mean()
    assert right > 2 * left, (left, right)
