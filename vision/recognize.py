"""Find and read every card in an arbitrary photo.

1. Segment card-like regions several ways (bright low-saturation paper against the table,
   closed edges) and take their outlines.
2. An outline that is a card-shaped quadrilateral is one card. Any other outline (touching,
   overlapping or fanned cards) gives a card hypothesis at each of its right-angled corners,
   sized from the single cards found or from the outline itself.
3. Every hypothesis is warped upright (long side vertical, both ways round) and read in one
   batched classifier call; readings that are neither ``unknown`` nor unsure are kept, and
   overlapping hypotheses that claim the same card, or the same index corner, are merged. A
   hypothesis the whole-card reading is unsure of (a card mostly under others, in a row or a
   held fan) is read from its corner index alone, if the model can (its index network, or
   the corner head of older models); one whose index leans to a card without being sure is
   read again moved a few mm or degrees, and taken if one of those reads the same card surely.
   A hypothesis's whole-card reading counts only when its corner index reads the same card.
4. Index corners are also proposed at the ends of the photo's straight edges, outline or not
   (a held fan on a table as light as its cards), and read by the index alone.

Hypotheses are read :data:`CHUNK` at a time, by their corner index first (a hypothesis whose
index shows no card is never taken, so the whole-card network never reads it), and cut from
one image pyramid, so that memory and time stay bounded whatever a photo proposes. A reading
whose index and whole card disagree, or a suited card in a photo without colour, is held below
sure (:mod:`vision.doubt`).

``recognize(image, classifier) -> list[Detection]``; each detection has the card, its
confidence and its four corners in image pixels (the card's top-left, top-right, bottom-right,
bottom-left as read).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Container, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import TypeAlias

import cv2
import numpy as np

from vision.api import CARD_MM, UNKNOWN, CardClassifier, IndexReader, Prediction, SuitReader
from vision.classify import (
    LABELS,
    Looks,
    LooksAt,
    OnnxCardClassifier,
    by_rank,
    grey_corners_for,
    grey_suits_for,
    rank_groups,
)
from vision.classify import SUITS as GREY_SUITS
from vision.doubt import (
    BLANKS,
    COLOURLESS,
    DOUBT,
    INDEX_SAYS,
    INDEX_SURE,
    JOKERS,
    balanced,
    colour_and_cast,
    colour_strength,
    court_unsure,
    doubted,
    held,
    index_over_blank,
    shows_index,
    suit_gainsays,
    suited,
    sure_black,
)
from vision.finder import IndexFinder, IndexMark, finder_for, mark_reader_for, wide_mark_reader_for
from vision.grey import shape_denies
from vision.images import counted_median, high_percentile, noise_sigma, whole_median
from vision.locate import (
    FRAME_SHARE,
    PHOTO_ASPECT,
    PHOTO_LONG_SIDE,
    card_shaped,
    downscaled,
    downscaled_and_twice,
    frame_quad,
    halved,
    inside,
    lit,
    nested_losers,
    outermost,
    right_angled,
    shrunk_size,
    sides_ratio,
    soft,
)
from vision.locate import quad_height as _height
from vision.model_input import INPUT_H, INPUT_W, half_turned, preprocess_batch, stretched

ASPECT = CARD_MM[1] / CARD_MM[0]  # 1.397
CROP_W, CROP_H = 126, 176  # 2 px/mm, what the table pipeline gives the classifier
_WORK = 1280  # long side of the image the detector works on


@dataclass(frozen=True)
class Detection:
    card: str
    confidence: float
    corners: np.ndarray  # 4x2 float32, image pixels: top-left, top-right, bottom-right, bottom-left

    def as_dict(self) -> dict[str, object]:
        return {"card": self.card, "confidence": round(self.confidence, 4),
                "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners]}


#: a card face is at least this much lighter than the table within a tenth of the photo around
#: it, on a table nearly as light as the card (pale wood) and under light that falls off across it
LIGHTER_AROUND = 1.06


def _lighter_than_around(grey: np.ndarray) -> np.ndarray:
    """Where ``grey`` is :data:`LIGHTER_AROUND` times lighter than its surroundings' mean (a
    Gaussian a tenth of the photo wide, worked out on a quarter-size copy to stay cheap)."""
    h, w = grey.shape[:2]
    small = cv2.resize(grey, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_AREA)
    around = cv2.GaussianBlur(small.astype(np.float32), (0, 0), max(1.0, min(h, w) / 40))
    around = cv2.resize(around, (w, h), interpolation=cv2.INTER_LINEAR)
    # compared by OpenCV: 255 or 0 straight into bytes, with no boolean image between
    return cv2.compare(grey.astype(np.float32), LIGHTER_AROUND * np.maximum(around, 1.0), cv2.CMP_GT)


#: where :func:`_with_lighter` puts the mask of what is lighter than around it
_LIGHTER_AT = 5


def _with_lighter(masks: list[np.ndarray], grey: np.ndarray) -> list[np.ndarray]:
    """``masks`` (:func:`_masks` of an image, ``grey`` in grey) with the mask of where it is
    lighter than around it among them (for a photo of one card: among several cards, that mask's
    blobs would set the size of the cards sought)."""
    return masks[:_LIGHTER_AT] + [_cleaned(_lighter_than_around(grey))] + masks[_LIGHTER_AT:]


def _masks(img: np.ndarray, grey: np.ndarray, *, lighter: bool = False) -> list[np.ndarray]:
    """Binary masks of card-like regions (``grey``: ``img`` in grey): by colour, by distance from
    the table's colour, and by filled edges; with ``lighter`` also where the image is lighter than
    around it (:func:`_with_lighter`)."""
    _h, s, v = cv2.split(cv2.cvtColor(img, cv2.COLOR_BGR2HSV))
    white = cv2.GaussianBlur(cv2.subtract(v, s), (5, 5), 0)  # bright and grey; bytes saturate at 0
    masks = []
    thr, m = cv2.threshold(white, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    masks.append(m)
    # a stricter level, for light tables
    _, m2 = cv2.threshold(white, min(250, int(thr + (255 - thr) * 0.45)), 255, cv2.THRESH_BINARY)
    masks.append(m2)
    # distance from the table's colour (estimated on the image border), for tables as light as cards
    lab = cv2.cvtColor(cv2.GaussianBlur(img, (5, 5), 0), cv2.COLOR_BGR2LAB)
    b = max(2, min(img.shape[:2]) // 40)
    border = np.concatenate([lab[:b].reshape(-1, 3), lab[-b:].reshape(-1, 3), lab[:, :b].reshape(-1, 3),
                             lab[:, -b:].reshape(-1, 3)])
    table = [whole_median(border[:, c]) for c in range(3)]
    # channel by channel: numpy's reductions over a last axis of three are several times slower
    dist = np.sqrt(sum(((c.astype(np.float32) - np.float32(t)) * np.float32(wt)) ** 2
                       for c, t, wt in zip(cv2.split(lab), table, (0.6, 1.0, 1.0), strict=True)))
    for level in (9.0, 18.0):  # fixed colour differences from the table
        masks.append(cv2.threshold(dist, level, 255, cv2.THRESH_BINARY)[1].astype(np.uint8))  # 255 where over
    dist = np.clip(dist * (255.0 / max(1.0, high_percentile(dist, 99.5))), 0, 255).astype(np.uint8)
    _, m3 = cv2.threshold(dist, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    masks.append(m3)
    smooth = cv2.GaussianBlur(grey, (5, 5), 0)
    med = whole_median(smooth)
    for lo, hi in ((max(8, 0.3 * med), min(255, max(30, 0.8 * med))), (6, 18)):
        edges = cv2.Canny(smooth, int(lo), int(hi))
        edges = cv2.morphologyEx(cv2.dilate(edges, np.ones((3, 3), np.uint8)), cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))
        contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        filled = np.zeros_like(edges)
        cv2.drawContours(filled, contours, -1, 255, -1)
        masks.append(cv2.erode(filled, np.ones((3, 3), np.uint8)))
    masks = [_cleaned(m) for m in masks]
    return _with_lighter(masks, grey) if lighter else masks


def _cleaned(mask: np.ndarray) -> np.ndarray:
    """``mask`` opened and closed by a 5x5 square: specks off, pinholes filled."""
    k = np.ones((5, 5), np.uint8)
    return cv2.morphologyEx(cv2.morphologyEx(mask, cv2.MORPH_OPEN, k), cv2.MORPH_CLOSE, k)


def _upright(quad: np.ndarray) -> np.ndarray:
    """:func:`_upright_all` of one quad."""
    return _upright_all([quad])[0]


def _upright_all(quads: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Each quad's corners clockwise (image y down), re-indexed so that corner 0 -> 1 is a short
    side (the top); worked out for all at once (a photo has a thousand hypotheses)."""
    if not len(quads):
        return []
    q = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    cx = (q[:, 0, 0] + q[:, 1, 0] + q[:, 2, 0] + q[:, 3, 0]) / 4
    cy = (q[:, 0, 1] + q[:, 1, 1] + q[:, 2, 1] + q[:, 3, 1]) / 4
    order = np.argsort(np.arctan2(q[..., 1] - cy[:, None], q[..., 0] - cx[:, None]), axis=1, kind="stable")
    o = np.take_along_axis(q, order[..., None], axis=1)

    def side(a: int, b: int) -> np.ndarray:
        d: np.ndarray = np.hypot(o[:, b, 0] - o[:, a, 0], o[:, b, 1] - o[:, a, 1])
        return d

    long_top = side(0, 1) + side(2, 3) > side(1, 2) + side(3, 0)
    o[long_top] = o[long_top][:, [1, 2, 3, 0]]
    return list(o.astype(np.float32))


def _single_cards(contour: np.ndarray, min_area: float) -> np.ndarray | None:
    """The quad of an outline that is one card: four straight sides round it (a card at a slant,
    :func:`vision.locate.card_shaped`), or else its minimal rectangle filled and card-shaped."""
    area = cv2.contourArea(contour)
    if area < min_area:
        return None
    q = _hull_quad(contour)
    if q is not None and area >= 0.9 * cv2.contourArea(q) and card_shaped(q):
        return _upright(q)
    rect = cv2.minAreaRect(contour)
    (w, h) = rect[1]
    if min(w, h) < 8:
        return None
    aspect = max(w, h) / min(w, h)
    fill = area / (w * h)
    if fill < 0.88 or not (1.15 < aspect < 1.7):
        return None
    peri = cv2.arcLength(contour, True)
    approx = cv2.approxPolyDP(contour, 0.02 * peri, True)
    if len(approx) == 4 and cv2.isContourConvex(approx):
        return _upright(approx.reshape(4, 2).astype(np.float32))
    return _upright(cv2.boxPoints(rect).astype(np.float32))


def _hull_quad(contour: np.ndarray) -> np.ndarray | None:
    """The corners of ``contour``'s convex hull simplified to 3 % of its length, if four."""
    hull = cv2.convexHull(contour)
    approx = cv2.approxPolyDP(hull, 0.03 * cv2.arcLength(hull, True), True)
    return approx.reshape(4, 2).astype(np.float32) if len(approx) == 4 else None


def _line_meet(a0: np.ndarray, a1: np.ndarray, b0: np.ndarray, b1: np.ndarray) -> np.ndarray | None:
    """Where the line through ``a0, a1`` meets the line through ``b0, b1``."""
    da, db = a1 - a0, b1 - b0
    den = da[0] * db[1] - da[1] * db[0]
    if abs(den) < 1e-6:
        return None
    t = ((b0[0] - a0[0]) * db[1] - (b0[1] - a0[1]) * db[0]) / den
    meet: np.ndarray = (a0 + t * da).astype(np.float32)
    return meet


def _corner_hypotheses(contour: np.ndarray, card_h: Sequence[float], detail: float = 0.012) -> list[np.ndarray]:
    """Card rectangles anchored at the right-angled convex corners of an outline, simplified to
    ``detail`` of its length (a fine level finds the small steps the corners of a held fan make).

    A card's corner is rounded, so a fine outline cuts it with one or two short edges: the
    corner is then where the two long edges on either side of them meet."""
    peri = cv2.arcLength(contour, True)
    approx = cv2.approxPolyDP(contour, max(1.5, detail * peri), True).reshape(-1, 2).astype(np.float32)
    n = len(approx)
    if n < 3 or not card_h:
        return []
    # orientation of the polygon (positive area = clockwise in image coordinates)
    signed = 0.5 * np.sum(approx[:, 0] * np.roll(approx[:, 1], -1) - np.roll(approx[:, 0], -1) * approx[:, 1])
    rounding = 0.08 * min(card_h) / ASPECT  # how much edge a rounded corner may take
    hyps = []
    for i in range(n):
        a0, a1 = approx[i - 1], approx[i]
        skipped = 0.0
        for k in range(3):
            b0, b1 = approx[(i + k) % n], approx[(i + k + 1) % n]
            if k:
                skipped += float(np.linalg.norm(b0 - approx[(i + k - 1) % n]))
                if skipped > rounding:
                    break
            e1, e2 = a0 - a1, b1 - b0
            l1, l2 = float(np.linalg.norm(e1)), float(np.linalg.norm(e2))
            if l1 < 4 or l2 < 4 or (k and min(l1, l2) < skipped):
                continue
            u1, u2 = e1 / l1, e2 / l2
            if abs(float(np.dot(u1, u2))) > 0.35:  # not a right angle
                continue
            if _cross(u1, u2) * signed > 0:  # a reflex (inner) corner
                continue
            p = a1 if k == 0 else _line_meet(a0, a1, b0, b1)
            if p is None or (k and float(np.linalg.norm(p - a1)) > rounding):
                continue
            if min(l1, l2) < 0.25 * max(l1, l2):
                # one side is only a short step: take the long side's direction, square the other
                d1 = u1 if l1 >= l2 else u2
                nrm = np.array([-d1[1], d1[0]], np.float32)
                d2 = nrm if np.dot(nrm, u2 if l1 >= l2 else u1) > 0 else -nrm
            else:
                # square up the two directions around their bisector
                bis = (u1 + u2) / np.linalg.norm(u1 + u2)
                perp = np.array([-bis[1], bis[0]], np.float32)
                s1 = perp if np.dot(perp, u1) > 0 else -perp
                d1 = (bis + s1) / np.sqrt(2)
                d2 = (bis - s1) / np.sqrt(2)
            for h in card_h:
                w = h / ASPECT
                for long_dir, short_dir in ((d1, d2), (d2, d1)):
                    quad = np.array([p, p + short_dir * w, p + short_dir * w + long_dir * h, p + long_dir * h], np.float32)
                    hyps.append(quad)
    return _upright_all(hyps)


def _edge_hypotheses(contour: np.ndarray, card_h: float | None) -> list[np.ndarray]:
    """Cards whose top edge lies along a long straight edge of an outline (the hidden corners of
    a fan of parallel cards), every tenth of a card width along it."""
    if card_h is None:
        return []
    card_w = card_h / ASPECT
    peri = cv2.arcLength(contour, True)
    poly = cv2.approxPolyDP(contour, 0.012 * peri, True).reshape(-1, 2).astype(np.float32)
    signed = 0.5 * np.sum(poly[:, 0] * np.roll(poly[:, 1], -1) - np.roll(poly[:, 0], -1) * poly[:, 1])
    hyps = []
    for i in range(len(poly)):
        a, b = poly[i - 1], poly[i]
        length = float(np.linalg.norm(b - a))
        if length < 1.3 * card_w:
            continue
        u = (b - a) / length
        inward = np.array([-u[1], u[0]], np.float32) * (1 if signed > 0 else -1)
        for along, across in ((card_w, card_h), (card_h, card_w)):
            if along > length:
                continue
            for t in np.arange(0.0, length - along + 1e-3, 0.1 * card_w):
                p = a + u * t
                quad = np.array([p, p + u * along, p + u * along + inward * across, p + inward * across], np.float32)
                hyps.append(quad)
    return _upright_all(hyps)


def _strip_hypotheses(contour: np.ndarray, grey: np.ndarray, *, inner_edge: bool = False) -> list[np.ndarray]:
    """Cards laid in a straight row that overlap (a hand spread on the table, a patience column).

    The outline's minimal rectangle is then as wide as one card: its short side is a card's
    height (cards side by side) or width (a column), and each card shows the end where its
    index is. The visible card edges that cross the row are found as peaks of the gradient
    along it (an edge crosses the whole row; pips and letters do not), and a card window is put
    against each such edge, on either side of it, and against both ends of the row. With
    ``inner_edge`` (an outline that could be one card) nothing is proposed unless an edge
    crosses the row well inside it."""
    (cx, cy), (rw, rh), ang = cv2.minAreaRect(contour)
    short, long_ = min(rw, rh), max(rw, rh)
    if short < 20 or long_ < 1.15 * short:
        return []
    if cv2.contourArea(contour) / max(1.0, rw * rh) < 0.8:
        return []
    box = cv2.boxPoints(((cx, cy), (rw, rh), ang)).astype(np.float32)
    e01, e12 = box[1] - box[0], box[2] - box[1]
    if np.linalg.norm(e01) >= np.linalg.norm(e12):
        u, v, origin = e01 / np.linalg.norm(e01), e12 / np.linalg.norm(e12), box[0]
    else:
        u, v, origin = e12 / np.linalg.norm(e12), -e01 / np.linalg.norm(e01), box[1]
    # the row straightened: x along it, y across it
    L, S = int(round(long_)), int(round(short))
    src = np.array([origin, origin + u * long_, origin + v * short], np.float32)
    dst = np.array([[0, 0], [L, 0], [0, S]], np.float32)
    row = cv2.warpAffine(grey, cv2.getAffineTransform(src, dst), (L, S), flags=cv2.INTER_LINEAR)
    gx = np.abs(cv2.Sobel(row.astype(np.float32), cv2.CV_32F, 1, 0, ksize=3))
    band = gx[int(0.1 * S):max(int(0.1 * S) + 1, int(0.9 * S))]
    profile = np.percentile(band, 60, axis=0)
    profile = cv2.GaussianBlur(profile.reshape(1, -1), (0, 0), 1.5).ravel()
    # an edge of a card crosses the whole row; the frame of a court picture stops short of it
    full = np.percentile(gx[int(0.02 * S):max(int(0.02 * S) + 1, int(0.98 * S))], 8, axis=0)
    full = cv2.GaussianBlur(full.reshape(1, -1), (0, 0), 1.5).ravel()
    # an edge stands well above the row's usual gradient
    strong, strong_full = 2.5 * float(np.median(profile)) + 1.0, 2.5 * float(np.median(full)) + 1.0
    hyps = []
    for along, across in ((short / ASPECT, short), (short * ASPECT, short)):
        if along > long_ * 1.02:
            continue
        card_w = min(along, across)
        gap = max(3, int(0.15 * card_w))
        peaks = [i for i in range(1, L - 1) if profile[i] > strong
                 and profile[i] >= profile[max(0, i - gap):i + gap + 1].max()]
        inner = [x for x in peaks if 0.2 * card_w < x < long_ - 0.2 * card_w and full[x] > strong_full]
        if inner_edge and not inner:
            continue
        starts = {0.0, long_ - along}
        for x in peaks:
            starts.update(t for t in (float(x), float(x) - along) if -0.05 * along <= t <= long_ - 0.95 * along)
        for size in (1.0, 0.92):
            a, c = along * size, across * size
            off = v * (across - c) / 2
            for t in sorted(starts):
                t = t + (along - a) / 2 if t > 0 else t
                p = origin + u * t + off
                hyps.append(np.array([p, p + u * a, p + u * a + v * c, p + v * c], np.float32))
    return _upright_all(hyps)


def _line_hypotheses(grey: np.ndarray, contour: np.ndarray, card_h: Sequence[float]) -> list[np.ndarray]:
    """Cards whose long edge is a straight line seen inside an outline of several cards: in a
    fan held in the hand every card's left edge crosses the card under it from the top-left
    corner down. A card is put against each such line, its top-left corner at either end and
    lying to the side of the line where the outline is."""
    if not card_h:
        return []
    x, y, w, h = cv2.boundingRect(contour)
    mask = np.zeros((h + 2, w + 2), np.uint8)
    cv2.drawContours(mask, [contour - [x - 1, y - 1]], -1, 255, -1)
    roi = grey[max(0, y - 1):y + h + 1, max(0, x - 1):x + w + 1]
    mask = mask[:roi.shape[0], :roi.shape[1]]
    med = float(np.median(roi[mask > 0])) if (mask > 0).any() else 128.0
    edges = cv2.Canny(cv2.GaussianBlur(roi, (3, 3), 0), max(5, int(0.08 * med)), max(15, int(0.25 * med)))
    edges[cv2.dilate(mask, np.ones((5, 5), np.uint8)) == 0] = 0
    shortest = min(card_h)
    lines = cv2.HoughLinesP(edges, 1, np.pi / 180, threshold=int(0.25 * shortest),
                            minLineLength=0.45 * shortest, maxLineGap=3)
    if lines is None:
        return []
    origin = np.array([x - 1, y - 1], np.float32)
    inside = mask > 0
    hyps: list[np.ndarray] = []
    def reach(p: np.ndarray, step: np.ndarray) -> np.ndarray:
        """Follow the line from ``p`` (roi pixels) while it stays inside the outline: a segment
        often stops short of the card's corner (the index is drawn close to the edge)."""
        q = p
        for _ in range(int(0.5 * shortest)):
            n = q + step
            xi, yi = int(round(float(n[0]))), int(round(float(n[1])))
            if not (0 <= yi < inside.shape[0] and 0 <= xi < inside.shape[1]) or not inside[yi, xi]:
                break
            q = n
        return q

    for x1, y1, x2, y2 in lines.reshape(-1, 4)[:40].astype(np.float32):
        a, b = np.array([x1, y1], np.float32), np.array([x2, y2], np.float32)
        d = (b - a) / max(1e-6, float(np.linalg.norm(b - a)))
        a, b = reach(a, -d) + origin, reach(b, d) + origin
        nrm = np.array([-d[1], d[0]], np.float32)
        # followed to the outline at both ends, the edge of a held card is about its height
        span = float(np.linalg.norm(b - a))
        heights = list(card_h) + ([span] if 0.6 * shortest < span < 2.5 * max(card_h) else [])
        for corner, down in ((a, d), (b, -d)):
            for side in (nrm, -nrm):
                for hgt in heights:
                    wid = hgt / ASPECT
                    quad = np.array([corner, corner + side * wid, corner + side * wid + down * hgt, corner + down * hgt],
                                    np.float32)
                    cx, cy = (quad.mean(axis=0) - origin).astype(int)
                    if 0 <= cy < inside.shape[0] and 0 <= cx < inside.shape[1] and inside[cy, cx]:
                        hyps.append(quad)
    return _upright_all(hyps)


#: at most this many straight edges of a photo each give index-corner hypotheses (the longest)
MAX_SEGMENTS = 400
#: a close-up's card heights, as shares of the photo's long side (its cards may be larger than it)
CLOSE_UP = (0.5, 0.8, 1.2)
#: a hypothesis at the end of a straight edge is taken from its index alone at this confidence
#: (chosen on composed photos of validation designs, see models/MODEL_CARD.md)
EDGE_SURE = 0.97
#: a card read from a finder's mark alone (:func:`_with_marked_cards`) is taken from this probability
MARK_READ = 0.8
#: the straight part of a card's edge starts about this far from its (rounded) corner
CORNER_MM = 3.0


def _segments(grey: np.ndarray) -> np.ndarray:
    """The straight edges of a photo, ``(n, 2, 2)``: each one's two ends."""
    found = cv2.createLineSegmentDetector(cv2.LSD_REFINE_STD).detect(grey)[0]
    return np.zeros((0, 2, 2), np.float32) if found is None else found.reshape(-1, 2, 2)


def _segment_hypotheses(segs: np.ndarray, card_h: float) -> np.ndarray:
    """Index corners at the ends of straight edges (:func:`_segments`) anywhere in a photo,
    found without outlining anything (a held fan on a table as light as its cards, a hand
    against a busy background): each edge from a few mm to a card long may be a card's top edge
    running right from its index corner, or its left edge running down from it, and each end
    may be that corner. Only the corner matters, so such a hypothesis is read by its index alone."""
    length = np.linalg.norm(segs[:, 1] - segs[:, 0], axis=1)
    per_mm = card_h / CARD_MM[1]
    keep = np.flatnonzero((length >= CORNER_MM * per_mm) & (length <= 1.05 * card_h))
    keep = keep[np.argsort(-length[keep])][:MAX_SEGMENTS]
    w = card_h / ASPECT
    # all at once (a photo has hundreds of edges): each edge's two ends, in order, as the corner
    ends = segs[keep]
    others = ends[:, ::-1]
    u = (others - ends) / length[keep][:, None, None]  # along the edge, away from the corner
    p = ends - u * CORNER_MM * per_mm
    down = np.stack([-u[..., 1], u[..., 0]], axis=-1)  # the edge as the top: the card lies below it
    right = np.stack([u[..., 1], -u[..., 0]], axis=-1)  # the edge as the left side: the card lies right of it
    as_top = np.stack([p, p + u * w, p + u * w + down * card_h, p + down * card_h], axis=-2)
    as_left = np.stack([p, p + right * w, p + right * w + u * card_h, p + u * card_h], axis=-2)
    hyps: np.ndarray = np.stack([as_top, as_left], axis=2).reshape(-1, 4, 2).astype(np.float32)
    return hyps


def candidates(img: np.ndarray) -> list[np.ndarray]:
    """Card quadrilaterals (upright-ordered) that may hold a card, in ``img`` pixels."""
    return _candidates(img, cv2.cvtColor(img, cv2.COLOR_BGR2GRAY))[0]


def _candidates(img: np.ndarray, grey: np.ndarray, masks: list[np.ndarray] | None = None
                ) -> tuple[list[np.ndarray], int, list[float]]:
    """The quads, how many of them (at the front) are whole card outlines, and the heights a
    card most likely has in the photo (those of the whole cards, or else the commonest lengths
    of the outlines' edges); ``grey``: ``img`` in grey; ``masks``: :func:`_masks` of ``img``,
    if made already."""
    h, w = img.shape[:2]
    min_area = 0.0015 * h * w
    singles: list[np.ndarray] = []
    others: list[np.ndarray] = []
    card_like: list[np.ndarray] = []
    pale: np.ndarray | None = None  # made when first needed
    for m in _masks(img, grey) if masks is None else masks:
        contours, _ = cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        contours = sorted(contours, key=cv2.contourArea, reverse=True)[:12]
        for c in contours:
            area = cv2.contourArea(c)
            # a card may fill the photo; any other outline that large is the table or the light
            if not (min_area <= area <= 0.97 * h * w):
                continue
            q = _single_cards(c, min_area)
            if q is None and (q := _squashed_card(c)) is not None:
                pale = _pale(img) if pale is None else pale
                q = q if _pale_inside(q, pale) else None
            if q is not None:
                singles.append(q)
                card_like.append(c)  # or a short row of overlapping cards
            elif area <= 0.6 * h * w:
                others.append(c)
    singles = outermost(singles, h * w)
    # an outline filling most of the photo may be the table: the cards' size comes from the others
    sized = [q for q in singles if cv2.contourArea(q) < FRAME_SHARE * h * w] or singles
    # a pip seen large is card-shaped too, but tells nothing of the cards' size
    sized = [q for q in sized if not _mark(q, grey)]
    heights = [float(np.linalg.norm(q[3] - q[0])) for q in sized]
    quads = list(singles)
    # card sizes for the hypotheses: the single cards' heights, and the commonest lengths of the
    # outlines' straight edges read as a card's height or width
    votes: dict[int, float] = {}
    bin_w = np.log(1.08)
    for hgt in heights:
        b = int(round(np.log(hgt) / bin_w))
        votes[b] = votes.get(b, 0.0) + 3 * hgt
    for c in others:
        peri = cv2.arcLength(c, True)
        poly = cv2.approxPolyDP(c, 0.012 * peri, True).reshape(-1, 2).astype(np.float32)
        for i in range(len(poly)):
            length = float(np.linalg.norm(poly[i] - poly[i - 1]))
            if length < 0.03 * max(h, w):
                continue
            for hgt in (length, length * ASPECT):
                b = int(round(np.log(hgt) / bin_w))
                votes[b] = votes.get(b, 0.0) + length
    top = sorted(votes, key=lambda b: -votes[b])[:3]
    common = sorted({round(float(np.exp(b * bin_w)), 1) for b in top})
    card_h = [float(np.median(heights))] if heights else common
    others.sort(key=cv2.contourArea, reverse=True)  # the largest outlines first: they hold the most cards
    for c in others:
        if len(quads) > 1200:
            break
        rect = cv2.minAreaRect(c)
        sizes = sorted(set(common + ([round(float(min(rect[1])), 1)] if min(rect[1]) > 20 else [])))
        quads += _corner_hypotheses(c, sizes)
        quads += _corner_hypotheses(c, sizes, detail=0.003)
        quads += _edge_hypotheses(c, common[len(common) // 2] if common else None)
        quads += _strip_hypotheses(c, grey)
        quads += _line_hypotheses(grey, c, sizes)
    for c in card_like:
        quads += _strip_hypotheses(c, grey, inner_edge=True)
    for q in singles:
        quads += _beyond_edge(q, h, w)
    keep = _distinct(quads)
    return [quads[i] for i in keep], sum(i < len(singles) for i in keep), card_h


#: a card the photo's edge cuts is guessed whole from a side clear of the edge at these lengths
#: of its other sides, as shares of that side's length read as the card's width and as its height
OUT_OF_VIEW = (ASPECT * 0.9, ASPECT, ASPECT * 1.1, 1 / ASPECT)


def _beyond_edge(quad: np.ndarray, h: int, w: int) -> list[np.ndarray]:
    """Whole-card guesses at an outline the photo's edge cuts (:func:`_on_border`): from each side
    of ``quad`` clear of the edge, the two sides either side of it followed out of the photo to a
    card's length (:data:`OUT_OF_VIEW`; seen at a slant, they are not parallel)."""
    near = _on_edge(quad, h, w)
    if int(near.sum()) < 2:
        return []
    out: list[np.ndarray] = []
    for i in range(4):
        a, b = quad[i - 1], quad[i]
        if near[i] or near[i - 1]:
            continue
        side = float(np.linalg.norm(b - a))
        before, after = quad[i - 2], quad[(i + 1) % 4]
        ua, ub = before - a, after - b
        la, lb = float(np.linalg.norm(ua)), float(np.linalg.norm(ub))
        if side < 8 or la < 1 or lb < 1:
            continue
        for k in OUT_OF_VIEW:
            reach = k * side
            out.append(np.array([a, b, b + ub / lb * reach, a + ua / la * reach], np.float32))
    return _upright_all(out)


def _distinct(quads: Sequence[np.ndarray], near: float = 4.0) -> list[int]:
    """Indices of ``quads`` left once each quad with every corner within ``near`` pixels of an
    earlier kept one's is dropped. Kept quads are filed by their far corner on a grid ``near``
    wide: a quad that near one has its far corner in the same or a neighbouring cell (hypotheses
    share their first corner far more often, which would crowd a cell)."""
    flat = np.asarray(quads, np.float32).reshape(-1, 8).tolist()
    cells: dict[tuple[int, int], list[list[float]]] = {}
    keep: list[int] = []
    for i, q in enumerate(flat):
        x0, y0, x1, y1, x2, y2, x3, y3 = q
        cx, cy = math.floor(x2 / near), math.floor(y2 / near)
        # spelt out: this runs some 300,000 times a photo
        if any(abs(k[0] - x0) <= near and abs(k[1] - y0) <= near and abs(k[2] - x1) <= near
               and abs(k[3] - y1) <= near and abs(k[6] - x3) <= near and abs(k[7] - y3) <= near
               and abs(k[4] - x2) <= near and abs(k[5] - y2) <= near
               for dx in (-1, 0, 1) for dy in (-1, 0, 1) for k in cells.get((cx + dx, cy + dy), ())):
            continue
        cells.setdefault((cx, cy), []).append(q)
        keep.append(i)
    return keep


def _unlike(quad: np.ndarray, quads: Sequence[np.ndarray], near: float = 4.0) -> bool:
    """Whether no quad of ``quads`` has every corner within ``near`` pixels of ``quad``'s."""
    return all(float(np.abs(quad - k).max()) > near for k in quads)


def warp(img: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The upright crop (126x176) of a quad whose corner 0 is the top-left."""
    quad = quad.astype(np.float32)
    # a card far larger than the crop is first shrunk by area averaging (a perspective warp
    # samples, and would alias the fine print of the index)
    span = max(float(np.linalg.norm(quad[3] - quad[0])), float(np.linalg.norm(quad[2] - quad[1])))
    factor = span / CROP_H
    if factor > 2.0:
        x0, y0 = np.floor(quad.min(axis=0)).astype(int).clip(0)
        x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
        part = img[y0:y1, x0:x1]
        if part.size:
            ph, pw = part.shape[:2]
            size = (max(1, int(round(pw / factor))), max(1, int(round(ph / factor))))
            img = cv2.resize(part, size, interpolation=cv2.INTER_AREA)
            quad = (quad - np.array([x0, y0], np.float32)) * np.array([size[0] / pw, size[1] / ph], np.float32)
    dst = np.array([[0, 0], [CROP_W, 0], [CROP_W, CROP_H], [0, CROP_H]], np.float32)
    return cv2.warpPerspective(img, cv2.getPerspectiveTransform(quad, dst), (CROP_W, CROP_H), flags=cv2.INTER_LINEAR)


class Pyramid:
    """An image and its halvings (made when first needed, by area averaging): :meth:`warp` cuts
    each quad from the level where the card is one to two crops high, so that the many crops of
    one photo share one shrinking of it instead of each shrinking its own part; and the first
    looks at its outlines (:attr:`looks`), so that one read again moved is not read again as it is."""

    def __init__(self, image: np.ndarray) -> None:
        self.levels = [image]
        self.looks = Looks()

    def _level(self, span: float) -> int:
        """The level where a card ``span`` pixels high in the full image is one to two crops high
        (halvings made as needed; none under 16 pixels a side is halved again)."""
        level = 0
        while span / 2 ** (level + 1) >= CROP_H and min(self.levels[level].shape[:2]) >= 16:
            level += 1
            if level == len(self.levels):
                self.levels.append(halved(self.levels[-1]))
        return level

    def warp(self, quad: np.ndarray) -> np.ndarray:
        """:func:`warp` of ``quad`` (pixels of the full image)."""
        level = self._level(max(float(np.linalg.norm(quad[3] - quad[0])), float(np.linalg.norm(quad[2] - quad[1]))))
        h0, w0 = self.levels[0].shape[:2]
        h, w = self.levels[level].shape[:2]
        return warp(self.levels[level], quad * np.array([w / w0, h / h0], np.float32))

    def corners(self, quads: Sequence[np.ndarray], size: tuple[int, int], ways: int = 2,
                cut: np.ndarray | None = None) -> np.ndarray:
        """The index corners of ``quads`` as the index network reads them, ``(N, ways, h, w, 3)``
        (``size`` = (h, w)): the top-left of each upright crop at the model's input size, and
        (``ways=2``) the top-left of the crop turned round (the card's bottom-right), cut straight
        from the level :meth:`warp` would use; the whole crop is never made. ``cut`` (``(N,
        ways)`` bool): only the corners it marks are cut, the others left unset."""
        ph, pw = size
        out = np.empty((len(quads), ways, ph, pw, 3), np.uint8)
        if not len(quads):
            return out
        dst = np.array([[0, 0], [INPUT_W, 0], [INPUT_W, INPUT_H], [0, INPUT_H]], np.float32)
        h0, w0 = self.levels[0].shape[:2]
        qs = np.asarray(quads, np.float32)
        # each card's level, worked out for all at once (a photo's thousands of hypotheses)
        spans = np.maximum(np.hypot(*(qs[:, 3] - qs[:, 0]).T), np.hypot(*(qs[:, 2] - qs[:, 1]).T)).tolist()
        turned = [0, 1, 2, 3], [2, 3, 0, 1]  # the top-left corner, then the bottom-right's
        for i, span in enumerate(spans):
            img = self.levels[self._level(span)]
            h, w = img.shape[:2]
            q = qs[i] * np.array([w / w0, h / h0], np.float32)
            for way in range(ways):
                if cut is not None and not cut[i, way]:
                    continue
                m = cv2.getPerspectiveTransform(q[turned[way]], dst)
                cv2.warpPerspective(img, m, (pw, ph), dst=out[i, way], flags=cv2.INTER_LINEAR)
        return out


#: a hypothesis whose corner index leans to a card at this confidence, but not surely, is read
#: again moved a little (:func:`_nudged`): a corner a few mm off its card shows the index cut
NUDGE_FROM = 0.3
NUDGE_MM, NUDGE_DEG = 2.5, 3.0


def _turned(quad: np.ndarray, deg: float, about: np.ndarray) -> np.ndarray:
    t = np.radians(deg)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]], np.float32)
    turned: np.ndarray = ((quad - about) @ rot.T + about).astype(np.float32)
    return turned


def _nudged(quad: np.ndarray) -> list[np.ndarray]:
    """The outlines near a guessed one: ``quad`` moved ``NUDGE_MM`` along either side or both,
    turned ``NUDGE_DEG`` either way about its middle, and twice that about either index corner
    (a card of a held fan lies at an angle to its neighbours)."""
    u = (quad[1] - quad[0]) / CARD_MM[0]  # one mm along the top
    v = (quad[3] - quad[0]) / CARD_MM[1]  # one mm down the side
    out = [(quad + a * u + b * v).astype(np.float32)
           for a in (-NUDGE_MM, 0, NUDGE_MM) for b in (-NUDGE_MM, 0, NUDGE_MM) if a or b]
    out += [_turned(quad, deg, quad.mean(axis=0)) for deg in (-NUDGE_DEG, NUDGE_DEG)]
    out += [_turned(quad, deg, quad[k]) for k in (0, 2) for deg in (-2 * NUDGE_DEG, 2 * NUDGE_DEG)]
    return out


#: at most this many unsure hypotheses (the surest) are read again moved
MAX_UNSURE = 200


def _index_reader(classifier: CardClassifier) -> IndexReader | None:
    """``classifier`` as the reader of a crop's corner index alone, if it has one that applies: it
    knows the model's cards only, so not while an enrolled deck names others (the Decktet's,
    whose cards a search by French indices would pass over); a French deck enrolled keeps it."""
    if not isinstance(classifier, IndexReader) or classifier.enrolled_unknown or not classifier.reads_index:
        return None
    return classifier


def _read_warped(reader: IndexReader, image: Pyramid, quads: list[np.ndarray],
                 chunk: int = 256, ways: int = 2, near: np.ndarray | None = None, *,
                 ranks_only: bool = False) -> list[Prediction]:
    """The corner index readings of ``quads``, cut and read a chunk at a time (a photo may give
    thousands of hypotheses: their patches are not all held at once); ``ways=1``: the corner at
    each quad's top-left only; ``near`` (``(N, 2)`` bool, :func:`_near_ways`): only the corners it
    marks are read (those near a mark of the index finder), an unread corner counting as no index;
    ``ranks_only``: each rank's suits pooled (a photo with no colour)."""
    out: list[Prediction] = []
    for i in range(0, len(quads), chunk):
        cut = None if near is None else near[i:i + chunk, :ways]
        out += reader.read_corner_patches(image.corners(quads[i:i + chunk], reader.index_shape, ways, cut), cut,
                                          ranks_only=ranks_only)
    return out


def _read_quads(classifier: CardClassifier, crops: list[np.ndarray], *, ranks_only: bool = False,
                moved: bool = True, looks: LooksAt | None = None) -> list[tuple[Prediction, Prediction | None]]:
    """Each crop's reading and, if the classifier can read an index alone, its corner index's;
    ``ranks_only``: both with each rank's suits pooled (a photo with no colour, whose suits the
    grey suit network reads by shape afterwards, :func:`_greyed`); ``moved=False``: no unsure
    crop read again moved (a first look, see ``OnnxCardClassifier.outputs``); ``looks``: where
    the crops' first looks are kept (the card network's alone)."""
    if isinstance(classifier, OnnxCardClassifier):  # the one that keeps first looks
        return classifier.classify_with_index(crops, ranks_only=ranks_only, moved=moved, looks=looks)
    if isinstance(classifier, IndexReader):
        return classifier.classify_with_index(crops, ranks_only=ranks_only, moved=moved)
    return [(p, None) for p in classifier.classify(crops)]


#: crops warped and read per classifier call: the model's working memory grows with its batch
CHUNK = 64


def _read_hypotheses(classifier: CardClassifier, image: Pyramid, quads: list[np.ndarray],
                     n_whole: int, near: np.ndarray | None = None) -> list[tuple[Prediction, Prediction | None] | None]:
    """Each quad's whole-card and index readings, ``CHUNK`` crops at a time. The first ``n_whole``
    are whole card outlines; every other quad is first read by its corner index alone (a network
    several times cheaper) and gets ``None`` when no card index shows there, as such a hypothesis
    is never taken whatever the whole card reads. ``near``: which index corners of each quad
    are read (:func:`_read_warped`), all without it."""
    reader = _index_reader(classifier)
    out: list[tuple[Prediction, Prediction | None] | None] = []
    for i in range(0, len(quads), CHUNK):
        part = quads[i:i + CHUNK]
        if reader is None:
            out += _read_quads(classifier, [image.warp(q) for q in part])
            continue
        index = _read_warped(reader, image, part, near=None if near is None else near[i:i + CHUNK])
        outlines = [j for j in range(len(part)) if i + j < n_whole]
        guesses = [j for j in range(len(part)) if i + j >= n_whole and index[j].label not in (UNKNOWN, "back")]
        # a guess is taken by its index, the whole card only confirming it: a first look will do
        whole = _whole_readings(classifier, [image.warp(part[j]) for j in outlines]) + \
            _whole_readings(classifier, [image.warp(part[j]) for j in guesses], moved=False)
        read = dict(zip(outlines + guesses, whole, strict=True))
        # a whole card shows one card at both its corners: one read surely that they gainsay is not
        sure = [j for j in outlines if read[j].label not in (UNKNOWN, "back") and read[j].confidence > DOUBT]
        if sure:
            corners = image.corners([part[j] for j in sure], reader.index_shape)
            for j, no in zip(sure, reader.gainsaid_by_corners(corners, [read[j] for j in sure]), strict=True):
                if no:
                    read[j] = held(read[j])
        out += [(read[j], index[j]) if j in read else None for j in range(len(part))]
    return out


def _whole_readings(classifier: CardClassifier, crops: list[np.ndarray], *, moved: bool = True) -> list[Prediction]:
    """The whole-card readings of ``crops``, by the whole card alone; ``moved=False``: at a first
    look, if the classifier reads unsure crops again moved
    (:meth:`vision.classify.OnnxCardClassifier.classify`)."""
    if not crops:
        return []
    if isinstance(classifier, OnnxCardClassifier):  # each outline's corner is weighed here, not there
        return classifier.classify(crops, moved=moved, by_corner=False)
    return classifier.classify(crops)


#: a card seen less than this many pixels high is never read surely: its index is a few pixels
#: tall, and a 6 of spades 40 px high reads as an 8 whole and by its index alike
SMALLEST_SURE = 60.0


def _small_held(d: Detection) -> Detection:
    """``d`` held below sure if its card is too small in the image read (:data:`SMALLEST_SURE`), or
    a court too small to be read surely unless read very surely (:func:`vision.doubt.court_unsure`)."""
    if d.confidence <= DOUBT:
        return d
    height = _height(d.corners)
    if height >= SMALLEST_SURE and not court_unsure(d.card, d.confidence, height):
        return d
    return Detection(d.card, DOUBT, d.corners)


def recognize(image: np.ndarray, classifier: CardClassifier, *, min_confidence: float = 0.5,
              include_backs: bool = True) -> list[Detection]:
    """Every card found in ``image`` (BGR uint8) with its reading and corners. A photo in which
    nothing is read surely is searched as a photo of one card too (:func:`read_card`'s search).
    A large photo is worked on at most :data:`_WORK` pixels long, or half that if it is
    :func:`vision.locate.soft` there."""
    alone = _model_alone(classifier)
    if alone is None:
        return _found(image, classifier, min_confidence=min_confidence, include_backs=include_backs, restretch=True)
    # an enrolled deck of cards the model does not know (the Decktet's): the model's own cards are
    # found by the model alone, with every check it has for them; the deck's by the reading with
    # the deck, where the model alone finds no card surer
    known = _found(image, alone, min_confidence=min_confidence, include_backs=include_backs, restretch=True)
    taught = [d for d in _found(image, classifier, min_confidence=min_confidence, include_backs=include_backs,
                                restretch=True) if d.card not in alone.labels]
    return _merged(known, taught)


def _model_alone(classifier: CardClassifier) -> CardClassifier | None:
    """``classifier`` without its enrolled decks, when one of them names cards the model does not
    know (:attr:`vision.classify.OnnxCardClassifier.enrolled_unknown`); else None."""
    return classifier.model_alone() if isinstance(classifier, OnnxCardClassifier) and classifier.enrolled_unknown \
        else None


def _merged(known: list[Detection], taught: list[Detection]) -> list[Detection]:
    """The readings of the model alone (``known``) and of an enrolled deck's own cards
    (``taught``), the surer of two in one place standing, surest first."""
    kept = [d for d in taught if not any(_one_place(d, k) and k.confidence >= d.confidence for k in known)]
    known = [k for k in known if not any(_one_place(k, d) for d in kept)]
    return sorted(known + kept, key=lambda d: -d.confidence)


def _one_place(a: Detection, b: Detection) -> bool:
    """Whether two readings' outlines overlap by a third of the smaller: one card read twice."""
    qa, qb = a.corners.astype(np.float32), b.corners.astype(np.float32)
    shared = float(cv2.intersectConvexConvex(qa, qb)[0])
    return shared >= 0.33 * min(float(cv2.contourArea(qa)), float(cv2.contourArea(qb)))


#: a photo whose sensor noise measures over NOISY grey levels (:func:`vision.images.noise_sigma`)
#: is read smoothed by a Gaussian of QUIET px: noise breaks a card's edges into specks and its
#: index into grain (dimmed singles with noise of 14 read 341 -> 354 of 381 so, HISTORY, session 69);
#: a webcam's milder noise (under 4.2 but for a few photos) reads no better smoothed
NOISY, QUIET = 7.0, 1.0


def _quieted(image: np.ndarray) -> np.ndarray:
    """``image``, smoothed (:data:`QUIET`) if its sensor's noise is over :data:`NOISY`."""
    return cv2.GaussianBlur(image, (0, 0), QUIET) if noise_sigma(image) > NOISY else image


def _found(image: np.ndarray, classifier: CardClassifier, *, min_confidence: float = 0.5,
           include_backs: bool = True, restretch: bool, colourless: bool | None = None,
           lone: Detection | None = None) -> list[Detection]:
    """:func:`recognize`; ``restretch``: a photo read as one card that reads no face is read
    stretched back too (False when the one-card search asks, as it does that itself);
    ``colourless``: whether the photo shows no colour, if known (the one-card search's copy has
    its cast taken out, and a channel the cast clipped then shows colour); ``lone``: the
    one-card search's answer for ``image`` when that search asks (not made a second time)."""
    # cards are cut from a copy at most twice the locator's size: a 12-megapixel photo is shrunk
    # once instead of by every crop
    work, source_img, to_source = _WORK, image, 1.0
    if max(image.shape[:2]) > _WORK:
        probe, probe_scale, twice = downscaled_and_twice(image, _WORK)
        if soft(probe):
            # a large photo without the detail of its size is worked on, and its cards cut, at the
            # size of its detail: more pixels only outline more smooth shapes, give crops no
            # sharper, and make a small card's pixels many enough to be sure; the probe halved
            # is that size, averaged already (no second pass over the large photo)
            work = _WORK // 2
            source_img, half = downscaled(probe, work)
            to_source = probe_scale * half
        else:
            # the probe's first step is that copy when it has its size
            source_img, to_source = downscaled(image, 2 * _WORK, step=twice)
    # everything is worked out in the copy's pixels, and answered in the photo's at the end (its
    # light's cast left in: taken out here, sure phantoms came of it, HISTORY, session 54)
    source_img = _quieted(source_img)
    found, n_sure, marks, shrunk = _recognize(source_img, classifier, min_confidence, include_backs, work, colourless)
    if all(d.confidence <= DOUBT for d in found) and n_sure < 2:
        # nothing read surely (or nothing at all): the photo may be of one card whose edges do not
        # show (white on white, a sleeve's glare), which the single-card search finds by GrabCut or
        # its marks; a card it reads at least as surely comes first, and stands for the readings
        # inside its outline (its print) or round it (the table round it). A photo without colour
        # in which two cards would be sure but for their suits shows more than one card: no search
        # the photo shrunk once only; read stretched back only if it shows no face at all (a
        # photo of several cards is not one card stretched)
        if lone is None or source_img is not image:
            lone = _one_card(source_img, classifier, others=False, shrunk=shrunk,
                             restretch=restretch and all(d.card in BLANKS for d in found))
        if _lone_stands(lone, found, min_confidence, include_backs):
            kept = [lone] + [d for d in found if d.card != lone.card and not inside(d.corners, lone.corners)
                             and not inside(lone.corners, d.corners)]
            if len(kept) <= len(found):
                # a reading dropped (the photo's frame read as a card) hid the finder's marks on it
                # from the mark reader: a card whose index alone shows may lie there
                # (the cards found were weighed against their own indices already)
                kept = _with_marked_cards(classifier, source_img, marks, kept, min_confidence, deny=False)
            found = kept
    found = _in_view_first(found, *source_img.shape[:2])
    if to_source == 1.0:
        return found
    return [Detection(d.card, d.confidence, d.corners / to_source) for d in found]


def _lone_stands(lone: Detection, found: Sequence[Detection], min_confidence: float, include_backs: bool) -> bool:
    """Whether the one-card search's reading ``lone`` comes before what recognize ``found``: at
    least as sure as every reading but its print (inside its outline and under a quarter of its
    area, as cards of one photo are one size; or a back inside a face, a grey diamond's pip or a
    court's frame read as one; a larger face inside it may be the card, outlined in part), and
    not an unsure back where a face is found as surely (likelier a court's frame, as
    :func:`read_card` holds)."""
    if lone.card == UNKNOWN or lone.confidence < min_confidence or (lone.card == "back" and not include_backs):
        return False
    rivals = [d for d in found if not _print_of(d, lone)]
    if lone.card == "back" and lone.confidence <= DOUBT and any(d.card not in BLANKS for d in rivals):
        return False
    return lone.confidence >= max((d.confidence for d in rivals), default=0.0)


#: a reading inside a card's outline and under this share of its area is the card's print
PRINT_SHARE = 0.25


def _print_of(d: Detection, card: Detection) -> bool:
    """Whether reading ``d`` lies inside ``card``'s outline as part of its print: under
    :data:`PRINT_SHARE` of its area, or a back inside a face."""
    if d.card == "back" and card.card != "back":
        return inside(d.corners, card.corners)
    return inside(d.corners, card.corners, share=PRINT_SHARE)


def _in_view_first(found: list[Detection], h: int, w: int) -> list[Detection]:
    """``found`` with, of readings next to each other in rank and equally sure, faces before
    backs (as :func:`_recognize` ranks them, the cards read from marks alone included) and a card
    in view before one mostly beyond the photo's edge: a grey photo holds every suited card at
    one confidence, and the card photographed is the one in view."""
    out: list[Detection] = []
    for _c, run in groupby(found, key=lambda d: d.confidence):
        out += sorted(run, key=lambda d: (d.card == "back", _cut_by_edge(d.corners, h, w)))
    return out


def _cut_by_edge(quad: np.ndarray, h: int, w: int, share: float = 0.75) -> bool:
    """Whether less than ``share`` of ``quad`` lies in the photo (``h`` x ``w``)."""
    seen, _ = cv2.intersectConvexConvex(quad.astype(np.float32), frame_quad(h, w))
    return seen < share * max(1.0, cv2.contourArea(quad.astype(np.float32)))


class _Marks:
    """Readings marked by identity (a reading holds its outline's array, so it is not hashable),
    each held while marked: an object's id passes to a new one once it is freed, and a dropped
    reading's mark once fell to a new reading, so that a photo's answer changed from run to run."""

    def __init__(self, readings: Iterable[Detection] = ()) -> None:
        self._held: dict[int, Detection] = {}
        self.update(readings)

    def add(self, d: Detection) -> None:
        self._held[id(d)] = d

    def update(self, readings: Iterable[Detection]) -> None:
        for d in readings:
            self.add(d)

    def __contains__(self, d: object) -> bool:
        return self._held.get(id(d)) is d

    def __iter__(self) -> Iterator[Detection]:
        return iter(list(self._held.values()))


def _recognize(image: np.ndarray, classifier: CardClassifier, min_confidence: float, include_backs: bool,
               work: int, colourless: bool | None) -> tuple[list[Detection], int, list[IndexMark], Shrunk]:
    """The cards found in ``image`` (a card too small to be sure held below it), how many of them
    were read surely before a photo with no colour held every suit below sure, the index
    finder's marks, and ``image`` shrunk to ``work``; ``colourless``: whether it shows no colour,
    if known."""
    h, w = image.shape[:2]
    seen_marks = _marks(classifier, image)
    marks = _points(seen_marks)
    small, scale = downscaled(image, work)
    if colourless is None:
        colourless = colour_strength(small) < COLOURLESS
    small_grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    masks = _masks(small, small_grey)
    quads, n_single, card_h = _candidates(small, small_grey, masks)
    # the photo's own frame is a whole card outline too (a card that fills the photo), taken
    # only when its corner index shows the card it reads
    quads, n_single = [frame_quad(*small.shape[:2])] + quads, n_single + 1
    full = [q / scale for q in quads]
    source = Pyramid(lit(image))  # outlined as taken, read brightened if dim
    # the whole outlines first: what lies inside a card they read surely is that card's print
    read = [(q, r) for q, r in zip(full[:n_single], _read_hypotheses(classifier, source, full[:n_single], n_single),
                                   strict=True) if r is not None]
    # of two whole outlines one inside the other, the one whose corner shows an index stands
    losers = nested_losers([q for q, _r in read], [_index_agrees(p, index) for _q, (p, index) in read])
    card_aspect = card_shaped_photo(h, w)
    # the cards of one photo are one size: once whole outlines read as faces, a hypothesis far
    # from their size would be dropped below whatever it read, so it is not read at all
    faces = [_height(q) for i, (q, (p, index)) in enumerate(read) if i not in losers and p.label not in (UNKNOWN, "back")
             and p.confidence >= min_confidence
             and (i > 0 or (index is not None and index.label == p.label))]
    ref = float(np.median(faces)) if faces else None
    # a hypothesis is read only with an index corner near a mark of the index finder (if the
    # model has one and it marks anything): a card is read from its index
    near_ways = _near_ways(full[n_single:], marks)
    near_rest = [i for i, q in enumerate(full[n_single:])
                 if near_ways[i].any() and (ref is None or abs(_height(q) / ref - 1) <= 0.25)]
    rest = [full[n_single + i] for i in near_rest]
    read += [(q, r) for q, r in zip(rest, _read_hypotheses(classifier, source, rest, 0, near_ways[near_rest]), strict=True)
             if r is not None]
    found: list[tuple[Detection, bool]] = []
    # hypotheses whose index leans to a card: confidence, quad, card, the ways round it was read,
    # and whether its size is a close-up's guess
    unsure: list[tuple[float, np.ndarray, str, int, bool]] = []
    # readings to hold below sure once the candidates are ranked (holding them before would let
    # a worse candidate over the same card win): an index disagreeing however unsurely
    later = _Marks()
    guessed = _Marks()  # readings at a close-up's guessed size: below any other, and never sure
    rough = _Marks()  # outlines guessed roughly (a skewed corner's): they hold no other card
    by_index = _Marks()  # readings of the index alone, the whole card read as nothing sure
    for i, (q, (p, index)) in enumerate(read):
        whole = i < n_single
        doubt_later = alone = False
        if i in losers:
            continue
        if i == 0 and not ((index is not None and index.label == p.label)
                           or (p.label == "back" and card_aspect)):
            continue
        if p.label == UNKNOWN or p.confidence < (min_confidence if whole else max(min_confidence, 0.75)):
            # a card mostly hidden under others: its corner index alone may still read it
            if whole or index is None or index.label in (UNKNOWN, "back"):
                continue
            if index.confidence < INDEX_SURE:
                if index.confidence >= NUDGE_FROM:
                    unsure.append((index.confidence, q, index.label, 2, False))
                continue
            alone = True
            # the whole card reading the same rank in another suit doubts the index's suit
            if p.label[:-1] == index.label[:-1]:
                doubt_later = doubted(index, p).confidence < index.confidence
                p = doubted(index, p, index_says=INDEX_SAYS)
            else:
                p = index
        elif whole:
            doubt_later = doubted(p, index, colourless=colourless, index_needed=True).confidence < p.confidence
            p = doubted(p, index, colourless=colourless, index_needed=True, index_says=INDEX_SAYS)
        elif not whole and index is not None and index.label != p.label:
            # a window slid over part of a card can look like another card (fewer pips of the
            # same suit); a hypothesis is taken only when its corner index says the same
            continue
        # a back is only taken from a whole card outline: hypotheses over patterned tables look like backs
        if p.label == "back" and (not include_backs or not whole or p.confidence < 0.8):
            continue
        if p.label == "back" and (not _back_shown(q, index, 0.0) or (i and _on_border(q, h, w))
                                  or (not i and p.confidence < FRAME_BACK)
                                  or _pip_like(small_grey, q * np.float32(scale))
                                  or (i and _framed_back(classifier, source, q))):
            # of any size (the cards of a photo of several may be small in it); the photo's own
            # frame lies on its edge, and is a back only if its corner shows one and it reads as
            # one at FRAME_BACK
            p = held(p)
        found.append((Detection(p.label, p.confidence, q), whole))
        if doubt_later:
            later.add(found[-1][0])
        if alone:
            by_index.add(found[-1][0])
    reader = _index_reader(classifier)
    if reader is not None:
        # index corners at the ends of straight edges anywhere in the photo, read by the index alone
        # at the size of the surest cards read so far, or else at every likely size
        sure = [_height(d.corners) * scale for d, _w in found if d.card != "back" and d.confidence >= 0.97]
        segs = _segments(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY))
        # with nothing read surely the photo may be a close-up whose cards are larger than it:
        # their corners are looked for at close-up sizes too, and a card read at one is not sure
        sized = any(whole and d.confidence >= 0.97 for d, whole in found)  # a whole card (a back too)
        close = [] if sure or sized else [f * max(small.shape[:2]) for f in CLOSE_UP]
        heights = [(float(np.median(sure)), False)] if sure else [(hgt, False) for hgt in card_h] + \
            [(c, True) for c in close if all(abs(hgt / c - 1) > 0.2 for hgt in card_h)]
        edge: list[tuple[np.ndarray, bool]] = []
        for hgt, guess in heights:  # each hypothesis is a card ``hgt`` high
            if ref is None or abs(hgt / scale / ref - 1) <= 0.25:
                qs = _segment_hypotheses(segs, hgt) / np.float32(scale)
                edge += [(q, guess) for q in qs[_near_ways(qs, marks)[:, 0]]]
        # each is a guess at one index corner (its top-left): its far corner is not read
        for (q, guess), r in zip(edge, _read_warped(reader, source, [q for q, _g in edge], ways=1), strict=True):
            if r.label in (UNKNOWN, "back") or r.confidence < NUDGE_FROM:
                continue
            if r.confidence >= EDGE_SURE:
                found.append((Detection(r.label, r.confidence, q), False))
                if guess:
                    guessed.add(found[-1][0])
            else:
                unsure.append((r.confidence, q, r.label, 1, guess))
        # a card seen at a strong slant has no square corner: at a mark no card read so far lies
        # on, the corner two straight edges make round it is read as the card's index corner
        lone = [m for m in seen_marks if not any(_on_card(d.corners, m) for d, _w in found)]
        skewed = _skewed_cards(reader, source, segs / np.float32(scale), lone, colourless)
        found += [(d, False) for d in skewed]
        rough.update(skewed)
    if unsure and reader is not None:
        # an outline a little off its card cuts the index: read the outlines near it, and take
        # the surest that reads the same card surely
        # a card read whole at over 0.9 ranks above any guess at it (:func:`_clash`, a face is
        # reported once): its guesses are not read again
        read_whole = {d.card for d, whole in found if whole and d.confidence > 0.9}
        unsure = [u for u in sorted(unsure, key=lambda u: -u[0])[:MAX_UNSURE] if u[2] not in read_whole]
        moved = [_nudged(u[1]) for u in unsure]
        again: list[list[Prediction]] = [[] for _ in unsure]
        for ways in (1, 2):  # an edge's guess at one index corner is read again at that corner only
            picked = [j for j, u in enumerate(unsure) if u[3] == ways]
            nudges = [m for j in picked for m in moved[j]]
            # of both index corners, those near a mark (as the hypotheses were read)
            near = _near_ways(nudges, marks) if ways == 2 else None
            readings = iter(_read_warped(reader, source, nudges, ways=ways, near=near))
            for j in picked:
                again[j] = [next(readings) for _m in moved[j]]
        for (_c, _q, label, _w, guess), ms, rs in zip(unsure, moved, again, strict=True):
            taken = [(r.confidence, m) for r, m in zip(rs, ms, strict=True)
                     if r.label == label and r.confidence >= INDEX_SURE]
            if taken:
                conf, m = max(taken, key=lambda cm: cm[0])
                found.append((Detection(label, conf, m), False))
                if guess:
                    guessed.add(found[-1][0])
    # the cards of one photo are one size: a hypothesis far from the size of the whole cards (or,
    # with none, of the surest readings) is some other shape's corner, and a back far from it
    # some other patterned thing on the table
    sizes = [_height(d.corners) for d, whole in found if whole and d.card != "back"] or \
        [_height(d.corners) for d, _whole in found if d.card != "back" and d.confidence >= 0.97]
    if sizes:
        size = float(np.median(sizes))
        found = [(d, whole) for d, whole in found if (whole and d.card != "back")
                 or abs(_height(d.corners) / size - 1) <= (0.35 if whole else 0.25)]
    # a joker seen only in part is never sure: boxes in a court's art read as jokers
    for i, (d, whole) in enumerate(found):
        if not whole and d.card in ("RJ", "BJ"):
            found[i] = (Detection(d.card, held(Prediction(d.card, d.confidence)).confidence, d.corners), whole)
            for tags in (later, guessed, rough, by_index):  # the held joker is the same reading
                if d in tags:
                    tags.add(found[i][0])
    # the surest readings first, a whole card outline counting a little surer than a hypothesis;
    # a face is reported once (backs may repeat)
    found.sort(key=lambda dw: (dw[0].card == "back", -(min(dw[0].confidence, DOUBT) if dw[0] in guessed
                                                       else dw[0].confidence + 0.1 * dw[1]), -dw[0].confidence))
    later.update(guessed)
    kept, disputed = _kept_apart(found)
    later.update(disputed)
    # with no card outlined whole, a card's size is a guess from the photo's edges, and an index
    # read at a wrong size reads another card (a whole small card in a too-large corner): it
    # stands only where another card read is of its size
    if not any(whole for _d, whole in kept):
        later.update(d for d, _w in kept if not any(k is not d and k.card != "back" and k not in guessed
                                                   and _same_size(d, k) for k, _kw in kept))
    # a hypothesis over another card of the same suit reads that card's print as another card of
    # its suit, and is not sure: its index amid the card's face (the pips seen as a corner; the
    # card may be the less sure: 3H_6 at a slant read a 5H at 0.98 amid its 3H at 0.97), or its
    # outline mostly a surer card's (a little off it: `mber_poker_hand_6`'s 7H read again as a 9H)
    later.update(d for i, (d, whole) in enumerate(kept) if not whole and suited(d.card)
                 and any(k is not d and k not in rough and suited(k.card) and k.card[-1] == d.card[-1]
                         and (_amid(d, k) or (j < i and _in_common(d.corners, k.corners) > SAME_PRINT))
                         for j, (k, _kw) in enumerate(kept)))
    # ... and a card read from its index alone is not sure over a print a less sure guess reads
    # surely as another card of its suit: either index may be the one misread (3C_9 turned: a
    # loose outline's 3C, its whole card read as nothing, read as a 5C at 0.98)
    later.update(k for j, (k, _kw) in enumerate(kept) if k in by_index and _disputed(j, kept, rough))
    # ... and of two guesses at one print, read as two faces, neither is sure: one is wrong
    later.update(d for d, whole in kept if not whole and any(_one_print_two_faces(d, k) for k, _kw in kept))
    # ... and a guess loose round another card of its suit, read as another card, is not sure
    # (194539 as a webcam: an outline round its 5D and the table below read 9D at 0.93)
    later.update(k for k, kwhole in kept if not kwhole and _loose_round(k, kept, rough))
    later.update(d for d, whole in kept if not whole and _index_turned(d, kept, h, w))
    # a guess read surely where the mark reader, which sees an index any way round, surely reads
    # another card: its outline runs across the card and reads the index sideways
    asked = [d for d, whole in kept if not whole and d.card != "back" and d not in later and d.confidence > DOUBT]
    at_marks = _mark_readings(classifier, image, seen_marks, asked)
    if at_marks is not None:
        later.update(d for d, at in zip(asked, at_marks, strict=True) if _denied(d, at, colourless))
    # ... or where its crop, read whole, is another face we would show: a guess turned round
    # reads its card's far index (mber_card10 small: a KH, whole KH 0.81, read as 10H at 0.95)
    left = [i for i, d in enumerate(asked) if d not in later]
    wholes = _whole_readings(classifier, [source.warp(asked[i].corners) for i in left], moved=False)
    # ... or where nothing but its own corner says it, however surely: neither its crop read
    # whole (at MARK_VOUCHES) nor a mark reader reads its card (it is read by its index alone;
    # 200817 turned: a 3S read as a 5S at 0.94, whole no card, the marks' 5S 0.31; a 6C in a
    # composed row, all but its index covered, read from the card turned as a 9C at 0.99, whole
    # 9C at 0.27). Held last: it still counts as read surely, so a photo of several such cards is
    # not searched as one card's
    unvouched: list[np.ndarray] = []
    for i, p in zip(left, wholes, strict=True):
        d = asked[i]
        same = _same_face(p.label, d.card, colourless)
        if p.label not in (UNKNOWN, *BLANKS) and not same and p.confidence >= DOUBT:
            later.add(d)
        elif at_marks is not None and not (same and p.confidence >= MARK_VOUCHES) \
                and not _vouched(d, at_marks[i], colourless):
            unvouched.append(d.corners)
    # ranked and kept: now the doubts wait for are applied, and a black card read from its index
    # alone needs the suit network's word
    kept = [(Detection(d.card, min(d.confidence, DOUBT), d.corners) if d in later else d, whole)
            for d, whole in kept]
    kept = [(_small_held(d), whole) for d, whole in _suits_checked(classifier, source, kept)]
    if not colourless:
        kept = list(zip(_black_suits_held(classifier, source, [d for d, _w in kept]), [w for _d, w in kept], strict=True))
    # ranked again as held: a card a doubt held goes after the sure ones it outranked
    kept.sort(key=_held_rank)
    n_sure = sum(d.confidence > DOUBT for d, _whole in kept)
    if unvouched:
        kept = [(Detection(d.card, DOUBT, d.corners) if d.confidence > DOUBT and any(d.corners is q for q in unvouched)
                 else d, whole) for d, whole in kept]
        kept.sort(key=_held_rank)
    cards = [d for d, _whole in kept]
    # no colour in the photo: suits by shape, and none sure; else a suit its shape denies is not
    # sure; then a black card left unsure takes the suit its top shows
    outlined = [w for _d, w in kept]
    cards = _backs_off_faces(_once(_black_suits_answered(classifier, source, (_greyed if colourless else _shapes_agree)(
        classifier, source, cards, outlined), outlined)))
    return (_with_marked_cards(classifier, image, seen_marks, cards, min_confidence), n_sure, seen_marks,
            Shrunk(small, scale, colourless, masks, seen_marks if small is image else None))


def _held_rank(kept: tuple[Detection, bool]) -> tuple[bool, float]:
    """A reading's place among a photo's, once held (a reading and whether its outline is
    whole): faces before backs, then the surer first, an outline seen whole counting 0.1 more."""
    d, whole = kept
    return d.card == "back", -(d.confidence + 0.1 * whole)


def _same_face(label: str, card: str, colourless: bool) -> bool:
    """Whether a reading ``label`` gives ``card``; in a photo with no colour, a suited card's
    rank in any suit (the whole card's suit is not to be trusted there)."""
    return label == card or (colourless and suited(card) and suited(label) and label[:-1] == card[:-1])


def _greyed(classifier: CardClassifier, source: Pyramid, found: list[Detection],
            whole: Sequence[bool]) -> list[Detection]:
    """``found``, read in a photo with no colour, all held below sure: each suited card seen
    ``whole`` or lying apart from the others with the suit the grey suit network reads by shape
    (:mod:`vision.grey`; the card network takes a grey heart for a spade). The top of a card under
    others shows the cards over it: its suit is the one the grey corner network reads at its
    index at :data:`CORNER_SUIT` or more, else it keeps its reading. A joker is held too: red or
    black is its ink's colour alone (:data:`vision.doubt.JOKERS`)."""
    suits = _shown_suited(found, whole)
    odds = _shape_odds(classifier, source, found, suits)
    out = list(found)
    for j, i in enumerate(suits):
        d = found[i]
        out[i] = Detection(d.card if odds is None else d.card[:-1] + GREY_SUITS[int(odds[j].argmax())],
                           d.confidence, d.corners)
    under = [i for i, d in enumerate(found) if suited(d.card) and i not in suits]
    reader = grey_corners_for(classifier) if under else None
    index = _index_reader(classifier)
    if reader is not None and index is not None:
        crops = [source.warp(found[i].corners) for i in under]
        turned = _index_below(index, crops, [found[i].card for i in under])
        for i, o in zip(under, reader.odds(crops, turned), strict=True):
            if float(o.max()) >= CORNER_SUIT:
                out[i] = Detection(found[i].card[:-1] + GREY_SUITS[int(o.argmax())], found[i].confidence,
                                   found[i].corners)
    # a joker's colour is all that tells the red one from the black one
    return [Detection(d.card, min(d.confidence, DOUBT), d.corners) if suited(d.card) or d.card in JOKERS else d
            for d in out]


def _index_below(reader: IndexReader, crops: Sequence[np.ndarray], cards: Sequence[str]) -> list[bool]:
    """For each crop of a card read as ``cards[i]``, whether its index lies at the bottom right
    (the crop turned round): the index network reads the rank there surer than at the top left."""
    h, w = reader.index_shape
    pre = preprocess_batch(crops)
    up = reader.read_corner_patches(pre[:, None, :h, :w], ranks_only=True)
    down = reader.read_corner_patches(half_turned(pre)[:, None, :h, :w], ranks_only=True)

    def rank_odds(p: Prediction, card: str) -> float:
        return p.confidence if p.label[:-1] == card[:-1] and suited(p.label) else 0.0

    return [rank_odds(d, c) > rank_odds(u, c) for u, d, c in zip(up, down, cards, strict=True)]


#: a card under others in a photo with no colour takes the suit its index's sign reads by shape
#: (:class:`vision.classify.GreyCorners`) at this or more
CORNER_SUIT = 0.5


def _backs_off_faces(found: Sequence[Detection]) -> list[Detection]:
    """``found`` less each back lying on a face read there at under :data:`PRINT_SHARE` of its
    size: the cards of one photo are one size, so it is the face's print (200240's grey diamond
    pips read as backs by a network taught blurred crops, HISTORY, session 80). Stricter than
    :func:`_print_of`'s any smaller back, which suits one card alone: here a back as large as a
    face may be a card lying over it."""
    faces = [d for d in found if d.card not in (UNKNOWN, *BLANKS)]
    return [d for d in found if d.card != "back" or not any(inside(d.corners, f.corners, share=PRINT_SHARE)
                                                            for f in faces)]


def _once(found: Sequence[Detection]) -> list[Detection]:
    """``found`` with each card reported once where two of its readings overlap: a card read at
    both corners in two suits may be one card twice once its suit is read by shape."""
    return [d for i, d in enumerate(found) if not any(k.card == d.card and _overlaps(d, k) for k in found[:i])]


def _shapes_agree(classifier: CardClassifier, source: Pyramid, found: list[Detection],
                  whole: Sequence[bool]) -> list[Detection]:
    """``found`` with each suited card read surely, seen ``whole`` or lying apart from the others,
    held below sure when the grey suit network surely reads its signs as another suit's
    (:func:`vision.grey.shape_denies`)."""
    check = [i for i in _shown_suited(found, whole) if found[i].confidence > DOUBT]
    odds = _shape_odds(classifier, source, found, check)
    if odds is None:
        return found
    out = list(found)
    for i, no in zip(check, shape_denies(odds, [found[i].card for i in check]), strict=True):
        if no:
            out[i] = Detection(found[i].card, DOUBT, found[i].corners)
    return out


def _shown_suited(found: Sequence[Detection], whole: Sequence[bool]) -> list[int]:
    """Which of ``found`` are suited cards seen ``whole`` or lying apart from the others: a card
    under others is not read by shape, the top of its crop shows the cards over it."""
    return [i for i, d in enumerate(found) if suited(d.card) and (whole[i] or _apart(d, found))]


def _shape_odds(classifier: CardClassifier, source: Pyramid, found: Sequence[Detection],
                picked: Sequence[int]) -> np.ndarray | None:
    """The grey suit network's odds for the ``picked`` cards of ``found`` (None without the
    network or without a card picked)."""
    reader = grey_suits_for(classifier)
    if reader is None or not picked:
        return None
    odds: np.ndarray = reader.odds([source.warp(found[i].corners) for i in picked])
    return odds


def _same_size(d: Detection, k: Detection, within: float = 0.25) -> bool:
    """Whether ``d`` and ``k`` are outlined at the same height, give or take ``within`` of it."""
    return abs(_height(d.corners) / _height(k.corners) - 1) <= within


def _overlaps(d: Detection, k: Detection) -> bool:
    """Whether ``k``'s outline covers more than a twentieth of ``d``'s."""
    return float(cv2.intersectConvexConvex(d.corners, k.corners)[0]) > 0.05 * float(cv2.contourArea(d.corners))


def _apart(d: Detection, found: Sequence[Detection]) -> bool:
    """Whether ``d``'s outline overlaps no card of ``found`` of another rank (a card read twice,
    from both its corners, overlaps itself: that is no other card over it)."""
    return all(k is d or k.card[:-1] == d.card[:-1] or not _overlaps(d, k) for k in found)


#: a black card read from its index alone stays sure only if the suit network leans to its suit
#: (the index of a small or blurred spade court, or of an ornate ace of spades stretched tall,
#: reads as a club at 0.92-0.99); at 0.3 before, no more of the development photos stayed sure
SUIT_AGREES = 0.5
#: an ace's suit is read at its one large pip; read from its index alone, an ace stays sure only
#: where its pip reads that suit at this (the mber deck's ornate ace of spades stretched tall reads
#: AC at 0.97 from its index; a suit network taught plain pips read its pip as clubs at 0.72)
ACE_AGREES = 0.9


def _black_suits_held(classifier: CardClassifier, source: Pyramid, found: Sequence[Detection]) -> list[Detection]:
    """``found`` with each club or spade read surely that the suit network reads in the other
    suit held below sure, as the table's reader holds it (``black_suits_held``; an ace by its
    large pip: blurred, cardsJS's ace of spades read as the ace of clubs at 0.99)."""
    black = [i for i, d in enumerate(found) if sure_black(d.card, d.confidence)]
    if not isinstance(classifier, SuitReader) or not black:
        return list(found)
    readings = classifier.black_suits_held([source.warp(found[i].corners) for i in black],
                                           [Prediction(found[i].card, found[i].confidence) for i in black])
    out = list(found)
    for i, p in zip(black, readings, strict=True):
        out[i] = Detection(p.label, p.confidence, found[i].corners)
    return out


#: an unsure black guess is answered in the suit its top shows (:func:`_black_suits_answered`)
#: only where its crop, read whole, gives its rank at this or more: then the crop lies on the
#: card, its top the card's top
RANK_SHOWN = 0.5


def _black_suits_answered(classifier: CardClassifier, source: Pyramid, found: list[Detection],
                          whole: Sequence[bool]) -> list[Detection]:
    """``found`` with each club or spade other than an ace read unsurely (at :data:`DOUBT` or
    under), seen ``whole`` or lying apart from the others, given the other black suit where the
    suit network reads that one (:func:`vision.doubt.suit_gainsays`), still unsure: the card and
    index networks take a small or blurred spade court for a club, the suit network, reading the
    card's top by shape, does not (HISTORY, session 70; an ace's large pip misleads it: AC_9 reads
    as a spade there at 0.99). A guess (not ``whole``) is answered so only where its crop read
    whole gives its rank (:data:`RANK_SHOWN`): a square guess lying askew on a JC seen at a slant
    read as nothing whole, and its top, no card's, as a spade."""
    pick = [i for i in _shown_suited(found, whole)
            if found[i].card[-1] in "CS" and found[i].card[:-1] != "A" and found[i].confidence <= DOUBT]
    if not isinstance(classifier, SuitReader) or not pick:
        return found
    crops = {i: source.warp(found[i].corners) for i in pick}  # each cut once, for both networks
    guesses = [i for i in pick if not whole[i]]
    if guesses:
        reads = _whole_readings(classifier, [crops[i] for i in guesses])
        askew = {i for i, p in zip(guesses, reads, strict=True) if not suited(p.label)
                 or p.label[:-1] != found[i].card[:-1] or p.confidence < RANK_SHOWN}
        pick = [i for i in pick if i not in askew]
    clubs = classifier.clubs_odds([crops[i] for i in pick], aces=[False] * len(pick)) if pick else None
    if clubs is None:
        return found
    out = list(found)
    for i, c in zip(pick, clubs, strict=True):
        d = found[i]
        if suit_gainsays(Prediction(d.card, d.confidence), float(c)):
            out[i] = Detection(d.card[:-1] + ("C" if d.card.endswith("S") else "S"), d.confidence, d.corners)
    return out


def _suits_checked(classifier: CardClassifier, source: Pyramid,
                   found: list[tuple[Detection, bool]]) -> list[tuple[Detection, bool]]:
    """``found`` with each black card read surely from its index alone (not ``whole``) held
    below sure unless the suit network, reading the top of the same crop (an ace's large pip),
    gives its suit."""
    check = [i for i, (d, whole) in enumerate(found)
             if not whole and sure_black(d.card, d.confidence)]
    if not isinstance(classifier, SuitReader) or not check:
        return found
    clubs = classifier.clubs_odds([source.warp(found[i][0].corners) for i in check],
                                  aces=[found[i][0].card[:-1] == "A" for i in check])
    if clubs is None:
        return found
    out = list(found)
    for i, c in zip(check, clubs, strict=True):
        d, whole = found[i]
        if (float(c) if d.card.endswith("C") else 1.0 - float(c)) < (ACE_AGREES if d.card[:-1] == "A" else SUIT_AGREES):
            out[i] = (Detection(d.card, DOUBT, d.corners), whole)
    return out


#: two readings whose index corners lie closer than this share of a card's width claim the same
#: index (the cards of a held fan show their indices about a tenth of a width apart or more)
SAME_INDEX = 0.1


def _kept_apart(found: Sequence[tuple[Detection, bool]]) -> tuple[list[tuple[Detection, bool]], list[Detection]]:
    """Of ``found`` (surest first; each with whether a whole card outline read it), those that do
    not clash with one kept before them (:func:`_clash`), and the kept guesses a
    dropped whole outline disputes: mostly the same outline, read as another face (one of the two
    readings of that card is wrong, so the guess is not sure: a joker's corner read as a 10D at
    0.95 over its whole card read as the joker)."""
    kept: list[tuple[Detection, bool]] = []
    disputed: list[Detection] = []
    for d, whole in found:
        clashes = [(k, kwhole) for k, kwhole in kept if _clash(d, whole, k, kwhole)]
        if not clashes:
            kept.append((d, whole))
        elif whole and d.card not in (UNKNOWN, "back"):
            disputed += [k for k, kwhole in clashes if not kwhole and k.card not in (d.card, "back")
                         and _in_common(d.corners, k.corners) > SAME_PRINT]
    return kept, disputed


def _clash(d: Detection, whole: bool, k: Detection, kwhole: bool) -> bool:
    """Whether reading ``d`` cannot stand beside ``k``, a surer one (``whole``, ``kwhole``: read
    from a whole card outline)."""
    if d.card == k.card and d.card != "back":
        return True  # a face is in the photo once
    inter, _ = cv2.intersectConvexConvex(d.corners, k.corners)
    if d.card == "back":
        return inter > 0.1 * cv2.contourArea(k.corners)
    if (whole or kwhole) and inter > 0.5 * min(cv2.contourArea(d.corners), cv2.contourArea(k.corners)):
        return True  # a card seen whole lies alone: what overlaps it much is part of it
    # the same printed index read twice, either way round or turned
    return _index_gap(d, k) < SAME_INDEX


#: two outlines the same way round (turned apart by less than ONE_WAY degrees), mostly in common
#: (:data:`SAME_PRINT`), whose top-left index middles lie within :data:`SAME_INDEX` of the wider
#: one's width, read one printed index. Two cards of a held fan, turned 6 degrees apart, have
#: theirs 0.11 apart or more (the composed scenes of `pegpi bench recognition`)
ONE_WAY = 20.0


def _one_print_two_faces(d: Detection, k: Detection) -> bool:
    """Whether ``d`` and ``k``, two faces, are read off one printed index (:data:`ONE_WAY`): then
    one of the two readings is wrong (mber_card10 as a webcam: its QS read as a QC by one outline
    and as a 10C at 0.95 by another a few pixels narrower)."""
    return (k is not d and d.card not in BLANKS and k.card not in (d.card, *BLANKS)
            and _turn_between(d.corners, k.corners) < ONE_WAY and _in_common(d.corners, k.corners) > SAME_PRINT
            and _top_index_gap(d, k) < SAME_INDEX)


def _top_index_gap(d: Detection, k: Detection) -> float:
    """How far apart the top-left corner indices of ``d`` and ``k`` lie, as a share of the wider's width."""
    a, b = _index_middles(np.stack([d.corners, k.corners]))[0]
    wide = max(float(np.linalg.norm(q[1] - q[0])) for q in (d.corners, k.corners))
    return float(np.linalg.norm(a - b)) / max(1e-6, wide)


def _index_gap(d: Detection, k: Detection) -> float:
    """How far apart the nearest corner indices of ``d`` and ``k`` lie, as a share of ``k``'s width."""
    gap = min(float(np.linalg.norm(a - b)) for a in _index_centres(d.corners) for b in _index_centres(k.corners))
    return gap / max(1e-6, float(np.linalg.norm(k.corners[1] - k.corners[0])))


#: where the middle of a corner index (rank over suit) lies on a card, as shares of its width and
#: height from the corner
INDEX_MIDDLE = (0.087, 0.125)


#: an index this far inside another card's outline (a share of its width) lies amid its face
AMID = 0.2


def _amid(d: Detection, k: Detection) -> bool:
    """Whether an index of ``d`` lies amid ``k``'s face, :data:`AMID` of its width from its edges
    (the cards of a fan show their indices along each other's edges)."""
    inset = AMID * float(np.linalg.norm(k.corners[1] - k.corners[0]))
    return any(cv2.pointPolygonTest(k.corners.astype(np.float32), (float(c[0]), float(c[1])), True) >= inset
               for c in _index_centres(d.corners))


#: a guess at a card with less than BEYOND of it in the photo, turned from another card by more
#: than TURN_APART degrees, whose index lies within TURNED of that card's width from its index,
#: reads that index turned (their middles, worked out from outlines turned apart, lie apart:
#: 0.10-0.18 of the width on the development photos). In view, two cards of rows laid head to
#: foot touch corners so (a hold'em board); cut off by the edge, a fan's cards lie side by side
BEYOND, TURN_APART, TURNED = 0.75, 45.0, 0.25
#: ... and a guess in view turned across such a card (by SIDEWAYS degrees, not head to foot) reads
#: its index sideways: cards in rows lie head to foot, a card across another hides its index
SIDEWAYS = (60.0, 120.0)


def _index_turned(d: Detection, kept: Sequence[tuple[Detection, bool]], h: int, w: int) -> bool:
    """Whether guess ``d`` has its index by the index of a card of ``kept`` outlined whole or read
    surer, turned from it: mostly beyond the edge of the photo (``h`` x ``w``), turned
    :data:`TURN_APART` or more (:data:`BEYOND`), or anywhere, turned :data:`SIDEWAYS`. It reads
    that index turned (3D_6 sharpened: its 3D read sideways as a 10D at 0.98; 2C_5's index as a
    QC at 0.93, though no other card shows; JD turned 30 degrees: the 6D beside it as a QD at 0.94)."""
    beyond = _cut_by_edge(d.corners, h, w, BEYOND)

    def turned(k: Detection) -> bool:
        turn = _turn_between(d.corners, k.corners)
        return turn > TURN_APART if beyond else SIDEWAYS[0] < turn < SIDEWAYS[1]
    return any(k is not d and k.card != "back" and (whole or k.confidence > d.confidence)
               and turned(k) and _index_gap(d, k) < TURNED for k, whole in kept)


def _turn_between(a: np.ndarray, b: np.ndarray) -> float:
    """The angle in degrees (0-180) between the tops (corner 0 to 1) of two upright-ordered quads."""
    ta, tb = a[1] - a[0], b[1] - b[0]
    turn = math.degrees(math.atan2(float(ta[1]), float(ta[0])) - math.atan2(float(tb[1]), float(tb[0])))
    return abs((turn + 180.0) % 360.0 - 180.0)


#: two outlines sharing more than this of their union lie over one card's print
SAME_PRINT = 0.6


def _disputed(j: int, kept: Sequence[tuple[Detection, bool]], rough: Container[Detection] = ()) -> bool:
    """Whether suited card ``kept[j]`` has its print read surely (:data:`INDEX_SURE`) as another
    card of its suit by a guess ranked after it (not a ``rough`` one): over one print two indices
    disagree, and either may be the one misread."""
    k = kept[j][0]
    return suited(k.card) and any(
        not whole and d not in rough and suited(d.card) and d.card != k.card and d.card[-1] == k.card[-1]
        and d.confidence >= INDEX_SURE and _in_common(d.corners, k.corners) > SAME_PRINT
        for d, whole in kept[j + 1:])


#: a guess whose outline holds this share of another's and is :data:`LOOSE_AREA` times its size
#: or more is a loose outline round that card
LOOSE_HOLDS, LOOSE_AREA = 0.85, 1.3


def _loose_round(k: Detection, kept: Sequence[tuple[Detection, bool]], rough: Container[Detection]) -> bool:
    """Whether suited guess ``k``'s outline is a loose one round another guess read as another
    card of its suit at :data:`DOUBT` or more (not a ``rough`` one): it holds that card whole and
    more of the table, and reads its print as another card."""
    if not suited(k.card):
        return False
    area = float(cv2.contourArea(k.corners))
    for d, whole in kept:
        if d is k or whole or d in rough or not suited(d.card) or d.card == k.card or d.card[-1] != k.card[-1] \
                or d.confidence < DOUBT:
            continue
        inner = float(cv2.contourArea(d.corners))
        if 0 < LOOSE_AREA * inner <= area and cv2.intersectConvexConvex(k.corners, d.corners)[0] >= LOOSE_HOLDS * inner:
            return True
    return False


#: :func:`vision.classify.rank_groups` of :data:`LABELS`
RANK_GROUPS = rank_groups(LABELS)
#: a mark reader (either) denies a guess's reading when it reads the index there as another card
#: this surely and the guess's card (or rank, in a photo with no colour) under MARK_DENIES[1]
MARK_DENIES = (0.8, 0.05)


#: a mark reader (either) vouches for a guess's reading when it reads the index there as the
#: guess's card (or rank, in a photo with no colour) this surely or more
MARK_VOUCHES = 0.5

#: the mark readers' probabilities (over :data:`LABELS`) at each mark near one guess, a list
#: of the readers' readings for each mark
_NearMarks: TypeAlias = list[list[np.ndarray]]


def _mark_readings(classifier: CardClassifier, image: np.ndarray, marks: Sequence[IndexMark],
                   guesses: Sequence[Detection]) -> list[_NearMarks] | None:
    """For each guess (a card read from outlines guessed round its index), what the mark reader
    and the wide mark reader, which read the index at a finder's mark whichever way round it
    lies, read at each mark nearest one of the guess's index middles (within :data:`NEAR_MARK`
    of its width; none where no mark is that near). None without a mark reader or marks."""
    points = _points(marks)
    reader = mark_reader_for(classifier) if points is not None else None
    if reader is None or points is None:
        return None
    if not guesses:
        return []
    gaps, reach = _index_gaps(np.asarray([d.corners for d in guesses], np.float32).reshape(-1, 4, 2), points)
    # for each guess, the marks nearest its two index middles, those within reach
    near = [sorted({int(g[j].argmin()) for g in gaps if g[j].min() <= reach[j]}) for j in range(len(guesses))]
    asked = sorted({i for picked in near for i in picked})
    if not asked:
        return [[] for _ in guesses]
    at = [marks[i] for i in asked]
    wide = wide_mark_reader_for(classifier)
    readings = [reader.probabilities(image, at)] + ([] if wide is None else [wide.probabilities(image, at)])
    probs = {i: [p[k] for p in readings] for k, i in enumerate(asked)}
    return [[probs[i] for i in picked] for picked in near]


def _denied(d: Detection, near: _NearMarks, colourless: bool) -> bool:
    """Whether for guess ``d`` the mark reader or the wide mark reader surely reads another card
    (:data:`MARK_DENIES`) at every mark ``near`` it (at least one; :func:`_mark_readings`): an
    index read sideways by an outline across its card, or at a wrong size by a close-up's guessed
    outline (194138 dim and noisy: its 3S read as a 5S at 0.98, the wide reader's 3S 0.93, the
    mark reader's 0.77). One mark denying is not enough: guesses at two cards may share it."""
    return bool(near) and all(any(_denies(p, d.card, colourless) for p in at) for at in near)


#: a mark reader reads an index whichever way round it lies, so a 6 and a 9 differ to it only
#: by the suit's sign below the rank: it vouches for one only where it gives the other less
#: than this (a 6C in a row, read from the turned card as a 9C at 0.98: the readers 9C 0.65, 6C 0.31)
TURNED_UNDER = 0.2
_TURNED = {"6": "9", "9": "6"}


def _vouched(d: Detection, near: _NearMarks, colourless: bool) -> bool:
    """Whether a mark reader reads ``d``'s card at a mark ``near`` it (:data:`MARK_VOUCHES`; a 6
    or a 9 giving its turned twin under :data:`TURNED_UNDER`)."""
    twin = _TURNED[d.card[:-1]] + d.card[-1] if d.card[:-1] in _TURNED else None
    return any(_share(p, d.card, colourless) >= MARK_VOUCHES
               and (twin is None or _share(p, twin, colourless) < TURNED_UNDER) for at in near for p in at)


def _pooled(p: np.ndarray, card: str, colourless: bool) -> tuple[np.ndarray, list[int]]:
    """The mark reader's probabilities ``p`` (over :data:`LABELS`) as they speak of ``card``, and
    the labels that are ``card``: with no colour, a suited card's four suits pooled
    (:func:`vision.classify.by_rank`) and its rank's labels."""
    if not (colourless and suited(card)):
        return p, [LABELS.index(card)]
    return by_rank(p, RANK_GROUPS), [i for i, lab in enumerate(LABELS) if _same_face(lab, card, colourless)]


def _share(p: np.ndarray, card: str, colourless: bool) -> float:
    """The mark reader's probability of ``card`` (of its rank, with no colour; :func:`_pooled`)."""
    pooled, mine = _pooled(p, card, colourless)
    return float(pooled[mine].sum())


def _denies(p: np.ndarray, card: str, colourless: bool) -> bool:
    """Whether the mark reader's probabilities ``p`` (over :data:`LABELS`) surely give another
    card than ``card`` (:data:`MARK_DENIES`); with no colour, another rank than a suited card's."""
    pooled, mine = _pooled(p, card, colourless)
    others = np.delete(pooled, mine + [LABELS.index(UNKNOWN)])
    return float(pooled[mine].sum()) < MARK_DENIES[1] and float(others.max(initial=0.0)) >= MARK_DENIES[0]


def _in_common(a: np.ndarray, b: np.ndarray) -> float:
    """The share of two convex quads' union that they have in common."""
    a, b = a.astype(np.float32), b.astype(np.float32)
    inter, _ = cv2.intersectConvexConvex(a, b)
    union = cv2.contourArea(a) + cv2.contourArea(b) - inter
    return float(inter / union) if union > 0 else 0.0


#: a hypothesis is near a mark of the index finder when one of its index middles is within this
#: share of its width of one (held-out designs' indices that show: 95 % within 0.15, 98 % within
#: 0.21; at 0.15 two cards of 134 in composed photos were lost, see HISTORY, session 43)
NEAR_MARK = 0.2
#: ... and when that mark's long side is this share of its height: an index is about a fifth of
#: its card's height (the development scenes' cards: 0.085-0.28, 1st to 99th percentile;
#: held-out designs' 0.10-0.27)
MARK_SHARE = (0.07, 0.33)


def _marks(classifier: CardClassifier, image: np.ndarray) -> list[IndexMark]:
    """Where the index finder beside ``classifier``'s model marks index middles in ``image``;
    none without a finder (then no hypothesis is passed over), and none while an enrolled deck
    names cards the model does not know: it knows French indices, as the index network does."""
    finder = _finder(classifier)
    return [] if finder is None else finder.find(image)


def _finder(classifier: CardClassifier) -> IndexFinder | None:
    """The index finder to ask for ``classifier``'s model (see :func:`_marks`), if any."""
    return finder_for(classifier) if _index_reader(classifier) is not None else None


def _with_marked_cards(classifier: CardClassifier, image: np.ndarray, marks: Sequence[IndexMark],
                       found: Sequence[Detection], min_confidence: float, *, deny: bool = True) -> list[Detection]:
    """``found`` and the cards the mark readers read at the finder's marks, each card not in
    ``found`` once, never sure: nothing but its index shows it (none when ``min_confidence`` asks
    for more than that). Its corners are those of the mark's box.

    - A mark on no card of ``found`` (an index whose card shows no outline: cut off by the photo's
      edge, under others, washed out) gives the card the mark reader reads at :data:`MARK_READ`
      or more, or the wide mark reader so when the mark reader's likeliest card is the same
      (:data:`WIDE_AGREES`).
    - A mark inside a card's outline but not at the index of a card read surely (:func:`_index_gaps`):
      the index of a card lying over it in a row or a fan, whose own outline was not read, a mark on
      the card's print, or the index of an unsure card. Either reader at :data:`MARK_READ` and the
      other's likeliest card the same at :data:`WIDE_AGREES` or more (a pip alone is not taken for
      an index). An unsure card of ``found`` whose own index so reads as another card is dropped
      (with ``deny``): an outline guessed over a pile, read as a face its index does not show."""
    points = _points(marks)
    reader = mark_reader_for(classifier) if points is not None and min(MARK_READ, DOUBT) >= min_confidence else None
    if reader is None or points is None:
        return list(found)
    # which marks lie on which card of ``found`` (n, m), and which at its own index
    on = np.array([[_on_card(d.corners, m) for m in marks] for d in found], bool).reshape(len(found), len(marks))
    gaps, reach = _index_gaps(np.asarray([d.corners for d in found], np.float32).reshape(-1, 4, 2), points)
    own = on & (gaps.min(axis=0) <= reach[:, None])
    sure = np.array([d.confidence > DOUBT for d in found], bool)
    lone = np.flatnonzero(~on.any(axis=0))
    over = np.flatnonzero(on.any(axis=0) & ~own[sure].any(axis=0))
    if not len(lone) and not len(over):
        return list(found)
    picked = [*lone, *over]  # the marks read, by position in ``marks``
    at = [marks[i] for i in picked]
    probs = reader.probabilities(image, at)
    taken = {d.card for d in found}
    out: list[Detection] = []
    denied: set[int] = set()  # positions in ``found``

    def new(k: int) -> bool:
        return LABELS[k] not in (UNKNOWN, "back") and LABELS[k] not in taken

    def take(p: np.ndarray, agrees: np.ndarray | None, rows: Sequence[int]) -> None:
        for j in sorted(rows, key=lambda j: -float(p[j].max())):
            k = int(np.argmax(p[j]))
            conf = float(p[j, k])
            if conf < MARK_READ or not new(k):
                continue
            if agrees is not None and (int(np.argmax(agrees[j])) != k or agrees[j, k] < WIDE_AGREES):
                continue
            taken.add(LABELS[k])
            out.append(Detection(LABELS[k], min(conf, DOUBT), at[j].box()))
            if deny and j >= len(lone):
                denied.update(int(i) for i in np.flatnonzero(own[:, picked[j]] & ~sure))

    alone = range(len(lone))
    take(probs, None, alone)
    wide = wide_mark_reader_for(classifier)
    if wide is not None:
        # inside a card both readers must agree: the wide reader is asked only where the mark
        # reader's likeliest is a card not yet listed, at WIDE_AGREES or more
        inner = [j for j in range(len(lone), len(at)) if probs[j].max() >= WIDE_AGREES and new(int(np.argmax(probs[j])))]
        asked = [*alone, *inner]
        wide_probs = np.zeros_like(probs)
        if asked:
            wide_probs[asked] = wide.probabilities(image, [at[j] for j in asked])
        # an index the finder marks by its rank or its suit alone shows the mark reader half of
        # it: the wide reader sees all of it, and is taken where both read the same card
        take(wide_probs, probs, alone)
        take(probs, wide_probs, inner)
        take(wide_probs, probs, inner)
    return [d for i, d in enumerate(found) if i not in denied] + out


def _index_gaps(qs: np.ndarray, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """How far each mark at ``points`` (:func:`_points`) lies from the two index middles
    (:func:`_index_middles`) of each card outlined by ``qs`` (``(n, 4, 2)``): ``(2, n, m)``; and
    how near one must lie to be at an index, :data:`NEAR_MARK` of each card's width: ``(n,)``."""
    reach = NEAR_MARK * np.hypot(*(qs[:, 1] - qs[:, 0]).T)
    gaps = np.stack([np.hypot(mid[:, None, 0] - points[None, :, 0], mid[:, None, 1] - points[None, :, 1])
                     for mid in _index_middles(qs)])
    return gaps, reach


#: the wide mark reader's card is taken when the mark reader's likeliest card at that mark is
#: the same, at this or more (HISTORY, session 54)
WIDE_AGREES = 0.3


#: a skewed corner (:func:`_skewed_corners`) is made by two straight edges, each at least
#: SKEW_EDGE of the mark's long side, ending within SKEW_REACH of it of the mark and SKEW_GAP of it
#: of each other, at 53 to 127 degrees (SKEW_COS)
SKEW_EDGE, SKEW_REACH, SKEW_GAP, SKEW_COS = 0.6, 1.5, 0.8, 0.6
#: ... and read as a card this many of the mark's long sides high, and SKEW_WIDTHS times as wide
#: as a card that high (a card seen at a slant is foreshortened one way)
SKEW_HEIGHTS, SKEW_WIDTHS = (4.0, 5.5, 7.0), (0.8, 1.0, 1.25)
#: a card is read at a skewed corner when SKEW_AGREE of its guesses read it at SKEW_READ or more
SKEW_READ, SKEW_AGREE = 0.9, 2


def _on_card(quad: np.ndarray, mark: IndexMark) -> bool:
    """Whether ``mark`` lies on the card outlined by ``quad``."""
    return cv2.pointPolygonTest(quad.astype(np.float32), (mark.x, mark.y), False) >= 0


def _cross(a: np.ndarray, b: np.ndarray) -> float:
    """The cross product of two 2-vectors: positive where ``b`` turns clockwise from ``a`` in a photo."""
    return float(a[0] * b[1] - a[1] * b[0])


def _skewed_corners(segs: np.ndarray, mark: IndexMark) -> list[np.ndarray]:
    """Card outlines (upright-ordered parallelograms) whose top-left corner is where two straight
    edges (:func:`_segments`) meet round ``mark`` (:data:`SKEW_EDGE` and the rest), each edge a
    side of the card and ``mark`` between them: a card seen at a strong slant, whose corners are
    far from square in the photo, at each of :data:`SKEW_HEIGHTS` and :data:`SKEW_WIDTHS`."""
    side = max(mark.width, mark.height)
    middle = np.array([mark.x, mark.y], np.float32)
    ends, others = segs.reshape(-1, 2), segs[:, ::-1].reshape(-1, 2)  # each end, and its edge's other end
    lengths = np.linalg.norm(others - ends, axis=1)
    near = np.flatnonzero((np.linalg.norm(ends - middle, axis=1) < SKEW_REACH * side) & (lengths > SKEW_EDGE * side))
    out: list[np.ndarray] = []
    for n, i in enumerate(near):
        for j in near[n + 1:]:
            if i // 2 == j // 2 or np.linalg.norm(ends[i] - ends[j]) > SKEW_GAP * side:
                continue
            u, v = (others[i] - ends[i]) / lengths[i], (others[j] - ends[j]) / lengths[j]
            corner = _line_meet(ends[i], others[i], ends[j], others[j])
            if abs(float(np.dot(u, v))) > SKEW_COS or corner is None \
                    or np.linalg.norm(corner - (ends[i] + ends[j]) / 2) > SKEW_GAP * side:
                continue
            top, down = (u, v) if _cross(u, v) > 0 else (v, u)  # clockwise in the photo, as a card's face
            if not (_cross(top, middle - corner) > 0 > _cross(down, middle - corner)):
                continue  # the mark is not between the two edges
            for k in SKEW_HEIGHTS:
                for f in SKEW_WIDTHS:
                    height = k * side
                    width = f * height / ASPECT
                    out.append(np.array([corner, corner + top * width, corner + top * width + down * height,
                                         corner + down * height], np.float32))
    return out


def _skewed_cards(reader: IndexReader, image: Pyramid, segs: np.ndarray,
                  marks: Sequence[IndexMark], colourless: bool) -> list[Detection]:
    """The cards read at the skewed corners round ``marks`` (:func:`_skewed_corners`; ``segs`` in
    ``image``'s pixels), each mark's surest, where :data:`SKEW_AGREE` of its guesses read it at
    :data:`SKEW_READ` (``colourless``: a photo with no colour, each rank's suits pooled, its suit
    told by shape later); never sure (a guessed outline fits a card seen at a slant badly)."""
    out: list[Detection] = []
    for mark in marks:
        quads = _skewed_corners(segs, mark)
        reads = [(r, q) for r, q in zip(_read_warped(reader, image, quads, ways=1, ranks_only=colourless), quads,
                                        strict=True)
                 if r.label not in (UNKNOWN, "back") and r.confidence >= SKEW_READ]
        if not reads:
            continue
        best, quad = max(reads, key=lambda rq: rq[0].confidence)
        if sum(r.label == best.label for r, _q in reads) >= SKEW_AGREE:
            out.append(Detection(best.label, min(best.confidence, DOUBT), quad))
    return out


def _points(marks: Sequence[IndexMark]) -> np.ndarray | None:
    """The middles of ``marks`` and their boxes' long sides, ``(n, 3)``, as :func:`_near_marks`
    takes them; None without any."""
    return np.array([(m.x, m.y, max(m.width, m.height)) for m in marks], np.float32).reshape(-1, 3) if marks else None


def _near_marks(quads: Sequence[np.ndarray], marks: np.ndarray | None, ways: int = 2) -> list[bool]:
    """For each quad (upright-ordered), whether the middle of its top-left index (and with
    ``ways=2`` of its bottom-right one) lies near a mark of its size (:func:`_near_ways`)."""
    out: list[bool] = np.any(_near_ways(quads, marks)[:, :ways], axis=1).tolist()
    return out


def _near_ways(quads: Sequence[np.ndarray] | np.ndarray, marks: np.ndarray | None) -> np.ndarray:
    """For each quad (upright-ordered), whether the middles of its top-left and of its
    bottom-right index each lie within :data:`NEAR_MARK` of its width of a mark (``marks``:
    :func:`_points`) whose size fits its height (:data:`MARK_SHARE`), ``(N, 2)`` bool (all True
    without marks)."""
    if marks is None or len(quads) == 0:
        return np.ones((len(quads), 2), bool)
    qs = np.asarray(quads, np.float32).reshape(-1, 4, 2)
    reach = NEAR_MARK * np.hypot(*(qs[:, 1] - qs[:, 0]).T)
    height = 0.5 * (np.hypot(*(qs[:, 3] - qs[:, 0]).T) + np.hypot(*(qs[:, 2] - qs[:, 1]).T))
    share = marks[None, :, 2] / np.maximum(height[:, None], 1e-3)
    fits = (share >= MARK_SHARE[0]) & (share <= MARK_SHARE[1])
    near = np.zeros((len(qs), 2), bool)
    for way, mid in enumerate(_index_middles(qs)):
        gap = np.hypot(mid[:, None, 0] - marks[None, :, 0], mid[:, None, 1] - marks[None, :, 1])
        near[:, way] = ((gap <= reach[:, None]) & fits).any(axis=1)
    return near


def _index_middles(qs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The middles of the top-left and the bottom-right corner indices of the cards outlined by
    ``qs`` (``(n, 4, 2)``, upright-ordered), each ``(n, 2)``."""
    fx, fy = INDEX_MIDDLE
    return (qs[:, 0] + fx * (qs[:, 1] - qs[:, 0]) + fy * (qs[:, 3] - qs[:, 0]),
            qs[:, 2] + fx * (qs[:, 3] - qs[:, 2]) + fy * (qs[:, 1] - qs[:, 2]))


def _index_centres(quad: np.ndarray) -> list[np.ndarray]:
    """The middles of the two corner indices of a card outlined by ``quad`` (upright-ordered):
    a quad read turned, whose corner sits elsewhere on the same print, finds them at the same place."""
    return [m[0] for m in _index_middles(np.asarray(quad)[None])]


# -- one card per image ------------------------------------------------------------------------

_ONE_WORK = 640  # long side the single-card locator works on
GRABCUT_SEED = 1  # OpenCV's random generator's seed for each GrabCut
GRABCUT_MARGIN = 0.03  # the share of each side round GrabCut's rectangle taken for the table
#: GrabCut works on the image shrunk to this long side: its time grows with the pixels, and
#: most of its runs outline nothing (see HISTORY, session 39)
GRABCUT_SIDE = 160
#: an outline inside another at least this many times its size is not taken for the other's print
MUCH_LARGER = 6.0


def _squashed_card(contour: np.ndarray) -> np.ndarray | None:
    """The quad of an outline that is four straight sides filled solid, nearly square but with
    corners within the slack of a right angle: a card seen so obliquely (or in a photo so
    squashed) that its long side looks no longer than its short one. Which side is its top
    is left to the reading (:func:`_quarter_turns`)."""
    q = _hull_quad(contour)
    if q is None:
        return None
    sides = np.linalg.norm(np.roll(q, -1, axis=0) - q, axis=1)
    if cv2.contourArea(contour) < SQUASHED_FILL * cv2.contourArea(q) or sides_ratio(q) >= PHOTO_ASPECT[0] \
            or min(sides[0], sides[2]) < 0.8 * max(sides[0], sides[2]) \
            or min(sides[1], sides[3]) < 0.8 * max(sides[1], sides[3]) or not right_angled(q):
        return None
    return _upright(q)


#: a nearly square outline is taken for a squashed card only when it fills its four sides this well
SQUASHED_FILL = 0.95
#: ... and when what it holds is mostly at least this pale (:func:`_pale`): a card's paper in
#: shade is 0.4 or more, a pip about 0
PALE = 0.25


def _pale(img: np.ndarray) -> np.ndarray:
    """How pale each pixel is, 0-1: its brightness less its saturation, over the photo's palest
    (a card's paper is bright and colourless; a red pip is bright and saturated, a black one dark)."""
    hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV)
    white = np.clip(hsv[..., 2].astype(np.float32) - hsv[..., 1], 0, None)
    pale: np.ndarray = white / max(1.0, float(np.percentile(white, 99)))
    return pale


#: a mark printed on a card (a pip): an outline under this share of the photo's long side...
MARK_SIZE = 0.12
#: ... that is darker than the ground round it by this much (grey levels)
MARK_DARKER = 40


def _mark(quad: np.ndarray, grey: np.ndarray) -> bool:
    """Whether ``quad`` is a small dark mark on paler ground, such as a pip on a card's paper."""
    if _height(quad) >= MARK_SIZE * max(grey.shape[:2]):
        return False
    return _ground_darker(grey, quad, 1.5) > MARK_DARKER


def _ground_darker(grey: np.ndarray, quad: np.ndarray, ring: float) -> float:
    """How much darker (grey levels, medians) what ``quad`` holds is than the ground round it,
    out to ``ring`` times its size; 0 where either is empty."""
    centre = quad.mean(axis=0)
    held, round_it = _grey_median(grey, quad), _grey_median(grey, (quad - centre) * ring + centre, hole=quad)
    return round_it - held if held is not None and round_it is not None else 0.0


def _grey_median(grey: np.ndarray, quad: np.ndarray, hole: np.ndarray | None = None) -> float | None:
    """The median of the grey levels inside the convex ``quad`` and outside ``hole`` (``None``
    where none is), counted by a histogram under :func:`_box_mask` (no pixels gathered)."""
    box, mask = _box_mask(grey.shape, quad, hole)
    if mask is None:
        return None
    counts = cv2.calcHist([grey[box]], [0], mask, [256], [0, 256]).ravel()
    return counted_median(counts) if counts.sum() > 0 else None


#: a card lying on something darker (a tray, a book, a dark mat) is paler than the ring of it
#: round the card by this much (grey levels); a court's printed frame is darker than its paper
CARD_PALER = 40


def _on_darker(grey: np.ndarray) -> Callable[[np.ndarray, np.ndarray], bool]:
    """Whether an outline lies on the larger one round it rather than being its print: it is
    paler than what of the larger one shows round it by :data:`CARD_PALER` (``grey``: the photo)."""
    # a photo's outlines are judged in pairs, several times over: each median is counted once
    held: dict[bytes, float | None] = {}
    said: dict[bytes, bool] = {}

    def lies_on(inner: np.ndarray, outer: np.ndarray) -> bool:
        key = inner.tobytes()
        if key not in held:
            held[key] = _grey_median(grey, inner)
        pair = key + outer.tobytes()
        if pair not in said:
            paper = held[key]
            ring = None if paper is None else _grey_median(grey, outer, hole=inner)
            said[pair] = paper is not None and ring is not None and paper - ring > CARD_PALER
        return said[pair]
    return lies_on


#: a back has a design: an outline read as one whose middle (:data:`PIP_MIDDLE` of it across and
#: down) spans fewer grey levels than this from its 10th to its 90th percentile (the development
#: photos' backs: 53 or more), darker than the ground round it (out to :data:`PIP_RING` times its
#: size) as a mark is (:data:`MARK_DARKER`), is a pip on a card's paper (a grey diamond reads as a back)
PIP_SPAN, PIP_MIDDLE, PIP_RING = 30, 0.8, 1.4


def _pip_like(grey: np.ndarray, quad: np.ndarray) -> bool:
    """Whether an outline read as a back is one flat dark shape on paler paper (:data:`PIP_SPAN`):
    a pip of the card it lies on, not a back (``grey``: the photo in grey)."""
    middle = quad.mean(axis=0)
    values = _within(grey, (middle + (quad - middle) * PIP_MIDDLE).astype(np.float32))
    if values.size < 16:
        return False
    low, high = np.percentile(values, (10, 90))
    return bool(high - low < PIP_SPAN) and _ground_darker(grey, quad, PIP_RING) > MARK_DARKER


def _pale_inside(quad: np.ndarray, pale: np.ndarray) -> bool:
    """Whether what ``quad`` holds is mostly :data:`PALE` (``pale``: :func:`_pale` of the photo)."""
    held = _within(pale, quad)
    return held.size > 0 and float(np.median(held)) >= PALE


def _within(img: np.ndarray, quad: np.ndarray, hole: np.ndarray | None = None) -> np.ndarray:
    """The pixels of ``img`` inside the convex ``quad`` and outside ``hole`` (see :func:`_box_mask`)."""
    box, mask = _box_mask(img.shape, quad, hole)
    if mask is None:
        return img[:0, :0].reshape(-1, *img.shape[2:])
    values: np.ndarray = img[box][mask > 0]
    return values


def _box_mask(shape: tuple[int, ...], quad: np.ndarray, hole: np.ndarray | None = None
              ) -> tuple[tuple[slice, slice], np.ndarray | None]:
    """The bounding box in an image of ``shape`` of the convex ``quad`` and a mask of it there
    (1 inside ``quad``, 0 in ``hole``; ``None`` when the box is empty): a whole-photo mask for each
    of a photo's outlines costs more."""
    h, w = shape[:2]
    x0, y0 = np.clip(np.floor(quad.min(axis=0)), 0, None).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
    x1, y1 = min(int(x1), w), min(int(y1), h)
    box = (slice(int(y0), y1), slice(int(x0), x1))
    if x1 <= x0 or y1 <= y0:
        return box, None
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    offset = np.array([x0, y0], np.float32)
    cv2.fillConvexPoly(mask, (quad - offset).round().astype(np.int32), 1)
    if hole is not None:
        cv2.fillConvexPoly(mask, (hole - offset).round().astype(np.int32), 0)
    return box, mask


def _large_quads(mask: np.ndarray, min_area: float, out: list[np.ndarray],
                 squashed: list[np.ndarray] | None = None) -> None:
    """Card-shaped outlines of at least ``min_area`` in ``mask``, added to ``out``; with
    ``squashed``, :func:`_squashed_card` outlines added to it."""
    h, w = mask.shape[:2]
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    for c in sorted(contours, key=cv2.contourArea, reverse=True)[:6]:
        if not min_area <= cv2.contourArea(c) <= 0.97 * h * w:
            continue
        q = _single_cards(c, min_area)
        if q is not None and _unlike(q, out):
            out.append(q)
        elif q is None and squashed is not None and (s := _squashed_card(c)) is not None and _unlike(s, squashed):
            squashed.append(s)


def card_outlines(img: np.ndarray, min_share: float = 0.01, *, grabcut: bool | None = None,
                  squashed: list[np.ndarray] | None = None, masks: list[np.ndarray] | None = None) -> list[np.ndarray]:
    """Outlines (upright-ordered quads, ``img`` pixels) of a card that fills at least
    ``min_share`` of an image meant to show one card: a loose crop or a photo of one card on
    any background. GrabCut separates the card from its surroundings when nothing else finds an
    outline (``grabcut=None``) or never (``False``); ``True`` gives GrabCut's outline only.
    Best supported by the image's edges first; empty if no card outline stands out. Nearly
    square outlines (:func:`_squashed_card`) are added to ``squashed`` if given, never returned.
    ``masks``: :func:`_masks` of ``img`` made already (taken when ``img`` is worked on as it is)."""
    h, w = img.shape[:2]
    scale = min(1.0, _ONE_WORK / max(h, w))
    small = cv2.resize(img, (max(1, int(w * scale)), max(1, int(h * scale))), interpolation=cv2.INTER_AREA) \
        if scale < 1 else img
    sh, sw = small.shape[:2]
    min_area = min_share * sh * sw
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    quads: list[np.ndarray] = []
    if grabcut is not True:
        masks = _with_lighter(masks if masks is not None and small is img else _masks(small, grey), grey)
        found: list[np.ndarray] | None = None if squashed is None else []
        for m in masks:
            _large_quads(m, min_area, quads, found)
        if squashed is not None and found:
            # a card's face is pale: a pip seen large (a diamond is a square turned) is not
            pale = _pale(small)
            squashed += [q / scale for q in found if _pale_inside(q, pale)]
        # things on the table touching the card join its outline: open them off, on masks of
        # half the size (a wide opening costs with its kernel's area)
        half = [cv2.resize(m, (max(1, sw // 2), max(1, sh // 2)), interpolation=cv2.INTER_NEAREST) for m in masks]
        back = np.array([sw / max(1, sw // 2), sh / max(1, sh // 2)], np.float32)
        for share in (0.04, 0.08):
            k = max(3, int(share * min(sh, sw) / 2) | 1)
            disc = _disc_parts(k)
            for m in half:
                opened: list[np.ndarray] = []
                _large_quads(_opened(m, disc), min_area / 4, opened)
                quads += [q * back for q in opened if _unlike(q * back, quads)]
    if (grabcut or (grabcut is None and not quads)) and min(sh, sw) >= 40:
        # no clean outline (clutter, shadow, a table as light as the card): let GrabCut split
        # the card from what surrounds it, starting from "the card is in the middle"
        _grabcut_quads(small, min_area, quads)
    # a card lies inside the table's outline when the table is lighter than what surrounds it:
    # an outline inside one :data:`MUCH_LARGER` is not taken for its print, but left for the
    # corner indices to judge (nested_losers)
    quads = outermost(quads, sh * sw, much_larger=MUCH_LARGER, lies_on=_on_darker(grey))
    if len(quads) > 1:
        # the outline that runs along the image's edges best first (an outline that swallowed
        # something touching the card leaves the card's edge somewhere), then the larger
        edges = _edge_map(grey, 5)
        score = {id(q): round(_edge_support(edges, q), 1) for q in quads}
        quads.sort(key=lambda q: (-score[id(q)], -cv2.contourArea(q)))
    return [q / scale for q in quads]


def _disc_parts(k: int) -> list[np.ndarray]:
    """OpenCV's elliptic ``k`` x ``k`` structuring element as the rectangles (centred, wider
    ones flatter) whose union it is: its rows narrow away from the middle."""
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    c = k // 2
    reach = [int(np.flatnonzero(disc[c + dy]).max()) - c for dy in range(c + 1)]  # each row's half-width
    return [cv2.getStructuringElement(cv2.MORPH_RECT, (2 * a + 1, 2 * max(dy for dy in range(c + 1) if reach[dy] >= a) + 1))
            for a in sorted(set(reach))]


def _opened(mask: np.ndarray, parts: list[np.ndarray]) -> np.ndarray:
    """``mask`` opened by the union of the rectangles ``parts`` (:func:`_disc_parts`): the same
    pixels as opening by the disc itself, in a third less time (a rectangle is taken row and
    column apart; a disc pixel by pixel). Eroding by a union is the least of the erosions, and
    dilating by it the most of the dilations."""
    eroded = cv2.erode(mask, parts[0])
    for r in parts[1:]:
        eroded = cv2.min(eroded, cv2.erode(mask, r))  # pairwise: no stack of every erosion
    out = cv2.dilate(eroded, parts[0])
    for r in parts[1:]:
        out = cv2.max(out, cv2.dilate(eroded, r))
    return out


def _grabcut_quads(small: np.ndarray, min_area: float, quads: list[np.ndarray]) -> None:
    """Adds to ``quads`` the outlines GrabCut separates in ``small`` shrunk to :data:`GRABCUT_SIDE`
    long, starting from "the card is in the middle"."""
    sh, sw = small.shape[:2]
    s = min(1.0, GRABCUT_SIDE / max(sh, sw))
    tiny = cv2.resize(small, (int(sw * s), int(sh * s)), interpolation=cv2.INTER_AREA) if s < 1 else small
    th, tw = tiny.shape[:2]
    gc = np.zeros((th, tw), np.uint8)
    bgd, fgd = np.zeros((1, 65), np.float64), np.zeros((1, 65), np.float64)
    try:
        # GrabCut seeds its colour models from OpenCV's shared random generator: seeded, one
        # photo reads the same every time, whatever was read before it
        cv2.setRNGSeed(GRABCUT_SEED)
        mx, my = int(GRABCUT_MARGIN * tw), int(GRABCUT_MARGIN * th)
        cv2.grabCut(tiny, gc, (mx, my, int((1 - 2 * GRABCUT_MARGIN) * tw), int((1 - 2 * GRABCUT_MARGIN) * th)),
                    bgd, fgd, 4, cv2.GC_INIT_WITH_RECT)
    except cv2.error:
        return  # a flat image: GrabCut has nothing to model
    fg = np.where((gc == cv2.GC_FGD) | (gc == cv2.GC_PR_FGD), 255, 0).astype(np.uint8)
    found: list[np.ndarray] = []
    _large_quads(cv2.resize(fg, (sw, sh), interpolation=cv2.INTER_NEAREST), min_area, found)
    # GrabCut takes the margin outside its rectangle for the table: an outline reaching that
    # margin runs on to the photo's edge as far as anyone can tell, and is put there (a card
    # the photo cuts off must show as cut off, see _on_border)
    near_x, near_y = (mx + 1.5) * sw / tw, (my + 1.5) * sh / th
    for q in found:
        x, y = q[:, 0], q[:, 1]
        x[x <= near_x], x[x >= sw - near_x], y[y <= near_y], y[y >= sh - near_y] = 0, sw, 0, sh
    quads += found


#: a card's printed marks (indices, pips, a court's picture) span about this share of its long
#: side, less its margins: the card is their extent grown by these, at the card's own ratio
INK_GROWTH = (1.06, 1.14)
#: the tightest box round the marks gives the card's tilt roughly: it is also tried turned by
#: these (degrees); the tilt the marks' rows and columns show, by these
INK_TURNS, ROWS_TURNS = (-15.0, -10.0, -5.0, 0.0, 5.0, 10.0, 15.0), (-4.0, 0.0, 4.0)
#: the rows' tilt is read from this many of a group's largest marks at most: a card prints
#: fewer, and a textured table's thousands of specks would cost their pairs' square in memory
ROWS_MARKS = 300


def _rows_tilt(centres: np.ndarray) -> float | None:
    """The tilt (degrees, 0-90) most lines between two of ``centres`` make, a quarter turn
    aside: a card's pips and indices stand in rows and columns square to its sides. None for
    fewer than three marks."""
    if len(centres) < 3:
        return None
    i, j = np.triu_indices(len(centres), 1)
    d = centres[j] - centres[i]
    counts = np.bincount((np.degrees(np.arctan2(d[:, 1], d[:, 0])) % 90.0).astype(int), minlength=90)
    smooth = sum(np.roll(counts, k) * wt for k, wt in zip(range(-2, 3), (0.25, 0.5, 1.0, 0.5, 0.25), strict=True))
    return float(np.argmax(smooth)) + 0.5


def _boxes_round(pts: np.ndarray, tilt: float) -> list[np.ndarray]:
    """The card guessed round marks at ``pts`` tilted by ``tilt`` degrees: their extent along
    and across that tilt, grown by :data:`INK_GROWTH` and widened to at least the card's ratio."""
    t = np.radians(tilt)
    along, across = np.array([np.cos(t), np.sin(t)], np.float32), np.array([-np.sin(t), np.cos(t)], np.float32)
    u, v = pts @ along, pts @ across
    centre = along * (u.min() + u.max()) / 2 + across * (v.min() + v.max()) / 2
    wide, high = float(u.max() - u.min()), float(v.max() - v.min())
    out = []
    for grow in INK_GROWTH:
        long = max(wide, high) * grow
        short = max(min(wide, high) * grow, long / ASPECT)
        size = (long, short) if wide >= high else (short, long)
        out.append(cv2.boxPoints(((float(centre[0]), float(centre[1])), size, tilt)).astype(np.float32))
    return out


#: a photo's dark marks as OpenCV's connected components: count, labels, stats, centres
Ink: TypeAlias = tuple[int, np.ndarray, np.ndarray, np.ndarray]


def _ink(img: np.ndarray) -> Ink:
    """The dark marks of a photo (darker than what lies round them), as OpenCV's connected
    components: their count, labels, stats and centres (component 0 is the ground)."""
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY) if img.ndim == 3 else img
    k = max(9, (min(grey.shape[:2]) // 14) | 1)
    dark = cv2.morphologyEx(grey, cv2.MORPH_BLACKHAT, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    _, ink = cv2.threshold(dark, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    ink = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, labels, stats, centres = cv2.connectedComponentsWithStats(ink)
    return n, labels, stats, centres


#: where a corner index's rank, its middle and its suit sign lie on a card (shares of its width and
#: height from the corner): two alike marks may be a card's two ranks, or its two suit signs
INDEX_MARKS = ((INDEX_MIDDLE[0], 0.085), INDEX_MIDDLE, (INDEX_MIDDLE[0], 0.19))
#: at most this many of a photo's marks (the largest) are paired
MAX_PAIRED = 24


def pair_outlines(img: np.ndarray, ink: Ink | None = None) -> list[np.ndarray]:
    """Outlines (upright-ordered quads) of a card guessed from two alike marks that may be its
    two corner indices, which lie opposite each other about its middle: a card whose edges and
    most pips are lost under a sheet's glare still shows both indices. Each pair gives the card
    whose diagonal of index marks they are, either way round, as a rank, a middle or a suit sign.
    ``ink``: :func:`_ink` of ``img``, if made already."""
    h, w = img.shape[:2]
    _n, _labels, stats, centres = ink or _ink(img)
    area = stats[1:, cv2.CC_STAT_AREA].astype(np.float32)
    size = np.maximum(stats[1:, cv2.CC_STAT_WIDTH], stats[1:, cv2.CC_STAT_HEIGHT])
    marks = np.flatnonzero((area >= 5e-5 * h * w) & (size <= 0.2 * min(h, w)))
    marks = marks[np.argsort(-area[marks])][:MAX_PAIRED]
    card = np.array([[-0.5, -ASPECT / 2], [0.5, -ASPECT / 2], [0.5, ASPECT / 2], [-0.5, ASPECT / 2]], np.float32)
    out: list[np.ndarray] = []
    for a_i, i in enumerate(marks):
        for j in marks[a_i + 1:]:
            if not 0.7 <= area[i] / area[j] <= 1 / 0.7:
                continue
            gap = centres[j + 1] - centres[i + 1]
            for fx, fy in INDEX_MARKS:
                along = np.array([1 - 2 * fx, (1 - 2 * fy) * ASPECT])  # the gap, in card widths
                width = float(np.linalg.norm(gap) / np.linalg.norm(along))
                if not 0.25 * max(h, w) <= width * ASPECT <= 1.3 * max(h, w):
                    continue
                for side in (1, -1):  # the marks on the card's main diagonal, or on the other
                    t = np.arctan2(gap[1], gap[0]) - side * np.arctan2(along[1], along[0])
                    turn = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]], np.float32)
                    corners = card * width * np.array([side, 1], np.float32)
                    out.append(_upright(corners @ turn.T + (centres[i + 1] + centres[j + 1]) / 2))
    return out


def ink_outlines(img: np.ndarray, ink: Ink | None = None) -> list[np.ndarray]:
    """Outlines (upright-ordered quads) of a card guessed from where its printed marks lie: for a
    card whose edges do not show (white on a white sheet, under a sleeve's glare, in shade). Dark
    marks smaller than a card are gathered into the largest groups; round each group a card is
    guessed at the tilt of the tightest box round its marks (turned by :data:`INK_TURNS`) and at
    the tilt its marks' rows show (:func:`_rows_tilt`, turned by :data:`ROWS_TURNS`), for the
    corner index to confirm. ``ink``: :func:`_ink` of ``img``, if made already."""
    h, w = img.shape[:2]
    n, labels, stats, centres = ink or _ink(img)
    # a mark is larger than noise and smaller than a card (not the table's edge, not a shadow)
    small = (stats[:, cv2.CC_STAT_AREA] >= 5e-5 * h * w) & (stats[:, cv2.CC_STAT_WIDTH] <= 0.4 * w) \
        & (stats[:, cv2.CC_STAT_HEIGHT] <= 0.4 * h)
    small[0] = False
    marks = (small[labels] * 255).astype(np.uint8)
    out: list[np.ndarray] = []
    # how far each pixel lies from a mark: the marks grown by a disc at any size, at the cost of one
    gap = cv2.distanceTransform(255 - marks, cv2.DIST_L2, cv2.DIST_MASK_PRECISE)
    for share in (0.10, 0.18):  # marks this close (of the photo's short side) are one card's
        d = max(3, int(share * min(h, w)) | 1)
        grown = ((gap <= d / 2) * 255).astype(np.uint8)
        groups, _ = cv2.findContours(grown, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        largest = sorted(groups, key=cv2.contourArea, reverse=True)[:2]
        # a card of few pips filling the photo: its corners' marks may lie further apart
        for group in [[g] for g in largest] + ([largest] if len(largest) == 2 and share == 0.18 else []):
            region = cv2.drawContours(np.zeros_like(marks), group, -1, 255, -1)
            found = cv2.findNonZero(cv2.bitwise_and(marks, region))
            if found is None or len(found) < 20:
                continue
            pts = found.reshape(-1, 2).astype(np.float32)
            _centre, (rw, rh), angle = cv2.minAreaRect(pts)
            if min(rw, rh) < 20:
                continue
            ids = [i for i in range(1, n) if small[i] and region[int(centres[i][1]), int(centres[i][0])]]
            ids = sorted(ids, key=lambda i: -int(stats[i, cv2.CC_STAT_AREA]))[:ROWS_MARKS]
            rows = _rows_tilt(centres[ids].astype(np.float32))
            tilts = [(float(angle), INK_TURNS)] + ([(rows, ROWS_TURNS)] if rows is not None else [])
            for tilt, turns in tilts:
                for box in _boxes_round(pts, tilt):
                    about = box.mean(axis=0)
                    out += _upright_all([_turned(box, deg, about) for deg in turns])
    return [out[i] for i in _distinct(out)]


def _edge_map(grey: np.ndarray, grow: int, faint: bool = False) -> np.ndarray:
    """The photo's edges (Canny on ``grey`` softened a little), grown by ``grow`` pixels: where a
    card's outline may be checked against the photo; ``faint``: fainter edges too (a white card
    on a white table)."""
    low, high = (5, 15) if faint else (30, 90)
    edges: np.ndarray = cv2.dilate(cv2.Canny(cv2.GaussianBlur(grey, (3, 3), 0), low, high), np.ones((grow, grow), np.uint8))
    return edges


#: where along a card's side its edge is checked: away from the rounded corners, as shares of it
ALONG_SIDE = np.linspace(0.12, 0.88, 24, dtype=np.float32)[:, None]


def _edge_support(edges: np.ndarray, quad: np.ndarray) -> float:
    """The share of points along the sides of ``quad`` (:data:`ALONG_SIDE`) that lie on an edge of
    ``edges``."""
    h, w = edges.shape[:2]
    t = ALONG_SIDE
    pts = np.concatenate([quad[i] + t * (quad[(i + 1) % 4] - quad[i]) for i in range(4)])
    xs = np.clip(pts[:, 0].round().astype(int), 0, w - 1)
    ys = np.clip(pts[:, 1].round().astype(int), 0, h - 1)
    return float((edges[ys, xs] > 0).mean())


def card_crop(image: np.ndarray, classifier: CardClassifier | None = None) -> np.ndarray:
    """The upright crop (long side vertical) of the card in an image of one card, for enrolment.
    With ``classifier``, the card :func:`read_card` finds (the outline classify reads it by) when
    it reads a card or back there surely, or lying on a ground unlike its paper
    (:func:`_on_ground`): a 4:3 phone photo of a card on a table is as card-shaped as a crop of
    the card, and a picture printed inside a card the model does not know (a Decktet card's),
    read unsurely, has the card's paper round it. Otherwise by shape alone
    (the deck is not known yet): a card-shaped image is taken as the card itself (an outline
    inside it may be a picture printed on the card); any other image gives the card outline found
    in it that the image's edges support best, or else the whole image."""
    if classifier is not None:
        found = read_card(image, classifier)
        if found.card != UNKNOWN and (found.confidence > DOUBT or _on_ground(image, found.corners)):
            return warp(image, found.corners)
    h, w = image.shape[:2]
    upright = image if h >= w else np.ascontiguousarray(np.rot90(image))
    if card_shaped_photo(*upright.shape[:2]):
        return upright
    quads = card_outlines(image)
    return warp(image, quads[0]) if quads else upright


#: a card outline lies on a ground other than its paper when the image's border is this much
#: less pale (:func:`_pale`) than the card's margin just inside the outline
GROUND_DARKER = 0.15


def _on_ground(image: np.ndarray, quad: np.ndarray) -> bool:
    """Whether ``quad`` outlines a card lying on a table rather than a picture printed on a card
    that fills ``image``: the image's border (the table) is less pale than the outline's margin
    (the card's paper) by :data:`GROUND_DARKER`."""
    pale = _pale(image)
    margin = _ring(warp(pale, quad), 0.06, 1)  # the card upright: its outer band is its margin
    return float(np.median(margin)) - float(np.median(_ring(pale, 0.04, 2))) >= GROUND_DARKER


def _ring(a: np.ndarray, share: float, least: int) -> np.ndarray:
    """The values of ``a``'s outer band, ``share`` of its shorter side wide (``least`` at least)."""
    b = max(least, round(share * min(a.shape[:2])))
    return np.concatenate([a[:b].ravel(), a[-b:].ravel(), a[:, :b].ravel(), a[:, -b:].ravel()])


def _read_doubting(classifier: CardClassifier, image: Pyramid, quads: Sequence[np.ndarray], colourless: bool,
                   moved: bool = True) -> list[tuple[Prediction, bool, Prediction | None]]:
    """The readings of ``quads`` cut from ``image``, each held below sure (:func:`vision.doubt.doubted`) unless its corner
    index reads the same card (a card read whole whose corner shows no index is as doubtful as
    one whose index reads another card), or when the photo is ``colourless`` and it is a suited
    card; whether its corner shows the index of the card read (always False without an index
    network); and the index's own reading (None without an index network). ``moved``: see
    :func:`_read_quads`; each outline's first look (``moved=False``) is kept by the image and
    not made again."""
    if not quads:
        return []
    crops = [image.warp(q) for q in quads]
    if _index_reader(classifier) is None:
        return [(doubted(p, colourless=colourless), False, None) for p in classifier.classify(crops)]
    out: list[tuple[Prediction, bool, Prediction | None]] = []
    looks = image.looks.at([np.asarray(q, np.float32).tobytes() for q in quads])
    for p, index in _read_quads(classifier, crops, ranks_only=colourless, moved=moved, looks=looks):
        p = _index_over_blank(p, index)
        out.append((doubted(p, index, colourless=colourless, index_needed=True),
                    _index_agrees(p, index, ranks_only=colourless), index))
    return out


def _index_over_blank(p: Prediction, index: Prediction | None) -> Prediction:
    """:func:`~vision.doubt.index_over_blank`, and a back whose corner is not a back's held: in a
    photo, an outline read as a back whose corner is not is a picture printed on a card (a
    court's frame) as often as a back."""
    if index is None:
        return p
    over = index_over_blank(p, index)
    return held(p) if over is p and p.label == "back" and index.label != "back" else over


def _index_agrees(p: Prediction, index: Prediction | None, *, ranks_only: bool = False) -> bool:
    """Whether a whole outline's corner shows a card index and the whole card reads that card
    (``ranks_only``: a suited card of that rank): the photo's own frame over a table whose grain
    looks like an index now and then is no card round the card it holds."""
    if not shows_index(index) or index is None:
        return False
    if ranks_only and suited(p.label) and suited(index.label):
        return p.label[:-1] == index.label[:-1]
    return p.label == index.label


def read_card(image: np.ndarray, classifier: CardClassifier) -> Detection:
    """The card in an image of one card: an upright card crop as the table pipeline makes, or a
    loose crop or photo with background around a card at any angle.

    A large photo is first shrunk (:func:`vision.locate.downscaled`). The image is read as it is
    (long side vertical: a card that fills it) and through every card outline
    :func:`card_outlines` finds, an outline shorter than a card both ways round (a card seen at
    a slant). Of two outlines one inside the other, the one whose corner shows a card index stands
    (:func:`vision.locate.nested_losers`: a court's printed frame is not the card, nor the table
    round a card); the surest reading left at 0.5 or more wins, an outline whose index shows the
    card counting a little surer. Failing that, or if it reads under :data:`WEAK`, GrabCut's
    outline, outlines guessed from the card's printed marks (:func:`ink_outlines`; also tried when
    the best reading is unsure and its corner shows no index of it) and the cards
    :func:`recognize` finds are read too; a reading from the marks is never sure unless its
    outline, moved onto the card's own edges (:func:`_snapped`), reads it so. A card under
    :data:`SMALLEST_SURE` pixels high is never sure. When nothing reads a card alone, the face the
    outlines read most stands, unsurely (:func:`_most_read`: a card filling the photo, its
    corners cut off). ``corners`` are in ``image``'s pixels (its own corners when the image was
    read as it is)."""
    h, w = image.shape[:2]
    if image.ndim != 3 or image.shape[2] != 3 or min(h, w) < 8:
        raise ValueError(f"read_card wants a BGR image of at least 8x8 pixels, got shape {image.shape}")
    alone = _model_alone(classifier)
    if alone is None:
        return _one_card(image, classifier, others=True)
    # as recognize does with an enrolled deck of cards the model does not know; one of the deck's
    # cards read surely needs no search for a French card (a long one in a photo showing none)
    taught = _one_card(image, classifier, others=True)
    if taught.card not in alone.labels and taught.confidence > DOUBT:
        return taught
    known = _one_card(image, alone, others=True)
    return taught if taught.card not in alone.labels and taught.confidence > known.confidence else known


@dataclass(frozen=True)
class Shrunk:
    """A photo shrunk by :func:`vision.locate.downscaled`: the copy, the factor, whether the
    copy shows no colour (:data:`vision.doubt.COLOURLESS`), and, if recognize worked them out
    already, the copy's :func:`_masks` and the index finder's marks on it (:func:`_marks`)."""
    image: np.ndarray
    scale: float
    colourless: bool
    masks: list[np.ndarray] | None = None
    marks: list[IndexMark] | None = None


def _one_card(image: np.ndarray, classifier: CardClassifier, *, others: bool, shrunk: Shrunk | None = None,
              restretch: bool = True) -> Detection:
    """:func:`read_card`; ``others``: failing all else, the cards :func:`recognize` finds are read
    too (False when recognize itself asks); ``shrunk``: ``image`` shrunk already, taken if by the
    factor this shrinks it (:data:`vision.locate.PHOTO_LONG_SIDE` long); ``restretch``: if no
    face is read, the photo is read stretched back too (:func:`_restretched`)."""
    # a soft large photo too: read smaller, soft photos were read no better (HISTORY, session 36)
    if shrunk is None or shrunk.scale != min(1.0, shrunk_size(image.shape, PHOTO_LONG_SIDE)[1]):
        small, scale = downscaled(image)
        # read with the light's cast taken out (a NoIR camera's pink, a lamp's orange), but
        # whether it shows colour asked of the photo as taken
        strength, gains = colour_and_cast(small)
        colourless = strength < COLOURLESS
        shrunk = Shrunk(_quieted(balanced(small, gains, colourless)), scale, colourless)
    scale = shrunk.scale
    d = _small_held(_read_card(shrunk, classifier, others))
    if restretch and d.card in (UNKNOWN, *BLANKS) and d.confidence <= DOUBT:
        d = _restretched(shrunk, classifier) or d
    if scale == 1.0:
        return d
    return Detection(d.card, d.confidence, d.corners / scale)


#: a photo may come stretched out of its aspect: a 4:3 photo saved square (one side 4/3 too long),
#: or saved square and put back the wrong way round (16/9); (x, y) factors that undo each
STRETCHES = ((4 / 3, 1.0), (16 / 9, 1.0), (1.0, 4 / 3), (1.0, 16 / 9))


def _restretched(shrunk: Shrunk, classifier: CardClassifier) -> Detection | None:
    """When a photo of one card reads no face: the face its copies stretched back
    (:data:`STRETCHES`) read most, as :func:`_most_read` weighs them (a card stretched out of
    shape has no card-shaped outline, and its guessed outlines miss its corners), never sure
    (its outline is a guess in a photo whose shape is in doubt); None if no face stands out.
    ``corners`` in ``shrunk``'s pixels. Not tried where the index finder marks nothing: no
    index shows that stretching could make readable (a photo of the table alone)."""
    marks = shrunk.marks if shrunk.marks is not None else _marks(classifier, shrunk.image)
    if not marks and _finder(classifier) is not None:
        return None
    reads: list[tuple[Prediction, np.ndarray]] = []
    for fx, fy in STRETCHES:
        img = cv2.resize(shrunk.image, None, fx=fx, fy=fy, interpolation=cv2.INTER_LINEAR)
        d = _small_held(_read_card(Shrunk(img, 1.0, shrunk.colourless), classifier, False))
        reads.append((Prediction(d.card, d.confidence), d.corners / np.array([fx, fy], np.float32)))
    return _most_read(reads, most=DOUBT)


#: in a photo of one card, a back is sure only if its corner reads as a back at least this surely
#: and its outline covers at least :data:`BACK_SHARE` of the photo: the printed frame of a court's
#: picture reads as a back (its corner a back at 0.75), and so does a box in the court's art
BACK_INDEX, BACK_SHARE = 0.9, 0.05
#: the photo's own frame is a back surely only read so this surely: a back filling a photo is
#: its pattern alone (48 held-out backs so, each 0.997 or more or held), and a grey photo of a
#: striped or checked cloth round a few small cards reads as one at 0.92
FRAME_BACK = 0.97


def _back_shown(quad: np.ndarray, index: Prediction | None, area: float, share: float = BACK_SHARE) -> bool:
    """Whether an outline read as a back may be one surely: its corner reads as a back
    (:data:`BACK_INDEX`; or no index network reads corners) and it covers ``share`` of the
    photo's ``area`` or more."""
    return (index is None or (index.label == "back" and index.confidence >= BACK_INDEX)) \
        and float(cv2.contourArea(quad)) >= share * area


def _back_unsure(quad: np.ndarray, index: Prediction | None, h: int, w: int, *, share: float) -> bool:
    """Whether an outline read as a back in an ``h`` x ``w`` photo is not surely one: the photo
    cuts it off (a patch of pattern may be anything), or it is not shown as a back (a court's
    picture in its printed frame; see :func:`_back_shown`)."""
    return _on_border(quad, h, w) or not _back_shown(quad, index, h * w, share)


def _back_judged(p: Prediction, quad: np.ndarray, index: Prediction | None, h: int, w: int) -> Prediction:
    """``p``, an outline's reading in an ``h`` x ``w`` photo of one card, held below sure if it is a
    back not surely one (:func:`_back_unsure`): a patch of pattern the photo cuts off, a court's
    framed picture."""
    return held(p) if p.label == "back" and _back_unsure(quad, index, h, w, share=BACK_SHARE) else p


#: the long side of a photo one card fills is this many times its short side (a card's is 1.40)
CARD_PHOTO_ASPECT = (1.25, 1.6)


def card_shaped_photo(h: int, w: int) -> bool:
    """Whether an ``h`` x ``w`` photo is shaped as a card (either way round, within
    :data:`CARD_PHOTO_ASPECT`): a card may fill it."""
    low, high = CARD_PHOTO_ASPECT
    return low <= max(h, w) / max(1, min(h, w)) <= high


def _on_edge(quad: np.ndarray, h: int, w: int, share: float = 0.015) -> np.ndarray:
    """Which corners of ``quad`` lie on the photo's edge (within ``share`` of its size)."""
    x, y = quad[:, 0], quad[:, 1]
    near: np.ndarray = (x <= share * w) | (x >= (1 - share) * w) | (y <= share * h) | (y >= (1 - share) * h)
    return near


def _on_border(quad: np.ndarray, h: int, w: int) -> bool:
    """Whether two or more corners of ``quad`` lie on the photo's edge (:func:`_on_edge`): an
    outline the photo cuts off."""
    return int(_on_edge(quad, h, w).sum()) >= 2


def _confirmed(d: Detection, classifier: CardClassifier, image: Pyramid, colourless: bool) -> Detection:
    """``d``, a card :func:`recognize` found where no outline of a one-card photo read, held below
    sure unless its whole crop reads the same card as its corner index (a hypothesis read from
    its index alone can be a 5 read as a 4), and held if it is a back (a dark pip of a red card
    in a grey photo reads as one)."""
    p, _agrees, _index = _read_doubting(classifier, image, [d.corners], colourless)[0]
    if d.card == "back" or p.label != d.card or p.confidence <= DOUBT:
        return Detection(d.card, min(d.confidence, DOUBT), d.corners)
    return d


#: an outline whose sides' ratio (long over short) is below a card's own is foreshortened along
#: its long sides: seen at a strong slant they may even look the shorter (a card lying across the
#: view, taken low), so which sides are its top is not known
SQUARISH = ASPECT


def _quarter_turns(quad: np.ndarray, *, either: bool = False) -> list[np.ndarray]:
    """``quad`` turned a quarter (its next side taken as the top; with ``either``, its previous
    side too) if it is shorter than a card (:data:`SQUARISH`), else nothing: which of its sides
    is the card's top is not plain."""
    if sides_ratio(quad) >= SQUARISH:
        return []
    return [np.roll(quad, -1, axis=0)] + ([np.roll(quad, 1, axis=0)] if either else [])


def _way_rank(read: tuple[Prediction, bool, Prediction | None]) -> tuple[bool, bool, float]:
    """Which of two ways of reading one outline to keep: the one whose corner shows the card
    read, then one that reads a card, then the surer."""
    p, shows, _index = read
    return shows, p.label != UNKNOWN, p.confidence


def _keep_better(classifier: CardClassifier, image: Pyramid, quads: list[np.ndarray],
                 reads: list[tuple[Prediction, bool, Prediction | None]], colourless: bool,
                 others: dict[int, list[np.ndarray]], *, shown_only: bool = False, faces_only: bool = False,
                 moved: bool = True) -> list[tuple[int, np.ndarray, tuple[Prediction, bool, Prediction | None]]]:
    """Reads the other outlines ``others[i]`` tried for outline ``i`` (all in one batch) and puts
    the best (:func:`_way_rank`) in place of ``quads[i]`` and ``reads[i]`` if it ranks higher;
    with ``shown_only`` only an outline whose corner shows the card it reads is taken, with
    ``faces_only`` only one that reads a face. Returns
    each outline read and its reading, with the ``i`` it was tried for."""
    flat = [(i, q) for i, qs in others.items() for q in qs]
    if not flat:
        return []
    read = _read_doubting(classifier, image, [q for _i, q in flat], colourless, moved)
    for (i, q), r in zip(flat, read, strict=True):
        if (shown_only and not r[1]) or (faces_only and r[0].label in (UNKNOWN, *BLANKS)):
            continue
        if (shown_only and not reads[i][1]) or _way_rank(r) > _way_rank(reads[i]):
            quads[i], reads[i] = q, r
    return [(i, q, r) for (i, q), r in zip(flat, read, strict=True)]


def _turn_squarish(classifier: CardClassifier, image: Pyramid, quads: list[np.ndarray],
                   reads: list[tuple[Prediction, bool, Prediction | None]], colourless: bool,
                   moved: bool = True) -> None:
    """Reads each outline after the first (the photo's own frame) that is shorter than a card
    (:data:`SQUARISH`) turned a quarter either way as well, and keeps in ``quads`` and ``reads``
    the way whose corner shows the card read, or else the surer card. Both quarters: the two
    index corners of one card may read two cards unsurely (6H_10 seen squashed: an 8H at 0.67
    at one, a 6H at 0.69 at the other), and only the corner that agrees with the whole card
    lets it stand. A way is taken only if it reads a face: a back, or no card, reads so either
    way round (QH_2 turned 37 degrees: an outline read the QH unsurely one way, a back at 0.8
    the other)."""
    # an outline read surely as a face its corner shows is the right way round already (a card
    # seen square on is as long as a card: half of such outlines come out a little shorter)
    settled = {i for i, (p, shows, _index) in enumerate(reads) if shows and p.confidence > DOUBT}
    _keep_better(classifier, image, quads, reads, colourless,
                 {i: turned for i in range(1, len(quads))
                  if i not in settled and (turned := _quarter_turns(quads[i], either=True))},
                 faces_only=True, moved=moved)


#: a court's printed frame is this much smaller than its card, across and down (about)
FRAME_GROWTH = (1.1, 1.2, 1.3)


def _grown(quad: np.ndarray) -> list[np.ndarray]:
    """``quad`` grown about its centre by each :data:`FRAME_GROWTH` across and down: the card
    round it, were it a court's printed frame."""
    middle = quad.mean(axis=0)
    return [(middle + (quad - middle) * np.array([sx, sy], np.float32)).astype(np.float32)
            for sx in FRAME_GROWTH for sy in FRAME_GROWTH]


def _framed_back(classifier: CardClassifier, image: Pyramid, quad: np.ndarray) -> bool:
    """Whether an outline read as a back may be a court's printed frame: grown as its card would
    be round it (:func:`_grown`), a corner shows a face's index (:func:`~vision.doubt.shows_index`). False
    without an index network."""
    reader = _index_reader(classifier)
    if reader is None:
        return False
    grown = _grown(quad)
    return any(shows_index(r) for r in _read_warped(reader, image, grown)) or _faint_index(reader, image, grown)


def _faint_index(reader: IndexReader, image: Pyramid, quads: list[np.ndarray]) -> bool:
    """Whether a corner of one of ``quads``, its contrast stretched (:func:`stretched`), shows a
    face's index: an index in shadow reads as none at its own contrast (JH_7 half in shadow: its
    court's frame read as a back at 0.99, the index round its corner as no card)."""
    return any(shows_index(r) for r in reader.read_corner_patches(stretched(image.corners(quads, reader.index_shape))))


def _grow_frames(classifier: CardClassifier, image: Pyramid, quads: list[np.ndarray],
                 reads: list[tuple[Prediction, bool, Prediction | None]], colourless: bool,
                 moved: bool = True) -> tuple[set[int], list[tuple[Prediction, np.ndarray]]]:
    """Each outline after the first read as a back may be a court's printed frame: it is read
    grown about its centre by :data:`FRAME_GROWTH` across and down, and replaced in ``quads`` and
    ``reads`` by the grown outline whose corner shows the card it reads, if any (the surest).
    Returns the outlines still read as backs whose grown corner shows a face's index
    (:func:`~vision.doubt.shows_index`): the card's index lies round the frame's corner; and the
    index readings of their grown outlines, each with its outline (for :func:`_framed_face`)."""
    frames = {i: _grown(quads[i]) for i in range(1, len(quads)) if reads[i][0].label == "back"}
    tried = _keep_better(classifier, image, quads, reads, colourless, frames, shown_only=True, moved=moved)
    framed = {i for i, _q, (_p, _shows, index) in tried if shows_index(index) and reads[i][0].label == "back"}
    reader = _index_reader(classifier)  # asked once, not for every frame
    framed |= {i for i, grown in frames.items() if i not in framed and reads[i][0].label == "back"
               and reader is not None and _faint_index(reader, image, grown)}
    return framed, [(index, q) for i, q, (_p, _shows, index) in tried if i in framed and index is not None]


#: a court's frame read as a back gives way to the face its grown corners read most
#: (:func:`_most_read`) only where at least this many of them read that face
FRAMED_READS = 2


def _framed_face(best: Detection, grown: Sequence[tuple[Prediction, np.ndarray]]) -> Detection:
    """``best``, a one-card photo's answer, or, if it is a back held unsure and the corners of
    the frames grown round it (``grown``, :func:`_grow_frames`) read one face most
    (:func:`_most_read`, :data:`FRAMED_READS` times), that face: a court whose corners the
    photo cuts off (a card close up and turned) shows its picture's frame as the strongest
    outline, and the card network reads a court's picture alone as a back, grown or not."""
    if best.card != "back" or best.confidence > DOUBT:
        return best
    face = _most_read(grown, times=FRAMED_READS)
    return best if face is None else face


#: a photo of one card whose best outline reads under this is searched further, as if none read
#: (and one of :data:`vision.doubt.BLANKS` read unsurely)
WEAK = 0.6


def _surer(card: str, confidence: float, best: Detection | None) -> bool:
    """Whether a reading found searching further replaces ``best``: if surer, and not a back
    where a face was read (a face read weakly is likelier than a court's frame read as a back)."""
    return best is None or (confidence > best.confidence and not (card == "back" and best.card != "back"))


def _read_by_marks(classifier: CardClassifier, image: np.ndarray, grey: np.ndarray, pyramid: Pyramid,
                   colourless: bool, tally: list[tuple[Prediction, np.ndarray]] | None = None,
                   seen: list[IndexMark] | None = None) -> Detection | None:
    """The surest reading of an outline guessed from the card's printed marks
    (:func:`ink_outlines`, one shorter than a card both ways round) whose corner index shows the card
    read, held below sure (a guessed outline fits a card seen at a slant badly) unless the guess
    moved onto the card's edges (:func:`_snapped`) reads the same card with its corner showing
    it. Only outlines with an index corner near a mark of the index finder are read (if it marks
    anything), as only a corner showing the card lets a reading stand. ``grey``: ``image`` in grey;
    every outline's reading and the outline are added to ``tally`` if given; ``seen``: the
    finder's marks on ``image``, if found already."""
    ink = _ink(image)
    inked = ink_outlines(image, ink)
    inked += [t for q in inked for t in _quarter_turns(q)]
    paired = pair_outlines(image, ink)
    marks = _points(_marks(classifier, image) if seen is None else seen) if inked or paired else None
    inked = [q for q, near in zip(inked, _near_marks(inked, marks), strict=True) if near]
    reader = _index_reader(classifier)
    if paired and reader is not None:  # read whole only where an index shows
        near = _near_ways(paired, marks)
        inked += [q for q, r in zip(paired, _read_warped(reader, pyramid, paired, near=near), strict=True)
                  if r.label not in (UNKNOWN, "back") and r.confidence >= 0.5]
    # a first look at every outline, then those that may win read again moved (as read_card does)
    reads = _read_doubting(classifier, pyramid, inked, colourless, moved=False)
    top = max((_rank(p, shows) for p, shows, _i in reads if p.label != UNKNOWN), default=0.0)
    _read_again_moved(classifier, pyramid, inked, reads, top, colourless)
    if tally is not None:
        tally += [(p, q) for q, (p, _shows, _index) in zip(inked, reads, strict=True)]
    # without colour the suit is the grey suit network's to say (:func:`_greyed`): the rank will do
    shown = [(p, q) for q, (p, shows, index) in zip(inked, reads, strict=True)
        if p.confidence >= 0.5 and (shows or (colourless and suited(p.label) and index is not None
                                              and shows_index(index) and index.label[:-1] == p.label[:-1]))]
    if not shown:
        return None
    p, q = max(shown, key=lambda pq: pq[0].confidence)
    snapped = _snapped(q, grey)
    if snapped is not None and p.confidence > DOUBT:
        # the card's own edges run along the guess: read where they are, it stands as any outline
        (again, shows, _index), = _read_doubting(classifier, pyramid, [snapped], colourless)
        if shows and again.label == p.label:
            return Detection(again.label, again.confidence, snapped)
    return Detection(p.label, min(p.confidence, DOUBT), q)


#: a side of an outline guessed from marks is looked for this share of the card's width either
#: side of the guess, turned up to SNAP_TURN degrees either way
SNAP_REACH, SNAP_TURN = 0.12, 3.0
#: ... and taken for the card's edge where this share of the points along it (away from the
#: rounded corners) lies on an edge of the photo
SNAP_SHOWN = 0.8


def _snapped(quad: np.ndarray, grey: np.ndarray) -> np.ndarray | None:
    """``quad``, an outline guessed from a card's printed marks, moved onto the card's own edges
    (each side to the straight edge nearest it, :data:`SNAP_REACH`, :data:`SNAP_TURN`), if every
    side finds one along :data:`SNAP_SHOWN` of it; else None (edges too faint to place it)."""
    h, w = grey.shape[:2]
    edges = _edge_map(grey, 3, faint=True) > 0  # a side must find one along most of its length
    width = float(np.linalg.norm(quad[1] - quad[0]))
    t = ALONG_SIDE
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        mid, along = (a + b) / 2, b - a
        # the nearest line along an edge, not the strongest: a cloth's pattern may run near the card
        found: list[tuple[float, float, tuple[np.ndarray, np.ndarray]]] = []
        offs = np.arange(-SNAP_REACH * width, SNAP_REACH * width + 1e-3, 1.0, dtype=np.float32)
        for deg in np.arange(-SNAP_TURN, SNAP_TURN + 1e-3, 1.0):
            c, s = np.cos(np.radians(deg)), np.sin(np.radians(deg))
            turned = np.array([c * along[0] - s * along[1], s * along[0] + c * along[1]], np.float32)
            normal = np.array([-turned[1], turned[0]], np.float32) / max(float(np.linalg.norm(turned)), 1e-6)
            starts = mid - turned / 2 + offs[:, None] * normal  # every offset at once
            pts = np.rint(starts[:, None, :] + t[None] * turned).astype(int)  # (offsets, points, 2)
            xs, ys = pts[..., 0], pts[..., 1]
            inside = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
            scores = (edges[np.clip(ys, 0, h - 1), np.clip(xs, 0, w - 1)] & inside).sum(axis=1) / len(t)
            found += [(abs(float(offs[k])), -float(scores[k]), (starts[k], starts[k] + turned))
                      for k in np.flatnonzero(scores >= SNAP_SHOWN)]
        if not found:
            return None
        lines.append(min(found, key=lambda f: f[:2])[2])
    corners = [_line_meet(*lines[i - 1], *lines[i]) for i in range(4)]
    if any(c is None for c in corners):
        return None
    snapped = np.array(corners, np.float32)
    return snapped if card_shaped(snapped) else None


#: an outline read at first look at least ``MAY_WIN[0]`` and within ``MAY_WIN[1]`` of the best
#: may win once read moved, and is read so
MAY_WIN = (0.3, 0.2)


def _rank(p: Prediction, shows: bool) -> float:
    """A one-card photo's outline ranked: its confidence, 0.05 more if its corner shows the card."""
    return p.confidence + 0.05 * shows


def _read_again_moved(classifier: CardClassifier, pyramid: Pyramid, quads: list[np.ndarray],
                      reads: list[tuple[Prediction, bool, Prediction | None]], top: float, colourless: bool) -> None:
    """Reads again moved, in place, the first-look ``reads`` of ``quads`` that may win so
    (:data:`MAY_WIN`), ``top`` being the best one's rank (:func:`_rank`)."""
    near = [i for i, (p, shows, _index) in enumerate(reads)
            if p.label != UNKNOWN and p.confidence >= MAY_WIN[0] and _rank(p, shows) >= top - MAY_WIN[1]]
    for i, r in zip(near, _read_doubting(classifier, pyramid, [quads[i] for i in near], colourless), strict=True):
        reads[i] = r


def _best_outline(quads: list[np.ndarray], reads: list[tuple[Prediction, bool, Prediction | None]],
                  h: int, w: int, lies_on: Callable[[np.ndarray, np.ndarray], bool],
                  framed: set[int] | frozenset[int] = frozenset()) -> tuple[Detection | None, float, bool]:
    """Of a one-card photo's outlines (the first its own frame), the one read surest (0.5 or
    more, a corner showing the card counting 0.05 more) that is not another's print or the table
    round it (:func:`vision.locate.nested_losers`), a back held if unsure, inside an outline not
    surely a back, or ``framed`` (:func:`_grow_frames`: a court's frame whose card's index shows
    round it); its rank key, and whether its corner shows the card."""
    losers = nested_losers(quads, [shows for _p, shows, _index in reads], lies_on)
    # the photo's own frame is no outline the photo could cut off, but a back there too needs its
    # corner to read a back surely (a court's picture filling the photo reads as one)
    frame, _shows, frame_index = reads[0]
    # ... and the photo a card's shape: a photo one back fills is shaped as the back (a patterned
    # table round a card, filling a squarer photo, reads as a back in its corners)
    judged = [held(frame) if frame.label == "back" and not (_back_shown(quads[0], frame_index, h * w)
                                                            and card_shaped_photo(h, w)
                                                            and frame.confidence >= FRAME_BACK) else frame]
    judged += [_back_judged(p, q, index, h, w) for q, (p, _shows, index) in zip(quads[1:], reads[1:], strict=True)]
    sure_back = [p.label == "back" and p.confidence > DOUBT for p in judged]
    best: Detection | None = None
    best_key, best_shows = 0.0, False
    for i, (q, (_p, shows, _index)) in enumerate(zip(quads, reads, strict=True)):
        p = judged[i]
        if sure_back[i] and (i in framed or any(not sure_back[j] and inside(q, quads[j])
                                                for j in range(1, len(quads)) if j != i)):
            # a court's framed picture in its card: inside an outline not surely a back, or its
            # card's index read round it
            p = held(p)
        key = _rank(p, shows)
        if i not in losers and p.label != UNKNOWN and p.confidence >= 0.5 and key > best_key:
            best, best_key, best_shows = Detection(p.label, p.confidence, q), key, shows
    return best, best_key, best_shows


def _read_card(shrunk: Shrunk, classifier: CardClassifier, others: bool) -> Detection:
    image, colourless = shrunk.image, shrunk.colourless
    h, w = image.shape[:2]
    whole = frame_quad(h, w)
    squashed: list[np.ndarray] = []
    outlines = card_outlines(image, grabcut=False, squashed=squashed, masks=shrunk.masks)
    # GrabCut's outline when nothing else outlines the card (then not run a second time below)
    grabbed = not outlines
    # last, the outlines of a card that looks square (a squashed photo): read both ways round
    quads = [whole] + (outlines or card_outlines(image, grabcut=True)) + squashed
    pyramid = Pyramid(lit(image))  # the outlines' crops share one shrinking of a large photo
    # a first look at every outline (none read again moved), then the outlines that may win read
    # again moved: an unsure reading steadied costs eight more readings, most of a photo's time
    reads = _read_doubting(classifier, pyramid, quads, colourless, moved=False)
    _turn_squarish(classifier, pyramid, quads, reads, colourless, moved=False)
    framed, grown = _grow_frames(classifier, pyramid, quads, reads, colourless, moved=False)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    lies_on = _on_darker(grey)
    _first, best_key, _shows = _best_outline(quads, reads, h, w, lies_on, framed)
    _read_again_moved(classifier, pyramid, quads, reads, best_key, colourless)
    best, best_key, best_shows = _best_outline(quads, reads, h, w, lies_on, framed)
    # an outline read as a back while the card round it went unfound (a court's picture, a large
    # pip, the card cut by the photo's frame): an index showing beside it makes the back unsure,
    # so the card is looked for further below, and gives the card if nothing else does
    seen = shrunk.marks  # the index finder's marks on ``image``, once found (the finder runs once)
    beside: Detection | None = None
    if best is not None and best.card == "back":
        seen = _marks(classifier, image) if seen is None else seen
        if (beside := _face_beside(classifier, image, best.corners, seen)) is not None:
            best = Detection(best.card, min(best.confidence, DOUBT), best.corners)
    marked: Detection | None = None  # the marks' reading (_read_by_marks), once asked for
    marks_read = False
    tally: list[tuple[Prediction, np.ndarray]] = []  # the readings of guessed outlines, for a last guess
    if best is not None and best.card not in BLANKS and not best_shows and best.confidence <= DOUBT:
        # a face read unsurely by an outline whose corner shows no index of it: the outline may
        # be the card's wrong part; a guess from the marks whose index shows its card is surer
        marked, marks_read = _read_by_marks(classifier, image, grey, pyramid, colourless, tally, seen), True
        if marked is not None and marked.card != best.card:
            best = marked
    if best is None or best.confidence < WEAK or (best.card in BLANKS and best.confidence <= DOUBT):
        # no outline read as a card (or only weakly, or only unsurely as a back or joker): the outlines
        # may have taken in a shadow or a pattern of the table; look harder, with GrabCut
        # (unless it made the outlines) and, unless GrabCut's outline reads a card surely, with
        # the hypotheses of recognize()
        more = [] if grabbed else [q for q in card_outlines(image, grabcut=True) if _unlike(q, quads)]
        for q, (p, _shows, index) in zip(more, _read_doubting(classifier, pyramid, more, colourless),
                                 strict=True):
            tally.append((p, q))
            p = _back_judged(p, q, index, h, w)
            if p.label != UNKNOWN and p.confidence >= 0.5 and _surer(p.label, p.confidence, best):
                best = Detection(p.label, p.confidence, q)
        # the card may show no edge (white on white, a sleeve's glare): guess its outline from
        # its printed marks, taken only where its corner index shows the card read
        # (a face whose index shows it outranks a back or joker not surely one)
        if best is None or best.confidence < WEAK or best.card in BLANKS:
            if not marks_read:
                marked = _read_by_marks(classifier, image, grey, pyramid, colourless, tally, seen)
            if marked is not None and (best is None or best.card in BLANKS or _surer(marked.card, marked.confidence, best)):
                best = marked
        if beside is not None and (best is None or best.card == "back"):
            best = beside
        if others and (best is None or best.confidence <= DOUBT):
            # recognize's own one-card search of this image would be the one made here: it is
            # handed this search's answer instead of searching again (a second of a slow photo)
            answer = _answer(best, tally, quads, reads, classifier, pyramid, colourless, whole, grown)
            found = _found(image, classifier, restretch=False, colourless=colourless, lone=_small_held(answer))
            if not found or not _surer(found[0].card, found[0].confidence, best):
                return answer
            best = _confirmed(found[0], classifier, pyramid, colourless)
    return _answer(best, tally, quads, reads, classifier, pyramid, colourless, whole, grown)


#: a face's index beside an outline read as a back (:func:`_face_beside`) is one both mark
#: readers read as the same face at this or more
BESIDE_READ = 0.5


def _face_beside(classifier: CardClassifier, image: np.ndarray, quad: np.ndarray,
                 marks: Sequence[IndexMark]) -> Detection | None:
    """The face whose index the finder marks off the outline ``quad`` in ``image``, read as that
    face by the mark reader and the wide mark reader both at :data:`BESIDE_READ` or more (the
    surest such mark; at the lesser of the two readings, held below sure: only an index shows
    it; its corners the mark's box), if any. A court's framed picture or a large pip outlined
    alone reads as a back when the card's own edge is lost on a pale table or cut by the photo's
    frame (QC_3 under warm light and noise: its picture a back at 0.997, its corner QC at 0.71
    and 0.68). ``marks``: the index finder's marks on ``image``."""
    reader, wide = mark_reader_for(classifier), wide_mark_reader_for(classifier)
    if reader is None or wide is None:
        return None
    off = [m for m in marks if not _on_card(quad, m)]
    if not off:
        return None
    best: Detection | None = None
    for m, p, q in zip(off, reader.probabilities(image, off), wide.probabilities(image, off), strict=True):
        k = int(np.argmax(p))
        both = float(min(p[k], q[k]))
        if LABELS[k] not in (UNKNOWN, *BLANKS) and int(np.argmax(q)) == k and both >= BESIDE_READ \
                and (best is None or both > best.confidence):
            best = Detection(LABELS[k], min(both, DOUBT), m.box())
    return best


def _gainsaid(d: Detection, reads: Sequence[tuple[Prediction, bool, Prediction | None]]) -> Detection:
    """``d``, a one-card photo's answer, held below sure if one of the photo's outlines (read as
    ``reads``) read another face at :data:`DOUBT` (sure, or held only by a doubt): a shaken 6
    whose corner reads as an 8 is placed as an 8 from its corner's marks, while its own outline
    reads the 6."""
    if d.confidence > DOUBT and any(p.label != d.card and p.label not in (UNKNOWN, *BLANKS) and p.confidence >= DOUBT
                                    for p, _shows, _index in reads):
        return Detection(d.card, DOUBT, d.corners)
    return d


def _answer(best: Detection | None, tally: list[tuple[Prediction, np.ndarray]], quads: list[np.ndarray],
            reads: list[tuple[Prediction, bool, Prediction | None]], classifier: CardClassifier,
            pyramid: Pyramid, colourless: bool, whole: np.ndarray,
            grown: Sequence[tuple[Prediction, np.ndarray]]) -> Detection:
    """The one-card search's answer from its ``best`` reading: its suit checked by the signs'
    shapes; an unsure back the face its frames' ``grown`` corners read most
    (:func:`_framed_face`); with none, the face its outlines (``quads`` read as ``reads``, and the
    guessed ones of ``tally``) read most; failing that the photo's own reading, "no card" held
    unsure."""
    if best is not None:
        best = _framed_face(best, grown)
    if best is None:
        # a photo meant to show one card: the face most of its outlines read, if one stands out
        best = _most_read(tally + [(p, q) for q, (p, _shows, _index) in zip(quads, reads, strict=True)])
    if best is not None:
        best = _gainsaid(best, reads)
        if not colourless:
            best = _black_suits_held(classifier, pyramid, [best])[0]
        best = (_greyed if colourless else _shapes_agree)(classifier, pyramid, [best], [True])[0]
        # an outline the search read is the card's; any other (an index's box beside a picture)
        # is a guess, its suit taken from its top only if its crop reads as its rank
        read = any(best.corners is q for q in quads) or any(best.corners is q for _p, q in tally)
        return _black_suits_answered(classifier, pyramid, [best], [read])[0]
    # "no card" is never sure in a photo meant to show one, as the card may be there unfound
    p = held(reads[0][0]) if reads[0][0].label == UNKNOWN else reads[0][0]
    return Detection(p.label, p.confidence, whole)


#: a last guess (:func:`_most_read`) counts the faces read at least ``MOST_READ[0]``, stands only
#: if its readings' confidences add up to ``MOST_READ[1]`` times the next face's or more, and is
#: given at most ``MOST_READ[2]``
MOST_READ = (0.5, 2.0, 0.5)


def _most_read(reads: Sequence[tuple[Prediction, np.ndarray]], most: float = MOST_READ[2],
               times: int = 1) -> Detection | None:
    """The face that the outlines of a one-card photo read most (their confidences at
    :data:`MOST_READ` or more added up), when no outline reads a card alone: the guessed
    outlines of a card that fills the photo (its corners cut off) read it more often than
    anything else. None unless it outweighs any other face :data:`MOST_READ` times over and was
    read so at least ``times`` times; never surer than ``most`` (:data:`MOST_READ`'s last unless
    given)."""
    least, over = MOST_READ[:2]
    weight: dict[str, float] = {}
    count: dict[str, int] = {}
    surest: dict[str, tuple[float, np.ndarray]] = {}
    for p, q in reads:
        if p.label in (UNKNOWN, *BLANKS) or p.confidence < least:
            continue
        weight[p.label] = weight.get(p.label, 0.0) + p.confidence
        count[p.label] = count.get(p.label, 0) + 1
        if p.confidence > surest.get(p.label, (0.0, q))[0]:
            surest[p.label] = (p.confidence, q)
    ranked = sorted(weight, key=lambda k: -weight[k])
    if not ranked or (len(ranked) > 1 and weight[ranked[0]] < over * weight[ranked[1]]) or count[ranked[0]] < times:
        return None
    conf, quad = surest[ranked[0]]
    return Detection(ranked[0], min(conf, most), quad)
