"""`pegpi bench composed`: someone with labelled photos of single cards sees how recognize does
with those same cards laid several to a photo (apart, in a row, in a held fan, in colour and
grey). The photos here are rendered held-out designs written to disk, the repository holding no
photographs; the command reads them as it would read a phone's."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from pegpi.cli import main
from vision.api import CARD_MM
from vision.classify import load_default_classifier
from vision.composed_bench import (
    FACE_PX,
    LAYOUTS,
    MAX_DARK_RUN,
    Face,
    composed_photos,
    cut_face,
    cut_faces,
    dark_run,
)
from vision.recognize import read_card
from vision.render import HELDOUT_DESIGN_SEEDS, index_box, render_card
from vision.render.photo import loose_crop
from vision.scene_bench import read_labels

CARDS = ("5H", "KC", "9D", "QS", "2C")


def _photo(label: str, seed: int) -> np.ndarray:
    rng = np.random.default_rng([seed, 86])
    face = render_card(label, HELDOUT_DESIGN_SEEDS[seed % 8], px_per_mm=3.0, rng=rng, alpha=True)
    image, _ = loose_crop(face, rng, max_turn=25.0, strength=0.3)
    return image


@pytest.fixture(scope="module")
def clf():
    return load_default_classifier()


@pytest.fixture
def singles(tmp_path: Path) -> Path:
    """Photos of single cards named after them; one named after the wrong card, one broken."""
    root = tmp_path / "singles"
    root.mkdir()
    for i, card in enumerate(CARDS):
        cv2.imwrite(str(root / f"{card}.png"), _photo(card, i))
    cv2.imwrite(str(root / "3D.png"), _photo("8S", 7))  # named after the wrong card
    (root / "AS.jpg").write_bytes(b"not a photo")
    return root


def test_a_card_is_cut_out_upright_and_reads_as_itself(clf) -> None:
    image = _photo("KC", 2)
    found = read_card(image, clf)
    assert found.card == "KC"
    face = cut_face(image, found)
    assert face.shape == (FACE_PX[1], FACE_PX[0], 4)
    assert face[0, 0, 3] == 0 and face[FACE_PX[1] // 2, FACE_PX[0] // 2, 3] == 255  # rounded corners
    assert clf.classify([face[..., :3]])[0].label == "KC"


def test_an_outline_that_holds_a_strip_of_table_is_told_apart() -> None:
    face = render_card("7H", HELDOUT_DESIGN_SEEDS[0], px_per_mm=3.0)
    face = cv2.resize(face, FACE_PX, interpolation=cv2.INTER_AREA)
    assert dark_run(face) <= MAX_DARK_RUN
    tabled = face.copy()
    tabled[:, :14] = (40, 70, 30)  # green felt down the whole left side
    assert dark_run(tabled) > MAX_DARK_RUN
    corner = face.copy()
    corner[:40, :30] = 0  # a dark index in the corner: a short run only
    assert dark_run(corner) <= MAX_DARK_RUN


def test_only_cards_read_right_and_surely_are_cut(singles, clf) -> None:
    from vision.photo_bench import collect

    cut = cut_faces(collect([singles]), clf)
    cards = [f.card for f in cut.faces]
    assert set(cards) <= set(CARDS) and len(cards) >= 3  # not the 8 of spades named 3D
    assert cut.misread + cut.unsure >= 1
    assert len(cut.faces) + cut.misread + cut.unsure + cut.table_in_outline == 6
    assert [p.endswith("AS.jpg") for p, _why in cut.unreadable] == [True]


def _faces() -> list[Face]:
    return [Face(c, render_card(c, HELDOUT_DESIGN_SEEDS[1], px_per_mm=3.0, alpha=True), Path(f"{c}.png"))
            for c in CARDS + ("4S", "JH")]


def test_composed_photos_are_the_same_for_a_seed_and_take_the_layouts_in_turn() -> None:
    first = list(composed_photos(_faces(), 6, seed=3))
    again = list(composed_photos(_faces(), 6, seed=3))
    assert all(np.array_equal(a.image, b.image) and a.cards == b.cards for a, b in zip(first, again, strict=True))
    assert [p.layout for p in first] == list(LAYOUTS) * 2
    assert [p.grey for p in first] == [False] * 3 + [True] * 3
    for p in first:
        assert 3 <= len(p.cards) <= 6 and len(set(p.cards)) == len(p.cards)
        b, g, r = cv2.split(p.image)
        assert np.array_equal(b, g) and np.array_equal(g, r) if p.grey else not np.array_equal(b, r)
    other = list(composed_photos(_faces(), 1, seed=4))
    assert not np.array_equal(other[0].image, first[0].image)
    with pytest.raises(ValueError, match="at least 3 different cards"):
        next(composed_photos(_faces()[:1] * 5, 1))


def test_the_bench_counts_found_cards_by_layout_and_keeps_photos_for_the_scenes_bench(
        singles, tmp_path, capsys) -> None:
    kept = tmp_path / "kept"
    assert main(["bench", "composed", str(singles), "--photos", "3", "--keep", str(kept), "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["mode"] == "composed" and res["photos"] == 3 and res["photos_of_singles"] == 7
    assert res["cards_cut"] >= 3 and res["not_cut"]["unreadable"] == 1
    assert sorted(res["by_group"]) == ["arc, colour", "fan, colour", "scatter, colour"]
    assert res["found"] <= res["cards_listed"] == sum(g["cards"] for g in res["by_group"].values())
    assert res["by_group"]["scatter, colour"]["found"] >= 3 - 1  # apart, few are missed
    scenes = read_labels(kept)
    assert len(scenes) == 3 and all(s.path.is_file() for s in scenes)
    assert sum(len(s.cards) for s in scenes) == res["cards_listed"]
    assert main(["bench", "scenes", str(kept), "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["found"] == res["found"] and again["confident_mistakes"] == res["confident_mistakes"]
    assert main(["bench", "composed", str(singles), "--photos", "3"]) == 0
    out = capsys.readouterr().out
    assert "3 photos composed of" in out and "by layout: arc, colour" in out and "skipped:" in out


def _boxed_single(label: str, seed: int) -> tuple[np.ndarray, list[float]]:
    """A photo of one card and the box round its top-left printed index, in its pixels."""
    rng = np.random.default_rng([seed, 86])
    design = HELDOUT_DESIGN_SEEDS[seed % 8]
    face = render_card(label, design, px_per_mm=3.0, rng=rng, alpha=True)
    image, corners = loose_crop(face, rng, max_turn=25.0, strength=0.3)
    x0, y0, x1, y1 = index_box(label, design)
    w, h = CARD_MM
    to_photo = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), np.float32(corners))
    box = cv2.perspectiveTransform(np.float32([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]]), to_photo)[0]
    return image, [*box.min(axis=0).tolist(), *box.max(axis=0).tolist()]


def test_the_singles_index_boxes_are_carried_onto_the_composed_photos(tmp_path, capsys) -> None:
    """Where the singles' folder boxes their printed indices, the kept photos box the indices
    that show, where the index finder marks them, and the cards missed are told why."""
    singles = tmp_path / "boxed"
    singles.mkdir()
    with (singles / "index.csv").open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(("file", "boxes"))
        for i, card in enumerate(CARDS + ("4S", "JH")):
            image, box = _boxed_single(card, i)
            cv2.imwrite(str(singles / f"{card}.png"), image)
            writer.writerow((f"{card}.png", json.dumps([[card, *(round(v, 1) for v in box)]])))
    kept = tmp_path / "kept"
    assert main(["bench", "composed", str(singles), "--photos", "6", "--keep", str(kept), "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    scenes = read_labels(kept)
    boxed = [label for s in scenes for label in s.box_labels]
    assert all(set(s.box_labels) <= set(s.cards) for s in scenes)
    # the top card of each photo shows its index: at least one box a photo
    assert all(s.box_labels for s in scenes) and len(boxed) >= res["cards_listed"] // 2
    assert main(["bench", "finder", str(kept), "--json"]) == 0
    marked = json.loads(capsys.readouterr().out)
    assert marked["boxes"] == len(boxed)
    # where the cards lie apart, each index shows whole: the finder marks nearly every box
    apart = [v for g, v in marked["by_group"].items() if g.startswith("scatter")]
    assert sum(v["found"] for v in apart) >= 0.9 * sum(v["boxes"] for v in apart) > 0, marked["by_group"]
    missed = res["cards_listed"] - res["found"]
    assert sum(res["misses_by_why"].values()) <= missed


@pytest.mark.parametrize("args, message", [
    (["--photos", "0"], "--photos wants a whole number"),
    (["--seed", "1"], "no photos"),
])
def test_bad_requests_get_one_clear_line(tmp_path, capsys, args, message) -> None:
    (tmp_path / "notes.txt").write_text("no photos here")
    assert main(["bench", "composed", str(tmp_path), *args]) != 0
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_too_few_cards_read_surely_to_compose_says_so(tmp_path, capsys) -> None:
    cv2.imwrite(str(tmp_path / "5H.png"), _photo("5H", 0))
    assert main(["bench", "composed", str(tmp_path), "--photos", "1"]) != 0
    assert "too few different cards" in capsys.readouterr().err


def test_a_broken_box_table_beside_the_singles_is_named(tmp_path, capsys) -> None:
    cv2.imwrite(str(tmp_path / "5H.png"), _photo("5H", 0))
    (tmp_path / "index.csv").write_text('file,boxes\n5H.png,"[[5H, 1, 2]]"\n')
    assert main(["bench", "composed", str(tmp_path), "--photos", "1"]) != 0
    err = capsys.readouterr().err
    assert "index.csv, line 2" in err and "Traceback" not in err
