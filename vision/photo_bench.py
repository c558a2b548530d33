"""How well the card model reads photographs of real cards that someone has named
(``pegpi bench photos``).

Every figure the project's own bench prints comes from rendered cards. The target that matters
at a table is read on photographs of real decks. This module measures that target on any folder
of photos. Someone photographs their deck with a phone or the table's camera and names each
photo, or its folder, after the card it shows. The repository itself holds no such photos.

Naming, the card's notation as everywhere in pegpi (``QS``, ``10H``, ``TH``, ``RJ``), any case:

- ``photos/QS.jpg``, ``photos/QS_2.jpg``, ``photos/qs-3.png``, ``photos/10H 1.jpg``: the name, less a
  number after ``_``, ``-`` or a space;
- ``photos/QS/IMG_0412.jpg``: a folder named after the card holds its photos (any names);
- ``back`` for the back of a card, ``unknown`` (or ``none``) for a photo with no card in it;
- with enrolled decks, an enrolled card's name, e.g. ``photos/the Author/1.jpg``.

A folder that is not named after a card is searched for more photos. A photo that cannot be read
is skipped and reported with its reason; a name that is no card stops the measurement and names
the file, as nothing would be measured right otherwise.
"""

from __future__ import annotations

import csv
import re
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

import numpy as np

from vision.api import BACK, CONFIDENT, IMAGE_EXT, UNKNOWN, CardClassifier
from vision.bench.scoring import interval
from vision.classify import LABELS
from vision.doubt import court
from vision.errors import ImageFileError, PhotoLabelError
from vision.images import at_megapixels, read_image
from vision.photo_changes import change_named, changed

_NUMBERED = re.compile(r"^(.+?)(?:[ _-]+\d+)?$")
_NO_CARD = {"unknown", "none", "nocard", "no-card", "no card", "empty"}


def label_of(name: str, extra: Iterable[str] = ()) -> str | None:
    """The model label ``name`` stands for (``"qs"`` -> ``"QS"``, ``"th"`` -> ``"10H"``, ``"none"``
    -> ``"unknown"``), an enrolled card's name from ``extra`` as it is written there, or ``None``."""
    text = name.strip()
    low = text.lower()
    if low == BACK:
        return BACK
    if low in _NO_CARD:
        return UNKNOWN
    for enrolled in extra:
        if enrolled.lower() == low:
            return enrolled
    card = text.upper().replace(" ", "")
    if len(card) == 2 and card[0] == "T":  # TH is 10H, as pegpi's card notation allows
        card = "10" + card[1]
    return card if card in LABELS and card not in (BACK, UNKNOWN) else None


def _file_label(path: Path, extra: Sequence[str]) -> str | None:
    whole = label_of(path.stem, extra)
    if whole is not None:
        return whole
    m = _NUMBERED.match(path.stem)
    return label_of(m.group(1), extra) if m else None


def collect(paths: Sequence[Path], extra: Sequence[str] = ()) -> list[tuple[Path, str]]:
    """Every photo under ``paths`` with the label its name or its folder's gives (see the module)."""
    found: list[tuple[Path, str]] = []

    def under(folder: Path, label: str | None) -> None:
        for entry in sorted(folder.iterdir()):
            if entry.name.startswith("."):
                continue
            if entry.is_dir():
                under(entry, label if label is not None else label_of(entry.name, extra))
            elif entry.suffix.lower() in IMAGE_EXT:
                add(entry, label)

    def add(path: Path, label: str | None) -> None:
        label = label if label is not None else _file_label(path, extra)
        if label is None:
            raise PhotoLabelError(
                f"cannot tell which card {path} shows: name the photo or its folder after the card, "
                f"like QS.jpg, QS_2.jpg or QS/photo.jpg ('back' for a back, 'unknown' for no card)")
        found.append((path, label))

    for p in paths:
        if p.is_dir():
            under(p, label_of(p.name, extra))
        elif p.is_file():
            add(p, None)
        else:
            raise FileNotFoundError(f"no photo or folder at {p}")
    return found


def table_rows(table: Path, columns: Sequence[str]) -> list[tuple[int, dict[str, str]]]:
    """The rows of a photo folder's CSV ``table``, each with its line number (empty cells as
    ``""``); a :class:`PhotoLabelError` when it lacks one of ``columns``."""
    with table.open(newline="", encoding="utf-8") as f:
        rows = csv.DictReader(f)
        if not rows.fieldnames or not set(columns) <= set(rows.fieldnames):
            raise PhotoLabelError(f"{table}: wants the columns {' and '.join(columns)}, has {rows.fieldnames}")
        return [(line, {k: v or "" for k, v in row.items() if k is not None}) for line, row in enumerate(rows, start=2)]


def capture_groups(paths: Iterable[Path]) -> dict[str, str]:
    """The capture group of each photo (its path as text) that an ``index.csv`` beside it names
    (columns ``file`` and ``capture_group``, as the development photos have); others have none."""
    groups: dict[str, str] = {}
    for folder in sorted({p.parent for p in paths}):
        index = folder / "index.csv"
        if not index.is_file():
            continue
        with index.open(newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                name, group = row.get("file"), row.get("capture_group")
                if name and group:
                    groups[str(folder / name)] = group
    return groups


@dataclass(frozen=True, slots=True)
class PhotoReading:
    path: str
    truth: str
    card: str
    confidence: float
    ms: float
    group: str = "-"
    cpu_ms: float = 0.0
    #: the photo shows no colour (:func:`vision.doubt.colour_strength`): suits by shape alone
    colourless: bool = False

    @property
    def right(self) -> bool:
        return self.card == self.truth


@dataclass
class PhotoReport:
    """What the model read in each photo, and the photos it could not open."""

    mode: str
    readings: list[PhotoReading] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    #: the process's peak resident memory when the last photo was read, MB
    peak_mb: float = 0.0
    #: the size each photo was resized to before it was read (None: as taken)
    megapixels: float | None = None
    #: the change made to each photo before it was read (:mod:`vision.photo_changes`; None: none)
    change: str | None = None

    @property
    def mistakes(self) -> list[PhotoReading]:
        return [r for r in self.readings if not r.right]

    def as_dict(self) -> dict[str, Any]:
        n = len(self.readings)
        wrong = self.mistakes
        confident = [r for r in wrong if r.confidence >= CONFIDENT]
        kinds: dict[str, list[PhotoReading]] = {}
        groups: dict[str, list[PhotoReading]] = {}
        for r in self.readings:
            kinds.setdefault(_kind(r.truth), []).append(r)
            groups.setdefault(r.group, []).append(r)
        black = [r for r in wrong if _black_swap(r.truth, r.card)]
        red_black = [r for r in wrong if _colour_swap(r.truth, r.card)]
        by_colour = {"colour": [r for r in self.readings if not r.colourless],
                     "no colour": [r for r in self.readings if r.colourless]}
        return {
            "mode": self.mode,
            "photos": n,
            "right": n - len(wrong),
            "top1": round((n - len(wrong)) / n, 5) if n else None,
            "top1_interval": interval(n - len(wrong), n),
            "confident_mistakes": len(confident),
            "confident_mistake_rate": round(len(confident) / n, 5) if n else None,
            "read_as_unknown": sum(r.card == UNKNOWN and r.truth != UNKNOWN for r in self.readings),
            "by_kind": {k: _figures(v) for k, v in sorted(kinds.items())},
            "by_group": {k: _figures(v) for k, v in sorted(groups.items())},
            "by_colour": {k: _figures(v) for k, v in by_colour.items() if v},
            "black_suit_confusions": {"count": len(black),
                                      "confident": sum(r.confidence >= CONFIDENT for r in black)},
            "red_black_confusions": {"count": len(red_black),
                                     "confident": sum(r.confidence >= CONFIDENT for r in red_black)},
            "confusions": [{"truth": t, "read": c, "count": k}
                           for (t, c), k in Counter((r.truth, r.card) for r in wrong).most_common()],
            "mistakes": [{"photo": r.path, "truth": r.truth, "read": r.card, "confidence": round(r.confidence, 4)}
                         for r in wrong],
            "skipped": [{"photo": p, "reason": why} for p, why in self.skipped],
            **time_figures([r.ms for r in self.readings], [r.cpu_ms for r in self.readings]),
            "peak_mb": round(self.peak_mb, 1),
            "megapixels": self.megapixels,
            "change": self.change,
        }


def time_figures(ms: Sequence[float], cpu_ms: Sequence[float]) -> dict[str, float | None]:
    """A bench's times a photo (None without photos): the median wall and CPU times, and the slow
    end of the CPU times, their 90th percentile and mean (a few photos that need the last resorts
    take seconds, which a median does not show)."""
    if not len(ms):
        return dict.fromkeys(("median_ms_per_photo", "median_cpu_ms_per_photo", "p90_cpu_ms_per_photo",
                              "mean_cpu_ms_per_photo"))
    return {"median_ms_per_photo": round(float(np.median(ms)), 1),
            "median_cpu_ms_per_photo": round(float(np.median(cpu_ms)), 1),
            "p90_cpu_ms_per_photo": round(float(np.percentile(cpu_ms, 90)), 1),
            "mean_cpu_ms_per_photo": round(float(np.mean(cpu_ms)), 1)}


def peak_resident_mb() -> float:
    """This process's peak resident memory so far, MB (Linux reports it in kB)."""
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class BenchReport(Protocol):
    """What every photo bench's report keeps besides its readings."""

    skipped: list[tuple[str, str]]
    peak_mb: float


def read_each(report: BenchReport, paths: Sequence[str | Path], read: Callable[[int, np.ndarray], None], *,
              megapixels: float | None = None, change: str | None = None,
              progress: Callable[[int, int], None] | None = None) -> None:
    """Opens the photos of ``paths`` one at a time (each resized to ``megapixels`` first if given,
    then changed as ``change`` names, :mod:`vision.photo_changes`, both untimed) and hands each to
    ``read`` with its place in ``paths``. A photo that cannot be opened
    is added to ``report.skipped`` with its reason; after each photo read, ``report.peak_mb`` is
    brought up to date and ``progress`` told how many of ``paths`` are done. An unknown ``change``
    is named before any photo is read."""
    if change is not None:
        change_named(change)
    for i, path in enumerate(paths):
        try:
            image = read_image(path)
        except ImageFileError as exc:
            report.skipped.append((str(path), exc.reason))
            continue
        if megapixels is not None:
            image = at_megapixels(image, megapixels)
        if change is not None:
            image = changed(image, change, i)
        read(i, image)
        del image  # one photo held at a time
        report.peak_mb = peak_resident_mb()
        if progress is not None:
            progress(i + 1, len(paths))


_T = TypeVar("_T")


def timed(work: Callable[[], _T]) -> tuple[_T, float, float]:
    """``work()``'s result, and the wall and the CPU milliseconds it took."""
    began, began_cpu = time.perf_counter(), time.process_time()
    out = work()
    return out, (time.perf_counter() - began) * 1e3, (time.process_time() - began_cpu) * 1e3


def _figures(readings: Sequence[PhotoReading]) -> dict[str, int]:
    return {"photos": len(readings), "right": sum(r.right for r in readings),
            "confident_mistakes": sum(not r.right and r.confidence >= CONFIDENT for r in readings)}


def _black_swap(truth: str, read: str) -> bool:
    """Whether ``read`` is ``truth`` with clubs and spades swapped (the same rank)."""
    return truth[:-1] == read[:-1] and {truth[-1:], read[-1:]} == {"S", "C"} and len(truth) >= 2


def _colour_swap(truth: str, read: str) -> bool:
    """Whether ``read`` is ``truth``'s rank in a suit of the other colour (a red card read black,
    or a black one red)."""
    suits = "SHDC"
    return (len(truth) >= 2 and truth[:-1] == read[:-1] and truth[-1:] in suits and read[-1:] in suits
            and (truth[-1] in "HD") != (read[-1] in "HD"))


def _kind(label: str) -> str:
    if label in (BACK, UNKNOWN):
        return "backs" if label == BACK else "no card"
    if court(label):
        return "courts"
    if label[:-1] == "A":
        return "aces"
    if label in ("RJ", "BJ"):
        return "jokers"
    return "pip cards" if label[:-1].isdigit() else "enrolled cards"


def measure(items: Sequence[tuple[Path, str]], classifier: CardClassifier, *, crops: bool = False,
            whole_photo: bool = False, megapixels: float | None = None, change: str | None = None,
            progress: Callable[[int, int], None] | None = None) -> PhotoReport:
    """Read every photo and compare with its label. ``crops``: the photos are upright crops of one
    card each, as the table pipeline cuts them (read by the classifier alone); otherwise they are
    photos with background round a card at any angle (read as ``pegpi classify`` reads them, or with
    ``whole_photo`` as ``pegpi recognize`` does: its surest card, "no card" if it finds none).
    ``megapixels``: each photo is first resized to that size; ``change``: then changed so
    (:mod:`vision.photo_changes`); neither timed."""
    from vision.doubt import COLOURLESS, colour_strength
    from vision.recognize import read_card, recognize

    report = PhotoReport("crops" if crops else "recognize" if whole_photo else "photos", megapixels=megapixels,
                         change=change)
    groups = capture_groups(path for path, _truth in items)

    def read(image: np.ndarray) -> tuple[str, float]:
        if crops:
            p = classifier.classify([image])[0]
            return p.label, p.confidence
        if whole_photo:
            found = recognize(image, classifier)
            return (found[0].card, found[0].confidence) if found else (UNKNOWN, 0.0)
        d = read_card(image, classifier)
        return d.card, d.confidence

    def one(i: int, image: np.ndarray) -> None:
        path, truth = items[i]
        (card, confidence), ms, cpu_ms = timed(lambda: read(image))
        report.readings.append(PhotoReading(str(path), truth, card, float(confidence), ms, groups.get(str(path), "-"),
                                            cpu_ms, colour_strength(image) < COLOURLESS))

    read_each(report, [path for path, _truth in items], one, megapixels=megapixels, change=change, progress=progress)
    return report
