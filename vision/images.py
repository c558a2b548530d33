"""Image files given on the command line: read one with the reason when it cannot be, and the
image files a folder holds."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import cv2
import numpy as np

from vision.api import IMAGE_EXT
from vision.errors import ImageFileError

#: Fewer pixels than this on a side cannot show a card (nor its corner index).
MIN_SIDE = 8


def read_image(path: str | Path) -> np.ndarray:
    """The BGR ``uint8`` image in ``path``; :class:`ImageFileError` saying which file and why when
    there is none to read (no such file, a folder, an empty file, a file OpenCV cannot decode,
    fewer than :data:`MIN_SIDE` pixels on a side)."""
    p = Path(path)
    if not p.exists():
        raise ImageFileError(p, "no such file")
    if p.is_dir():
        raise ImageFileError(p, "a folder, not an image")
    try:
        data = np.fromfile(p, np.uint8)
    except OSError as exc:
        raise ImageFileError(p, f"cannot be read ({exc.strerror or exc})") from None
    if data.size == 0:
        raise ImageFileError(p, "the file is empty")
    image = _decoded(data)
    if image is None:
        raise ImageFileError(p, f"not an image OpenCV can read (a broken file, or another kind of file; "
                             f"images are {', '.join(IMAGE_EXT)})")
    if min(image.shape[:2]) < MIN_SIDE:
        raise ImageFileError(p, f"too small to hold a card ({image.shape[1]}x{image.shape[0]} pixels)")
    return image


def _decoded(data: np.ndarray) -> np.ndarray | None:
    """``data`` decoded as a BGR image, or None; OpenCV's own warnings about a file it cannot read
    (a TIFF of 32-bit samples) kept off the terminal, where :func:`read_image`'s error says why."""
    logging = cv2.utils.logging
    level = logging.getLogLevel()
    logging.setLogLevel(min(level, logging.LOG_LEVEL_ERROR))
    try:
        image: np.ndarray | None = cv2.imdecode(data, cv2.IMREAD_COLOR)
    finally:
        logging.setLogLevel(level)
    return image


def at_megapixels(image: np.ndarray, megapixels: float) -> np.ndarray:
    """``image`` resized, its shape kept, to hold about ``megapixels`` million pixels: how the photo
    benches time a photo of the size a phone takes (12 megapixels) from a smaller one."""
    if not megapixels > 0:
        raise ValueError(f"a photo's size in megapixels is a positive number, not {megapixels}")
    h, w = image.shape[:2]
    s = (megapixels * 1e6 / (h * w)) ** 0.5
    size = (max(MIN_SIDE, round(w * s)), max(MIN_SIDE, round(h * s)))
    if size == (w, h):
        return image
    return cv2.resize(image, size, interpolation=cv2.INTER_CUBIC if s > 1 else cv2.INTER_AREA)


def whole_median(values: np.ndarray, top: int = 255) -> float:
    """The median of ``values``, whole numbers from 0 to ``top`` (a grey image, a sum of
    channels), exactly as ``np.median`` gives it but counted instead of sorted: several times
    cheaper on a photo's pixels."""
    if values.size == 0:
        raise ValueError("the median of no values")
    return counted_median(np.bincount(values.ravel().astype(np.intp, copy=False), minlength=top + 1))


def counted_median(counts: np.ndarray) -> float:
    """The median of values counted by value (``counts[v]``: how many values are ``v``, as a
    histogram gives them), as ``np.median`` of the values themselves gives it."""
    upto = np.cumsum(counts)
    n = int(upto[-1])
    if n == 0:
        raise ValueError("the median of no values")
    # the values ranked (n - 1) // 2 and n // 2 from the lowest (the same rank when n is odd)
    low, high = np.searchsorted(upto, [(n - 1) // 2 + 1, n // 2 + 1])
    return (float(low) + float(high)) / 2


def image_files(paths: Iterable[str | Path]) -> list[Path]:
    """``paths`` with each folder replaced by the image files under it (sorted, subfolders too).
    Files are kept as given, whatever their name, so that :func:`read_image` can say what is wrong
    with one; a folder holding no image is an :class:`ImageFileError`."""
    out: list[Path] = []
    for item in map(Path, paths):
        if item.is_dir():
            found = sorted(f for f in item.rglob("*") if f.is_file() and f.suffix.lower() in IMAGE_EXT)
            if not found:
                raise ImageFileError(item, f"a folder with no image in it (images are {', '.join(IMAGE_EXT)})")
            out += found
        else:
            out.append(item)
    return out
