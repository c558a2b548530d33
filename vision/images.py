"""Image files given on the command line: read one with the reason when it cannot be, and the
image files a folder holds."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import cv2
import numpy as np

from vision.api import IMAGE_EXT, LISTED_EXT
from vision.errors import ImageFileError
from vision.locate import PHOTO_LONG_SIDE

#: Fewer pixels than this on a side cannot show a card (nor its corner index).
MIN_SIDE = 8
#: No reading uses more of a photo than this on its long side: recognize cuts cards from a copy
#: at most twice :data:`vision.locate.PHOTO_LONG_SIDE` long. A JPEG 2, 4 or 8 times larger (a
#: 50-200 megapixel phone photo: 150-600 MB decoded whole, 0.4-1.3 GB at its reading's peak) is
#: decoded at that fraction of its size (its DCT scaled, never whole in memory), keeping this many
#: pixels or more
DECODE_LONG_SIDE = 2 * PHOTO_LONG_SIDE
#: (factor, OpenCV's flag to decode a JPEG at 1 / factor of its size), the largest first
_REDUCED = ((8, cv2.IMREAD_REDUCED_COLOR_8), (4, cv2.IMREAD_REDUCED_COLOR_4), (2, cv2.IMREAD_REDUCED_COLOR_2))
#: JPEG markers that stand alone (no length follows): the start of the image, restarts, TEM
_BARE_MARKERS = frozenset({0x01, 0xD8, *range(0xD0, 0xD8)})
#: the start-of-frame markers, which give the image's size (0xC4, 0xC8 and 0xCC are others)
_FRAME_MARKERS = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}


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
    if image is None and heif(data):
        raise ImageFileError(p, "an HEIC photo (an iPhone's own format), which pegpi cannot read: save it as "
                             "JPEG (on the iPhone, Settings > Camera > Formats > Most Compatible)")
    if image is None:
        raise ImageFileError(p, f"not an image OpenCV can read (a broken file, or another kind of file; "
                             f"images are {', '.join(IMAGE_EXT)})")
    if min(image.shape[:2]) < MIN_SIDE:
        raise ImageFileError(p, f"too small to hold a card ({image.shape[1]}x{image.shape[0]} pixels)")
    return image


def _decoded(data: np.ndarray) -> np.ndarray | None:
    """``data`` decoded as a BGR image, or None; a large JPEG decoded smaller
    (:data:`DECODE_LONG_SIDE`); OpenCV's own warnings about a file it cannot read (a TIFF of
    32-bit samples) kept off the terminal, where :func:`read_image`'s error says why."""
    flag = cv2.IMREAD_COLOR
    if (size := jpeg_size(data)) is not None:
        flag = next((reduced for factor, reduced in _REDUCED if max(size) // factor >= DECODE_LONG_SIDE), flag)
    logging = cv2.utils.logging
    level = logging.getLogLevel()
    logging.setLogLevel(min(level, logging.LOG_LEVEL_ERROR))
    try:
        image: np.ndarray | None = cv2.imdecode(data, flag)
    finally:
        logging.setLogLevel(level)
    return image


#: the brands of an ISO media file's ``ftyp`` box that make it an HEIF image (HEVC-coded stills
#: and sequences, and the general image brands Apple's HEIC files name)
_HEIF_BRANDS = frozenset({b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1"})


def heif(data: np.ndarray) -> bool:
    """Whether a file's bytes (uint8) are an HEIF image, by its ``ftyp`` box's major brand."""
    head = data[:12].tobytes()
    return len(head) == 12 and head[4:8] == b"ftyp" and head[8:12] in _HEIF_BRANDS


def jpeg_size(data: np.ndarray) -> tuple[int, int] | None:
    """The (width, height) a JPEG file's bytes (uint8) declare in its frame header, read without
    decoding it; None for another kind of file, or a JPEG whose header is cut short or broken
    (decoded as any file is, and named if it cannot be)."""
    raw = data[:1 << 20].tobytes()  # the headers lie near the start
    if raw[:2] != b"\xff\xd8":
        return None
    i = 2
    while i + 4 <= len(raw):
        if raw[i] != 0xFF:
            return None
        marker = raw[i + 1]
        if marker == 0xFF:  # a fill byte before a marker
            i += 1
            continue
        if marker in _BARE_MARKERS:
            i += 2
            continue
        if marker == 0xDA:  # the image data begins: no frame header before it
            return None
        length = int.from_bytes(raw[i + 2:i + 4], "big")
        if marker in _FRAME_MARKERS:
            if length < 7 or i + 9 > len(raw):
                return None
            height, width = int.from_bytes(raw[i + 5:i + 7], "big"), int.from_bytes(raw[i + 7:i + 9], "big")
            return (width, height) if width and height else None
        if length < 2:
            return None
        i += 2 + length
    return None


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
    if values.dtype == np.uint8 and values.size < _EXACT_COUNTS:
        # OpenCV counts bytes without numpy's copy of them as indices; its float32 counts are
        # whole numbers exactly below 2 ** 24
        counts = cv2.calcHist([np.ascontiguousarray(values).reshape(-1, 1)], [0], None, [256], [0, 256]).ravel()
        return counted_median(counts)
    return counted_median(np.bincount(values.ravel().astype(np.intp, copy=False), minlength=top + 1))


#: OpenCV's histograms count in float32, whole numbers exactly below this
_EXACT_COUNTS = 2 ** 24


def high_percentile(values: np.ndarray, q: float) -> float:
    """``np.percentile(values, q)`` of float ``values`` (no NaN) to the bit, for a ``q`` near 100
    in a fraction of its time: the two values it lies between are picked from those over a
    level a sample of every 16th value sets, not from a partition of them all."""
    flat = values.reshape(-1)
    n = flat.size
    if n == 0:
        raise ValueError("the percentile of no values")
    at = (n - 1) * (q / 100)  # where numpy's linear method puts it among the sorted values
    k = int(np.floor(at))
    over = n - k  # how many values rank k or above
    pick = flat
    sample = flat[::16]
    if over * 8 < n and sample.size > 64:
        # a level that about three times the values needed lie over, checked below
        j = max(0, sample.size - 3 * over * sample.size // n - 3)
        level = np.partition(sample, j)[j]
        above = flat[flat >= level]
        if above.size >= over:
            pick, k = above, k - (n - above.size)
    low, high = k, min(k + 1, pick.size - 1)
    part = np.partition(pick, [low, high])
    a, b = part[low], part[high]
    # numpy's interpolation, in the values' own precision: from the nearer of the two
    gap, t, kind = b - a, at - np.floor(at), flat.dtype.type
    return float(b - gap * kind(1 - t)) if t >= 0.5 else float(a + gap * kind(t))


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
            found = sorted(f for f in item.rglob("*") if f.is_file() and f.suffix.lower() in LISTED_EXT)
            if not found:
                raise ImageFileError(item, f"a folder with no image in it (images are {', '.join(IMAGE_EXT)})")
            out += found
        else:
            out.append(item)
    return out


#: Immerkaer's noise operator: the difference of two Laplacians, zero on any smooth ramp, so that
#: what it leaves of a photo is mostly its sensor's noise
_NOISE_KERNEL = np.array([[1, -2, 1], [-2, 4, -2], [1, -2, 1]], np.float32)

#: :func:`noise_sigma` reads bands this many rows deep, one every NOISE_EVERY rows
NOISE_BAND, NOISE_EVERY = 8, 32


def noise_sigma(image: np.ndarray) -> float:
    """The standard deviation of ``image``'s sensor noise in grey levels, estimated from its grey
    copy by Immerkaer's operator (mean absolute response times sqrt(pi/2)/6) over bands of
    :data:`NOISE_BAND` rows, one every :data:`NOISE_EVERY` (a quarter of a large photo's pixels
    tell its noise as well as all of them). The development singles as taken measure 0.1-2.1;
    with the bench's sensor noise of 14 on a dimmed photo 6-10, at a webcam's size and
    compression with noise of 5, 2.7-5.9."""
    h, w = image.shape[:2]
    if h < 3 or w < 3:
        return 0.0
    every = NOISE_EVERY if h >= 2 * NOISE_EVERY else h
    band = min(NOISE_BAND, h)
    rows = (np.arange(0, h - band + 1, every)[:, None] + np.arange(band)).ravel()
    picked = image[rows]  # only the bands are made grey
    grey = picked if picked.ndim == 2 else cv2.cvtColor(picked, cv2.COLOR_BGR2GRAY)
    # filtered as one image; a band's first and last rows, which see the next band, left out
    response = cv2.filter2D(grey.astype(np.float32), -1, _NOISE_KERNEL).reshape(-1, band, w)[:, 1:-1, 1:-1]
    return float(np.sqrt(np.pi / 2) / 6 * np.abs(response).mean())

