"""The grey suit network: the suit of a card told by the shapes of its signs alone, for photos
that show no colour (grayscale photos, a NoIR camera, dim warm light).

In such a photo a heart is a grey heart, and the card network, which learned red from colour,
reads it as a spade. :class:`~vision.train.model.SuitNet` with four answers (spades, hearts,
diamonds, clubs) learns from the tops of rendered suited cards turned grey by a random mix of
their channels (so the ink's lightness, which depends on the camera and the light, tells nothing),
with salt-and-pepper noise, blur and glare such photos have. The product reads it only for
photos :func:`vision.doubt.colour_strength` calls colourless (:mod:`vision.grey`).

``python -m vision.train.grey --out build/grey --instances 20000`` renders its data, trains,
calibrates on validation designs and writes ``cards_grey.onnx`` with its figures.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.classify import SUITS as GREY_SUITS
from vision.model_input import INPUT_H, INPUT_W, preprocess
from vision.render import render_card
from vision.render.cards import COURTS, RANKS, SUITS
from vision.render.photo import table_crop
from vision.train.data import reframe
from vision.train.heads import arguments, net_logits, run, teach, write_network

if TYPE_CHECKING:
    from vision.train.model import SuitNet

#: the file the product loads, beside the card model
GREY_FILE = "cards_grey.onnx"
#: share of the faces that are courts: a court shows its suit only in its index and by its head
COURT_SHARE = 0.35


def make_chunk(seed: int, n: int, designs: range) -> dict[str, np.ndarray]:
    """``n`` preprocessed colour crops (uint8 NHWC) of suited faces as the table or a photo's
    outline cuts them, and their suits (index into :data:`GREY_SUITS`)."""
    rng = np.random.default_rng([seed, 4242])
    xs = np.empty((n, INPUT_H, INPUT_W, 3), np.uint8)
    ys = np.empty(n, np.int8)
    pips = [r + s for s in SUITS for r in RANKS if r not in "JQK"]
    design = 0
    for i in range(n):
        if i % 8 == 0:
            design = int(designs[int(rng.integers(len(designs)))])
        pool = COURTS if rng.random() < COURT_SHARE else pips
        label = pool[int(rng.integers(len(pool)))]
        phone = rng.random() < 0.3
        k = float(rng.uniform(2.7, 5.0) if phone else rng.uniform(1.4, 2.7))
        face = render_card(label, design, px_per_mm=4.5 if phone else 3.0, rng=rng, alpha=True)
        xs[i] = preprocess(table_crop(face, rng, px_per_mm=k, strength=float(rng.uniform(0.3, 1.3))))
        ys[i] = GREY_SUITS.index(label[-1])
    return {"x": xs, "y": ys}


#: grey as cameras make it from B, G, R (ITU-R BT.601)
BT601 = np.array([0.114, 0.587, 0.299], np.float32)


def greyed(batch: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``batch`` (uint8 NHWC colour) as photos without colour would show it, three equal channels:
    each crop's grey a mix of its channels (half the time a camera's usual mix, else a random
    one, red weighing at most 0.6 so that red ink still shows), a gamma, and for some crops
    salt-and-pepper noise (as phone exports add) smoothed a little by the outline's warp, or blur."""
    out = np.empty_like(batch)
    for i in range(len(batch)):
        if rng.random() < 0.5:
            w = BT601.copy()
        else:
            w = rng.dirichlet([2.0, 2.0, 2.0]).astype(np.float32)
            w[2] = min(w[2], 0.6)
            w /= w.sum()
        g = cv2.transform(batch[i], w.reshape(1, 3))
        gamma = rng.uniform(0.6, 1.6)
        g = cv2.LUT(g, (255.0 * (np.arange(256) / 255.0) ** gamma).astype(np.uint8))
        r = rng.random()
        if r < 0.3:
            noisy = rng.random(g.shape, np.float32)
            density = rng.uniform(0.005, 0.06)
            g[noisy < density / 2] = 0
            g[noisy > 1 - density / 2] = 255
            if rng.random() < 0.6:
                g = cv2.GaussianBlur(g, (0, 0), rng.uniform(0.4, 0.9))
        elif r < 0.5:
            g = cv2.GaussianBlur(g, (0, 0), rng.uniform(0.5, 1.5))
        out[i] = g.reshape(g.shape[0], g.shape[1], 1)
    return out


def train(tr: dict[str, np.ndarray], va: dict[str, np.ndarray], *, steps: int, seed: int,
          batch: int = 256, lr: float = 3e-3) -> tuple[SuitNet, float, dict[str, float]]:
    """Train the four-suit network on ``tr``; calibrate and measure it on ``va`` (greyed by the
    camera's usual mix and by random ones, both ways round averaged, as the product reads)."""
    import torch

    from vision.train.calib import fit_temperature
    from vision.train.data import brighten
    from vision.train.model import SuitNet
    from vision.train.suit import tops

    torch.manual_seed(seed)
    gen = np.random.default_rng([seed, 23])

    def views(pick: np.ndarray) -> np.ndarray:
        xb = tops(reframe(tr["x"][pick], gen, 0.5), np.arange(len(pick)), gen.integers(0, 2, len(pick)),
                  (int(gen.integers(-4, 5)), int(gen.integers(-4, 5))))
        greys: np.ndarray = greyed(brighten(xb, gen), gen)
        return greys

    net = teach(SuitNet(answers=len(GREY_SUITS)), tr["y"], views, gen, steps=steps, batch=batch, lr=lr, name="grey")
    vgen = np.random.default_rng([seed, 99])
    vx = greyed(va["x"], vgen)
    vy = va["y"].astype(np.int64)

    def logits(way: int) -> np.ndarray:
        return net_logits(net, tops(vx, np.arange(len(vx)), np.full(len(vx), way)))

    up, down = logits(0), logits(1)
    temperature = fit_temperature(np.concatenate([up, down]), np.concatenate([vy, vy]))
    p = 0.5 * (torch.softmax(torch.from_numpy(up) / temperature, 1) + torch.softmax(torch.from_numpy(down) / temperature, 1)).numpy()
    right = p.argmax(1) == vy
    stats = {"grey_accuracy": round(float(right.mean()), 5),
             "grey_confident_mistakes": round(float((~right & (p.max(1) >= 0.9)).mean()), 5),
             "grey_red_black_mistakes": round(float(((p.argmax(1) % 3 == 0) != (vy % 3 == 0)).mean()), 5)}
    print(f"grey suit net: temperature {temperature:.3f}; {stats} ({len(vy)} validation crops)", flush=True)
    return net, float(temperature), stats


def export(net: SuitNet, temperature: float, out: Path) -> Path:
    """``cards_grey.onnx`` (what the product reads) and its checkpoint into ``out``; returns the
    ONNX file's path."""
    return write_network(net, temperature, out, GREY_FILE, "suits")


def main(argv: list[str] | None = None) -> None:
    from vision.train.model import SUIT_H  # torch: the train extra's

    args = arguments("python -m vision.train.grey", __doc__, GREY_FILE, cache="build/grey-data", instances=20_000,
                     val_instances=2_000, steps=3_000).parse_args(argv)
    facts = {"answers": list(GREY_SUITS),
             "input": {"height": SUIT_H, "width": INPUT_W, "layout": "NCHW", "channels": "grey in B, G and R",
                       "scale": "1/255", "region": "the top of the model's input"}}
    run(args, "vision.train.grey", make_chunk, first_seeds=(70_000, 79_000), train=train, write=export, facts=facts,
        argv=argv)


if __name__ == "__main__":
    main()
