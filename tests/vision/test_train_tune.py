"""The fine-tuning stage starts from the shipped card network itself: read back from its ONNX
file into torch, it gives the file's probabilities and descriptors (needs the ``train`` extra:
torch and onnx); the damages it teaches and the crops it cuts from real photos need neither."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort
import pytest

from vision.classify import LABELS, MODEL_FILE, MODELS_DIR, load_default_classifier
from vision.model_input import preprocess, to_tensor
from vision.render import HELDOUT_DESIGN_SEEDS, render_card
from vision.render.photo import loose_crop, table_crop
from vision.train.tune import card_net_from_onnx, real_crops


def _crops() -> np.ndarray:
    rng = np.random.default_rng(3)
    return np.stack([preprocess(table_crop(render_card(card, 7, px_per_mm=3.0, rng=rng, alpha=True), rng))
                     for card in ("AS", "10H", "QC", "7D")])


def test_the_shipped_network_read_back_into_torch_reads_as_the_file_does() -> None:
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    net, temperature, _ = card_net_from_onnx(MODELS_DIR / MODEL_FILE)
    net.eval()
    crops = _crops()
    x = to_tensor(crops)
    with torch.no_grad():
        logits = net(torch.from_numpy(x))[0]
        probs = torch.softmax(logits / temperature, 1).numpy()
        descriptors = net.descriptor(torch.from_numpy(x)).numpy()
    session = ort.InferenceSession(str(MODELS_DIR / MODEL_FILE))
    want_probs, want_descriptors = session.run(["probs", "embedding"], {"image": x})
    assert np.abs(probs - want_probs).max() < 1e-4
    assert np.abs(descriptors - want_descriptors).max() < 1e-4
    assert [int(i) for i in probs.argmax(1)] == [int(i) for i in want_probs.argmax(1)]


def test_keeping_to_the_source_costs_nothing_as_it_reads_and_more_the_sharper_it_grows() -> None:
    torch = pytest.importorskip("torch")
    from vision.train.tune import _kept

    was = torch.tensor([[2.0, 1.0, 0.0], [0.0, 3.0, 1.0]])
    assert float(_kept(was, was)) == pytest.approx(0.0, abs=1e-6)
    # the same answers said more surely drift from the source, and further the surer they are
    assert 0.0 < float(_kept(2 * was, was)) < float(_kept(4 * was, was))


def test_a_real_photo_teaches_its_card_only_where_the_locator_reads_that_card(tmp_path: Path) -> None:
    # a photo of a 5S on a table, once named for what it shows and once for another card
    rng = np.random.default_rng(4)
    face = render_card("5S", HELDOUT_DESIGN_SEEDS[4], px_per_mm=3.0, rng=rng, alpha=True)
    photo, _corners = loose_crop(face, rng, max_turn=20.0, strength=0.3)
    cv2.imwrite(str(tmp_path / "5S.jpg"), photo)
    cv2.imwrite(str(tmp_path / "9H_2.jpg"), photo)
    x, y, left_out = real_crops([tmp_path], load_default_classifier(), np.random.default_rng(0), per_photo=5)
    assert left_out == 1  # the photo named 9H reads as the 5S it shows: not taught as a 9H
    assert x.shape == (5, 176, 128, 3) and x.dtype == np.uint8
    assert set(y.tolist()) == {LABELS.index("5S")}
    # each cut is the card, a little off: the card network reads the 5S from every one
    assert [p.label for p in load_default_classifier().classify(list(x))] == ["5S"] * 5
    assert len({c.tobytes() for c in x}) == 5  # moved corners: five different cuts


def test_real_photos_it_cannot_use_are_named_before_any_rendering(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from vision.train.tune import main

    (tmp_path / "empty").mkdir()
    cv2.imwrite(str(tmp_path / "photo.jpg"), np.full((40, 30, 3), 200, np.uint8))
    for real, said in ((tmp_path / "missing", "no photo or folder at"),
                       (tmp_path / "empty", "reads as the card it is named after"),
                       (tmp_path / "photo.jpg", "cannot tell which card")):
        with pytest.raises(SystemExit) as stop:
            main(["--out", str(tmp_path / "out"), "--cache", str(tmp_path / "cache"), "--real", str(real)])
        assert stop.value.code == 2
        err = capsys.readouterr().err
        assert "--real:" in err and said in err and "Traceback" not in err
    assert not (tmp_path / "cache").exists() and not (tmp_path / "out").exists()
