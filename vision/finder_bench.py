"""How well the index finder marks the printed corner indices of real photos (``pegpi bench
finder``).

A folder of photos comes with a CSV (``labels.csv`` or ``index.csv``) whose ``boxes`` column
lists, for each photo, the boxes round its printed corner indices as JSON:
``[["6D", 0, 147, 71, 264], ...]`` (a label, then x0, y0, x1, y1 in the photo's pixels). The
development photos' ``single/index.csv`` and ``scenes/labels.csv`` have this form. A box is
found when a mark lies inside it; a mark is right when it lies inside a box. Rows without boxes
are left out.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from vision.errors import PhotoLabelError
from vision.finder import IndexFinder, IndexMark
from vision.photo_bench import read_each, table_rows, time_figures, timed

#: the CSVs a folder's boxes may be listed in, in the order they are looked for
BOX_TABLES = ("labels.csv", "index.csv")


@dataclass(frozen=True, slots=True)
class BoxedPhoto:
    """A photo and the boxes round the corner indices it shows, ``(n, 4)``: x0, y0, x1, y1, and
    each box's label."""

    path: Path
    boxes: np.ndarray
    group: str = "-"
    labels: tuple[str, ...] = ()


def read_boxes(folder: Path, *, optional: bool = False) -> list[BoxedPhoto]:
    """The photos of ``folder`` whose CSV (:data:`BOX_TABLES`) lists index boxes; ``optional``:
    none, rather than a :class:`PhotoLabelError`, for a folder with no such CSV or a CSV with no
    boxes column (a malformed box is an error either way)."""
    table = next((folder / t for t in BOX_TABLES if (folder / t).is_file()), None)
    if table is None:
        if optional:
            return []
        raise PhotoLabelError(f"no {' or '.join(BOX_TABLES)} in {folder}: list each photo's index boxes in a "
                              "boxes column (JSON, e.g. [[\"6D\", 0, 147, 71, 264]])")
    out: list[BoxedPhoto] = []
    for line, row in table_rows(table, ("file",) if optional else ("file", "boxes")):
        boxes, labels = parse_boxes(row.get("boxes", ""), f"{table}, line {line}")
        if len(boxes):
            out.append(BoxedPhoto(folder / row.get("file", "").strip(), boxes,
                                  row.get("capture_group", "").strip() or "-", labels))
    return out


def parse_boxes(text: str, where: str) -> tuple[np.ndarray, tuple[str, ...]]:
    """The boxes of a ``boxes`` cell (JSON ``[[label, x0, y0, x1, y1], ...]``), ``(n, 4)``, and
    their labels, none for an empty cell; a :class:`PhotoLabelError` naming ``where`` (the table
    and line) if malformed."""
    try:
        listed = json.loads(text) if text.strip() else []
        boxes = np.array([[float(v) for v in b[1:5]] for b in listed], np.float32).reshape(-1, 4)
        labels = tuple(str(b[0]) for b in listed)
    except (ValueError, TypeError, IndexError) as exc:
        raise PhotoLabelError(f"{where}: boxes are not a JSON list of [label, x0, y0, x1, y1] ({exc})") from None
    return boxes, labels


@dataclass(frozen=True, slots=True)
class FinderReading:
    photo: BoxedPhoto
    #: each box: whether a mark lies inside it
    found: tuple[bool, ...]
    #: each mark: whether it lies inside a box
    right: tuple[bool, ...]
    ms: float
    cpu_ms: float


@dataclass
class FinderReport:
    threshold: float
    readings: list[FinderReading] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    peak_mb: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        groups: dict[str, list[FinderReading]] = {}
        for r in self.readings:
            groups.setdefault(r.photo.group, []).append(r)
        return {"mode": "finder", "threshold": self.threshold, **_figures(self.readings),
                "by_group": {g: _figures(rs) for g, rs in sorted(groups.items())},
                "photos_with_misses": [{"photo": str(r.photo.path), "boxes": len(r.found),
                                        "missed": len(r.found) - sum(r.found)} for r in self.readings if not all(r.found)],
                "skipped": [{"photo": p, "reason": why} for p, why in self.skipped],
                **time_figures([r.ms for r in self.readings], [r.cpu_ms for r in self.readings]),
                "peak_mb": round(self.peak_mb, 1)}


def _figures(readings: Sequence[FinderReading]) -> dict[str, Any]:
    boxes, found, marks, right = hit_counts([(r.found, r.right) for r in readings])
    return {"photos": len(readings), "boxes": boxes, "found": found,
            "found_share": round(found / boxes, 4) if boxes else None,
            "marks": marks, "marks_right": round(right / marks, 4) if marks else None,
            "marks_per_photo": round(marks / len(readings), 2) if readings else None}


def hit_counts(hits: Sequence[tuple[tuple[bool, ...], tuple[bool, ...]]]) -> tuple[int, int, int, int]:
    """Of photos' :func:`box_hits`: the boxes, the boxes found, the marks, and the marks in a box."""
    return (sum(len(f) for f, _r in hits), sum(sum(f) for f, _r in hits),
            sum(len(r) for _f, r in hits), sum(sum(r) for _f, r in hits))


def box_hits(marks: Sequence[IndexMark], boxes: np.ndarray) -> tuple[tuple[bool, ...], tuple[bool, ...]]:
    """For each box (``(n, 4)``: x0, y0, x1, y1), whether a mark lies inside it; for each mark,
    whether it lies inside a box."""
    b = boxes
    inside = np.array([(b[:, 0] <= m.x) & (m.x <= b[:, 2]) & (b[:, 1] <= m.y) & (m.y <= b[:, 3]) for m in marks],
                      bool).reshape(len(marks), len(b))
    return tuple(bool(v) for v in np.any(inside, axis=0)), tuple(bool(v) for v in np.any(inside, axis=1))


def measure_finder(photos: Sequence[BoxedPhoto], finder: IndexFinder, threshold: float, *,
                   progress: Callable[[int, int], None] | None = None) -> FinderReport:
    """Mark each photo's indices, one photo at a time, and compare with its boxes."""
    report = FinderReport(threshold)

    def one(i: int, image: np.ndarray) -> None:
        marks, ms, cpu_ms = timed(lambda: finder.find(image, threshold))
        found, right = box_hits(marks, photos[i].boxes)
        report.readings.append(FinderReading(photos[i], found, right, ms, cpu_ms))

    read_each(report, [photo.path for photo in photos], one, progress=progress)
    return report
