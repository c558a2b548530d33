"""Photos with heavy sensor noise (a phone in a dim room): the noise is measured, and a photo
noisier than :data:`vision.recognize.NOISY` is read smoothed."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.conftest import REAL_PHOTOS
from vision.classify import load_default_classifier
from vision.images import noise_sigma
from vision.photo_bench import collect
from vision.photo_changes import changed
from vision.recognize import NOISY, _quieted, read_card, recognize

#: the development photos of single real cards (never in the repository)
REAL = REAL_PHOTOS / "single"


def _ramp(h: int = 240, w: int = 320) -> np.ndarray:
    """A smooth photo with no noise: light falling off across a grey table."""
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    grey = 90 + 60 * x / w + 30 * y / h
    return np.repeat(grey[..., None], 3, axis=2)


@pytest.mark.parametrize("sigma", [3.0, 8.0, 14.0])
def test_the_sensor_s_noise_is_measured_in_grey_levels(sigma: float) -> None:
    rng = np.random.default_rng(int(sigma))
    grey_noise = rng.normal(0.0, sigma, (240, 320, 1))  # one draw for all channels: the grey copy keeps it
    noisy = np.clip(_ramp() + grey_noise, 0, 255).astype(np.uint8)
    assert noise_sigma(noisy) == pytest.approx(sigma, rel=0.15)


def test_a_smooth_photo_or_one_too_small_to_tell_measures_no_noise() -> None:
    assert noise_sigma(_ramp().astype(np.uint8)) < 1.0
    assert noise_sigma(np.zeros((2, 50, 3), np.uint8)) == 0.0
    assert noise_sigma(np.full((5, 5), 128, np.uint8)) == 0.0


def test_a_clean_photo_is_read_as_taken_and_a_noisy_one_smoothed() -> None:
    clean = _ramp().astype(np.uint8)
    assert _quieted(clean) is clean
    rng = np.random.default_rng(1)
    noisy = np.clip(_ramp() + rng.normal(0.0, 16.0, (240, 320, 1)), 0, 255).astype(np.uint8)
    assert noise_sigma(noisy) > NOISY
    quiet = _quieted(noisy)
    assert quiet.shape == noisy.shape and quiet.dtype == np.uint8
    assert noise_sigma(quiet) < 0.5 * noise_sigma(noisy)


@pytest.mark.skipif(not REAL.is_dir(), reason="the development photos are not on this machine")
@pytest.mark.parametrize("name", ["2D_12", "5H_10", "6S_11", "7C_10", "9H_12", "AS_12"])
def test_a_dim_photo_with_heavy_sensor_noise_is_read_right(name: str) -> None:
    """The singles dimmed and noised as ``pegpi bench photos --change dim-noisy`` does (gamma 1.8,
    noise 14, the bench's own draw): read as taken, 2D_12 read 2H, 5H_10 5D, 6S_11 8S, 7C_10 7H,
    AS_12 AC, and 9H_12 nothing; smoothed, each reads its card (not always surely: a dim photo)."""
    order = [path.stem for path, _label in collect([REAL])]
    image = changed(cv2.imread(str(REAL / f"{name}.jpg")), "dim-noisy", order.index(name))
    assert noise_sigma(image) > NOISY
    card = name.split("_")[0]
    clf = load_default_classifier()
    assert read_card(image, clf).card == card
    found = recognize(image, clf)
    assert found and found[0].card == card, [(d.card, round(d.confidence, 2)) for d in found]
