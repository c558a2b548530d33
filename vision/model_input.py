"""A card crop as the card model sees it: resized to 128 x 176 BGR ``uint8`` (2 px/mm for a
63 x 88 mm card), turned, moved, and made the network's float tensor.

Shared by the classifier, enrolment and training, so each prepares crops the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeAlias

import cv2
import numpy as np
from numpy.typing import NDArray

#: Model input: the whole crop resized to 128 x 176 (2 px/mm for a 63 x 88 mm card).
INPUT_W, INPUT_H = 128, 176

#: Moves (dx, dy in model pixels; 3 px = 1.5 mm) at which an unsure crop is read again: the
#: reading of a blurred or oddly drawn card shifts with where its signs fall on the network's grid.
SHIFTS: tuple[tuple[int, int], ...] = ((3, 0), (-3, 0), (0, 3), (0, -3))

#: A BGR ``uint8`` image or batch of them (OpenCV's arrays, whose dtype its stubs leave open).
Image: TypeAlias = np.ndarray


def preprocess(crop: Image, out: Image | None = None) -> Image:
    """A crop as the model sees it: BGR uint8 ``(176, 128, 3)`` (written into ``out`` if given)."""
    if crop.ndim == 2:
        crop = cv2.cvtColor(crop, cv2.COLOR_GRAY2BGR)
    elif crop.shape[2] == 4:
        crop = crop[..., :3]
    h, w = crop.shape[:2]
    if (h, w) == (INPUT_H, INPUT_W) and crop.flags.c_contiguous:
        if out is None:
            return crop
        out[...] = crop
        return out
    # shrinking averages pixels (no aliasing); growing interpolates
    interp = cv2.INTER_AREA if (h > INPUT_H or w > INPUT_W) else cv2.INTER_LINEAR
    resized: Image = cv2.resize(crop, (INPUT_W, INPUT_H), dst=out, interpolation=interp)
    return resized


def preprocess_batch(crops: Sequence[Image]) -> Image:
    """Crops as the model sees them, ``(N, 176, 128, 3)`` uint8, in one array made once."""
    batch = np.empty((len(crops), INPUT_H, INPUT_W, 3), np.uint8)
    for i, c in enumerate(crops):
        preprocess(c, batch[i])
    return batch


def half_turned(batch: Image) -> Image:
    """Preprocessed crops turned 180 degrees (the other corner index on top)."""
    out = np.empty_like(batch)
    for i in range(len(batch)):
        cv2.flip(batch[i], -1, dst=out[i])
    return out


def suit_rows(batch: Image, middle: NDArray[np.bool_], height: int) -> Image:
    """The ``height`` rows of each preprocessed crop a suit network reads: its top, where the
    corner index and a court's suit sign print, or where ``middle`` its middle rows (an ace's one
    large pip). A copy, whatever the batch."""
    top = (batch.shape[1] - height) // 2
    out = batch[:, :height].copy()  # always a copy: one crop's top is already contiguous, a view
    out[middle] = batch[middle, top:top + height]
    return out


def shifted(batch: Image, moves: Sequence[tuple[int, int]]) -> list[Image]:
    """Preprocessed crops moved by each ``(dx, dy)`` of ``moves`` (right and down), the edge
    pixels carried into the gap: views of one edge-padded copy of the batch."""
    pad = max((max(abs(dx), abs(dy)) for dx, dy in moves), default=0)
    padded = np.pad(batch, ((0, 0), (pad, pad), (pad, pad), (0, 0)), mode="edge")
    return [padded[:, pad - dy:pad - dy + INPUT_H, pad - dx:pad - dx + INPUT_W] for dx, dy in moves]


#: a patch is stretched to span 0..255 from its STRETCH_FROM-th to its (100 - STRETCH_FROM)-th
#: percentile of grey, but over STRETCH_LEAST levels at least (a flat patch of table keeps its calm)
STRETCH_FROM, STRETCH_LEAST = 2.0, 48.0


def stretched(batch: Image) -> Image:
    """Each image of ``batch`` (uint8, ``(..., h, w, 3)``, any leading shape) with its contrast
    stretched (:data:`STRETCH_FROM`): print in shadow or dim light, faint to a network, shows plainly."""
    flat = batch.reshape(-1, int(np.prod(batch.shape[-3:]))).astype(np.float32)
    low, high = np.percentile(flat, (STRETCH_FROM, 100 - STRETCH_FROM), axis=1)
    span = np.maximum(high - low, STRETCH_LEAST)
    out = (flat - low[:, None]) * (255 / span)[:, None]
    result: Image = np.clip(out, 0, 255).astype(np.uint8).reshape(batch.shape)
    return result


def to_tensor(batch: Image) -> NDArray[np.float32]:
    """uint8 NHWC -> float32 NCHW in 0..1 (converted a channel at a time, which copies in runs
    rather than element by element, then scaled in place)."""
    n, h, w, c = batch.shape
    out = np.empty((n, c, h, w), np.float32)
    for k in range(c):
        out[:, k] = batch[..., k]
    out *= np.float32(1 / 255)
    return out
