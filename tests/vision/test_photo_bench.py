"""`pegpi bench photos`: someone who has photographed their own deck, each photo named after its
card, learns how well the model reads it, which photos it got wrong, and which files it could
not use. The photos here are rendered held-out designs written to disk, since the repository
holds no photographs; the command reads them exactly as it would read a phone's photos."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from pegpi.cli import main
from vision.classify import MODELS_DIR
from vision.errors import PhotoLabelError
from vision.images import at_megapixels
from vision.photo_bench import collect, label_of
from vision.photo_changes import CHANGES, changed
from vision.render import HELDOUT_DESIGN_SEEDS, render_card
from vision.render.photo import loose_crop, table_crop


@pytest.mark.parametrize(("name", "label"), [
    ("QS", "QS"), ("qs", "QS"), ("TH", "10H"), ("10h", "10H"), ("rj", "RJ"), ("Back", "back"),
    ("none", "unknown"), ("unknown", "unknown"), ("KX", None), ("IMG_0412", None), ("1H", None),
])
def test_a_photo_s_name_is_read_in_pegpi_s_card_notation(name, label):
    assert label_of(name) == label


def test_an_enrolled_card_s_name_is_a_label_only_with_its_deck():
    assert label_of("the author") is None
    assert label_of("the author", ["the Author"]) == "the Author"


def photo(label: str, seed: int, *, crop: bool = False) -> np.ndarray:
    rng = np.random.default_rng([seed, 5])
    face = render_card(label, HELDOUT_DESIGN_SEEDS[seed % 8], px_per_mm=3.0, rng=rng, alpha=True)
    if crop:
        return table_crop(face, rng)
    image, _ = loose_crop(face, rng, max_turn=25.0, strength=0.3)
    return image


@pytest.fixture
def album(tmp_path):
    """A folder of photos as someone would name them, one of them named after the wrong card."""
    root = tmp_path / "my deck"
    (root / "QS").mkdir(parents=True)
    (root / "extra").mkdir()
    cv2.imwrite(str(root / "5H.png"), photo("5H", 1))
    cv2.imwrite(str(root / "kc_1.jpg"), photo("KC", 2))
    cv2.imwrite(str(root / "KC-2.png"), photo("KC", 3))
    cv2.imwrite(str(root / "QS" / "IMG_0412.png"), photo("QS", 4))
    cv2.imwrite(str(root / "extra" / "9D 1.png"), photo("9D", 5))
    cv2.imwrite(str(root / "2C.png"), photo("7D", 6))   # named after the wrong card
    (root / "AS.jpg").write_bytes(b"not a photo at all")  # a broken file
    (root / "notes.txt").write_text("photos taken on the kitchen table")
    return root


def test_photos_are_found_under_folders_and_labelled_by_their_names(album):
    items = {p.relative_to(album).as_posix(): label for p, label in collect([album])}
    assert items == {"2C.png": "2C", "5H.png": "5H", "AS.jpg": "AS", "KC-2.png": "KC", "QS/IMG_0412.png": "QS",
                     "extra/9D 1.png": "9D", "kc_1.jpg": "KC"}


def test_a_photo_named_after_no_card_stops_the_measurement_and_is_named(album):
    (album / "IMG_2034.jpg").write_bytes(b"")
    with pytest.raises(PhotoLabelError, match="IMG_2034.jpg"):
        collect([album])


def test_the_bench_reports_top1_the_wrong_photo_and_the_unreadable_file(album, capsys):
    assert main(["bench", "photos", str(album), "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["mode"] == "photos"
    assert res["photos"] == 6 and res["right"] == 5 and res["top1"] == pytest.approx(5 / 6, abs=1e-4)
    # six photos say little: the share over all such photos may lie anywhere from 44 % to 97 %
    assert res["top1_interval"] == pytest.approx([0.4365, 0.9700], abs=1e-3)
    [wrong] = res["mistakes"]
    assert wrong["photo"].endswith("2C.png") and wrong["truth"] == "2C" and wrong["read"] == "7D"
    assert wrong["confidence"] >= 0.9 and res["confident_mistakes"] == 1
    assert res["confusions"] == [{"truth": "2C", "read": "7D", "count": 1}]
    [skipped] = res["skipped"]
    assert skipped["photo"].endswith("AS.jpg") and "not an image" in skipped["reason"]
    assert res["by_kind"] == {"courts": {"photos": 3, "right": 3, "confident_mistakes": 0},
                              "pip cards": {"photos": 3, "right": 2, "confident_mistakes": 1}}
    assert res["by_group"] == {"-": {"photos": 6, "right": 5, "confident_mistakes": 1}}
    assert res["black_suit_confusions"] == {"count": 0, "confident": 0}
    assert 0 < res["peak_mb"] and res["median_cpu_ms_per_photo"] > 0


def test_the_bench_prints_its_figures_for_a_person(album, capsys):
    assert main(["bench", "photos", str(album / "QS"), str(album / "5H.png"), str(album / "2C.png")]) == 0
    out = capsys.readouterr().out
    assert "3 photos of real cards read by cards.onnx" in out
    assert "top-1 66.67% (2 of 3; 95 % interval 20.8%-93.9%)" in out
    assert "wrong: " in out and "2C.png: 2C read as 7D" in out


def test_upright_crops_are_read_as_the_table_reads_them(tmp_path, capsys):
    for i, label in enumerate(("JH", "AD", "4C")):
        cv2.imwrite(str(tmp_path / f"{label}.png"), photo(label, 11 + i, crop=True))
    assert main(["bench", "photos", str(tmp_path), "--crops", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["mode"] == "crops" and res["photos"] == 3 and res["right"] == 3


def test_a_sample_of_every_nth_photo_read_as_recognize_reads(tmp_path, capsys):
    for i, label in enumerate(("JH", "AD", "4C", "9S")):
        cv2.imwrite(str(tmp_path / f"{label}.png"), photo(label, 21 + i))
    assert main(["bench", "photos", str(tmp_path), "--every", "2", "--recognize", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["mode"] == "recognize" and res["photos"] == 2  # 4C and JH, the first and third by name
    assert {m["truth"] for m in res["mistakes"]} <= {"4C", "JH"}
    assert main(["bench", "photos", str(tmp_path), "--every", "0"]) == 2
    assert "--every" in capsys.readouterr().err


@pytest.mark.parametrize(("args", "message"), [
    (["nowhere"], "no photo or folder at nowhere"),
    (["--model", "nosuch.onnx", "."], "no card model at nosuch.onnx"),
    (["--model", "empty", "."], "no card model at empty/cards.onnx"),
    (["--model", "torn.onnx", "."], "torn.onnx is not a readable ONNX network"),
])
def test_bad_paths_get_one_clear_line(tmp_path, capsys, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "empty").mkdir()
    (tmp_path / "torn.onnx").write_bytes(b"\x08\x07half a network")
    assert main(["bench", "photos", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("pegpi: error:") and message in err


def test_a_folder_without_photos_says_so(tmp_path, capsys):
    (tmp_path / "QS").mkdir()
    assert main(["bench", "photos", str(tmp_path)]) == 2
    assert "no photos" in capsys.readouterr().err


def test_figures_per_capture_group_and_swapped_black_suits(tmp_path, capsys):
    """An index.csv beside the photos names their capture groups; a club read as the spade of the
    same rank is counted among the swapped black suits."""
    cv2.imwrite(str(tmp_path / "4C.png"), photo("4C", 21))
    cv2.imwrite(str(tmp_path / "9S.png"), photo("9C", 22))  # named after the other black suit
    cv2.imwrite(str(tmp_path / "QH_2.png"), photo("QH", 23))
    (tmp_path / "index.csv").write_text("file,card,capture_group\n4C.png,4C,desk\n9S.png,9S,desk\n"
                                        "QH_2.png,QH,webcam\n")
    assert main(["bench", "photos", str(tmp_path), "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["by_group"]["desk"]["photos"] == 2 and res["by_group"]["webcam"] == {
        "photos": 1, "right": 1, "confident_mistakes": 0}
    assert res["by_group"]["desk"]["right"] == 1
    assert res["black_suit_confusions"]["count"] == 1
    assert main(["bench", "photos", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "by group: desk 1/2" in out and "clubs and spades swapped: 1" in out
    assert "by colour: colour 2/3" in out and "red and black swapped: 0" in out


def test_grey_photos_are_counted_apart_with_red_and_black_swaps(tmp_path, capsys):
    """Photos without colour get figures of their own, and a red card read as a black one (or the
    other way round) is counted."""
    grey = cv2.cvtColor(cv2.cvtColor(photo("9H", 24), cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    cv2.imwrite(str(tmp_path / "9H.png"), grey)
    cv2.imwrite(str(tmp_path / "4D.png"), photo("4S", 25))  # named after a red card
    assert main(["bench", "photos", str(tmp_path), "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["by_colour"]["no colour"]["photos"] == 1 and res["by_colour"]["colour"]["photos"] == 1
    assert res["by_colour"]["colour"]["right"] == 0
    assert res["red_black_confusions"]["count"] >= 1


def test_photos_are_timed_at_the_size_a_phone_takes_them(tmp_path, capsys):
    """``--megapixels 12`` reads each photo enlarged to a phone's 12 megapixels (the size the
    speed targets are for), says so, and gives the slow end of the times beside the median."""
    for i, label in enumerate(("JH", "4C")):
        cv2.imwrite(str(tmp_path / f"{label}.png"), photo(label, 31 + i))
    assert main(["bench", "photos", str(tmp_path), "--megapixels", "12", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["megapixels"] == 12 and res["photos"] == 2 and res["right"] == 2
    assert res["p90_cpu_ms_per_photo"] >= res["median_cpu_ms_per_photo"] > 0 and res["mean_cpu_ms_per_photo"] > 0
    assert main(["bench", "photos", str(tmp_path), "--megapixels", "12"]) == 0
    out = capsys.readouterr().out
    assert "each resized to 12 megapixels" in out and "90th percentile" in out
    assert main(["bench", "photos", str(tmp_path), "--megapixels", "0"]) == 2
    assert "--megapixels" in capsys.readouterr().err


@pytest.mark.parametrize(("shape", "megapixels"), [((480, 640, 3), 12.0), ((3000, 4000, 3), 1.0), ((700, 500, 3), 0.35)])
def test_a_photo_resized_to_a_number_of_megapixels_keeps_its_shape(shape, megapixels):
    image = np.zeros(shape, np.uint8)
    out = at_megapixels(image, megapixels)
    h, w = out.shape[:2]
    assert abs(h * w / 1e6 - megapixels) < 0.01 * megapixels
    assert abs(w / h - shape[1] / shape[0]) < 0.01 and out.shape[2:] == shape[2:]


def test_photos_are_read_changed_as_other_photos_may_differ(tmp_path, capsys):
    """``--change NAME`` reads each photo shaken, shrunk to a webcam's, turned, ... first (the
    hidden photos may differ from a folder's so), says how, and names the known changes when
    given an unknown one."""
    for i, label in enumerate(("JH", "4C")):
        cv2.imwrite(str(tmp_path / f"{label}.png"), photo(label, 41 + i))
    assert main(["bench", "photos", str(tmp_path), "--change", "shaken", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["change"] == "shaken" and res["photos"] == 2 and res["confident_mistakes"] == 0
    assert main(["bench", "photos", str(tmp_path), "--change", "turned"]) == 0
    assert "each turned 37 degrees" in capsys.readouterr().out
    assert main(["bench", "photos", str(tmp_path), "--change", "upside-down"]) == 2
    err = capsys.readouterr().err
    assert "no change called 'upside-down'" in err and "webcam" in err


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_each_change_gives_a_new_photo_the_same_for_the_same_seed(name):
    image = photo("7D", 51)
    once, again, other = changed(image, name, 3), changed(image, name, 3), changed(image, name, 4)
    assert once.dtype == np.uint8 and once.ndim == 3 and once.shape[2] == 3 and min(once.shape[:2]) >= 32
    assert np.array_equal(once, again)
    assert once.shape != image.shape or not np.array_equal(once, image)
    if name in ("webcam", "warm-noisy", "dim-noisy"):  # sensor noise: another photo, another draw
        assert not np.array_equal(once, other)


def test_a_model_is_named_by_its_folder_too(tmp_path, capsys):
    cv2.imwrite(str(tmp_path / "JH.png"), photo("JH", 11))
    assert main(["bench", "photos", str(tmp_path), "--model", str(MODELS_DIR), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["right"] == 1
