"""Keep the crop of every card the table reads, filed under the card it was read as (``pegpi run
--keep-crops DIR``), so a table collects photos of its own real cards while it plays.

``DIR/QS/20261126-031502-7-crib-2.png`` is a queen of spades laid in slot 2 of the crib. When the
device asks about a card and a player names it on the phone, that card's crop moves to the
folder of the card the player gave. ``pegpi bench photos DIR --crops`` then measures the model
on those crops. Look through the folders before you trust the figure: a card read wrongly with
confidence is filed under the wrong card until someone moves it (a correction made later in the
game's history does not move it).

Writing a crop must never stop a game: a full or read-only disk is logged once and the table
plays on.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from pathlib import Path

import cv2
import numpy as np

from vision.api import Prediction
from vision.errors import ImageWriteError
from vision.events import TableEvent

log = logging.getLogger(__name__)
_SAFE = re.compile(r"[^A-Za-z0-9 _.-]+")
#: looks at one slot held until one settles: the tracker reads an unsure card up to 1 + its
#: ``retries`` (2) times; 4 crops of about 66 KB for each slot of the mat at most
LOOKS_KEPT = 4


def _folder_name(card: str) -> str:
    """A card id or an enrolled card's name as a folder name (no path separators)."""
    return _SAFE.sub("_", card).strip(" .") or "card"


class CropAlbum:
    """The crops behind the table's readings, one file per card placed."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.kept = 0
        self._looks: dict[tuple[str, int], list[tuple[Prediction, np.ndarray]]] = {}
        self._last: dict[tuple[str, int], Path] = {}
        self._failed = False
        # the table thread files crops while a phone's answer (a web thread) may move one
        self._lock = threading.Lock()

    def offer(self, zone: str, slot: int, crop: np.ndarray, prediction: Prediction) -> None:
        """A crop the table has just read, and what it was read as (the last few looks at each
        slot are held until one of them settles into a ``placed`` event)."""
        with self._lock:
            looks = self._looks.setdefault((zone, slot), [])
            looks.append((prediction, crop.copy()))
            del looks[:-LOOKS_KEPT]

    def placed(self, event: TableEvent, reading: Prediction | None) -> Path | None:
        """Write the crop behind a ``placed`` event (``reading``: the prediction it settled on, as
        the tracker returned it) under the card it was read as."""
        if event.kind != "placed":
            return None
        key = (event.zone, event.slot or 0)
        with self._lock:
            looks = self._looks.pop(key, [])
            look = next((x for x in looks if x[0] is reading), None)
            if look is None:
                return None
            stamp = time.strftime("%Y%m%d-%H%M%S")
            name = f"{stamp}-{self.kept}-{_folder_name(event.zone)}-{event.slot or 0}.png"
            path = self.folder / _folder_name(event.card) / name
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                if not cv2.imwrite(str(path), look[1]):
                    raise ImageWriteError(f"OpenCV could not write {path}")
            except OSError as exc:
                self._fail(exc)
                return None
            self.kept += 1
            self._last[key] = path
            return path

    def relabel(self, zone: str, slot: int | None, card: str) -> Path | None:
        """The card last placed in ``zone``/``slot`` is really ``card``: move its crop there."""
        with self._lock:
            old = self._last.get((zone, slot or 0))
            if old is None or not old.exists():
                return None
            new = self.folder / _folder_name(card) / old.name
            if new == old:
                return old
            try:
                new.parent.mkdir(parents=True, exist_ok=True)
                old.replace(new)
            except OSError as exc:
                self._fail(exc)
                return None
            self._last[(zone, slot or 0)] = new
            return new

    def _fail(self, exc: OSError) -> None:
        if not self._failed:
            log.warning("cannot keep card crops in %s: %s (the game goes on)", self.folder, exc)
        self._failed = True
