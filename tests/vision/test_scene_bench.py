"""`pegpi bench scenes`: someone with photos of several cards, the cards of each listed in a
labels.csv, learns how many cards recognize found, which it missed and what it read wrongly.
The photos are rendered held-out designs written to disk (the repository holds no photographs);
the command reads them exactly as it would read a phone's photos."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from pegpi.cli import main
from vision.render import HELDOUT_DESIGN_SEEDS, render_card
from vision.render.photo import compose_scene
from vision.scene_bench import Scene, SceneReading


def _scene(cards: list[str], seed: int) -> np.ndarray:
    rng = np.random.default_rng([seed, 9])
    faces = [render_card(c, HELDOUT_DESIGN_SEEDS[seed % 8], px_per_mm=3.0, alpha=True) for c in cards]
    img, _ = compose_scene(faces, rng, size=(960, 720), card_px=(200.0, 240.0), layout="scatter", strength=0.3)
    return img


def test_found_missed_and_wrong_cards_are_counted_per_photo() -> None:
    scene = Scene(Path("a.jpg"), ("4S", "6D", "6D"), frozenset({"back"}))
    r = SceneReading(scene, (("6D", 0.99), ("4C", 0.95), ("back", 0.9), ("6D", 0.6), ("6D", 0.5)), 1.0, 1.0)
    assert sum(r.found.values()) == 2 and r.missed == ["4S"]
    assert r.found_surely == 1  # one 6D surely; the other only at 0.6
    # the 4 of clubs is not listed, and a third 6D is one too many; the back is allowed
    assert r.wrong == [("4C", 0.95), ("6D", 0.5)]


def test_the_bench_reads_a_labelled_folder_and_names_misses_and_bad_files(tmp_path, capsys) -> None:
    cv2.imwrite(str(tmp_path / "table1.jpg"), _scene(["KH", "3C"], 1))
    cv2.imwrite(str(tmp_path / "table2.jpg"), _scene(["9D", "AS"], 2))
    (tmp_path / "broken.jpg").write_bytes(b"not a photo")
    (tmp_path / "labels.csv").write_text(
        "file,cards,other_labels,n_backs,capture_group\n"
        "table1.jpg,KH 3C,,,phone\n"
        "table2.jpg,9D AS 7H,,,phone\n"  # the 7 of hearts is listed but not in the photo
        "broken.jpg,2C,,,phone\n")
    assert main(["bench", "scenes", str(tmp_path), "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["photos"] == 2 and res["cards_listed"] == 5
    assert res["found"] == 4 and res["confident_mistakes"] == 0, res["photos_with_misses"]
    assert [m["missed"] for m in res["photos_with_misses"]] == [["7H"]]
    assert res["by_group"]["phone"]["found"] == 4
    assert res["skipped"][0]["photo"].endswith("broken.jpg")
    assert main(["bench", "scenes", str(tmp_path), "--every", "2"]) == 0
    out = capsys.readouterr().out
    assert "found 2 of 2 cards listed" in out
    assert main(["bench", "scenes", str(tmp_path), "--every", "2", "--megapixels", "12"]) == 0
    out = capsys.readouterr().out
    assert "each resized to 12 megapixels" in out and "found 2 of 2 cards listed" in out


@pytest.mark.parametrize(("csv_text", "message"), [
    (None, "no labels.csv in"),
    ("file,cards\nIMG_1.jpg,4S KX\n", "line 2: 'KX' is no card"),
    ("name,what\nIMG_1.jpg,4S\n", "wants the columns file and cards"),
    ("file,cards\nIMG_1.jpg,\n", "line 2: a photo and at least one card are needed"),
])
def test_a_bad_labels_file_gets_one_clear_line(tmp_path, capsys, csv_text, message) -> None:
    if csv_text is not None:
        (tmp_path / "labels.csv").write_text(csv_text)
    assert main(["bench", "scenes", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
