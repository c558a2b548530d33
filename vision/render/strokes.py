"""A tiny stroke font for card indices (A, 2-10, J, Q, K and the letters of JOKER).

Glyphs are polylines on a unit box (x right, y down, cap height 1, width ~0.62). Three styles
change the pen (round, square, thin-thick) so that indices drawn by line do not all look alike.
"""

from __future__ import annotations

import math

import cv2
import numpy as np


def _arc(cx: float, cy: float, rx: float, ry: float, a0: float, a1: float, n: int = 14) -> list[tuple[float, float]]:
    return [
        (cx + rx * math.cos(math.radians(a0 + (a1 - a0) * i / (n - 1))),
         cy + ry * math.sin(math.radians(a0 + (a1 - a0) * i / (n - 1))))
        for i in range(n)
    ]


_W = 0.62
GLYPHS: dict[str, list[list[tuple[float, float]]]] = {
    "A": [[(0.0, 1.0), (_W / 2, 0.0), (_W, 1.0)], [(0.12, 0.64), (_W - 0.12, 0.64)]],
    "1": [[(0.12, 0.2), (0.34, 0.0), (0.34, 1.0)]],
    "2": [_arc(0.31, 0.3, 0.29, 0.28, 200, 360) + [(0.0, 1.0), (_W, 1.0)]],
    "3": [_arc(0.3, 0.26, 0.27, 0.24, 200, 450), _arc(0.3, 0.73, 0.31, 0.27, 270, 520)],
    "4": [[(0.48, 1.0), (0.48, 0.0), (0.0, 0.7), (_W, 0.7)]],
    "5": [[(0.58, 0.0), (0.08, 0.0), (0.04, 0.45)] + _arc(0.3, 0.68, 0.3, 0.3, 235, 500)],
    "6": [_arc(0.31, 0.7, 0.29, 0.29, 0, 360, 20) + _arc(0.6, 0.55, 0.6, 0.55, 180, 265, 10)],
    "7": [[(0.0, 0.0), (_W, 0.0), (0.2, 1.0)]],
    "8": [_arc(0.31, 0.25, 0.24, 0.24, 0, 360, 18), _arc(0.31, 0.73, 0.3, 0.27, 0, 360, 20)],
    "9": [_arc(0.31, 0.3, 0.29, 0.29, 0, 360, 20) + _arc(0.0, 0.45, 0.6, 0.55, 0, 85, 10)],
    "0": [_arc(0.31, 0.5, 0.3, 0.5, 0, 360, 24)],
    "J": [[(0.55, 0.0), (0.55, 0.7)] + _arc(0.3, 0.7, 0.25, 0.3, 0, 170, 10)],
    "Q": [_arc(0.31, 0.5, 0.31, 0.5, 0, 360, 24), [(0.38, 0.72), (0.66, 1.05)]],
    "K": [[(0.0, 0.0), (0.0, 1.0)], [(_W, 0.0), (0.0, 0.6)], [(0.18, 0.45), (_W, 1.0)]],
    "O": [_arc(0.31, 0.5, 0.31, 0.5, 0, 360, 24)],
    "E": [[(_W, 0.0), (0.0, 0.0), (0.0, 1.0), (_W, 1.0)], [(0.0, 0.5), (0.5, 0.5)]],
    "R": [[(0.0, 1.0), (0.0, 0.0), (0.35, 0.0)] + _arc(0.35, 0.26, 0.26, 0.26, 270, 450) + [(0.0, 0.52)],
          [(0.3, 0.52), (_W, 1.0)]],
}


def stroke_text_mask(text: str, style: int, height: int) -> np.ndarray:
    """A float32 mask (0..1) of ``text`` drawn with the stroke font, ``height`` px of ink."""
    scale = 4
    h = height * scale
    pen = max(1, int(round(h * (0.13, 0.18, 0.09)[style % 3])))
    slant = (0.0, 0.12, 0.0)[style % 3]
    advance = 0.78 if style % 3 != 1 else 0.74
    pad = pen * 2
    width = int((len(text) * advance + 0.3) * h) + 2 * pad
    canvas: np.ndarray = np.zeros((h + 2 * pad, width), np.uint8)
    x = 0.0
    for ch in text:
        for stroke in GLYPHS.get(ch, []):
            pts = np.array([[pad + (x + px + slant * (1 - py)) * h, pad + py * h] for px, py in stroke])
            cv2.polylines(canvas, [np.round(pts).astype(np.int32)], False, 255, pen,
                          cv2.LINE_AA if style % 3 != 1 else cv2.LINE_8)
        x += advance
    if style % 3 == 2:  # thin-thick pen: thicken verticals
        canvas = cv2.dilate(canvas, np.ones((1, max(1, pen // 2)), np.uint8))
    ys, xs = np.nonzero(canvas > 20)
    if len(xs) == 0:
        return np.zeros((height, 1), np.float32)
    canvas = canvas[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1]
    out_w = max(1, int(round(canvas.shape[1] * height / canvas.shape[0])))
    return cv2.resize(canvas, (out_w, height), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0
