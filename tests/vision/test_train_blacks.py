"""The black-card suit network's data and training (``python -m vision.train.blacks``): an ace is
read at its large pip and every other card at its top, the same rows in training as at the table;
the rendered faces are labelled with their own suit; a short run writes a network the product reads."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from vision.classify import LABELS, MODEL_FILE, MODELS_DIR, OnnxCardClassifier, load_default_classifier
from vision.model_input import INPUT_H, INPUT_W, suit_rows
from vision.train.blacks import make_chunk, softened
from vision.train.data import TRAIN_DESIGNS


def test_an_ace_is_read_at_its_large_pip_and_any_other_card_at_its_top() -> None:
    # each row of each crop holds its own row number, so the rows cut show where they came from
    crops = np.broadcast_to(np.arange(INPUT_H, dtype=np.uint8)[None, :, None, None], (3, INPUT_H, INPUT_W, 3)).copy()
    rows = suit_rows(crops, np.array([False, True, False]), 72)
    assert rows.shape == (3, 72, INPUT_W, 3)
    assert rows[0, :, 0, 0].tolist() == list(range(72)) == rows[2, :, 0, 0].tolist()
    middle = (INPUT_H - 72) // 2
    assert rows[1, :, 0, 0].tolist() == list(range(middle, middle + 72))  # the card's centre row is theirs
    assert middle < INPUT_H // 2 < middle + 72
    # the crops are left as they were, one alone too (its top rows are a contiguous view of it)
    one = crops[1:2].copy()
    assert suit_rows(one, np.array([True]), 72)[0, :, 0, 0].tolist() == list(range(middle, middle + 72))
    assert (one == crops[1:2]).all()


def test_rendered_black_faces_are_labelled_with_the_suit_they_show() -> None:
    """The shipped card network reads the rendered faces of training designs (which it learnt):
    the suits it reads surely are the suits the data says, spades 0 and clubs 1."""
    chunk = make_chunk(5, 24, TRAIN_DESIGNS)
    assert chunk["x"].shape == (24, INPUT_H, INPUT_W, 3)
    assert set(chunk["y"].tolist()) == {0, 1} and chunk["ace"].any() and (~chunk["ace"]).any()
    read = load_default_classifier().classify(list(chunk["x"]))
    sure = [(p.label, int(y), bool(a)) for p, y, a in zip(read, chunk["y"], chunk["ace"], strict=True)
            if p.confidence >= 0.9 and p.label in LABELS and p.label[-1] in "SC"]
    assert len(sure) >= 16, read
    assert all(label[-1] == "SC"[y] for label, y, _ace in sure), sure
    assert all((label[:-1] == "A") == ace for label, _y, ace in sure), sure


def _sharpness(batch: np.ndarray) -> np.ndarray:
    """Each crop's mean step between neighbouring pixels along its rows."""
    steps: np.ndarray = np.abs(np.diff(batch.astype(np.int16), axis=2)).mean(axis=(1, 2, 3))
    return steps


def test_softening_blurs_only_the_share_it_is_given() -> None:
    rng = np.random.default_rng(0)
    crops = make_chunk(7, 8, TRAIN_DESIGNS)["x"]
    assert (softened(crops, rng, share=0.0) == crops).all()
    assert (_sharpness(softened(crops, rng, share=1.0)) < _sharpness(crops)).all()  # every crop lost detail


def test_a_few_training_steps_write_a_suit_network_the_product_reads(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from vision.train.blacks import export, train
    from vision.train.export import SUIT_FILE

    tr, va = make_chunk(1, 16, TRAIN_DESIGNS), make_chunk(2, 16, TRAIN_DESIGNS)
    assert va["ace"].any() and (~va["ace"]).any()  # the calibration sees both kinds of rows
    net, temperature, stats = train(tr, va, steps=2, seed=0, batch=8)
    assert temperature > 0 and 0 <= stats["suit_ace_middle_accuracy"] <= 1
    models = tmp_path / "models"
    shutil.copytree(MODELS_DIR, models, ignore=shutil.ignore_patterns(SUIT_FILE, "*.md"))
    assert export(net, temperature, models) == models / SUIT_FILE
    clf = OnnxCardClassifier(models / MODEL_FILE)
    assert clf.suit_session is not None
    odds = clf.clubs_odds(list(va["x"][:4]), aces=[True, False, True, False])  # an ace's pip, a card's top
    assert odds is not None and odds.shape == (4,)
    assert ((odds >= 0) & (odds <= 1)).all()


def test_an_ornate_ace_keeps_its_corners_and_lights_its_pip() -> None:
    """Real aces of spades fill their pip with light filigree; the data draws such aces from the
    renderer's plain ones: inside the pip some ink turns to paper, the corner indices stay."""
    from vision.render import render_card
    from vision.train.blacks import filigreed

    rng = np.random.default_rng(4)
    for design in list(TRAIN_DESIGNS)[:10]:
        face = render_card("AS", int(design), px_per_mm=3.0, rng=rng, alpha=True)
        ornate = filigreed(face, rng)
        h = face.shape[0]
        assert (ornate[:int(0.2 * h)] == face[:int(0.2 * h)]).all() and (ornate[int(0.8 * h):] == face[int(0.8 * h):]).all()
        grey = face[int(0.2 * h):int(0.8 * h), ..., :3].mean(axis=-1)
        lit = ornate[int(0.2 * h):int(0.8 * h), ..., :3].mean(axis=-1) - grey
        assert (lit[grey < 110] > 60).sum() > 0.02 * (grey < 110).sum()  # a part of the pip's ink is now paper
