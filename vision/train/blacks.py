"""The suit network trained on a data set of its own: black cards alone, small and soft ones
among them, and the large pip of each ace.

:mod:`vision.train.suit` teaches the :class:`~vision.train.model.SuitNet` from the tops of the
card network's own training crops. There a blurred or small spade (an ornate ace, a court 100 px
wide) loses its point, and every reader calls it a club surely; and an ace is also checked at its
one large pip (the crop's middle rows), which that network never saw. This stage renders black
faces of the training designs only, a fifth of them aces and two fifths courts, at the table's
and phones' resolutions, and teaches the same network:

- the top of every crop but an ace's, and the middle rows of every ace, either way round
  (:func:`vision.model_input.suit_rows`, as the product cuts them): some training designs' aces
  print an "A" alone in their corners, whose top teaches nothing but guessing;
- about a third of the crops softened as a small or out-of-focus card is (:func:`softened`): shrunk
  2-4 times and enlarged back, or blurred, or smeared in one direction;
- most aces of spades drawn ornate (:func:`filigreed`), their pip filled with light filigree, as
  real decks print them (session 66: a network taught only plain pips read real ones as clubs).

``python -m vision.train.blacks --out build/blacks`` renders its data (reused from ``--cache``),
trains, calibrates on validation designs and writes ``cards_suit.onnx`` with its figures.

Not shipped (models/HISTORY.md, sessions 66-67): with ornate aces of spades it reads real aces'
pips right, but ornate aces of clubs and some commercial spade courts as the other black suit;
with ornate aces of clubs drawn as often, real aces of spades' pips lean to clubs again.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.model_input import INPUT_H, INPUT_W, half_turned, preprocess, shifted, suit_rows
from vision.render import render_card
from vision.render.cards import RANKS
from vision.render.photo import table_crop
from vision.train.data import brighten, reframe
from vision.train.heads import arguments, net_logits, run, teach, write_network

if TYPE_CHECKING:
    from vision.train.model import SuitNet

#: share of the faces that are courts, and that are aces: the black cards read wrongly most
COURT_SHARE, ACE_SHARE = 0.4, 0.2
#: share of the training crops softened (:func:`softened`)
SOFT_SHARE = 0.35
#: share of the aces of spades drawn ornate (:func:`filigreed`), as most real decks print theirs
#: (session 67 drew aces of clubs ornate as often: real aces of spades then read worse)
ORNATE_SHARE = 0.6


def _mirror(layer: np.ndarray, cx: int) -> None:
    """Draw what lies left of column ``cx`` of ``layer`` (uint8) mirrored to its right too."""
    right = layer[:, cx:cx + cx]
    right |= layer[:, :cx][:, ::-1][:, :right.shape[1]]


def filigreed(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """An ace's face (BGRA) with its large pip filled with light filigree, mirrored about the pip's
    middle (inner outlines, curls, dots), and now and then curls of ink round it: the ornate ace of
    spades most real decks print, which the renderer's plain pips never show."""
    h, w = face.shape[:2]
    grey = cv2.cvtColor(np.ascontiguousarray(face[..., :3]), cv2.COLOR_BGR2GRAY)
    dark = np.zeros((h, w), np.uint8)
    y0, y1, x0, x1 = int(0.2 * h), int(0.8 * h), int(0.12 * w), int(0.88 * w)
    dark[y0:y1, x0:x1] = (grey[y0:y1, x0:x1] < 110).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(dark, connectivity=8)
    if count < 2:
        return face
    pip = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    bx, by, bw, bh, area = (int(v) for v in stats[pip])
    if area < 0.01 * h * w:
        return face
    mask = (labels == pip).astype(np.uint8)
    paper = np.median(face[..., :3][grey > 180], axis=0) if (grey > 180).any() else np.full(3, 240.0)
    ink = np.median(face[..., :3][mask > 0], axis=0)
    art = np.zeros((h, w), np.uint8)
    t = max(1, round(bw * float(rng.uniform(0.012, 0.03))))
    inner = cv2.erode(mask, np.ones((3, 3), np.uint8), iterations=max(1, round(bw * float(rng.uniform(0.04, 0.08)))))
    if rng.random() < 0.7:  # an inner outline a little inside the pip's edge
        contours, _ = cv2.findContours(inner, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        cv2.drawContours(art, contours, -1, 255, t, cv2.LINE_AA)
    cx = bx + bw / 2
    for _ in range(int(rng.integers(4, 12))):  # curls and loops on one side, mirrored
        px, py = float(rng.uniform(bx, cx)), float(rng.uniform(by + 0.15 * bh, by + bh))
        ax, ay = (float(v) for v in rng.uniform(0.04, 0.16, 2) * bw)
        start = float(rng.uniform(0, 360))
        cv2.ellipse(art, (round(px), round(py)), (round(ax), round(ay)), float(rng.uniform(0, 180)), start,
                    start + float(rng.uniform(120, 330)), 255, t, cv2.LINE_AA)
    for _ in range(int(rng.integers(0, 8))):
        cv2.circle(art, (round(float(rng.uniform(bx, cx))), round(float(rng.uniform(by, by + bh)))),
                   max(1, round(bw * float(rng.uniform(0.015, 0.04)))), 255, -1, cv2.LINE_AA)
    _mirror(art, round(cx))
    light = (art.astype(np.float32) / 255.0) * inner.astype(np.float32)
    out = face.copy()
    rgb = out[..., :3].astype(np.float32)
    rgb = rgb * (1 - light[..., None]) + paper[None, None, :] * light[..., None]
    if rng.random() < 0.5:  # curls of ink over and beside the pip, as a maker's flourish
        curls = np.zeros((h, w), np.uint8)
        for _ in range(int(rng.integers(2, 6))):
            px = float(rng.uniform(bx - 0.2 * bw, cx))
            py = float(rng.uniform(by - 0.25 * bh, by + 0.4 * bh))
            ax, ay = (float(v) for v in rng.uniform(0.05, 0.15, 2) * bw)
            start = float(rng.uniform(0, 360))
            cv2.ellipse(curls, (round(px), round(py)), (round(ax), round(ay)), 0.0, start, start + 240.0, 255, t,
                        cv2.LINE_AA)
        _mirror(curls, round(cx))
        middle = np.zeros_like(curls)
        middle[y0:y1, x0:x1] = curls[y0:y1, x0:x1]  # never over the corner indices
        dark_ink = (middle.astype(np.float32) / 255.0) * (1 - mask.astype(np.float32))
        rgb = rgb * (1 - dark_ink[..., None]) + ink[None, None, :] * dark_ink[..., None]
    out[..., :3] = np.clip(rgb, 0, 255).astype(np.uint8)
    return out


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
        if rank == "A" and s == 0 and rng.random() < ORNATE_SHARE:
            face = filigreed(face, rng)
        xs[i] = preprocess(table_crop(face, rng, px_per_mm=k, strength=float(rng.uniform(0.3, 1.3))))
        suit[i], ace[i] = s, rank == "A"
    return {"x": xs, "y": suit, "ace": ace}


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


def train(tr: dict[str, np.ndarray], va: dict[str, np.ndarray], *, steps: int, seed: int,
          batch: int = 256, lr: float = 3e-3) -> tuple[SuitNet, float, dict[str, float]]:
    """Train the suit network on ``tr``; calibrate it on ``va`` (plain and softened tops of the
    cards but aces, and aces' middles) and measure it there, both ways round averaged."""
    import torch

    from vision.train.calib import fit_temperature
    from vision.train.model import SUIT_H, SuitNet

    torch.manual_seed(seed)
    gen = np.random.default_rng([seed, 29])
    net = teach(SuitNet(), tr["y"], lambda pick: _views(tr["x"][pick], tr["ace"][pick], gen, SUIT_H, train=True), gen,
                steps=steps, batch=batch, lr=lr, name="blacks")
    vgen = np.random.default_rng([seed, 31])
    vy = va["y"].astype(np.int64)
    soft = softened(va["x"], vgen, share=1.0)
    aces, others = np.flatnonzero(va["ace"]), np.flatnonzero(~va["ace"])
    sets = {"top": (va["x"][others], vy[others], False), "soft": (soft[others], vy[others], False),
            "ace_middle": (va["x"][aces], vy[aces], True), "soft_ace_middle": (soft[aces], vy[aces], True)}

    def logits(x: np.ndarray, middle: bool, turned: bool = False) -> np.ndarray:
        return net_logits(net, suit_rows(half_turned(x) if turned else x, np.full(len(x), middle), SUIT_H))

    upright = {name: logits(x, middle) for name, (x, _, middle) in sets.items()}
    fit_y = np.concatenate([y for _, y, _ in sets.values()])
    temperature = float(fit_temperature(np.concatenate(list(upright.values())), fit_y))
    stats: dict[str, float] = {}
    for name, (x, y, middle) in sets.items():
        # read as the product reads: both ways round, averaged
        clubs = np.mean([torch.softmax(torch.from_numpy(ways) / temperature, 1)[:, 1].numpy()
                         for ways in (upright[name], logits(x, middle, turned=True))], axis=0)
        right = (clubs > 0.5) == (y == 1)
        sure = np.maximum(clubs, 1 - clubs) >= 0.9
        stats[f"suit_{name}_accuracy"] = round(float(right.mean()), 5)
        stats[f"suit_{name}_confident_mistakes"] = round(float((~right & sure).mean()), 5)
    print(f"suit net (blacks): temperature {temperature:.3f}; {stats} ({len(vy)} validation crops, {len(aces)} aces)",
          flush=True)
    return net, temperature, stats


def export(net: SuitNet, temperature: float, out: Path) -> Path:
    """``cards_suit.onnx`` (what the product reads) and its checkpoint into ``out``; returns the
    ONNX file's path."""
    from vision.train.export import SUIT_FILE  # torch: the train extra's

    return write_network(net, temperature, out, SUIT_FILE, "probs")


def main(argv: list[str] | None = None) -> None:
    from vision.train.export import SUIT_FILE

    args = arguments("python -m vision.train.blacks", __doc__, SUIT_FILE, cache="build/blacks-data",
                     instances=80_000, val_instances=4_000, steps=4_000).parse_args(argv)
    run(args, "vision.train.blacks", make_chunk, first_seeds=(80_000, 89_000), train=train, write=export, facts={},
        argv=argv)


if __name__ == "__main__":
    main()
