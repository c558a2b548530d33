"""How `pegpi bench recognition` (vision.bench) counts its figures: the model card and the
README rest on them."""

from __future__ import annotations

import pytest

from vision.bench.scoring import interval, recall_precision, score_scene, twins


def test_a_card_read_twice_counts_once_found_and_once_false() -> None:
    counts = [0, 0, 0]
    score_scene(counts, ["AS", "10H", "QD"], ["AS", "AS", "7C"])
    assert counts == [1, 2, 2]  # AS found; 10H and QD missed; the second AS and the 7C false


def test_recall_and_precision_over_all_photos_and_by_layout() -> None:
    per_layout = {"scatter": [0, 0, 0], "fan": [0, 0, 0], "arc": [0, 0, 0]}
    score_scene(per_layout["scatter"], ["AS", "2S", "3S"], ["AS", "2S", "3S"])
    score_scene(per_layout["fan"], ["4H", "5H", "6H", "7H"], ["4H", "5H", "KC"])
    figures = recall_precision(per_layout, 2)
    assert (figures["found"], figures["missed"], figures["false"]) == (5, 2, 1)
    assert figures["recall"] == round(5 / 7, 4) and figures["precision"] == round(5 / 6, 4)
    assert figures["by_layout"]["scatter"] == {"recall": 1.0, "precision": 1.0}
    assert figures["by_layout"]["fan"] == {"recall": 0.5, "precision": round(2 / 3, 4)}
    assert figures["by_layout"]["arc"] == {"recall": 0.0, "precision": 0.0}


def test_a_framed_crop_is_seen_closer_or_further_about_its_centre() -> None:
    import numpy as np

    from vision.bench.crops import framed

    crop = np.full((176, 128, 3), 255, np.uint8)
    crop[88 + 40, 64 + 20] = 0  # a dark dot 40 px below and 20 px right of the centre
    assert np.array_equal(framed(crop, 1.0), crop)
    for scale in (0.9, 1.1):
        out = framed(crop, scale)
        assert out.shape == crop.shape
        y, x = np.unravel_index(np.argmin(out[..., 0]), out.shape[:2])
        assert (int(y), int(x)) == (round(88 + 40 * scale), round(64 + 20 * scale))
        assert out[0, 0, 0] == 255  # a zoom out carries the paper's edge, not black, into the frame


def test_the_framing_section_reads_the_held_out_crops_at_every_scale() -> None:
    from vision.bench.crops import FRAMINGS
    from vision.bench.recognition import run_bench

    res = run_bench(designs=1, sections=["framing"])
    assert res["framing"]["crops"] == res["heldout"]["crops"] == 61  # 54 cards, a back, 6 non-cards
    assert list(res["framing"]["scales"]) == [f"{s:g}" for s in FRAMINGS]
    for figures in res["framing"]["scales"].values():
        assert figures["top1"] == round(1 - figures["mistakes"] / 61, 5)
        assert figures["top1"] > 0.9  # one design's cards still read when framed up to 10 % off


def test_the_default_bench_reads_the_designs_it_always_read_and_the_pools_never_meet() -> None:
    from vision.bench.recognition import design_seeds
    from vision.render import HELDOUT_DESIGN_SEEDS, TRAIN_DESIGN_RANGE, is_heldout

    # figures of the default bench stay comparable with every earlier model's
    assert design_seeds("bench", 64) == HELDOUT_DESIGN_SEEDS
    bench, selection = design_seeds("bench", 256), design_seeds("selection", 256)
    assert len(set(bench)) == len(set(selection)) == 256
    assert not set(bench) & set(selection)  # choosing a model never looks at a design it is reported on
    assert all(is_heldout(d) and d not in TRAIN_DESIGN_RANGE for d in bench + selection)


def test_a_pool_asked_for_more_designs_than_it_has_is_refused_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    from pegpi.cli import main

    for argv in (["--designs", "257"], ["--designs", "0"], ["--pool", "selection", "--designs", "999"]):
        assert main(["bench", "recognition", "--only", "heldout", *argv]) == 2
        err = capsys.readouterr().err
        assert "--designs" in err and "1 to 256" in err
    with pytest.raises(SystemExit):
        main(["bench", "recognition", "--pool", "training"])


def test_clubs_spades_twins_are_counted_apart_from_other_mistakes() -> None:
    truth = ["KS", "QC", "10C", "AS", "KS", "5H"]
    read = ["KC", "QS", "10S", "AS", "QS", "5D"]
    assert twins(truth, read) == 3  # KS/KC, QC/QS and 10C/10S; not AS (right), KS/QS, 5H/5D
    # of them, those read surely: the swaps a table scores without asking
    assert twins(truth, read, [True, False, True, True, True, True]) == 2


def test_the_commercial_report_says_how_often_a_black_suit_was_swapped() -> None:
    from vision.bench.report import report_lines

    def deck(swapped: int, sure: int) -> dict[str, object]:
        return {"faces": 55, "clean": {"top1": 1.0},
                "table": {"crops": 220, "top1": 0.99, "top1_courts": 0.98, "confident_mistakes": 0.01,
                          "worst_confusions": {"AS->AC": swapped},
                          "clubs_spades_swapped": {"count": swapped, "confident": sure}},
                "loose": {"photos": 108, "top1": 1.0, "confident_mistakes": 0.0,
                          "clubs_spades_swapped": {"count": 0, "confident": 0}}}

    lines = report_lines({"model": "cards.onnx", "model_bytes": 1_794_497, "commercial": {"decks": {"cardsjs": deck(5, 3)}}})
    assert "  table crops: clubs and spades swapped 5 (3 confident)" in lines
    assert "  loose photos: clubs and spades swapped 0 (0 confident)" in lines


def test_the_selection_pool_is_read_and_reported_as_such() -> None:
    from vision.bench.recognition import run_bench

    res = run_bench(designs=2, sections=["heldout"], pool="selection")
    held = res["heldout"]
    assert res["pool"] == "selection" and held["designs"] == 2 and held["crops"] == 122
    assert held["top1"] == round(1 - held["mistakes"] / 122, 5)
    assert held["confident"] <= held["mistakes"] and held["clubs_spades_twins"] <= held["mistakes"]
    assert held["top1"] > 0.9


def test_a_share_s_interval_narrows_with_more_readings_and_stays_within_0_and_1() -> None:
    # the Wilson interval's textbook value: none right of 10 leaves up to 27.8 %
    assert interval(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert interval(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    assert interval(0, 0) is None
    few, many = interval(19, 20), interval(950, 1000)
    assert few is not None and many is not None
    assert few[0] < 0.95 < few[1] and many[0] < 0.95 < many[1]
    assert many[1] - many[0] < (few[1] - few[0]) / 4
    # the development scenes' 224 of 237: 95 % lies inside, so two cards short says little
    low, high = interval(224, 237) or (0.0, 0.0)
    assert low < 0.95 < high


def test_loose_photos_are_read_again_under_each_change_asked_for_and_reported_apart() -> None:
    from vision.bench.recognition import run_bench

    plain = run_bench(designs=2, sections=["loose"], loose=3)["loose"]
    changed = run_bench(designs=2, sections=["loose"], loose=3, loose_changes=["shaken", "small"])["loose"]
    assert "changes" not in plain
    # the photos as taken are the same photos, read the same, whatever changes are asked for
    assert (changed["top1"], changed["confident_mistakes"]) == (plain["top1"], plain["confident_mistakes"])
    assert list(changed["changes"]) == ["shaken", "small"]
    for figures in changed["changes"].values():
        assert figures["photos"] == 3 and 0.0 <= figures["top1"] <= 1.0
        assert figures["confident"] == len(figures["confident_mistakes"])


def test_an_unknown_change_for_the_loose_photos_is_refused_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    from pegpi.cli import main
    from vision.bench.recognition import run_bench
    from vision.errors import BenchError

    with pytest.raises(BenchError, match="no change called 'wobbly'; known: shaken"):
        run_bench(designs=2, sections=["loose"], loose=3, loose_changes=["wobbly"])
    assert main(["bench", "recognition", "--only", "loose", "--loose", "2", "--loose-changes", "shaken,wobbly"]) == 2
    err = capsys.readouterr().err
    assert "--loose-changes" in err and "'wobbly'" in err and "Traceback" not in err


def test_the_report_names_each_confident_mistake_under_a_change() -> None:
    from vision.bench.report import report_lines

    loose = {"photos": 256, "top1": 0.99, "confident_mistakes": 0.0, "median_ms_per_photo": 50.0,
             "changes": {"shaken": {"photos": 256, "top1": 0.97, "confident": 1,
                                    "confident_mistakes": ["JS as JC (0.97)"],
                                    "clubs_spades_swapped": {"count": 2, "confident": 1}}}}
    lines = report_lines({"model": "cards.onnx", "model_bytes": 1_794_497, "loose": loose})
    assert ("  the same photos smeared 9 px by a shaken hand, saved at JPEG 30 (shaken): top-1 97.00%; "
            "confident mistakes 1: JS as JC (0.97); clubs and spades swapped 2 (1 confident)") in lines
