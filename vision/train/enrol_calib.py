"""Calibrate a model's enrolment threshold and record it in its ``cards.json``.

    python -m vision.train.enrol_calib build/model/cards.onnx

A card of an enrolled deck is recognised when its descriptor is at least this similar to an
enrolled view (:mod:`vision.enroll`). Each model's descriptors lie at similarities of their own
(one model puts new views of the same card at 0.95, another at 0.97), so the threshold is
measured for each model, on decks the bench never enrols:

- *right*: new views of each card of Decktet-like decks of :data:`DESIGNS`, each deck enrolled
  from one view a card, against the enrolled views of the same card;
- *impostors*: crops with no card in them and French cards of validation designs, against every
  enrolled view (the nearest one).

The threshold is halfway between the 1st percentile of *right* and the 99th of *impostors*.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from vision.classify import OnnxCardClassifier
from vision.enroll import enroll
from vision.model_input import preprocess
from vision.render import CARD_IDS, render_card
from vision.render.decktet import DECKTET_NAMES, render_decktet
from vision.render.photo import non_card_crop, table_crop
from vision.train.data import VAL_DESIGNS

#: Decktet-like designs to calibrate on: neither the bench's (``ENROL_DESIGNS``, 7-31) nor the tests'.
DESIGNS = tuple(range(1001, 1007))


def calibrate(model: Path, designs: tuple[int, ...] = DESIGNS, views: int = 3, seed: int = 0) -> dict[str, float]:
    """The threshold and the two percentiles it lies between (see the module's docstring)."""
    clf = OnnxCardClassifier(model)
    rng = np.random.default_rng([seed, 1009])
    impostors = [preprocess(non_card_crop(rng)) for _ in range(120)]
    for d in VAL_DESIGNS[:8]:
        for cid in CARD_IDS[::3]:
            impostors.append(preprocess(table_crop(render_card(cid, d, px_per_mm=3.0, rng=rng, alpha=True), rng)))
    imp_emb = clf.embed(impostors)
    right, impostor = [], []
    for design in designs:
        faces = {n: render_decktet(n, design, px_per_mm=3.0, alpha=True) for n in DECKTET_NAMES}
        # the deck as enrolment keeps it: each view and its augmented variants, embedded
        deck = enroll(clf, f"calibration-{design}", [table_crop(faces[n], rng, strength=0.5, turn=False)
                                                      for n in DECKTET_NAMES], list(DECKTET_NAMES), save=False)
        lab = np.array(deck.all_labels)
        tests = [table_crop(faces[n], rng) for n in DECKTET_NAMES for _ in range(views)]
        sims = clf.embed(tests) @ deck.embeddings.T
        right += [float(sims[k][lab == n].max()) for k, n in enumerate(np.repeat(DECKTET_NAMES, views))]
        impostor += list((imp_emb @ deck.embeddings.T).max(axis=1))
    r1, i99 = float(np.percentile(right, 1)), float(np.percentile(impostor, 99))
    return {"threshold": round((r1 + i99) / 2, 3), "right_p1": round(r1, 4), "impostor_p99": round(i99, 4)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.train.enrol_calib")
    ap.add_argument("model", type=Path, help="cards.onnx, with its cards.json beside it")
    args = ap.parse_args(argv)
    facts = calibrate(args.model)
    if facts["right_p1"] <= facts["impostor_p99"]:
        raise SystemExit(f"no threshold parts new views of enrolled cards from impostors: {facts}")
    meta_path = args.model.with_suffix(".json")
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    meta["enrolment"] = {**facts, "calibrated_on": f"Decktet-like designs {DESIGNS[0]}-{DESIGNS[-1]}, one view a card "
                                                   "enrolled; non-card crops and French cards of validation designs"}
    meta_path.write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(meta["enrolment"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
