"""`pegpi bench finder`: someone with photos whose printed corner indices are boxed in a CSV
learns how many of them the index finder marks, how many of its marks are right, and its time.
The photos are rendered held-out designs written to disk, read as a phone's photos would be."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from pegpi.cli import main
from tests.vision.conftest import BoxedPhotoMaker
from vision.errors import PhotoLabelError
from vision.finder_bench import read_boxes


def test_the_bench_counts_boxes_found_and_names_bad_files(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          boxed_photo: BoxedPhotoMaker) -> None:
    img1, boxes1 = boxed_photo(["KH", "3C", "9S"], 1)
    img2, boxes2 = boxed_photo(["7D", "AS"], 2)
    cv2.imwrite(str(tmp_path / "one.jpg"), img1)
    cv2.imwrite(str(tmp_path / "two.jpg"), img2)
    (tmp_path / "broken.jpg").write_bytes(b"not a photo")
    (tmp_path / "index.csv").write_text(
        "file,boxes,capture_group\n"
        + "".join(f"{name},\"{json.dumps(b).replace(chr(34), chr(34) * 2)}\",phone\n"
                  for name, b in (("one.jpg", boxes1), ("two.jpg", boxes2)))
        + "none.jpg,,phone\n"
        + "broken.jpg,\"[[\"\"2C\"\", 1, 1, 9, 9]]\",phone\n")
    assert main(["bench", "finder", str(tmp_path), "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["photos"] == 2 and res["boxes"] == 5
    assert res["found"] >= 4, res["photos_with_misses"]  # every top-left index of cards apart, or all but one
    assert res["by_group"]["phone"]["boxes"] == 5
    assert res["skipped"][0]["photo"].endswith("broken.jpg")
    assert res["median_cpu_ms_per_photo"] > 0
    assert main(["bench", "finder", str(tmp_path)]) == 0
    assert "printed indices boxed" in capsys.readouterr().out


def test_bad_box_lists_and_arguments_are_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(PhotoLabelError, match="no labels.csv or index.csv"):
        read_boxes(tmp_path)
    (tmp_path / "labels.csv").write_text("file,boxes\na.jpg,\"[[\"\"2C\"\", 1, 2]]\"\n")
    with pytest.raises(PhotoLabelError, match="line 2"):
        read_boxes(tmp_path)
    (tmp_path / "labels.csv").write_text("file,cards\na.jpg,2C\n")
    with pytest.raises(PhotoLabelError, match="file and boxes"):
        read_boxes(tmp_path)
    assert main(["bench", "finder", str(tmp_path)]) != 0
    assert "file and boxes" in capsys.readouterr().err
    assert main(["bench", "finder", str(tmp_path / "nowhere")]) != 0
    assert "no folder" in capsys.readouterr().err
    assert main(["bench", "finder", str(tmp_path), "--threshold", "2"]) != 0
    assert "between 0 and 1" in capsys.readouterr().err
