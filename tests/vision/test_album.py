"""The table keeps the crop of every card it reads, filed under the card (``pegpi run --keep-crops``):
a kitchen table collects photos of its own deck while it plays, and `pegpi bench photos --crops`
measures the model on them. Keeping crops never stops a game."""

from __future__ import annotations

import json
import logging

import cv2
import numpy as np
import pytest

from pegpi.cli import main
from vision.album import CropAlbum
from vision.api import Prediction
from vision.events import TableEvent
from vision.mat import layout_for
from vision.pipeline import TablePipeline
from vision.simtable import Idle, Place, SimTable, Timing, default_card_art
from vision.template_classifier import TemplateClassifier

CARDS = ["7H", "QS", "2D", "KC", "back"]


def look(value: int) -> np.ndarray:
    return np.full((176, 126, 3), value, np.uint8)


def test_the_crop_behind_the_reading_the_tracker_settled_on_is_kept(tmp_path):
    album = CropAlbum(tmp_path / "crops")
    unsure, sure = Prediction("QC", 0.41), Prediction("QS", 0.97)
    album.offer("crib", 1, look(10), unsure)
    album.offer("crib", 1, look(20), sure)
    album.offer("crib", 1, look(30), Prediction("QS", 0.90))
    path = album.placed(TableEvent("crib", "QS", "placed", 3.0, 0.97, 1), sure)
    assert path is not None and path.parent == tmp_path / "crops" / "QS" and "crib-1" in path.name
    assert np.array_equal(cv2.imread(str(path)), look(20))  # the very look the card was read from
    assert album.kept == 1
    # a card placed where nothing was offered (or with a reading never offered) writes nothing
    assert album.placed(TableEvent("seat0", "7H", "placed", 4.0, 0.9, 0), Prediction("7H", 0.9)) is None


def test_a_card_named_on_the_phone_moves_to_its_folder(tmp_path):
    album = CropAlbum(tmp_path)
    wrong = Prediction("8C", 0.55)
    album.offer("seat1", 2, look(40), wrong)
    first = album.placed(TableEvent("seat1", "8C", "placed", 1.0, 0.55, 2), wrong)
    moved = album.relabel("seat1", 2, "8S")
    assert moved == tmp_path / "8S" / first.name and moved.exists() and not first.exists()
    assert album.relabel("seat0", 0, "AS") is None  # nothing was kept there


def test_a_disk_that_refuses_the_crop_is_logged_once_and_the_table_plays_on(tmp_path, caplog):
    album = CropAlbum(tmp_path)
    (tmp_path / "QS").write_text("a file where the card's folder would go")
    caplog.set_level(logging.WARNING, logger="vision.album")
    for i in range(2):
        reading = Prediction("QS", 0.95)
        album.offer("crib", i, look(50), reading)
        assert album.placed(TableEvent("crib", "QS", "placed", 1.0, 0.95, i), reading) is None
    assert album.kept == 0
    assert [r.message for r in caplog.records if "cannot keep card crops" in r.message] and len(caplog.records) == 1


@pytest.fixture(scope="module")
def table_album(tmp_path_factory):
    """A few cards laid on the simulated table, read by the real pipeline with an album."""
    art = default_card_art(design=7, px_per_mm=3.0)
    classifier = TemplateClassifier.from_art(sorted(set(CARDS) | {"5H", "8S", "JH"}), art)
    script = [Idle(0.3), Place("7H", "seat0"), Place("QS", "seat1"), Place("2D", "seat0"), Place("KC", "starter"),
              Place("back", "crib"), Idle(0.3)]
    sim = SimTable(layout_for("pegging", 2), script, fps=15.0, seed=3, card_art=art,
                   timing=Timing(reach_s=0.2, settle_s=0.5))
    folder = tmp_path_factory.mktemp("album")
    pipeline = TablePipeline(sim.layout, classifier, album=CropAlbum(folder))
    events = []
    with sim.source() as source:
        for frame in source:
            events.extend(pipeline.process(frame.image, frame.t).events)
    return folder, events, classifier


def test_the_table_files_each_card_it_reads_under_that_card(table_album):
    folder, events, classifier = table_album
    placed = sorted(e.card for e in events if e.kind == "placed")
    assert placed == sorted(CARDS)
    files = sorted(folder.glob("*/*.png"))
    assert sorted(f.parent.name for f in files) == placed
    for f in files:  # the kept crop is the one that was read: read again, it is the same card
        assert classifier.classify([cv2.imread(str(f))])[0].label == f.parent.name


def test_bench_photos_measures_the_model_on_the_kept_crops(table_album, capsys):
    folder, _, _ = table_album
    assert main(["bench", "photos", str(folder), "--crops", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["mode"] == "crops" and res["photos"] == len(CARDS) and res["skipped"] == []
    assert sum(v["photos"] for v in res["by_kind"].values()) == len(CARDS)


def test_a_card_looked_at_again_and_again_holds_only_its_last_few_crops(tmp_path):
    # a lamp switched on and off makes the tracker look at a lying card again each time: memory must not grow
    album = CropAlbum(tmp_path)
    readings = [Prediction("9D", 0.9) for _ in range(10)]
    for i, reading in enumerate(readings):
        album.offer("starter", 0, look(i), reading)
    assert album.placed(TableEvent("starter", "9D", "placed", 1.0, 0.9, 0), readings[0]) is None  # long gone
    for i, reading in enumerate(readings[-4:]):
        album.offer("starter", 0, look(100 + i), reading)
    path = album.placed(TableEvent("starter", "9D", "placed", 2.0, 0.9, 0), readings[-1])
    assert np.array_equal(cv2.imread(str(path)), look(103))
