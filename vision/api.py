"""The small interface between the parts of vision: what a classifier takes and gives.

The table pipeline (locate -> classify -> track) depends only on this, so the ONNX model and
any stand-in are interchangeable.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

#: A poker-size card in millimetres (width, height). Bridge-size cards are 57 mm wide.
CARD_MM = (63.0, 88.0)

#: Labels that are not a card face.
BACK = "back"
UNKNOWN = "unknown"
#: what the camera reports for a card it sees from the back, or cannot read
NOT_A_FACE = (BACK, UNKNOWN)

#: A reading this sure of itself that is wrong is a confident mistake (every bench counts them so).
CONFIDENT = 0.9
#: The table asks the players about a card placed less sure than this (the device's default,
#: ``[table] confidence`` in the config), and reads such a card again when a hand leaves it.
ASK_BELOW = 0.85
#: Files read as photos of cards (enrolment, the photo bench).
IMAGE_EXT = (".png", ".jpg", ".jpeg", ".bmp", ".webp", ".tif", ".tiff")


@dataclass(frozen=True, slots=True)
class Prediction:
    """What the classifier read: a card id such as ``"10H"``/``"RJ"``/an enrolled name,
    ``"back"`` or ``"unknown"``, and a calibrated confidence in 0..1."""

    label: str
    confidence: float


class CardClassifier(Protocol):
    """Reads upright card images (BGR ``uint8``, any size, about 2 px/mm, long side vertical)."""

    labels: tuple[str, ...]

    def classify(self, crops: Sequence[np.ndarray]) -> list[Prediction]: ...
