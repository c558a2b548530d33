"""The companion teaches its card reader a deck from the phone's enrolment mode: the camera's
frames go to the mode while it runs; the finished deck is read by the game's pipeline at once,
and by the next start of the companion in the games its cards belong to (a Decktet game's, not a
cribbage game's)."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from device.config import load_config
from pegpi.companion import Companion, Options
from vision.bench.enrol_table import one_batch
from vision.enrol_session import CARD_SETS
from vision.sources import Frame

DECKTET = CARD_SETS["decktet"] or ()
WAIT_S = 120.0  # a wait for the table thread, not a speed check


class BatchCamera:
    """The enrolment mat with a batch laid on it, shown once the players have started enrolling."""

    name = "batch camera"

    def __init__(self, go: threading.Event) -> None:
        self.go = go
        self.frames = iter(one_batch(DECKTET[:12], seed=9).frames())

    def open(self) -> None: ...

    def read(self) -> Frame | None:
        self.go.wait(WAIT_S)
        return next(self.frames, None)

    def close(self) -> None: ...


def _companion(tmp_path: Path, go: threading.Event, game: str = "cribbage") -> Companion:
    config = load_config(system=None, overrides={"table": {"game": game, "players": ["Ann", "Bob"]}})
    # a store of its own per game: the table resumes the game a store holds
    return Companion(config, Options(source="camera:0", db=str(tmp_path / f"{game}.db"), web=None, display="none",
                                     source_factory=lambda name: BatchCamera(go)))


def _wait(check: Any) -> None:
    end = time.monotonic() + WAIT_S
    while not check():
        assert time.monotonic() < end, "the table thread did not get there"
        time.sleep(0.05)


def test_a_deck_enrolled_on_the_device_is_read_now_and_after_a_restart(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PEGPI_DATA", str(tmp_path))
    go = threading.Event()
    companion = _companion(tmp_path, go)
    companion.start()
    try:
        mode = companion.enrolment
        assert mode.reader is not None  # the shipped model can learn decks
        mode.start("decktet", cards="decktet")
        go.set()
        _wait(lambda: [o.state for o in mode.status().outlines] == ["card"] * 12)
        assert companion.pipeline is not None and companion.pipeline.tracker.on_table() == {}
        mode.confirm({o.outline: o.proposal or "" for o in mode.status().outlines})
        mode.finish()
        assert set(DECKTET[:12]) <= set(companion.pipeline.classifier.labels)
    finally:
        companion.stop()
        companion.close()
    assert (tmp_path / "decks" / "decktet.npz").exists()

    # a cribbage table reads French cards: a Decktet card there would only be read in place of one
    for game, read in (("bhargage", True), ("cribbage", False)):
        again = _companion(tmp_path, threading.Event(), game)
        again.start()
        try:
            assert again.pipeline is not None
            assert (set(DECKTET[:12]) <= set(again.pipeline.classifier.labels)) is read, game
        finally:
            again.stop()
            again.close()
