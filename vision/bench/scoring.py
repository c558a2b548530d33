"""Counting a bench's readings: top-1, confident mistakes, confusions, and recall and precision
of cards found in composed photos."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import islice

import numpy as np
from numpy.typing import NDArray

from games.jsontypes import JSONObject
from vision.api import CONFIDENT, CardClassifier
from vision.model_input import Image

Bools = NDArray[np.bool_]
Floats = NDArray[np.float64]
#: A progress message sink (None: quiet).
Say = Callable[[str], None]


def interval(k: int, n: int, z: float = 1.96) -> tuple[float, float] | None:
    """The Wilson score interval (95 % with the default ``z``) round ``k`` of ``n`` right: how far a
    share measured on a few hundred photos may lie from the share over all such photos, each
    reading taken as independent (cards of one photo are not quite: the interval is the
    narrowest it could be). None for no readings."""
    if n <= 0:
        return None
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return round(float(max(0.0, centre - half)), 5), round(float(min(1.0, centre + half)), 5)


def confusions(truth: Sequence[str], labels: Iterable[str], n: int = 10) -> dict[str, int]:
    """The ``n`` most frequent mistakes, ``"truth->read"``: count."""
    counts: dict[str, int] = {}
    for t, p in zip(truth, labels, strict=True):
        if t != p:
            counts[f"{t}->{p}"] = counts.get(f"{t}->{p}", 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: -kv[1])[:n])


def read_all(clf: CardClassifier, crops: Iterable[Image], truth: Sequence[str]
             ) -> tuple[NDArray[np.str_], Floats, Bools]:
    """Each crop classified, 256 at a time (a generator is drawn a batch at a time): the labels,
    the confidences, and whether each label is its ``truth``."""
    preds = []
    it = iter(crops)
    while batch := list(islice(it, 256)):
        preds += clf.classify(batch)
    labels = np.array([p.label for p in preds])
    ok: Bools = labels == np.array(truth)
    return labels, np.array([p.confidence for p in preds]), ok


def twins(truth: Sequence[str], labels: Iterable[str], among: Iterable[bool] | None = None) -> int:
    """Mistakes that read a card as its clubs/spades twin (the same rank in the other black suit);
    ``among``: only the readings it marks count (those read surely, say)."""
    other = {"C": "S", "S": "C"}
    marks = [True] * len(truth) if among is None else among
    return sum(1 for t, p, m in zip(truth, labels, marks, strict=True)
               if m and t != p and t[-1:] in other and p == t[:-1] + other[t[-1]])


def sure_mistakes(ok: Bools, conf: Floats) -> Bools:
    """Which readings are wrong at :data:`~vision.api.CONFIDENT` or more."""
    wrong: Bools = (~ok) & (conf >= CONFIDENT)
    return wrong


def scores(ok: Bools, conf: Floats) -> dict[str, float]:
    """Top-1 and the share of confident mistakes."""
    return {"top1": round(float(ok.mean()), 5), "confident_mistakes": round(float(sure_mistakes(ok, conf).mean()), 5)}


def score_scene(counts: list[int], cards: Sequence[str], got: Sequence[str]) -> None:
    """Add a photo's found, missed and false readings to ``counts`` (a card read twice counts
    once found and once false)."""
    want = set(cards)
    counts[0] += len(want & set(got))
    counts[1] += len(want - set(got))
    counts[2] += sum(1 for g in got if g not in want) + max(0, len(got) - len(set(got)))


def recall_precision(per_layout: dict[str, list[int]], photos: int) -> JSONObject:
    """Recall and precision over all photos and by layout, from :func:`score_scene`'s counts."""
    tp, fn, fp = (sum(c[i] for c in per_layout.values()) for i in range(3))
    return {"photos": photos, "cards": tp + fn, "found": tp, "missed": fn, "false": fp,
            "recall": round(tp / max(1, tp + fn), 4), "precision": round(tp / max(1, tp + fp), 4),
            "by_layout": {lay: {"recall": round(c[0] / max(1, c[0] + c[1]), 4),
                                "precision": round(c[0] / max(1, c[0] + c[2]), 4)}
                          for lay, c in per_layout.items()}}
