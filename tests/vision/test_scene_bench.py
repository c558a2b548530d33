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
from tests.vision.conftest import BoxedPhotoMaker
from vision.render import HELDOUT_DESIGN_SEEDS, render_card
from vision.render.photo import compose_scene
from vision.scene_bench import Miss, Scene, SceneReading


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
    assert res["recall_interval"] == pytest.approx([0.3755, 0.9638], abs=1e-3)
    assert [m["missed"] for m in res["photos_with_misses"]] == [["7H"]]
    assert res["by_group"]["phone"]["found"] == 4
    assert res["skipped"][0]["photo"].endswith("broken.jpg")
    assert main(["bench", "scenes", str(tmp_path), "--every", "2"]) == 0
    out = capsys.readouterr().out
    assert "found 2 of 2 cards listed" in out
    assert main(["bench", "scenes", str(tmp_path), "--every", "2", "--megapixels", "12"]) == 0
    out = capsys.readouterr().out
    assert "each resized to 12 megapixels" in out and "found 2 of 2 cards listed" in out


def _cell(boxes: list[list[object]]) -> str:
    return '"' + json.dumps(boxes).replace('"', '""') + '"'


def test_a_missed_card_whose_index_is_boxed_is_told_why(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        boxed_photo: BoxedPhotoMaker) -> None:
    # a photo of KH, 3C and 9S whose list names the KH a KD (a wrong label, or a KD read as
    # the KH), and a 7D boxed on bare table beside the cards
    img, boxes = boxed_photo(["KH", "3C", "9S"], 1)
    cv2.imwrite(str(tmp_path / "one.jpg"), img)
    kd = ["KD", *boxes[0][1:]]
    table = ["7D", 5, 5, 40, 60]
    assert not any(b[1] < 60 and b[2] < 80 for b in boxes)  # the corner the 7D is boxed in is bare
    (tmp_path / "labels.csv").write_text(
        "file,cards,capture_group,boxes\n"
        f"one.jpg,KD 3C 9S 7D,phone,{_cell([kd, *boxes[1:], table])}\n")
    assert main(["bench", "scenes", str(tmp_path), "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    (photo,) = res["photos_with_misses"]
    assert sorted(photo["missed"]) == ["7D", "KD"]
    why = {w["card"]: w for w in photo["why"]}
    assert why["KD"]["why"] == "misread" and why["KD"]["read"] == "KH"
    assert why["7D"]["why"] == "unmarked"
    assert res["misses_by_why"] == {"misread": 1, "unmarked": 1, "marked_unsure": 0, "marked_other": 0}
    assert main(["bench", "scenes", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "missed 7D (its index not marked by the finder), KD (read as KH" in out
    # a photo resized before reading is not explained: its boxes are in the photo's own pixels
    assert main(["bench", "scenes", str(tmp_path), "--megapixels", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["photos_with_misses"][0]["why"] == []


def test_a_miss_the_mark_reader_saw_says_what_it_read() -> None:
    assert Miss("8C", "marked_unsure", "8C", 0.42, 0.42).said() == "8C (its index marked; the mark reader reads 8C 0.42)"
    assert Miss("QC", "marked_other", "QD", 0.49, 0.26).said() == \
        "QC (its index marked; the mark reader reads QD 0.49, QC 0.26)"


@pytest.mark.parametrize(("csv_text", "message"), [
    (None, "no labels.csv in"),
    ("file,cards\nIMG_1.jpg,4S KX\n", "line 2: 'KX' is no card"),
    ("name,what\nIMG_1.jpg,4S\n", "wants the columns file and cards"),
    ("file,cards\nIMG_1.jpg,\n", "line 2: a photo and at least one card are needed"),
    ("file,cards,boxes\nIMG_1.jpg,4S,\"[[\"\"4S\"\", 1]]\"\n", "line 2: boxes are not a JSON list"),
])
def test_a_bad_labels_file_gets_one_clear_line(tmp_path, capsys, csv_text, message) -> None:
    if csv_text is not None:
        (tmp_path / "labels.csv").write_text(csv_text)
    assert main(["bench", "scenes", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
