"""The suit network trained on a data set of its own: black cards alone, small and soft ones
among them, and the large pip of each ace.

:mod:`vision.train.suit` teaches the :class:`~vision.train.model.SuitNet` from the tops of the
card network's own training crops. There a blurred or small spade (an ornate ace, a court 100 px
wide) loses its point, and every reader calls it a club surely; and an ace is also checked at its
one large pip (the crop's middle rows), which that network never saw. This stage renders black
faces of the training designs only, a fifth of them aces and two fifths courts, at the table's
and phones' resolutions, and teaches the same network:

- the top of every crop but an ace's, and the middle rows of every ace, either way round
  (:func:`vision.model_input.suit_rows`, as the product cuts them): many aces print no suit in
  their corners (an "A" alone), so the top of an ace teaches nothing but guessing;
- about a third of the crops softened as a small or out-of-focus card is (:func:`softened`): shrunk
  2-4 times and enlarged back, or blurred, or smeared in one direction.

``python -m vision.train.blacks --out build/blacks`` renders its data (reused from ``--cache``),
trains, calibrates on validation designs and writes ``cards_suit.onnx`` with its figures.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.model_input import INPUT_H, INPUT_W, half_turned, preprocess, shifted, suit_rows
from vision.render import render_card
from vision.render.cards import RANKS
from vision.render.photo import table_crop
from vision.train.data import TRAIN_DESIGNS, VAL_DESIGNS, brighten, reframe
from vision.train.export import SUIT_FILE

if TYPE_CHECKING:
    from vision.train.model import SuitNet

#: share of the faces that are courts, and that are aces: the black cards read wrongly most
COURT_SHARE, ACE_SHARE = 0.4, 0.2
#: share of the training crops softened (:func:`softened`)
SOFT_SHARE = 0.35


def make_chunk(seed: int, n: int, designs: range) -> dict[str, np.ndarray]:
    """``n`` preprocessed crops (uint8 NHWC) of black faces as the table or a photo's outline
    cuts them; their suit (0 spades, 1 clubs, the suit network's answers) and whether each is
    an ace."""
    rng = np.random.default_rng([seed, 2718])
    xs = np.empty((n, INPUT_H, INPUT_W, 3), np.uint8)
    suit = np.empty(n, np.int8)
    ace = np.zeros(n, bool)
    pips = [r for r in RANKS if r not in "AJQK"]
    design = 0
    for i in range(n):
        if i % 8 == 0:
            design = int(designs[int(rng.integers(len(designs)))])
        r = rng.random()
        rank = "A" if r < ACE_SHARE else "JQK"[int(rng.integers(3))] if r < ACE_SHARE + COURT_SHARE \
            else pips[int(rng.integers(len(pips)))]
        s = int(rng.integers(2))
        phone = rng.random() < 0.25
        k = float(rng.uniform(2.7, 5.0) if phone else rng.uniform(1.3, 2.7))
        face = render_card(rank + "SC"[s], design, px_per_mm=4.5 if phone else 3.0, rng=rng, alpha=True)
        xs[i] = preprocess(table_crop(face, rng, px_per_mm=k, strength=float(rng.uniform(0.3, 1.3))))
        suit[i], ace[i] = s, rank == "A"
    return {"x": xs, "y": suit, "ace": ace}


def _job(args: tuple[int, int, str, Path]) -> Path:
    seed, n, split, folder = args
    path = folder / f"blacks-{split}-{seed}.npz"
    if not path.exists():
        cv2.setNumThreads(1)
        chunk = make_chunk(seed, n, VAL_DESIGNS if split == "val" else TRAIN_DESIGNS)
        tmp = path.with_suffix(".tmp.npz")
        np.savez(tmp, x=chunk["x"], y=chunk["y"], ace=chunk["ace"])
        os.replace(tmp, path)
    return path


def build(folder: Path, n_train: int, n_val: int, workers: int, chunk: int = 500
          ) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Render (or reuse) the data set under ``folder``; returns the training and validation sets."""
    folder.mkdir(parents=True, exist_ok=True)
    jobs = [(80_000 + j, chunk, "train", folder) for j in range(n_train // chunk)]
    jobs += [(89_000 + j, chunk, "val", folder) for j in range(max(1, n_val // chunk))]
    with mp.get_context("fork").Pool(workers) as pool:
        paths = pool.map(_job, jobs, chunksize=1)

    def load(split: str) -> dict[str, np.ndarray]:
        parts = [np.load(p) for p in paths if f"-{split}-" in p.name]
        return {k: np.concatenate([p[k] for p in parts]) for k in ("x", "y", "ace")}

    return load("train"), load("val")


def softened(batch: np.ndarray, rng: np.random.Generator, share: float = SOFT_SHARE) -> np.ndarray:
    """``batch`` (uint8 NHWC crops) with ``share`` of them as a small or out-of-focus card shows:
    shrunk 2-4 times and enlarged back, or blurred (sigma 1-2.5 px), or smeared along a line
    (as a moved camera does)."""
    out = batch.copy()
    h, w = batch.shape[1:3]
    for i in np.flatnonzero(rng.random(len(batch)) < share):
        kind = rng.random()
        if kind < 0.45:
            f = rng.uniform(2.0, 4.0)
            small = cv2.resize(batch[i], (max(4, round(w / f)), max(4, round(h / f))), interpolation=cv2.INTER_AREA)
            out[i] = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
        elif kind < 0.8:
            out[i] = cv2.GaussianBlur(batch[i], (0, 0), rng.uniform(1.0, 2.5))
        else:
            n = int(rng.integers(5, 12))
            line = np.zeros((n, n), np.float32)
            line[n // 2] = 1.0 / n
            turn = cv2.getRotationMatrix2D((n / 2 - 0.5, n / 2 - 0.5), float(rng.uniform(0, 180)), 1.0)
            smear = cv2.warpAffine(line, turn, (n, n)).astype(np.float32)
            smear /= max(float(smear.sum()), 1e-6)
            out[i] = cv2.filter2D(batch[i], -1, smear)
    return out


def _views(x: np.ndarray, ace: np.ndarray, gen: np.random.Generator, height: int, *, train: bool) -> np.ndarray:
    """Training views of crops ``x``: reframed, turned either way, moved a few pixels, softened;
    an ace's middle rows, the others' tops."""
    xb = reframe(x, gen, 0.5) if train else x.copy()
    turn = gen.random(len(xb)) < 0.5
    xb[turn] = half_turned(xb[turn])
    if train:
        dy, dx = int(gen.integers(-4, 5)), int(gen.integers(-4, 5))
        xb = shifted(xb, [(dx, dy)])[0]
        xb = softened(brighten(xb, gen), gen)
    return suit_rows(xb, ace, height)


def _odds(net: SuitNet, x: np.ndarray, middle: bool, temperature: float, height: int) -> np.ndarray:
    """Clubs' odds for crops ``x`` read as the product reads: both ways round, averaged."""
    import torch

    from vision.train.model import nhwc_tensor

    net.eval()
    outs = []
    with torch.no_grad():
        for turned in (False, True):
            v = half_turned(x) if turned else x
            rows = suit_rows(v, np.full(len(v), middle), height)
            logits = torch.cat([net(nhwc_tensor(rows[i:i + 512])) for i in range(0, len(rows), 512)])
            outs.append(torch.softmax(logits / temperature, 1)[:, 1].numpy())
    odds: np.ndarray = 0.5 * (outs[0] + outs[1])
    return odds


def train(tr: dict[str, np.ndarray], va: dict[str, np.ndarray], *, steps: int, seed: int,
          batch: int = 256, lr: float = 3e-3) -> tuple[SuitNet, float, dict[str, float]]:
    """Train the suit network on ``tr``; calibrate it on ``va`` (plain and softened tops of the
    cards but aces, and aces' middles) and measure it there, both ways round averaged."""
    import torch
    from torch.nn import functional as F

    from vision.train.calib import fit_temperature
    from vision.train.model import SUIT_H, SuitNet, nhwc_tensor, take_step

    torch.manual_seed(seed)
    gen = np.random.default_rng([seed, 29])
    net = SuitNet().to(memory_format=torch.channels_last)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.15)
    y_all = tr["y"].astype(np.int64)
    t0 = time.time()
    for step in range(steps):
        net.train()
        pick = gen.integers(0, len(y_all), batch)
        xb = _views(tr["x"][pick], tr["ace"][pick], gen, SUIT_H, train=True)
        loss = F.cross_entropy(net(nhwc_tensor(xb)), torch.from_numpy(y_all[pick]), label_smoothing=0.05)
        take_step(opt, sched, loss, step, steps)
        if (step + 1) % 100 == 0:
            print(f"  blacks step {step + 1}/{steps} loss {loss.item():.3f} ({(time.time() - t0) / 60:.1f} min)", flush=True)
    net = net.to(memory_format=torch.contiguous_format).eval()
    vgen = np.random.default_rng([seed, 31])
    vy = va["y"].astype(np.int64)
    soft = softened(va["x"], vgen, share=1.0)
    aces, others = np.flatnonzero(va["ace"]), np.flatnonzero(~va["ace"])
    sets = {"top": (va["x"][others], vy[others], False), "soft": (soft[others], vy[others], False),
            "ace_middle": (va["x"][aces], vy[aces], True), "soft_ace_middle": (soft[aces], vy[aces], True)}

    def logits(x: np.ndarray, middle: bool) -> np.ndarray:
        rows = suit_rows(x, np.full(len(x), middle), SUIT_H)
        with torch.no_grad():
            out: np.ndarray = torch.cat([net(nhwc_tensor(rows[i:i + 512])) for i in range(0, len(rows), 512)]).numpy()
        return out

    fit_x = np.concatenate([logits(x, m) for x, _, m in sets.values()])
    fit_y = np.concatenate([y for _, y, _ in sets.values()])
    temperature = float(fit_temperature(fit_x, fit_y))
    stats: dict[str, float] = {}
    for name, (x, y, middle) in sets.items():
        clubs = _odds(net, x, middle, temperature, SUIT_H)
        right = (clubs > 0.5) == (y == 1)
        sure = np.maximum(clubs, 1 - clubs) >= 0.9
        stats[f"suit_{name}_accuracy"] = round(float(right.mean()), 5)
        stats[f"suit_{name}_confident_mistakes"] = round(float((~right & sure).mean()), 5)
    print(f"suit net (blacks): temperature {temperature:.3f}; {stats} ({len(vy)} validation crops, {len(aces)} aces)",
          flush=True)
    return net, temperature, stats


def export(net: SuitNet, temperature: float, out: Path) -> Path:
    """``cards_suit.onnx`` (what the product reads) and its checkpoint ``cards_suit.pt`` into
    ``out``; returns the ONNX file's path."""
    import torch

    from vision.train.export import export_head
    from vision.train.model import SUIT_H

    out.mkdir(parents=True, exist_ok=True)
    torch.save({"state_dict": net.state_dict(), "temperature": temperature}, out / "cards_suit.pt")
    export_head(net, temperature, out / SUIT_FILE, height=SUIT_H, width=INPUT_W, input_name="top", output_name="probs")
    return out / SUIT_FILE


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m vision.train.blacks", description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True, help="folder for cards_suit.onnx and its facts")
    ap.add_argument("--cache", type=Path, default=Path("build/blacks-data"), help="rendered data (reused)")
    ap.add_argument("--instances", type=int, default=80_000, help="training crops to render")
    ap.add_argument("--val-instances", type=int, default=4_000)
    ap.add_argument("--steps", type=int, default=4_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args(argv)
    import torch

    torch.set_num_threads(args.threads)
    t0 = time.time()
    tr, va = build(args.cache, args.instances, args.val_instances, args.threads)
    print(f"data: {len(tr['y'])} training, {len(va['y'])} validation crops ({(time.time() - t0) / 60:.1f} min)", flush=True)
    net, temperature, stats = train(tr, va, steps=args.steps, seed=args.seed)
    export(net, temperature, args.out)
    facts = {"file": SUIT_FILE, "temperature": round(temperature, 4),
             "command": "python -m vision.train.blacks " + " ".join(argv if argv is not None else sys.argv[1:]),
             "steps": args.steps, "seed": args.seed, "instances": args.instances, **stats,
             "minutes": round((time.time() - t0) / 60, 1)}
    (args.out / "cards_suit.json").write_text(json.dumps(facts, indent=2) + "\n")
    print(json.dumps(facts), flush=True)


if __name__ == "__main__":
    main()
