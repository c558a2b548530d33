"""The printed play mat as geometry: paper, ArUco markers, zones and card outlines, all in mm.

Mat coordinates: origin at the top-left corner of the paper (landscape), x to the right, y down,
millimetres. A layout depends only on the table protocol (``pegging``, ``tricks``, ``pile``,
``layout``), the number of seats and the paper, never on a game: the game only picks the protocol.

>>> mat = layout_for("pegging", 2)
>>> [z.name for z in mat.zones]
['seat0', 'seat1', 'starter', 'crib']
>>> len(mat.zone("seat0").slots), len(mat.zone("crib").slots)
(5, 4)
>>> mat.zone_at(*mat.zone("starter").slots[0].center).name
'starter'
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.api import CARD_MM
from vision.errors import LayoutError

#: Paper sizes, landscape (width, height) in mm, smallest first. A2 (a print shop's) is for the
#: 3- and 4-seat pegging mats: four outlines a seat, a crib of four and the starter. A1 is for
#: seven or eight hands of five cards (the seats mat), and four-hand Gin's two tables.
PAPERS = {"A4": (297.0, 210.0), "A3": (420.0, 297.0), "A2": (594.0, 420.0), "A1": (841.0, 594.0)}
TABLES = ("pegging", "tricks", "pile", "layout", "line", "combos", "rummy", "seats")
#: ArUco dictionary of the markers (an OpenCV ``cv2.aruco.DICT_*`` name) and their ids,
#: clockwise from the top-left corner.
MARKER_DICT = "DICT_4X4_50"
MARKER_IDS = (0, 1, 2, 3)
#: Gap between neighbouring card outlines, and the most outlines a row may have.
GAP_MM = 4.0
MAX_ROW = 8
#: outlines a seat's row needs on a 3- or 4-seat pegging mat (the four cards each keeps)
SEAT_ROW = 4
_EDGE = 6.0  # most printers cannot print the outer 5 mm
_QUIET = 3.0  # white around a marker
#: The markers' inset from the paper's edges: 8 mm, where every home printer prints (a clipped
#: or shrunk-to-fit edge must never cut a marker); their white margin is paper there anyway.
MARKER_INSET = 8.0


@dataclass(frozen=True, slots=True)
class Slot:
    """One card outline: its centre and (width, height) in mm (portrait 63x88 or landscape)."""

    index: int
    center: tuple[float, float]
    size: tuple[float, float]

    @property
    def rect(self) -> tuple[float, float, float, float]:
        (cx, cy), (w, h) = self.center, self.size
        return (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)

    def corners(self) -> np.ndarray:
        """Corners (top-left, top-right, bottom-right, bottom-left) as a 4x2 float32 array."""
        x0, y0, x1, y1 = self.rect
        return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)


@dataclass(frozen=True, slots=True)
class Zone:
    """A named area of the mat (``seat0``, ``starter``, ``crib``, ``pile``, ``trump``, ``grid``).

    ``kind`` says what it is for (``seat``, ``starter``, ``crib``, ``pile``, ``trump``, ``grid``);
    ``stack`` is true where a new card covers the last one (a pile), so covering is not removing;
    ``seat`` is the seat that plays into it, if any."""

    name: str
    kind: str
    rect: tuple[float, float, float, float]
    slots: tuple[Slot, ...]
    seat: int | None = None
    stack: bool = False

    def contains(self, x: float, y: float) -> bool:
        x0, y0, x1, y1 = self.rect
        return x0 <= x <= x1 and y0 <= y <= y1

    def nearest_slot(self, x: float, y: float) -> Slot:
        return min(self.slots, key=lambda s: (s.center[0] - x) ** 2 + (s.center[1] - y) ** 2)


@dataclass(frozen=True, slots=True)
class Marker:
    """An ArUco marker: its id and corners (top-left, top-right, bottom-right, bottom-left) in mm."""

    id: int
    corners: tuple[tuple[float, float], ...]

    @property
    def size(self) -> float:
        return self.corners[1][0] - self.corners[0][0]


@dataclass(frozen=True, slots=True)
class MatLayout:
    """A whole mat: paper size, markers, zones and where the title goes (all mm)."""

    table: str
    seats: int
    paper: str
    size: tuple[float, float]
    markers: tuple[Marker, ...]
    zones: tuple[Zone, ...]
    title_box: tuple[float, float, float, float]

    def zone(self, name: str) -> Zone:
        for zone in self.zones:
            if zone.name == name:
                return zone
        raise LayoutError(f"the {self.table} mat has no zone {name!r}; it has {', '.join(self.zone_names)}")

    @property
    def zone_names(self) -> tuple[str, ...]:
        return tuple(z.name for z in self.zones)

    def zone_at(self, x: float, y: float) -> Zone | None:
        """The zone whose rectangle holds the point, or None (the open mat)."""
        for zone in self.zones:
            if zone.contains(x, y):
                return zone
        return None

    def marker_points(self) -> dict[int, np.ndarray]:
        """Marker id -> its 4 corners in mm (4x2 float32), for the homography."""
        return {m.id: np.array(m.corners, np.float32) for m in self.markers}


def layout_for(table: str, seats: int, paper: str | None = None) -> MatLayout:
    """The mat for a table protocol, a number of seats and a paper size (None: A3, or the
    smallest paper the mat fits on, :func:`mat_paper`).

    Raises :class:`LayoutError` naming the problem when the protocol, seats or paper are unknown,
    or when the zones do not fit on the paper at true card size."""
    if paper is None:
        paper = mat_paper(table, seats)
    if paper not in PAPERS:
        raise LayoutError(f"unknown paper {paper!r}; choose one of {', '.join(PAPERS)}")
    builders = {"pegging": _pegging, "tricks": _around, "pile": _around, "layout": _grid, "line": _line_mat,
                "combos": _combos, "rummy": _rummy, "seats": _seat_rows}
    if table not in builders:
        raise LayoutError(f"unknown table protocol {table!r}; choose one of {', '.join(TABLES)}")
    limits = {"pegging": (2, 4), "tricks": (2, 8), "pile": (2, 8), "layout": (1, 8), "line": (2, 8),
              "combos": (3, 3), "rummy": (2, 4), "seats": (2, 8)}
    low, high = limits[table]
    if not isinstance(seats, int) or not low <= seats <= high:
        raise LayoutError(f"a {table} mat has {low} to {high} seats, not {seats!r}")
    size = PAPERS[paper]
    # A3: four 88 mm outlines fit between the markers; A1 is seen from afar (about 1 px/mm at 720p)
    marker_mm = {"A4": 16.0, "A3": 20.0, "A1": 48.0}.get(paper, 24.0)
    markers = _markers(size, marker_mm)
    reserve = MARKER_INSET + marker_mm + _QUIET
    zones, title = builders[table](table, seats, size, reserve)
    title = _free_box(zones, [title, (reserve + 1.0, _EDGE, reserve + 100.0, reserve - 1.0),
                              (reserve + 1.0, size[1] - reserve + 1.0, reserve + 100.0, size[1] - _EDGE),
                              (_EDGE, reserve + 1.0, _EDGE + 45.0, size[1] - reserve - 1.0)])
    layout = MatLayout(table, seats, paper, size, markers, tuple(zones), title)
    _check(layout)
    return layout


def mat_paper(table: str, seats: int, paper: str = "A3") -> str:
    """The paper a mat is printed on: ``paper`` when the mat fits on it, else the smallest larger
    paper it fits on (a 4-seat pegging mat goes on A2)."""
    if paper not in PAPERS:
        raise LayoutError(f"unknown paper {paper!r}; choose one of {', '.join(PAPERS)}")
    names = list(PAPERS)
    first: LayoutError | None = None
    for name in names[names.index(paper):]:
        try:
            layout_for(table, seats, name)
        except LayoutError as exc:
            first = first or exc
            continue
        return name
    assert first is not None
    raise first


def _free_box(zones: list[Zone], boxes: list[tuple[float, float, float, float]]) -> tuple[float, float, float, float]:
    """The first box that overlaps no outline (the title goes there); the last one if none is free."""
    rects = [s.rect for z in zones for s in z.slots]
    for box in boxes:
        if all(not (box[0] < r[2] and r[0] < box[2] and box[1] < r[3] and r[1] < box[3]) for r in rects):
            return box
    return boxes[-1]


def _markers(size: tuple[float, float], side: float) -> tuple[Marker, ...]:
    w, h = size
    e = MARKER_INSET
    origins = [(e, e), (w - e - side, e), (w - e - side, h - e - side), (e, h - e - side)]
    return tuple(
        Marker(mid, ((x, y), (x + side, y), (x + side, y + side), (x, y + side)))
        for mid, (x, y) in zip(MARKER_IDS, origins, strict=True)
    )


def _line(x0: float, x1: float, y0: float, y1: float, slot: tuple[float, float], cap: int) -> list[Slot]:
    """As many outlines of ``slot`` size as fit (up to ``cap``) along the longer side of the box."""
    w, h = slot
    horizontal = (x1 - x0) >= (y1 - y0)
    room = (x1 - x0) if horizontal else (y1 - y0)
    step = (w if horizontal else h) + GAP_MM
    n = min(cap, int((room + GAP_MM) // step))
    span = n * step - GAP_MM
    start = ((x0 + x1) - span) / 2 if horizontal else ((y0 + y1) - span) / 2
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    slots = []
    for i in range(n):
        c = start + i * step + (w if horizontal else h) / 2
        slots.append(Slot(i, (c, cy) if horizontal else (cx, c), slot))
    return slots


def _zone(name: str, kind: str, slots: list[Slot], seat: int | None = None, stack: bool = False) -> Zone:
    if not slots:
        raise LayoutError(f"zone {name!r} has no room for a single card outline on this paper")
    pad = GAP_MM / 2
    x0 = min(s.rect[0] for s in slots) - pad
    y0 = min(s.rect[1] for s in slots) - pad
    x1 = max(s.rect[2] for s in slots) + pad
    y1 = max(s.rect[3] for s in slots) + pad
    return Zone(name, kind, (x0, y0, x1, y1), tuple(slots), seat, stack)


#: A table style's zones and the box (x0, y0, x1, y1, mm) left for the mat's title.
_Plan = tuple[list[Zone], tuple[float, float, float, float]]


def _pegging(table: str, seats: int, size: tuple[float, float], reserve: float) -> _Plan:
    """Each seat plays into its own row; a starter outline and a crib of up to 4 outlines."""
    w, h = size
    cw, ch = CARD_MM
    portrait, landscape = (cw, ch), (ch, cw)
    if seats == 2:
        bottom = _line(reserve, w - reserve, h - _EDGE - ch, h - _EDGE, portrait, MAX_ROW)
        top = _line(reserve, w - reserve, _EDGE, _EDGE + ch, portrait, MAX_ROW)
        mid_y0, mid_y1 = _EDGE + ch + GAP_MM, h - _EDGE - ch - GAP_MM
        if mid_y1 - mid_y0 < ch:
            raise LayoutError(f"a 2-seat pegging mat needs {3 * ch + 2 * GAP_MM + 2 * _EDGE:.0f} mm of "
                              f"height for two rows and the starter; this paper has {h:.0f} mm: use A3")
        starter = _line(_EDGE, _EDGE + cw, mid_y0, mid_y1, portrait, 1)
        crib_w = 4 * cw + 3 * GAP_MM
        crib = _line(w - _EDGE - crib_w, w - _EDGE, mid_y0, mid_y1, portrait, 4)
        zones = [_zone("seat0", "seat", bottom, 0), _zone("seat1", "seat", top, 1),
                 _zone("starter", "starter", starter), _zone("crib", "crib", crib)]
        title = (_EDGE + cw + 2 * GAP_MM, mid_y0, w - _EDGE - crib_w - 2 * GAP_MM, mid_y1)
        return zones, title
    # 3-4 seats: rows along the bottom and top, columns (cards lying sideways) at the sides;
    # every seat plays its four cards into its own row, and the crib holds four.
    col = ch + GAP_MM
    rows = {
        "bottom": (_EDGE + col, w - _EDGE - col, h - _EDGE - ch, h - _EDGE, portrait),
        "left": (_EDGE, _EDGE + ch, reserve, h - reserve, landscape),
        "top": (_EDGE + col, w - _EDGE - col, _EDGE, _EDGE + ch, portrait),
        "right": (w - _EDGE - ch, w - _EDGE, reserve, h - reserve, landscape),
    }
    order = ["bottom", "left", "top", "right"][:seats]
    zones = []
    for seat, side in enumerate(order):
        x0, x1, y0, y1, shape = rows[side]
        slots = _line(x0, x1, y0, y1, shape, MAX_ROW)
        if len(slots) < SEAT_ROW:
            raise LayoutError(f"a {seats}-seat pegging mat needs {SEAT_ROW} outlines a seat; this paper has "
                              f"room for {len(slots)}: use A2")
        zones.append(_zone(f"seat{seat}", "seat", slots, seat))
    mx0, mx1 = _EDGE + col, w - _EDGE - col
    my0, my1 = _EDGE + ch + GAP_MM, h - _EDGE - ch - GAP_MM
    middle = _line(mx0, mx1, my0, my1, portrait, 5)
    if len(middle) < 5:
        raise LayoutError("no room for the starter and a crib of four outlines on this paper: use A2")
    zones.append(_zone("starter", "starter", middle[:1]))
    crib = [Slot(i, s.center, s.size) for i, s in enumerate(middle[1:])]
    zones.append(_zone("crib", "crib", crib))
    # the title goes in the free corner between the top-left marker and the first row
    title = (reserve + 1.0, _EDGE, _EDGE + col - GAP_MM, reserve - 1.0)
    return zones, title


#: seats per side of an "around" mat (bottom, left, top, right), seat 0 at the bottom, clockwise
_SIDES = {2: (1, 0, 1, 0), 3: (1, 0, 2, 0), 4: (1, 1, 1, 1), 5: (2, 1, 1, 1), 6: (2, 1, 2, 1),
          7: (2, 1, 3, 1), 8: (3, 1, 3, 1)}


def _around(table: str, seats: int, size: tuple[float, float], reserve: float) -> _Plan:
    """One outline per seat round the mat's edge, clockwise from the bottom, and a centre outline
    (the trick's trump, or the pile)."""
    w, h = size
    cw, ch = CARD_MM
    cx, cy = w / 2, h / 2
    bottom, left, top, right = _SIDES[seats]
    low_y, high_y = h - _EDGE - ch / 2, _EDGE + ch / 2
    side_x = _EDGE + cw / 2

    def row(n: int) -> list[float]:
        """x of ``n`` outlines spread along a row, left to right, clear of the side seats."""
        span = w - 2 * (_EDGE + cw + 2 * GAP_MM)
        return [cx + (i - (n - 1) / 2) * min(span / max(n, 1), cw + 40.0) for i in range(n)]

    centres = [(x, low_y) for x in reversed(row(bottom))]
    centres += [(side_x, cy)] * left
    centres += [(x, high_y) for x in row(top)]
    centres += [(w - side_x, cy)] * right
    zones = [_zone(f"seat{seat}", "seat", [Slot(0, centre, (cw, ch))], seat) for seat, centre in enumerate(centres)]
    centre_name = "trump" if table == "tricks" else "pile"
    zones.append(_zone(centre_name, centre_name, [Slot(0, (cx, cy), (cw, ch))], stack=table == "pile"))
    # the title: beside the centre outline, short of the right-hand seat's column
    title = (cx + cw / 2 + 2 * GAP_MM, cy - 6.0, w - _EDGE - cw - 2 * GAP_MM, cy + 6.0)
    return zones, title


def _grid(table: str, seats: int, size: tuple[float, float], reserve: float) -> _Plan:
    """A grid of outlines (cards lying sideways) for reading a whole arrangement, up to 4x4."""
    w, h = size
    cw, ch = CARD_MM
    gap = 2.0
    cols = min(4, int((w - 2 * (reserve - 1.0) + gap) // (ch + gap)))
    rows = min(4, int((h - 2 * _EDGE + gap) // (cw + gap)))
    if cols < 1 or rows < 1:
        raise LayoutError("no room for a grid of card outlines on this paper")
    x0 = (w - (cols * (ch + gap) - gap)) / 2
    y0 = (h - (rows * (cw + gap) - gap)) / 2
    slots = [
        Slot(r * cols + c, (x0 + c * (ch + gap) + ch / 2, y0 + r * (cw + gap) + cw / 2), (ch, cw))
        for r in range(rows) for c in range(cols)
    ]
    title = (reserve, _EDGE, w - reserve, max(_EDGE + 8.0, y0 - 1.0))
    return [_zone("grid", "grid", slots)], title


#: sideline outlines under each card of a line mat's main row
SIDE_DEPTH = 2


def _line_mat(table: str, seats: int, size: tuple[float, float], reserve: float) -> _Plan:
    """A main line of outlines across the top, between the markers, and under each of them a
    column of sideline outlines (New Eleusis). The mat shows the line's latest cards: when the row
    is full the players move it along. Sideline slot ``c * SIDE_DEPTH + r`` is row ``r`` under
    main-line slot ``c``. The layout is the same for any number of seats (cards come from hands)."""
    w, h = size
    cw, ch = CARD_MM
    main = _line(reserve, w - reserve, _EDGE, _EDGE + ch, (cw, ch), MAX_ROW)
    side: list[Slot] = []
    for column in main:
        for depth in range(SIDE_DEPTH):
            y = _EDGE + ch / 2 + (depth + 1) * (ch + GAP_MM)
            side.append(Slot(len(side), (column.center[0], y), (cw, ch)))
    if side[-1].rect[3] > h - _EDGE:
        raise LayoutError(f"a line mat needs {_EDGE * 2 + 3 * ch + 2 * GAP_MM:.0f} mm of height for the "
                          f"line and its sidelines; this paper has {h:.0f} mm: use A3")
    zones = [_zone("line", "line", main), _zone("side", "side", side)]
    bottom = side[-1].rect[3]
    title = (reserve + 1.0, bottom + 2.0, w - reserve - 1.0, h - _EDGE)
    return zones, title


#: outlines a seat's zone on a combinations mat has at least (a play of more is entered on the phone)
COMBO_LEAST = 6


def _combos(table: str, seats: int, size: tuple[float, float], reserve: float) -> _Plan:
    """Fight the Landlord's mat: each seat lays its plays in its own zone in front of it (seat 0
    along the bottom, cards upright; seats 1 and 2 along the left and right edges, cards lying
    sideways, two columns each), and the three middle cards lie in the kitty at the top."""
    w, h = size
    cw, ch = CARD_MM
    portrait, landscape = (cw, ch), (ch, cw)
    side_w = 2 * ch + GAP_MM
    rows = int((h - 2 * reserve + GAP_MM) // (cw + GAP_MM))  # the outer column runs between the markers
    cols = int((w - 2 * (_EDGE + side_w + GAP_MM) + GAP_MM) // (cw + GAP_MM))
    kitty_y1 = _EDGE + ch
    deep = int((h - _EDGE - kitty_y1 - 2 * GAP_MM + GAP_MM) // (ch + GAP_MM))
    if min(2 * rows, cols * deep) < COMBO_LEAST or cols < 3:
        raise LayoutError(f"a combinations mat needs {COMBO_LEAST} outlines a seat and the three middle "
                          f"cards; this paper has room for {max(0, min(2 * rows, cols * deep))}: use A2")
    y0 = (h - (rows * cw + (rows - 1) * GAP_MM)) / 2
    zones: list[Zone] = []
    bottom = [Slot(r * cols + c, (w / 2 + (c - (cols - 1) / 2) * (cw + GAP_MM), h - _EDGE - ch / 2 - r * (ch + GAP_MM)),
                   portrait) for r in range(deep) for c in range(cols)]
    zones.append(_zone("seat0", "seat", bottom, 0))
    for seat, edge_x, inward in ((1, _EDGE + ch / 2, 1.0), (2, w - _EDGE - ch / 2, -1.0)):
        slots = [Slot(col * rows + r, (edge_x + inward * (1 - col) * (ch + GAP_MM), y0 + cw / 2 + r * (cw + GAP_MM)),
                      landscape) for col in range(2) for r in range(rows)]
        zones.append(_zone(f"seat{seat}", "seat", slots, seat))
    kitty = [Slot(i, (w / 2 + (i - 1) * (cw + GAP_MM), _EDGE + ch / 2), portrait) for i in range(3)]
    zones.append(_zone("kitty", "kitty", kitty))
    title = (reserve + 1.0, _EDGE, w / 2 - 1.5 * cw - 2 * GAP_MM, reserve - 1.0)
    return zones, title


#: outlines in a seat's spread zone on a rummy mat (two rows of cards lying sideways): a whole hand
SPREAD = (2, 5)
#: the gaps between a spread zone's outlines, along a row and between its rows: wider than
#: elsewhere, so that cards laid a little askew side by side never touch
SPREAD_GAP = (10.0, 6.0)


def _rummy(table: str, seats: int, size: tuple[float, float], reserve: float) -> _Plan:
    """Gin Rummy: each seat's spread zone (two rows of five sideways outlines, where the hand is
    laid at a knock), seat 0's along the bottom edge and seat 1's along the top; between them the
    face-down stock and the discard pile, and a third seat's zone at the left of the middle band
    (the stock and the pile then lie sideways, one above the other, at its right). Four seats
    play at two tables: :func:`_rummy_four`."""
    w, h = size
    cw, ch = CARD_MM
    rows, per_row = SPREAD
    along, between = SPREAD_GAP
    band = rows * cw + (rows - 1) * between
    middle = (_EDGE + band + GAP_MM, h - _EDGE - band - GAP_MM)
    if middle[1] - middle[0] < (band if seats == 3 else ch + 2 * GAP_MM):
        raise LayoutError(f"a {seats}-seat rummy mat needs {2 * _EDGE + 3 * band + 2 * GAP_MM:.0f} mm of height "
                          f"for its spread zones, the stock and the pile; this paper has {h:.0f} mm: use A2")

    def spread(seat: int, x0: float, x1: float, y0: float) -> Zone:
        span = per_row * ch + (per_row - 1) * along
        if span > x1 - x0:
            raise LayoutError(f"a rummy spread zone needs {span:.0f} mm for {per_row} sideways outlines a row; "
                              f"this paper has {x1 - x0:.0f} mm: use A2")
        left = (x0 + x1 - span) / 2 + ch / 2
        slots = [Slot(r * per_row + i, (left + i * (ch + along), y0 + cw / 2 + r * (cw + between)), (ch, cw))
                 for r in range(rows) for i in range(per_row)]
        return _zone(f"seat{seat}", "seat", slots, seat)

    if seats == 4:
        return _rummy_four(size, reserve)
    zones = [spread(0, reserve, w - reserve, h - _EDGE - band), spread(1, reserve, w - reserve, _EDGE)]
    cy = h / 2
    if seats == 3:
        x1 = w - _EDGE - ch - 2 * GAP_MM
        zones.append(spread(2, _EDGE, x1, cy - band / 2))
        x = (x1 + w - _EDGE) / 2
        stock = Slot(0, (x, cy - cw / 2 - GAP_MM / 2), (ch, cw))
        pile = Slot(0, (x, cy + cw / 2 + GAP_MM / 2), (ch, cw))
        top = zones[1].rect
        title = (top[2] + GAP_MM, _EDGE, w - reserve, top[3])
    else:
        stock = Slot(0, (w / 2 - cw / 2 - 3 * GAP_MM, cy), (cw, ch))
        pile = Slot(0, (w / 2 + cw / 2 + 3 * GAP_MM, cy), (cw, ch))
        title = (reserve, cy - 6.0, stock.rect[0] - 2 * GAP_MM, cy + 6.0)
    zones += [_zone("stock", "stock", [stock]), _zone("pile", "pile", [pile], stack=True)]
    return zones, title


def _rummy_four(size: tuple[float, float], reserve: float) -> _Plan:
    """Four-hand Gin: two hands at once, at two tables on one sheet. Each player sits at an edge
    (seat 0 at the bottom, 1 left, 2 top, 3 right; partners face each other) with a spread zone
    in front of them, two rows of five cards upright to that player. In the middle lie two
    tables, a discard pile and a face-down stock each: the left one (``pile``, ``stock``) where
    seat 1 plays every hand, the right one (``pile1``, ``stock1``) seat 3's; seats 0 and 2 play
    at the table of the opponent they face that hand. Nobody moves between hands."""
    w, h = size
    cw, ch = CARD_MM
    rows, per_row = SPREAD
    along, between = SPREAD_GAP
    span, depth = per_row * cw + (per_row - 1) * along, rows * ch + (rows - 1) * between
    side_w, side_h = rows * ch + (rows - 1) * between, per_row * cw + (per_row - 1) * along
    if w < 2 * (_EDGE + side_w + GAP_MM) + span or h < 2 * (_EDGE + depth + GAP_MM) + ch:
        raise LayoutError(f"a 4-seat rummy mat needs {2 * (_EDGE + side_w + GAP_MM) + span:.0f} x "
                          f"{2 * (_EDGE + depth + GAP_MM) + ch:.0f} mm for four spread zones and two tables; "
                          f"this paper has {w:.0f} x {h:.0f} mm: use A1")

    # the first row of outlines is the one farther from its player, as on the two-seat mat: a hand
    # laying the second row never reaches over cards already laid
    def upright(seat: int, y0: float, far: int) -> Zone:  # the bottom and top seats: rows along the edge
        left = (w - span) / 2 + cw / 2
        slots = [Slot(r * per_row + i, (left + i * (cw + along), y0 + ch / 2 + abs(far - r) * (ch + between)),
                      (cw, ch)) for r in range(rows) for i in range(per_row)]
        return _zone(f"seat{seat}", "seat", slots, seat)

    def sideways(seat: int, x0: float, far: int) -> Zone:  # the left and right seats: columns along the edge
        top = (h - side_h) / 2 + cw / 2
        slots = [Slot(r * per_row + i, (x0 + ch / 2 + abs(far - r) * (ch + between), top + i * (cw + along)),
                      (ch, cw)) for r in range(rows) for i in range(per_row)]
        return _zone(f"seat{seat}", "seat", slots, seat)

    inner = rows - 1  # the row index nearest the middle, for the seats along the top and left edges
    zones = [upright(0, h - _EDGE - depth, 0), sideways(1, _EDGE, inner), upright(2, _EDGE, inner),
             sideways(3, w - _EDGE - side_w, 0)]
    x0, x1 = zones[1].rect[2] + GAP_MM, zones[3].rect[0] - GAP_MM
    cy = h / 2
    offset = cw / 2 + 3 * GAP_MM / 2
    for index, (cx, outward) in enumerate(((x0 + (x1 - x0) / 4, -1.0), (x1 - (x1 - x0) / 4, 1.0))):
        suffix = str(index) if index else ""
        pile = Slot(0, (cx + outward * offset, cy), (cw, ch))  # the pile towards the side seat
        stock = Slot(0, (cx - outward * offset, cy), (cw, ch))
        zones += [_zone(f"stock{suffix}", "stock", [stock]), _zone(f"pile{suffix}", "pile", [pile], stack=True)]
    title = (reserve + 1.0, _EDGE, zones[2].rect[0] - GAP_MM, reserve - 1.0)
    return zones, title


#: outlines of a seat on a seats mat: five at least (a poker hand), up to seven where the paper
#: has room (Ricochet Poker's six- and seven-card options)
SEAT_HAND = (5, 7)


def _seat_rows(table: str, seats: int, size: tuple[float, float], reserve: float) -> _Plan:
    """A block of outlines per seat, the seat's cards side by side: rows of upright cards, or
    columns of cards lying sideways where that fits more seats; as many outlines a seat as fit
    (from :data:`SEAT_HAND`). Seat 0 is at the bottom left, the seats go up the columns."""
    w, h = size
    cw, ch = CARD_MM
    corners = [(_EDGE, _EDGE, reserve, reserve), (w - reserve, _EDGE, w - _EDGE, reserve),
               (_EDGE, h - reserve, reserve, h - _EDGE), (w - reserve, h - reserve, w - _EDGE, h - _EDGE)]
    low, high = SEAT_HAND
    for n in range(high, low - 1, -1):
        for sideways in (False, True):
            card = (ch, cw) if sideways else (cw, ch)
            along = n * (card[1 if sideways else 0] + GAP_MM) - GAP_MM
            bw, bh = (card[0], along) if sideways else (along, card[1])
            cols = int((w - 2 * _EDGE + 2 * GAP_MM) // (bw + 2 * GAP_MM))
            rows = int((h - 2 * _EDGE + 2 * GAP_MM) // (bh + 2 * GAP_MM))
            if cols * rows < seats or cols < 1:
                continue
            cols = min(cols, -(-seats // max(1, rows)))
            rows = -(-seats // cols)
            x0 = (w - (cols * (bw + 2 * GAP_MM) - 2 * GAP_MM)) / 2
            y0 = (h - (rows * (bh + 2 * GAP_MM) - 2 * GAP_MM)) / 2
            zones: list[Zone] = []
            for seat in range(seats):
                col, row = divmod(seat, rows)
                bx, by = x0 + col * (bw + 2 * GAP_MM), y0 + (rows - 1 - row) * (bh + 2 * GAP_MM)
                slots = _line(bx, bx + bw, by, by + bh, card, n)
                zones.append(_zone(f"seat{seat}", "seat", slots, seat))
            rects = [sl.rect for z in zones for sl in z.slots]
            if any(r[0] < c[2] and c[0] < r[2] and r[1] < c[3] and c[1] < r[3] for r in rects for c in corners):
                continue  # a corner marker in the way
            top = min(r[1] for r in rects)
            title = (reserve + 1.0, _EDGE, w - reserve - 1.0, max(_EDGE + 8.0, top - 1.0))
            return zones, title
    raise LayoutError(f"{seats} seats of {low} card outlines do not fit on this paper: use a larger paper")


def _check(layout: MatLayout) -> None:
    """Outlines stay on the paper, off the markers and apart from each other."""
    w, h = layout.size
    boxes = [(z.name, s.rect) for z in layout.zones for s in z.slots]
    for m in layout.markers:
        (x0, y0), (x1, y1) = m.corners[0], m.corners[2]
        boxes.append((f"marker {m.id}", (x0 - 1, y0 - 1, x1 + 1, y1 + 1)))
    for name, (x0, y0, x1, y1) in boxes[: len(boxes) - len(layout.markers)]:
        if x0 < _EDGE - 1e-6 or y0 < _EDGE - 1e-6 or x1 > w - _EDGE + 1e-6 or y1 > h - _EDGE + 1e-6:
            raise LayoutError(f"{name} does not fit on {layout.paper} for a {layout.seats}-seat "
                              f"{layout.table} mat: use a larger paper")
    for i, (name_a, a) in enumerate(boxes):
        for name_b, b in boxes[i + 1:]:
            if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                raise LayoutError(f"{name_a} and {name_b} overlap on a {layout.seats}-seat "
                                  f"{layout.table} mat on {layout.paper}: use a larger paper or fewer seats")
