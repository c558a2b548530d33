"""``pegpi bench mat``: held-out designs dealt on a mat of any paper, read through a camera of any size."""

from __future__ import annotations

import json

import pytest

from pegpi.cli import main


def test_the_mat_bench_reads_a_deal_on_an_a1_mat_and_says_how_small_its_cards_are(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "mat", "--paper", "A1", "--designs", "1", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert (res["paper"], res["camera"], res["cards"]) == ("A1", "1280x720", 16)
    assert res["right"] + res["wrong"] + res["missed"] == 16 and res["right"] >= 14, res
    assert res["wrong_unasked"] == 0, res
    # an A1 mat seen whole at 720p shows its cards 60-72 px high (an A3 mat's about twice that)
    assert 50 < res["card_px"]["least"] <= res["card_px"]["median"] <= res["card_px"]["most"] < 80, res


@pytest.mark.parametrize(("args", "says"), [
    (["--camera", "1280"], "--camera: give the frame as WIDTHxHEIGHT, at least 160 a side (1280x720), not '1280'"),
    (["--camera", "100x100"], "--camera: give the frame as WIDTHxHEIGHT"),
    (["--paper", "B5"], "unknown paper 'B5'; choose one of A4, A3, A2, A1"),
    (["--designs", "0"], "the bench pool has 256 designs: ask for 1 to 256, not 0"),
    (["--pool", "mine"], "unknown design pool 'mine'"),
])
def test_the_mat_bench_names_a_value_it_cannot_take(args: list[str], says: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "mat", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("pegpi: error: ") and says in err and "Traceback" not in err
