"""The bench's sections on decks and photos: enrolment of Decktet-like decks, ``recognize`` on
composed photos, and commercial-style reference decks never trained on."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from games.jsontypes import JSONObject
from vision.api import CONFIDENT
from vision.bench.crops import HeldOut
from vision.bench.scoring import Say, confusions, read_all, recall_precision, score_scene, scores, twins
from vision.classify import OnnxCardClassifier
from vision.doubt import court
from vision.enroll import enroll
from vision.errors import DeckError
from vision.recognize import read_card, recognize
from vision.render import CARD_IDS, HELDOUT_DESIGN_SEEDS, design_from_seed, index_box, render_card
from vision.render.commercial import COMMERCIAL_DECKS, load_deck
from vision.render.decktet import DECKTET_NAMES, render_decktet
from vision.render.photo import compose_scene, index_shown, loose_crop, table_crop

#: Decktet-like designs enrolled by the bench (each alone, one view per card).
ENROL_DESIGNS = (7, 11, 13, 17, 19, 23, 29, 31)
#: How the composed photos lay the cards out: apart, a straight overlapping row, a held fan.
LAYOUTS = ("scatter", "fan", "arc")
#: A card's corner index "shows" when no card lies over this share of it or more.
INDEX_SHOWN = 0.98


def enrolment(clf: OnnxCardClassifier, model_path: Path, held: HeldOut, rng: np.random.Generator,
              say: Say) -> JSONObject:
    """Decktet-like decks never trained on, each enrolled alone from one view a card, read on new
    views through the full camera model; and French cards, which must not be taken for them."""
    say("enrolment ...")
    right = sure_wrong = total = 0
    mistakes: dict[str, int] = {}
    stolen = fr_right = fr_total = 0
    picks = [i for i in range(0, len(held.crops), 7) if held.kinds[i] == "card"][:200]
    fr = [held.crops[i] for i in picks]
    fr_truth = [held.truth[i] for i in picks]
    for design in ENROL_DESIGNS:
        faces = {n: render_decktet(n, design, px_per_mm=3.0, alpha=True) for n in DECKTET_NAMES}
        views = [table_crop(faces[n], rng, strength=0.5, turn=False) for n in DECKTET_NAMES]
        deck = enroll(clf, f"bench-decktet-{design}", views, list(DECKTET_NAMES), save=False)
        with_deck = OnnxCardClassifier(model_path, decks=[deck])
        test_crops, test_truth = [], []
        for n in DECKTET_NAMES:
            for _ in range(5):
                test_crops.append(table_crop(faces[n], rng))
                test_truth.append(n)
        for p, t in zip(with_deck.classify(test_crops), test_truth, strict=True):
            total += 1
            right += p.label == t
            sure_wrong += p.label != t and p.confidence >= 0.9
            if p.label != t:
                mistakes[f"{t}->{p.label}"] = mistakes.get(f"{t}->{p.label}", 0) + 1
        for p, t in zip(with_deck.classify(fr), fr_truth, strict=True):
            fr_total += 1
            stolen += p.label in DECKTET_NAMES
            fr_right += p.label == t
    return {"deck": f"procedural Decktet-like, {len(ENROL_DESIGNS)} designs x 45 cards",
            "views_enrolled_per_card": 1, "test_views": total,
            "top1": round(right / total, 5),
            "confident_mistakes": round(sure_wrong / total, 5),
            "french_cards_taken_for_enrolled": round(stolen / fr_total, 5),
            "french_top1_with_deck_enrolled": round(fr_right / fr_total, 5),
            "mistakes": dict(sorted(mistakes.items(), key=lambda kv: -kv[1])[:8])}


def recognize_scenes(clf: OnnxCardClassifier, scenes: int, rng: np.random.Generator, say: Say) -> JSONObject | None:
    """``recognize`` on composed photos of 3 to 6 held-out cards (laid apart, a row, a held fan
    in turn): recall and precision, seconds a photo, and in rows and fans recall by what shows
    of each card's corner index."""
    if not scenes:
        return None
    say(f"recognize on {scenes} composed photos ...")
    per_layout = {lay: [0, 0, 0] for lay in LAYOUTS}  # found, missed, false
    by_index = {k: [0, 0] for k in ("shows", "partly_covered", "rank_only")}  # found, in all
    seconds = []
    for s in range(scenes):
        n = int(rng.integers(3, 7))
        d = HELDOUT_DESIGN_SEEDS[int(rng.integers(len(HELDOUT_DESIGN_SEEDS)))]
        ids = [CARD_IDS[int(i)] for i in rng.choice(54, n, replace=False)]
        layout = LAYOUTS[s % len(LAYOUTS)]
        img, corners = compose_scene([render_card(c, d, px_per_mm=3.0, alpha=True) for c in ids], rng, layout=layout)
        t = time.perf_counter()
        found = recognize(img, clf)
        seconds.append(time.perf_counter() - t)
        got = [f.card for f in found]
        score_scene(per_layout[layout], ids, got)
        if layout != "scatter":
            rank_only = design_from_seed(d).index_layout == 2
            for c, shown in zip(ids, index_shown(corners, [index_box(c, d) for c in ids]), strict=True):
                key = ("rank_only" if rank_only and c not in ("RJ", "BJ")
                       else "shows" if shown >= INDEX_SHOWN else "partly_covered")
                by_index[key][0] += c in got
                by_index[key][1] += 1
    return {**recall_precision(per_layout, scenes),
            "median_seconds_per_photo": round(float(np.median(seconds)), 3),
            "rows_and_held_fans_by_index": {k: {"cards": n, "recall": round(f / max(1, n), 4)}
                                            for k, (f, n) in by_index.items()}}


def _swapped(truth: Sequence[str], labels: Sequence[str], conf: np.ndarray) -> JSONObject:
    """How many readings swapped a black card's suit for the other (:func:`twins`), and how many
    of them surely: the mistake a table scores without asking."""
    return {"count": twins(truth, labels), "confident": twins(truth, labels, (conf >= CONFIDENT).tolist())}


def commercial(clf: OnnxCardClassifier, per_card: int, seed: int, say: Say, scenes: int = 6) -> JSONObject:
    """Commercial-style reference decks (:mod:`vision.render.commercial`): each face read clean
    (upright on white), ``per_card`` table crops a card, two loose photos a card (not the back)
    read by ``read_card``, and ``scenes`` composed photos read by ``recognize``. Each deck has
    random streams of its own; a deck that cannot be fetched is reported, not fatal."""
    out: JSONObject = {}
    for di, name in enumerate(COMMERCIAL_DECKS):
        say(f"commercial deck {name} ...")
        try:
            faces = load_deck(name, px_per_mm=3.0)
        except (DeckError, OSError) as exc:
            out[name] = {"error": str(exc)}
            continue
        ids = [c for c in CARD_IDS + ("back",) if c in faces]
        deck: JSONObject = {"faces": len(ids)}
        clean = []
        for c in ids:  # each face upright on white paper
            a = faces[c][..., 3:].astype(np.float32) / 255.0
            clean.append((faces[c][..., :3] * a + 255.0 * (1.0 - a)).round().astype(np.uint8))
        got = [p.label for p in clf.classify(clean)]
        deck["clean"] = {"faces": len(ids),
                         "top1": round(float(np.mean([g == t for g, t in zip(got, ids, strict=True)])), 5),
                         "mistakes": confusions(ids, got)}
        trng = np.random.default_rng([seed, 1618, di])
        crops, truth = [], []
        for c in ids:
            for _ in range(per_card):
                crops.append(table_crop(faces[c], trng))
                truth.append(c)
        labels, conf, ok = read_all(clf, crops, truth)
        courts = np.array([court(t) for t in truth])
        deck["table"] = {"crops": len(crops), **scores(ok, conf),
                         "top1_courts": round(float(ok[courts].mean()), 5),
                         "top1_not_courts": round(float(ok[~courts].mean()), 5),
                         "worst_confusions": confusions(truth, labels),
                         "clubs_spades_swapped": _swapped(truth, labels.tolist(), conf)}
        lrng = np.random.default_rng([seed, 1619, di])
        l_truth, l_read, l_conf = [], [], []
        for c in ids:
            if c == "back":
                continue
            for _ in range(2):
                img, _ = loose_crop(faces[c], lrng)
                d = read_card(img, clf)
                l_truth.append(c)
                l_read.append(d.card)
                l_conf.append(d.confidence)
        l_ok = np.array(l_read) == np.array(l_truth)
        deck["loose"] = {"photos": len(l_truth), **scores(l_ok, np.array(l_conf)),
                         "worst_confusions": confusions(l_truth, l_read),
                         "clubs_spades_swapped": _swapped(l_truth, l_read, np.array(l_conf))}
        if scenes:
            srng = np.random.default_rng([seed, 1620, di])
            counts = {lay: [0, 0, 0] for lay in LAYOUTS}
            cards = [c for c in ids if c != "back"]
            for s in range(scenes):
                chosen = [cards[int(i)] for i in srng.choice(len(cards), int(srng.integers(3, 7)), replace=False)]
                layout = LAYOUTS[s % len(LAYOUTS)]
                img, _corners = compose_scene([faces[c] for c in chosen], srng, layout=layout)
                score_scene(counts[layout], chosen, [f.card for f in recognize(img, clf)])
            deck["recognize"] = recall_precision(counts, scenes)
        out[name] = deck
    return {"note": "commercial-style decks never used in training (vision/render/commercial.py)",
            "table_crops_per_card": per_card, "decks": out}
