"""The simulated table as a referee: a random legal game of any catalogue game, laid card by card
on a rendered mat, read by the real camera pipeline, played through the game's table protocol into
a real session, and compared with what was played.

The record comes from the game's random player (:mod:`games.playouts`); its placement script from
the table's script writer (:func:`device.protocols.script.record_to_script`); the frames from the
simulated camera (:class:`device.demo.SimCamera`, its own process); the people at the table press
the buttons the script says and answer the device's questions from what truly lies on the mat
(:class:`device.demo.DemoPlayers`). Nothing here knows a game.
"""

from __future__ import annotations

import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from device.demo import DemoPlayers, SimCamera
from device.protocols.script import record_to_script
from device.runtime import Stats, TableLoop
from device.session import Session
from device.store import Store
from games import get_game
from games.jsontypes import JSONObject
from games.playouts import playout
from games.records import replay
from vision.events import TableEvent
from vision.mat import layout_for, mat_paper
from vision.pipeline import PipelineConfig, TablePipeline
from vision.track import TrackerConfig

#: a table event as compared: (zone, slot, card, placed/removed)
EventKey = tuple[str, int, str, str]


@dataclass(frozen=True)
class SimReport:
    """What was played on the simulated table and what the companion made of it."""

    game: str
    seats: int
    seed: int
    whole_game: bool
    frames: bool
    classifier: str
    #: table events: placed and removed cards, as played and as the pipeline read them (frames only)
    events_played: int
    events_read: int
    events_same: bool
    #: game actions: in the record, and recorded by the session (from the table and the buttons)
    actions_played: int
    actions_recorded: int
    scores: tuple[int, ...]
    scores_played: tuple[int, ...]
    winner: int | None
    winner_played: int | None
    #: the kinds of score events (points pegged, shows, tricks...) match the record's, in order
    scoring_same: bool
    #: questions the device asked (doubtful reads, refused plays) that the players answered
    asked: int
    #: a question still open at the end, or steps that failed (what a player would have seen)
    problems: tuple[str, ...] = ()
    frames_rendered: int = 0
    seconds: float = 0.0
    first_difference: str | None = None
    #: the session recorded exactly the record's actions (told apart from ``same``: a table may
    #: rightly record an inferred pass elsewhere in the order)
    actions_same: bool | None = None
    #: reads the players had to correct when the device asked (frames only): misreads that the
    #: game did not record, so they leave ``same`` alone; the events compared carry the correction
    corrected: tuple[str, ...] = ()

    @property
    def same(self) -> bool:
        return (self.events_same and self.scoring_same and self.scores == self.scores_played
                and self.winner == self.winner_played and not self.problems)

    def to_json(self) -> JSONObject:
        return {"game": self.game, "seats": self.seats, "seed": self.seed, "whole_game": self.whole_game,
                "frames": self.frames, "classifier": self.classifier, "same": self.same,
                "events_played": self.events_played, "events_read": self.events_read,
                "events_same": self.events_same, "actions_played": self.actions_played,
                "actions_recorded": self.actions_recorded, "scores": list(self.scores),
                "scores_played": list(self.scores_played), "winner": self.winner,
                "winner_played": self.winner_played, "scoring_same": self.scoring_same,
                "asked": self.asked, "problems": list(self.problems), "frames_rendered": self.frames_rendered,
                "seconds": round(self.seconds, 2), "first_difference": self.first_difference,
                "actions_same": self.actions_same, "corrected": list(self.corrected)}


class _Players(DemoPlayers):
    """The demo's players, counting the questions they answer."""

    asked = 0

    def _answer(self, card_at: Callable[[str, int], str | None]) -> None:
        before = self.session.protocol.ask
        super()._answer(card_at)
        if before is not None and self.session.protocol.ask is not before:
            self.asked += 1


@dataclass
class _Reader:
    """The table events the pipeline reports, in order (the loop's observer), and the cards the
    players named otherwise when asked: (events read by then, zone, slot, card)."""

    events: list[TableEvent] = field(default_factory=list)
    corrections: list[tuple[int, str, int, str]] = field(default_factory=list)

    def __call__(self, events: Sequence[TableEvent]) -> None:
        self.events.extend(events)

    def corrected(self, zone: str, slot: int | None, card: str) -> None:
        self.corrections.append((len(self.events), zone, slot or 0, card))

    def as_corrected(self) -> tuple[list[EventKey], list[str]]:
        """The events read, each placed card the players corrected taking the card they named
        (the camera's later reads of it already do); and those corrections, in words."""
        read: list[EventKey] = [(e.zone, e.slot or 0, e.card, str(e.kind)) for e in self.events]
        said: list[str] = []
        for count, zone, slot, card in self.corrections:
            placed = [i for i in range(count) if read[i][:2] == (zone, slot) and read[i][3] == "placed"]
            if placed and read[placed[-1]][2] != card:
                i = placed[-1]
                said.append(f"event {i}: read {read[i][2]} in {zone}[{slot}] at "
                            f"{self.events[i].t:.1f} s, the players said {card}")
                read[i] = (zone, slot, card, "placed")
        return read, said


def _first_difference(got: list[EventKey], want: list[EventKey]) -> str | None:
    for index, (a, b) in enumerate(zip(got, want, strict=False)):
        if a != b:
            return f"event {index}: read {a}, played {b}"
    if len(got) != len(want):
        return f"{len(got)} events read, {len(want)} played"
    return None


def table_sim(game: str, *, seats: int | None = None, seed: int = 0, whole_game: bool = False,
              frames: bool = True, fps: float = 30.0, paper: str | None = None) -> SimReport:
    """Play one deal (or, ``whole_game``, the whole game) of ``game`` on the simulated table and
    compare what the companion recorded with what was played. ``frames=False`` skips the camera:
    the script's table events go straight to the session (the protocol alone is tested)."""
    from pegpi.companion import load_classifier

    started = time.monotonic()
    record = playout(game, seats=seats, seed=seed, deals=None if whole_game else 1)
    spec = get_game(record["game"]).spec
    count = len(record["players"])
    steps = record_to_script(record)
    want = replay(record)
    paper = mat_paper(spec.table, count, paper or "A3")
    reader = _Reader()
    truth: list[EventKey] = []
    classifier_name = "none (table events straight from the script)"
    rendered = 0
    with tempfile.TemporaryDirectory(prefix="pegpi-sim-") as tmp:
        session = Session(Store(Path(tmp) / "sim.db"), game=spec.name, players=record["players"],
                          options=record.get("options"), ping_s=0.01)
        try:
            stop = threading.Event()
            if frames:
                classifier, classifier_name = load_classifier(simulated=True, deck=spec.deck)
                # a card the device would ask about is looked at again first, as on the device
                config = PipelineConfig(tracker=TrackerConfig(look_again=session.confidence))
                pipeline = TablePipeline(layout_for(spec.table, count, paper), classifier, config)

                def corrected(zone: str, slot: int | None, card: str) -> None:
                    reader.corrected(zone, slot, card)
                    pipeline.corrected(zone, slot, card)

                session.on_resolved = corrected
                loop = TableLoop(session, pipeline, stats=Stats(), stop=stop, observer=reader)
                players = _Players(loop, speed=0.0)
                camera = SimCamera({"steps": steps, "table": spec.table, "seats": count, "paper": paper,
                                    "title": spec.title, "fps": fps, "seed": seed})
                players.play_frames(camera)
                truth = [(str(z), int(s), str(c), str(k)) for _, z, s, c, k in camera.truth]
                rendered = loop.stats.frames
            else:
                loop = TableLoop(session, None, stats=Stats(), stop=stop)
                players = _Players(loop, speed=0.0)
                players.play_events(steps)
            got_state = session.state
            problems: list[str] = []
            ask = session.protocol.ask
            if ask is not None:
                problems.append(f"still asking: {ask.text}")
            if session.error:
                problems.append(session.error)
            recorded = len(session.entries)
            actions_same = [e.action for e in session.entries] == [a.to_json() for a in want.actions]
        finally:
            session.close()
    read, corrections = reader.as_corrected()
    events_same = read == truth
    scoring_same = [e.kind for e in got_state.events] == [e.kind for e in want.state.events]
    difference = None if events_same or not frames else _first_difference(read, truth)
    if difference is None and not scoring_same:
        difference = _scoring_difference([e.kind for e in got_state.events], [e.kind for e in want.state.events])
    return SimReport(
        game=spec.name, seats=count, seed=seed, whole_game=whole_game, frames=frames,
        classifier=classifier_name, events_played=len(truth), events_read=len(read), events_same=events_same,
        actions_played=len(want.actions), actions_recorded=recorded,
        scores=tuple(got_state.scores), scores_played=tuple(want.state.scores),
        winner=got_state.winner, winner_played=want.state.winner, scoring_same=scoring_same,
        asked=players.asked, problems=tuple(problems), frames_rendered=rendered,
        seconds=time.monotonic() - started, first_difference=difference, actions_same=actions_same,
        corrected=tuple(corrections))


def _scoring_difference(got: list[str], want: list[str]) -> str:
    for index, (a, b) in enumerate(zip(got, want, strict=False)):
        if a != b:
            return f"score event {index}: recorded {a!r}, played {b!r}"
    return f"{len(got)} score events recorded, {len(want)} played"
