"""Errors raised by vision on purpose.

Their root, :class:`VisionError`, is a ``games.errors.PegpiError`` (every package may import
``games``), so the command line prints each as one clean line; each is also the matching built-in.
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


class DeckError(VisionError, RuntimeError):
    """A reference deck that cannot be loaded: an unknown name, npm missing or failing to fetch the
    package, or a package whose files are not where they should be (names the problem)."""


class PhotoLabelError(VisionError, ValueError):
    """A photo to measure the model on whose name (or folder's name) is no card the model reads."""


class ImageFileError(VisionError, ValueError):
    """An image file that cannot be read: missing, a folder, empty, unreadable, not an image, or
    too small to hold a card. The message is ``"<path>: <reason>"``; both are kept as attributes."""

    def __init__(self, path: object, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = str(path)
        self.reason = reason
