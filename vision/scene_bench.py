"""How many of the cards in real photos of several cards ``pegpi recognize`` finds and reads
right (``pegpi bench scenes``).

A folder of such photos comes with a ``labels.csv`` naming the cards in each: at least the
columns ``file`` and ``cards`` (the cards in pegpi's notation, separated by spaces, e.g.
``4S 6D``); optionally ``other_labels`` (other things in the photo a reading may name without
being wrong: ``BLACK JOKER``, ``RED JOKER``), ``n_backs`` (how many backs show) and
``capture_group`` (figures are given per group). The development photos' ``scenes/labels.csv``
has this form.

A listed card counts as found when ``recognize`` reports it (at its default 0.5 or more); a card
reported that is not listed (nor a back or joker the row allows), or reported more often than
listed, is a wrong reading, and a confident mistake when read at :data:`vision.api.CONFIDENT`
or more.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from vision.api import BACK, CONFIDENT, CardClassifier
from vision.errors import PhotoLabelError
from vision.photo_bench import label_of, read_each, table_rows, time_figures, timed

#: what ``other_labels`` may name, as the card labels a reading gives
_OTHERS = {"BLACK JOKER": "BJ", "RED JOKER": "RJ", "JOKER": "RJ BJ"}


@dataclass(frozen=True, slots=True)
class Scene:
    """One labelled photo: the cards listed in it, and what else a reading may name."""

    path: Path
    cards: tuple[str, ...]
    allowed: frozenset[str] = frozenset()
    group: str = "-"


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
        scenes.append(Scene(folder / name, tuple(cards), frozenset(allowed),
                            row.get("capture_group", "").strip() or "-"))
    return scenes


@dataclass(frozen=True, slots=True)
class SceneReading:
    scene: Scene
    #: every card ``recognize`` reported, with its confidence
    read: tuple[tuple[str, float], ...]
    ms: float
    cpu_ms: float

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
            "found_surely": sum(r.found_surely for r in self.readings),
            "wrong_readings": len(wrong),
            "confident_mistakes": sum(c >= CONFIDENT for _r, _card, c in wrong),
            "by_group": {g: _figures(rs) for g, rs in sorted(groups.items())},
            "photos_with_misses": [
                {"photo": str(r.scene.path), "cards": list(r.scene.cards), "missed": r.missed,
                 "wrong": [{"card": card, "confidence": round(c, 4)} for card, c in r.wrong]}
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
    (:mod:`vision.photo_changes`); neither timed."""
    from vision.recognize import recognize

    report = SceneReport(megapixels=megapixels, change=change)

    def one(i: int, image: np.ndarray) -> None:
        found, ms, cpu_ms = timed(lambda: recognize(image, classifier))
        report.readings.append(SceneReading(scenes[i], tuple((d.card, float(d.confidence)) for d in found), ms, cpu_ms))

    read_each(report, [scene.path for scene in scenes], one, megapixels=megapixels, change=change, progress=progress)
    return report
