"""``pegpi bench recognition``: the card model measured on rendered designs it never trained on
(what each figure means: models/MODEL_CARD.md)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from pathlib import Path

import numpy as np

from games.jsontypes import JSONObject
from vision import render
from vision.bench import DESIGN_POOLS, SECTIONS
from vision.bench import crops as single
from vision.bench import scenes as photos
from vision.bench.scoring import Say
from vision.classify import LABELS, MODEL_FILE, MODELS_DIR, OnnxCardClassifier
from vision.errors import BenchError, PhotoChangeError
from vision.photo_changes import change_named


def design_seeds(pool: str, designs: int) -> tuple[int, ...]:
    """The first ``designs`` design seeds of ``pool``; :class:`BenchError` naming what is allowed."""
    if pool not in DESIGN_POOLS:
        raise BenchError(f"unknown design pool {pool!r}: the pools are {', '.join(DESIGN_POOLS)}")
    seeds: tuple[int, ...] = getattr(render, DESIGN_POOLS[pool])
    if not 1 <= designs <= len(seeds):
        raise BenchError(f"the {pool} pool has {len(seeds)} designs: ask for 1 to {len(seeds)}, not {designs}")
    return seeds[:designs]


def _quiet(message: str) -> None:
    """A progress sink that says nothing."""


def run_bench(designs: int = 64, scenes: int = 30, seed: int = 0, progress: Say | None = None,
              model: Path | None = None, loose: int = 256, hidden: int = 512, commercial: int = 4,
              sections: Collection[str] | None = None, commercial_scenes: int = 6,
              pool: str = "bench", loose_changes: Sequence[str] = ()) -> JSONObject:
    """Measure the card model (``model``, or the shipped one) and return the figures by section.

    ``sections`` (default: all of :data:`~vision.bench.SECTIONS`) runs only some; a section's
    figures do not depend on which others run, except that latency and enrolment need the
    held-out crops (so run that section too) and share its random stream. ``designs`` of
    ``pool`` make the held-out crops, the loose photos and the index-only views."""
    seeds = design_seeds(pool, designs)
    chosen = set(SECTIONS if sections is None else sections)
    unknown = chosen - set(SECTIONS)
    if unknown:
        raise BenchError(f"unknown bench sections {sorted(unknown)}: the sections are {', '.join(SECTIONS)}")
    if chosen & {"framing", "latency", "enrolment"}:
        chosen.add("heldout")
    try:
        for name in loose_changes:
            change_named(name)  # an unknown change is named before any photo is made
    except PhotoChangeError as exc:
        raise BenchError(str(exc)) from None
    say = progress or _quiet
    model_path = model if model is not None else MODELS_DIR / MODEL_FILE
    clf = OnnxCardClassifier(model_path)
    rng = np.random.default_rng([seed, 31337])
    result: JSONObject = {"model": str(model) if model is not None else str(Path("models") / MODEL_FILE),
                          "model_bytes": model_path.stat().st_size, "pool": pool}
    if clf.index_path is not None:
        result["index_model_bytes"] = clf.index_path.stat().st_size
    if clf.suit_path is not None:
        result["suit_model_bytes"] = clf.suit_path.stat().st_size
    held = single.HeldOut()
    if "heldout" in chosen:
        result["heldout"], held = single.heldout(clf, seeds, rng, say)
    if "framing" in chosen:
        result["framing"] = single.framing(clf, held, say)
    if "loose" in chosen and (figures := single.loose(clf, seeds, loose, seed, say, loose_changes)) is not None:
        result["loose"] = figures
    if "index_only" in chosen and (figures := single.index_only(clf, seeds, hidden, seed, say)) is not None:
        result["index_only"] = figures
    if "latency" in chosen:
        result["latency_ms"] = single.latency(clf, held.crops, rng, say)
    if "enrolment" in chosen:
        result["enrolment"] = photos.enrolment(clf, model_path, held, rng, say)
    if "recognize" in chosen and (figures := photos.recognize_scenes(clf, scenes, rng, say)) is not None:
        result["recognize"] = figures
    if "commercial" in chosen and commercial:
        result["commercial"] = photos.commercial(clf, commercial, seed, say, commercial_scenes)
    result["labels"] = len(LABELS)
    return result
