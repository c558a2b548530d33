"""Resident memory stays flat over many photos read one after another by `read_card` (pegpi
classify) and `recognize` (pegpi recognize): the model's working memory is bounded by the
batch it is given, not by how many hypotheses a photo makes."""

from __future__ import annotations

import multiprocessing
import resource
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2
import numpy as np

from vision.classify import load_default_classifier
from vision.recognize import read_card, recognize
from vision.render import CARD_IDS, HELDOUT_DESIGN_SEEDS, render_card
from vision.render.photo import compose_scene, loose_crop


def _peak_mb() -> float:
    """This process's own high-water mark (VmHWM; ru_maxrss keeps a forked parent's)."""
    for line in open("/proc/self/status", encoding="ascii"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _read_photos() -> tuple[float, float]:
    """Read 18 photos in a fresh process; (peak MB after the first six, peak MB at the end)."""
    clf = load_default_classifier()
    rng = np.random.default_rng(11)
    cards = [c for c in CARD_IDS if c not in ("RJ", "BJ")]

    def scene(i: int) -> np.ndarray:
        ids = [str(c) for c in rng.choice(cards, 4, replace=False)]
        faces = [render_card(c, HELDOUT_DESIGN_SEEDS[i % 8], px_per_mm=3.0, alpha=True) for c in ids]
        img, _ = compose_scene(faces, rng, layout=("scatter", "fan", "arc")[i % 3], size=(1280, 960),
                               card_px=(200, 300), strength=0.4)
        return img

    def loose(i: int) -> np.ndarray:
        face = render_card(str(rng.choice(cards)), HELDOUT_DESIGN_SEEDS[i % 8], px_per_mm=3.0, alpha=True)
        return loose_crop(face, rng, strength=0.5)[0]

    for i in range(3):  # one of each layout: the reader's buffers reach their working size
        recognize(scene(i), clf)
        read_card(loose(i), clf)
    settled = _peak_mb()
    for i in range(3, 9):
        recognize(scene(i), clf)
        read_card(loose(i), clf)
    return settled, _peak_mb()


def test_memory_does_not_grow_with_the_photos_read() -> None:
    # a process of its own: the suite's other tests leave this one's peak far above its own work
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        settled, peak = pool.submit(_read_photos).result(timeout=900)
    # generous bounds: a thousand hypotheses read in one batch took GBs
    assert peak - settled < 150, f"peak memory grew {peak - settled:.0f} MB over 12 more photos"
    assert peak < 1200, f"peak memory {peak:.0f} MB"


#: a phone photo of 48 megapixels (8000 x 6000): 144 MB decoded whole
BIG = (8000, 6000)


def _read_big(path: str) -> tuple[float, float, list[str], str]:
    """In a fresh process: the peak once the readers are settled on a photo of ordinary size, the
    peak after reading the large photo at ``path`` as `pegpi recognize` and `pegpi classify` do,
    the cards recognize finds in it, and the card read_card reads."""
    from vision.images import read_image

    clf = load_default_classifier()
    face = render_card("9D", HELDOUT_DESIGN_SEEDS[2], px_per_mm=3.0, alpha=True)
    small = loose_crop(face, np.random.default_rng(3), strength=0.5)[0]
    recognize(small, clf)
    read_card(small, clf)
    settled = _peak_mb()
    photo = read_image(path)
    found = [d.card for d in recognize(photo, clf)]
    card = read_card(photo, clf).card
    return settled, _peak_mb(), found, card


def test_a_phone_photo_of_many_megapixels_is_read_in_little_memory(tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    face = render_card("9D", HELDOUT_DESIGN_SEEDS[2], px_per_mm=3.0, alpha=True)
    img, _ = compose_scene([face], rng, layout="scatter", size=(1280, 960), card_px=(300, 420), strength=0.3)
    path = tmp_path / "phone.jpg"
    assert cv2.imwrite(str(path), cv2.resize(img, BIG, interpolation=cv2.INTER_LINEAR), [cv2.IMWRITE_JPEG_QUALITY, 90])
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        settled, peak, found, card = pool.submit(_read_big, str(path)).result(timeout=900)
    assert found[:1] == ["9D"] and card == "9D"
    whole = BIG[0] * BIG[1] * 3 / 2**20
    # decoded whole (137 MiB), reading it raised the peak 277 MB over the readers settled;
    # decoded halved, 80-100 MB
    assert peak - settled < whole, f"reading a {BIG[0]}x{BIG[1]} photo took {peak - settled:.0f} MB more"
