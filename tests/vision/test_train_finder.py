"""The index finder's training data: rendered photos whose boxes sit on the indices they show."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.finder import LONG_SIDE, STRIDE, IndexFinder
from vision.train.data import TRAIN_DESIGNS
from vision.train.finder import CROP, augment, compose, targets


def test_a_composed_photo_boxes_the_indices_it_shows() -> None:
    rng = np.random.default_rng(5)
    for _ in range(4):
        img, boxes = compose(rng, TRAIN_DESIGNS)
        assert max(img.shape[:2]) == LONG_SIDE
        assert len(boxes) >= 1
        h, w = img.shape[:2]
        assert (boxes[:, 2] > boxes[:, 0]).all() and (boxes[:, 3] > boxes[:, 1]).all()
        middles = (boxes[:, :2] + boxes[:, 2:]) / 2
        assert ((middles >= 0) & (middles < (w, h))).all()
        # a printed index is ink on the card: its box is less even than the photo on average
        spread = [img[int(y0):int(y1) + 1, int(x0):int(x1) + 1].std() for x0, y0, x1, y1 in boxes]
        assert np.median(spread) > 15


def test_turned_and_scaled_crops_keep_their_boxes_on_what_they_box() -> None:
    img = np.full((240, 320, 3), 30, np.uint8)
    img[100:130, 200:220] = 250  # an "index": a bright patch
    box = np.array([[200, 100, 220, 130]], np.float32)
    rng = np.random.default_rng(0)
    kept = 0
    for _ in range(40):
        crop, boxes = augment(img, box, rng)
        assert crop.shape == (CROP, CROP, 3)
        x0, y0, x1, y1 = boxes[0]
        if x0 < 0 or y0 < 0 or x1 > CROP or y1 > CROP:
            continue  # cropped out of this square
        kept += 1
        inside = crop[int(y0) + 2:int(y1) - 2, int(x0) + 2:int(x1) - 2].astype(float).mean()
        assert inside > crop.astype(float).mean() + 20
    assert kept >= 5


def test_the_targets_peak_at_each_index_middle() -> None:
    heat, size, mask = targets((224, 224), np.array([[40, 40, 60, 80], [150, 100, 170, 124]], np.float32))
    assert heat.shape == (224 // STRIDE, 224 // STRIDE)
    assert heat[60 // STRIDE, 50 // STRIDE] == 1.0 and heat[112 // STRIDE, 160 // STRIDE] == 1.0
    assert mask.sum() == 2
    assert np.exp(size[1, 60 // STRIDE, 50 // STRIDE]) == pytest.approx(40 / STRIDE)
    assert heat[0, -1] < 0.01


def test_a_few_training_steps_export_a_network_the_product_loads(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from vision.train.finder import export, train

    rng = np.random.default_rng(1)
    photos = [compose(rng, TRAIN_DESIGNS) for _ in range(3)]
    net = train(photos, steps=3, seed=0, batch=2)
    path = tmp_path / "finder.onnx"
    export(net, path)
    marks = IndexFinder(path).find(photos[0][0], threshold=0.0)
    assert marks and all(0 <= m.x <= LONG_SIDE and 0 <= m.y <= LONG_SIDE for m in marks)
