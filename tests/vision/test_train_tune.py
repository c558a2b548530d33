"""The fine-tuning stage starts from the shipped card network itself: read back from its ONNX
file into torch, it gives the file's probabilities and descriptors (needs the ``train`` extra:
torch and onnx); the damages it teaches need neither."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort
import pytest

from vision.classify import MODEL_FILE, MODELS_DIR
from vision.model_input import preprocess, to_tensor
from vision.render import render_card
from vision.render.photo import table_crop
from vision.train.tune import card_net_from_onnx


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
