"""Photographic effects: backgrounds, lighting, lens and sensor, and the crops the table sees.

- :func:`background`: felt, wood, cloth patterns, light paper, clutter, noise textures.
- :func:`camera`: white balance, uneven light, shadow, glare, blur, noise, JPEG.
- :func:`table_crop`: an upright card as the table pipeline hands it to the classifier (a
  residual perspective, a tight or loose crop with background, maybe turned 180 degrees, maybe
  partly covered), at camera resolution.
- :func:`non_card_crop`: what the classifier must call ``unknown``.
- :func:`compose_scene`: a whole photo of several cards (for ``recognize``), with their corners.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.api import CARD_MM


def _rand_colour(rng: np.random.Generator, light: bool | None = None) -> np.ndarray:
    if light is None:
        light = rng.random() < 0.3
    v = rng.uniform(150, 255) if light else rng.uniform(15, 200)
    hue = rng.uniform(0, 180)
    sat = rng.uniform(0, 200)
    hsv = np.array([[[hue, sat, v]]]).astype(np.uint8)
    colour: np.ndarray = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)
    return colour


def _smooth_noise(h: int, w: int, rng: np.random.Generator, cells: int) -> np.ndarray:
    small = rng.random((max(2, h * cells // max(h, w)), max(2, w * cells // max(h, w)))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def background(h: int, w: int, rng: np.random.Generator) -> np.ndarray:
    """A table surface or clutter, BGR uint8 (h, w)."""
    kind = int(rng.integers(8))
    c1, c2 = _rand_colour(rng), _rand_colour(rng)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    img: np.ndarray
    if kind == 0:  # felt / cloth: a colour and fine noise
        img = np.empty((h, w, 3), np.float32)
        img[:] = c1
        img += (rng.normal(0, rng.uniform(2, 12), (h, w, 1))).astype(np.float32)
    elif kind == 1:  # wood grain
        base = np.array([rng.uniform(30, 90), rng.uniform(60, 130), rng.uniform(100, 200)], np.float32)
        warp = _smooth_noise(h, w, rng, 6) * rng.uniform(5, 30)
        f = rng.uniform(0.05, 0.3)
        ang = rng.uniform(0, np.pi)
        t = (xx * np.cos(ang) + yy * np.sin(ang)) * f + warp
        grain = (np.sin(t) * 0.5 + 0.5) ** rng.uniform(1, 4)
        img = base * (0.7 + 0.4 * grain[..., None])
    elif kind == 2:  # gradient
        t = (xx / max(w, 1) * rng.uniform(-1, 1) + yy / max(h, 1) * rng.uniform(-1, 1))
        t = (t - t.min()) / (np.ptp(t) + 1e-6)
        img = c1 * (1 - t[..., None]) + c2 * t[..., None]
    elif kind == 3:  # checks, stripes, plaid
        period = rng.uniform(4, 60)
        a = (np.sin(xx * 2 * np.pi / period) > 0)
        b = (np.sin(yy * 2 * np.pi / (period * rng.uniform(0.5, 2))) > 0)
        mode = int(rng.integers(3))
        m = (a ^ b) if mode == 0 else (a if mode == 1 else (a.astype(np.float32) * 0.5 + b * 0.5))
        m = np.asarray(m, np.float32)
        img = c1 * (1 - m[..., None]) + c2 * m[..., None]
    elif kind == 4:  # light paper / tablecloth
        img = np.empty((h, w, 3), np.float32)
        img[:] = _rand_colour(rng, light=True)
        img *= (0.9 + 0.1 * _smooth_noise(h, w, rng, 8))[..., None]
    elif kind == 5:  # blotchy texture (marble, stone, carpet)
        n = _smooth_noise(h, w, rng, int(rng.integers(3, 40)))
        img = c1 * (1 - n[..., None]) + c2 * n[..., None]
        img += rng.normal(0, 6, (h, w, 1)).astype(np.float32)
    else:  # clutter: shapes, lines, text (drawn in uint8: OpenCV writes text only there)
        img = np.empty((h, w, 3), np.uint8)
        img[:] = c1.astype(np.uint8)
        for _ in range(int(rng.integers(3, 25))):
            col = tuple(int(v) for v in _rand_colour(rng))
            s = int(rng.integers(0, 4))
            p = (int(rng.integers(0, w)), int(rng.integers(0, h)))
            size = int(rng.uniform(3, max(4, max(h, w) / 3)))
            if s == 0:
                cv2.circle(img, p, size, col, -1 if rng.random() < 0.5 else int(rng.integers(1, 5)), cv2.LINE_AA)
            elif s == 1:
                cv2.rectangle(img, p, (p[0] + size, p[1] + int(size * rng.uniform(0.3, 2))), col, -1)
            elif s == 2:
                cv2.line(img, p, (int(rng.integers(0, w)), int(rng.integers(0, h))), col, int(rng.integers(1, 6)),
                         cv2.LINE_AA)
            else:
                text = "".join(chr(int(c)) for c in rng.integers(65, 91, int(rng.integers(2, 8))))
                cv2.putText(img, text, p, int(rng.choice([0, 1, 2, 3, 4])), rng.uniform(0.4, 2.5), col,
                            int(rng.integers(1, 4)), cv2.LINE_AA)
    if kind != 6 and rng.random() < 0.25:  # a few objects on any surface
        for _ in range(int(rng.integers(1, 4))):
            tint = tuple(float(v) for v in _rand_colour(rng))
            cv2.ellipse(img, (int(rng.integers(0, w)), int(rng.integers(0, h))),
                        (int(rng.uniform(3, w / 4 + 4)), int(rng.uniform(3, h / 4 + 4))), float(rng.uniform(0, 180)),
                        0, 360, tint, -1, cv2.LINE_AA)
    surface: np.ndarray = np.clip(img, 0, 255).astype(np.uint8)
    return surface


def motion_kernel(length: int, degrees: float) -> np.ndarray:
    """The kernel of motion blur: a line ``length`` pixels long along ``degrees``, summing to 1."""
    kernel: np.ndarray = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0 / length
    rot = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), degrees, 1.0)
    kernel = cv2.warpAffine(kernel, rot, (length, length))
    kernel = kernel / max(kernel.sum(), 1e-6)
    return kernel


def camera(img: np.ndarray, rng: np.random.Generator, strength: float = 1.0) -> np.ndarray:
    """Light, lens and sensor on a BGR uint8 image: white balance, uneven light, shadow, glare,
    blur, noise, JPEG. ``strength`` 0..1.5 scales how bad it gets."""
    h, w = img.shape[:2]
    f: np.ndarray = img.astype(np.float32)
    s = strength
    # exposure, contrast, white balance
    gains = np.array([rng.uniform(1 - 0.25 * s, 1 + 0.15 * s), 1.0, rng.uniform(1 - 0.15 * s, 1 + 0.2 * s)], np.float32)
    f = f * gains * rng.uniform(1 - 0.35 * s, 1 + 0.15 * s)
    if rng.random() < 0.5:
        mean = f.mean()
        f = (f - mean) * rng.uniform(1 - 0.35 * s, 1 + 0.1 * s) + mean
    # uneven light
    if rng.random() < 0.6:
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        g = xx / w * rng.uniform(-1, 1) + yy / h * rng.uniform(-1, 1)
        f *= (1 + 0.3 * s * (g - g.mean()))[..., None]
    # a shadow
    if rng.random() < 0.25 * s:
        pts = rng.uniform((-0.2 * w, -0.2 * h), (1.2 * w, 1.2 * h), (int(rng.integers(3, 6)), 2)).astype(np.int32)
        m: np.ndarray = np.zeros((h, w), np.float32)
        cv2.fillPoly(m, [cv2.convexHull(pts)], 1.0)
        m = cv2.GaussianBlur(m, (0, 0), max(1.0, rng.uniform(0.01, 0.08) * max(h, w)))
        f *= (1 - rng.uniform(0.2, 0.55) * m)[..., None]
    # glare
    if rng.random() < 0.2 * s:
        m = np.zeros((h, w), np.float32)
        cv2.ellipse(m, (int(rng.uniform(0, w)), int(rng.uniform(0, h))),
                    (int(rng.uniform(0.05, 0.4) * w) + 1, int(rng.uniform(0.05, 0.3) * h) + 1),
                    float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        m = cv2.GaussianBlur(m, (0, 0), max(1.0, 0.05 * max(h, w)))
        f += (m * rng.uniform(40, 140))[..., None]
    f = np.clip(f, 0, 255)
    # blur: focus or motion
    r = rng.random()
    if r < 0.55:
        sigma = rng.uniform(0.2, 1.1 * s + 0.3)
        f = cv2.GaussianBlur(f, (0, 0), sigma)
    elif r < 0.7:
        n = int(rng.integers(3, 3 + int(4 * s) + 1))
        f = cv2.filter2D(f, -1, motion_kernel(n, float(rng.uniform(0, 180))))
    # sensor noise
    sigma = rng.uniform(0, 7 * s)
    f += rng.normal(0, sigma, f.shape).astype(np.float32)
    if rng.random() < 0.05:
        grey = f.mean(axis=2, keepdims=True)
        f = f * 0.4 + grey * 0.6
    out = np.clip(f, 0, 255).astype(np.uint8)
    if rng.random() < 0.6:
        q = int(rng.uniform(max(20, 85 - 55 * s), 96))
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, q])
        if ok:
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out


def _paste_card(dst: np.ndarray, card: np.ndarray, quad: np.ndarray) -> None:
    """Lay ``card`` (BGRA, any size) onto float ``dst`` in place, its corners (top-left,
    top-right, bottom-right, bottom-left) at ``quad``."""
    h, w = card.shape[:2]
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    _paste(dst, card[..., :3], card[..., 3], cv2.getPerspectiveTransform(src, np.asarray(quad, np.float32)))


def _paste(dst: np.ndarray, src: np.ndarray, alpha: np.ndarray, H: np.ndarray) -> None:
    """Warp ``src`` (with uint8 ``alpha``) by homography ``H`` onto float ``dst`` in place."""
    h, w = dst.shape[:2]
    warped = cv2.warpPerspective(src, H, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    a = cv2.warpPerspective(alpha, H, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    a = a.astype(np.float32)[..., None] / 255.0
    dst *= 1 - a
    dst += warped.astype(np.float32) * a


def table_crop(face: np.ndarray, rng: np.random.Generator, *, px_per_mm: float | None = None,
               occluder: np.ndarray | None = None, turn: bool | None = None, strength: float = 1.0) -> np.ndarray:
    """``face`` (BGRA from ``render_card(..., alpha=True)``, any resolution) as the table
    pipeline would crop it: an upright card at about ``px_per_mm`` (default: random, mostly
    1.5-2.6 camera resolution, sometimes phone resolution), tight or loose, with a residual
    perspective and tilt, possibly turned 180 degrees, maybe partly covered by ``occluder``
    (another BGRA card) or a finger, then :func:`camera` effects. Returns BGR uint8."""
    if px_per_mm is None:
        px_per_mm = float(rng.uniform(1.5, 2.7)) if rng.random() < 0.85 else float(rng.uniform(2.7, 5.0))
    k = px_per_mm
    cw, ch = CARD_MM[0] * k * rng.uniform(0.94, 1.06), CARD_MM[1] * k * rng.uniform(0.96, 1.04)
    ml, mr, mt, mb = (rng.uniform(-0.035, 0.09, 4) * np.array([cw, cw, ch, ch]))
    if rng.random() < 0.3:  # a snug crop, as most of the time
        ml, mr, mt, mb = rng.uniform(-0.015, 0.02, 4) * np.array([cw, cw, ch, ch])
    W, H = int(round(cw + ml + mr)), int(round(ch + mt + mb))
    dst = np.array([[ml, mt], [ml + cw, mt], [ml + cw, mt + ch], [ml, mt + ch]], np.float32)
    dst += rng.normal(0, 0.012 * cw, (4, 2)).astype(np.float32)  # residual perspective
    ang = np.radians(rng.normal(0, 1.5))
    c = dst.mean(axis=0)
    rot = np.array([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]], np.float32)
    dst = (dst - c) @ rot.T + c
    canvas = background(H, W, rng).astype(np.float32)
    _paste_card(canvas, face, dst)
    if occluder is not None or rng.random() < 0.06:
        _occlude(canvas, occluder, rng, cw, ch)
    img = np.clip(canvas, 0, 255).astype(np.uint8)
    if turn is None:
        turn = bool(rng.random() < 0.5)
    if turn:
        img = img[::-1, ::-1].copy()
    return camera(img, rng, strength)


def loose_crop(face: np.ndarray, rng: np.random.Generator, *, max_turn: float = 180.0,
               strength: float = 0.8) -> tuple[np.ndarray, np.ndarray]:
    """``face`` (BGRA) as someone would photograph or cut out one card: at 1.8-4 px/mm, turned
    by up to ``max_turn`` degrees either way, with a little perspective and 5-35 % of the table
    round it, then :func:`camera` effects. Returns the BGR image and the card's corners
    (top-left, top-right, bottom-right, bottom-left of the face) in its pixels."""
    k = float(rng.uniform(1.8, 4.0))
    cw, ch = CARD_MM[0] * k, CARD_MM[1] * k
    t = np.radians(rng.uniform(-max_turn, max_turn))
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    quad = (np.array([[0, 0], [cw, 0], [cw, ch], [0, ch]]) - [cw / 2, ch / 2]) @ rot.T
    quad += rng.normal(0, 0.02 * cw, (4, 2))
    lo, hi = quad.min(axis=0), quad.max(axis=0)
    pad = (hi - lo) * rng.uniform(0.05, 0.35) * rng.uniform(0.3, 1.0, 2)
    W, H = (hi - lo + 2 * pad).astype(int)
    quad = (quad - lo + pad).astype(np.float32)
    canvas = background(int(H), int(W), rng).astype(np.float32)
    _paste_card(canvas, face, quad)
    return camera(np.clip(canvas, 0, 255).astype(np.uint8), rng, strength), quad


def held_crop(face: np.ndarray, covers: Sequence[np.ndarray], rng: np.random.Generator, *,
              px_per_mm: float | None = None, strength: float = 1.0, row: bool = False) -> np.ndarray:
    """``face`` (BGRA) as the table pipeline would crop it out of a fan held in the hand: the
    ``covers`` (BGRA cards) lie over it, each turned a little further about a point near the
    bottom of the cards, so that only a strip with the top-left index stays in sight. With
    ``row`` the covers are the next cards of a straight row spread on the table instead, each
    shifted a strip's width further right. Upright, maybe turned 180 degrees, with
    :func:`camera` effects. Returns BGR uint8."""
    if px_per_mm is None:
        px_per_mm = float(rng.uniform(1.5, 2.7)) if rng.random() < 0.85 else float(rng.uniform(2.7, 5.0))
    k = px_per_mm
    cw, ch = CARD_MM[0] * k * rng.uniform(0.96, 1.04), CARD_MM[1] * k * rng.uniform(0.97, 1.03)
    ml, mr, mt, mb = rng.uniform(-0.02, 0.07, 4) * np.array([cw, cw, ch, ch])
    W, H = int(round(cw + ml + mr)), int(round(ch + mt + mb))
    card = np.array([[ml, mt], [ml + cw, mt], [ml + cw, mt + ch], [ml, mt + ch]], np.float32)
    canvas = background(H, W, rng).astype(np.float32)
    _paste_card(canvas, face, card)
    pivot = np.array([ml + cw * rng.uniform(0.2, 0.5), mt + ch * rng.uniform(0.85, 1.05)], np.float32)
    index = np.array([ml + 10 * k, mt + 22 * k], np.float32)  # the far corner of the index strip
    angle = 0.0
    shift = np.zeros(2, np.float32)
    centre = card.mean(axis=0)
    for cover in covers:
        if row:  # the next card of a row: shifted right past the index strip, a little askew
            shift += np.array([rng.uniform(11, 36), rng.normal(0, 1.5)], np.float32) * k
            t = np.radians(rng.normal(0, 2.5))
            rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]], np.float32)
            _paste_card(canvas, cover, ((card - centre) @ rot.T + centre + shift).astype(np.float32))
            continue
        # turn the next card about the pivot until the index strip is clear of it
        angle += float(rng.uniform(6, 14))
        for _ in range(30):
            t = np.radians(angle)
            rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]], np.float32)
            quad = ((card - pivot) @ rot.T + pivot).astype(np.float32)
            if cv2.pointPolygonTest(quad.reshape(-1, 1, 2), (float(index[0]), float(index[1])), False) < 0:
                break
            angle += 2.0
        _paste_card(canvas, cover, quad)
    img = np.clip(canvas, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        img = img[::-1, ::-1].copy()
    return camera(img, rng, strength)


def _occlude(canvas: np.ndarray, occluder: np.ndarray | None, rng: np.random.Generator, cw: float, ch: float) -> None:
    """Cover part of the card away from its top-left index: another card or a finger."""
    H, W = canvas.shape[:2]
    if occluder is not None:
        # place the other card so that it covers from the right or from the bottom
        if rng.random() < 0.5:
            x0, y0 = rng.uniform(0.45, 0.8) * W, rng.uniform(-0.3, 0.5) * H
        else:
            x0, y0 = rng.uniform(-0.3, 0.6) * W, rng.uniform(0.45, 0.8) * H
        ang = np.radians(rng.uniform(-30, 30))
        vx = np.array([np.cos(ang), np.sin(ang)]) * cw
        vy = np.array([-np.sin(ang), np.cos(ang)]) * ch
        p0 = np.array([x0, y0])
        dst = np.array([p0, p0 + vx, p0 + vx + vy, p0 + vy], np.float32)
        _paste_card(canvas, occluder, dst)
    else:
        skin = np.array([rng.uniform(90, 170), rng.uniform(130, 200), rng.uniform(170, 240)], np.float32)
        m: np.ndarray = np.zeros((H, W), np.float32)
        cx, cy = rng.uniform(0.55, 1.1) * W, rng.uniform(0.5, 1.1) * H
        cv2.ellipse(m, (int(cx), int(cy)), (int(0.12 * W) + 1, int(0.35 * H) + 1), float(rng.uniform(0, 180)), 0, 360,
                    1.0, -1, cv2.LINE_AA)
        m = cv2.GaussianBlur(m, (0, 0), 2.0)[..., None]
        canvas *= 1 - m
        canvas += m * skin


def non_card_crop(rng: np.random.Generator, *, px_per_mm: float | None = None,
                  faces: Sequence[np.ndarray] = ()) -> np.ndarray:
    """A crop with no readable card in it (``unknown``): table, clutter, a hand, blank paper,
    a card seen from the wrong place (shifted far off or sideways), BGR uint8."""
    if px_per_mm is None:
        px_per_mm = float(rng.uniform(1.5, 3.0))
    W = int(CARD_MM[0] * px_per_mm * rng.uniform(0.95, 1.15))
    H = int(CARD_MM[1] * px_per_mm * rng.uniform(0.95, 1.15))
    kind = int(rng.integers(5))
    canvas: np.ndarray = background(H, W, rng).astype(np.float32)
    m: np.ndarray
    dst: np.ndarray | None
    if kind == 1:  # a hand
        skin = np.array([rng.uniform(60, 170), rng.uniform(100, 200), rng.uniform(150, 245)], np.float32)
        m = np.zeros((H, W), np.float32)
        cx, cy = rng.uniform(0.2, 0.8) * W, rng.uniform(0.4, 1.0) * H
        cv2.ellipse(m, (int(cx), int(cy)), (int(0.35 * W), int(0.3 * H)), float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        for _i in range(int(rng.integers(2, 6))):
            a = np.radians(rng.uniform(200, 340))
            tip = (int(cx + np.cos(a) * 0.6 * H), int(cy + np.sin(a) * 0.6 * H))
            cv2.line(m, (int(cx), int(cy)), tip, 1.0, int(0.12 * W) + 1, cv2.LINE_AA)
        m = cv2.GaussianBlur(m, (0, 0), 1.5)[..., None]
        shade = 0.85 + 0.3 * _smooth_noise(H, W, rng, 4)[..., None]
        canvas = canvas * (1 - m) + m * skin * shade
    elif kind == 2:  # blank card or paper with some writing, no index
        paper = np.array([rng.uniform(215, 255)] * 3, np.float32) - rng.uniform(0, 20, 3).astype(np.float32)
        x0, y0 = rng.uniform(-0.05, 0.1) * W, rng.uniform(-0.05, 0.1) * H
        cv2.rectangle(canvas, (int(x0), int(y0)), (int(W - x0), int(H - y0)), paper.tolist(), -1)
        for _ in range(int(rng.integers(0, 8))):
            y = int(rng.uniform(0.3, 0.95) * H)
            x = int(rng.uniform(0.25, 0.6) * W)
            cv2.line(canvas, (x, y), (int(x + rng.uniform(0.1, 0.4) * W), y), (60.0, 60.0, 60.0), 1, cv2.LINE_AA)
    elif kind == 3 and faces:  # a card far off the crop, or lying sideways in it, or two half cards
        face = faces[int(rng.integers(len(faces)))]
        if rng.random() < 0.4:
            for _two in range(2):
                p0 = np.array([rng.uniform(-0.7, 0.6) * W, rng.uniform(-0.7, 0.6) * H])
                ang = rng.uniform(-0.3, 0.3)
                vx = np.array([np.cos(ang), np.sin(ang)]) * W
                vy = np.array([-np.sin(ang), np.cos(ang)]) * H
                dst = np.array([p0, p0 + vx, p0 + vx + vy, p0 + vy], np.float32)
                if np.abs(p0).max() < 0.45 * W and abs(ang) < 0.15:
                    p0 += 0.5 * W
                    dst += 0.5 * W
                _paste_card(canvas, face, dst)
                face = faces[int(rng.integers(len(faces)))]
            dst = None
        elif rng.random() < 0.5:
            sx, sy = (rng.uniform(0.5, 0.9), rng.uniform(-0.3, 0.3)) if rng.random() < 0.5 else \
                (rng.uniform(-0.3, 0.3), rng.uniform(0.5, 0.9))
            p0 = np.array([sx * W, sy * H])
            dst = np.array([p0, p0 + [W, 0], p0 + [W, H], p0 + [0, H]], np.float32)
        else:  # sideways: a landscape card squeezed into the portrait crop
            p0 = np.array([rng.uniform(-0.1, 0.1) * W, rng.uniform(0.1, 0.4) * H])
            cw, ch = W * 1.1, W * 1.1 * CARD_MM[0] / CARD_MM[1]
            dst = np.array([p0 + [cw, 0], p0 + [cw, ch], p0 + [0, ch], p0], np.float32)
        if dst is not None:
            _paste_card(canvas, face, dst)
    img = np.clip(canvas, 0, 255).astype(np.uint8)
    return camera(img, rng, 1.0)


def compose_scene(faces: Sequence[np.ndarray], rng: np.random.Generator, *, size: tuple[int, int] = (1280, 960),
                  card_px: tuple[float, float] = (170.0, 300.0), layout: str = "scatter",
                  strength: float = 0.6) -> tuple[np.ndarray, list[np.ndarray]]:
    """A photo of ``faces`` (BGRA) on a random background. ``layout`` ``"scatter"`` puts the cards
    apart, ``"fan"`` overlaps them in a straight row like a hand spread on the table, ``"arc"``
    fans them round a point like a hand held (each still showing its top-left index).

    Returns the BGR image and for each card its corners (4x2 float32, the card's own top-left,
    top-right, bottom-right, bottom-left, in image pixels), in the order of ``faces``."""
    w, h = size
    canvas = background(h, w, rng).astype(np.float32)
    corners: list[np.ndarray] = []
    ch = float(rng.uniform(*card_px))
    cw = ch * CARD_MM[0] / CARD_MM[1]
    placed: list[np.ndarray] = []
    if layout == "arc":
        spread = np.radians(rng.uniform(8, 15))
        theta0 = rng.uniform(0, 2 * np.pi)
        radius = rng.uniform(0.3, 0.45) * ch  # the pivot is this far below each card's centre
    pivot = np.array([w / 2, h / 2])
    if layout == "fan":
        ang0 = rng.uniform(0, 2 * np.pi)
        step = rng.uniform(0.45, 0.7) * cw
        n = len(faces)
        start = np.array([w / 2, h / 2]) - 0.5 * (n - 1) * step * np.array([np.cos(ang0), np.sin(ang0)])
    for i, face in enumerate(faces):
        for _attempt in range(200):
            if layout == "arc":
                if i == 0:  # the first card places the hand
                    pivot = rng.uniform((0.3 * w, 0.3 * h), (0.7 * w, 0.7 * h))
                ang = theta0 + (i - (len(faces) - 1) / 2) * spread + rng.normal(0, 0.01)
                centre = pivot + radius * np.array([np.sin(ang), -np.cos(ang)]) + rng.normal(0, 2, 2)
            elif layout == "fan":
                ang = ang0 + rng.normal(0, 0.05)
                centre = start + i * step * np.array([np.cos(ang0), np.sin(ang0)]) + rng.normal(0, 3, 2)
            else:
                ang = rng.uniform(0, 2 * np.pi)
                centre = rng.uniform((cw, cw), (w - cw, h - cw))
            vx = np.array([np.cos(ang), np.sin(ang)]) * cw / 2
            vy = np.array([-np.sin(ang), np.cos(ang)]) * ch / 2
            quad = np.array([centre - vx - vy, centre + vx - vy, centre + vx + vy, centre - vx + vy], np.float32)
            quad += rng.normal(0, 0.015 * cw, (4, 2)).astype(np.float32)
            inside = (quad[:, 0].min() > 2) and (quad[:, 1].min() > 2) and (quad[:, 0].max() < w - 2) and (quad[:, 1].max() < h - 2)
            if not inside:
                if layout in ("fan", "arc") and _attempt > 150:
                    break
                continue
            if layout == "scatter" and any(_overlap(quad, q) for q in placed):
                continue
            break
        placed.append(quad)
        _paste_card(canvas, face, quad)
        corners.append(quad)
    img = camera(np.clip(canvas, 0, 255).astype(np.uint8), rng, strength)
    return img, corners


def index_shown(corners: Sequence[np.ndarray], boxes: Sequence[tuple[float, float, float, float]]) -> list[float]:
    """For each card of a :func:`compose_scene` photo (``corners`` as it returns them, each card
    laid over those before it), the share of its corner index (``boxes``: where it is printed,
    mm from the card's top-left corner, :func:`vision.render.index_box`) that no later card covers."""
    t = np.linspace(0.0, 1.0, 9)
    out = []
    for i, (quad, (x0, y0, x1, y1)) in enumerate(zip(corners, boxes, strict=True)):
        u = (quad[1] - quad[0]) / CARD_MM[0]
        v = (quad[3] - quad[0]) / CARD_MM[1]
        pts = [quad[0] + u * (x0 + a * (x1 - x0)) + v * (y0 + b * (y1 - y0)) for a in t for b in t]
        above = [q.astype(np.float32) for q in corners[i + 1:]]
        hidden = sum(any(cv2.pointPolygonTest(q, (float(p[0]), float(p[1])), False) >= 0 for q in above) for p in pts)
        out.append(1.0 - hidden / len(pts))
    return out


def _overlap(a: np.ndarray, b: np.ndarray) -> bool:
    inter, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return bool(inter > 0)
