"""The camera's view as a small JPEG for the phones: the newest frame, encoded at most once."""

from __future__ import annotations

import threading

import cv2
import numpy as np

from vision.sources import Frame


def encode_jpeg(image: np.ndarray, *, width: int = 640, quality: int = 70) -> bytes | None:
    """``image`` (BGR) scaled to ``width`` pixels across and encoded as JPEG; None if OpenCV fails."""
    scale = width / image.shape[1]
    small = cv2.resize(image, (width, max(1, round(image.shape[0] * scale))), interpolation=cv2.INTER_AREA)
    ok, data = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return data.tobytes() if ok else None


class JpegPreview:
    """Holds the newest frame; :meth:`jpeg` encodes it when a phone asks, once per frame, so a
    camera at 30 fps costs nothing while nobody looks."""

    def __init__(self, *, width: int = 640, quality: int = 70) -> None:
        self.width = width
        self.quality = quality
        self._frame: Frame | None = None
        self._encoded: tuple[int, bytes] | None = None
        self._lock = threading.Lock()

    def show(self, frame: Frame) -> None:
        """The newest frame (called by the table loop; only a reference is kept)."""
        self._frame = frame

    def jpeg(self) -> bytes | None:
        """The newest frame as JPEG bytes, or None before the first frame."""
        frame = self._frame
        if frame is None:
            return None
        with self._lock:
            if self._encoded is not None and self._encoded[0] == frame.index:
                return self._encoded[1]
            data = encode_jpeg(frame.image, width=self.width, quality=self.quality)
            if data is not None:
                self._encoded = (frame.index, data)
            return data
