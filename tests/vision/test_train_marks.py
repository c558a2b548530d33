"""The mark reader's patches and training data: an index is seen square to the patch whatever the
card's angle, a rendered photo's patches are labelled by the index they are round, and photos
composed of real singles give patches of the cards they show."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.conftest import BoxedPhotoMaker
from vision.classify import LABELS
from vision.finder import (
    MARK_PATCH,
    WIDE_MARK_PATCH,
    IndexFinder,
    IndexMark,
    MarkReader,
    finder_for,
    mark_patch,
    square_turn,
)
from vision.train.data import TRAIN_DESIGNS
from vision.train.finder import scene
from vision.train.marks import UNKNOWN, boxed_samples, composed_samples, rendered_samples


def _index_card(angle: float) -> np.ndarray:
    """A white card with a "7" in its corner on a dark table, turned ``angle`` degrees about (200, 200)."""
    img = np.full((400, 400, 3), 60, np.uint8)
    cv2.rectangle(img, (150, 120), (330, 380), (250, 250, 250), -1)
    cv2.putText(img, "7", (160, 200), cv2.FONT_HERSHEY_SIMPLEX, 2.5, (20, 20, 20), 6)
    to = cv2.getRotationMatrix2D((200, 200), angle, 1.0)
    return cv2.warpAffine(img, to, (400, 400), borderValue=(60, 60, 60))


@pytest.mark.parametrize("angle", [0.0, 12.0, -27.0, 41.0, 95.0, 150.0, 233.0])
def test_a_patch_shows_the_index_square_whatever_the_cards_angle(angle: float) -> None:
    # the patch round the card's corner is turned so the card's edges run across and down:
    # at most a few degrees off, so a reader learns four ways round, not every angle
    img = _index_card(angle)
    to = cv2.getRotationMatrix2D((200, 200), angle, 1.0)
    x, y = to @ np.array([185.0, 170.0, 1.0])  # the index's middle, turned with the card
    patch = mark_patch(img, float(x), float(y), 130)
    assert patch.shape == (MARK_PATCH, MARK_PATCH, 3)
    assert abs(square_turn(patch)) <= 4.0
    # the same patch of the card unturned, one of four ways round
    upright = mark_patch(_index_card(0.0), 185.0, 170.0, 130)
    gaps = [np.abs(np.rot90(patch, k).astype(int) - upright).mean() for k in range(4)]
    assert min(gaps) < 25, gaps


def test_a_patch_near_the_photos_edge_repeats_its_edge() -> None:
    img = np.zeros((50, 60, 3), np.uint8)
    img[:, :30] = 200
    patch = mark_patch(img, 2.0, 2.0, 40)
    assert patch.shape == (MARK_PATCH, MARK_PATCH, 3)
    assert patch.mean() > 0


def test_rendered_patches_are_labelled_by_the_index_they_are_round() -> None:
    rng = np.random.default_rng(3)
    img, boxes, corners = scene(rng, TRAIN_DESIGNS)
    x, y = rendered_samples(img, boxes, corners, rng, per_box=2, elsewhere=4)
    assert x.shape[1:] == (MARK_PATCH, MARK_PATCH, 3) and len(x) == len(y)
    assert sorted(LABELS[v] for v in y[:2 * len(boxes)]) == sorted(c for c, _b in boxes for _ in range(2))
    assert (y[2 * len(boxes):] == UNKNOWN).all() and len(y) - 2 * len(boxes) == 4


@pytest.mark.parametrize("size", [MARK_PATCH, WIDE_MARK_PATCH])
def test_a_few_training_steps_export_a_reader_the_product_loads(tmp_path: Path, size: int) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from vision.train.marks import export, train

    rng = np.random.default_rng(1)
    img, boxes, corners = scene(rng, TRAIN_DESIGNS)
    samples = rendered_samples(img, boxes, corners, rng, size=size)
    assert samples[0].shape[1:] == (size, size, 3)
    net = train(samples, None, steps=2, seed=0, batch=8)
    path = tmp_path / "marks.onnx"
    export(net, path, size)
    marks = [IndexMark(100.0, 100.0, 0.5, 30.0, 40.0), IndexMark(5.0, 470.0, 0.2, 20.0, 20.0)]
    reader = MarkReader(path)
    assert reader.size == size  # the patch size comes from the network's own file
    probs = reader.probabilities(img, marks)
    assert probs.shape == (2, len(LABELS))
    assert np.allclose(probs.sum(axis=1), 1.0, atol=1e-4)


def _finder() -> IndexFinder:
    from vision.classify import load_default_classifier

    finder = finder_for(load_default_classifier())
    assert finder is not None
    return finder


def test_a_real_photos_patches_are_its_boxed_cards_or_no_index() -> None:
    # the finder's marks inside a box are that card (6 copies), the others no index (2), and
    # 4 patches round each box: a photo of two cards, one box each
    rng = np.random.default_rng(5)
    img, boxes, _corners = scene(rng, TRAIN_DESIGNS)
    names = [c for c, _b in boxes]
    box_array = np.array([b for _c, b in boxes], np.float32).reshape(-1, 4)
    finder = _finder()
    marks = finder.find(img)
    inside = sum(any(b[0] <= m.x <= b[2] and b[1] <= m.y <= b[3] for b in box_array) for m in marks)
    x, y = boxed_samples(img, names, box_array, finder, rng)
    assert x.shape == (len(y), MARK_PATCH, MARK_PATCH, 3)
    assert len(y) == 6 * inside + 2 * (len(marks) - inside) + 4 * len(names)
    assert (y == UNKNOWN).sum() == 2 * (len(marks) - inside)
    assert sorted(LABELS[v] for v in y[-4 * len(names):]) == sorted(n for n in names for _ in range(4))


def test_photos_composed_of_real_singles_give_patches_of_their_cards(tmp_path: Path,
                                                                       boxed_photo: BoxedPhotoMaker) -> None:
    """``--composed``: the singles' cards cut out and laid in rows and fans; every patch is one of
    those cards or no index, and most cards show in some patch."""
    cards = ("5H", "KC", "9D", "QS", "2C", "7S")
    with (tmp_path / "index.csv").open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(("file", "boxes"))
        for i, card in enumerate(cards):
            image, boxes = boxed_photo([card], i)
            cv2.imwrite(str(tmp_path / f"{card}.png"), image)
            writer.writerow((f"{card}.png", json.dumps(boxes)))
    x, y = composed_samples([tmp_path], _finder(), 4, 100, np.random.default_rng(0))
    assert x.shape == (len(y), MARK_PATCH, MARK_PATCH, 3) and len(y) > 0
    read = {LABELS[v] for v in y}
    assert read - {"unknown"} <= set(cards)
    assert len(read - {"unknown"}) >= 3
