"""The index finder: a small fully convolutional network that marks where printed corner indices
lie in a whole photo, so that :func:`vision.recognize.recognize` reads only the card outlines
that have an index where a card's index would be.

It learns from rendered photos alone (:func:`compose`: 1-6 rendered cards of the training designs
on random tables, scattered, spread in a row or held in a fan, through the simulated camera), each
with the boxes of both corner indices of every card that no later card covers. Real photos'
index boxes (the development set's CSVs, ``--real``) only measure it, never teach it.

``python -m vision.train.finder --out build/finder --real PHOTOS/single PHOTOS/scenes`` renders
its data, trains on two CPU threads and writes ``cards_finder.onnx`` and its figures
(``cards_finder.json``).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import os
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from vision.api import CARD_MM
from vision.finder import FINDER_FILE, LONG_SIDE, STRIDE, IndexMark, finder_input, marks_of
from vision.finder_bench import box_hits, hit_counts, read_boxes
from vision.render import design_from_seed, index_box, render_card
from vision.render.cards import CARD_IDS, is_heldout
from vision.render.photo import compose_scene
from vision.train.data import TRAIN_DESIGNS, VAL_DESIGNS

if TYPE_CHECKING:
    import torch

    from vision.train.model import FinderNet

#: a photo and its index boxes (x0, y0, x1, y1 in its pixels), the photo shrunk to LONG_SIDE
Photo = tuple[np.ndarray, np.ndarray]
CROP = 224  # the square crops the network trains on
#: share of the photos that are close-ups: one or two cards larger than the photo, a corner of
#: each in sight (a phone held close over the table)
CLOSE_SHARE = 0.2


def compose(rng: np.random.Generator, designs: range) -> Photo:
    """A 640 x 480 photo of 1-6 rendered cards (or, for :data:`CLOSE_SHARE` of photos, a close-up
    of one or two cards 0.8-1.7 times its height) and the boxes of the corner indices it shows (both
    corners of each card; a box whose middle a later card covers or the photo's edge cuts off is
    left out), shrunk to :data:`vision.finder.LONG_SIDE`."""
    img, boxes, _corners = scene(rng, designs)
    s = LONG_SIDE / 640
    small = cv2.resize(img, (LONG_SIDE, round(480 * s)), interpolation=cv2.INTER_AREA)
    return small, np.array([b for _card, b in boxes], np.float32).reshape(-1, 4) * s


def scene(rng: np.random.Generator, designs: range) -> tuple[np.ndarray, list[tuple[str, list[float]]], list[np.ndarray]]:
    """The photo :func:`compose` shrinks (640 x 480), each index box it shows with its card, and
    each card's corners."""
    design = int(designs[int(rng.integers(len(designs)))])
    while is_heldout(design):
        design = int(designs[int(rng.integers(len(designs)))])
    spec = design_from_seed(design)
    close = rng.random() < CLOSE_SHARE
    cards = [CARD_IDS[i] for i in rng.choice(len(CARD_IDS), int(rng.integers(1, 3 if close else 7)), replace=False)]
    faces = [render_card(c, spec, px_per_mm=4.5 if close else 3.0, alpha=True) for c in cards]
    layout = "scatter" if close else str(rng.choice(["scatter", "fan", "arc"]))
    img, corners = compose_scene(faces, rng, size=(640, 480), card_px=(240.0, 330.0) if close else (110.0, 330.0),
                                 layout=layout, strength=float(rng.uniform(0.3, 1.0)))
    if close:  # a window round one card's corner, enlarged to the whole photo
        img, corners = _closer(img, corners, rng)
    width, height = CARD_MM
    boxes = []
    for i, (card, q) in enumerate(zip(cards, corners, strict=True)):
        x0, y0, x1, y1 = index_box(card, spec)
        u, v = (q[1] - q[0]) / width, (q[3] - q[0]) / height  # one mm along the top, down the side
        above = [p.astype(np.float32) for p in corners[i + 1:]]
        for a0, b0, a1, b1 in ((x0, y0, x1, y1), (width - x1, height - y1, width - x0, height - y0)):
            pts = np.array([q[0] + u * a + v * b for a in (a0, a1) for b in (b0, b1)])
            mx, my = pts.mean(axis=0)
            if not (0 <= mx < 640 and 0 <= my < 480) \
                    or any(cv2.pointPolygonTest(p, (float(mx), float(my)), False) >= 0 for p in above):
                continue
            boxes.append((card, [*pts.min(axis=0), *pts.max(axis=0)]))
    return img, boxes, corners


def _closer(img: np.ndarray, corners: list[np.ndarray], rng: np.random.Generator) -> tuple[np.ndarray, list[np.ndarray]]:
    """A window of ``img`` a third to three fifths of its size round a corner of one of its cards,
    enlarged to ``img``'s size, and the cards' corners in it."""
    h, w = img.shape[:2]
    f = rng.uniform(0.33, 0.6)
    ww, wh = w * f, h * f
    quad = corners[int(rng.integers(len(corners)))]
    cx, cy = quad[int(rng.choice([0, 2]))] + rng.uniform(-0.3, 0.3, 2) * (ww, wh)
    x0, y0 = float(np.clip(cx - ww / 2, 0, w - ww)), float(np.clip(cy - wh / 2, 0, h - wh))
    to = np.array([[w / ww, 0, -x0 * w / ww], [0, h / wh, -y0 * h / wh]], np.float32)
    out = cv2.warpAffine(img, to, (w, h), flags=cv2.INTER_LINEAR)
    return out, [(q - (x0, y0)) * (w / ww, h / wh) for q in corners]


def _job(args: tuple[int, int, str, Path]) -> Path:
    seed, n, split, folder = args
    path = folder / f"finder-{split}-{seed}.npz"
    if not path.exists():
        cv2.setNumThreads(1)
        rng = np.random.default_rng([seed, 3737])
        photos = [compose(rng, VAL_DESIGNS if split == "val" else TRAIN_DESIGNS) for _ in range(n)]
        tmp = path.with_suffix(".tmp.npz")
        np.savez(tmp, x=np.stack([p[0] for p in photos]), n=np.array([len(p[1]) for p in photos]),
                 boxes=np.concatenate([p[1] for p in photos]))
        os.replace(tmp, path)
    return path


def build(folder: Path, n_train: int, n_val: int, workers: int, chunk: int = 100) -> tuple[list[Photo], list[Photo]]:
    """Render (or reuse) the photos under ``folder``: the training and the validation photos."""
    folder.mkdir(parents=True, exist_ok=True)
    jobs = [(60_000 + j, chunk, "train", folder) for j in range(max(1, n_train // chunk))]
    jobs += [(69_000 + j, chunk, "val", folder) for j in range(max(1, n_val // chunk))]
    with mp.get_context("fork").Pool(workers) as pool:
        paths = pool.map(_job, jobs, chunksize=1)

    def load(split: str) -> list[Photo]:
        out: list[Photo] = []
        for p in paths:
            if f"-{split}-" in p.name:
                z = np.load(p)
                ends = np.cumsum(z["n"])
                out += [(x, z["boxes"][e - k:e]) for x, k, e in zip(z["x"], z["n"], ends, strict=True)]
        return out

    return load("train"), load("val")


def real_photos(folders: Sequence[Path]) -> list[Photo]:
    """The photos of ``folders`` whose CSV lists index boxes (:func:`vision.finder_bench.read_boxes`),
    each shrunk to :data:`vision.finder.LONG_SIDE` with its boxes."""
    out: list[Photo] = []
    for folder in folders:
        for photo in read_boxes(folder):
            img = cv2.imread(str(photo.path))
            if img is None:
                continue
            s = LONG_SIDE / max(img.shape[:2])
            img = cv2.resize(img, (round(img.shape[1] * s), round(img.shape[0] * s)), interpolation=cv2.INTER_AREA)
            out.append((img, photo.boxes * s))
    return out


def targets(shape: tuple[int, int], boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The heat map a photo of ``shape`` should give (a Gaussian round each box's middle, 1 at
    its cell), each middle's box size (log cells) and where a middle is."""
    gh, gw = shape[0] // STRIDE, shape[1] // STRIDE
    heat = np.zeros((gh, gw), np.float32)
    size = np.zeros((2, gh, gw), np.float32)
    mask = np.zeros((gh, gw), np.float32)
    ys, xs = np.mgrid[0:gh, 0:gw].astype(np.float32)
    for x0, y0, x1, y1 in boxes:
        cx, cy = (x0 + x1) / 2 / STRIDE, (y0 + y1) / 2 / STRIDE
        bw, bh = (x1 - x0) / STRIDE, (y1 - y0) / STRIDE
        if not (0 <= cx < gw and 0 <= cy < gh):
            continue
        sigma = max(0.7, min(bw, bh) / 5)
        heat = np.maximum(heat, np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * sigma * sigma)))
        ix, iy = int(cx), int(cy)
        heat[iy, ix] = 1.0
        size[:, iy, ix] = (math.log(max(bw, 0.5)), math.log(max(bh, 0.5)))
        mask[iy, ix] = 1.0
    return heat, size, mask


def augment(img: np.ndarray, boxes: np.ndarray, rng: np.random.Generator) -> Photo:
    """A :data:`CROP`-pixel square of ``img`` turned by quarter turns and scaled 0.6-1.5 (padded
    with a plain colour where the photo ends), seen in a little perspective, sometimes grey, with
    changed light, blur, noise and JPEG's blocks."""
    for _ in range(int(rng.integers(4))):  # quarter turns clockwise
        h = img.shape[0]
        img = cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE)
        x0, y0, x1, y1 = boxes.T
        boxes = np.stack([h - y1, x0, h - y0, x1], 1)
    s = math.exp(rng.uniform(math.log(0.6), math.log(1.5)))
    h, w = img.shape[:2]
    img = cv2.resize(img, (max(1, round(w * s)), max(1, round(h * s))), interpolation=cv2.INTER_AREA)
    boxes = boxes * s
    h, w = img.shape[:2]
    canvas = np.empty((max(h, CROP), max(w, CROP), 3), np.uint8)
    canvas[:] = rng.integers(0, 255, 3)
    canvas[:h, :w] = img
    x0, y0 = int(rng.integers(0, canvas.shape[1] - CROP + 1)), int(rng.integers(0, canvas.shape[0] - CROP + 1))
    out: np.ndarray = canvas[y0:y0 + CROP, x0:x0 + CROP].astype(np.float32)
    boxes = boxes - np.array([x0, y0, x0, y0], np.float32)
    # a camera looking at the table slantwise: the square's corners moved up to a tenth of its side
    square = np.array([[0, 0], [CROP, 0], [CROP, CROP], [0, CROP]], np.float32)
    tilt = cv2.getPerspectiveTransform(square, square + rng.uniform(-0.1, 0.1, (4, 2)).astype(np.float32) * CROP)
    out = cv2.warpPerspective(out, tilt, (CROP, CROP), borderMode=cv2.BORDER_REPLICATE)
    if len(boxes):
        corners = np.stack([boxes[:, [0, 1]], boxes[:, [2, 1]], boxes[:, [2, 3]], boxes[:, [0, 3]]], 1)
        pts = cv2.perspectiveTransform(corners.reshape(-1, 1, 2).astype(np.float32), tilt).reshape(-1, 4, 2)
        boxes = np.concatenate([pts.min(axis=1), pts.max(axis=1)], axis=1)
    if rng.random() < 0.3:
        out = np.repeat(out.mean(axis=2, keepdims=True), 3, axis=2)
    out = out * rng.uniform(0.6, 1.3) + rng.uniform(-30, 30)
    out = out * rng.uniform(0.85, 1.15, 3)
    if rng.random() < 0.3:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.5, 1.5))
    photo = np.clip(out + rng.normal(0, rng.uniform(0, 8), out.shape), 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        ok, jpeg = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(25, 90))])
        decoded = cv2.imdecode(jpeg, cv2.IMREAD_COLOR) if ok else None
        photo = photo if decoded is None else np.asarray(decoded, np.uint8)
    return photo, boxes


def focal_loss(out: torch.Tensor, heat: torch.Tensor, size: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """The heat map's focal loss (penalty-reduced near a middle) and the box sizes' L1 at the middles."""
    import torch
    from torch.nn import functional as F

    p = torch.sigmoid(out[:, 0]).clamp(1e-4, 1 - 1e-4)
    pos = (heat >= 1.0).float()
    lp = -(pos * (1 - p) ** 2 * torch.log(p)).sum()
    ln = -((1 - pos) * (1 - heat) ** 4 * p ** 2 * torch.log(1 - p)).sum()
    n = pos.sum().clamp(min=1)
    ls = (F.l1_loss(out[:, 1:], size, reduction="none").sum(1) * mask).sum() / n
    return (lp + ln) / n + 0.2 * ls


def marks_seen(net: FinderNet, img: np.ndarray, threshold: float) -> list[IndexMark]:
    """The marks ``net`` gives ``img``, prepared and read as :class:`vision.finder.IndexFinder` does."""
    import torch

    x, shown, to_image = finder_input(img)
    with torch.no_grad():
        maps = net(torch.from_numpy(x))[0].numpy()
    return marks_of(maps, shown, to_image, threshold)


def measure(net: FinderNet, photos: list[Photo], thresholds: tuple[float, ...] = (0.2, 0.3, 0.5)) -> dict[str, dict[str, float]]:
    """For each threshold: the share of boxes with a mark inside (found), the share of marks inside
    a box (precision), and marks a photo."""
    net.eval()
    out = {}
    for t in thresholds:
        boxes, found, marks, right = hit_counts([box_hits(marks_seen(net, img, t), bs) for img, bs in photos])
        out[str(t)] = {"found": round(found / max(boxes, 1), 4), "precision": round(right / max(marks, 1), 4),
                       "peaks_per_photo": round(marks / max(len(photos), 1), 2), "boxes": boxes}
    net.train()
    return out


def batches(photos: list[Photo], rng: np.random.Generator, size: int) -> Iterator[tuple[np.ndarray, list[np.ndarray]]]:
    while True:
        crops = [augment(*photos[int(rng.integers(len(photos)))], rng) for _ in range(size)]
        yield np.stack([c for c, _b in crops]), [b for _c, b in crops]


def train(photos: list[Photo], *, steps: int, seed: int, batch: int = 16) -> FinderNet:
    import torch

    from vision.train.model import FinderNet, nhwc_tensor, take_step

    rng = np.random.default_rng(seed)
    torch.manual_seed(seed)
    net = FinderNet()
    opt = torch.optim.AdamW(net.parameters(), 2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 3e-3, total_steps=steps, pct_start=0.1)
    t0 = time.time()
    for step, (x, bs) in zip(range(steps), batches(photos, rng, batch), strict=False):
        tg = [targets((CROP, CROP), b) for b in bs]
        out = net(nhwc_tensor(x))
        loss = focal_loss(out, *(torch.from_numpy(np.stack([t[k] for t in tg])) for k in range(3)))
        take_step(opt, sched, loss, step, steps)
        if step % 250 == 0 or step == steps - 1:
            print(f"step {step}: loss {loss.item():.3f} ({time.time() - t0:.0f} s)", flush=True)
    net.eval()
    return net


def export(net: FinderNet, path: Path) -> None:
    """Write ``net`` to ``path`` as ONNX taking photos of any height and width (multiples of 8)."""
    import torch

    torch.onnx.export(net.eval(), torch.zeros(1, 3, 240, 320), str(path), input_names=["photo"], output_names=["maps"],
                      dynamic_axes={"photo": {2: "h", 3: "w"}, "maps": {2: "gh", 3: "gw"}}, opset_version=17,
                      dynamo=False)


def keep_run(net: torch.nn.Module, path: Path, export: Callable[[Any, Path], None], facts: dict[str, object],
             started: float) -> None:
    """Keep a trained side network: its weights (``.pt``) and ONNX file (``path``, written by
    ``export``) and its ``facts`` with the run's minutes (``.json``) beside it; print the facts."""
    import torch

    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"state_dict": net.state_dict()}, path.with_suffix(".pt"))
    export(net, path)
    facts["minutes"] = round((time.time() - started) / 60, 1)
    path.with_suffix(".json").write_text(json.dumps(facts, indent=2) + "\n")
    print(json.dumps(facts), flush=True)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m vision.train.finder", description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True, help="folder for cards_finder.onnx and its figures")
    ap.add_argument("--cache", type=Path, default=Path("build/finder-data"), help="rendered photos (reused)")
    ap.add_argument("--photos", type=int, default=1_500, help="training photos to render")
    ap.add_argument("--val-photos", type=int, default=200)
    ap.add_argument("--steps", type=int, default=3_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--real", type=Path, nargs="*", default=[],
                    help="folders of real photos with index boxes (pegpi bench finder's form), to measure on, never to train on")
    args = ap.parse_args(argv)
    import torch

    torch.set_num_threads(args.threads)
    t0 = time.time()
    tr, va = build(args.cache, args.photos, args.val_photos, args.threads)
    print(f"data: {len(tr)} training, {len(va)} validation photos ({(time.time() - t0) / 60:.1f} min)", flush=True)
    net = train(tr, steps=args.steps, seed=args.seed)
    facts: dict[str, object] = {"file": FINDER_FILE, "long_side": LONG_SIDE, "stride": STRIDE,
                                "steps": args.steps, "seed": args.seed, "photos": len(tr),
                                "validation_renders": measure(net, va)}
    if args.real:
        facts["real_boxes"] = measure(net, real_photos(args.real))
    keep_run(net, args.out / FINDER_FILE, export, facts, t0)


if __name__ == "__main__":
    main()
