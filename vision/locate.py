"""Locating cards on the top-down mat image by difference against the empty mat.

The mat image (BGR, a few px per mm) is compared with the empty mat's appearance after a
per-channel gain taken from the open felt (so the lamp being turned up is not a card). Blobs
that differ are then sorted: a card-sized rectangle is a card, and so is one cut straight by the
mat's edge (a card overhanging the paper); a blob covering card outlines is one card per outline
it fills; anything else (a hand, an arm, a card still in a hand, a blob reaching in from the
edge) is an *occluder*, and the zones under it are frozen, not emptied.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.api import CARD_MM
from vision.mat import MatLayout, Zone

#: Side of a card's appearance signature (width, height) in cells.
SIGNATURE = (12, 16)


@dataclass(frozen=True, slots=True)
class SeenCard:
    """A card lying in a zone's slot this frame: its corners in mat mm (top-left, top-right,
    bottom-right, bottom-left of the upright card) and a small normalised appearance signature."""

    zone: str
    slot: int
    quad: np.ndarray
    signature: np.ndarray


@dataclass(frozen=True, slots=True)
class Sighting:
    """What one frame shows: the cards lying in zones, and the zones a hand (or anything that is not a
    card) covers this frame."""

    cards: tuple[SeenCard, ...]
    occluded: frozenset[str]


def similarity(a: np.ndarray, b: np.ndarray) -> float:
    """How alike two signatures are, -1..1 (1: the same card, either way up)."""
    return float(max(np.dot(a, b), np.dot(a, b[::-1])))


#: through a camera that shows no colour, the mat's difference from the empty mat is smoothed over
#: this many mm and taken from this bound: a back on the felt, whose mid-tones turn the felt's grey,
#: is then found whole (unsmoothed over 45, 57 % of its face shows, in fragments), and a grey
#: camera's noise (sigma 10) stays under it. Smoothed over 0.5 mm a back is still missed on 2 of 4
#: simulated cameras; over 1 mm the cards of a row run together
GREY_SMOOTH = 0.7
GREY_THRESHOLD = 30
#: how far past its edge one card's difference spreads, as a share of the card (a grid of 16 laid
#: edge to edge covers 16.2-16.6 cards through a grey camera)
CARD_SPREAD = 0.04


class Locator:
    """Finds cards on mat images of one layout at one scale. Create once, call per frame."""

    def __init__(self, layout: MatLayout, px_per_mm: float = 1.0, *, threshold: int = 45,
                 shape_tolerance: float = 0.22) -> None:
        self.layout = layout
        self.s = float(px_per_mm)
        self.threshold = threshold
        self.tolerance = shape_tolerance
        #: the camera shows no colour (:class:`vision.doubt.CameraColour`): differences in grey alone
        self.grey = False
        w, h = (round(v * self.s) for v in layout.size)
        self.shape = (h, w)
        self.card_px = CARD_MM[0] * CARD_MM[1] * self.s * self.s
        self._kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3))
        self._dense = 2 * round(3.5 * self.s) + 1  # the window a difference is judged dense in, about 7 mm
        self._felt = self._felt_samples(layout, h, w)
        self._slot_px = [
            (zone, slot, tuple(round(v * self.s) for v in slot.rect)) for zone in layout.zones for slot in zone.slots
        ]
        self._nearest = self._nearest_slot_map(h, w)
        sw, sh = SIGNATURE
        self._sig_dst = np.array([[0, 0], [sw, 0], [sw, sh]], np.float32)

    def _nearest_slot_map(self, h: int, w: int) -> np.ndarray:
        """For each mat pixel, the index (into all outlines) of the nearest outline centre."""
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        best = np.full((h, w), np.inf, np.float32)
        nearest = np.zeros((h, w), np.uint8)
        for i, (_zone, slot, _box) in enumerate(self._slot_px):
            d = (xx - slot.center[0] * self.s) ** 2 + (yy - slot.center[1] * self.s) ** 2
            closer = d < best
            best[closer] = d[closer]
            nearest[closer] = i
        return nearest

    def _felt_samples(self, layout: MatLayout, h: int, w: int) -> np.ndarray:
        """Flat indices of open felt (away from zones and markers) used to measure the light."""
        mask = np.ones((h, w), np.uint8)
        pad = 8.0
        for zone in layout.zones:
            x0, y0, x1, y1 = (round(v * self.s) for v in (zone.rect[0] - pad, zone.rect[1] - pad,
                                                            zone.rect[2] + pad, zone.rect[3] + pad))
            mask[max(0, y0):y1, max(0, x0):x1] = 0
        for marker in layout.markers:
            (mx0, my0), (mx1, my1) = marker.corners[0], marker.corners[2]
            mask[max(0, round((my0 - pad) * self.s)):round((my1 + pad) * self.s),
                 max(0, round((mx0 - pad) * self.s)):round((mx1 + pad) * self.s)] = 0
        idx = np.flatnonzero(mask)
        if len(idx) < 50:  # a crowded layout: fall back to the whole mat
            idx = np.arange(h * w)
        step = max(1, len(idx) // 3000)
        return idx[::step]

    def empty_outlines(self, reference: np.ndarray) -> list[tuple[str, int]]:
        """Repaint, in a freshly learned empty mat, the outlines that hold a card (the table was not
        clear when the camera started, e.g. after a power cut): each gets the look of an empty outline
        of the same size, so those cards are seen as placed instead of hiding in the reference.
        Returns the (zone, slot) repainted; changes ``reference`` in place."""
        felt = np.median(reference.reshape(-1, 3)[self._felt], axis=0)
        inset, pad = round(5.0 * self.s), round(3.0 * self.s)
        h, w = self.shape
        taken: list[tuple[str, int, tuple[int, int, int, int]]] = []
        empty: dict[tuple[int, int], tuple[int, int, int, int]] = {}
        for zone, slot, (x0, y0, x1, y1) in self._slot_px:
            inner = reference[y0 + inset:y1 - inset, x0 + inset:x1 - inset].astype(np.int16)
            off = np.abs(inner - felt.astype(np.int16)).max(axis=2) > self.threshold
            box = (max(0, y0 - pad), min(h, y1 + pad), max(0, x0 - pad), min(w, x1 + pad))
            if off.mean() > 0.5:
                taken.append((zone.name, slot.index, box))
            else:
                empty.setdefault((box[1] - box[0], box[3] - box[2]), box)
        for _zone, _slot, (ya, yb, xa, xb) in taken:
            donor = empty.get((yb - ya, xb - xa))
            if donor is None:
                reference[ya:yb, xa:xb] = felt.astype(np.uint8)
            else:
                reference[ya:yb, xa:xb] = reference[donor[0]:donor[1], donor[2]:donor[3]]
        return [(zone, slot) for zone, slot, _ in taken]

    def difference(self, mat: np.ndarray, reference: np.ndarray) -> np.ndarray:
        """Binary mask (uint8 0/255) of where the mat differs from the empty mat, light-corrected."""
        flat_cur = mat.reshape(-1, 3)[self._felt]
        flat_ref = reference.reshape(-1, 3)[self._felt]
        gain = (np.median(flat_cur, axis=0) + 1.0) / (np.median(flat_ref, axis=0) + 1.0)
        gain = np.clip(gain, 0.3, 3.0)
        # a per-channel scalar: OpenCV takes a 4-tuple, which older stubs do not describe
        scaled = cv2.multiply(reference, (float(gain[0]), float(gain[1]), float(gain[2]), 0.0),  # type: ignore[call-overload, unused-ignore]
                              dtype=cv2.CV_8U)
        diff = cv2.absdiff(mat, scaled)
        b, g, r = cv2.split(diff)
        peak = cv2.max(cv2.max(b, g), r)
        threshold = self.threshold
        if self.grey:
            # a grey camera sees a card back's mid-tones as the felt's grey, and is noisier: a
            # smoothed difference over a lower bound finds the card whole, not in fragments
            peak = cv2.GaussianBlur(peak, (0, 0), GREY_SMOOTH * self.s)
            threshold = GREY_THRESHOLD
        _, raw = cv2.threshold(peak, threshold, 255, cv2.THRESH_BINARY)
        mask = cv2.morphologyEx(raw, cv2.MORPH_OPEN, self._kernel)
        # a fine black-and-white back whose mean is near the felt's differs in thin lines a pixel
        # apart, which the opening (there to clear speckle) clears too: where a dense difference
        # lost a tenth of it so, each pixel takes its neighbours' majority instead (not
        # everywhere: that would close the thin gap between two cards touching)
        if cv2.countNonZero(raw) - cv2.countNonZero(mask) < 0.05 * self.card_px:
            return mask  # too little cleared to matter (the mat alone, a few plain cards)
        size = (self._dense, self._dense)
        before = cv2.blur(raw, size)
        lost = cv2.compare(cv2.blur(mask, size), cv2.convertScaleAbs(before, alpha=0.9), cv2.CMP_LT)
        lost = cv2.bitwise_and(lost, cv2.threshold(before, 128, 255, cv2.THRESH_BINARY)[1])
        if not cv2.countNonZero(lost):
            return mask
        return cv2.max(mask, cv2.bitwise_and(cv2.medianBlur(raw, 3), lost))

    def locate(self, mat: np.ndarray, reference: np.ndarray) -> tuple[Sighting, np.ndarray]:
        """Cards and occluded zones on this mat image, and the foreground mask."""
        mask = self.difference(mat, reference)
        # outer contours only: a card's pips and letters are holes, which the outline ignores
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        grey = cv2.cvtColor(mat, cv2.COLOR_BGR2GRAY)
        h, w = self.shape
        cards: dict[tuple[str, int], tuple[float, SeenCard]] = {}
        occluded: set[str] = set()
        for contour in contours:
            area = cv2.contourArea(contour)
            if area < 0.05 * self.card_px:
                continue
            x, y, bw, bh = cv2.boundingRect(contour)
            edge = x <= 1 or y <= 1 or x + bw >= w - 1 or y + bh >= h - 1
            if area < 0.3 * self.card_px:
                # fingertips reaching in freeze what they reach for; a coin or a peg lying on the
                # mat is no card and must not freeze its zone for good
                if edge:
                    occluded.update(self._zones_under((x, y, x + bw, y + bh)))
                continue
            found = self._cards_in(contour, (x, y, bw, bh), area, edge, contours)
            if not found:
                occluded.update(self._zones_under((x, y, x + bw, y + bh)))
                continue
            for quad_px in found:
                self._keep(cards, quad_px, grey)
        kept = tuple(card for _, card in sorted(cards.values(), key=lambda v: (v[1].zone, v[1].slot)))
        kept = tuple(c for c in kept if c.zone not in occluded)
        return Sighting(kept, frozenset(occluded)), mask

    def _card_box(self, rect: tuple[Sequence[float], Sequence[float], float], area: float) -> np.ndarray | None:
        """The corners of ``rect`` (a ``minAreaRect``) if it is card-sized and ``area`` fills it, else None."""
        (cx, cy), (rw, rh), angle = rect
        short, long = sorted((rw, rh))
        cw, ch = CARD_MM[0] * self.s, CARD_MM[1] * self.s
        tol = self.tolerance
        if (abs(short - cw) <= tol * cw and abs(long - ch) <= tol * ch
                and area >= 0.85 * rw * rh and rw * rh <= 1.35 * self.card_px):
            return cv2.boxPoints(rect)
        return None

    def _cards_in(self, contour: np.ndarray, box: tuple[int, int, int, int], area: float,
                  edge: bool, contours: Sequence[np.ndarray]) -> list[np.ndarray]:
        """Card quads (mat px) in one blob of the mask whose outer ``contours`` are given, or []
        when the blob is not made of cards."""
        one = self._whole_card(contour, area, edge)
        if one is not None:
            return [one]
        x, y, bw, bh = box
        solid = np.zeros((bh, bw), np.uint8)
        cv2.drawContours(solid, [contour], -1, 1, -1, offset=(-x, -y))
        offset = np.array([x, y], np.int32)
        # cards touching each other: split the blob between the outlines it covers (nearest centre)
        cells = self._nearest[y:y + bh, x:x + bw]
        quads: list[np.ndarray] = []
        for k in np.unique(cells[solid > 0]):
            part = cv2.bitwise_and(solid, (cells == k).view(np.uint8))
            outline, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            if not outline:
                continue
            biggest = max(outline, key=cv2.contourArea) + offset  # back in mat px
            part_area = cv2.contourArea(biggest)
            if part_area < 0.3 * self.card_px:
                continue
            found = self._whole_card(biggest, part_area, edge)
            if found is None:
                quads = []
                break
            quads.append(found)
        if len(quads) >= 2 and area <= self._room(len(quads), 0.3):
            return quads
        if edge:  # an arm reaching in may fill outlines: only card-shaped parts count at the edge
            return []
        # cards lying edge to edge: one card per outline the blob fills
        quads = []
        for _zone, slot, (x0, y0, x1, y1) in self._slot_px:
            ox0, oy0, ox1, oy1 = max(x0, x), max(y0, y), min(x1, x + bw), min(y1, y + bh)
            if ox1 <= ox0 or oy1 <= oy0:
                continue
            fill = np.count_nonzero(solid[oy0 - y:oy1 - y, ox0 - x:ox1 - x]) / max(1, (x1 - x0) * (y1 - y0))
            if fill >= 0.8 or (fill >= 0.3 and self._hull_fill((x0, y0, x1, y1), contours) >= 0.9):
                quads.append(np.asarray(slot.corners() * self.s, np.float32))
        if not quads or area > self._room(len(quads), 0.35):
            return []
        return quads

    def _room(self, cards: int, spare: float) -> float:
        """The most a blob of ``cards`` cards covers (px): each card's difference spreads a little
        past its edge (blur, shadow), a 25th of a card at most, and ``spare`` of a card besides
        (more would be something else lying among them)."""
        return (cards * (1.0 + CARD_SPREAD) + spare) * self.card_px

    def _whole_card(self, contour: np.ndarray, area: float, edge: bool) -> np.ndarray | None:
        """The corners of the one card ``contour`` outlines, or None. At the mat's edge the card
        may overhang: its outline is completed beyond the edge (a crop of the visible part only
        would miss the card's far end)."""
        if edge:
            cut = self._cut_card(contour, area)
            if cut is not None:
                return cut
        return self._card_box(cv2.minAreaRect(contour), area)

    def _cut_card(self, contour: np.ndarray, area: float) -> np.ndarray | None:
        """The whole card's corners (mat px, beyond the mat where it overhangs) when ``contour`` is
        a card cut straight by the mat's edge: a rectangle one card wide lying along a border, at
        least half a card long; None for anything else (an arm, a hand)."""
        rect = cv2.minAreaRect(contour)
        (rw, rh) = rect[1]
        if area < 0.85 * rw * rh:
            return None
        box = cv2.boxPoints(rect)
        h, w = self.shape
        near = 6.0 * self.s
        cw, ch = CARD_MM[0] * self.s, CARD_MM[1] * self.s
        for i in range(4):
            a, b = box[i], box[(i + 1) % 4]
            if not any(all(d <= near for d in pair) for pair in
                       ((a[0], b[0]), (a[1], b[1]), (w - 1 - a[0], w - 1 - b[0]), (h - 1 - a[1], h - 1 - b[1]))):
                continue  # this side does not run along one border
            across = float(np.linalg.norm(b - a))
            inward = box[(i + 3) % 4] - a  # from the cut side to the far side
            depth = float(np.linalg.norm(inward))
            for width, length in ((cw, ch), (ch, cw)):
                if abs(across - width) <= self.tolerance * width and 0.5 * length <= depth <= length:
                    out = -inward / max(depth, 1e-6) * (length - depth)
                    whole = box.copy()
                    whole[i] += out
                    whole[(i + 1) % 4] += out
                    return whole
        return None

    def _keep(self, cards: dict[tuple[str, int], tuple[float, SeenCard]], quad_px: np.ndarray,
              grey: np.ndarray) -> None:
        quad = upright(np.asarray(quad_px, np.float32) / self.s)
        cx, cy = quad.mean(axis=0)
        zone = self._zone_near(float(cx), float(cy))
        if zone is None:
            return  # a card on the open felt belongs to no zone
        slot = zone.nearest_slot(float(cx), float(cy))
        dist = (slot.center[0] - cx) ** 2 + (slot.center[1] - cy) ** 2
        key = (zone.name, slot.index)
        if key in cards and cards[key][0] <= dist:
            return
        cards[key] = (dist, SeenCard(zone.name, slot.index, quad, self._signature(grey, quad)))

    @staticmethod
    def _hull_fill(outline: tuple[int, int, int, int], contours: Sequence[np.ndarray]) -> float:
        """How much of ``outline`` (mat px) the hull of the whole mask's blobs within it covers.
        Through a grey camera a court's dark art can match the felt and cut its card's difference
        in pieces that fill the outline only together; the hull bridges the art (a card is convex)."""
        x0, y0, x1, y1 = outline
        solid = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.drawContours(solid, list(contours), -1, 1, -1, offset=(-x0, -y0))
        points = cv2.findNonZero(solid)
        if points is None:
            return 0.0
        hull = np.zeros_like(solid)
        cv2.fillConvexPoly(hull, cv2.convexHull(points), 1)
        return float(hull.mean())

    def _zone_near(self, x: float, y: float, reach: float = 15.0) -> Zone | None:
        zone = self.layout.zone_at(x, y)
        if zone is not None:
            return zone
        best, best_d = None, reach
        for z in self.layout.zones:
            x0, y0, x1, y1 = z.rect
            d = max(x0 - x, 0.0, x - x1) + max(y0 - y, 0.0, y - y1)
            if d < best_d:
                best, best_d = z, d
        return best

    def _zones_under(self, box: tuple[int, int, int, int], pad: float = 6.0) -> set[str]:
        x0, y0, x1, y1 = (v / self.s for v in box)
        return {z.name for z in self.layout.zones
                if x0 - pad < z.rect[2] and z.rect[0] < x1 + pad and y0 - pad < z.rect[3] and z.rect[1] < y1 + pad}

    def _signature(self, grey: np.ndarray, quad: np.ndarray) -> np.ndarray:
        m = cv2.getAffineTransform((quad[:3] * self.s).astype(np.float32), self._sig_dst)
        thumb = cv2.warpAffine(grey, m, SIGNATURE, flags=cv2.INTER_AREA).astype(np.float32).ravel()
        thumb -= thumb.mean()
        norm = float(np.linalg.norm(thumb))
        return thumb / norm if norm > 1e-6 else thumb


def upright(quad: np.ndarray) -> np.ndarray:
    """Order a card's 4 corners clockwise from the top-left of the card standing upright (long side
    vertical), choosing the top as the short edge nearer the mat's top (then left)."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    centre = q.mean(axis=0)
    order = np.argsort(np.arctan2(q[:, 1] - centre[1], q[:, 0] - centre[0]))
    q = q[order]  # clockwise on screen (y down)
    if np.linalg.norm(q[1] - q[0]) > np.linalg.norm(q[2] - q[1]):
        q = np.roll(q, -1, axis=0)  # make 0->1 a short edge
    top_a = (q[0] + q[1]) / 2
    top_b = (q[2] + q[3]) / 2
    if (top_b[1], top_b[0]) < (top_a[1], top_a[0]):
        q = np.roll(q, 2, axis=0)
    return q


def crop_card(frame: np.ndarray, to_frame: np.ndarray, quad_mm: np.ndarray, px_per_mm: float = 2.0,
              out: np.ndarray | None = None) -> np.ndarray:
    """The upright card image (BGR, ``px_per_mm``) cut from the camera frame: ``to_frame`` maps mat mm
    to frame pixels."""
    w, h = round(CARD_MM[0] * px_per_mm), round(CARD_MM[1] * px_per_mm)
    src = cv2.perspectiveTransform(quad_mm.reshape(-1, 1, 2).astype(np.float64), to_frame).reshape(4, 2)
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    m = cv2.getPerspectiveTransform(src.astype(np.float32), dst)
    if out is None:
        out = np.empty((h, w, 3), np.uint8)
    cv2.warpPerspective(frame, m, (w, h), dst=out, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return out


def quad_height(quad: np.ndarray) -> float:
    """A card outline's height (corners in :func:`crop_card`'s order): the mean length of its two
    long sides."""
    return 0.5 * float(np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1]))


def seen_height(to_frame: np.ndarray, quad_mm: np.ndarray) -> float:
    """How many pixels high the camera frame shows the card outlined by ``quad_mm`` (mat mm):
    its :func:`quad_height` once mapped by ``to_frame``."""
    return quad_height(cv2.perspectiveTransform(quad_mm.reshape(-1, 1, 2).astype(np.float64), to_frame).reshape(4, 2))


# -- cards in photos (pegpi classify and recognize) --------------------------------------------

#: a photo is brought down to this long side before a card is looked for and cut from it: a card
#: that fills a twelfth of it is still over two crops high, and a 12-megapixel photo costs no more
#: than a small one after its one shrinking
PHOTO_LONG_SIDE = 1280
#: an outline covering this share of the photo or more is the card filling it, or the table; it
#: neither swallows the outlines inside it nor sets the size of the cards
FRAME_SHARE = 0.8


def downscaled(image: np.ndarray, long_side: int = PHOTO_LONG_SIDE, *, step: np.ndarray | None = None
               ) -> tuple[np.ndarray, float]:
    """``image`` shrunk so that its long side is at most ``long_side``, and the factor applied
    (1.0 when it was small enough already). Area averaging of a 12-megapixel photo by an
    uneven factor costs several times the rest of a reading: the photo is first brought by
    interpolation to twice the size (whose samples then still touch every pixel or nearly),
    and only that halved by averaging; a photo under twice the size is only interpolated.
    ``step``: the interpolated step of :func:`downscaled_and_twice` at half ``long_side``,
    taken as the answer when it is the image interpolation would give (the same size)."""
    small, s, _twice = downscaled_and_twice(image, long_side, step=step)
    return small, s


def downscaled_and_twice(image: np.ndarray, long_side: int, *, step: np.ndarray | None = None
                         ) -> tuple[np.ndarray, float, np.ndarray | None]:
    """:func:`downscaled`, and the image at twice its size that it halved (None if none was
    made): ``downscaled(image, 2 * long_side, step=...)`` takes it rather than interpolating
    the photo a second time."""
    size, s = shrunk_size(image.shape, long_side)
    if s >= 1.0:
        return image, 1.0, None
    if s >= 0.5:
        if step is not None and step.shape[1::-1] == size:
            return step, s, None
        return cv2.resize(image, size, interpolation=cv2.INTER_LINEAR), s, None
    twice = cv2.resize(image, (2 * size[0], 2 * size[1]), interpolation=cv2.INTER_LINEAR)
    return cv2.resize(twice, size, interpolation=cv2.INTER_AREA), s, twice


def shrunk_size(shape: tuple[int, ...], long_side: int) -> tuple[tuple[int, int], float]:
    """The (width, height) :func:`downscaled` brings an image of ``shape`` to, and its factor
    (at least 1.0 when it leaves the image as it is)."""
    h, w = shape[:2]
    s = long_side / max(h, w)
    return (max(1, round(w * s)), max(1, round(h * s))), s


def halved(image: np.ndarray) -> np.ndarray:
    """``image`` at half its size (rounded up), each pixel the mean of the four it covers."""
    h, w = image.shape[:2]
    return cv2.resize(image, ((w + 1) // 2, (h + 1) // 2), interpolation=cv2.INTER_AREA)


#: a photo whose finest detail is under this share of the next coarser detail is soft (out of
#: focus, or enlarged): its detail lies at half its size. Photos as taken, shrunk to 1280 px if
#: larger, measure 0.52-0.85 (5th percentile to most), the same photos enlarged twice 0.39-0.50.
SOFT = 0.5


def _detail(grey: np.ndarray) -> float:
    """How much a grey image (float32) loses when halved: the mean difference from its halving
    brought back to size."""
    back = cv2.resize(halved(grey), grey.shape[::-1], interpolation=cv2.INTER_LINEAR)
    return float(np.mean(np.abs(grey - back)))


def soft(image: np.ndarray) -> bool:
    """Whether ``image`` (BGR) shows no detail at its finest scale (:data:`SOFT`), judged on its
    middle quarter (where the cards are; a quarter of the cost)."""
    h, w = image.shape[:2]
    grey = cv2.cvtColor(image[h // 4:h - h // 4, w // 4:w - w // 4], cv2.COLOR_BGR2GRAY).astype(np.float32)
    return _detail(grey) < SOFT * _detail(halved(grey))


#: a photo whose brightest part (its 99th percentile of grey) is under this was taken in dim
#: light, darker than any the card network learnt from: it is brightened to :data:`LIT` first
DIM, LIT = 150.0, 230.0


def lit(image: np.ndarray) -> np.ndarray:
    """``image`` (BGR uint8), brightened if it is :data:`DIM` (a card on a dark cloth, paper at
    about 40 of 255 read as no card); otherwise the image itself."""
    top = float(np.percentile(cv2.cvtColor(image[::4, ::4], cv2.COLOR_BGR2GRAY), 99))  # every 16th pixel will do
    if top >= DIM:
        return image
    return cv2.convertScaleAbs(image, alpha=LIT / max(top, 1.0))


def frame_quad(h: int, w: int) -> np.ndarray:
    """The photo's own frame as a card outline (corner 0 -> 1 a short side): a card that fills the
    photo, as a phone crops it or the table pipeline warps it."""
    quad = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    return np.roll(quad, -1, axis=0) if w > h else quad


def inside(inner: np.ndarray, outer: np.ndarray, share: float = 0.8) -> bool:
    """Whether outline ``inner`` lies within ``outer`` (nine tenths of it or more) and is smaller
    than it by more than ``1 / share``: the printed frame of a court's picture, a box in its art."""
    a, b = float(cv2.contourArea(inner)), float(cv2.contourArea(outer))
    return b * share > a and cv2.intersectConvexConvex(inner.astype(np.float32), outer.astype(np.float32))[0] >= 0.9 * a


def outermost(quads: list[np.ndarray], frame_area: float | None = None, share: float = 0.8,
              much_larger: float | None = None,
              lies_on: Callable[[np.ndarray, np.ndarray], bool] | None = None) -> list[np.ndarray]:
    """``quads`` less each one lying inside a card outline larger by more than ``1 / share``: a
    card never lies inside another one (a card with its shadow is hardly larger, and kept apart).
    An outline covering :data:`FRAME_SHARE` of a photo of ``frame_area`` may be the table rather
    than a card, so it removes nothing: which of it and the outlines inside it is the card is for
    their corner indices to say (:func:`nested_losers`). Nor, with ``much_larger``, does one
    that many times the size of the outline inside it (a pale table's outline round its card),
    nor one that ``lies_on(inner, outer)`` says the inner outline lies on (a card on a tray)."""
    big = [q for q in quads if frame_area is None or cv2.contourArea(q) < FRAME_SHARE * frame_area]
    return [q for q in quads
            if not any(inside(q, b, share) and (lies_on is None or not lies_on(q, b)) for b in big
                       if b is not q and (much_larger is None or cv2.contourArea(b) < much_larger * cv2.contourArea(q)))]


def nested_losers(quads: Sequence[np.ndarray], index_shows: Sequence[bool],
                  lies_on: Callable[[np.ndarray, np.ndarray], bool] | None = None) -> set[int]:
    """Of outlines read already, those to drop because they nest with another: an outline inside
    one whose corner shows a card index is part of that card's print (a court's frame, a pip);
    an outline round one whose index shows, itself showing none, is the table round the card, and
    so is one that the inner outline showing its index ``lies_on`` (a tray's outline whose
    corner takes in the card's index)."""
    out: set[int] = set()
    for i, q in enumerate(quads):
        for j, big in enumerate(quads):
            if i == j or not inside(q, big):
                continue
            if index_shows[i] and lies_on is not None and lies_on(q, big):
                out.add(j)
            elif index_shows[j]:
                out.add(i)
            elif index_shows[i]:
                out.add(j)
    return out


#: a card seen in a photo: its sides' ratio (long over short, each the mean of two opposite
#: sides) lies in this range; over 88/63 for a card seen at a slant or in a photo stretched by
#: the phone's export, down to a card seen nearly edge on along its long side
PHOTO_ASPECT = (1.15, 2.5)
#: and each corner's angle within this many degrees of a right angle (a slanted view)
CORNER_SLACK = 30.0


def sides_ratio(quad: np.ndarray) -> float:
    """A quadrilateral's long sides over its short ones (each pair of opposite sides summed)."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    sides = np.linalg.norm(np.roll(q, -1, axis=0) - q, axis=1)
    a, b = sides[0] + sides[2], sides[1] + sides[3]
    return float(max(a, b) / max(1e-6, min(a, b)))


def card_shaped(quad: np.ndarray) -> bool:
    """Whether a convex quadrilateral (corners in order round it) can be a card's outline in a
    photo: its aspect within :data:`PHOTO_ASPECT`, every corner within :data:`CORNER_SLACK` of
    a right angle, and opposite sides not too unlike (a perspective, not a trapezoid of junk)."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    sides = np.linalg.norm(np.roll(q, -1, axis=0) - q, axis=1)
    if sides.min() < 4 or not PHOTO_ASPECT[0] <= sides_ratio(q) <= PHOTO_ASPECT[1]:
        return False
    if min(sides[0], sides[2]) < 0.6 * max(sides[0], sides[2]) or min(sides[1], sides[3]) < 0.6 * max(sides[1], sides[3]):
        return False
    return right_angled(q)


def right_angled(quad: np.ndarray) -> bool:
    """Whether every corner of a quadrilateral is within :data:`CORNER_SLACK` of a right angle."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    for i in range(4):
        u, v = q[i - 1] - q[i], q[(i + 1) % 4] - q[i]
        cos = float(np.dot(u, v) / (np.linalg.norm(u) * np.linalg.norm(v)))
        if abs(cos) > np.sin(np.radians(CORNER_SLACK)):
            return False
    return True
