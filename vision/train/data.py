"""Training data: rendered cards through the camera model, made in worker processes.

Every *instance* (one card of one design, or one back, or one foreign card) is rendered once
and seen through the camera twice, so the embedding head can learn what makes an instance
itself (supervised contrastive loss on instance ids); ``unknown`` crops have instance ``-1``.
"""

from __future__ import annotations

import multiprocessing as mp
import os
from pathlib import Path

import cv2
import numpy as np

from vision.classify import LABELS
from vision.model_input import INPUT_H, INPUT_W, preprocess
from vision.render import CARD_IDS, RENDER_VERSION, render_card
from vision.render.cards import COURTS, PALETTE, card_alpha
from vision.render.fonts import pick_font
from vision.render.glyphs import paint, text_mask
from vision.render.photo import held_crop, motion_kernel, non_card_crop, table_crop

#: Designs of the training pool used for the calibration/validation split (never trained on).
VAL_DESIGNS = range(90_000, 100_000)
TRAIN_DESIGNS = range(0, 90_000)

LABEL_INDEX = {label: i for i, label in enumerate(LABELS)}

#: Instances in a row that share a design. Training batches take whole groups, so each card is
#: contrasted with other cards of its own deck (the task of enrolment: tell the cards of one
#: unfamiliar deck apart), not only with other decks.
DESIGN_GROUP = 8

#: The cards that are not courts (pips and jokers), for a data set that draws courts more often.
NOT_COURTS = tuple(c for c in CARD_IDS if c not in COURTS)
#: The default share of faces that are courts in the training data (``make_chunk(courts=...)``).
COURT_SHARE = 0.35


def cache_dir(root: Path, seed: int, held: float = 0.0, courts: float = 0.0) -> Path:
    """Where the data set of data seed ``seed`` is kept under ``root``: named by everything that
    changes what it holds (the renderer's version, ``held``, ``courts``), so that data made
    otherwise is never reused."""
    return root / (f"seed{seed}-r{RENDER_VERSION}" + (f"-held{round(held * 100)}" if held else "")
                   + (f"-courts{round(courts * 100)}" if courts else ""))


def face_label(rng: np.random.Generator, courts: float = 0.0) -> str:
    """A face to render: every one as likely (``courts`` 0), or a court with chance ``courts``."""
    if not courts:
        return CARD_IDS[int(rng.integers(54))]
    if rng.random() < courts:
        return COURTS[int(rng.integers(len(COURTS)))]
    return NOT_COURTS[int(rng.integers(len(NOT_COURTS)))]


def jitter(batch: np.ndarray, gain: float, offset: float) -> np.ndarray:
    """uint8 images with brightness and contrast changed, ``clip(v * gain + offset)`` truncated
    to uint8, through a 256-entry table: the same values as that sum over a float copy of the
    images, in a tenth of the time (about 30 ms of a training step of 256 crops before)."""
    table = np.clip(np.arange(256, dtype=np.float32) * np.float32(gain) + np.float32(offset), 0, 255).astype(np.uint8)
    flat = np.ascontiguousarray(batch).reshape(len(batch), -1)
    return cv2.LUT(flat, table).reshape(batch.shape)


def brighten(batch: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Half the training batches, by ``rng``, with a brightness and contrast of their own
    (:func:`jitter`, gain 0.8-1.15, offset -15-15): cheap variety on top of the rendered light."""
    if rng.random() < 0.5:
        return jitter(batch, rng.uniform(0.8, 1.15), rng.uniform(-15, 15))
    return batch


def half_size(batch: np.ndarray) -> np.ndarray:
    """uint8 NHWC images averaged down 2 times (each pixel the rounded mean of 2 x 2): the
    whole-card branch's input, made in uint8 by OpenCV for a training batch in a few ms, where
    the network's own average pool over a float batch in channels-last memory takes about 20 ms
    of a 0.3 s step. It differs from that pool's output by the rounding alone (at most 0.5/255)."""
    n, h, w = batch.shape[:3]
    out = np.empty((n, h // 2, w // 2, batch.shape[3]), np.uint8)
    for i in range(n):
        cv2.resize(batch[i], (w // 2, h // 2), dst=out[i], interpolation=cv2.INTER_AREA)
    return out


def reframe(batch: np.ndarray, rng: np.random.Generator, share: float) -> np.ndarray:
    """``batch`` (uint8 NHWC) with ``share`` of its crops framed anew: scaled by 0.95-1.05, turned
    by a degree or two and moved by up to 2 % of a side, the edge reflected into what the move
    uncovers; the rest as they were. Each rendered crop is seen about 8 times in training: without
    this always in the frame it was rendered in, and a card found a little off reads worse."""
    out = batch.copy()
    h, w = batch.shape[1:3]
    for i in np.flatnonzero(rng.random(len(batch)) < share):
        m: np.ndarray = cv2.getRotationMatrix2D((w / 2, h / 2), float(rng.normal(0, 1.5)), float(rng.uniform(0.95, 1.05)))
        m[:, 2] += rng.uniform(-0.02, 0.02, 2) * (w, h)
        cv2.warpAffine(batch[i], m, (w, h), dst=out[i], flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT_101)
    return out


#: the damages :func:`damaged` can do, by name
DAMAGES = ("motion", "focus", "grey", "dim-noisy", "jpeg")
#: those taught unless told otherwise (grey has a network of its own, :mod:`vision.train.grey`)
TAUGHT = ("motion", "focus", "dim-noisy", "jpeg")


def damaged(crop: np.ndarray, rng: np.random.Generator, kinds: tuple[str, ...] = TAUGHT) -> np.ndarray:
    """``crop`` (uint8 BGR at the network's input size) with one or two of ``kinds`` done to it:
    smeared 4-9 px along any direction, out of focus by 1-2.5 px, without colour, dimmed (gamma
    1.3-2.0) with sensor noise of 5-15 levels, or saved as a JPEG of quality 20-44."""
    out = crop
    for kind in rng.choice(np.array(kinds), size=min(len(kinds), int(rng.integers(1, 3))), replace=False):
        if kind == "motion":
            out = cv2.filter2D(out, -1, motion_kernel(int(rng.integers(4, 10)), float(rng.uniform(0, 180))))
        elif kind == "focus":
            out = cv2.GaussianBlur(out, (0, 0), float(rng.uniform(1.0, 2.5)))
        elif kind == "grey":
            out = cv2.cvtColor(cv2.cvtColor(out, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
        elif kind == "dim-noisy":
            dim = 255.0 * (out / 255.0) ** rng.uniform(1.3, 2.0) + rng.normal(0, rng.uniform(5, 15), out.shape)
            out = np.clip(dim, 0, 255).astype(np.uint8)
        else:
            ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(20, 45))])
            saved = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
            if saved is not None:
                out = saved
    return out


def damage(batch: np.ndarray, rng: np.random.Generator, share: float, kinds: tuple[str, ...] = TAUGHT) -> None:
    """Damages ``share`` of the crops of ``batch`` (uint8 NHWC, changed in place) as
    :func:`damaged` does, the rest left as they are."""
    for i in np.flatnonzero(rng.random(len(batch)) < share):
        batch[i] = damaged(batch[i], rng, kinds)


def foreign_card(rng: np.random.Generator, px_per_mm: float) -> np.ndarray:
    """A card of some other game (symbols that are not French suits, other corner marks): BGRA.
    The classifier must not read it as a French card."""
    k = px_per_mm
    W, H = int(63 * k), int(88 * k)
    canvas = np.empty((H, W, 3), np.float32)
    canvas[:] = rng.uniform(200, 255, 3) if rng.random() < 0.7 else rng.uniform(30, 255, 3)
    ink = np.asarray(PALETTE[int(rng.integers(len(PALETTE)))], np.float32)
    kind = int(rng.integers(3))
    if kind == 0:  # big central symbol
        pts = []
        n = int(rng.integers(3, 9))
        for i in range(n * 2):
            r = (0.35 if i % 2 == 0 else rng.uniform(0.1, 0.35)) * W
            a = i * np.pi / n
            pts.append((W / 2 + r * np.cos(a), H / 2 + r * np.sin(a)))
        cv2.fillPoly(canvas, [np.array(pts, np.int32)], ink.tolist(), cv2.LINE_AA)
    elif kind == 1:  # a big number in an oval
        cv2.ellipse(canvas, (W // 2, H // 2), (int(W * 0.4), int(H * 0.3)), 30, 0, 360, ink.tolist(), -1, cv2.LINE_AA)
        m = text_mask(str(int(rng.integers(0, 13))), pick_font(rng, False), H * 0.25)
        paint(canvas, m, W / 2 - m.shape[1] / 2, H / 2 - m.shape[0] / 2, (250, 250, 250))
    else:  # picture-like blobs
        for _ in range(int(rng.integers(3, 10))):
            col = np.asarray(PALETTE[int(rng.integers(len(PALETTE)))], np.float32).tolist()
            cv2.circle(canvas, (int(rng.uniform(0.2, 0.8) * W), int(rng.uniform(0.2, 0.8) * H)),
                       int(rng.uniform(0.05, 0.25) * W), col, -1, cv2.LINE_AA)
    if rng.random() < 0.6:  # corner marks that are not rank + French suit
        text = rng.choice(["+2", "0", "X", "?", "*", "S", "12", "20", "11", "1"])
        m = text_mask(str(text), pick_font(rng, False), rng.uniform(5, 9) * k)
        paint(canvas, m, 3 * k, 3 * k, ink)
        paint(canvas, m, 3 * k, 3 * k, ink, rotate180=True)
    out = np.clip(canvas, 0, 255).astype(np.uint8)
    return np.dstack([out, card_alpha(H, W, 3 * k)])


def make_chunk(seed: int, n_instances: int, designs: range | tuple[int, ...], held: float = 0.0,
               courts: float = 0.0) -> dict[str, np.ndarray]:
    """``2 * n_instances`` preprocessed crops (uint8 NHWC), labels, instance ids and ``hidden``
    flags. With ``held`` > 0 that share of the card views comes out of a fan held in the hand or
    a row spread on the table, half each (only the index strip in sight:
    :func:`vision.render.photo.held_crop`), flagged ``hidden``. With ``courts`` > 0 that share
    of the faces are courts (0: every face as likely, 12 of 54): a court shows its suit only in
    its index and by its figure's head, so courts need more examples than pip cards."""
    rng = np.random.default_rng([seed, 2024])
    xs = np.empty((2 * n_instances, INPUT_H, INPUT_W, 3), np.uint8)
    ys = np.empty(2 * n_instances, np.int16)
    inst = np.empty(2 * n_instances, np.int64)
    hidden = np.zeros(2 * n_instances, np.bool_)  # only the index shows: for the corner head alone
    design = 0
    for i in range(n_instances):
        r = rng.random()
        if i % DESIGN_GROUP == 0:  # a run of instances share a design: hard negatives for the embedding
            design = int(designs[int(rng.integers(len(designs)))])
        phone = rng.random() < 0.12
        k = 4.5 if phone else 3.0
        low, high = (2.7, 5.0) if phone else (1.4, 2.7)

        def ppm(low: float = low, high: float = high) -> float:
            return float(rng.uniform(low, high))

        iid = seed * 1_000_000 + i
        if r < 0.13:  # unknown: no card to read
            for v in range(2):
                others: list[np.ndarray] = []
                if rng.random() < 0.35:
                    others = [render_card(CARD_IDS[int(rng.integers(54))], design, px_per_mm=2.5, alpha=True)
                              for _ in range(2)]
                xs[2 * i + v] = preprocess(non_card_crop(rng, px_per_mm=ppm(), faces=others))
                ys[2 * i + v] = LABEL_INDEX["unknown"]
                inst[2 * i + v] = -1
            continue
        if r < 0.16:
            face, label = foreign_card(rng, k), "unknown"
        elif r < 0.23:
            face, label = render_card("back", design, px_per_mm=k, rng=rng, alpha=True), "back"
        else:
            label = face_label(rng, courts)
            face = render_card(label, design, px_per_mm=k, rng=rng, alpha=True)
        for v in range(2):
            if held and label not in ("unknown", "back") and rng.random() < held:
                covers = [render_card(CARD_IDS[int(rng.integers(54))], design, px_per_mm=2.5, alpha=True)
                          for _ in range(int(rng.integers(1, 4)))]
                xs[2 * i + v] = preprocess(held_crop(face, covers, rng, px_per_mm=ppm(),
                                                     strength=float(rng.uniform(0.3, 1.3)),
                                                     row=bool(rng.random() < 0.5)))
                ys[2 * i + v] = LABEL_INDEX[label]
                inst[2 * i + v] = iid
                hidden[2 * i + v] = True
                continue
            occ = None
            if rng.random() < 0.08:
                occ = render_card(CARD_IDS[int(rng.integers(54))], design, px_per_mm=2.5, alpha=True)
            crop = table_crop(face, rng, px_per_mm=ppm(), occluder=occ, strength=float(rng.uniform(0.3, 1.3)))
            xs[2 * i + v] = preprocess(crop)
            ys[2 * i + v] = LABEL_INDEX[label]
            inst[2 * i + v] = iid
    return {"x": xs, "y": ys, "inst": inst, "hidden": hidden}


def _job(args: tuple[int, int, str, Path, float, float]) -> Path:
    seed, n, split, folder, held, courts = args
    path = folder / f"{split}-{seed}.npz"
    if not path.exists():
        cv2.setNumThreads(1)
        chunk = make_chunk(seed, n, VAL_DESIGNS if split == "val" else TRAIN_DESIGNS, held, courts)
        tmp = path.with_suffix(".tmp.npz")
        np.savez(tmp, x=chunk["x"], y=chunk["y"], inst=chunk["inst"], hidden=chunk["hidden"])
        os.replace(tmp, path)
    return path


def build(folder: Path, seed: int, n_train: int, n_val: int, chunk: int = 500, workers: int = 2,
          held: float = 0.0, courts: float = 0.0) -> tuple[list[Path], list[Path]]:
    """Make (or reuse) the chunks of a data set: ``n_train``/``n_val`` instances (2 crops each;
    ``n_val`` 0: no validation chunks)."""
    folder.mkdir(parents=True, exist_ok=True)
    jobs = [(seed * 10_000 + j, chunk, "train", folder, held, courts) for j in range(n_train // chunk)]
    jobs += [(seed * 10_000 + 9_000 + j, chunk, "val", folder, held, courts) for j in range(max(1, n_val // chunk) if n_val else 0)]
    with mp.get_context("fork").Pool(workers) as pool:
        paths = pool.map(_job, jobs, chunksize=1)
    train = [p for p in paths if p.name.startswith("train")]
    val = [p for p in paths if p.name.startswith("val")]
    return train, val


def load(paths: list[Path]) -> dict[str, np.ndarray]:
    """Concatenate chunks into arrays allocated once (peak memory: the data set plus one chunk,
    not twice the data set: three data seeds are about 10 GB of crops)."""
    out: dict[str, np.ndarray] = {}
    pos = 0
    for i, path in enumerate(paths):
        with np.load(path) as part:
            if i == 0:
                n = len(part["y"])
                total = n * len(paths)  # every chunk of a build has the same size; checked below
                out = {k: np.empty((total,) + part[k].shape[1:], part[k].dtype) for k in part.files}
            m = len(part["y"])
            if pos + m > len(out["y"]):
                raise ValueError(f"chunk {path} is larger than the first one")
            for k in part.files:
                out[k][pos:pos + m] = part[k]
            pos += m
    return {k: v[:pos] for k, v in out.items()}
