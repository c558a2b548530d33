"""Errors vision raises on purpose: all under :class:`games.errors.PegpiError`.

Each is also the matching built-in (``ValueError``, ``RuntimeError``, ...), so a caller may catch
either; the message names the bad input and, where there is one, what to do about it.
"""

from __future__ import annotations

from games.errors import PegpiError


class VisionError(PegpiError):
    """Base of every error vision raises on purpose."""


class LayoutError(VisionError, ValueError):
    """A mat layout that cannot be drawn: unknown table, seat count or paper, or zones that do not fit."""


class SourceError(VisionError, RuntimeError):
    """A frame source that cannot be opened or has stopped giving frames (names the source)."""


class FrameError(VisionError, ValueError):
    """A frame that cannot be used: wrong shape or type, empty, black or frozen."""


class ScriptError(VisionError, ValueError):
    """A placement script for the simulated table that names an unknown zone or slot, or is inconsistent."""


class FetchError(VisionError, RuntimeError):
    """An npm package (reference deck or symbol font) that could not be fetched or extracted."""


class DeckError(FetchError):
    """A reference deck that cannot be loaded: an unknown name, npm missing or failing to fetch the
    package, or a package whose files are not where they should be."""


class FontError(VisionError, RuntimeError):
    """A font the card renderer needs that is not installed (the message says how to get it)."""


class UnknownFontError(VisionError, ValueError):
    """A suit font name that is none of the renderer's faces."""


class CardIdError(VisionError, ValueError):
    """A card id the renderer cannot draw (like ``'AS'``, ``'10H'``, ``'RJ'`` or ``'back'``)."""


class ModelFileError(VisionError, FileNotFoundError):
    """A card model file (or the index or suit network it names) that is missing."""


class ClassifierError(VisionError, ValueError):
    """A classifier that cannot be built from what it was given (e.g. no card faces)."""


class EnrolError(VisionError, ValueError):
    """A deck that cannot be enrolled or loaded: a bad name, images and labels that do not pair
    up, or a deck that is not enrolled."""


class TrainError(VisionError, ValueError):
    """Training options or data that do not fit together (names the option or file)."""


class PhotoLabelError(VisionError, ValueError):
    """A photo to measure the model on whose name (or folder's name) is no card the model reads."""


class ImageFileError(VisionError, ValueError):
    """An image file that cannot be read: missing, a folder, empty, unreadable, not an image, or
    too small to hold a card. The message is ``"<path>: <reason>"``; both are kept as attributes."""

    def __init__(self, path: object, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = str(path)
        self.reason = reason


class ImageWriteError(VisionError, OSError):
    """An image that could not be written (names the file)."""


class BenchError(VisionError, ValueError):
    """Bench options that cannot be measured: an unknown section or design pool, or more designs
    than the pool has."""


class PhotoChangeError(VisionError, ValueError):
    """A change for the photo benches (:mod:`vision.photo_changes`) that is not known or fails."""
