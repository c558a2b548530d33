"""The shipped ONNX model: loads, agrees with its labels, reads unseen designs, rejects non-cards."""

from __future__ import annotations

import functools
import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.api import UNKNOWN, Prediction
from vision.classify import (
    CLUBS,
    LABELS,
    MODEL_FILE,
    MODELS_DIR,
    MOST_PER_RUN,
    SPADES,
    Looks,
    OnnxCardClassifier,
    load_default_classifier,
    weigh_suits,
)
from vision.doubt import DOUBT
from vision.model_input import half_turned, preprocess_batch, shifted, suit_rows, to_tensor
from vision.render import CARD_IDS, HELDOUT_DESIGN_SEEDS, render_card
from vision.render.photo import held_crop, non_card_crop, table_crop


@functools.lru_cache(maxsize=1)
def clf() -> OnnxCardClassifier:
    return load_default_classifier()


def test_model_file_and_labels() -> None:
    path = MODELS_DIR / MODEL_FILE
    assert path.exists() and path.stat().st_size < 5_000_000
    labels = (MODELS_DIR / "cards.labels.txt").read_text(encoding="utf-8").split()
    assert tuple(labels) == LABELS
    assert clf().labels == LABELS
    assert LABELS[:54] == CARD_IDS and LABELS[54:] == ("back", "unknown")
    probs, emb = clf().run([np.zeros((176, 126, 3), np.uint8)] * 3)
    assert probs.shape == (3, len(LABELS)) and emb.shape[0] == 3
    assert np.allclose(probs.sum(axis=1), 1, atol=1e-4)
    assert np.allclose(np.linalg.norm(emb, axis=1), 1, atol=1e-3)


def test_one_batched_call_any_size() -> None:
    crops = [render_card("5C", HELDOUT_DESIGN_SEEDS[2], px_per_mm=k) for k in (1.5, 2.0, 4.0)]
    preds = clf().classify(crops)
    assert all(isinstance(p, Prediction) for p in preds) and len(preds) == 3
    assert [p.label for p in preds] == ["5C"] * 3
    assert clf().classify([]) == []


def test_reads_cards_of_unseen_designs() -> None:
    rng = np.random.default_rng(5)
    crops, truth = [], []
    for design in HELDOUT_DESIGN_SEEDS[40:43]:
        for cid in CARD_IDS:
            crops.append(table_crop(render_card(cid, design, px_per_mm=3.0, alpha=True), rng, strength=0.6))
            truth.append(cid)
    preds = clf().classify(crops)
    acc = np.mean([p.label == t for p, t in zip(preds, truth, strict=True)])
    assert acc >= 0.93, acc
    turned = clf().classify([c[::-1, ::-1] for c in crops[:54]])
    assert np.mean([p.label == t for p, t in zip(turned, truth[:54], strict=True)]) >= 0.9


def test_backs_and_non_cards() -> None:
    rng = np.random.default_rng(6)
    backs = [table_crop(render_card("back", d, px_per_mm=3.0, alpha=True), rng, strength=0.5)
             for d in HELDOUT_DESIGN_SEEDS[:10]]
    assert np.mean([p.label == "back" for p in clf().classify(backs)]) >= 0.8
    junk = [non_card_crop(rng) for _ in range(40)]
    preds = clf().classify(junk)
    # a non-card is called unknown, or at least not read with confidence
    assert np.mean([p.label == "unknown" or p.confidence < 0.6 for p in preds]) >= 0.9


@pytest.mark.parametrize("cid", ["10H", "RJ", "BJ", "QS"])
def test_clean_heldout_cards(cid: str) -> None:
    crops = [render_card(cid, d, px_per_mm=2.0) for d in HELDOUT_DESIGN_SEEDS[:6]]
    assert np.mean([p.label == cid for p in clf().classify(crops)]) >= 0.8


def _calls_counted(model: OnnxCardClassifier) -> list[int]:
    """The number of crops in each call ``model`` makes of its card network from now on."""
    inner = model.session.session  # type: ignore[attr-defined]
    sizes: list[int] = []

    class Counting:
        def run(self, names: None, feed: dict[str, np.ndarray]) -> list[np.ndarray]:
            sizes.append(len(feed["image"]))
            return inner.run(names, feed)  # type: ignore[no-any-return]

    model.session.session = Counting()  # type: ignore[attr-defined]
    return sizes


def test_many_crops_at_once_are_read_in_parts_each_as_it_reads_alone() -> None:
    """However many cards are read at once, the model takes at most MOST_PER_RUN crops a call (so
    the memory a call needs stays bounded), and every crop reads exactly as it does alone."""
    rng = np.random.default_rng(4)
    crops = [table_crop(render_card(cid, HELDOUT_DESIGN_SEEDS[3], px_per_mm=3.0, alpha=True), rng, strength=0.6)
             for cid in CARD_IDS[:7]] + [non_card_crop(rng) for _ in range(4)]
    model = OnnxCardClassifier(clf().model_path)
    sizes = _calls_counted(model)
    x = to_tensor(preprocess_batch(crops))
    together = model.session.run(None, {"image": x})
    assert sizes and max(sizes) <= MOST_PER_RUN < len(crops) and sum(sizes) == len(crops)
    alone = [model.session.run(None, {"image": x[i:i + 1]}) for i in range(len(crops))]
    for k, output in enumerate(together):
        assert output.shape[0] == len(crops)
        assert np.allclose(output, np.concatenate([a[k] for a in alone]), atol=1e-5)
    assert [p.label for p in model.classify(crops)] == [model.classify([c])[0].label for c in crops]


def test_a_crop_read_surely_one_way_is_not_read_turned_round_and_an_unsure_one_is() -> None:
    rng = np.random.default_rng(8)
    crops = [table_crop(render_card(cid, HELDOUT_DESIGN_SEEDS[5], px_per_mm=3.0, alpha=True), rng, strength=0.6)
             for cid in ("7H", "KC", "2S", "AD")] + [non_card_crop(rng) for _ in range(8)]
    path = clf().model_path
    one_way = OnnxCardClassifier(path, both_ways=False).run(crops)[0]
    every = OnnxCardClassifier(path, sure_one_way=None).run(crops, embeddings=False)[0]
    adaptive = OnnxCardClassifier(path).run(crops, embeddings=False)[0]
    sure = one_way.max(axis=1) >= 0.999
    assert sure.any() and (~sure).any()  # the crops test both paths
    assert np.allclose(adaptive[sure], one_way[sure]) and np.allclose(adaptive[~sure], every[~sure])
    assert (adaptive.argmax(axis=1) == every.argmax(axis=1)).all()
    # whoever asks for the embeddings (enrolment) gets every crop read both ways round
    assert np.allclose(OnnxCardClassifier(path).run(crops)[0], every)


def test_a_crop_still_unsure_both_ways_round_is_read_again_moved_and_all_its_readings_averaged() -> None:
    rng = np.random.default_rng(9)
    cards = [table_crop(render_card(cid, HELDOUT_DESIGN_SEEDS[7], px_per_mm=3.0, alpha=True), rng, strength=1.0)
             for cid in ("QC", "JS", "9D", "3H")]
    crops = cards + [cv2.GaussianBlur(c, (0, 0), sigma) for c in cards for sigma in (2, 3, 4)]  # out of focus
    # patches of felt: no card, which moving would not make one
    crops += [np.clip(rng.normal(grey, 12, cards[0].shape), 0, 255).astype(np.uint8) for grey in (60, 120, 200)]
    path = clf().model_path
    two_ways = OnnxCardClassifier(path, shifts=(), suits=False).run(crops)[0]
    read = OnnxCardClassifier(path, suits=False).run(crops)[0]
    nothing = (two_ways.argmax(axis=1) == clf().model_labels.index(UNKNOWN)) & (two_ways.max(axis=1) >= 0.5)
    unsure = (two_ways.max(axis=1) < 0.99) & ~nothing
    # the crops test every path: sure, unsure, and no card (sure enough, yet under 0.99)
    assert unsure.any() and (~unsure).any() and (nothing & (two_ways.max(axis=1) < 0.99)).any()
    assert np.allclose(read[~unsure], two_ways[~unsure])
    # a first look over many outlines (moved=False) reads none of them moved
    first_look = OnnxCardClassifier(path, suits=False).outputs(crops, index=False, moved=False)[0]
    assert np.allclose(first_look, two_ways, atol=1e-6)
    # and so does classify asked for a first look (recognize's guesses, taken by their index)
    asked = OnnxCardClassifier(path, suits=False)
    assert np.allclose(asked.run(crops, moved=False)[0], two_ways, atol=1e-6)
    assert [p.label for p in asked.classify(crops, moved=False)] == \
        [asked.model_labels[k] for k in two_ways.argmax(axis=1)]
    assert not np.allclose(read[unsure], two_ways[unsure], atol=1e-3)  # moving changed the unsure ones
    # an unsure crop's reading: the mean of ten, as given and moved 3 px four ways, each both ways round
    pre = preprocess_batch(crops)
    views = [pre] + shifted(pre, ((3, 0), (-3, 0), (0, 3), (0, -3)))
    views += [half_turned(v) for v in views]
    session = clf().session
    each = [session.run(None, {"image": to_tensor(v)})[0] for v in views]  # each[5]: as given, turned
    assert np.allclose(read[unsure], np.mean(each, axis=0)[unsure], atol=1e-5)
    # a crop read only as given (sure_one_way 0: none is turned round) averages the nine it has
    once = OnnxCardClassifier(path, sure_one_way=0.0, suits=False).run(crops, embeddings=False)[0]
    nothing_once = (each[0].argmax(axis=1) == clf().model_labels.index(UNKNOWN)) & (each[0].max(axis=1) >= 0.5)
    unsure_once = (each[0].max(axis=1) < 0.99) & ~nothing_once
    assert unsure_once.any() and (~unsure_once).any()
    assert np.allclose(once[unsure_once], np.mean(each[:5] + each[6:], axis=0)[unsure_once], atol=1e-5)
    assert np.allclose(once[~unsure_once], each[0][~unsure_once], atol=1e-6)
    assert np.allclose(read.sum(axis=1), 1, atol=1e-4)
    # a crop moved keeps its picture: the edge is carried into the gap, nothing wraps round
    moved = shifted(pre[:1], [(3, 0)])[0][0]
    assert (moved[:, 3:] == pre[0][:, :-3]).all() and (moved[:, :3] == pre[0][:, :1]).all()


def test_unsure_crops_read_moved_go_to_the_network_in_bounded_calls() -> None:
    """Unsure crops read moved take at most MOST_PER_RUN rows a model call, however many views
    they have (the companion's memory stays bounded), and each reads as it does alone."""
    rng = np.random.default_rng(31)
    crops = [cv2.GaussianBlur(table_crop(render_card(cid, HELDOUT_DESIGN_SEEDS[9], px_per_mm=3.0, alpha=True), rng,
                                         strength=1.0), (0, 0), 3) for cid in ("7S", "QH", "2C", "9D", "JS")]
    model = OnnxCardClassifier(clf().model_path)
    sizes = _calls_counted(model)
    read = model.run(crops)[0]
    assert (read.max(axis=1) < model.sure_two_ways).sum() >= 2  # several crops were read moved
    assert len(sizes) > 2 * len(model.shifts) // MOST_PER_RUN and max(sizes) <= MOST_PER_RUN
    for k, crop in enumerate(crops):
        np.testing.assert_allclose(read[k], OnnxCardClassifier(clf().model_path).run([crop])[0][0], atol=1e-5)


def test_a_crop_read_again_moved_after_a_first_look_reads_as_if_read_moved_at_once() -> None:
    """A photo's outlines are looked at first unmoved, and those that may win read again moved:
    the first look is kept (:class:`Looks`) and not made again, and every reading (the card's,
    its suits weighed, its corner index) is exactly what reading the crop moved at once gives."""
    rng = np.random.default_rng(32)
    cards = [table_crop(render_card(cid, HELDOUT_DESIGN_SEEDS[11], px_per_mm=3.0, alpha=True), rng, strength=1.0)
             for cid in ("7S", "QH", "KC", "9D", "JS", "AC")]
    crops = cards + [cv2.GaussianBlur(c, (0, 0), 3) for c in cards]
    keys = [bytes([i]) for i in range(len(crops))]
    model = OnnxCardClassifier(clf().model_path)
    once = model.outputs(crops)
    looks = Looks()
    first = model.outputs(crops, moved=False, looks=looks.at(keys))
    sizes = _calls_counted(model)
    # all the crops again, moved: only the unsure ones' moved views go to the card network
    again = model.outputs(crops, looks=looks.at(keys))
    unsure = int((first[0].max(axis=1) < model.sure_two_ways).sum())
    assert 0 < unsure < len(crops) and sum(sizes) == 2 * len(model.shifts) * unsure
    for got, want in zip(again, once, strict=True):
        assert got is not None and want is not None and np.array_equal(got, want)
    # some kept, some new: the new ones are read as they are, each row as it reads alone
    mixed = model.outputs(crops[:3] + cards[::-1], looks=looks.at(keys[:3] + [b"new%d" % i for i in range(6)]))
    alone = model.outputs(crops[:3] + cards[::-1])
    for got, want in zip(mixed, alone, strict=True):
        assert got is not None and want is not None and np.array_equal(got, want)
    # a look is kept for the way it was read: read without the index, a crop is read afresh
    sizes.clear()
    model.outputs(crops[:1], index=False, looks=looks.at(keys[:1]))
    assert sizes


def test_a_black_card_read_unsure_has_its_clubs_and_spades_weighed_by_the_suit_network() -> None:
    """A crop read as a black card less surely than 0.99 has its clubs and spades weighed
    again by the suit networks, which read the top of the crop (the first alone an ace's large pip
    in its middle) both ways round; every other crop reads as the card network alone reads it. The
    suit networks tell the suit of clean held-out black cards."""
    assert clf().suit_session is not None
    rng = np.random.default_rng(23)
    ids = ("QC", "JS", "KC", "AS", "3C", "10S", "9D")
    cards = [table_crop(render_card(cid, HELDOUT_DESIGN_SEEDS[d], px_per_mm=3.0, alpha=True), rng, strength=1.0)
             for d in (5, 11, 19, 27) for cid in ids]
    crops = cards + [cv2.GaussianBlur(c, (0, 0), sigma) for c in cards for sigma in (2, 3)]  # out of focus
    path = clf().model_path
    plain = OnnxCardClassifier(path, suits=False).run(crops)[0]
    read = OnnxCardClassifier(path).run(crops)[0]
    weighed = np.isin(plain.argmax(axis=1), np.concatenate([SPADES, CLUBS])) & (plain.max(axis=1) < 0.99)
    assert weighed.any() and (~weighed).any()  # the crops test both paths
    np.testing.assert_allclose(read[~weighed], plain[~weighed], atol=1e-7)
    pre = preprocess_batch(crops)
    suit = clf().suit_session
    assert suit is not None
    h = suit.get_inputs()[0].shape[2]
    tops = clf().suit_tops_session
    aces = np.isin(plain.argmax(axis=1), [LABELS.index("AS"), LABELS.index("AC")])  # read at their large pip

    def odds(views: np.ndarray) -> np.ndarray:
        """Both networks' odds averaged on a top, the first network's alone on an ace's pip."""
        tensor = to_tensor(suit_rows(views, aces, h))
        first = suit.run(None, {"top": tensor})[0][:, 1]
        second = first if tops is None else tops.run(None, {"top": tensor})[0][:, 1]
        return np.where(aces, first, 0.5 * (first + second))

    clubs = 0.5 * (odds(pre) + odds(half_turned(pre)))
    np.testing.assert_allclose(read[weighed], weigh_suits(plain[weighed], clubs[weighed], SPADES, CLUBS), atol=1e-5)
    black = np.array([cid[-1] in "CS" for cid in ids * 4])
    said_clubs = clubs[:len(cards)][black] > 0.5
    is_clubs = np.array([cid.endswith("C") for cid in ids * 4])[black]
    assert (said_clubs == is_clubs).all()


class _SaysClubs:
    """A suit network that reads every black card as a club at 0.98 (the shipped one's inputs)."""

    def __init__(self, session) -> None:
        self.session = session

    def run(self, output_names, feed):
        return [np.tile(np.array([[0.02, 0.98]], np.float32), (len(feed["top"]), 1))]

    def get_inputs(self):
        return self.session.get_inputs()

    def get_outputs(self):
        return self.session.get_outputs()


def test_a_black_card_the_suit_network_reads_in_the_other_suit_is_never_read_surely() -> None:
    """However surely the card network reads a spade, a suit network reading it as a club makes
    the table ask (cardsJS's blurred spades were read the other way round: clubs at 0.93-0.96 by
    a card network that a suit network at 0.72-0.86 for spades could not outweigh). Clubs, which
    it backs, and red cards, which are not its business, read as before."""
    rng = np.random.default_rng(61)
    ids = ("QC", "JS", "KC", "AS", "3C", "10S", "9D", "KH", "7S")
    crops = [table_crop(render_card(cid, HELDOUT_DESIGN_SEEDS[d], px_per_mm=3.0, alpha=True), rng, strength=0.6)
             for d in (3, 8, 21) for cid in ids]
    stock = OnnxCardClassifier(clf().model_path).classify(crops)
    assert sum(p.label[-1] == "S" and p.confidence >= 0.99 for p in stock) >= 6  # past the suit network's weighing
    clubs = OnnxCardClassifier(clf().model_path)
    assert clubs.suit_session is not None
    clubs.suit_session = _SaysClubs(clubs.suit_session)
    if clubs.suit_tops_session is not None:
        clubs.suit_tops_session = _SaysClubs(clubs.suit_tops_session)
    read = clubs.classify(crops)
    for cid, p, q in zip(ids * 3, stock, read, strict=True):
        if q.label[-1] == "S":
            assert q.confidence <= DOUBT, (cid, p, q)
        elif p.label[-1] in "HD" or (p.label[-1] == "C" and p.confidence >= 0.99):
            assert q == p  # a red card, or a club the suit network backs and need not weigh


def test_an_ace_is_never_surely_of_a_suit_its_large_pip_denies() -> None:
    """An ace's suit is its one large pip as much as its indices: an ace printed with spades at its
    corners and a club in the middle (the pip a blurred cardsJS ace of spades was read by, the
    other way round) is not read surely as the ace of spades, though its corners are. The true
    aces of the same designs still read surely."""
    odd, true = [], []
    for d in (3, 4, 5, 7):
        spade = render_card("AS", HELDOUT_DESIGN_SEEDS[d], px_per_mm=3.0, alpha=True)
        club = render_card("AC", HELDOUT_DESIGN_SEEDS[d], px_per_mm=3.0, alpha=True)
        top, bottom = int(spade.shape[0] * 0.28), int(spade.shape[0] * 0.72)
        mixed = spade.copy()
        mixed[top:bottom] = club[top:bottom]
        rng = np.random.default_rng(d)
        odd += [table_crop(mixed, rng, strength=0.5, turn=False) for _ in range(3)]
        true += [table_crop(face, rng, strength=0.5, turn=False) for face in (spade, club)]
    assert all(p.confidence <= DOUBT for p in clf().classify(odd) if p.label == "AS")
    assert [p.label for p in clf().classify(true)] == ["AS", "AC"] * 4
    assert all(p.confidence >= 0.9 for p in clf().classify(true))


def test_weighing_suits_keeps_each_rank_and_multiplies_the_two_readings_of_its_suit() -> None:
    """A card network torn between a queen of clubs and of spades (0.56 / 0.42), and a suit network
    sure of clubs (0.96): the queen of clubs, surely. Where the suit network leans the other way a
    little, the card network's clear reading still holds; the rank's share never moves."""
    probs = np.zeros((3, len(LABELS)), np.float32)
    probs[:, LABELS.index("QC")], probs[:, LABELS.index("QS")], probs[:, LABELS.index("KC")] = 0.56, 0.42, 0.02
    probs[2, LABELS.index("QC")], probs[2, LABELS.index("QS")] = 0.90, 0.08
    out = weigh_suits(probs, np.array([0.96, 0.5, 0.4]), SPADES, CLUBS)
    qc, qs = LABELS.index("QC"), LABELS.index("QS")
    assert out[0, qc] == pytest.approx(0.98 * 0.56 * 0.96 / (0.56 * 0.96 + 0.42 * 0.04), rel=1e-5)
    assert out[0, qc] > 0.94 and LABELS[int(out[0].argmax())] == "QC"
    np.testing.assert_allclose(out[1], probs[1], atol=1e-7)  # a suit network that cannot tell changes nothing
    assert LABELS[int(out[2].argmax())] == "QC" and out[2, qc] < probs[2, qc]
    np.testing.assert_allclose(out[:, qc] + out[:, qs], probs[:, qc] + probs[:, qs], atol=1e-6)
    np.testing.assert_allclose(out[:, LABELS.index("KC")], probs[:, LABELS.index("KC")], atol=1e-7)  # KS is 0
    np.testing.assert_allclose(out.sum(axis=1), 1, atol=1e-6)


def test_a_card_of_which_only_the_index_shows_is_read_from_the_index() -> None:
    """The next cards of a row on the table, or of a fan held in the hand, cover all of a card
    but its index strip: the whole-card reading cannot tell it, the index network reads it, most
    of the time surely enough to be taken in a photo."""
    assert clf().reads_index
    rng = np.random.default_rng(12)
    crops, truth = [], []
    for i, design in enumerate(HELDOUT_DESIGN_SEEDS[:32]):
        cid = CARD_IDS[(7 * i) % 52]
        covers = [render_card(CARD_IDS[(7 * i + 13 + j) % 52], design, px_per_mm=2.5, alpha=True) for j in range(2)]
        crops.append(held_crop(render_card(cid, design, px_per_mm=3.0, alpha=True), covers, rng, px_per_mm=2.0,
                               strength=0.5, row=i % 2 == 0))
        truth.append(cid)
    pairs = clf().classify_with_index(crops)
    assert all(index is not None for _, index in pairs)
    whole = np.mean([p.label == t for (p, _), t in zip(pairs, truth, strict=True)])
    by_index = np.mean([index is not None and index.label == t for (_, index), t in zip(pairs, truth, strict=True)])
    sure_wrong = sum(index is not None and index.label != t and index.confidence >= 0.9
                     for (_, index), t in zip(pairs, truth, strict=True))
    sure = sum(index is not None and index.label == t and index.confidence >= 0.9
               for (_, index), t in zip(pairs, truth, strict=True))
    assert by_index >= 0.75 and whole < 0.5, (by_index, whole)
    # most are read surely, and few surely wrong (the bench's index-only figures: models/MODEL_CARD.md)
    assert sure >= 16, sure
    assert sure_wrong <= 3
    # the index network alone reads the same
    alone = clf().read_indices(crops)
    assert [p.label for p in alone] == [index.label for _, index in pairs if index is not None]
    # a non-card's corner is not read as a card
    junk = clf().classify_with_index([non_card_crop(rng) for _ in range(24)])
    assert sum(index is not None and index.label not in ("unknown", "back") and index.confidence >= 0.9
               for _, index in junk) <= 1


def test_corner_patches_left_unread_count_as_no_index() -> None:
    """A photo's hypotheses have their corners read only where the index finder marks an index:
    a card whose other corner is left unread reads as it does from both, and a card with no
    corner read reads as no card."""
    h, w = clf().index_shape
    corners = []
    for cid in ("AS", "7D", "QH"):
        crop = preprocess_batch([render_card(cid, HELDOUT_DESIGN_SEEDS[3], px_per_mm=2.0)])[0]
        corners.append([crop[:h, :w], half_turned(crop[None])[0, :h, :w]])
    patches = np.array(corners, np.uint8)  # (3 cards, 2 ways, h, w, 3)
    both = clf().read_corner_patches(patches)
    read = np.array([[True, False], [False, True], [False, False]])
    some = clf().read_corner_patches(patches, read)
    assert [p.label for p in both] == ["AS", "7D", "QH"]
    assert [p.label for p in some[:2]] == ["AS", "7D"]
    assert some[2].label == UNKNOWN


def test_corner_patches_read_by_rank_pool_the_suits_of_a_grey_index() -> None:
    """In a photo with no colour a red index may read as a black one: read by rank, the rank's
    suits are pooled, its reading at least as sure as any of its suits alone."""
    h, w = clf().index_shape
    corners = []
    for cid in ("4H", "9D", "QC"):
        crop = preprocess_batch([render_card(cid, HELDOUT_DESIGN_SEEDS[5], px_per_mm=2.0)])[0]
        grey = cv2.cvtColor(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
        corners.append([grey[:h, :w]])
    patches = np.array(corners, np.uint8)
    plain, pooled = clf().read_corner_patches(patches), clf().read_corner_patches(patches, ranks_only=True)
    for cid, p, r in zip(("4H", "9D", "QC"), plain, pooled, strict=True):
        assert r.label[:-1] == cid[:-1] and r.confidence >= p.confidence - 1e-6


def test_the_index_network_ships_beside_the_model(tmp_path: Path) -> None:
    """``cards.json`` names the index network's file (and the suit network's); it reads
    clean cards' corners, and a model whose index or suit network is missing says so instead of
    reading without it."""
    meta = json.loads((MODELS_DIR / "cards.json").read_text(encoding="utf-8"))
    index_file = MODELS_DIR / meta["index_model"]["file"]
    assert index_file.exists() and index_file.stat().st_size < 1_000_000
    crops = [render_card(cid, HELDOUT_DESIGN_SEEDS[3], px_per_mm=2.0) for cid in ("AS", "7D", "QH", "10C")]
    assert [p.label for p in clf().read_indices(crops)] == ["AS", "7D", "QH", "10C"]
    for name in (MODEL_FILE, "cards.json", "cards.labels.txt"):
        shutil.copy(MODELS_DIR / name, tmp_path / name)
    with pytest.raises(FileNotFoundError, match="cards_index.onnx"):
        OnnxCardClassifier(tmp_path / MODEL_FILE)
    # so does one whose suit network is missing, unless told to read without it
    shutil.copy(index_file, tmp_path / index_file.name)
    suit_file = MODELS_DIR / meta["suit_model"]["file"]
    assert suit_file.exists() and suit_file.stat().st_size < 500_000
    with pytest.raises(FileNotFoundError, match="cards_suit.onnx"):
        OnnxCardClassifier(tmp_path / MODEL_FILE)
    assert OnnxCardClassifier(tmp_path / MODEL_FILE, suits=False).suit_session is None
    # and the second suit network, read beside it on cards' tops
    shutil.copy(suit_file, tmp_path / suit_file.name)
    with pytest.raises(FileNotFoundError, match="cards_suit_tops.onnx"):
        OnnxCardClassifier(tmp_path / MODEL_FILE)
    shutil.copy(MODELS_DIR / meta["suit_tops_model"]["file"], tmp_path / meta["suit_tops_model"]["file"])
    assert OnnxCardClassifier(tmp_path / MODEL_FILE).suit_tops_session is not None
