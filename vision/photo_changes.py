"""Ways a photo of a card may differ from the ones a bench holds: the photo benches read each
photo changed so (``pegpi bench photos --change NAME``) to see whether the readings hold up,
and above all whether any becomes surely wrong, under shake, a webcam's size and compression, a
turned or slanted phone, soft focus, grey light or noise.

Each change is a function of the photo (BGR, uint8) and a random generator (for noise), and
returns a new photo; it is drawn from a generator seeded per photo, so a bench run twice reads
the same pixels."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeAlias

import cv2
import numpy as np

from vision.errors import PhotoChangeError
from vision.render.photo import motion_kernel

Change: TypeAlias = Callable[[np.ndarray, np.random.Generator], np.ndarray]


def _jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    decoded = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else None
    if decoded is None:
        raise PhotoChangeError(f"a photo of shape {image.shape} could not be compressed")
    return decoded


def _noise(image: np.ndarray, sigma: float, rng: np.random.Generator) -> np.ndarray:
    """Sensor noise: each channel of each pixel moved by a normal draw of ``sigma``."""
    return np.clip(image + rng.normal(0.0, sigma, image.shape), 0, 255).astype(np.uint8)


def _scaled(image: np.ndarray, factor: float) -> np.ndarray:
    return cv2.resize(image, None, fx=factor, fy=factor,
                      interpolation=cv2.INTER_AREA if factor < 1 else cv2.INTER_CUBIC)


def _turned(image: np.ndarray, degrees: float) -> np.ndarray:
    """Turned by ``degrees`` about its middle, the same size: the corners turned in are filled by
    drawing out the photo's edges (the table round the card), never by mirroring it, which would
    add mirrored cards no camera sees."""
    h, w = image.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    return cv2.warpAffine(image, m, (w, h), borderMode=cv2.BORDER_REPLICATE)


def _slanted(image: np.ndarray, narrow: float) -> np.ndarray:
    """As a phone held at a slant sees it: the far (top) side shorter by ``narrow`` at each end."""
    h, w = image.shape[:2]
    was = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    now = was.copy()
    now[0, 0], now[1, 0] = narrow * w, (1 - narrow) * w
    return cv2.warpPerspective(image, cv2.getPerspectiveTransform(was, now), (w, h), borderMode=cv2.BORDER_REPLICATE)


def _grey(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)


def _lit(image: np.ndarray, gains: tuple[float, float, float]) -> np.ndarray:
    """Under coloured light: each channel (B, G, R) scaled, clipped as a sensor clips."""
    lit: np.ndarray = np.clip(image * np.array(gains, np.float32), 0, 255).astype(np.uint8)
    return lit


def _dim(image: np.ndarray, gamma: float) -> np.ndarray:
    return np.clip(255.0 * (image / 255.0) ** gamma, 0, 255).astype(np.uint8)


#: each change's name, what it does to a photo (for the bench's report) and the change itself
CHANGES: dict[str, tuple[str, Change]] = {
    "shaken": ("smeared 9 px by a shaken hand, saved at JPEG 30",
               lambda im, _rng: _jpeg(cv2.filter2D(im, -1, motion_kernel(9, 30.0)), 30)),
    "webcam": ("at half the size, JPEG 40, sensor noise 5",
               lambda im, rng: _noise(_jpeg(_scaled(im, 0.5), 40), 5.0, rng)),
    "turned": ("turned 37 degrees", lambda im, _rng: _turned(im, 37.0)),
    "slanted": ("seen at a slant (far side 30 % shorter), soft by 1.5 px",
                lambda im, _rng: cv2.GaussianBlur(_slanted(im, 0.15), (0, 0), 1.5)),
    "soft-phone": ("enlarged six times and soft by 5 px (a phone's photo out of focus)",
                   lambda im, _rng: cv2.GaussianBlur(_scaled(im, 6.0), (0, 0), 5.0)),
    "small": ("at 0.4 of the size, soft by 0.8 px", lambda im, _rng: cv2.GaussianBlur(_scaled(im, 0.4), (0, 0), 0.8)),
    "grey-soft": ("grey, soft by 2 px", lambda im, _rng: cv2.GaussianBlur(_grey(im), (0, 0), 2.0)),
    # the sensor's noise last, as a camera adds it: turned after it, the photo's edges drawn out
    # into the corners repeat one pixel's noise in streaks, which look like colour
    "warm-noisy": ("under warm light, sensor noise 10, turned 20 degrees",
                   lambda im, rng: _noise(_turned(_lit(im, (0.7, 0.9, 1.15)), 20.0), 10.0, rng)),
    "dim-noisy": ("dim (gamma 1.8), sensor noise 14", lambda im, rng: _noise(_dim(im, 1.8), 14.0, rng)),
}


def change_named(name: str) -> Change:
    """The change called ``name`` (:data:`CHANGES`); a :class:`PhotoChangeError` naming the known
    ones if there is none."""
    try:
        return CHANGES[name][1]
    except KeyError:
        raise PhotoChangeError(f"no change called {name!r}; known: {', '.join(CHANGES)}") from None


def changed(image: np.ndarray, name: str, seed: int) -> np.ndarray:
    """``image`` changed as ``name`` changes a photo, its noise drawn from ``seed``."""
    return change_named(name)(image, np.random.default_rng([seed, 59]))
