"""Enrolment as a mode of the device: while a deck is taught, the table loop hands the camera's
frames to the enrolment wizard and the game's pipeline sees none; once the deck is saved the
table's card reader has it, and the game's pipeline, given the frames back, learns the mat anew
and reads the new deck's cards."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from device.enrolment import EnrolmentError, EnrolmentMode
from device.replay import ReplaySession
from device.runtime import Stats, TableLoop
from vision.bench.enrol_table import one_batch
from vision.classify import load_default_classifier
from vision.enrol_session import CARD_SETS, DeckReader
from vision.mat import layout_for
from vision.pipeline import TablePipeline

DECKTET = CARD_SETS["decktet"] or ()


def test_the_loop_lends_its_frames_to_enrolment_and_reads_the_deck_after(tmp_path: Path) -> None:
    reader = load_default_classifier(None)
    assert isinstance(reader, DeckReader)
    pipeline = TablePipeline(layout_for("layout", 1), reader)
    session = ReplaySession()
    loop = TableLoop(session, pipeline, stats=Stats(), stop=threading.Event())
    mode = EnrolmentMode(reader, folder=tmp_path, on_deck=reader.add_deck)
    loop.divert = mode.take_frame
    frames = list(one_batch(DECKTET[:12], seed=8).frames())
    for frame in frames[:8]:  # a game is on: the pipeline learns its empty mat
        loop.process(frame)
    assert pipeline.reference is not None

    mode.start("decktet", cards="decktet")
    for frame in frames:
        loop.process(frame)
    assert pipeline.tracker.on_table() == {}  # the game saw none of the batch
    status = mode.status()
    assert [o.state for o in status.outlines] == ["card"] * 12
    assert loop.stats.frames == len(frames) + 8
    with pytest.raises(EnrolmentError, match="being enrolled"):
        mode.start("another")
    mode.confirm({o.outline: o.proposal or "" for o in status.outlines})
    assert mode.finish().last == "decktet"
    assert set(DECKTET[:12]) <= set(reader.labels)

    loop.process(frames[0])  # the frames are the game's again: it learns the mat anew
    assert pipeline.reference is None
    for frame in frames:
        loop.process(frame)
    assert sorted(pipeline.tracker.on_table().values()) == sorted(DECKTET[:12])
    session.close()


def test_a_device_without_a_card_model_refuses_to_enrol(tmp_path: Path) -> None:
    mode = EnrolmentMode(None, folder=tmp_path)
    with pytest.raises(EnrolmentError, match="no card model"):
        mode.start("mine")
    assert mode.status().active is False
    with pytest.raises(EnrolmentError, match="no deck is being enrolled"):
        mode.finish()
