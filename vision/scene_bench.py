"""How many of the cards in real photos of several cards ``pegpi recognize`` finds and reads
right (``pegpi bench scenes``).

A folder of such photos comes with a ``labels.csv`` naming the cards in each: at least the
columns ``file`` and ``cards`` (the cards in pegpi's notation, separated by spaces, e.g.
``4S 6D``); optionally ``other_labels`` (other things in the photo a reading may name without
being wrong: ``BLACK JOKER``, ``RED JOKER``), ``n_backs`` (how many backs show) and
``capture_group`` (figures are given per group) and ``boxes`` (the boxes round the printed
corner indices, as :mod:`vision.finder_bench` reads them). The development photos'
``scenes/labels.csv`` has this form.

A listed card counts as found when ``recognize`` reports it (at its default 0.5 or more); a card
reported that is not listed (nor a back or joker the row allows), or reported more often than
listed, is a wrong reading, and a confident mistake when read at :data:`vision.api.CONFIDENT`
or more.

Each missed card whose index is boxed is told why it was missed, in a photo read as taken
(:class:`Miss`): read as another card where it lies, its index not marked by the index finder,
or marked and read by the mark reader unsurely or as another card. That says which stage of
``recognize`` the card was lost at.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.api import BACK, CONFIDENT, CardClassifier
from vision.bench.scoring import interval
from vision.classify import LABELS
from vision.errors import PhotoLabelError
from vision.finder import finder_for, mark_reader_for
from vision.finder_bench import box_hits, parse_boxes
from vision.photo_bench import label_of, read_each, table_rows, time_figures, timed
from vision.recognize import MARK_READ, Detection, recognize

#: what ``other_labels`` may name, as the card labels a reading gives
_OTHERS = {"BLACK JOKER": "BJ", "RED JOKER": "RJ", "JOKER": "RJ BJ"}


@dataclass(frozen=True, slots=True)
class Scene:
    """One labelled photo: the cards listed in it, and what else a reading may name."""

    path: Path
    cards: tuple[str, ...]
    allowed: frozenset[str] = frozenset()
    group: str = "-"
    #: the boxes round its printed corner indices, ``(n, 4)``: x0, y0, x1, y1 in its pixels
    boxes: np.ndarray = field(default_factory=lambda: np.zeros((0, 4), np.float32))
    #: each box's card
    box_labels: tuple[str, ...] = ()


def read_labels(folder: Path) -> list[Scene]:
    """The photos ``folder/labels.csv`` lists, with their cards (see the module)."""
    index = folder / "labels.csv"
    if not index.is_file():
        raise PhotoLabelError(f"no labels.csv in {folder}: list each photo's cards in it "
                              "(columns file and cards, e.g. 'IMG_1.jpg,4S 6D')")
    scenes: list[Scene] = []
    for line, row in table_rows(index, ("file", "cards")):
        name = row.get("file", "").strip()
        cards = []
        for text in row.get("cards", "").split():
            card = label_of(text)
            if card is None or card == BACK:
                raise PhotoLabelError(f"{index}, line {line}: {text!r} is no card (write cards as QS, 10H, TH)")
            cards.append(card)
        if not name or not cards:
            raise PhotoLabelError(f"{index}, line {line}: a photo and at least one card are needed")
        allowed: set[str] = set()
        for other in row.get("other_labels", "").split(";"):
            allowed.update(_OTHERS.get(other.strip().upper(), "").split())
        if row.get("n_backs", "").strip() not in ("", "0"):
            allowed.add(BACK)
        boxes, box_labels = parse_boxes(row.get("boxes", ""), f"{index}, line {line}")
        scenes.append(Scene(folder / name, tuple(cards), frozenset(allowed),
                            row.get("capture_group", "").strip() or "-", boxes, box_labels))
    return scenes


#: why a listed card was missed (:class:`Miss`), in the order of recognize's stages
WHY = {
    "misread": "read as another card where its index lies",
    "unmarked": "its index not marked by the index finder",
    "marked_unsure": f"its index marked, read by the mark reader under {MARK_READ}",
    "marked_other": "its index marked, read as another card by the mark reader",
}


@dataclass(frozen=True, slots=True)
class Miss:
    """A listed card recognize did not report, and why (a key of :data:`WHY`), with what was
    read there: ``read`` the card (the reported one over its index, or the mark reader's
    likeliest at its index) and ``confidence`` that reading's, ``own`` the mark reader's
    probability of the listed card (0 where no mark was read)."""

    card: str
    why: str
    read: str = ""
    confidence: float = 0.0
    own: float = 0.0

    def said(self) -> str:
        """One line for the bench's listing."""
        if self.why == "misread":
            return f"{self.card} (read as {self.read} {self.confidence:.2f} where its index lies)"
        if self.why == "unmarked":
            return f"{self.card} (its index not marked by the finder)"
        return (f"{self.card} (its index marked; the mark reader reads {self.read} {self.confidence:.2f}"
                + ("" if self.read == self.card else f", {self.card} {self.own:.2f}") + ")")


#: a mark counts as on a boxed index when it lies within the box grown by this share of its size
BOX_REACH = 0.25


def why_missed(image: np.ndarray, classifier: CardClassifier, scene: Scene, found: Sequence[Detection],
               missed: Sequence[str]) -> tuple[Miss, ...]:
    """Why each of the ``missed`` cards of ``scene`` (recognize reported ``found`` in ``image``,
    the photo as labelled) was missed, for those whose index is boxed: a reading of a card not
    listed whose outline covers the middle of one of its boxes (the smallest such), else the
    index finder's marks on its boxes and the mark reader's reading of them (at the mark that
    reads the card likeliest). Cards without a box, or all of them without an index finder and
    mark reader beside the model, are left out."""
    finder, reader = finder_for(classifier), mark_reader_for(classifier)
    marks = None
    out: list[Miss] = []
    for card in missed:
        boxes = scene.boxes[[i for i, label in enumerate(scene.box_labels) if label == card]]
        if not len(boxes):
            continue
        middles = [((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b in boxes.tolist()]
        over = [d for d in found if d.card not in scene.cards and d.card not in scene.allowed
                and any(cv2.pointPolygonTest(d.corners.astype(np.float32), m, False) >= 0 for m in middles)]
        if over:
            d = min(over, key=lambda d: cv2.contourArea(d.corners.astype(np.float32)))
            out.append(Miss(card, "misread", d.card, float(d.confidence)))
            continue
        if finder is None or reader is None:
            continue
        marks = finder.find(image) if marks is None else marks
        size = boxes[:, 2:] - boxes[:, :2]
        _hit, inside = box_hits(marks, boxes + BOX_REACH * np.hstack([-size, size]))
        on = [m for m, hit in zip(marks, inside, strict=True) if hit]
        if not on:
            out.append(Miss(card, "unmarked"))
            continue
        probs = reader.probabilities(image, on)
        k = LABELS.index(card)
        j = int(np.argmax(probs[:, k]))
        top = int(np.argmax(probs[j]))
        out.append(Miss(card, "marked_unsure" if top == k else "marked_other", LABELS[top], float(probs[j, top]),
                        float(probs[j, k])))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class SceneReading:
    scene: Scene
    #: every card ``recognize`` reported, with its confidence
    read: tuple[tuple[str, float], ...]
    ms: float
    cpu_ms: float
    #: why listed cards were missed, where known (:func:`why_missed`)
    why: tuple[Miss, ...] = ()

    @property
    def found(self) -> Counter[str]:
        return Counter(self.scene.cards) & Counter(card for card, _c in self.read)

    @property
    def found_surely(self) -> int:
        """Listed cards read at :data:`CONFIDENT` or more (each listed card once)."""
        sure = Counter(card for card, c in self.read if c >= CONFIDENT)
        return sum((Counter(self.scene.cards) & sure).values())

    @property
    def missed(self) -> list[str]:
        return sorted((Counter(self.scene.cards) - self.found).elements())

    @property
    def wrong(self) -> list[tuple[str, float]]:
        """Readings of cards not listed (nor allowed), or of a listed card more often than listed:
        of each card's readings the surest are taken to be the right ones."""
        left = Counter(self.scene.cards)
        out = []
        for card, c in sorted(self.read, key=lambda r: -r[1]):
            if left[card] > 0:
                left[card] -= 1
            elif card not in self.scene.allowed:
                out.append((card, c))
        return out


@dataclass
class SceneReport:
    readings: list[SceneReading] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    peak_mb: float = 0.0
    #: the size each photo was resized to before it was read (None: as taken)
    megapixels: float | None = None
    #: the change made to each photo before it was read (:mod:`vision.photo_changes`; None: none)
    change: str | None = None

    def as_dict(self) -> dict[str, Any]:
        listed = sum(len(r.scene.cards) for r in self.readings)
        found = sum(sum(r.found.values()) for r in self.readings)
        wrong = [(r, card, c) for r in self.readings for card, c in r.wrong]
        groups: dict[str, list[SceneReading]] = {}
        for r in self.readings:
            groups.setdefault(r.scene.group, []).append(r)
        return {
            "mode": "scenes",
            "photos": len(self.readings),
            "cards_listed": listed,
            "found": found,
            "recall": round(found / listed, 5) if listed else None,
            "recall_interval": interval(found, listed),
            "found_surely": sum(r.found_surely for r in self.readings),
            "wrong_readings": len(wrong),
            "confident_mistakes": sum(c >= CONFIDENT for _r, _card, c in wrong),
            "by_group": {g: _figures(rs) for g, rs in sorted(groups.items())},
            "misses_by_why": {k: sum(m.why == k for r in self.readings for m in r.why) for k in WHY},
            "photos_with_misses": [
                {"photo": str(r.scene.path), "cards": list(r.scene.cards), "missed": r.missed,
                 "wrong": [{"card": card, "confidence": round(c, 4)} for card, c in r.wrong],
                 "why": [{"card": m.card, "why": m.why, "read": m.read, "confidence": round(m.confidence, 4),
                          "own": round(m.own, 4), "said": m.said()} for m in r.why]}
                for r in self.readings if r.missed or r.wrong],
            "skipped": [{"photo": p, "reason": why} for p, why in self.skipped],
            **time_figures([r.ms for r in self.readings], [r.cpu_ms for r in self.readings]),
            "peak_mb": round(self.peak_mb, 1),
            "megapixels": self.megapixels,
            "change": self.change,
        }


def _figures(readings: Sequence[SceneReading]) -> dict[str, int]:
    return {"photos": len(readings), "cards": sum(len(r.scene.cards) for r in readings),
            "found": sum(sum(r.found.values()) for r in readings),
            "confident_mistakes": sum(c >= CONFIDENT for r in readings for _card, c in r.wrong)}


def measure_scenes(scenes: Sequence[Scene], classifier: CardClassifier, *, megapixels: float | None = None,
                   change: str | None = None, progress: Callable[[int, int], None] | None = None) -> SceneReport:
    """Run ``recognize`` on each photo, one at a time, and compare with its listed cards;
    ``megapixels``: each photo first resized to that size; ``change``: then changed so
    (:mod:`vision.photo_changes`); neither timed. A photo read as taken has its misses
    explained (:func:`why_missed`, untimed): its boxes are in its own pixels."""
    report = SceneReport(megapixels=megapixels, change=change)

    def one(i: int, image: np.ndarray) -> None:
        found, ms, cpu_ms = timed(lambda: recognize(image, classifier))
        reading = SceneReading(scenes[i], tuple((d.card, float(d.confidence)) for d in found), ms, cpu_ms)
        if megapixels is None and change is None and reading.missed:
            reading = replace(reading, why=why_missed(image, classifier, scenes[i], found, reading.missed))
        report.readings.append(reading)

    read_each(report, [scene.path for scene in scenes], one, megapixels=megapixels, change=change, progress=progress)
    return report
