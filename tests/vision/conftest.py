"""Fixtures the vision tests share."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from vision.api import CARD_MM
from vision.classify import MODELS_DIR
from vision.render import HELDOUT_DESIGN_SEEDS, index_box, render_card
from vision.render.photo import compose_scene

#: the development photos of real cards (never in the repository): ``$PEGPI_REAL_PHOTOS``, or
#: ``../shared/data/real_photos`` beside the repository; ``single`` and ``scenes`` under it
REAL_PHOTOS = Path(os.environ.get("PEGPI_REAL_PHOTOS", Path(__file__).resolve().parents[2].parent / "shared" / "data"
                                  / "real_photos"))

#: makes a photo of the cards named scattered apart (rendered held-out designs), and the boxes
#: round their top-left indices as a labels CSV lists them: ``[card, x0, y0, x1, y1]``
BoxedPhotoMaker = Callable[[list[str], int], tuple[np.ndarray, list[list[object]]]]


@pytest.fixture
def model_copy(tmp_path: Path) -> Path:
    """The shipped model's files copied into a temporary folder, to break or change there: the
    copy's ``cards.onnx``."""
    for f in MODELS_DIR.iterdir():
        if f.suffix in (".onnx", ".json", ".txt"):
            shutil.copy(f, tmp_path / f.name)
    return tmp_path / "cards.onnx"


def _boxed_photo(cards: list[str], seed: int) -> tuple[np.ndarray, list[list[object]]]:
    """A photo of ``cards`` scattered apart, and the boxes of their top-left indices."""
    rng = np.random.default_rng([seed, 38])
    design = HELDOUT_DESIGN_SEEDS[seed % 8]
    faces = [render_card(c, design, px_per_mm=3.0, alpha=True) for c in cards]
    img, corners = compose_scene(faces, rng, size=(960, 720), card_px=(200.0, 240.0), layout="scatter", strength=0.3)
    boxes: list[list[object]] = []
    for card, q in zip(cards, corners, strict=True):
        x0, y0, x1, y1 = index_box(card, design)
        u, v = (q[1] - q[0]) / CARD_MM[0], (q[3] - q[0]) / CARD_MM[1]
        pts = np.array([q[0] + u * a + v * b for a in (x0, x1) for b in (y0, y1)])
        boxes.append([card, *(round(float(t)) for t in (*pts.min(axis=0), *pts.max(axis=0)))])
    return img, boxes


@pytest.fixture
def boxed_photo() -> BoxedPhotoMaker:
    """:data:`BoxedPhotoMaker`."""
    return _boxed_photo
