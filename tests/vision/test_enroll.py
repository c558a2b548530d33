"""Enrolment round trip: a Decktet-like deck never seen in training, one view per card."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.classify import load_default_classifier
from vision.enroll import enroll, list_decks, load_decks, remove_deck
from vision.errors import EnrolError
from vision.render.decktet import DECKTET_NAMES, render_decktet
from vision.render.photo import table_crop


def test_enrol_save_load_recognise(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PEGPI_DATA", str(tmp_path))
    rng = np.random.default_rng(3)
    names = DECKTET_NAMES[::3]  # 15 cards
    faces = {n: render_decktet(n, 11, px_per_mm=3.0, alpha=True) for n in names}
    clf = load_default_classifier()
    enroll(clf, "decktet", [table_crop(faces[n], rng, strength=0.4, turn=False) for n in names], list(names))
    assert list_decks() == ["decktet"]
    assert (tmp_path / "decks" / "decktet.npz").exists()
    clf2 = load_default_classifier(["decktet"])
    assert set(names) <= set(clf2.labels)
    tests = [(n, table_crop(faces[n], rng, strength=0.8)) for n in names for _ in range(2)]
    preds = clf2.classify([c for _, c in tests])
    acc = np.mean([p.label == n for (n, _), p in zip(tests, preds, strict=True)])
    assert acc >= 0.9, acc
    # French cards and empty table are still read by the model, not taken for enrolled cards
    from vision.render import CARD_IDS, HELDOUT_DESIGN_SEEDS, render_card
    from vision.render.photo import non_card_crop

    french = [(c, table_crop(render_card(c, HELDOUT_DESIGN_SEEDS[1], px_per_mm=3.0, alpha=True), rng, strength=0.5))
              for c in CARD_IDS[::5]]
    fp = clf2.classify([x for _, x in french])
    assert not any(p.label in names for p in fp), [p.label for p in fp]
    assert np.mean([p.label == c for (c, _), p in zip(french, fp, strict=True)]) >= 0.9
    assert not any(p.label in names for p in clf2.classify([non_card_crop(rng) for _ in range(12)]))
    # the index reading knows French cards only: with a deck enrolled it does not speak
    assert all(index is None for _, index in clf2.classify_with_index([c for _, c in tests[:4]]))
    # all enrolled decks
    assert load_default_classifier(True).labels == clf2.labels
    assert remove_deck("decktet") and list_decks() == []


def test_threshold_belongs_to_the_model(tmp_path: Path) -> None:
    """A deck is matched with the threshold calibrated for the model it is read with (its
    ``cards.json``); a deck saved under another model is re-embedded and gets this model's."""
    from vision.enroll import EnrolledDeck, model_threshold

    clf = load_default_classifier()
    calibrated = clf.meta["enrolment"]["threshold"]
    assert model_threshold(clf) == calibrated
    assert calibrated < clf.meta["enrolment"]["right_p1"]  # new views of an enrolled card reach it
    view = render_decktet("the Author", 3, px_per_mm=2.0)
    assert enroll(clf, "new", [view], ["the Author"], folder=tmp_path, augment=0).threshold == calibrated
    deck = enroll(clf, "old", [view], ["the Author"], folder=tmp_path, threshold=0.5)
    assert deck.threshold_for(clf) == 0.5
    stale = EnrolledDeck(deck.name, deck.labels, deck.views, deck.embeddings[:, :7], "another-model", 0.5, deck.augment)
    assert stale.threshold_for(clf) == calibrated
    assert stale.embeddings_for(clf).shape == deck.embeddings.shape


def test_calibrated_threshold_parts_enrolled_cards_from_impostors() -> None:
    """The calibration behind a model's threshold, on one Decktet-like design: new views of its
    cards reach the threshold, non-card crops and French cards stay under it."""
    from vision.train.enrol_calib import calibrate

    clf = load_default_classifier()
    facts = calibrate(clf.model_path, designs=(1001,), views=1)
    assert facts["impostor_p99"] < facts["threshold"] < facts["right_p1"], facts
    assert abs(facts["threshold"] - clf.meta["enrolment"]["threshold"]) < 0.02, facts


def test_enrol_errors(tmp_path: Path) -> None:
    clf = load_default_classifier()
    with pytest.raises(EnrolError):
        enroll(clf, "x", [np.zeros((176, 126, 3), np.uint8)], ["a", "b"], folder=tmp_path)
    with pytest.raises(EnrolError):
        enroll(clf, "../evil", [np.zeros((176, 126, 3), np.uint8)], ["a"], folder=tmp_path)
    with pytest.raises(EnrolError):
        load_decks(["nope"], data_dir=tmp_path)
