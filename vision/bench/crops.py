"""The bench's sections on single cards: held-out crops (and the same framed a little off),
loose photos of one card, cards of which only the index shows, and latency."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import cv2
import numpy as np

from games.jsontypes import JSONObject
from vision.api import CARD_MM, CONFIDENT
from vision.bench.scoring import Bools, Floats, Say, confusions, read_all, scores, sure_mistakes, twins
from vision.classify import OnnxCardClassifier
from vision.model_input import Image, preprocess, to_tensor
from vision.photo_changes import changed
from vision.recognize import Detection, read_card
from vision.render import CARD_IDS, HELDOUT_DESIGN_SEEDS, render_card
from vision.render.photo import held_crop, loose_crop, non_card_crop, table_crop

#: The held-out crops are read again this much closer (> 1) or further (< 1): an outline found a
#: little off in a photo frames its card so.
FRAMINGS = (0.9, 0.95, 1.05, 1.1)


class HeldOut:
    """The held-out crops (preprocessed), their true labels and kinds (card, back, unknown)."""

    def __init__(self) -> None:
        self.crops: list[Image] = []
        self.truth: list[str] = []
        self.kinds: list[str] = []


def heldout(clf: OnnxCardClassifier, seeds: Sequence[int], rng: np.random.Generator, say: Say
            ) -> tuple[JSONObject, HeldOut]:
    """Every card and the back of each design through the table's camera model, and six
    non-card crops a design: top-1 by kind, confident mistakes, clubs/spades twins, confusions."""
    say(f"rendering {len(seeds)} held-out designs ...")
    held = HeldOut()
    for d in seeds:
        for label in CARD_IDS + ("back",):
            face = render_card(label, d, px_per_mm=3.0, rng=rng, alpha=True)
            held.crops.append(preprocess(table_crop(face, rng)))
            held.truth.append(label)
            held.kinds.append("card" if label != "back" else "back")
        for _ in range(6):
            held.crops.append(preprocess(non_card_crop(rng)))
            held.truth.append("unknown")
            held.kinds.append("unknown")
    say(f"classifying {len(held.crops)} crops ...")
    labels, conf, ok = read_all(clf, held.crops, held.truth)
    kinds = np.array(held.kinds)
    out: JSONObject = {"designs": len(seeds), "crops": len(held.crops), **scores(ok, conf),
                       "mistakes": int((~ok).sum()), "confident": int(sure_mistakes(ok, conf).sum()),
                       "mean_confidence": round(float(conf.mean()), 4)}
    for k in ("card", "back", "unknown"):
        out[f"top1_{k}"] = round(float(ok[kinds == k].mean()), 5)
    out["clubs_spades_twins"] = twins(held.truth, labels)
    out["worst_confusions"] = confusions(held.truth, labels)
    return out, held


def framed(crop: Image, scale: float) -> Image:
    """A preprocessed crop seen ``scale`` times closer about its centre (further below 1), the
    edge pixels carried into what a zoom out uncovers."""
    h, w = crop.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), 0, scale)
    out: Image = cv2.warpAffine(crop, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return out


def framing(clf: OnnxCardClassifier, held: HeldOut, say: Say) -> JSONObject:
    """The held-out crops read again, each framed a few per cent closer or further."""
    say("held-out crops framed closer and further ...")
    out: JSONObject = {}
    for scale in FRAMINGS:
        _, conf, ok = read_all(clf, (framed(c, scale) for c in held.crops), held.truth)
        out[f"{scale:g}"] = {**scores(ok, conf), "mistakes": int((~ok).sum())}
    return {"crops": len(held.crops), "scales": out}


def loose(clf: OnnxCardClassifier, seeds: Sequence[int], photos: int, seed: int, say: Say,
          changes: Sequence[str] = ()) -> JSONObject | None:
    """Loose photos of one card (background round it, any angle) read as ``pegpi classify`` does;
    ``changes`` (names of :data:`vision.photo_changes.CHANGES`): each photo read again so changed,
    each change's figures apart, with its confident mistakes named (a phone's blur or a webcam's
    noise on decks never trained on: where a sure mistake on an unknown deck would show)."""
    if not photos:
        return None
    say("loose photos of one card ...")
    taken: list[tuple[str, Detection]] = []
    times = []
    under: dict[str, list[tuple[str, Detection]]] = {name: [] for name in changes}
    rng = np.random.default_rng([seed, 4242])  # a stream of its own: the other figures stay comparable
    for i in range(photos):
        label = CARD_IDS[int(rng.integers(len(CARD_IDS)))]
        face = render_card(label, seeds[i % len(seeds)], px_per_mm=3.0, rng=rng, alpha=True)
        img, _ = loose_crop(face, rng)
        t = time.perf_counter()
        taken.append((label, read_card(img, clf)))
        times.append(time.perf_counter() - t)
        for name, readings in under.items():
            readings.append((label, read_card(changed(img, name, i), clf)))
    out: JSONObject = {"photos": photos, **scores(*_judged(taken)),
                       "median_ms_per_photo": round(float(np.median(times)) * 1e3, 1)}
    if under:
        out["changes"] = {name: _change_figures(readings) for name, readings in under.items()}
    return out


def _judged(readings: Sequence[tuple[str, Detection]]) -> tuple[Bools, Floats]:
    """Whether each reading (with its true card) is right, and its confidence, as
    :func:`~vision.bench.scoring.scores` takes them."""
    ok: Bools = np.array([d.card == label for label, d in readings], bool)
    return ok, np.array([d.confidence for _label, d in readings], np.float64)


def _change_figures(readings: Sequence[tuple[str, Detection]]) -> JSONObject:
    """The figures of loose photos read under one change (each its true card and the reading):
    how many, top-1, the confident mistakes (each as "truth as read (confidence)") and the clubs
    and spades swapped."""
    ok, conf = _judged(readings)
    truth = [label for label, _d in readings]
    read = [d.card for _label, d in readings]
    wrong = [f"{label} as {d.card} ({d.confidence:.2f})"
             for (label, d), sure_wrong in zip(readings, sure_mistakes(ok, conf), strict=True) if sure_wrong]
    return {"photos": len(readings), "top1": scores(ok, conf)["top1"], "confident": len(wrong),
            "confident_mistakes": wrong,
            "clubs_spades_swapped": {"count": twins(truth, read), "confident": twins(truth, read, conf >= CONFIDENT)}}


def index_only(clf: OnnxCardClassifier, seeds: Sequence[int], hidden: int, seed: int, say: Say) -> JSONObject | None:
    """Cards under the next cards of a row or a held fan, of which only the corner index shows,
    read from the index alone (and, for comparison, as a whole card)."""
    if not hidden or not clf.reads_index:
        return None
    say("cards of which only the index shows ...")
    rng = np.random.default_rng([seed, 2718])  # a stream of its own, as the loose photos'
    crops, truth, in_row = [], [], []
    for i in range(hidden):
        d = seeds[i % len(seeds)]
        label = CARD_IDS[int(rng.integers(len(CARD_IDS)))]
        covers = [render_card(CARD_IDS[int(rng.integers(54))], d, px_per_mm=2.5, alpha=True)
                  for _ in range(int(rng.integers(1, 4)))]
        crops.append(held_crop(render_card(label, d, px_per_mm=3.0, rng=rng, alpha=True), covers, rng,
                               row=i % 2 == 0))
        truth.append(label)
        in_row.append(i % 2 == 0)
    pairs = []
    for i in range(0, hidden, 256):
        pairs += clf.classify_with_index(crops[i:i + 256])
    ok = np.array([ix is not None and ix.label == t for (_, ix), t in zip(pairs, truth, strict=True)])
    conf = np.array([ix.confidence if ix is not None else 0.0 for _, ix in pairs])
    whole_ok = np.array([p.label == t for (p, _), t in zip(pairs, truth, strict=True)])
    rows = np.array(in_row)
    return {"crops": hidden, "top1": round(float(ok.mean()), 5),
            "confident_mistakes": round(float(((~ok) & (conf >= 0.9)).mean()), 5),
            "read_at_0.9": round(float((ok & (conf >= 0.9)).mean()), 5),
            "top1_row": round(float(ok[rows].mean()), 5),
            "top1_held_fan": round(float(ok[~rows].mean()), 5),
            "whole_card_top1": round(float(whole_ok.mean()), 5)}


def _seconds_per_card(run: Callable[[], object], n: int, repeats: int) -> list[float]:
    """Seconds per card of ``repeats`` calls of ``run`` on ``n`` cards each."""
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        run()
        times.append((time.perf_counter() - t) / n)
    return times


def latency(clf: OnnxCardClassifier, crops: Sequence[Image], rng: np.random.Generator, say: Say) -> JSONObject:
    """Milliseconds per card on one thread: the card network alone (batch 1 and 64), and
    ``classify`` on crops as the table pipeline cuts them and with table round them."""
    say("timing ...")
    x1 = to_tensor(np.stack(crops[:1]))
    xb = to_tensor(np.stack(crops[:64]))
    for _ in range(20):
        clf.session.run(None, {"image": x1})
    t1 = _seconds_per_card(lambda: clf.session.run(None, {"image": x1}), 1, 300)
    tb = _seconds_per_card(lambda: clf.session.run(None, {"image": xb}), 64, 30)
    raw = [table_crop(render_card("7H", HELDOUT_DESIGN_SEEDS[0], px_per_mm=3.0, alpha=True), rng, px_per_mm=2.0)
           for _ in range(16)]
    tc = _seconds_per_card(lambda: clf.classify(raw), len(raw), 20)
    # the same crops at the size the table pipeline cuts (2 px/mm, 126 x 176): the classifier
    # stretches them 2 px wider instead of averaging them down
    w, h = round(CARD_MM[0] * 2), round(CARD_MM[1] * 2)
    cut = [cv2.resize(r, (w, h), interpolation=cv2.INTER_AREA) for r in raw]
    tt = _seconds_per_card(lambda: clf.classify(cut), len(cut), 20)
    out: JSONObject = {"batch1_median": round(float(np.median(t1)) * 1e3, 4),
                       "batched64_median_per_card": round(float(np.median(tb)) * 1e3, 4),
                       "classify_16_crops_with_preprocessing_per_card": round(float(np.median(tc)) * 1e3, 4),
                       "classify_16_table_pipeline_crops_per_card": round(float(np.median(tt)) * 1e3, 4),
                       "threads": 1}
    if clf.index_path is not None:  # recognize's reading of a card's corner index alone
        ti = _seconds_per_card(lambda: clf.read_indices(raw), len(raw), 20)
        out["read_indices_16_crops_with_preprocessing_per_card"] = round(float(np.median(ti)) * 1e3, 4)
    return out
