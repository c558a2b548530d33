"""The networks the card model is made of, in torch: the card network (:class:`CardNet`), the
index network (:class:`IndexNet`), the suit network (:class:`SuitNet`) and the index finder
(:class:`FinderNet`), and the wrappers that go into their ONNX files.

Input: ``float32 [N, 3, 176, 128]``, BGR in 0..1 (see :func:`vision.model_input.preprocess`).

The exported ``embedding`` (what enrolment matches) is not the embedding head but the corner and
whole-card branches' pooled features, each unit length, joined (:meth:`CardNet.descriptor`):
trained to tell French cards apart, the head describes other decks worse than the branches do.
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

CORNER_H, CORNER_W = 72, 56  # top-left 36 x 28 mm at 2 px/mm: where an index is, tight crop or loose
#: the top-right 36 x 36 mm at 2 px/mm (columns 56 to 128 of the 128-wide input): where a court
#: prints its suit by the figure's head when the figure leans left, out of the corner branch's sight
RIGHT_H, RIGHT_W = 72, 72
RIGHT_C = 64  # the top-right branch's channels


def nhwc_tensor(batch: np.ndarray) -> torch.Tensor:
    """uint8 NHWC images as a float NCHW tensor in 0..1 that keeps their channels-last memory: a
    network in channels-last memory takes it without a copy, and its convolutions train about a
    third faster on the CPU than in NCHW order."""
    return torch.from_numpy(np.asarray(batch, np.float32) * np.float32(1 / 255)).permute(0, 3, 1, 2)


def take_step(opt: torch.optim.Optimizer, sched: torch.optim.lr_scheduler.LRScheduler, loss: torch.Tensor,
              step: int, steps: int) -> None:
    """One optimiser step down ``loss``, and the one-cycle schedule's step (none after the last
    of ``steps``: the schedule ends there)."""
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step < steps - 1:
        sched.step()


def conv(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


def dwblock(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cin, 3, stride, 1, groups=cin, bias=False), nn.BatchNorm2d(cin), nn.ReLU(inplace=True),
        nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
    )


def mean_max(t: torch.Tensor) -> torch.Tensor:
    """A feature map pooled two ways, mean and max over its height and width, joined."""
    return torch.cat([t.mean(dim=(2, 3)), t.amax(dim=(2, 3))], dim=1)


class CardNet(nn.Module):
    """The card network: a corner branch (the top-left index at full resolution), a whole-card
    branch (the crop averaged down twice) and optionally a top-right branch, a shared trunk, a
    class head and an embedding head trained with a contrastive loss; a corner head reads the
    corner branch alone, and in training a whole-card head reads the whole-card branch alone."""

    #: the whole-card branch reads the crop averaged down this many times (88 x 64: pips at
    #: 1 px/mm, where a club's lobes and a spade's point still show)
    whole_pool = 2
    #: channels of the whole-card branch's last blocks
    whole_channels = 128

    def __init__(self, n_classes: int, emb_dim: int = 128, width: int = 1, corner_head: bool = True,
                 whole_head: bool = False, top_right: bool = False) -> None:
        super().__init__()
        w = width
        self.corner = nn.Sequential(
            conv(3, 16 * w, 2),          # 36 x 28
            conv(16 * w, 32 * w),        # 36 x 28
            dwblock(32 * w, 48 * w, 2),  # 18 x 14
            dwblock(48 * w, 64 * w),
            dwblock(64 * w, 96 * w, 2),  # 9 x 7
            dwblock(96 * w, 128 * w),
        )
        wc = self.whole_channels * w
        #: lengths of the pooled features of the corner branch (mean and max) and of the
        #: whole-card branch (its 3 x 2 map): what the trunk, the heads and the descriptor read
        self.corner_dim, self.whole_dim = 128 * w * 2, wc * 6
        self.whole = nn.Sequential(
            conv(3, 16 * w, 2),          # 44 x 32
            conv(16 * w, 32 * w, 2),     # 22 x 16
            dwblock(32 * w, 64 * w, 2),  # 11 x 8
            dwblock(64 * w, wc),
            dwblock(wc, wc, 2),          # 6 x 4
            dwblock(wc, wc),
        )
        #: the top-right corner at full resolution, or None: a court's suit sign by the figure's
        #: head is plain at 2 px/mm and a few pixels at the whole-card branch's 1 px/mm, where a
        #: club and a spade look alike (it costs about a quarter more time a card)
        self.right: nn.Module | None = nn.Sequential(
            conv(3, 8, 2),          # 36 x 36
            dwblock(8, 24, 2),      # 18 x 18
            dwblock(24, 48),
            dwblock(48, 64, 2),     # 9 x 9
            dwblock(64, RIGHT_C),
        ) if top_right else None
        self.right_dim = 2 * RIGHT_C if top_right else 0  # mean and max of each channel
        self.trunk = nn.Sequential(nn.Linear(self.corner_dim + self.whole_dim + self.right_dim, 256), nn.BatchNorm1d(256), nn.ReLU(inplace=True), nn.Dropout(0.2))
        self.cls = nn.Linear(256, n_classes)
        self.emb = nn.Linear(256, emb_dim)
        #: reads the corner index alone (exported as ``corner``; the index network does it better)
        self.corner_cls: nn.Module | None = (
            nn.Sequential(nn.Linear(self.corner_dim, 128), nn.ReLU(inplace=True), nn.Linear(128, n_classes))
            if corner_head else None)
        #: reads the whole-card branch alone, in training only: without it the network learns a
        #: card's suit from its index and never from the pips and courts of a design whose index
        #: is blurred or shows the rank alone
        self.whole_cls: nn.Module | None = (
            nn.Sequential(nn.Linear(self.whole_dim, 128), nn.ReLU(inplace=True), nn.Linear(128, n_classes))
            if whole_head else None)

    def branches(self, x: torch.Tensor, half: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """Pooled features of the corner branch (mean and max) and of the whole-card branch (3x2).
        ``half``: ``x`` averaged down 2 times if the caller has it (:func:`vision.train.data.half_size`)."""
        c = self.corner(x[:, :, :CORNER_H, :CORNER_W])
        c = mean_max(c)
        g = self.whole(F.avg_pool2d(x, self.whole_pool) if half is None else half)
        g = F.adaptive_avg_pool2d(g, (3, 2)).flatten(1)
        return c, g

    def trunk_input(self, x: torch.Tensor, c: torch.Tensor, g: torch.Tensor) -> torch.Tensor:
        """What the trunk reads: both branches' features and, with a top-right branch, its pooled
        features (mean and max) of ``x``'s top-right corner."""
        if self.right is None:
            return torch.cat([c, g], dim=1)
        return torch.cat([c, g, mean_max(self.right(x[:, :, :RIGHT_H, x.shape[3] - RIGHT_W:]))], dim=1)

    def descriptor(self, x: torch.Tensor) -> torch.Tensor:
        """The enrolment descriptor: both branches' features, each unit length, joined (unit length)."""
        c, g = self.branches(x)
        return torch.cat([F.normalize(c, dim=1), F.normalize(g, dim=1)], dim=1) * (0.5 ** 0.5)

    def forward(self, x: torch.Tensor, half: torch.Tensor | None = None
                ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor | None, torch.Tensor | None]:
        """Class logits, the embedding head, the corner head's logits and the whole-card head's
        logits (each None without that head). ``half``: as for :meth:`branches`."""
        c, g = self.branches(x, half)
        t = self.trunk(self.trunk_input(x, c, g))
        corner = self.corner_cls(c) if self.corner_cls is not None else None
        whole = self.whole_cls(g) if self.whole_cls is not None else None
        return self.cls(t), F.normalize(self.emb(t), dim=1), corner, whole


class IndexNet(nn.Module):
    """A small network of its own that reads a card from the top-left corner of its crop alone
    (the same 36 x 28 mm as the corner branch), trained after :class:`CardNet` on cards of which
    only the index strip shows (see :mod:`vision.train.index`). It shares nothing with
    :class:`CardNet`, so teaching it covered cards cannot cost the whole-card reading anything."""

    def __init__(self, n_classes: int) -> None:
        super().__init__()
        self.features = nn.Sequential(
            conv(3, 16, 2),         # 36 x 28
            dwblock(16, 32),
            dwblock(32, 64, 2),     # 18 x 14
            dwblock(64, 64),
            dwblock(64, 128, 2),    # 9 x 7
            dwblock(128, 128),
        )
        self.head = nn.Sequential(nn.Linear(256, 128), nn.ReLU(inplace=True), nn.Dropout(0.1), nn.Linear(128, n_classes))

    def forward(self, corner: torch.Tensor) -> torch.Tensor:
        """Logits of corner crops ``[N, 3, CORNER_H, CORNER_W]`` (or of whole crops: their corner is taken)."""
        f = self.features(corner[:, :, :CORNER_H, :CORNER_W])
        return self.head(mean_max(f))


class Calibrated(nn.Module):
    """What goes into the ONNX file of a network of its own: calibrated probabilities, softmax of
    its logits over a temperature. The index network's (``cards_index.onnx``: labels read from
    corner regions ``[N, 3, CORNER_H, CORNER_W]``, run only where a card may lie under others,
    :func:`vision.recognize.recognize`, so the table pipeline's reading does not pay for it) and
    the suit network's (``cards_suit.onnx``: spades and clubs, of crop tops ``[N, 3, SUIT_H, 128]``)."""

    def __init__(self, net: nn.Module, temperature: float) -> None:
        super().__init__()
        self.net = net
        self.register_buffer("inv_t", torch.tensor(1.0 / temperature))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(self.net(x) * self.inv_t, dim=1)


class Exported(nn.Module):
    """What goes into the ONNX file: calibrated probabilities, the enrolment descriptor and, for a
    network with a corner head, the corner head's calibrated probabilities."""

    def __init__(self, net: CardNet, temperature: float, corner_temperature: float | None = None) -> None:
        super().__init__()
        self.net = net
        self.register_buffer("inv_t", torch.tensor(1.0 / temperature))
        self.register_buffer("inv_tc", torch.tensor(1.0 / (corner_temperature or 1.0)))

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        c, g = self.net.branches(x)
        logits = self.net.cls(self.net.trunk(self.net.trunk_input(x, c, g)))
        desc = torch.cat([F.normalize(c, dim=1), F.normalize(g, dim=1)], dim=1) * (0.5 ** 0.5)
        probs = torch.softmax(logits * self.inv_t, dim=1)
        if self.net.corner_cls is None:
            return probs, desc
        return probs, desc, torch.softmax(self.net.corner_cls(c) * self.inv_tc, dim=1)


#: the suit network reads the top 36 mm of a crop (72 of its 176 rows, the whole width): a corner
#: index, a court's suit sign by the head, and the upper pips
SUIT_H = 72


class SuitNet(nn.Module):
    """Tells a black card's suit, clubs or spades, from the top of its crop at full resolution:
    the distinction the card network finds hardest, given a network of its own trained on black
    cards alone. Its two logits: spades, clubs. With ``answers=4`` the same network tells any suit
    by shape alone (spades, hearts, diamonds, clubs: :mod:`vision.train.grey`)."""

    def __init__(self, answers: int = 2) -> None:
        super().__init__()
        self.features = nn.Sequential(
            conv(3, 12, 2),         # 36 x 64
            conv(12, 24, 2),        # 18 x 32: a full convolution, for the shapes of small signs
            dwblock(24, 48),
            dwblock(48, 96, 2),     # 9 x 16
            dwblock(96, 128),
            dwblock(128, 128, 2),   # 5 x 8
        )
        self.head = nn.Sequential(nn.Linear(256, 64), nn.ReLU(inplace=True), nn.Dropout(0.1), nn.Linear(64, answers))

    def forward(self, top: torch.Tensor) -> torch.Tensor:
        """Logits (spades, clubs) of crop tops ``[N, 3, SUIT_H, 128]`` (or of whole crops: their top is taken)."""
        return self.head(mean_max(self.features(top[:, :, :SUIT_H])))



def _cbr(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, dilation, dilation=dilation, bias=False),
                         nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class FinderNet(nn.Module):
    """Marks printed corner indices in a whole photo (:mod:`vision.train.finder`): three maps at a
    quarter of the photo's size, the logit of an index's middle in each cell, and the log of its
    box's width and height in cells. A branch at an eighth of the size with dilated convolutions
    sees round a whole index (and the card's corner by it) and is joined back at a quarter."""

    def __init__(self) -> None:
        super().__init__()
        self.near = nn.Sequential(_cbr(3, 16, 2), _cbr(16, 32, 2), _cbr(32, 32))
        self.far = nn.Sequential(_cbr(32, 64, 2), _cbr(64, 64, dilation=2), _cbr(64, 64, dilation=4))
        self.fuse = _cbr(96, 32)
        self.head = nn.Conv2d(32, 3, 1)
        with torch.no_grad():
            self.head.bias[0] = -2.2  # few cells hold a middle: start the heat low

    def forward(self, photo: torch.Tensor) -> torch.Tensor:
        """``[N, 3, H, W]`` BGR in 0..1 (H and W multiples of 8) to ``[N, 3, H / 4, W / 4]``."""
        near = self.near(photo)
        far = F.interpolate(self.far(near), size=near.shape[2:], mode="nearest")
        out: torch.Tensor = self.head(self.fuse(torch.cat([near, far], 1)))
        return out


class MarkNet(nn.Module):
    """Reads the card whose corner index lies at a finder's mark (:mod:`vision.train.marks`):
    a patch of 48 x 48 pixels round the mark, any way round, to a logit for each label of the
    card network (``unknown``: no index there). Three stages of two convolutions, each halving
    the patch, then one wider convolution pooled over the 6 x 6 left."""

    def __init__(self, channels: tuple[int, int, int] = (24, 48, 96), labels: int = 56) -> None:
        super().__init__()
        a, b, c = channels
        self.body = nn.Sequential(_cbr(3, a), _cbr(a, a), nn.MaxPool2d(2), _cbr(a, b), _cbr(b, b), nn.MaxPool2d(2),
                                  _cbr(b, c), _cbr(c, c), nn.MaxPool2d(2), _cbr(c, 2 * c))
        self.head = nn.Linear(2 * c, labels)

    def forward(self, patches: torch.Tensor) -> torch.Tensor:
        """``[N, 3, 48, 48]`` BGR in 0..1 to ``[N, labels]`` logits."""
        out: torch.Tensor = self.head(self.body(patches).mean(dim=(2, 3)))
        return out
