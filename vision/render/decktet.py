"""Procedural Decktet-like cards: a deck the card model never sees in training (for enrolment).

Each of the 45 cards (names from :data:`games.decktet.DECKTET`) shows its rank in the corners
with its suit symbols (moon, sun, wave, leaf, wyrm, knot) stacked under it, an illustration
made from the card's name, and the name along the bottom.
"""

from __future__ import annotations

import functools
import zlib

import cv2
import numpy as np

from games.decktet import DECKTET, DecktetCard
from vision.api import CARD_MM
from vision.render.cards import card_alpha
from vision.render.fonts import pick_font
from vision.render.glyphs import paint, text_mask

#: The 45 names, as enrolment labels.
DECKTET_NAMES = tuple(c.name for c in DECKTET)
_RANK_MARK = {"Ace": "A", "Pawn": "P", "Court": "C", "Crown": "K", "Excuse": ""}


@functools.lru_cache(maxsize=64)
def _symbol(suit: str, size: int) -> np.ndarray:
    s = size * 4
    m = np.zeros((s, s), np.uint8)
    c = s // 2
    t = max(2, s // 9)
    if suit == "Moons":
        cv2.circle(m, (c, c), int(s * 0.45), 255, -1, cv2.LINE_AA)
        cv2.circle(m, (int(c + s * 0.2), int(c - s * 0.08)), int(s * 0.38), 0, -1, cv2.LINE_AA)
    elif suit == "Suns":
        cv2.circle(m, (c, c), int(s * 0.25), 255, -1, cv2.LINE_AA)
        for a in range(0, 360, 45):
            p = (int(c + s * 0.46 * np.cos(np.radians(a))), int(c + s * 0.46 * np.sin(np.radians(a))))
            cv2.line(m, (c, c), p, 255, t, cv2.LINE_AA)
    elif suit == "Waves":
        for k in range(3):
            xs = np.linspace(0.05, 0.95, 30) * s
            ys = (0.25 + 0.25 * k) * s + np.sin(xs / s * 4 * np.pi) * s * 0.07
            cv2.polylines(m, [np.stack([xs, ys], 1).astype(np.int32)], False, 255, t, cv2.LINE_AA)
    elif suit == "Leaves":
        cv2.ellipse(m, (c, c), (int(s * 0.22), int(s * 0.45)), 35, 0, 360, 255, -1, cv2.LINE_AA)
        cv2.line(m, (int(c - s * 0.3), int(c + s * 0.4)), (int(c + s * 0.25), int(c - s * 0.35)), 0, max(1, t // 2),
                 cv2.LINE_AA)
    elif suit == "Wyrms":
        ts = np.linspace(0, 1, 40)
        xs = (0.2 + 0.6 * ts) * s
        ys = (0.5 + 0.3 * np.sin(ts * 2 * np.pi)) * s
        cv2.polylines(m, [np.stack([xs, ys], 1).astype(np.int32)], False, 255, int(t * 1.8), cv2.LINE_AA)
        cv2.circle(m, (int(xs[-1]), int(ys[-1])), int(t * 1.5), 255, -1, cv2.LINE_AA)
    else:  # Knots
        for dx in (-0.17, 0.17):
            cv2.circle(m, (int(c + dx * s), c), int(s * 0.26), 255, t, cv2.LINE_AA)
        cv2.circle(m, (c, int(c - s * 0.2)), int(s * 0.18), 255, t, cv2.LINE_AA)
    return cv2.resize(m, (size, size), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0


def render_decktet(name: str | DecktetCard, design: int = 0, *, px_per_mm: float = 4.0,
                   rng: np.random.Generator | None = None, alpha: bool = False) -> np.ndarray:
    """One Decktet-like card (by name, e.g. ``"the Author"``, ``"Ace of Moons"``), upright BGR
    uint8 (BGRA with ``alpha``), 63x88 mm at ``px_per_mm``. ``design`` picks fonts and colours."""
    card = name if isinstance(name, DecktetCard) else DecktetCard.parse(name)
    k = float(px_per_mm)
    W, H = int(round(CARD_MM[0] * k)), int(round(CARD_MM[1] * k))
    drng = np.random.default_rng([design, 4545])
    font = pick_font(drng, True)
    suit_colours = {s: tuple(float(v) for v in drng.uniform(20, 160, 3)) for s in
                    ("Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots")}
    paper = tuple(float(v) for v in drng.uniform(215, 250, 3))
    ink = tuple(float(v) for v in drng.uniform(10, 60, 3))
    canvas = np.empty((H, W, 3), np.float32)
    canvas[:] = paper
    crng = np.random.default_rng(zlib.crc32(f"{design}|{card.name}".encode()))
    # illustration: a framed picture of shapes coloured by the card's suits
    x0, y0, x1, y1 = int(12 * k), int(10 * k), W - int(12 * k), H - int(16 * k)
    cols = [suit_colours[s] for s in card.suits] or [ink]
    canvas[y0:y1, x0:x1] = np.asarray(paper, np.float32) * 0.9
    for _ in range(int(crng.integers(4, 12))):
        col = cols[int(crng.integers(len(cols)))]
        shape = int(crng.integers(3))
        p = (int(crng.uniform(x0, x1)), int(crng.uniform(y0, y1)))
        r = int(crng.uniform(3, 14) * k)
        if shape == 0:
            cv2.circle(canvas, p, r, col, -1, cv2.LINE_AA)
        elif shape == 1:
            q = (int(crng.uniform(x0, x1)), int(crng.uniform(y0, y1)))
            cv2.line(canvas, p, q, col, max(1, int(crng.uniform(0.5, 3) * k)), cv2.LINE_AA)
        else:
            pts = crng.uniform((x0, y0), (x1, y1), (3, 2)).astype(np.int32)
            cv2.fillPoly(canvas, [pts], col, cv2.LINE_AA)
    canvas[:y0], canvas[y1:] = paper, paper
    canvas[:, :x0], canvas[:, x1:] = paper, paper
    cv2.rectangle(canvas, (x0, y0), (x1, y1), ink, max(1, int(0.4 * k)), cv2.LINE_AA)
    # corners: rank and suit symbols
    mark = _RANK_MARK.get(card.rank, card.rank)
    y = 3.0 * k
    if mark:
        m = text_mask(mark, font, 6.5 * k)
        paint(canvas, m, 2.5 * k, y, ink)
        paint(canvas, m, 2.5 * k, y, ink, rotate180=True)
        y += m.shape[0] + 1.0 * k
    for s in card.suits:
        sym = _symbol(s, int(6.0 * k))
        paint(canvas, sym, 2.5 * k, y, suit_colours[s])
        paint(canvas, sym, 2.5 * k, y, suit_colours[s], rotate180=True)
        y += sym.shape[0] + 0.8 * k
    # the name along the bottom
    label = text_mask(card.name.upper(), font, 3.2 * k)
    if label.shape[1] > W - 16 * k:
        label = cv2.resize(label, (int(W - 16 * k), label.shape[0]), interpolation=cv2.INTER_AREA)
    paint(canvas, label, W / 2 - label.shape[1] / 2, H - 12 * k, ink)
    if rng is not None:
        canvas += rng.normal(0, 2, canvas.shape).astype(np.float32)
    out = np.clip(canvas, 0, 255).astype(np.uint8)
    return np.dstack([out, card_alpha(H, W, 3.2 * k)]) if alpha else out
