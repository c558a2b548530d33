"""The index finder marks where a photo shows corner indices, and recognize reads what is near."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.recognize as recognize_module
from vision.api import CARD_MM
from vision.classify import LABELS, OnnxCardClassifier, load_default_classifier
from vision.enroll import enroll
from vision.errors import ModelFileError
from vision.finder import IndexFinder, IndexMark, finder_for, mark_reader_for
from vision.recognize import _near_marks, _near_ways, recognize
from vision.render import HELDOUT_DESIGN_SEEDS, index_box, render_card
from vision.render.decktet import DECKTET_NAMES, render_decktet
from vision.render.photo import compose_scene, index_shown, table_crop


def _scene(seed: int, cards: tuple[str, ...], layout: str) -> tuple[np.ndarray, list[np.ndarray], int]:
    rng = np.random.default_rng(seed)
    design = HELDOUT_DESIGN_SEEDS[seed % len(HELDOUT_DESIGN_SEEDS)]
    faces = [render_card(c, design, px_per_mm=3.0, rng=rng, alpha=True) for c in cards]
    image, corners = compose_scene(faces, rng, size=(960, 720), card_px=(170.0, 260.0), layout=layout, strength=0.5)
    return image, corners, design


SCENES = [(11, ("7H", "QS", "3D"), "scatter"), (12, ("AC", "10H", "KD", "5S"), "fan"),
          (13, ("2S", "JH", "9C", "4D", "8S"), "arc"), (14, ("6C", "AH"), "scatter")]


def _index_middle(quad: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
    """Where the middle of a card's top-left index ``box`` (mm) lies in the photo, the card at ``quad``."""
    u, v = (quad[1] - quad[0]) / CARD_MM[0], (quad[3] - quad[0]) / CARD_MM[1]
    return quad[0] + u * (box[0] + box[2]) / 2 + v * (box[1] + box[3]) / 2


def _finder() -> IndexFinder:
    finder = finder_for(load_default_classifier())
    assert finder is not None, "the shipped model names an index finder"
    return finder


def test_the_finder_marks_the_indices_a_photo_shows() -> None:
    # cards of designs it never trained on, scattered, spread and held: an uncovered top-left
    # index has a mark at its middle (within a quarter of the card's width)
    finder = _finder()
    shown = marked = 0
    for seed, cards, layout in SCENES:
        image, corners, design = _scene(seed, cards, layout)
        marks = np.array([(m.x, m.y) for m in finder.find(image)]).reshape(-1, 2)
        boxes = [index_box(c, design) for c in cards]
        for quad, box, share in zip(corners, boxes, index_shown(corners, boxes), strict=True):
            if share < 1.0:
                continue
            middle = _index_middle(quad, box)
            shown += 1
            reach = 0.25 * float(np.linalg.norm(quad[1] - quad[0]))
            marked += int(len(marks) > 0 and float(np.hypot(*(marks - middle).T).min()) <= reach)
    assert shown >= 8
    assert marked >= 0.9 * shown, f"{marked} of {shown} shown indices marked"


def test_a_plain_table_has_no_marks() -> None:
    finder = _finder()
    felt = np.full((480, 640, 3), (40, 110, 30), np.uint8)
    noise = np.random.default_rng(0).normal(0, 4, felt.shape)
    table: np.ndarray = np.clip(felt + noise, 0, 255).astype(np.uint8)
    assert finder.find(table) == []


def test_marks_are_in_the_photos_own_pixels_whatever_its_size() -> None:
    finder = _finder()
    image, _corners, _design = _scene(12, SCENES[1][1], "fan")
    small = cv2.resize(image, (480, 360), interpolation=cv2.INTER_AREA)
    big, half = finder.find(image), finder.find(small)
    assert big and all(isinstance(m, IndexMark) for m in big)
    # the same photo twice the size: each clear mark twice as far from the corner (within a cell
    # there; a mark near the threshold may come and go with the resampling)
    assert any(m.strength >= 0.4 for m in half)
    for m in (m for m in half if m.strength >= 0.4):
        gap = min(np.hypot(b.x - 2 * m.x, b.y - 2 * m.y) for b in big)
        assert gap <= 2 * 4 * 2, (m, gap)


def test_what_is_not_a_photo_is_refused_by_name() -> None:
    finder = _finder()
    with pytest.raises(ValueError, match="colour photo"):
        finder.find(np.zeros((100, 100), np.uint8))
    with pytest.raises(ValueError, match="colour photo"):
        finder.find(np.zeros((4, 100, 3), np.uint8))


def test_hypotheses_are_near_a_mark_of_their_size_by_either_index_corner() -> None:
    quad = np.array([[100, 100], [163, 100], [163, 188], [100, 188]], np.float32)  # 1 px a mm

    def mark(x: float, y: float, size: float = 16.0) -> np.ndarray:  # an index about a fifth of the card high
        return np.array([[x, y, size]], np.float32)

    tl = (100 + 0.087 * 63, 100 + 0.125 * 88)
    top_left = mark(*tl)
    bottom_right = mark(163 - 0.087 * 63, 188 - 0.125 * 88)
    far = mark(400, 400)
    assert _near_marks([quad], top_left) == [True]
    assert _near_marks([quad], bottom_right) == [True]
    assert _near_marks([quad], bottom_right, ways=1) == [False]  # a guess at one corner: that corner only
    assert _near_marks([quad], far) == [False]
    assert _near_marks([quad], None) == [True]  # no finder, or nothing marked: nothing is passed over
    # each index corner is read only where it is near a mark
    assert _near_ways([quad], top_left).tolist() == [[True, False]]
    assert _near_ways([quad], bottom_right).tolist() == [[False, True]]
    assert _near_ways([quad], np.concatenate([top_left, far])).tolist() == [[True, False]]
    # a mark a quarter of the card's width away, or of another card's size (a pip, a close-up's
    # index), is no index of this hypothesis
    assert _near_marks([quad], mark(tl[0] + 0.25 * 63, tl[1])) == [False]
    assert _near_marks([quad], mark(*tl, size=3)) == [False]
    assert _near_marks([quad], mark(*tl, size=45)) == [False]
    assert _near_marks([quad], mark(tl[0] + 0.1 * 63, tl[1], size=8)) == [True]


def test_recognize_finds_the_same_cards_reading_only_near_marks(tmp_path: Path, model_copy: Path) -> None:
    meta = json.loads((tmp_path / "cards.json").read_text())
    del meta["finder_model"]
    (tmp_path / "cards.json").write_text(json.dumps(meta))
    everything, marked = OnnxCardClassifier(model_copy), load_default_classifier()
    assert finder_for(everything) is None
    for seed, cards, layout in SCENES[1:3]:
        image, _corners, _design = _scene(seed, cards, layout)
        near = {d.card for d in recognize(image, marked) if d.confidence >= 0.9}
        every = {d.card for d in recognize(image, everything) if d.confidence >= 0.9}
        assert every <= near, f"{sorted(every - near)} lost reading only near marks"
        assert near <= set(cards)


def test_the_mark_reader_reads_indices_of_designs_it_never_saw() -> None:
    # at the mark nearest each uncovered top-left index of held-out designs, the card is read,
    # and no index is read as another card at 0.9 or more
    finder, reader = _finder(), mark_reader_for(load_default_classifier())
    assert reader is not None, "the shipped model names a mark reader"
    shown = right = sure_wrong = 0
    for seed, cards, layout in SCENES:
        image, corners, design = _scene(seed, cards, layout)
        marks = finder.find(image)
        probs = reader.probabilities(image, marks)
        boxes = [index_box(c, design) for c in cards]
        for card, quad, box, share in zip(cards, corners, boxes, index_shown(corners, boxes), strict=True):
            if share < 1.0:
                continue
            middle = _index_middle(quad, box)
            j = int(np.argmin([np.hypot(m.x - middle[0], m.y - middle[1]) for m in marks]))
            read = LABELS[int(probs[j].argmax())]
            shown += 1
            right += read == card
            sure_wrong += read != card and probs[j].max() >= 0.9
    assert shown >= 10
    assert right >= 0.7 * shown, f"{right} of {shown} indices read"
    assert sure_wrong == 0


def test_a_missing_or_broken_finder_is_named(tmp_path: Path, model_copy: Path) -> None:
    (tmp_path / "cards_finder.onnx").write_bytes(b"not a network")
    with pytest.raises(ModelFileError, match="cards_finder.onnx"):
        IndexFinder(tmp_path / "cards_finder.onnx")
    (tmp_path / "cards_finder.onnx").unlink()
    with pytest.raises(ModelFileError, match="names an index finder"):
        finder_for(OnnxCardClassifier(model_copy))


def test_the_finder_is_asked_by_the_model_alone_while_a_deck_is_enrolled(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    # it knows French indices, as the index network does: an enrolled deck's cards (the Decktet's)
    # print other marks, and a filter by French indices would pass them over; the French cards
    # are searched for by the model alone
    monkeypatch.setenv("PEGPI_DATA", str(tmp_path))
    rng = np.random.default_rng(4)
    names = list(DECKTET_NAMES[:3])
    faces = [render_decktet(n, 11, px_per_mm=3.0, alpha=True) for n in names]
    french = load_default_classifier()
    enroll(french, "decktet", [table_crop(f, rng, strength=0.4, turn=False) for f in faces], names, augment=0)
    enrolled = load_default_classifier(["decktet"])
    asked: list[object] = []
    monkeypatch.setattr(recognize_module, "finder_for", lambda c: asked.append(c))
    image, _corners = compose_scene(faces, rng, size=(960, 720), card_px=(200.0, 240.0), layout="scatter", strength=0.3)
    recognize(image, enrolled)
    assert asked and all(c is not enrolled and not getattr(c, "decks", None) for c in asked)
    asked.clear()
    recognize(image, french)
    assert asked and all(c is french for c in asked)  # by recognize, and by its one-card search if it runs
