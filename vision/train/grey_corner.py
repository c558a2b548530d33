"""The grey corner suit network: the suit of a card told by the shape of the sign in its corner
index alone, for a card under others in a photo that shows no colour.

The grey suit network (:mod:`vision.train.grey`) reads the top of a crop, which for a card under
the next one of a row or fan shows the card over it. This one reads the index corner only (the
index network's 36 x 28 mm, :data:`vision.train.model.CORNER_H` x ``CORNER_W``), taught as the
index network is taught: rendered suited cards' corners, either way round, often with the next
card laid over all but the index strip (:func:`vision.train.index.cover`) or cut by the photo's
edge (:func:`vision.train.index.photo_edge`), turned grey as such photos are
(:func:`vision.train.grey.greyed`).

``python -m vision.train.grey_corner --out build/grey-corner --instances 20000`` renders its
data (the grey stage's crops), trains, calibrates on validation designs and writes
``cards_grey_corner.onnx`` with its figures.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from vision.classify import SUITS as GREY_SUITS
from vision.train.data import reframe
from vision.train.grey import greyed, make_chunk
from vision.train.heads import arguments, net_logits, run, teach

if TYPE_CHECKING:
    from vision.train.model import SuitNet

#: the file the product loads, beside the card model
GREY_CORNER_FILE = "cards_grey_corner.onnx"
#: shares of the training views with the next card laid over them, and cut by the photo's edge
COVERED, EDGE_CUT = 0.6, 0.1


def views(x: np.ndarray, pick: np.ndarray, gen: np.random.Generator, *, covered: float = COVERED,
          edge_cut: float = EDGE_CUT) -> np.ndarray:
    """The index corners of crops ``x[pick]`` as they are trained on: framed anew, either way
    round, a few px off, ``covered`` of them under another crop's corner, ``edge_cut`` cut by a
    photo's edge, brightened and greyed."""
    from vision.train.data import brighten
    from vision.train.index import corners, cover, photo_edge

    n = len(pick)
    x = reframe(x[pick], gen, 0.5)
    way = gen.integers(0, 2, n)
    shift = (int(gen.integers(0, 7)), int(gen.integers(0, 7)))
    regions = corners(x, np.arange(n), way, shift)
    under = gen.random(n) < covered
    if under.any():
        regions[under] = cover(regions[under], corners(x, gen.permutation(n)[:int(under.sum())],
                                                      gen.integers(0, 2, int(under.sum()))), gen)
    cut = gen.random(n) < edge_cut
    if cut.any():
        regions[cut] = photo_edge(regions[cut], gen)
    out: np.ndarray = greyed(brighten(regions, gen), gen)
    return out


def train(tr: dict[str, np.ndarray], va: dict[str, np.ndarray], *, steps: int, seed: int,
          batch: int = 256, lr: float = 3e-3) -> tuple[SuitNet, float, dict[str, float]]:
    """Train the four-suit corner network on ``tr``; calibrate and measure it on ``va``'s corners
    greyed, as they are and with the next card over them (each crop read the way up it is)."""
    import torch

    from vision.train.calib import fit_temperature
    from vision.train.index import corners, cover
    from vision.train.model import SuitNet

    torch.manual_seed(seed)
    gen = np.random.default_rng([seed, 31])
    net = teach(SuitNet(answers=len(GREY_SUITS)), tr["y"], lambda pick: views(tr["x"], pick, gen), gen,
                steps=steps, batch=batch, lr=lr, name="grey corner")
    vgen = np.random.default_rng([seed, 97])
    n = len(va["y"])
    plain = corners(va["x"], np.arange(n), np.zeros(n, np.int64))
    under = cover(plain.copy(), corners(va["x"], vgen.permutation(n), np.zeros(n, np.int64)), vgen)
    vx = greyed(np.concatenate([plain, under]), vgen)
    vy = np.concatenate([va["y"], va["y"]]).astype(np.int64)
    logits = net_logits(net, vx)
    temperature = fit_temperature(logits, vy)
    p = torch.softmax(torch.from_numpy(logits) / temperature, 1).numpy()
    right = p.argmax(1) == vy
    stats = {"corner_accuracy": round(float(right[:n].mean()), 5),
             "covered_accuracy": round(float(right[n:].mean()), 5),
             "confident_mistakes": round(float((~right & (p.max(1) >= 0.9)).mean()), 5)}
    print(f"grey corner net: temperature {temperature:.3f}; {stats} ({n} validation crops, twice)", flush=True)
    return net, float(temperature), stats


def export(net: SuitNet, temperature: float, out: Path) -> Path:
    """``cards_grey_corner.onnx`` (input ``corner``, output ``suits``) and its checkpoint into
    ``out``; returns the ONNX file's path."""
    import torch

    from vision.train.export import export_head
    from vision.train.model import CORNER_H, CORNER_W

    out.mkdir(parents=True, exist_ok=True)
    path = out / GREY_CORNER_FILE
    torch.save({"state_dict": net.state_dict(), "temperature": temperature}, path.with_suffix(".pt"))
    export_head(net, temperature, path, height=CORNER_H, width=CORNER_W, input_name="corner", output_name="suits")
    return path


def main(argv: list[str] | None = None) -> None:
    from vision.train.model import CORNER_H, CORNER_W  # torch: the train extra's

    args = arguments("python -m vision.train.grey_corner", __doc__, GREY_CORNER_FILE, cache="build/grey-data",
                     instances=20_000, val_instances=2_000, steps=3_000).parse_args(argv)
    facts = {"answers": list(GREY_SUITS),
             "input": {"height": CORNER_H, "width": CORNER_W, "layout": "NCHW", "channels": "grey in B, G and R",
                       "scale": "1/255", "region": "the top-left corner of the model's input"}}
    # the grey stage's crops (the same cache and seeds): one rendering serves both
    run(args, "vision.train.grey_corner", make_chunk, first_seeds=(70_000, 79_000), train=train, write=export,
        facts=facts, argv=argv, data="grey")


if __name__ == "__main__":
    main()
