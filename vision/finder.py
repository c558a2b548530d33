"""Where a photo shows printed corner indices: the index finder network.

A card is read from the rank and suit printed in its corner, so an outline worth reading has an
index at one of its index corners. The finder (``cards_finder.onnx``, trained on rendered photos
alone by :mod:`vision.train.finder`) looks at the whole photo shrunk to :data:`LONG_SIDE` pixels
once, in a few milliseconds, and marks the middles of the indices it sees.
:func:`vision.recognize.recognize` then reads only the hypotheses with an index corner near a
mark, instead of every shape in the photo that could be a card.

The table pipeline never loads it: the mat's layout says where the cards are.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.api import CardClassifier
from vision.classify import side_network, side_session
from vision.model_input import to_tensor

FINDER_FILE = "cards_finder.onnx"
#: the long side, in pixels, of the photo as the finder sees it
LONG_SIDE = 320
#: the finder's maps have a cell for each STRIDE x STRIDE pixels of what it sees
STRIDE = 4
#: a cell is a mark when its heat reaches this and no neighbour's is higher: low, since a mark
#: only lets hypotheses be read (on the development photos 99.7 % of the printed indices have a
#: mark inside at 0.1; at 0.15, 98.8 %, and a card of the composed photos is lost; at 0.2, 97.3 %,
#: and a card of the real scenes too; see models/MODEL_CARD.md)
MARK_FROM = 0.1


@dataclass(frozen=True)
class IndexMark:
    """Where the finder sees the middle of a corner index, in the photo's pixels, how strongly
    (0..1), and the size of the index's upright box."""

    x: float
    y: float
    strength: float
    width: float
    height: float

    def box(self) -> np.ndarray:
        """The mark's upright box as four corners (4 x 2 float32): top-left, top-right,
        bottom-right, bottom-left."""
        x0, y0, x1, y1 = self.x - self.width / 2, self.y - self.height / 2, self.x + self.width / 2, self.y + self.height / 2
        return np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], np.float32)


def finder_input(image: np.ndarray) -> tuple[NDArray[np.float32], tuple[int, int], float]:
    """``image`` (BGR uint8) as the finder takes it: shrunk to :data:`LONG_SIDE` pixels long and
    padded to multiples of 8, ``[1, 3, H, W]`` in 0..1; the shrunk photo's height and width before
    the padding; and the photo's pixels per pixel the finder sees."""
    h, w = image.shape[:2]
    s = LONG_SIDE / max(h, w)
    small = cv2.resize(image, (max(8, round(w * s)), max(8, round(h * s))),
                       interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
    sh, sw = small.shape[:2]
    padded = cv2.copyMakeBorder(small, 0, -sh % 8, 0, -sw % 8, cv2.BORDER_REPLICATE)
    return to_tensor(padded[None]), (sh, sw), max(h, w) / LONG_SIDE


def marks_of(maps: NDArray[np.float32], shown: tuple[int, int], to_image: float, threshold: float) -> list[IndexMark]:
    """The marks of the finder's ``maps`` (``[3, H / 4, W / 4]``: middle logits, log box sizes) for
    a photo ``shown`` high and wide before its padding, strongest first: cells of heat at least
    ``threshold`` that no neighbour beats, in the photo's pixels (``to_image`` per pixel seen)."""
    heat = 1 / (1 + np.exp(-maps[0]))
    # cells of the padding are no part of the photo
    heat[-(-shown[0] // STRIDE):] = 0
    heat[:, -(-shown[1] // STRIDE):] = 0
    keep = (heat >= threshold) & (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8)))
    ys, xs = np.nonzero(keep)
    cell = STRIDE * to_image
    marks = [IndexMark((x + 0.5) * cell, (y + 0.5) * cell, float(heat[y, x]),
                       float(np.exp(maps[1, y, x])) * cell, float(np.exp(maps[2, y, x])) * cell)
             for y, x in zip(ys.tolist(), xs.tolist(), strict=True)]
    return sorted(marks, key=lambda m: -m.strength)


class IndexFinder:
    """The finder network loaded from ``path`` (an ONNX file taking a photo ``[1, 3, H, W]``,
    BGR in 0..1, and giving ``[1, 3, H / 4, W / 4]``: the logit of an index middle, then the log
    width and height of its box in cells)."""

    def __init__(self, path: Path, threads: int = 1) -> None:
        self.session = side_session(path, "an index finder", threads)
        self.input = self.session.get_inputs()[0].name

    def find(self, image: np.ndarray, threshold: float = MARK_FROM) -> list[IndexMark]:
        """The index middles seen in ``image`` (BGR uint8, any size), strongest first."""
        if image.ndim != 3 or image.shape[2] != 3 or min(image.shape[:2]) < 8:
            raise ValueError(f"the index finder needs a colour photo at least 8 px a side, not an array of shape {image.shape}")
        x, shown, to_image = finder_input(image)
        maps = np.asarray(self.session.run(None, {self.input: x})[0][0], np.float32)
        return marks_of(maps, shown, to_image, threshold)


def finder_for(classifier: CardClassifier) -> IndexFinder | None:
    """The index finder beside ``classifier``'s model (named by ``finder_model`` in its
    ``cards.json``), loaded once; None for a classifier without a model file or a model without one."""
    return side_network(classifier, "finder_model", "an index finder", IndexFinder)


# -- reading a mark ---------------------------------------------------------------------------

MARK_READER_FILE = "cards_mark.onnx"
#: the mark reader sees a square of MARK_PATCH pixels a side
MARK_PATCH = 48
#: ... spanning this many times the longer side of the mark's box: the index and a little round it
MARK_SIDE = 1.5
#: the wide mark reader (``cards_mark_wide.onnx``) sees a square WIDE_MARK_PATCH pixels a side
#: spanning WIDE_MARK_SIDE times the mark's box: the whole index when the finder marks its rank
#: or its suit alone
WIDE_MARK_FILE, WIDE_MARK_PATCH, WIDE_MARK_SIDE = "cards_mark_wide.onnx", 64, 2.25


def mark_patch(image: np.ndarray, x: float, y: float, side: float, quarter: int = 0, size: int = MARK_PATCH) -> np.ndarray:
    """The square of ``side`` pixels of ``image`` round (``x``, ``y``) sampled to ``size`` pixels a
    side (BGR uint8), turned so that its strongest straight lines (a card's edges, an index's
    strokes) run across and down, then ``quarter`` quarter turns anticlockwise; the photo's edge
    pixels repeat beyond it. So a mark reader sees an index one of four ways round whatever the
    card's angle in the photo."""
    n = max(2, round(side * 1.5))  # room for the turn's corners
    x0, y0 = round(x - n / 2), round(y - n / 2)
    h, w = image.shape[:2]
    pad = max(0, -x0, -y0, x0 + n - w, y0 + n - h)
    if pad:
        image = cv2.copyMakeBorder(image, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
        x0, y0 = x0 + pad, y0 + pad
    q = round(size * 1.5)
    window = cv2.resize(image[y0:y0 + n, x0:x0 + n], (q, q), interpolation=cv2.INTER_AREA if n > q else cv2.INTER_LINEAR)
    turn = square_turn(window[(q - size) // 2:(q + size) // 2, (q - size) // 2:(q + size) // 2])
    to = cv2.getRotationMatrix2D((q / 2, q / 2), turn + 90 * quarter, 1.0) - np.array([[0, 0, (q - size) / 2]] * 2)
    return cv2.warpAffine(window, to, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def square_turn(patch: np.ndarray) -> float:
    """The turn (degrees anticlockwise, -45 to 45) that brings the strongest straight lines of
    ``patch`` (BGR) upright or level: the mean of its gradients' directions, taken four times
    round so that lines at right angles agree, weighted by their strength."""
    grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY).astype(np.float32)
    gx, gy = cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1)
    strength = np.sqrt(gx * gx + gy * gy)
    angle = 4 * np.arctan2(gy, gx)
    return float(np.degrees(np.arctan2((strength * np.sin(angle)).sum(), (strength * np.cos(angle)).sum()) / 4))


class MarkReader:
    """The network that reads the card whose index lies at a finder's mark, loaded from ``path``
    (an ONNX file taking square patches ``[N, 3, size, size]``, BGR in 0..1, any way round, and
    giving a logit for each of the classifier's labels; ``unknown``: no index there); each patch
    spans ``side`` times the longer side of the mark's box (:func:`mark_patch`)."""

    def __init__(self, path: Path, threads: int = 1, side: float = MARK_SIDE) -> None:
        self.session = side_session(path, "a mark reader", threads)
        self.input = self.session.get_inputs()[0].name
        size = self.session.get_inputs()[0].shape[-1]
        #: the patch's side in pixels, as the network's file gives it
        self.size = size if isinstance(size, int) else MARK_PATCH
        self.side = side

    def probabilities(self, image: np.ndarray, marks: Sequence[IndexMark]) -> NDArray[np.float32]:
        """For each mark, the probability of each label (``[len(marks), labels]``)."""
        if not marks:
            return np.zeros((0, 0), np.float32)
        patches = np.stack([mark_patch(image, m.x, m.y, self.side * max(m.width, m.height), size=self.size)
                            for m in marks])
        logits = np.asarray(self.session.run(None, {self.input: to_tensor(patches)})[0], np.float32)
        e = np.exp(logits - logits.max(axis=1, keepdims=True))
        out: NDArray[np.float32] = e / e.sum(axis=1, keepdims=True)
        return out


def mark_reader_for(classifier: CardClassifier) -> MarkReader | None:
    """The mark reader beside ``classifier``'s model (named by ``mark_model`` in its
    ``cards.json``), loaded once; None without one."""
    return side_network(classifier, "mark_model", "a mark reader", MarkReader)


def _wide_reader(path: Path) -> MarkReader:
    return MarkReader(path, side=WIDE_MARK_SIDE)


def wide_mark_reader_for(classifier: CardClassifier) -> MarkReader | None:
    """The wide mark reader beside ``classifier``'s model (``wide_mark_model`` in its
    ``cards.json``; patches of :data:`WIDE_MARK_SIDE`), loaded once; None without one."""
    return side_network(classifier, "wide_mark_model", "a wide mark reader", _wide_reader)
