"""`pegpi mat` through the command line: the game picks the table protocol; bad input is one clean line."""

from __future__ import annotations

import cv2
import pytest

from pegpi.cli import main


def test_pegpi_mat_writes_the_game_s_mat(tmp_path, capsys):
    out = tmp_path / "cribbage.png"
    assert main(["mat", "--game", "cribbage", "--seats", "2", "--px-per-mm", "2", "-o", str(out)]) == 0
    assert cv2.imread(str(out)).shape == (594, 840, 3)
    said = capsys.readouterr().out
    assert "pegging mat for 2 seats on A3" in said and "crib (4)" in said


@pytest.mark.parametrize(("args", "message"), [
    (["--game", "nosuchgame", "--seats", "2"], "no game called 'nosuchgame'"),
    (["--game", "cribbage", "--seats", "2", "--paper", "A4"], "use A3"),
    (["--game", "cribbage", "--seats", "9"], "not 9"),
])
def test_pegpi_mat_refuses_bad_input_with_one_line(tmp_path, capsys, args, message):
    assert main(["mat", *args, "-o", str(tmp_path / "mat.pdf")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("pegpi: error:") and message in err
    assert not (tmp_path / "mat.pdf").exists()


def test_pegpi_mat_refuses_an_unknown_file_kind(tmp_path, capsys):
    assert main(["mat", "--game", "cribbage", "--seats", "2", "-o", str(tmp_path / "mat.svg")]) == 2
    assert "must end in .pdf or .png" in capsys.readouterr().err
