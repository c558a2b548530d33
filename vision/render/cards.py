"""French-suited card faces and backs in many procedural designs.

A design (:class:`DesignSpec`) is drawn from an integer seed: index font and its proportions,
index layout, ink colours (two- or four-colour), paper, border, pip shapes and layout, court
figures, jokers and the back. Training uses seeds from ``range(0, 100_000)``; the seeds in
:data:`HELDOUT_DESIGN_SEEDS` use only the held-out font families and are never used in
training (the simulator, the tests and the bench use them).
"""

from __future__ import annotations

import functools
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np

from vision.api import BACK, CARD_MM
from vision.errors import CardIdError
from vision.render.fonts import FontFace, pick_font
from vision.render.glyphs import paint, random_suit_params, suit_mask, text_mask
from vision.render.suitfonts import pick_face

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
#: The 52 cards then the two jokers, as the game engine writes them.
CARD_IDS = tuple(r + s for s in SUITS for r in RANKS) + ("RJ", "BJ")

#: The held-out bench's pool (``pegpi bench recognition --designs N``, up to 256): more designs
#: measure with less luck; the first 64 are :data:`HELDOUT_DESIGN_SEEDS`, the default bench's.
BENCH_DESIGN_SEEDS = tuple(range(1_000_000, 1_000_256))
#: Design seeds never used in training (held-out fonts too): for the simulator, tests, bench.
HELDOUT_DESIGN_SEEDS = BENCH_DESIGN_SEEDS[:64]
#: Designs for choosing between trained models (``--pool selection``), in the held-out fonts but
#: never in a reported figure, so a model chosen on them is not chosen for the bench's luck.
SELECTION_DESIGN_SEEDS = tuple(range(2_000_000, 2_000_256))
#: Designs for confirming, once, a choice the selection pool can no longer make fairly (one that
#: was tuned on the selection pool).
CONFIRM_DESIGN_SEEDS = tuple(range(3_000_000, 3_000_256))
#: Training draws its designs from this range.
TRAIN_DESIGN_RANGE = range(0, 100_000)

Color = tuple[float, float, float]


#: Bumped whenever a renderer change alters what a seed draws, so that cached training data
#: drawn by another renderer is never reused (what each version changed: models/HISTORY.md).
RENDER_VERSION = 7


def is_heldout(seed: int) -> bool:
    return seed >= 1_000_000


@dataclass(frozen=True)
class DesignSpec:
    """Everything that makes one deck look like itself (sizes in mm, colours BGR 0..255)."""

    seed: int
    font: FontFace
    rank_h: float  # cap height of the rank
    condense: float  # width factor of the rank lettering
    ten_condense: float  # extra squeeze of "10"
    bold: float  # extra stroke weight, in mm
    index_x: float
    index_y: float
    index_layout: int  # 0 rank over suit, 1 rank beside suit, 2 rank only, 3 jumbo rank over small suit
    suit_h: float
    index_gap: float
    four_corners: bool
    red: Color
    black: Color
    four_colour: bool
    paper: Color
    border: tuple[Color, float, float] | None  # colour, inset, thickness
    suit_params: tuple[tuple[float, ...], ...]  # per suit S H D C
    pip_h: float
    pip_margin_x: float
    pip_margin_y: float
    turn_lower_pips: bool
    court_style: int
    court_palette: tuple[Color, ...]
    ace_scale: float
    joker_style: int
    back_style: int
    back_colours: tuple[Color, Color]
    back_margin: float
    corner_radius: float
    wear: float
    ornate: bool = False  # court figures in dense printed detail, as most commercial decks
    # what commercial decks do: pictorial courts, continental pips, picture jokers
    pictorial: bool = False  # full-colour court figures filling a frame beside the index (traditional pattern)
    court_x: float = 0.0  # the pictorial frame's inset from the left and right edges, mm
    court_y: float = 0.0  # ... from the top and bottom edges, mm
    pip_variant: int = 0  # 0 the usual layouts, 1 continental (an 8 in two columns of four, a 9's centre pip high)
    joker_picture: bool = False  # a large full-colour jester (both jokers alike: only the index tells them apart)
    joker_word: bool = False  # "JOKER" written across the corner instead of down it
    # pips printed with a symbol font's suit glyphs (training designs only)
    suit_font: str = ""  # a vision.render.suitfonts face name, or "" for the parametric pips
    frameless: bool = False  # a pictorial court's figure with no frame, nearly as wide as the card
    frameless_inset: float = 0.0  # ... and its inset from the left and right edges, mm
    # a picture on the back (training designs only), as souvenir, casino and photo decks print:
    # a figure or scene with no index, in a frame on the back's pattern
    back_picture: int = 0  # 0 none, 1 a figure turned half over half (as a court), 2 one upright picture
    back_picture_inset: float = 0.0  # the picture's frame's inset from the card's edges, mm

    def pip(self, suit: str, height: float) -> np.ndarray:
        """The mask of this design's ``suit`` symbol, ``height`` px tall."""
        return suit_mask(suit, self.suit_params[SUITS.index(suit)], height, font=self.suit_font)

    def ink(self, suit: str) -> Color:
        """The ink of a suit: red/black, or the four-colour deck's blue diamonds and green clubs."""
        if self.four_colour:
            return {"S": self.black, "H": self.red, "D": (170.0, 90.0, 20.0), "C": (40.0, 120.0, 30.0)}[suit]
        return self.red if suit in "HD" else self.black


def _u(rng: np.random.Generator, a: float, b: float) -> float:
    return round(float(rng.uniform(a, b)), 3)


def _colour(rng: np.random.Generator, base: Color, jitter: float) -> Color:
    c = np.clip(np.asarray(base) + rng.uniform(-jitter, jitter, 3), 0, 255)
    return (round(float(c[0]), 1), round(float(c[1]), 1), round(float(c[2]), 1))


PALETTE: tuple[Color, ...] = (
    (40, 40, 200), (170, 80, 20), (40, 190, 230), (30, 30, 30), (60, 140, 40), (140, 40, 120), (30, 110, 220),
)


@functools.lru_cache(maxsize=4096)
def design_from_seed(seed: int) -> DesignSpec:
    """The design of deck number ``seed`` (deterministic)."""
    rng = np.random.default_rng([seed, 7177])
    heldout = is_heldout(seed)
    font = pick_font(rng, heldout)
    layout = int(rng.choice(4, p=[0.62, 0.12, 0.1, 0.16]))
    rank_h = _u(rng, 5.0, 8.5) if layout != 3 else _u(rng, 9.0, 13.0)
    red = _colour(rng, ((30, 30, 200), (40, 20, 170), (50, 40, 230), (60, 30, 190))[int(rng.integers(4))], 25)
    black = _colour(rng, ((25, 25, 25), (60, 30, 20), (45, 45, 45))[int(rng.integers(3))], 15)
    paper = _colour(rng, ((250, 250, 250), (225, 240, 248), (238, 243, 245))[int(rng.integers(3))], 8)
    border = None
    if rng.random() < 0.3:
        bc = black if rng.random() < 0.5 else PALETTE[int(rng.integers(len(PALETTE)))]
        border = (bc, _u(rng, 1.5, 4.0), _u(rng, 0.2, 0.8))
    condense = _u(rng, 0.62, 1.15)
    suit_ratio = _u(rng, 0.55, 0.9) if layout != 3 else _u(rng, 0.3, 0.55)  # layout 3: jumbo ranks over small suits
    index_x = _u(rng, 1.8, 4.5)
    index_w = max(rank_h * 0.62 * condense * 1.7, rank_h * suit_ratio * 0.9)
    if layout == 1:
        index_w = rank_h * 0.62 * condense * 1.7 + rank_h * suit_ratio
    pip_h = _u(rng, 7.5, 12.0)
    pip_margin_x = max(_u(rng, 13.0, 18.0), index_x + index_w + pip_h * 0.45 + 1.0)
    if pip_margin_x > 21.0:
        pip_h = max(5.5, pip_h - (pip_margin_x - 21.0) * 2)
        pip_margin_x = 21.0
    court_palette = tuple(PALETTE[i] for i in rng.permutation(len(PALETTE))[:4])
    back_a = ((40, 40, 170), (150, 60, 20), (40, 110, 30), (30, 30, 30), (110, 30, 100), (20, 120, 200))[int(rng.integers(6))]
    back_b = (245.0, 245.0, 245.0) if rng.random() < 0.7 else _colour(rng, back_a, 60)
    spec = DesignSpec(
        seed=seed,
        font=font,
        rank_h=rank_h,
        condense=condense,
        ten_condense=_u(rng, 0.62, 0.95),
        bold=_u(rng, 0.0, 0.35) if rng.random() < 0.4 else 0.0,
        index_x=index_x,
        index_y=_u(rng, 2.2, 5.0),
        index_layout=layout,
        suit_h=rank_h * suit_ratio,
        index_gap=_u(rng, 0.3, 1.6),
        four_corners=bool(rng.random() < 0.2),
        red=red,
        black=black,
        four_colour=bool(rng.random() < 0.08),
        paper=paper,
        border=border,
        suit_params=tuple(random_suit_params(s, rng) for s in SUITS),
        pip_h=pip_h,
        pip_margin_x=pip_margin_x,
        pip_margin_y=_u(rng, 8.0, 13.0),
        turn_lower_pips=bool(rng.random() < 0.8),
        court_style=int(rng.integers(4)),
        court_palette=court_palette,
        ace_scale=_u(rng, 0.35, 0.75),
        joker_style=int(rng.integers(4)),
        back_style=int(rng.integers(7)),
        back_colours=(back_a, back_b),
        back_margin=_u(rng, 0.0, 5.0) if rng.random() < 0.75 else 0.0,
        corner_radius=_u(rng, 2.5, 4.0),
        wear=_u(rng, 0.0, 1.0) if rng.random() < 0.3 else 0.0,
        # drawn last, so the fields above are what they were before it existed
        ornate=bool(rng.random() < 0.5),
    )
    spec = replace(spec, **_commercial_fields(rng, layout, rank_h, condense, suit_ratio, index_x))
    # a stream of its own, so that every field above stays what it was for a seed: two training
    # designs in five print a symbol font's suits (held-out designs keep the parametric ones)
    fonts = np.random.default_rng([seed, 7178])
    if fonts.random() < 0.4 and not heldout:
        spec = replace(spec, suit_font=pick_face(fonts))
    # and two pictorial designs in five print their figures frameless, as wide as the card
    # (as many commercial decks do: the figure on the bare card, flowing round the indices)
    if fonts.random() < 0.4:
        spec = replace(spec, frameless=True, frameless_inset=_u(fonts, 0.8, 3.0))
    # a stream of its own again: one training design in five prints a picture on its back, so
    # that the corner index, not a dense picture, tells a commercial court from a back
    backs = np.random.default_rng([seed, 7179])
    if backs.random() < 0.2 and not heldout:
        spec = replace(spec, back_picture=1 + int(backs.integers(2)), back_picture_inset=_u(backs, 2.0, 8.0))
    return spec


def _commercial_fields(rng: np.random.Generator, layout: int, rank_h: float, condense: float, suit_ratio: float,
                       index_x: float) -> dict[str, Any]:
    """Renderer version 3's fields, drawn after all the others: what commercial decks do that
    version 2 never drew (seen on a vector deck drawn as commercial decks are, see
    ``vision.render.commercial``): court figures in full colour filling a large frame that
    starts beside the index, big pips whose top row is level with the index, an 8 laid out in
    two columns of four, small plain aces, jokers that are a large coloured picture."""
    index_w = rank_h * 0.62 * condense * 1.45 if layout != 1 else rank_h * 0.62 * condense * 1.7 + rank_h * suit_ratio
    index_w = max(index_w, rank_h * suit_ratio * 0.9)
    out: dict[str, Any] = {
        "pictorial": bool(rng.random() < 0.5),
        "court_x": round(min(17.0, max(6.0, index_x + index_w + _u(rng, 0.6, 2.5))), 3),
        "court_y": _u(rng, 2.5, 7.0),
        "pip_variant": int(rng.random() < 0.35),
        "joker_picture": bool(rng.random() < 0.5),
        "joker_word": bool(rng.random() < 0.35),
    }
    if rng.random() < 0.3:  # big pips, the top row level with the index
        big = _u(rng, 11.5, 15.5)
        margin = max(_u(rng, 12.5, 16.0), index_x + index_w + big * 0.45 + 0.5)
        if margin <= 21.0:
            out.update(pip_h=big, pip_margin_x=round(margin, 3), pip_margin_y=_u(rng, 3.5, 7.0))
    if rng.random() < 0.3:  # small plain aces
        out["ace_scale"] = _u(rng, 0.17, 0.3)
    return out


def _seed(*parts: object) -> int:
    return zlib.crc32("|".join(map(str, parts)).encode())


def _pip_positions(n: int, variant: int = 0) -> list[tuple[float, float]]:
    """Standard pip positions in a unit box (x, y), y down; ``variant`` 1 lays out an 8 in two
    columns of four and puts a 9's centre pip between the top rows, as continental decks do."""
    L, M, R = 0.0, 0.5, 1.0
    table: dict[int, list[tuple[float, float]]] = {
        1: [(M, 0.5)],
        2: [(M, 0.0), (M, 1.0)],
        3: [(M, 0.0), (M, 0.5), (M, 1.0)],
        4: [(L, 0.0), (R, 0.0), (L, 1.0), (R, 1.0)],
        5: [(L, 0.0), (R, 0.0), (M, 0.5), (L, 1.0), (R, 1.0)],
        6: [(L, 0.0), (R, 0.0), (L, 0.5), (R, 0.5), (L, 1.0), (R, 1.0)],
        7: [(L, 0.0), (R, 0.0), (M, 0.25), (L, 0.5), (R, 0.5), (L, 1.0), (R, 1.0)],
        8: [(L, 0.0), (R, 0.0), (M, 0.25), (L, 0.5), (R, 0.5), (M, 0.75), (L, 1.0), (R, 1.0)],
        9: [(L, 0.0), (R, 0.0), (L, 1 / 3), (R, 1 / 3), (M, 0.5), (L, 2 / 3), (R, 2 / 3), (L, 1.0), (R, 1.0)],
        10: [(L, 0.0), (R, 0.0), (M, 1 / 6), (L, 1 / 3), (R, 1 / 3), (L, 2 / 3), (R, 2 / 3), (M, 5 / 6),
             (L, 1.0), (R, 1.0)],
    }
    if variant == 1:
        table[8] = [(x, y) for y in (0.0, 1 / 3, 2 / 3, 1.0) for x in (L, R)]
        table[9] = table[8] + [(M, 1 / 6)]
    return table[n]


def _draw_index(canvas: np.ndarray, d: DesignSpec, rank: str, suit: str, k: float, rng: np.random.Generator | None) -> None:
    ink = d.ink(suit)
    bold = int(round(d.bold * k / 2))
    condense = d.condense * (d.ten_condense if rank == "10" else 1.0)
    rank_m = text_mask(rank, d.font, d.rank_h * k, condense=condense, tracking=0.02 if rank == "10" else 0.06, bold=bold)
    pip_m = d.pip(suit, d.suit_h * k)
    jx = jy = 0.0
    if rng is not None:
        jx, jy = rng.normal(0, 0.15 * k, 2)
    x, y = d.index_x * k + jx, d.index_y * k + jy
    centre = x + max(rank_m.shape[1], pip_m.shape[1] * 0.9) / 2
    placements: list[tuple[np.ndarray, float, float]] = []
    if d.index_layout in (0, 3):
        placements.append((rank_m, centre - rank_m.shape[1] / 2, y))
        placements.append((pip_m, centre - pip_m.shape[1] / 2, y + rank_m.shape[0] + d.index_gap * k))
    elif d.index_layout == 1:
        placements.append((rank_m, x, y))
        placements.append((pip_m, x + rank_m.shape[1] + d.index_gap * k, y + (rank_m.shape[0] - pip_m.shape[0]) / 2))
    else:
        placements.append((rank_m, x, y))
    corners = [(False, False), (True, False)]
    if d.four_corners:
        corners += [(False, True), (True, True)]
    H, W = canvas.shape[:2]
    for rot, mirror in corners:
        for m, px, py in placements:
            if mirror:  # top-right (and, turned, bottom-left) copy
                px = W - px - m.shape[1]
            paint(canvas, m, px, py, ink, rotate180=rot)


def _draw_pips(canvas: np.ndarray, d: DesignSpec, n: int, suit: str, k: float) -> None:
    H, W = canvas.shape[:2]
    ink = d.ink(suit)
    x0, x1 = d.pip_margin_x * k, W - d.pip_margin_x * k
    y0, y1 = d.pip_margin_y * k, H - d.pip_margin_y * k
    size = d.pip_h * k * (1.0 if n <= 8 else 0.9)
    if n == 1:
        size = d.ace_scale * W
    mask = d.pip(suit, size)
    for ux, uy in _pip_positions(n, d.pip_variant):
        cx = x0 + ux * (x1 - x0)
        cy = y0 + size / 2 + uy * (y1 - y0 - size)
        m = mask[::-1, ::-1] if (d.turn_lower_pips and uy > 0.55) else mask
        paint(canvas, m, cx - m.shape[1] / 2, cy - m.shape[0] / 2, ink)
    if n == 1 and suit == "S" and d.court_style % 2 == 0:  # an ornate ace of spades
        c = (int(W / 2), int(H / 2))
        rr = int(size * 0.75)
        cv2.ellipse(canvas, c, (rr, int(rr * 1.15)), 0, 0, 360, ink, max(1, int(0.5 * k)), cv2.LINE_AA)
        for a in range(0, 360, 30):
            p = (int(c[0] + rr * 1.1 * np.cos(np.radians(a))), int(c[1] + rr * 1.25 * np.sin(np.radians(a))))
            cv2.circle(canvas, p, max(1, int(0.6 * k)), ink, -1, cv2.LINE_AA)


def _figure_half(w: int, h: int, d: DesignSpec, rank: str, suit: str, k: float, rng: np.random.Generator) -> np.ndarray:
    """The upper half of a court figure (BGR float), drawn on transparent-ish paper."""
    half = np.empty((h, w, 3), np.float32)
    half[:] = d.paper
    pal = list(d.court_palette)
    rng.shuffle(pal)
    skin = (150.0, 190.0, 235.0) if rng.random() < 0.7 else (120.0, 210.0, 240.0)
    cx = w * rng.uniform(0.42, 0.58)
    head_r = w * rng.uniform(0.1, 0.15)
    head_y = h * rng.uniform(0.3, 0.42)
    thick = max(1, int(0.3 * k))
    outline = d.black
    # body / robe
    body = np.array([[cx - w * 0.45, h], [cx - w * 0.2, head_y + head_r * 1.1], [cx + w * 0.2, head_y + head_r * 1.1],
                     [cx + w * 0.45, h]], np.float32)
    cv2.fillPoly(half, [body.astype(np.int32)], pal[0], cv2.LINE_AA)
    for i in range(int(rng.integers(2, 6))):
        yy = int(head_y + head_r * 1.3 + (h - head_y) * (i + 1) / 7)
        cv2.line(half, (int(cx - w * 0.4), yy), (int(cx + w * 0.4), yy + int(rng.integers(-8, 9))), pal[1 + i % 3],
                 max(1, int(rng.uniform(0.4, 1.5) * k)), cv2.LINE_AA)
    if rng.random() < 0.6:  # a robe panel
        panel = np.array([[cx - w * 0.12, head_y + head_r], [cx + w * 0.12, head_y + head_r], [cx + w * 0.2, h],
                          [cx - w * 0.2, h]], np.float32)
        cv2.fillPoly(half, [panel.astype(np.int32)], pal[2], cv2.LINE_AA)
    cv2.polylines(half, [body.astype(np.int32)], False, outline, thick, cv2.LINE_AA)
    # head
    cv2.circle(half, (int(cx), int(head_y)), int(head_r), skin, -1, cv2.LINE_AA)
    cv2.circle(half, (int(cx), int(head_y)), int(head_r), outline, thick, cv2.LINE_AA)
    for ex in (-0.35, 0.35):
        cv2.circle(half, (int(cx + ex * head_r), int(head_y - 0.1 * head_r)), max(1, int(0.1 * head_r)), outline, -1)
    # hair / beard
    if rank == "K" and rng.random() < 0.7:
        cv2.ellipse(half, (int(cx), int(head_y + head_r * 0.6)), (int(head_r * 0.8), int(head_r * 0.6)), 0, 0, 180,
                    pal[3], -1, cv2.LINE_AA)
    # headgear
    top = head_y - head_r
    if rank == "K":
        pts = [(cx - head_r, top + 2)]
        n = int(rng.integers(3, 6))
        for i in range(n):
            x = cx - head_r + 2 * head_r * (i + 0.5) / n
            pts += [(x, top - head_r * 1.1), (cx - head_r + 2 * head_r * (i + 1) / n, top - head_r * 0.4)]
        pts += [(cx + head_r, top + 2)]
        cv2.fillPoly(half, [np.array(pts, np.int32)], (40, 200, 235), cv2.LINE_AA)
        cv2.polylines(half, [np.array(pts, np.int32)], True, outline, thick, cv2.LINE_AA)
    elif rank == "Q":
        cv2.ellipse(half, (int(cx), int(top)), (int(head_r), int(head_r * 0.6)), 0, 180, 360, (40, 200, 235), -1,
                    cv2.LINE_AA)
        for i in range(3):
            cv2.circle(half, (int(cx + (i - 1) * head_r * 0.6), int(top - head_r * 0.55)), max(1, int(head_r * 0.18)),
                       pal[1], -1, cv2.LINE_AA)
        cv2.ellipse(half, (int(cx), int(head_y + head_r * 0.2)), (int(head_r * 1.3), int(head_r * 1.4)), 0, 200, 340,
                    pal[3], max(1, int(0.8 * k)), cv2.LINE_AA)
    else:
        hat = np.array([[cx - head_r * 1.4, top + head_r * 0.3], [cx + head_r * 1.4, top + head_r * 0.1],
                        [cx + head_r * 0.6, top - head_r * 0.8], [cx - head_r * 0.7, top - head_r * 0.7]], np.int32)
        cv2.fillPoly(half, [hat], pal[1], cv2.LINE_AA)
        cv2.polylines(half, [hat], True, outline, thick, cv2.LINE_AA)
    # held item
    side = 1 if rng.random() < 0.5 else -1
    hx = cx + side * w * 0.3
    if rng.random() < 0.5:
        cv2.line(half, (int(hx), int(h * 0.98)), (int(hx + side * w * 0.05), int(head_y - head_r * 1.5)), (180, 180, 180),
                 max(1, int(0.7 * k)), cv2.LINE_AA)
    else:
        cv2.circle(half, (int(hx), int(head_y + head_r * 1.8)), max(2, int(head_r * 0.5)), pal[2], -1, cv2.LINE_AA)
    return half


def _ornament(half: np.ndarray, d: DesignSpec, k: float, rng: np.random.Generator,
              palette: Sequence[Color] | None = None) -> None:
    """Print dense detail over a figure (in place): its robe cut into many small fields, each
    flat-coloured or patterned (stripes, dots, checks), all edged in black, as on the court cards
    of most commercial decks."""
    h, w = half.shape[:2]
    paper = np.asarray(d.paper, np.float32)
    skin_like = (half[..., 2] > 200) & (half[..., 1] > 140) & (half[..., 0] > 100) & (half[..., 0] < 170)
    body = (np.abs(half - paper).sum(axis=2) > 30) & ~skin_like
    body_u8 = cv2.erode(body.astype(np.uint8), np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero(body_u8)
    if len(xs) < 50:
        return
    pal = [np.asarray(c, np.float32) for c in (d.court_palette if palette is None else palette)]
    pal.append(np.asarray(d.black, np.float32))
    pick = rng.integers(0, len(xs), int(rng.integers(18, 40)))
    # every pixel to its nearest seed point: the fields (a distance transform labels each pixel
    # with its nearest seed, numbered as the seeds come in a row-by-row scan)
    seeds = np.ones((h, w), np.uint8)
    seeds[ys[pick], xs[pick]] = 0
    n = int((seeds == 0).sum())
    _, labels = cv2.distanceTransformWithLabels(seeds, cv2.DIST_L2, 5, labelType=cv2.DIST_LABEL_PIXEL)
    field = labels - 1
    line = max(1, int(round(0.22 * k)))
    # the pixels of the figure's body, grouped by field (one sort, not a whole-image mask a field)
    inside = np.flatnonzero(body.ravel())
    owner = field.ravel()[inside]
    order = np.argsort(owner, kind="stable")
    inside = inside[order]
    bounds = np.searchsorted(owner[order], np.arange(n + 1))
    flat = half.reshape(-1, 3)
    for i in range(n):
        px = inside[bounds[i]:bounds[i + 1]]
        if not len(px):
            continue
        base = pal[int(rng.integers(len(pal) - 1))]
        flat[px] = base
        kind = int(rng.integers(4))
        if kind == 0:
            continue
        ink = pal[int(rng.integers(len(pal)))]
        step = max(3, int(rng.uniform(1.0, 2.2) * k))
        y, x = (v.astype(np.float32) for v in np.divmod(px, w))
        if kind == 1:  # stripes at an angle
            ang = rng.uniform(0, np.pi)
            on = (((x * np.cos(ang) + y * np.sin(ang)) // (step / 2)) % 2) == 0
        elif kind == 2:  # dots
            on = _dots(h, w, step).ravel()[px] > 0
        else:  # checks
            on = ((x // step) + (y // step)) % 2 == 0
        flat[px[on]] = ink
    # black edges round every field and round the figure
    edges = (cv2.morphologyEx(field.astype(np.uint16), cv2.MORPH_GRADIENT, np.ones((2, 2), np.uint8)) > 0) & body
    outline = cv2.morphologyEx(body.astype(np.uint8), cv2.MORPH_GRADIENT, np.ones((2, 2), np.uint8)) > 0
    edge = (edges | outline).astype(np.uint8)
    if line > 1:
        edge = cv2.dilate(edge, np.ones((line, line), np.uint8))
    half[edge > 0] = np.asarray(d.black, np.float32)


@functools.lru_cache(maxsize=256)
def _dots(h: int, w: int, step: int) -> np.ndarray:
    """A uint8 mask of dots of radius ``step // 4`` on a grid of ``step`` px, every other row
    shifted half a step (computed at once, not drawn a dot at a time)."""
    r = max(1, step // 4)
    yy, xx = np.mgrid[0:h, 0:w]
    row = (yy + step // 2) // step  # the nearest row of dots
    dy = np.abs(yy - row * step)
    dx = (xx - (row % 2) * (step // 2)) % step
    dx = np.minimum(dx, step - dx)
    dots: np.ndarray = (dx * dx + dy * dy <= r * r).astype(np.uint8)
    return dots


def _draw_court(canvas: np.ndarray, d: DesignSpec, rank: str, suit: str, k: float) -> None:
    H, W = canvas.shape[:2]
    rng = np.random.default_rng(_seed("court", d.seed, rank, suit))
    ink = d.ink(suit)
    fx0, fy0 = int(d.pip_margin_x * 0.8 * k), int(d.pip_margin_y * 0.9 * k)
    fx1, fy1 = W - fx0, H - fy0
    fw, fh = fx1 - fx0, fy1 - fy0
    style = d.court_style
    if d.pictorial:
        _draw_pictorial(canvas, d, rank, suit, k)
        return
    if style == 3:  # minimal: big letter and big pip
        letter = text_mask(rank, d.font, fh * 0.32, condense=d.condense)
        paint(canvas, letter, W / 2 - letter.shape[1] / 2, H / 2 - fh * 0.3, ink)
        pip = d.pip(suit, fh * 0.22)
        paint(canvas, pip, W / 2 - pip.shape[1] / 2, H / 2 + fh * 0.06, ink)
        return
    half = _figure_half(fw, fh // 2 + 1, d, rank, suit, k, rng)
    if d.ornate:
        _ornament(half, d, k, np.random.default_rng(_seed("ornament", d.seed, rank, suit)))
    full = np.concatenate([half, half[::-1, ::-1]], axis=0)[:fh]
    if style == 1:  # two-tone print
        grey = full.mean(axis=2, keepdims=True) / 255.0
        full = np.asarray(d.paper, np.float32) * grey + np.asarray(ink, np.float32) * (1 - grey)
    canvas[fy0:fy0 + full.shape[0], fx0:fx0 + fw] = full
    lw = max(1, int(0.35 * k))
    cv2.rectangle(canvas, (fx0, fy0), (fx1 - 1, fy1 - 1), ink if style == 2 else d.black, lw, cv2.LINE_AA)
    if style != 1:
        cv2.line(canvas, (fx0, fy0 + fh // 2), (fx1 - 1, fy0 + fh // 2), d.black, max(1, lw // 2), cv2.LINE_AA)
    pip = d.pip(suit, 5.5 * k)
    paint(canvas, pip, fx0 + 1.5 * k, fy0 + 1.5 * k, ink)
    paint(canvas, pip, fx0 + 1.5 * k, fy0 + 1.5 * k, ink, rotate180=True)


def _draw_joker(canvas: np.ndarray, d: DesignSpec, colour: str, k: float) -> None:
    H, W = canvas.shape[:2]
    rng = np.random.default_rng(_seed("joker", d.seed, colour))
    ink = d.red if colour == "R" else d.black
    _draw_joker_corners(canvas, d, ink, k)
    if d.joker_picture:
        _draw_jester_picture(canvas, d, k)
    else:
        _draw_jester(canvas, d, colour, ink, k, rng)


def _draw_joker_corners(canvas: np.ndarray, d: DesignSpec, ink: Color, k: float) -> None:
    H, W = canvas.shape[:2]
    style = d.joker_style
    # corner: the word JOKER across the corner or down the side, or a star
    if d.joker_word:
        word = text_mask("JOKER", d.font, d.rank_h * 0.7 * k, condense=d.condense * 0.8)
        paint(canvas, word, d.index_x * k, d.index_y * k, ink)
        paint(canvas, word, d.index_x * k, d.index_y * k, ink, rotate180=True)
    elif style in (0, 1):
        y = d.index_y * k
        for ch in "JOKER":
            m = text_mask(ch, d.font, d.rank_h * 0.55 * k, condense=d.condense)
            paint(canvas, m, d.index_x * k, y, ink)
            paint(canvas, m, d.index_x * k, y, ink, rotate180=True)
            y += m.shape[0] + 0.6 * k
    else:
        r = d.rank_h * 0.6 * k
        cx, cy = d.index_x * k + r, d.index_y * k + r
        pts = []
        for i in range(10):
            rad = r if i % 2 == 0 else r * 0.42
            a = -np.pi / 2 + i * np.pi / 5
            pts.append((cx + rad * np.cos(a), cy + rad * np.sin(a)))
        star = np.zeros((H, W), np.float32)
        cv2.fillPoly(star, [np.round(np.array(pts)).astype(np.int32)], 1.0, cv2.LINE_AA)
        star = np.maximum(star, star[::-1, ::-1])
        paint(canvas, star, 0, 0, ink)


def _draw_jester(canvas: np.ndarray, d: DesignSpec, colour: str, ink: Color, k: float, rng: np.random.Generator) -> None:
    H, W = canvas.shape[:2]
    style = d.joker_style
    cx, cy = W / 2, H * rng.uniform(0.45, 0.55)
    s = W * rng.uniform(0.22, 0.3)
    colours = [ink, d.court_palette[0], d.court_palette[1]] if colour == "R" else [ink, (90, 90, 90), ink]
    cv2.circle(canvas, (int(cx), int(cy)), int(s * 0.45), (150, 190, 235) if colour == "R" else (235, 235, 235), -1, cv2.LINE_AA)
    cv2.circle(canvas, (int(cx), int(cy)), int(s * 0.45), d.black, max(1, int(0.3 * k)), cv2.LINE_AA)
    for i, ang in enumerate((-150, -90, -30)):
        tip = (cx + s * 1.2 * np.cos(np.radians(ang)), cy - s * 0.3 + s * 1.0 * np.sin(np.radians(ang)))
        tri = np.array([[cx - s * 0.45, cy - s * 0.3], [cx + s * 0.45, cy - s * 0.3], tip], np.int32)
        cv2.fillPoly(canvas, [tri], colours[i % 3], cv2.LINE_AA)
        cv2.circle(canvas, (int(tip[0]), int(tip[1])), max(2, int(s * 0.12)), (40, 200, 235) if colour == "R" else ink,
                   -1, cv2.LINE_AA)
    collar = np.array([[cx - s * 0.8, cy + s * 0.45], [cx + s * 0.8, cy + s * 0.45], [cx, cy + s * 1.3]], np.int32)
    cv2.fillPoly(canvas, [collar], colours[1], cv2.LINE_AA)
    cv2.ellipse(canvas, (int(cx), int(cy + s * 0.1)), (int(s * 0.22), int(s * 0.12)), 0, 0, 180, d.black,
                max(1, int(0.3 * k)), cv2.LINE_AA)
    if style in (1, 3):
        word = text_mask("JOKER", d.font, 6.0 * k, condense=d.condense)
        paint(canvas, word, W / 2 - word.shape[1] / 2, H * 0.78, ink)


#: the inks of traditional court cards: red, blue, yellow, black (BGR)
TRADITIONAL: tuple[Color, ...] = ((35, 35, 205), (165, 75, 25), (40, 195, 240), (25, 25, 25))


def _traditional_palette(d: DesignSpec, rng: np.random.Generator) -> list[Color]:
    """Mostly the traditional inks, each a little off as printers make them, and now and then
    one of the deck's own colours."""
    pal = [_colour(rng, c, 18) for c in TRADITIONAL]
    if rng.random() < 0.4:
        pal.append(d.court_palette[int(rng.integers(len(d.court_palette)))])
    return pal


def _pictorial_half(w: int, h: int, d: DesignSpec, rank: str, k: float, rng: np.random.Generator) -> np.ndarray:
    """The upper half of a traditional court figure (BGR float) filling ``w`` x ``h``: a large
    head with its headgear, a robe across the whole width cut into many small fields of the
    traditional inks and patterns, all edged in black, and a held sceptre, sword or flower."""
    pal = _traditional_palette(d, rng)
    half = np.empty((h, w, 3), np.float32)
    half[:] = d.paper
    outline = d.black
    thick = max(1, int(0.3 * k))
    cx = w * rng.uniform(0.42, 0.58)
    head_r = w * rng.uniform(0.13, 0.19)
    head_y = h * rng.uniform(0.3, 0.42)
    shoulder = head_y + head_r * rng.uniform(0.9, 1.2)
    # the robe: the whole width below the shoulders, its sleeves reaching the frame
    robe = np.array([[0, h], [0, shoulder + h * 0.15], [cx - w * 0.3, shoulder], [cx + w * 0.3, shoulder],
                     [w, shoulder + h * 0.1], [w, h]], np.float32)
    cv2.fillPoly(half, [robe.astype(np.int32)], pal[int(rng.integers(len(pal)))], cv2.LINE_AA)
    # hair or a veil behind the head
    if rng.random() < 0.8:
        cv2.ellipse(half, (int(cx), int(head_y + head_r * 0.3)), (int(head_r * 1.35), int(head_r * 1.5)), 0, 180, 360,
                    pal[int(rng.integers(len(pal)))], -1, cv2.LINE_AA)
    _ornament(half, d, k, np.random.default_rng(rng.integers(1 << 30)), palette=pal[:4])
    # a sash across the robe, dotted as braid
    if rng.random() < 0.6:
        a = (0.0, shoulder + (h - shoulder) * rng.uniform(0.0, 0.5))
        b = (float(w), min(h - 1.0, a[1] + (h - shoulder) * rng.uniform(0.4, 0.9)))
        band = max(2, int(rng.uniform(1.2, 2.5) * k))
        cv2.line(half, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), outline, band + 2, cv2.LINE_AA)
        cv2.line(half, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), pal[int(rng.integers(len(pal)))], band, cv2.LINE_AA)
    # head: a face with eyes, nose and mouth
    skin = (170.0, 205.0, 240.0) if rng.random() < 0.6 else tuple(float(c) for c in d.paper)
    cv2.ellipse(half, (int(cx), int(head_y)), (int(head_r * 0.85), int(head_r)), 0, 0, 360, skin, -1, cv2.LINE_AA)
    cv2.ellipse(half, (int(cx), int(head_y)), (int(head_r * 0.85), int(head_r)), 0, 0, 360, outline, thick, cv2.LINE_AA)
    look = rng.uniform(-0.25, 0.25) * head_r
    for ex in (-0.35, 0.35):
        cv2.ellipse(half, (int(cx + look + ex * head_r), int(head_y - 0.15 * head_r)),
                    (max(1, int(0.14 * head_r)), max(1, int(0.07 * head_r))), 0, 0, 360, outline, -1, cv2.LINE_AA)
    cv2.line(half, (int(cx + look), int(head_y - 0.05 * head_r)), (int(cx + look * 1.3), int(head_y + 0.3 * head_r)),
             outline, thick, cv2.LINE_AA)
    cv2.ellipse(half, (int(cx + look), int(head_y + 0.55 * head_r)), (int(0.25 * head_r), int(0.08 * head_r)), 0, 0, 180,
                (40, 40, 180), max(1, thick), cv2.LINE_AA)
    if rank == "K" and rng.random() < 0.8:  # a beard
        beard = np.array([[cx - head_r * 0.8, head_y + head_r * 0.3], [cx + head_r * 0.8, head_y + head_r * 0.3],
                          [cx + head_r * 0.3, head_y + head_r * 1.5], [cx - head_r * 0.3, head_y + head_r * 1.5]], np.int32)
        cv2.fillPoly(half, [beard], pal[2] if rng.random() < 0.5 else (235.0, 235.0, 235.0), cv2.LINE_AA)
        cv2.polylines(half, [beard], True, outline, thick, cv2.LINE_AA)
    # headgear: a crown for kings and queens, a cap or hat for jacks, a three-pointed cap for jesters
    top = head_y - head_r
    gold, jewel = pal[2], pal[int(rng.integers(2))]
    if rank in ("K", "Q"):
        n = int(rng.integers(3, 6))
        span = head_r * (1.0 if rank == "K" else 0.8)
        pts = [(cx - span, top + head_r * 0.2)]
        for i in range(n):
            pts += [(cx - span + 2 * span * (i + 0.5) / n, top - head_r * rng.uniform(0.7, 1.1)),
                    (cx - span + 2 * span * (i + 1) / n, top - head_r * 0.25)]
        pts += [(cx + span, top + head_r * 0.2)]
        crown = np.array(pts, np.int32)
        cv2.fillPoly(half, [crown], gold, cv2.LINE_AA)
        cv2.polylines(half, [crown], True, outline, thick, cv2.LINE_AA)
        for i in range(n):
            cv2.circle(half, (int(cx - span + 2 * span * (i + 0.5) / n), int(top - head_r * 0.05)),
                       max(1, int(head_r * 0.1)), jewel, -1, cv2.LINE_AA)
    elif rank == "J":
        hat = np.array([[cx - head_r * 1.5, top + head_r * 0.45], [cx + head_r * 1.5, top + head_r * 0.2],
                        [cx + head_r * 0.7, top - head_r * 0.7], [cx - head_r * 0.8, top - head_r * 0.6]], np.int32)
        cv2.fillPoly(half, [hat], pal[int(rng.integers(len(pal)))], cv2.LINE_AA)
        cv2.polylines(half, [hat], True, outline, thick, cv2.LINE_AA)
        if rng.random() < 0.6:  # a feather
            cv2.ellipse(half, (int(cx + head_r), int(top - head_r * 0.4)), (int(head_r * 0.9), int(head_r * 0.25)), -30,
                        0, 360, gold, -1, cv2.LINE_AA)
    else:
        for ang in (-150, -90, -30):
            tip = (cx + head_r * 2.0 * np.cos(np.radians(ang)), top + head_r * 1.6 * np.sin(np.radians(ang)))
            tri = np.array([[cx - head_r * 0.9, top + head_r * 0.3], [cx + head_r * 0.9, top + head_r * 0.3], tip], np.int32)
            cv2.fillPoly(half, [tri], pal[int(rng.integers(len(pal)))], cv2.LINE_AA)
            cv2.polylines(half, [tri], True, outline, thick, cv2.LINE_AA)
            cv2.circle(half, (int(tip[0]), int(tip[1])), max(2, int(head_r * 0.18)), gold, -1, cv2.LINE_AA)
    # a held sceptre, sword, axe or flower, slanting across the figure
    side = 1 if rng.random() < 0.5 else -1
    x0, x1 = cx + side * w * rng.uniform(0.2, 0.38), cx + side * w * rng.uniform(0.1, 0.45)
    y0, y1 = h * rng.uniform(0.85, 1.0), h * rng.uniform(0.02, 0.2)
    staff = max(2, int(rng.uniform(0.6, 1.4) * k))
    cv2.line(half, (int(x0), int(y0)), (int(x1), int(y1)), outline, staff + 2, cv2.LINE_AA)
    cv2.line(half, (int(x0), int(y0)), (int(x1), int(y1)), gold if rng.random() < 0.6 else (200.0, 200.0, 200.0),
             staff, cv2.LINE_AA)
    cv2.circle(half, (int(x1), int(y1)), max(2, int(rng.uniform(1.0, 2.2) * k)), pal[int(rng.integers(len(pal)))], -1,
               cv2.LINE_AA)
    cv2.circle(half, (int(x1), int(y1)), max(2, int(rng.uniform(1.0, 2.2) * k)), outline, thick, cv2.LINE_AA)
    return half


COURTS = tuple(r + s for r in "JQK" for s in SUITS)


@functools.lru_cache(maxsize=1024)
def _frame_inset(d: DesignSpec, cards: tuple[str, ...]) -> float:
    """How far in from the left (and right) edge a picture's frame starts, mm: the design's
    choice, but never over the corner index of ``cards`` (commercial decks print the figure
    beside the index, not under it)."""
    return max(d.court_x, max(index_box(c, d, px_per_mm=2.0)[2] for c in cards) + 1.3)  # 0.8 mm + 0.5 for the coarse box


def _inked(picture: np.ndarray, d: DesignSpec) -> np.ndarray:
    """Where a picture drawn on the design's paper (BGR float) is not bare paper: what is
    printed when it goes onto the card alone, without its background."""
    inked: np.ndarray = np.abs(picture - np.asarray(d.paper, np.float32)).sum(axis=2) > 20
    return inked


@functools.lru_cache(maxsize=1024)
def _corner_clearance(d: DesignSpec) -> tuple[float, float]:
    """Width and height (mm) of the box a frameless figure keeps clear in each corner: every
    court's index and 0.8 mm more. Measured once a design (each of its courts asks twice: for
    the figure, and for the pip by the head)."""
    boxes = [index_box(c, d, px_per_mm=2.0) for c in COURTS]
    return max(b[2] for b in boxes) + 0.8, max(b[3] for b in boxes) + 0.8


@functools.lru_cache(maxsize=1024)
def _joker_box(d: DesignSpec) -> tuple[float, float, float, float]:
    """Where the jokers' corner index is printed (:func:`index_box`, mm), measured once a design."""
    return index_box("RJ", d)


def _draw_pictorial(canvas: np.ndarray, d: DesignSpec, rank: str, suit: str, k: float) -> None:
    """A traditional court card: the figure in full colour, turned half over half, filling a
    frame that starts just beside the index, and the suit's pip in the frame by the head."""
    H, W = canvas.shape[:2]
    rng = np.random.default_rng(_seed("pictorial", d.seed, rank, suit))
    ink = d.ink(suit)
    if d.frameless:
        fx0, fy0 = int(d.frameless_inset * k), int(min(d.court_y, 4.0) * k)
    else:
        fx0, fy0 = int(_frame_inset(d, COURTS) * k), int(d.court_y * k)
    fx1, fy1 = W - fx0, H - fy0
    fw, fh = fx1 - fx0, fy1 - fy0
    half = _pictorial_half(fw, fh // 2 + 1, d, rank, k, rng)
    full = np.concatenate([half, half[::-1, ::-1]], axis=0)[:fh]
    lw = max(1, int(rng.uniform(0.25, 0.6) * k))
    if d.frameless:
        # the figure alone, nearly as wide as the card, on the card's paper; its robe stops
        # short of the corner indices (all four corners, whichever the design prints)
        region = canvas[fy0:fy0 + full.shape[0], fx0:fx0 + fw]
        ink_px = _inked(full, d)
        clear_w, clear_h = _corner_clearance(d)
        keep = np.ones((H, W), bool)
        cx, cy = int(clear_w * k), int(clear_h * k)
        keep[:cy, :cx] = keep[:cy, W - cx:] = keep[H - cy:, :cx] = keep[H - cy:, W - cx:] = False
        ink_px &= keep[fy0:fy0 + full.shape[0], fx0:fx0 + fw]
        region[ink_px] = full[ink_px]
    else:
        canvas[fy0:fy0 + full.shape[0], fx0:fx0 + fw] = full
        cv2.rectangle(canvas, (fx0, fy0), (fx1 - 1, fy1 - 1), ink if rng.random() < 0.3 else d.black, lw, cv2.LINE_AA)
        if rng.random() < 0.5:
            cv2.line(canvas, (fx0, fy0 + fh // 2), (fx1 - 1, fy0 + fh // 2), d.black, max(1, lw // 2), cv2.LINE_AA)
    size = rng.uniform(4.5, 7.5) * k
    if d.frameless and d.index_layout != 2:  # no pip by the head: the index beside it shows the suit
        return
    pip = d.pip(suit, size)
    left = rng.random() < 0.5
    py = fy0 + 1.2 * k
    if d.frameless:
        # an index of the rank alone: the suit is printed by the head, just clear of the corner
        # index, on a patch of bare card (a court always shows its suit somewhere, or its suit
        # cannot be read)
        clear_w = _corner_clearance(d)[0] * k
        px = clear_w + 0.3 * k if left else W - clear_w - 0.3 * k - pip.shape[1]
        pad = int(round(0.6 * k))
        patch = np.ones((pip.shape[0] + 2 * pad + 1, pip.shape[1] + 2 * pad + 1), np.float32)
        paint(canvas, patch, int(px) - pad, int(py) - pad, d.paper)
        paint(canvas, patch, int(px) - pad, int(py) - pad, d.paper, rotate180=True)
    else:
        px = fx0 + 1.2 * k if left else fx1 - 1.2 * k - pip.shape[1]
    paint(canvas, pip, px, py, ink)
    paint(canvas, pip, px, py, ink, rotate180=True)


def _draw_jester_picture(canvas: np.ndarray, d: DesignSpec, k: float) -> None:
    """A joker drawn as a large full-colour jester, the same on both jokers of the deck (as on
    many commercial decks: only the index's colour tells the red joker from the black)."""
    H, W = canvas.shape[:2]
    rng = np.random.default_rng(_seed("jester picture", d.seed))
    # clear of both corner indices: beside a corner written down the side, below one written across
    box = _joker_box(d)
    top = max(d.court_y, 6.0)
    if box[2] - box[0] > 15.0:
        x0, top = d.court_x, max(top, box[3] + 1.0)
    else:
        x0 = _frame_inset(d, ("RJ",))
    y0 = int(rng.uniform(top, top + 6.0) * k)
    w = W - 2 * int(x0 * k)
    h = H - y0 - int(rng.uniform(top, top + 4.0) * k)
    x0 = int(x0 * k)
    figure = _pictorial_half(w, h, d, "joker", k, rng)
    region = canvas[y0:y0 + h, x0:x0 + w]
    ink = _inked(figure, d)
    region[ink] = figure[ink]
    if rng.random() < 0.5 and not d.joker_word:  # the word under the figure, unless the corners say it across
        word = text_mask("JOKER", d.font, rng.uniform(5.0, 7.0) * k, condense=d.condense)
        paint(canvas, word, W / 2 - word.shape[1] / 2, H - word.shape[0] - 3.0 * k, (35.0, 35.0, 205.0))


def _draw_back(canvas: np.ndarray, d: DesignSpec, k: float) -> None:
    H, W = canvas.shape[:2]
    fg, bg = d.back_colours
    m = int(d.back_margin * k)
    area: np.ndarray = np.zeros((H - 2 * m, W - 2 * m), np.float32)
    h, w = area.shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32) / k
    style = d.back_style
    rng = np.random.default_rng(_seed("back", d.seed))
    period = rng.uniform(2.0, 5.0)
    if style == 0:  # diagonal lattice
        area = ((np.sin((xx + yy) * 2 * np.pi / period) > 0.6) | (np.sin((xx - yy) * 2 * np.pi / period) > 0.6)).astype(np.float32)
    elif style == 1:  # dots
        area = ((np.sin(xx * 2 * np.pi / period) * np.sin(yy * 2 * np.pi / period)) > 0.5).astype(np.float32)
    elif style == 2:  # concentric rounded frames
        dx, dy = np.abs(xx - w / k / 2), np.abs(yy - h / k / 2)
        area = (np.sin(np.maximum(dx, dy * 0.72) * 2 * np.pi / period) > 0).astype(np.float32)
    elif style == 3:  # checks
        area = ((np.floor(xx / period * 2) + np.floor(yy / period * 2)) % 2).astype(np.float32)
    elif style == 4:  # waves
        area = (np.sin(yy * 2 * np.pi / period + 1.5 * np.sin(xx * 2 * np.pi / (period * 3))) > 0.3).astype(np.float32)
    elif style == 5:  # rosette
        dx, dy = xx - w / k / 2, yy - h / k / 2
        r, a = np.hypot(dx, dy), np.arctan2(dy, dx)
        area = (np.sin(r * 2 * np.pi / period + 3 * np.sin(int(rng.integers(4, 12)) * a)) > 0).astype(np.float32)
    else:  # blotchy symmetric texture
        noise: np.ndarray = rng.random((max(2, h // 8), max(2, w // 8))).astype(np.float32)
        noise = cv2.resize(noise, (w, h), interpolation=cv2.INTER_CUBIC)
        noise = (noise + noise[::-1, ::-1] + noise[:, ::-1] + noise[::-1, :]) / 4
        area = (noise > np.median(noise)).astype(np.float32)
    area = cv2.GaussianBlur(area, (0, 0), 0.4 * k / 4 + 0.3)
    area = np.maximum(area, area[::-1, ::-1])  # turn-symmetric, as backs are
    region = canvas[m:H - m, m:W - m]
    region[:] = np.asarray(bg, np.float32) * (1 - area[..., None]) + np.asarray(fg, np.float32) * area[..., None]
    if m > 0:
        cv2.rectangle(canvas, (m, m), (W - m - 1, H - m - 1), fg, max(1, int(0.6 * k)), cv2.LINE_AA)
    if d.back_picture:
        _draw_back_picture(canvas, d, k, rng)


def _draw_back_picture(canvas: np.ndarray, d: DesignSpec, k: float, rng: np.random.Generator) -> None:
    """A picture in a frame on the back's pattern: a court-like figure turned half over half, or
    one upright figure (a photo or scene), in full colour and with no index anywhere."""
    H, W = canvas.shape[:2]
    m = int(d.back_picture_inset * k)
    w, h = W - 2 * m, H - 2 * m
    figure = str(rng.choice(["K", "Q", "J", "joker"]))
    if d.back_picture == 1:
        half = _pictorial_half(w, h // 2 + 1, d, figure, k, rng)
        picture = np.concatenate([half, half[::-1, ::-1]], axis=0)[:h]
    else:
        picture = _pictorial_half(w, h, d, figure, k, rng)
    if rng.random() < 0.5:  # on a tinted ground rather than the paper
        ground = np.asarray(_colour(rng, d.back_colours[0], 60), np.float32)
        bare = ~_inked(picture, d)
        picture[bare] = 0.35 * picture[bare] + 0.65 * ground
    canvas[m:m + h, m:m + w] = picture
    cv2.rectangle(canvas, (m, m), (m + w - 1, m + h - 1), d.back_colours[0], max(1, int(rng.uniform(0.4, 1.5) * k)),
                  cv2.LINE_AA)


def _wear(canvas: np.ndarray, amount: float, k: float, rng: np.random.Generator) -> None:
    H, W = canvas.shape[:2]
    # faded ink / yellowed paper
    canvas[:] = canvas * (1 - 0.15 * amount) + 0.15 * amount * np.array([200, 225, 235], np.float32)
    # grime: low-frequency blotches
    g: np.ndarray = rng.random((6, 5)).astype(np.float32)
    g = cv2.resize(g, (W, H), interpolation=cv2.INTER_CUBIC)
    canvas *= (1 - 0.12 * amount * g)[..., None]
    # scuffs: thin light/dark scratches
    for _ in range(int(amount * 12)):
        p0 = rng.uniform((0, 0), (W, H))
        p1 = p0 + rng.normal(0, 8 * k, 2)
        c = float(rng.uniform(120, 255))
        cv2.line(canvas, tuple(int(v) for v in p0), tuple(int(v) for v in p1), (c, c, c), 1, cv2.LINE_AA)
    # dirty edges
    edge: np.ndarray = np.ones((H, W), np.float32)
    e = max(1, int(1.2 * k))
    edge[:e, :] = edge[-e:, :] = 0
    edge[:, :e] = edge[:, -e:] = 0
    edge = cv2.GaussianBlur(edge, (0, 0), e)
    canvas *= (1 - 0.25 * amount * (1 - edge))[..., None]


def index_box(card_id: str, design: int | DesignSpec, px_per_mm: float = 4.0) -> tuple[float, float, float, float]:
    """Where a card's top-left corner index is printed: ``(x0, y0, x1, y1)`` in mm from the
    card's top-left corner (what must show for the card to be read from its index alone)."""
    d = design_from_seed(design) if isinstance(design, int) else design
    k = float(px_per_mm)
    W, H = int(round(CARD_MM[0] * k)), int(round(CARD_MM[1] * k))
    canvas = np.full((H, W, 3), 255.0, np.float32)  # white paper: any ink shows
    if card_id in ("RJ", "BJ"):
        _draw_joker_corners(canvas, d, d.red if card_id == "RJ" else d.black, k)
    elif card_id in CARD_IDS:
        _draw_index(canvas, d, card_id[:-1], card_id[-1], k, None)
    else:
        raise CardIdError(f"{card_id!r} is not a card id with an index (like 'AS', '10H', 'RJ')")
    ys, xs = np.nonzero(canvas[:H // 2, :W // 2].min(axis=2) < 215)
    return float(xs.min()) / k, float(ys.min()) / k, float(xs.max() + 1) / k, float(ys.max() + 1) / k


def render_card(card_id: str, design: int | DesignSpec, *, px_per_mm: float = 4.0,
                rng: np.random.Generator | None = None, alpha: bool = False) -> np.ndarray:
    """Draw one card face (or ``"back"``) of a design, upright, 63x88 mm at ``px_per_mm``.

    ``card_id`` is a card as the game engine writes it (``"AS"``, ``"10H"``, ``"QD"``, ``"RJ"``,
    ``"BJ"``) or ``"back"``. ``design`` is a design seed (see :func:`design_from_seed`,
    :data:`HELDOUT_DESIGN_SEEDS`) or a :class:`DesignSpec`. Without ``rng`` the drawing is
    deterministic; with it each call adds its own small print shifts and wear.

    Returns BGR ``uint8`` (H, W, 3); with ``alpha=True`` BGRA whose alpha cuts the rounded
    corners (the BGR image has paper colour there)."""
    d = design_from_seed(design) if isinstance(design, int) else design
    k = float(px_per_mm)
    W, H = int(round(CARD_MM[0] * k)), int(round(CARD_MM[1] * k))
    canvas = np.empty((H, W, 3), np.float32)
    canvas[:] = d.paper
    if card_id == BACK:
        _draw_back(canvas, d, k)
    else:
        if d.border is not None:
            colour, inset, thick = d.border
            cv2.rectangle(canvas, (int(inset * k), int(inset * k)), (W - int(inset * k) - 1, H - int(inset * k) - 1),
                          colour, max(1, int(thick * k)), cv2.LINE_AA)
        if card_id in ("RJ", "BJ"):
            _draw_joker(canvas, d, card_id[0], k)
        else:
            if card_id not in CARD_IDS:
                raise CardIdError(f"{card_id!r} is not a card id (like 'AS', '10H', 'RJ') nor 'back'")
            rank, suit = card_id[:-1], card_id[-1]
            if rank in ("J", "Q", "K"):
                _draw_court(canvas, d, rank, suit, k)
            else:
                _draw_pips(canvas, d, 1 if rank == "A" else int(rank), suit, k)
            _draw_index(canvas, d, rank, suit, k, rng)
    wear = d.wear
    if rng is not None:
        wear = max(wear, float(rng.uniform(0, 0.5)) if rng.random() < 0.3 else 0.0)
    if wear > 0:
        _wear(canvas, wear, k, rng if rng is not None else np.random.default_rng(_seed("wear", d.seed, card_id)))
    out = np.clip(canvas, 0, 255).astype(np.uint8)
    if not alpha:
        return out
    return np.dstack([out, card_alpha(H, W, d.corner_radius * k)])


def card_alpha(h: int, w: int, radius: float) -> np.ndarray:
    """A uint8 mask of a card with rounded corners of ``radius`` px."""
    a = np.zeros((h, w), np.uint8)
    r = max(1, int(round(radius)))
    cv2.rectangle(a, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(a, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(a, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return a
