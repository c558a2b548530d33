"""recognize(): every card in composed photos, scattered, overlapping in a row or fanned in the
hand; and the CLI commands."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from pegpi.cli import main
from vision.api import CARD_MM, CONFIDENT
from vision.classify import load_default_classifier
from vision.recognize import _index_reader, _segment_hypotheses, _segments, ink_outlines, read_card, recognize
from vision.render import HELDOUT_DESIGN_SEEDS, index_box, render_card
from vision.render.photo import compose_scene, index_shown, loose_crop, non_card_crop, table_crop


def _scene(ids: list[str], layout: str, seed: int) -> tuple[np.ndarray, list[np.ndarray]]:
    rng = np.random.default_rng(seed)
    faces = [render_card(c, HELDOUT_DESIGN_SEEDS[seed % 64], px_per_mm=3.0, alpha=True) for c in ids]
    return compose_scene(faces, rng, layout=layout, size=(1024, 768), card_px=(200, 260), strength=0.4)


@pytest.mark.parametrize("seed", [1, 2])
def test_scattered_cards(seed: int) -> None:
    ids = ["AS", "10H", "QD", "7C"]
    img, corners = _scene(ids, "scatter", seed)
    found = recognize(img, load_default_classifier())
    got = {d.card: d for d in found}
    assert len(set(ids) & set(got)) >= 3, [d.card for d in found]
    for cid, quad in zip(ids, corners, strict=True):
        if cid in got:  # corners close to the truth, in either turn of the card
            d = got[cid].corners
            err = min(np.abs(d - np.roll(quad, k, axis=0)).max() for k in (0, 2))
            assert err < 40, err  # cards are 200-260 px tall here


def test_fanned_cards() -> None:
    ids = ["2S", "5H", "9D", "KC"]
    img, _ = _scene(ids, "fan", 3)
    found = recognize(img, load_default_classifier())
    # the cards under others show a strip with the index: the index network reads them; the
    # small grey box on the table beside them is not a card's back
    assert sorted(d.card for d in found) == sorted(ids), [d.card for d in found]


def test_held_fan() -> None:
    """A hand fanned round a point, as held: the front card is read where it lies, and the cards
    behind it, of which only a narrow strip with the index shows, bring at most one wrong
    reading (the index network reads most of them: see models/MODEL_CARD.md)."""
    ids = ["AS", "7H", "QD", "10C", "3S"]
    img, corners = _scene(ids, "arc", 5)
    found = recognize(img, load_default_classifier())
    got = {d.card: d for d in found}
    assert "3S" in got, list(got)
    err = min(np.abs(got["3S"].corners - np.roll(corners[-1], k, axis=0)).max() for k in (0, 2))
    assert err < 40, err
    assert len([g for g in got if g not in ids]) <= 1, list(got)


def test_held_fans_are_mostly_read() -> None:
    """Three hands fanned as held: most of the cards behind the front one are read from the
    narrow strip with their index, with no wrong card."""
    ids = ["AS", "7H", "QD", "10C", "3S"]
    found = wrong = 0
    for seed in (5, 6, 7):
        img, _ = _scene(ids, "arc", seed)
        got = {d.card for d in recognize(img, load_default_classifier())}
        found += len(got & set(ids))
        wrong += len(got - set(ids))
    assert found >= 14 and wrong == 0, (found, wrong)  # 15 of 15 (12 before neighbours' indices were kept apart)


def test_held_fans_every_card_whose_index_shows() -> None:
    """Ten hands fanned as held, on any table, in decks of every index style: nearly every card
    whose corner index no other card covers is found, and wrong cards are rare (the index
    network reads held-out decks; see models/MODEL_CARD.md for the bench's figures)."""
    ids = ["AS", "7H", "QD", "10C", "3S", "8D"]
    clf = load_default_classifier()
    shows = found = wrong = 0
    for seed in range(30, 40):
        img, corners = _scene(ids, "arc", seed)
        design = HELDOUT_DESIGN_SEEDS[seed % 64]
        got = {d.card for d in recognize(img, clf)}
        for cid, shown in zip(ids, index_shown(corners, [index_box(c, design) for c in ids]), strict=True):
            shows += shown >= 0.98
            found += shown >= 0.98 and cid in got
        wrong += len(got - set(ids))
    # 47, 45, 4 with v14 on renderer v2's designs; 49, 41, 1 with v15 on renderer v3's (its index
    # network trained 2600 steps); 49, 43, 3 with v16 on renderer v4's (5000 steps again); 49, 39, 3
    # with v17 on renderer v5's (index network 4000 steps on data with symbol-font pips), 49, 40, 3
    # with v18 (5000 steps), 49, 39, 2 with v19 and v21 (v18's index network): a loss the model card owns,
    # traded for reading the commercial-style decks' spades (floor 0.85 until v16); 49, 38, 0 with
    # v22's own index network (4000 steps on renderer v6's data), whose bench photos it reads at
    # 91.4 % recall and 99.2 % precision against v18's 89.9 and 94.0 % (floor 0.78 until v22)
    # 49, 40, 0 with v42's (4000 steps on renderer v7's data, 45 % courts); 49, 36, 3 with v41's,
    # the same trained 3000 steps, which is why v41 was not shipped (models/MODEL_CARD.md)
    assert found >= 0.77 * shows and wrong <= 0.1 * found, (shows, found, wrong)


@pytest.mark.parametrize(("layout", "seed"), [("fan", 2), ("arc", 21), ("arc", 25)])
def test_a_guess_only_its_own_corner_vouches_for_is_not_sure(layout: str, seed: int) -> None:
    """Hands of held-out designs where an outline guessed round an index read a card the hand
    does not hold at 0.93-0.97 (a 9S, a QH, a JD), its crop read whole as no such card and no
    mark reader reading it there: such a guess is read by its index alone and is not sure under
    0.97, so no card the hand does not hold is listed surely. The cards are still listed: the
    guesses held do not make the photo one card's."""
    ids = ["JH", "5S", "8S", "7D", "7H", "10H"]
    img, _ = _scene(ids, layout, seed)
    found = recognize(img, load_default_classifier())
    assert not [d for d in found if d.card not in ids and d.confidence >= CONFIDENT], found
    assert len({d.card for d in found} & set(ids)) >= 4, found


def test_index_corners_are_proposed_from_straight_edges_alone() -> None:
    """Held fans whatever the table: the ends of the photo's straight edges put a hypothesis at
    (nearly) every card's index corner, without outlining anything."""
    ids = ["AS", "7H", "QD", "10C", "3S", "8D"]
    near = total = 0
    for seed in range(20, 26):
        img, corners = _scene(ids, "arc", seed)
        height = float(np.median([np.linalg.norm(c[3] - c[0]) for c in corners]))
        hyps = _segment_hypotheses(_segments(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)), height)
        mm = CARD_MM[1] / height
        for c in corners:
            down = (c[3] - c[0]) / np.linalg.norm(c[3] - c[0])
            total += 1
            near += any(np.linalg.norm(q[0] - c[0]) * mm < 3.5  # what the nudges reach
                        and np.dot(q[3] - q[0], down) / np.linalg.norm(q[3] - q[0]) > np.cos(np.radians(4))
                        for q in hyps)
    assert near >= 0.8 * total, (near, total)


def test_no_index_reading_with_enrolled_decks() -> None:
    """The index network knows French cards only: with a deck enrolled, recognize reads no
    card from its corner index alone (whole outlines still read)."""
    clf = load_default_classifier()
    assert _index_reader(clf) is clf
    decktet = copy.copy(clf)
    decktet.labels = clf.labels + ("the Author",)  # an enrolled deck's card the model does not know
    assert decktet.enrolled_unknown and _index_reader(decktet) is None

    class WholeOnly:  # a classifier that reads whole crops only
        labels = clf.labels
        classify = clf.classify
    assert _index_reader(WholeOnly()) is None


def test_cli_classify_and_recognize(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    card = render_card("8S", HELDOUT_DESIGN_SEEDS[5], px_per_mm=2.0)
    cv2.imwrite(str(tmp_path / "card.png"), card)
    assert main(["classify", str(tmp_path / "card.png"), "--json", "--decks", "none"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["card"] == "8S" and 0 <= out["confidence"] <= 1
    img, _ = _scene(["AS", "KD"], "scatter", 4)
    cv2.imwrite(str(tmp_path / "photo.jpg"), img)
    assert main(["recognize", str(tmp_path / "photo.jpg"), "--json", "--decks", "none"]) == 0
    cards = json.loads(capsys.readouterr().out)
    assert {"AS", "KD"} <= {c["card"] for c in cards}
    assert all(len(c["corners"]) == 4 for c in cards)


def test_cli_says_which_readings_are_unsure(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """In a photo without colour a suited card's suit is never sure: both commands print the
    reading as unsure, as the table would ask about it; a sure reading is printed without it."""
    img, _ = _scene(["AS", "KD"], "scatter", 4)
    grey = cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    cv2.imwrite(str(tmp_path / "grey.png"), grey)
    cv2.imwrite(str(tmp_path / "colour.png"), img)
    assert main(["recognize", str(tmp_path / "grey.png"), str(tmp_path / "colour.png"), "--decks", "none"]) == 0
    grey_line, colour_line = capsys.readouterr().out.strip().splitlines()
    assert "AS (0.80, unsure)" in grey_line and "KD (0.80, unsure)" in grey_line, grey_line
    assert "unsure" not in colour_line and "AS (" in colour_line and "KD (" in colour_line, colour_line
    card = cv2.cvtColor(render_card("8S", HELDOUT_DESIGN_SEEDS[5], px_per_mm=2.0), cv2.COLOR_BGR2GRAY)
    cv2.imwrite(str(tmp_path / "card.png"), cv2.cvtColor(card, cv2.COLOR_GRAY2BGR))
    assert main(["classify", str(tmp_path / "card.png"), "--decks", "none"]) == 0
    assert capsys.readouterr().out.strip().endswith("(0.800, unsure)")


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_read_card_in_a_loose_photo(seed: int) -> None:
    """One card photographed with the table round it, at any angle: read, with its corners."""
    rng = np.random.default_rng(seed)
    ids = ["KS", "4D", "JH"]
    label = ids[seed % 3]
    img, quad = loose_crop(render_card(label, HELDOUT_DESIGN_SEEDS[seed], px_per_mm=3.0, rng=rng, alpha=True), rng)
    d = read_card(img, load_default_classifier())
    assert d.card == label, d
    err = min(np.abs(d.corners - np.roll(quad, k, axis=0)).max() for k in (0, 2))
    assert err < 0.12 * np.linalg.norm(quad[3] - quad[0]), err


def test_read_card_keeps_a_tight_upright_card_and_says_unknown_for_none() -> None:
    rng = np.random.default_rng(3)
    clf = load_default_classifier()
    card = table_crop(render_card("9C", HELDOUT_DESIGN_SEEDS[9], px_per_mm=3.0, alpha=True), rng, px_per_mm=2.0)
    assert read_card(card, clf).card == "9C"
    for _ in range(3):  # no card: nothing read as a card with confidence
        d = read_card(non_card_crop(rng), clf)
        assert d.card in ("unknown", "back") or d.confidence < 0.9, d
    with pytest.raises(ValueError, match="BGR image"):
        read_card(np.zeros((4, 4), np.uint8), clf)


def test_cli_classify_a_photo_of_a_turned_card(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = np.random.default_rng(21)
    img, _ = loose_crop(render_card("QS", HELDOUT_DESIGN_SEEDS[21], px_per_mm=3.0, rng=rng, alpha=True), rng,
                        max_turn=60)
    cv2.imwrite(str(tmp_path / "turned.jpg"), img)
    assert main(["classify", str(tmp_path / "turned.jpg"), "--json", "--decks", "none"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["card"] == "QS" and len(out["corners"]) == 4


def test_card_crop_for_enrolment() -> None:
    """Enrolment cannot read the card, so it crops by shape: a tight crop stays whole (the
    picture printed inside is no outline), a wide photo gives the card cut out of the table."""
    from vision.recognize import card_crop, warp
    from vision.render.decktet import render_decktet

    tight = render_decktet("the Author", 7, px_per_mm=2.0)
    assert card_crop(tight) is tight
    rng = np.random.default_rng(4)
    face = render_decktet("the Mill", 7, px_per_mm=3.0, alpha=True)
    for _ in range(20):  # a photo that is not card-shaped
        img, quad = loose_crop(face, rng)
        if not 1.25 <= max(img.shape[:2]) / min(img.shape[:2]) <= 1.6:
            break
    crop = card_crop(img)
    assert crop.shape == (176, 126, 3)
    ref = warp(img, quad)
    assert min(np.abs(crop.astype(int) - r.astype(int)).mean() for r in (ref, ref[::-1, ::-1])) < 25


def test_a_speckled_table_costs_the_mark_outlines_little_memory() -> None:
    """A card on a table of thousands of dark specks (a textured cloth, a composed photo's
    drawn table): the specks are marks as large as a pip, and the tilt their rows show was worked
    out over every pair of them, 110 MB for one photo (400 MB in a whole recognize). It is read
    from a group's largest marks, so the outlines cost a fraction of that and are still made."""
    import tracemalloc

    rng = np.random.default_rng(5)
    img = np.full((960, 1280, 3), 200, np.uint8)
    for y, x in zip(rng.integers(0, 960, 6000), rng.integers(0, 1280, 6000), strict=True):
        cv2.circle(img, (int(x), int(y)), 5, (40, 40, 40), -1)
    face = render_card("7S", HELDOUT_DESIGN_SEEDS[0], px_per_mm=3.0)
    img[300:300 + face.shape[0], 500:500 + face.shape[1]] = face
    tracemalloc.start()
    try:
        outlines = ink_outlines(img)
        peak = tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()
    assert outlines and peak < 60, (len(outlines), peak)
