"""The small interface between the parts of vision: what a classifier takes and gives.

The table pipeline (locate -> classify -> track) depends only on this, so the ONNX model and
any stand-in are interchangeable.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np
from numpy.typing import NDArray

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
#: Photos in the HEIF format (an iPhone's own), which OpenCV does not read: named with the way to a
#: JPEG rather than passed over.
HEIF_EXT = (".heic", ".heif")
#: Files a folder of photos lists: the ones read, and the HEIF ones, each named as not read.
LISTED_EXT = IMAGE_EXT + HEIF_EXT


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


@runtime_checkable
class IndexReader(CardClassifier, Protocol):
    """A classifier that also reads a card from its corner index alone (a network several times
    cheaper than the whole card's): what a photo search asks of it to weigh thousands of outlines
    (:mod:`vision.recognize`). A classifier that is not one is searched by whole readings alone."""

    #: whether it has an index network at all
    reads_index: bool

    @property
    def enrolled_unknown(self) -> bool:
        """Whether an enrolled deck names cards the index network does not know (the Decktet's)."""

    @property
    def index_shape(self) -> tuple[int, int]:
        """The (height, width) of the corner patch the index network reads."""

    def read_indices(self, crops: Sequence[np.ndarray]) -> list[Prediction]:
        """Each upright crop read from its corner index alone."""

    def read_corner_patches(self, patches: np.ndarray, read: NDArray[np.bool_] | None = None, *,
                            ranks_only: bool = False) -> list[Prediction]:
        """Corner patches ``(N, ways, h, w, 3)`` cut from a photo read, each card its surest way;
        ``read``: only the patches it marks; ``ranks_only``: each rank's suits pooled."""

    def classify_with_index(self, crops: Sequence[np.ndarray], *, ranks_only: bool = False,
                            moved: bool = True) -> list[tuple[Prediction, Prediction | None]]:
        """Each crop's whole reading and its corner index's (None where it has none to give)."""

    def gainsaid_by_corners(self, patches: np.ndarray, whole: Sequence[Prediction]) -> list[bool]:
        """For each card, whether its two index corners read another card than ``whole`` does."""


@runtime_checkable
class SuitReader(Protocol):
    """A classifier with a suit network, which tells clubs from spades by the shapes on a black
    card's top (an ace's by its large pip), where the card and index networks confuse them."""

    def clubs_odds(self, crops: Sequence[np.ndarray], *, aces: Sequence[bool] | None = None) -> np.ndarray | None:
        """Each black crop's odds of a club (None without a suit network)."""

    def black_suits_held(self, crops: Sequence[np.ndarray], readings: Sequence[Prediction]) -> list[Prediction]:
        """``readings`` with each club or spade read surely that the suit network reads in the
        other suit held below sure."""
