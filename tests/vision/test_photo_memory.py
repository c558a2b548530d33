"""Resident memory stays flat over many photos read one after another by `read_card` (pegpi
classify) and `recognize` (pegpi recognize): the model's working memory is bounded by the
batch it is given, not by how many hypotheses a photo makes."""

from __future__ import annotations

import resource

import numpy as np

from vision.classify import load_default_classifier
from vision.recognize import read_card, recognize
from vision.render import CARD_IDS, HELDOUT_DESIGN_SEEDS, render_card
from vision.render.photo import compose_scene, loose_crop


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def test_memory_does_not_grow_with_the_photos_read() -> None:
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

    recognize(scene(0), clf)
    read_card(loose(0), clf)
    settled = _peak_mb()
    for i in range(1, 7):
        recognize(scene(i), clf)
        read_card(loose(i), clf)
    grown = _peak_mb() - settled
    # generous bounds: a thousand hypotheses read in one batch took GBs
    assert grown < 150, f"peak memory grew {grown:.0f} MB over 12 more photos"
    assert _peak_mb() < 1200, f"peak memory {_peak_mb():.0f} MB"
