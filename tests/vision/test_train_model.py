"""The card network's top-right branch (from v40): where it looks, and that a network with it
survives the checkpoint and the ONNX file unchanged; the same for the suit network (from v43).
Needs torch (the ``train`` extra)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from vision.classify import LABELS, OnnxCardClassifier  # noqa: E402
from vision.model_input import INPUT_H, INPUT_W  # noqa: E402
from vision.train.export import card_net_from, export, suit_net_from  # noqa: E402
from vision.train.model import RIGHT_H, RIGHT_W, SUIT_H, CardNet, SuitNet  # noqa: E402


def _net(top_right: bool) -> CardNet:
    torch.manual_seed(0)
    net = CardNet(len(LABELS), whole_head=True, top_right=top_right)
    # batch norm as trained: running statistics that are not the identity
    for m in net.modules():
        if isinstance(m, torch.nn.BatchNorm2d | torch.nn.BatchNorm1d):
            m.running_mean.uniform_(-0.1, 0.1)
            m.running_var.uniform_(0.5, 1.5)
    return net.eval()


def _right_features(net: CardNet, x: torch.Tensor) -> torch.Tensor:
    c, g = net.branches(x)
    return net.trunk_input(x, c, g)[:, net.corner_dim + net.whole_dim:]


def test_the_top_right_branch_reads_the_top_right_corner_and_nothing_else() -> None:
    net = _net(top_right=True)
    assert net.trunk[0].in_features == net.corner_dim + net.whole_dim + 128
    x = torch.rand(1, 3, INPUT_H, INPUT_W)
    base = _right_features(net, x)
    with torch.no_grad():
        # a suit sign by the head, 6 mm from the right edge and 8 mm down: the branch sees it
        y = x.clone()
        y[:, :, 16:28, INPUT_W - 24:INPUT_W - 12] = 0.0
        assert not torch.allclose(_right_features(net, y), base)
        # the corner index, the figure's middle and the bottom half: the branch does not see them
        z = x.clone()
        z[:, :, :RIGHT_H, :INPUT_W - RIGHT_W] = 0.0
        z[:, :, RIGHT_H:, :] = 0.0
        assert torch.equal(_right_features(net, z), base)


def test_a_network_without_the_branch_is_the_one_older_checkpoints_hold() -> None:
    net = _net(top_right=False)
    assert net.right is None
    assert net.trunk[0].in_features == net.corner_dim + net.whole_dim


def test_a_network_with_the_branch_survives_its_checkpoint_and_onnx_file(tmp_path: Path) -> None:
    net = _net(top_right=True)
    onnx_path = export(net, 1.3, tmp_path, {"train": {"width": 1}}, corner_temperature=0.8)
    ck = torch.load(tmp_path / "cards.pt", map_location="cpu")
    again = card_net_from(ck).eval()
    assert again.right is not None
    x = torch.rand(3, 3, INPUT_H, INPUT_W)
    with torch.no_grad():
        logits = net(x)[0]
        assert torch.equal(again(x)[0], logits)
    # the ONNX file reads uint8 crops: the same crops, as bytes, through the torch network
    images = [np.ascontiguousarray((x[i].permute(1, 2, 0).numpy() * 255).round().astype(np.uint8)) for i in range(3)]
    with torch.no_grad():
        as_bytes = torch.from_numpy(np.stack(images)).permute(0, 3, 1, 2).float() / 255
        expected = torch.softmax(net(as_bytes)[0] / 1.3, dim=1).numpy()
    probs, _ = OnnxCardClassifier(onnx_path).run(images, embeddings=True)
    np.testing.assert_allclose(probs, expected, atol=1e-4)


def test_the_suit_network_survives_its_checkpoint_and_onnx_file(tmp_path: Path) -> None:
    """The suit network (from v43) is written beside the card network, named in ``cards.json``,
    read back from the checkpoint unchanged, and its ONNX file gives the calibrated clubs/spades
    probabilities of the crops' tops, the torch network's."""
    torch.manual_seed(1)
    suit = SuitNet()
    for m in suit.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.running_mean.uniform_(-0.1, 0.1)
            m.running_var.uniform_(0.5, 1.5)
    suit.eval()
    onnx_path = export(_net(top_right=True), 1.3, tmp_path, {"train": {"width": 1}}, corner_temperature=0.8,
                       suit_net=suit, suit_temperature=0.7)
    again = suit_net_from(torch.load(tmp_path / "cards.pt", map_location="cpu"))
    assert again is not None
    # a later run takes it from the checkpoint (--suit-from) with its temperature
    from vision.train.__main__ import _suit_from

    taken, temperature, _ = _suit_from(tmp_path / "cards.pt")
    assert temperature == pytest.approx(0.7)
    assert all(torch.equal(a, b) for a, b in zip(taken.state_dict().values(), suit.state_dict().values(), strict=True))
    x = torch.rand(3, 3, INPUT_H, INPUT_W)
    with torch.no_grad():
        assert torch.equal(again.eval()(x), suit(x))
        # it reads the top SUIT_H rows alone: the rest of the card changes nothing
        y = x.clone()
        y[:, :, SUIT_H:] = 0.0
        assert torch.equal(suit(y), suit(x))
    clf = OnnxCardClassifier(onnx_path)
    assert clf.suit_session is not None
    tops = (x[:, :, :SUIT_H].numpy() * 255).round().astype(np.float32) / 255
    with torch.no_grad():
        expected = torch.softmax(suit(torch.from_numpy(tops)) / 0.7, dim=1).numpy()
    got = clf.suit_session.run(None, {"top": tops})[0]
    np.testing.assert_allclose(got, expected, atol=1e-5)
    # a checkpoint without one (every model up to v42) holds none, and its model reads without one
    assert suit_net_from({"suit_state_dict": None}) is None
    plain = export(_net(top_right=True), 1.3, tmp_path / "plain", {"train": {"width": 1}}, corner_temperature=0.8)
    assert OnnxCardClassifier(plain).suit_session is None


def test_the_suit_stage_learns_from_black_cards_alone_either_way_round() -> None:
    """The third stage takes the black cards of the training crops (not the index-only views,
    not red cards, backs or non-cards), reads each either way round, and reports its validation
    figures read both ways, as the product reads."""
    from vision.train.suit import black, tops, train_suit

    rng = np.random.default_rng(0)
    names = ["QC", "QS", "QH", "AS", "back", "unknown", "2C", "9D"]
    y = np.array([LABELS.index(names[i % len(names)]) for i in range(48)], np.int16)
    hidden = np.zeros(48, bool)
    hidden[6] = True  # a 2C of which only the index shows
    x = rng.integers(0, 256, (48, INPUT_H, INPUT_W, 3), dtype=np.uint8)
    idx, suit = black(y.astype(np.int64), hidden)
    assert [LABELS[y[i]] for i in idx[:5]] == ["QC", "QS", "AS", "QC", "QS"] and 6 not in idx and 14 in idx
    assert list(suit[:5]) == [1, 0, 0, 1, 0]
    turned = tops(x, np.array([0, 1]), np.array([1, 0]))
    assert turned.shape == (2, SUIT_H, INPUT_W, 3)
    assert (turned[0] == x[0][::-1, ::-1][:SUIT_H]).all() and (turned[1] == x[1][:SUIT_H]).all()
    net, temperature, stats = train_suit({"x": x, "y": y, "hidden": hidden}, {"x": x, "y": y, "hidden": hidden},
                                         steps=2, seed=0, batch=8)
    assert isinstance(net, SuitNet) and temperature > 0
    assert set(stats) == {"suit_accuracy", "suit_confident_mistakes"}
