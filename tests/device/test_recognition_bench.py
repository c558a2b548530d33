"""How `pegpi bench recognition` scores a photo read by recognize: the figures in the model card
and the README rest on it."""

from __future__ import annotations

from device.cli.recognition import _recall_precision, _score_scene


def test_a_card_read_twice_counts_once_found_and_once_false() -> None:
    counts = [0, 0, 0]
    _score_scene(counts, ["AS", "10H", "QD"], ["AS", "AS", "7C"])
    assert counts == [1, 2, 2]  # AS found; 10H and QD missed; the second AS and the 7C false


def test_recall_and_precision_over_all_photos_and_by_layout() -> None:
    per_layout = {"scatter": [0, 0, 0], "fan": [0, 0, 0], "arc": [0, 0, 0]}
    _score_scene(per_layout["scatter"], ["AS", "2S", "3S"], ["AS", "2S", "3S"])
    _score_scene(per_layout["fan"], ["4H", "5H", "6H", "7H"], ["4H", "5H", "KC"])
    figures = _recall_precision(per_layout, 2)
    assert (figures["found"], figures["missed"], figures["false"]) == (5, 2, 1)
    assert figures["recall"] == round(5 / 7, 4) and figures["precision"] == round(5 / 6, 4)
    assert figures["by_layout"]["scatter"] == {"recall": 1.0, "precision": 1.0}
    assert figures["by_layout"]["fan"] == {"recall": 0.5, "precision": round(2 / 3, 4)}
    assert figures["by_layout"]["arc"] == {"recall": 0.0, "precision": 0.0}
