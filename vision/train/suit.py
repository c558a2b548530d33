"""Third stage of training: the :class:`~vision.train.model.SuitNet`, which tells a
black card's suit, clubs or spades, from the top of its crop.

It learns from the black cards among the same training crops as the card network (views in which
only the index shows are left out: the card network never reads those), each read either way
round (a card lies on the table either way; the product reads both and averages them), half of
them framed anew (:func:`vision.train.data.reframe`) and every batch moved by a few pixels, as
outlines found on the table are.
"""

from __future__ import annotations

import time

import numpy as np
import torch
from torch.nn import functional as F

from vision.classify import CLUBS, SPADES
from vision.model_input import half_turned, shifted
from vision.train.calib import fit_temperature
from vision.train.data import brighten, reframe
from vision.train.model import SUIT_H, SuitNet, nhwc_tensor, take_step


def black(y: np.ndarray, hidden: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Indices of the black cards among labels ``y`` (not index-only views), and their suit (1: clubs,
    the suit network's second answer; 0: spades)."""
    keep = np.isin(y, SPADES) | np.isin(y, CLUBS)
    if hidden is not None:
        keep &= ~hidden
    idx = np.flatnonzero(keep)
    return idx, np.isin(y[idx], CLUBS).astype(np.int64)


def tops(x: np.ndarray, idx: np.ndarray, way: np.ndarray, shift: tuple[int, int] = (0, 0)) -> np.ndarray:
    """The tops (``SUIT_H`` rows, uint8 NHWC) of crops ``x[idx]``, each the way round ``way``
    gives (1: turned 180 degrees), moved ``shift`` (rows, columns; the edge carried into the gap,
    :func:`vision.model_input.shifted`)."""
    crops = x[idx]
    turned = way == 1
    crops[turned] = half_turned(crops[turned])
    dy, dx = shift
    if dy or dx:
        crops = shifted(crops, [(dx, dy)])[0]
    return np.ascontiguousarray(crops[:, :SUIT_H])


def _evaluate(net: SuitNet, x: np.ndarray, idx: np.ndarray, way: int, batch: int = 512) -> np.ndarray:
    net.eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(idx), batch):
            part = idx[i:i + batch]
            out.append(net(nhwc_tensor(tops(x, part, np.full(len(part), way)))))
    return torch.cat(out).numpy() if out else np.zeros((0, 2), np.float32)


def train_suit(tr: dict[str, np.ndarray], va: dict[str, np.ndarray], *, steps: int, seed: int,
               batch: int = 256, lr: float = 3e-3, log_every: int = 100) -> tuple[SuitNet, float, dict[str, float]]:
    """Train a :class:`SuitNet` for ``steps`` steps on the black cards of ``tr``; fit its
    temperature on those of ``va``. Returns the network, the temperature and its validation
    figures (read both ways round and averaged, as the product reads)."""
    torch.manual_seed(seed)
    gen = np.random.default_rng([seed, 17])
    pool, suit = black(tr["y"].astype(np.int64), tr.get("hidden"))
    if not len(pool):
        raise ValueError("no black cards to train the suit network on")
    net = SuitNet().to(memory_format=torch.channels_last)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.15)
    t0 = time.time()
    for step in range(steps):
        net.train()
        pick = gen.integers(0, len(pool), batch)
        way = gen.integers(0, 2, batch)
        shift = (int(gen.integers(-4, 5)), int(gen.integers(-4, 5)))
        xb = tops(reframe(tr["x"][pool[pick]], gen, 0.5), np.arange(batch), way, shift)
        xb = brighten(xb, gen)
        loss = F.cross_entropy(net(nhwc_tensor(xb)), torch.from_numpy(suit[pick]), label_smoothing=0.05)
        take_step(opt, sched, loss, step, steps)
        if (step + 1) % log_every == 0:
            print(f"  suit step {step + 1}/{steps} loss {loss.item():.3f} ({(time.time() - t0) / 60:.1f} min)", flush=True)

    net = net.to(memory_format=torch.contiguous_format)
    vidx, vsuit = black(va["y"].astype(np.int64), va.get("hidden"))
    up, down = _evaluate(net, va["x"], vidx, 0), _evaluate(net, va["x"], vidx, 1)
    temperature = fit_temperature(np.concatenate([up, down]), np.concatenate([vsuit, vsuit]))
    p = 0.5 * (torch.softmax(torch.from_numpy(up) / temperature, 1) + torch.softmax(torch.from_numpy(down) / temperature, 1)).numpy()
    right = p.argmax(1) == vsuit
    stats = {"suit_accuracy": round(float(right.mean()), 5),
             "suit_confident_mistakes": round(float((~right & (p.max(1) >= 0.9)).mean()), 5)}
    print(f"suit net: temperature {temperature:.3f}; " + ", ".join(f"{k} {v:.4f}" for k, v in stats.items())
          + f" ({len(vidx)} black validation crops)", flush=True)
    return net, temperature, stats
