"""The mark reader: a small network that reads the card whose corner index lies at a mark of the
index finder, from a patch round the mark alone, any way round. :func:`vision.recognize.recognize`
asks it about the marks that lie on no card it found (an index whose card shows no outline: cut
off by the photo's edge, under other cards, washed out by glare) or inside a card found but not
at the index of a card read surely (a card lying over it in a row or a fan, or an unsure card's
own index).

It learns from two sources:

- patches of rendered photos (:func:`vision.train.finder.scene`, the finder's own photos at full
  size): round each index box the photo shows, turned any way, a little off its middle and of a
  size a finder's box might give; and round points elsewhere on the cards and the table, as
  ``unknown``;
- patches of real photos (``--real``: folders with index boxes, in the form of ``pegpi bench
  finder``), at the marks the shipped finder gives them: a mark inside a labelled box is that
  card, any other mark ``unknown``; and round each labelled box. Real photos teach it what real
  print, glare and noise look like; the development set's singles are used so, its scenes are
  kept to measure it.

``python -m vision.train.marks --out build/marks --real PHOTOS/single`` renders its data, trains
on two CPU threads and writes ``cards_mark.onnx`` and its figures (``cards_mark.json``); with
``--wide``, the wide reader (``cards_mark_wide.onnx``: larger patches spanning the whole index
round a mark at its rank or suit alone).
"""

from __future__ import annotations

import argparse
import functools
import multiprocessing as mp
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.classify import LABELS
from vision.finder import (
    MARK_PATCH,
    MARK_READER_FILE,
    MARK_SIDE,
    WIDE_MARK_FILE,
    WIDE_MARK_PATCH,
    WIDE_MARK_SIDE,
    IndexFinder,
    mark_patch,
)
from vision.finder_bench import read_boxes
from vision.train.data import TRAIN_DESIGNS, VAL_DESIGNS
from vision.train.finder import keep_run, scene

if TYPE_CHECKING:
    import torch

    from vision.train.model import MarkNet

UNKNOWN = LABELS.index("unknown")
#: labels of real photos' boxes that are not the card network's ids
REAL_NAMES = {"BLACK JOKER": "BJ", "RED JOKER": "RJ"}
Samples = tuple[np.ndarray, np.ndarray]  # uint8 patches (N, 48, 48, 3) and labels (N,)


def rendered_samples(img: np.ndarray, boxes: Sequence[tuple[str, Sequence[float]]], corners: Sequence[np.ndarray],
                     rng: np.random.Generator, per_box: int = 3, elsewhere: int = 6, *, size: int = MARK_PATCH,
                     spans: float = MARK_SIDE) -> Samples:
    """Patches of a rendered photo: ``per_box`` round each index box (turned a quarter any number of times, moved up to
    about a tenth of the patch off its middle, 0.8-1.25 times the size its box gives), and
    ``elsewhere`` round points on the cards (7 in 10) or anywhere, far enough from every index."""
    xs, ys = [], []
    sizes = [max(b[2] - b[0], b[3] - b[1]) for _c, b in boxes] or [40.0]
    for card, (x0, y0, x1, y1) in boxes:
        side = max(x1 - x0, y1 - y0) * spans
        for _ in range(per_box):
            s = side * rng.uniform(0.8, 1.25)
            dx, dy = rng.normal(0, 0.08 * s, 2)
            xs.append(mark_patch(img, (x0 + x1) / 2 + dx, (y0 + y1) / 2 + dy, s, int(rng.integers(4)), size))
            ys.append(LABELS.index(card))
    mids = np.array([((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for _c, b in boxes]).reshape(-1, 2)
    h, w = img.shape[:2]
    got = tries = 0
    while got < elsewhere and tries < 100:
        tries += 1
        if rng.random() < 0.7 and corners:
            q = corners[int(rng.integers(len(corners)))]
            a, b = rng.random(2)
            p = q[0] + a * (q[1] - q[0]) + b * (q[3] - q[0])
        else:
            p = rng.uniform((0, 0), (w, h))
        s = float(rng.choice(sizes)) * spans * rng.uniform(0.7, 1.4)
        if len(mids) and float(np.hypot(*(mids - p).T).min()) < 0.45 * s:
            continue
        xs.append(mark_patch(img, float(p[0]), float(p[1]), s, int(rng.integers(4)), size))
        ys.append(UNKNOWN)
        got += 1
    return np.stack(xs).reshape(-1, size, size, 3), np.array(ys, np.int64)


def _job(args: tuple[int, int, str, Path, int, float]) -> Path:
    seed, n, split, folder, size, spans = args
    path = folder / f"marks-{size}-{spans}-{split}-{seed}.npz"
    if not path.exists():
        cv2.setNumThreads(1)
        rng = np.random.default_rng([seed, 4141])
        parts = [rendered_samples(*scene(rng, VAL_DESIGNS if split == "val" else TRAIN_DESIGNS), rng, size=size, spans=spans)
                 for _ in range(n)]
        tmp = path.with_suffix(".tmp.npz")
        np.savez(tmp, x=np.concatenate([p[0] for p in parts]), y=np.concatenate([p[1] for p in parts]))
        os.replace(tmp, path)
    return path


def build(folder: Path, n_train: int, n_val: int, workers: int, chunk: int = 100, *, size: int = MARK_PATCH,
          spans: float = MARK_SIDE) -> tuple[Samples, Samples]:
    """Render (or reuse) the patches of ``n_train`` and ``n_val`` photos under ``folder``, ``size``
    pixels a side spanning ``spans`` times an index box."""
    folder.mkdir(parents=True, exist_ok=True)
    jobs = [(j, chunk, "train", folder, size, spans) for j in range(max(1, n_train // chunk))]
    jobs += [(9_000 + j, chunk, "val", folder, size, spans) for j in range(max(1, n_val // chunk))]
    with mp.get_context("fork").Pool(workers) as pool:
        paths = pool.map(_job, jobs, chunksize=1)

    def load(split: str) -> Samples:
        zs = [np.load(p) for p in paths if f"-{split}-" in p.name]
        return np.concatenate([z["x"] for z in zs]), np.concatenate([z["y"] for z in zs]).astype(np.int64)

    return load("train"), load("val")


def _label(name: str) -> int:
    return LABELS.index(REAL_NAMES.get(name, name))


def real_samples(folders: Sequence[Path], finder: IndexFinder, rng: np.random.Generator, *, size: int = MARK_PATCH,
                 spans: float = MARK_SIDE) -> Samples:
    """Patches of the real photos of ``folders`` (with index boxes), as :func:`boxed_samples` cuts them."""
    parts: list[Samples] = []
    for folder in folders:
        for photo in read_boxes(folder):
            img = cv2.imread(str(photo.path))
            if img is not None:
                parts.append(boxed_samples(img, photo.labels, photo.boxes, finder, rng, size=size, spans=spans))
    return _joined(parts, size)


def boxed_samples(img: np.ndarray, names: Sequence[str], boxes: np.ndarray, finder: IndexFinder,
                  rng: np.random.Generator, *, size: int = MARK_PATCH, spans: float = MARK_SIDE) -> Samples:
    """Patches of one photo whose index boxes (``(n, 4)``: x0, y0, x1, y1) hold the cards ``names``: 6
    copies (turned by quarters) at each mark of ``finder`` inside a box (its card), 2 at each mark
    outside every box (``unknown``), and 4 round each box."""
    xs, ys = [], []
    for m in finder.find(img):
        label = next((_label(n) for n, (x0, y0, x1, y1) in zip(names, boxes, strict=True)
                      if x0 <= m.x <= x1 and y0 <= m.y <= y1), UNKNOWN)
        side = max(m.width, m.height) * spans
        for _ in range(6 if label != UNKNOWN else 2):
            xs.append(mark_patch(img, m.x, m.y, side * rng.uniform(0.9, 1.1), int(rng.integers(4)), size))
            ys.append(label)
    for n, (x0, y0, x1, y1) in zip(names, boxes, strict=True):
        side = max(x1 - x0, y1 - y0) * spans
        for _ in range(4):
            xs.append(mark_patch(img, (x0 + x1) / 2, (y0 + y1) / 2, side * rng.uniform(0.8, 1.25),
                                 int(rng.integers(4)), size))
            ys.append(_label(n))
    return np.asarray(xs, np.uint8).reshape(-1, size, size, 3), np.array(ys, np.int64)


def _joined(parts: Sequence[Samples], size: int) -> Samples:
    if not parts:
        return np.zeros((0, size, size, 3), np.uint8), np.zeros(0, np.int64)
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def composed_samples(folders: Sequence[Path], finder: IndexFinder, photos: int, seed: int, rng: np.random.Generator,
                     *, size: int = MARK_PATCH, spans: float = MARK_SIDE) -> Samples:
    """Patches of ``photos`` photos composed of the real cards of ``folders`` (photos of one card
    with index boxes), as ``pegpi bench composed`` composes them (:mod:`vision.composed_bench`;
    ``seed``: keep it apart from the bench's), cut as :func:`boxed_samples` cuts a real photo: real
    print laid in rows and fans under other cards, half the photos grey."""
    from vision.classify import load_default_classifier
    from vision.composed_bench import composed_photos, cut_faces, index_boxes
    from vision.photo_bench import collect

    items = collect(folders)
    cut = cut_faces(items, load_default_classifier(), boxes=index_boxes([p for p, _c in items]))
    parts = [boxed_samples(photo.image, photo.box_labels, photo.boxes, finder, rng, size=size, spans=spans)
             for photo in composed_photos(cut.faces, photos, seed)]
    return _joined(parts, size)


def damaged(x: np.ndarray, rng: np.random.Generator) -> torch.Tensor:
    """uint8 patches as a float NCHW tensor in 0..1, damaged as photos damage them: grey for a
    third, light, contrast and colour cast changed, some at low resolution or blurred, noise, and
    salt and pepper for a quarter."""
    import torch
    from torch.nn import functional as F

    n, size = len(x), x.shape[1]
    f = x.astype(np.float32) * np.float32(1 / 255)
    grey = rng.random(n) < 0.35
    f[grey] = f[grey].mean(axis=3, keepdims=True)
    mean = f.mean(axis=(1, 2, 3), keepdims=True)
    f = (f - mean) * rng.uniform(0.4, 1.2, (n, 1, 1, 1)).astype(np.float32) + mean
    cast = np.where(grey[:, None, None, None], 1.0, rng.uniform(0.85, 1.15, (n, 1, 1, 3))).astype(np.float32)
    f = f * rng.uniform(0.5, 1.4, (n, 1, 1, 1)).astype(np.float32) * cast + rng.uniform(-0.2, 0.2, (n, 1, 1, 1)).astype(np.float32)
    t = torch.from_numpy(np.ascontiguousarray(f.transpose(0, 3, 1, 2)))
    low = torch.from_numpy(rng.random(n) < 0.3)
    if low.any():
        k = int(rng.choice([16, 20, 24, 32]))
        t[low] = F.interpolate(F.interpolate(t[low], size=(k, k), mode="area"), size=(size, size),
                               mode="bilinear", align_corners=False)
    soft = torch.from_numpy(rng.random(n) < 0.2)
    if soft.any():
        k1 = torch.tensor([1.0, 4.0, 6.0, 4.0, 1.0])
        kernel = (k1[:, None] * k1[None, :] / 256).expand(3, 1, 5, 5).contiguous()
        t[soft] = F.conv2d(F.pad(t[soft], (2, 2, 2, 2), mode="replicate"), kernel, groups=3)
    t = t + torch.randn_like(t) * torch.from_numpy(rng.uniform(0, 0.06, (n, 1, 1, 1)).astype(np.float32))
    sp = torch.from_numpy(rng.random(n) < 0.25)
    if sp.any():
        m = torch.rand(int(sp.sum()), 1, size, size)
        share = torch.from_numpy(rng.uniform(0.01, 0.08, (int(sp.sum()), 1, 1, 1)).astype(np.float32))
        s = t[sp]
        s = torch.where(m < share / 2, torch.zeros_like(s), s)
        t[sp] = torch.where(m > 1 - share / 2, torch.ones_like(s), s)
    return t.clamp(0, 1).contiguous(memory_format=torch.channels_last)


def train(rendered: Samples, real: Samples | None, *, steps: int, seed: int, batch: int = 128,
          real_share: float = 0.3) -> MarkNet:
    """A :class:`MarkNet` trained ``steps`` steps on batches of ``rendered`` patches and (a
    ``real_share`` of each batch) ``real`` ones; cross-entropy with a little label smoothing, AdamW
    on a one-cycle schedule to 3e-3."""
    import torch
    from torch.nn import functional as F

    from vision.train.model import MarkNet, take_step

    rng = np.random.default_rng(seed)
    torch.manual_seed(seed)
    net = MarkNet()
    net.to(memory_format=torch.channels_last)
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps, pct_start=0.15)
    n_real = round(batch * real_share) if real is not None else 0
    t0 = time.time()
    for step in range(steps):
        i = rng.integers(len(rendered[1]), size=batch - n_real)
        x, y = rendered[0][i], rendered[1][i]
        if real is not None and n_real:
            j = rng.integers(len(real[1]), size=n_real)
            x, y = np.concatenate([x, real[0][j]]), np.concatenate([y, real[1][j]])
        loss = F.cross_entropy(net(damaged(x, rng)), torch.from_numpy(y), label_smoothing=0.05)
        take_step(opt, sched, loss, step, steps)
        if step % 250 == 0 or step == steps - 1:
            print(f"step {step}: loss {loss.item():.3f} ({time.time() - t0:.0f} s)", flush=True)
    net.eval()
    return net


def measure(net: MarkNet, samples: Samples) -> dict[str, float]:
    """Of the patches round an index: the share read right; of the others: the share read as no
    index; and the share of all read wrong at 0.9 or more."""
    import torch

    x, y = samples
    with torch.no_grad():
        probs = torch.cat([torch.softmax(net(torch.from_numpy(np.ascontiguousarray(
            x[k:k + 512].transpose(0, 3, 1, 2), np.float32) / 255)), 1) for k in range(0, len(y), 512)]).numpy()
    read, conf = probs.argmax(1), probs.max(1)
    index = y != UNKNOWN
    return {"index_read_right": round(float(np.mean(read[index] == y[index])), 4),
            "elsewhere_read_as_none": round(float(np.mean(read[~index] == UNKNOWN)), 4),
            "wrong_at_0.9": round(float(np.mean((read != y) & (conf >= 0.9))), 4), "patches": int(len(y))}


def export(net: MarkNet, path: Path, size: int = MARK_PATCH) -> None:
    """Write ``net`` to ``path`` as ONNX taking any number of patches ``size`` pixels a side."""
    import torch

    torch.onnx.export(net.eval(), torch.zeros(1, 3, size, size), str(path), input_names=["patches"],
                      output_names=["logits"], dynamic_axes={"patches": {0: "n"}, "logits": {0: "n"}},
                      opset_version=17, dynamo=False)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m vision.train.marks", description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True, help="folder for cards_mark.onnx and its figures")
    ap.add_argument("--cache", type=Path, default=Path("build/marks-data"), help="rendered patches (reused)")
    ap.add_argument("--photos", type=int, default=6_000, help="training photos to render")
    ap.add_argument("--val-photos", type=int, default=600)
    ap.add_argument("--steps", type=int, default=3_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--finder", type=Path, default=Path(__file__).resolve().parents[2] / "models" / "cards_finder.onnx",
                    help="the index finder whose marks the real photos are read at")
    ap.add_argument("--real", type=Path, nargs="*", default=[],
                    help="folders of real photos with index boxes (pegpi bench finder's form), to train on")
    ap.add_argument("--composed", type=Path, nargs="*", default=[],
                    help="folders of real photos of one card with index boxes, their cards cut out and composed "
                         "into photos of several (as pegpi bench composed does), to train on")
    ap.add_argument("--composed-photos", type=int, default=1_000, help="composed photos to make")
    ap.add_argument("--composed-seed", type=int, default=100,
                    help="the composed photos' seed (the bench's are small numbers: keep them apart)")
    ap.add_argument("--wide", action="store_true",
                    help=f"train the wide reader ({WIDE_MARK_FILE}: {WIDE_MARK_PATCH} px patches, {WIDE_MARK_SIDE} x the box)")
    args = ap.parse_args(argv)
    size, spans, file = (WIDE_MARK_PATCH, WIDE_MARK_SIDE, WIDE_MARK_FILE) if args.wide else (MARK_PATCH, MARK_SIDE,
                                                                                           MARK_READER_FILE)
    import torch

    torch.set_num_threads(args.threads)
    t0 = time.time()
    rendered, val = build(args.cache, args.photos, args.val_photos, args.threads, size=size, spans=spans)
    finder, rng = IndexFinder(args.finder), np.random.default_rng(args.seed)
    parts = [real_samples(args.real, finder, rng, size=size, spans=spans)] if args.real else []
    if args.composed:
        parts.append(composed_samples(args.composed, finder, args.composed_photos, args.composed_seed, rng,
                                      size=size, spans=spans))
    real = _joined(parts, size) if parts else None
    print(f"data: {len(rendered[1])} rendered, {0 if real is None else len(real[1])} real patches "
          f"({(time.time() - t0) / 60:.1f} min)", flush=True)
    net = train(rendered, real, steps=args.steps, seed=args.seed)
    facts: dict[str, object] = {"file": file, "patch": size, "side": spans, "steps": args.steps,
                                "seed": args.seed, "rendered_patches": len(rendered[1]),
                                "real_patches": 0 if real is None else len(real[1]),
                                "real_folders": [p.name for p in args.real],
                                "composed": ({"folders": [p.name for p in args.composed], "photos": args.composed_photos,
                                              "seed": args.composed_seed} if args.composed else None),
                                "validation_renders": measure(net, val)}
    keep_run(net, args.out / file, functools.partial(export, size=size), facts, t0)


if __name__ == "__main__":
    main()
