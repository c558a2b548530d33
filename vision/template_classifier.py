"""A nearest-template :class:`~vision.api.CardClassifier`: a deck taught by one picture per card.

It compares a crop with each known card face (both ways up) by normalised correlation of small
colour thumbnails. It is the stand-in used by the table tests and benchmarks on simulated
decks, and works for any deck whose faces one can show once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import cv2
import numpy as np

from vision.api import UNKNOWN, Prediction
from vision.errors import ClassifierError

THUMB = (24, 34)  # (w, h)


def _feature(image: np.ndarray) -> np.ndarray:
    small = cv2.resize(image[..., :3], THUMB, interpolation=cv2.INTER_AREA).astype(np.float32)
    v = small.ravel()
    v -= v.mean()
    n = float(np.linalg.norm(v))
    return v / n if n > 1e-6 else v


class TemplateClassifier:
    """Reads a crop as the taught card it correlates best with; below ``floor`` it says ``unknown``."""

    def __init__(self, faces: dict[str, np.ndarray], floor: float = 0.55) -> None:
        if not faces:
            raise ClassifierError("a template classifier needs at least one card face")
        self.labels = tuple(faces)
        rows = []
        for label in self.labels:
            face = faces[label]
            rows.append(_feature(face))
            rows.append(_feature(face[::-1, ::-1]))
        self._bank = np.stack(rows)
        self.floor = floor

    @classmethod
    def from_art(cls, labels: Iterable[str], art: Callable[[str], np.ndarray], floor: float = 0.55
                 ) -> TemplateClassifier:
        return cls({label: art(label) for label in labels}, floor)

    def classify(self, crops: Sequence[np.ndarray]) -> list[Prediction]:
        if not crops:
            return []
        scores = np.stack([_feature(c) for c in crops]) @ self._bank.T
        out = []
        for row in scores:
            best = int(np.argmax(row))
            score = float(row[best])
            label = self.labels[best // 2]
            out.append(Prediction(label if score >= self.floor else UNKNOWN, max(0.0, min(1.0, score))))
        return out
