"""Masks for index text and suit symbols, and painting them on a card.

A mask is a float32 array in 0..1 cropped to its ink. Suits are drawn procedurally from a few
shape parameters (lobe size, point depth, stem flare...), so every design has its own pips; or,
for some training designs, taken from a symbol font (:mod:`vision.render.suitfonts`).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from vision.render.fonts import FontFace
from vision.render.strokes import stroke_text_mask
from vision.render.suitfonts import SUIT_CHARS, face_path

_BIG = 128  # px of cap height for the master rendering of a text


def _crop(mask: np.ndarray) -> np.ndarray:
    ys, xs = np.nonzero(mask > 0.08)
    if len(xs) == 0:
        return np.zeros((1, 1), np.float32)
    return mask[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1]


@functools.lru_cache(maxsize=4096)
def _master_text(text: str, face: FontFace, tracking: float) -> np.ndarray:
    if face.kind == "ttf":
        font = ImageFont.truetype(face.path, _BIG)
        parts = []
        for ch in text:
            left, top, right, bottom = font.getbbox(ch)
            img = Image.new("L", (int(right - left + 8), int(bottom - top + 8)), 0)
            ImageDraw.Draw(img).text((4 - left, 4 - top), ch, fill=255, font=font)
            parts.append(np.asarray(img, np.float32) / 255.0)
        return _join(parts, tracking)
    if face.kind == "hershey":
        parts = []
        for ch in text:
            scale = 4.0
            thick = 9
            (w, h), base = cv2.getTextSize(ch, face.hershey, scale, thick)
            glyph = np.zeros((h + base + 40, w + 40), np.uint8)
            cv2.putText(glyph, ch, (20, h + 20), face.hershey, scale, 255, thick, cv2.LINE_AA)
            parts.append(glyph.astype(np.float32) / 255.0)
        return _join(parts, tracking)
    return stroke_text_mask(text, face.stroke, _BIG)


def _join(parts: list[np.ndarray], tracking: float) -> np.ndarray:
    """Set characters side by side on a common baseline-free box (each cropped, bottoms aligned)."""
    crops = [_crop(p) for p in parts]
    height = max(c.shape[0] for c in crops)
    gap = int(round(tracking * height))
    width = sum(c.shape[1] for c in crops) + gap * (len(crops) - 1)
    out = np.zeros((height, max(width, 1)), np.float32)
    x = 0
    for c in crops:
        y = height - c.shape[0]
        # letters like J/Q may dip or rise; centre anything much shorter (e.g. a dash)
        if c.shape[0] < 0.6 * height:
            y = (height - c.shape[0]) // 2
        out[y: y + c.shape[0], x: x + c.shape[1]] = np.maximum(out[y: y + c.shape[0], x: x + c.shape[1]], c)
        x += c.shape[1] + gap
    return out


def text_mask(text: str, face: FontFace, height: float, *, condense: float = 1.0, tracking: float = 0.06,
              bold: int = 0) -> np.ndarray:
    """``text`` in ``face`` scaled to ``height`` px of ink (width scaled by ``condense``)."""
    master = _master_text(text, face, round(tracking, 3))
    h = max(2, int(round(height)))
    w = max(1, int(round(master.shape[1] * h / master.shape[0] * condense)))
    mask = cv2.resize(master, (w, h), interpolation=cv2.INTER_AREA)
    if bold > 0:
        k = 2 * bold + 1
        mask = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    return mask


def _bezier(*points: tuple[float, float], n: int = 16) -> list[tuple[float, float]]:
    """``n`` points along the Bezier curve of ``points`` (3: quadratic, 4: cubic)."""
    t = np.linspace(0, 1, n)[:, None]
    k = len(points) - 1
    pts = sum(math.comb(k, i) * (1 - t) ** (k - i) * t ** i * np.array(p) for i, p in enumerate(points))
    return [tuple(p) for p in pts]


def _heart(canvas: np.ndarray, s: int, p: tuple[float, ...]) -> None:
    lobe, depth, bulge = p[0], p[1], p[2]
    r = lobe * s
    cy = r + 0.02 * s
    cx_l, cx_r = 0.5 * s - 0.85 * r, 0.5 * s + 0.85 * r
    tip = (0.5 * s, depth * s)
    left = (cx_l - r * 0.97, cy + r * 0.25)
    right = (cx_r + r * 0.97, cy + r * 0.25)
    pts = [left] + _bezier(left, (left[0] + bulge * s, tip[1] - (tip[1] - left[1]) * 0.35), tip) + \
        _bezier(tip, (right[0] - bulge * s, tip[1] - (tip[1] - right[1]) * 0.35), right)[1:] + [(0.5 * s, cy)]
    cv2.fillPoly(canvas, [np.round(np.array(pts, np.float32)).astype(np.int32)], 255, cv2.LINE_AA)
    for cx in (cx_l, cx_r):
        cv2.circle(canvas, (int(cx), int(cy)), int(r), 255, -1, cv2.LINE_AA)


def _stem(canvas: np.ndarray, s: int, top: float, width: float, flare: float, curve: float) -> None:
    y0, y1 = top * s, 0.99 * s
    lt, rt = (0.5 * s - width * s, y0), (0.5 * s + width * s, y0)
    lb, rb = (0.5 * s - flare * s, y1), (0.5 * s + flare * s, y1)
    pts = _bezier(lt, (0.5 * s - width * s * (1 - curve), (y0 + y1) / 2 + curve * s * 0.1), lb) + \
        _bezier(rb, (0.5 * s + width * s * (1 - curve), (y0 + y1) / 2 + curve * s * 0.1), rt)
    cv2.fillPoly(canvas, [np.round(np.array(pts)).astype(np.int32)], 255, cv2.LINE_AA)


def _spade(canvas: np.ndarray, s: int, p: tuple[float, ...]) -> None:
    """A spade as printed decks draw it: a pointed tip whose sides swell out to two round lobes,
    and a short stem that flares into a foot. ``p``: lobe radius, how low the lobes sit, how
    much the sides swell, stem width, foot width, stem length (the last three 0..1)."""
    r = (0.175 + 0.5 * (p[0] - 0.23)) * s  # 0.175 .. 0.195 of the canvas
    yc = (0.42 + 0.6 * (p[1] - 0.82)) * s  # lobe centres, 0.42 .. 0.52
    swell = (p[2] + 0.06) / 0.14  # 0..1
    half = 0.41 * s
    tip = (0.5 * s, 0.005 * s)
    left, right = (0.5 * s - half, yc), (0.5 * s + half, yc)
    # the fuller the sides, the blunter the tip: from a sharp point with straight shoulders to
    # a broad one with round shoulders
    out, drop = (0.10 + 0.12 * swell) * s, (0.13 + 0.05 * swell) * s
    reach = (0.20 + 0.10 * swell) * s  # at least the lobe radius, or the shoulder dents
    side_l = _bezier(tip, (tip[0] - out, tip[1] + drop), (left[0], left[1] - reach), left, n=24)
    side_r = _bezier(right, (right[0], right[1] - reach), (tip[0] + out, tip[1] + drop), tip, n=24)
    pts = side_l + [(0.5 * s, yc + 0.7 * r)] + side_r
    cv2.fillPoly(canvas, [np.round(np.array(pts)).astype(np.int32)], 255, cv2.LINE_AA)
    for cx in (left[0] + r, right[0] - r):
        cv2.circle(canvas, (int(round(cx)), int(round(yc))), int(round(r)), 255, -1, cv2.LINE_AA)
    foot = min(0.99, (yc + r) / s + 0.12 + 0.14 * p[5])
    y0, y1 = yc / s, foot
    w, flare = (0.022 + 0.03 * p[3]) * s, (0.10 + 0.08 * p[4]) * s
    stem = _bezier((0.5 * s - w, y0 * s), (0.5 * s - w, (0.3 * y0 + 0.7 * y1) * s), (0.5 * s - flare, y1 * s)) + \
        _bezier((0.5 * s + flare, y1 * s), (0.5 * s + w, (0.3 * y0 + 0.7 * y1) * s), (0.5 * s + w, y0 * s))
    cv2.fillPoly(canvas, [np.round(np.array(stem)).astype(np.int32)], 255, cv2.LINE_AA)


@functools.lru_cache(maxsize=512)
def _master_suit(suit: str, params: tuple[float, ...]) -> np.ndarray:
    s = 240
    c = np.zeros((s, s), np.uint8)
    if suit == "H":
        _heart(c, s, params[:3])
    elif suit == "S":
        _spade(c, s, params)
    elif suit == "D":
        aspect, concave = params[0], params[1]
        hw = 0.5 * s * aspect
        top, right, bottom, left = (0.5 * s, 0.0), (0.5 * s + hw, 0.5 * s), (0.5 * s, s - 1.0), (0.5 * s - hw, 0.5 * s)
        mid = (0.5 * s, 0.5 * s)

        def side(a: tuple[float, float], b: tuple[float, float]) -> list[tuple[float, float]]:
            m = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            ctrl = (m[0] + (mid[0] - m[0]) * concave, m[1] + (mid[1] - m[1]) * concave)
            return _bezier(a, ctrl, b)

        pts = side(top, right) + side(right, bottom) + side(bottom, left) + side(left, top)
        cv2.fillPoly(c, [np.round(np.array(pts)).astype(np.int32)], 255, cv2.LINE_AA)
    else:  # clubs
        r = params[0] * s
        spread = params[1]
        cv2.circle(c, (int(0.5 * s), int(r + 1)), int(r), 255, -1, cv2.LINE_AA)
        yl = r + 1 + spread * r * 1.6
        for cx in (0.5 * s - spread * r * 1.15, 0.5 * s + spread * r * 1.15):
            cv2.circle(c, (int(cx), int(yl)), int(r), 255, -1, cv2.LINE_AA)
        tri = np.array([[0.5 * s, r], [0.5 * s - r * 0.6, yl], [0.5 * s + r * 0.6, yl]])
        cv2.fillPoly(c, [np.round(tri).astype(np.int32)], 255, cv2.LINE_AA)
        # the stem starts inside the side lobes: starting below them leaves a notch of paper
        # between the lobes and the stem, which no printed club has
        _stem(c, s, min(0.8, yl / s), 0.03 + 0.03 * params[2], 0.09 + 0.09 * params[3], params[4])
    return _crop(c.astype(np.float32) / 255.0)


@functools.lru_cache(maxsize=64)
def _master_font_suit(suit: str, face: str) -> np.ndarray:
    """The filled suit symbol of a symbol font (:mod:`vision.render.suitfonts`), cropped."""
    font = ImageFont.truetype(face_path(face), _BIG * 2)
    ch = SUIT_CHARS[suit]
    left, top, right, bottom = font.getbbox(ch)
    img = Image.new("L", (int(right - left + 8), int(bottom - top + 8)), 0)
    ImageDraw.Draw(img).text((4 - left, 4 - top), ch, fill=255, font=font)
    return _crop(np.asarray(img, np.float32) / 255.0)


def suit_mask(suit: str, params: tuple[float, ...], height: float, *, aspect: float = 1.0,
              font: str = "") -> np.ndarray:
    """A pip of ``suit`` (S/H/D/C) drawn with the design's shape ``params``, ``height`` px tall;
    or, given a ``font`` (a :func:`vision.render.suitfonts.face_names` name), that font's symbol."""
    master = _master_font_suit(suit, font) if font else _master_suit(suit, params)
    h = max(2, int(round(height)))
    w = max(2, int(round(master.shape[1] * h / master.shape[0] * aspect)))
    return cv2.resize(master, (w, h), interpolation=cv2.INTER_AREA)


def random_suit_params(suit: str, rng: np.random.Generator) -> tuple[float, ...]:
    """Shape parameters for one design's pips of ``suit``."""
    if suit in "HS":
        return (round(float(rng.uniform(0.23, 0.27)), 3), round(float(rng.uniform(0.82, 0.98)), 3),
                round(float(rng.uniform(-0.06, 0.08)), 3), round(float(rng.uniform(0, 1)), 3),
                round(float(rng.uniform(0, 1)), 3), round(float(rng.uniform(0, 1)), 3))
    if suit == "D":
        return (round(float(rng.uniform(0.62, 0.86)), 3), round(float(rng.uniform(-0.05, 0.22)), 3))
    # clubs: lobe radius, then how far the lobes spread, from compact trefoils whose lobes overlap
    # (as many commercial decks print them) to three round lobes apart; the side lobes stay inside
    lobe = float(rng.uniform(0.17, 0.26))
    spread = 0.62 + float(rng.uniform(0, 1)) * (min(1.0, (0.5 / lobe - 1) / 1.15) - 0.62)
    return (round(lobe, 3), round(spread, 3),
            round(float(rng.uniform(0, 1)), 3), round(float(rng.uniform(0, 1)), 3), round(float(rng.uniform(0, 1)), 3))


def paint(canvas: np.ndarray, mask: np.ndarray, x: float, y: float, color: Sequence[float] | np.ndarray,
          *, rotate180: bool = False) -> None:
    """Blend ``color`` through ``mask`` into ``canvas`` (float32 HxWx3) with top-left at (x, y).

    With ``rotate180`` the mask is turned and placed at the point symmetric about the centre,
    i.e. where a card's bottom-right index goes."""
    H, W = canvas.shape[:2]
    if rotate180:
        mask = mask[::-1, ::-1]
        x = W - x - mask.shape[1]
        y = H - y - mask.shape[0]
    x, y = int(round(x)), int(round(y))
    h, w = mask.shape
    x0, y0 = max(x, 0), max(y, 0)
    x1, y1 = min(x + w, W), min(y + h, H)
    if x1 <= x0 or y1 <= y0:
        return
    m = mask[y0 - y: y1 - y, x0 - x: x1 - x, None]
    region = canvas[y0:y1, x0:x1]
    region *= 1.0 - m
    region += m * np.asarray(color, np.float32)
