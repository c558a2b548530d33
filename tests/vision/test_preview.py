"""The phones' camera picture: the newest frame, small, encoded once per frame."""

from __future__ import annotations

import cv2
import numpy as np

from vision.preview import JpegPreview, encode_jpeg
from vision.sources import Frame


def test_the_newest_frame_is_encoded_once_at_the_asked_width() -> None:
    preview = JpegPreview(width=320)
    assert preview.jpeg() is None
    image = np.full((480, 1280, 3), 90, np.uint8)
    preview.show(Frame(image, 0.0, 7))
    first = preview.jpeg()
    assert first is not None and first is preview.jpeg()  # the same frame is not encoded again
    decoded = cv2.imdecode(np.frombuffer(first, np.uint8), cv2.IMREAD_COLOR)
    assert decoded.shape == (120, 320, 3)
    preview.show(Frame(np.full((480, 1280, 3), 200, np.uint8), 0.1, 8))
    second = preview.jpeg()
    assert second is not None and second != first
    assert encode_jpeg(image, width=64) is not None
