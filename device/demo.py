"""The simulated table as a camera: a whole legal game played on rendered frames.

The demo (``pegpi demo``, and ``make run`` without a Pi camera) takes a random legal game from
``games``' autoplay, turns it into a placement script, and renders it with ``vision.simtable``
in a process of its own, so the renderer's memory and time are not the companion's. The frames
then go through exactly the path a real camera's frames take.
"""

from __future__ import annotations

import bisect
import json
import logging
import struct
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from device.errors import CompanionError
from device.protocols import Ask
from device.protocols.script import has_script, mat_at, play_script, record_to_script
from device.runtime import Stopped, TableLoop
from device.session import Session
from games import get_game
from games.errors import PegpiError
from games.jsontypes import JSONObject
from games.playouts import playable, playout
from vision.events import TableEvent
from vision.mat import MatLayout, layout_for
from vision.simtable import CameraPose, Clear, Idle, Place, Remove, SimTable, Step
from vision.sources import Frame

JSON = JSONObject
log = logging.getLogger("pegpi")


def demo_record(game: str = "cribbage", seed: int = 1, players: list[str] | None = None) -> JSON:
    """A whole legal game of any game with a random player (:func:`games.playouts.playout`),
    hands unseen as at a real table, to be played on the simulated table. ``players`` name the
    seats when the game is played by that many; otherwise it is played at its fewest seats."""
    spec = get_game(game).spec
    names = list(players or [])
    seats = len(names) if len(names) in spec.players else min(spec.players)
    record: JSON = playout(spec.name, seats=seats, seed=seed, deals=None)
    if len(names) == seats:
        record["players"] = names
    return record


def demo_games() -> list[str]:
    """The games the demo plays: those with a random player, a table protocol and a script
    writer for their table, in name order (``pegpi demo --all`` cycles through them)."""
    from device.protocols import registered_protocols

    tables = registered_protocols()
    return [name for name in playable() if get_game(name).spec.table in tables
            and has_script(get_game(name).spec.table)]


def next_demo_game(game: str) -> str:
    """The game after ``game`` in the demo's cycle (the first after the last)."""
    games = demo_games()
    name = get_game(game).spec.name
    later = [g for g in games if g > name]
    return (later or games)[0]


def load_script(path: str | Path) -> tuple[JSON | None, list[JSON]]:
    """A placement script from a file: a JSON list of steps, or a game record (turned into one)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise CompanionError(f"cannot read the script {str(path)!r}: {exc}") from exc
    if isinstance(data, list):
        return None, data
    if isinstance(data, dict) and "actions" in data:
        return data, record_to_script(data)
    raise CompanionError(f"{path}: neither a placement script (a list of steps) nor a game record")


@dataclass
class SimPlan:
    """A placement script as ``vision.simtable`` steps: ``script``; the buttons pressed, each with
    the number of simulated steps before it and its placement step (``buttons``); and for every
    truth event the simulated table will report, in order, the placement step it completes
    (``owners``; None for the cards already lying at the start)."""

    script: list[Step]
    buttons: list[tuple[int, int, JSON]]
    owners: list[int | None]


def sim_plan(steps: list[JSON], *, start: int = 0) -> SimPlan:
    """Plan the simulated table for ``steps`` from step ``start`` on: the mat first lies as those
    steps left it (the cards are simply there, as a camera starting mid-game finds them), then
    every later step is played out. Removals that empty the mat become one sweep."""
    lying = mat_at(steps, start)
    out: list[Step] = [Place(card, zone, slot, hand=False) for (zone, slot), (card, _) in sorted(lying.items())]
    out.append(Idle(0.4))
    owners: list[int | None] = [None] * len(lying)
    buttons: list[tuple[int, int, JSON]] = []
    mat: set[tuple[str, int]] = set(lying)
    i = start
    while i < len(steps):
        step = steps[i]
        op = step["op"]
        if op == "remove":
            j = i
            while j < len(steps) and steps[j]["op"] == "remove":
                j += 1
            keys = {(s["zone"], int(s.get("slot", 0))) for s in steps[i:j]}
            if keys >= mat and len(keys) > 1:
                out.append(Clear())
                owners += [j - 1] * len(mat)  # the sweep is done when its last card is gone
                mat.clear()
                i = j
                continue
            mat.discard((step["zone"], int(step.get("slot", 0))))
            out.append(Remove(step["zone"], int(step.get("slot", 0))))
            owners.append(i)
        elif op == "place":
            key = (step["zone"], int(step.get("slot", 0)))
            if key in mat and not step.get("cover"):  # a card covering another (a pile) leaves it
                out.append(Remove(*key))
                owners.append(i)
            mat.add(key)
            out.append(Place(step["card"], key[0], key[1]))
            owners.append(i)
        else:
            out.append(Idle(1.0))  # the vision settles first, then the button is pressed
            buttons.append((len(out), i, step))
        i += 1
    out.append(Idle(1.0))
    return SimPlan(out, buttons, owners)


def sim_steps(steps: list[JSON]) -> tuple[list[Step], list[tuple[int, JSON]]]:
    """A placement script as ``vision.simtable`` steps, and the buttons pressed (each with the
    number of simulated steps before it)."""
    plan = sim_plan(steps)
    return plan.script, [(n, step) for n, _, step in plan.buttons]


def press_times(plan: SimPlan, layout: MatLayout, fps: float) -> list[float]:
    """When each button of ``plan`` is pressed on the simulated table (seconds from its start)."""
    return [SimTable(layout, plan.script[:n], fps=fps).duration for n, _, _ in plan.buttons]


def step_marks(plan: SimPlan, truth: list[TableEvent], press: list[float]) -> list[tuple[float, int]]:
    """(time, placement step) for every step of ``plan`` from the moment its effect is fully on
    the simulated mat (a card down and the hand gone, a button pressed), in time order."""
    if len(truth) != len(plan.owners):
        raise CompanionError(f"the simulated table reported {len(truth)} cards moved, not {len(plan.owners)}")
    done: dict[int, float] = {}
    for event, owner in zip(truth, plan.owners, strict=True):
        if owner is not None:
            done[owner] = max(done.get(owner, 0.0), event.t)
    for t, (_, index, _) in zip(press, plan.buttons, strict=True):
        done[index] = t
    marks: list[tuple[float, int]] = []
    latest = 0.0
    for index in sorted(done):
        latest = max(latest, done[index])  # a step is never done before the one it follows
        marks.append((latest, index))
    return marks


class StepClock:
    """Which placement step the simulated camera's frames have reached at a time: the input tag
    of what they show, so that a restart resumes after the last step recorded."""

    def __init__(self, marks: list[tuple[float, int]], start: int, prefix: str = "script:") -> None:
        self.times = [t for t, _ in marks]
        self.steps = [i for _, i in marks]
        self.start = start
        self.prefix = prefix

    def tag(self, t: float) -> str | None:
        """The tag of the last step done by time ``t`` (None before the first step of a game)."""
        n = bisect.bisect_right(self.times, t)
        index = self.steps[n - 1] if n else self.start - 1
        return f"{self.prefix}{index}" if index >= 0 else None


class TableTruth:
    """What really lies on the simulated mat at a time (for the demo's players)."""

    def __init__(self, events: list[list[Any]]) -> None:
        self.events = events  # [t, zone, slot, card, kind]

    def card_at(self, zone: str, slot: int, t: float) -> str | None:
        card = None
        for when, z, s, c, kind in self.events:
            if when > t + 1.0:
                break
            if (z, s) == (zone, slot):
                card = c if kind == "placed" else None
        return card


_HEAD = struct.Struct("<dII")


class SimCamera:
    """The simulated table as a camera in its own process: frames come down a pipe, so the
    renderer's memory and time are not the companion's (and it renders on another core)."""

    name = "simulated camera"

    def __init__(self, spec: JSON) -> None:
        self.spec = spec  # "start": the placement step the table starts from (0: a new game)
        self.press: list[tuple[float, int, JSON]] = []  # (time, placement step, the step)
        self.truth: list[list[Any]] = []
        self.clock = StepClock([], 0)
        self._proc: Any = None

    def open(self) -> None:
        code = "from device.demo import sim_camera_main; sim_camera_main()"
        self._proc = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self._proc.stdin.write(json.dumps(self.spec).encode() + b"\n")
        self._proc.stdin.close()
        head = self._proc.stdout.readline()
        if not head:
            raise CompanionError("the simulated camera did not start")
        info = json.loads(head)
        self.press = [(float(t), int(index), step) for t, index, step in info["press"]]
        self.truth = info["truth"]
        self.clock = StepClock([(float(t), int(i)) for t, i in info["marks"]], int(self.spec.get("start", 0)))
        self.shape = tuple(info["shape"])

    def read(self) -> Frame | None:
        assert self._proc is not None and self._proc.stdout is not None, "read before open"
        out = self._proc.stdout
        head = out.read(_HEAD.size)
        if len(head) < _HEAD.size:
            return None
        t, index, size = _HEAD.unpack(head)
        image = np.empty(self.shape, np.uint8)
        view = image.data.cast("B")
        got = 0
        while got < size:
            n = out.readinto(view[got:])
            if not n:
                return None
            got += n
        return Frame(image, t, index)

    def close(self) -> None:
        if self._proc is not None:
            self._proc.kill()
            self._proc.wait()
            if self._proc.stdout is not None:
                self._proc.stdout.close()
            self._proc = None


def sim_camera_main() -> None:
    """The simulated camera's process: read its spec (one JSON line), write a JSON header (when
    buttons are pressed, what truly lies where, when each placement step is done), then every
    frame, raw, down stdout."""
    spec = json.loads(sys.stdin.readline())
    plan = sim_plan(spec["steps"], start=int(spec.get("start", 0)))
    script = plan.script
    layout = layout_for(spec["table"], int(spec["seats"]), spec["paper"])
    fps = float(spec["fps"])
    pose = CameraPose(fill=0.86, tilt=0.08, roll=1.5, offset=(10.0, 0.0))
    sim = SimTable(layout, script, title=spec["title"], fps=fps, pose=pose, seed=int(spec["seed"]),
                   grey=bool(spec.get("grey", False)))
    times = press_times(plan, layout, fps)
    press = [(t, index, step) for t, (_, index, step) in zip(times, plan.buttons, strict=True)]
    marks = step_marks(plan, sim.truth, times)
    truth = [[e.t, e.zone, e.slot or 0, e.card, e.kind] for e in sim.truth]
    out = sys.stdout.buffer
    shape = (sim.size[1], sim.size[0], 3)
    out.write(json.dumps({"press": press, "truth": truth, "shape": shape, "marks": marks}).encode() + b"\n")
    out.flush()
    try:
        for index in range(len(sim.scenes)):
            image = sim.render(index)
            out.write(_HEAD.pack(sim.scenes[index].t, index, image.nbytes))
            out.write(image.tobytes())
        out.flush()
    except (BrokenPipeError, KeyboardInterrupt):
        pass


class DemoPlayers:
    """The people at a simulated table: they press the buttons the script says, and answer the
    device's questions as people would (OK when it read right, else the right card on the phone),
    knowing what truly lies on the mat."""

    def __init__(self, loop: TableLoop, *, speed: float = 1.0) -> None:
        self.loop = loop
        self.session: Session = loop.session
        self.speed = speed
        #: the last answer the device refused, with its question: not given again (only the
        #: last is kept, so a demo that runs for days holds no growing record)
        self._refused: tuple[str, str] | None = None

    def play_events(self, steps: list[JSON], *, pace: bool = False) -> None:
        """Table events straight from a placement script (no frames): the script runs, the kill
        test, the demo with ``--events``. ``pace`` waits half a step at the demo's speed."""
        stats, stop = self.loop.stats, self.loop.stop

        def step(index: int, item: JSON, error: BaseException | None) -> None:
            stats.steps += 1
            stats.tick()
            if error is not None:
                log.info("step %d %s: %s", index, item, error)
            self._answer(lambda zone, slot: _card_on(mat_at(steps, index + 1), zone, slot))
            if pace and self.speed > 0:
                stop.wait(0.5 / self.speed)
            if stop.is_set():
                raise Stopped

        try:
            play_script(self.session, steps, on_step=step)
        except Stopped:
            return

    def play_frames(self, camera: SimCamera) -> None:
        """The simulated camera's frames through the pipeline, at the demo's speed; the buttons
        are pressed when the script says and the questions answered from the camera's truth.
        What each frame leads to is tagged with the placement step it shows (``script:N``), so a
        restart starts the camera from the mat as it lay then (:func:`resume_point`)."""
        camera.open()
        try:
            press = list(camera.press)
            truth = TableTruth(camera.truth)
            start = time.monotonic()
            while not self.loop.stop.is_set():
                frame = camera.read()
                if frame is None:
                    return
                if self.speed > 0:
                    delay = start + frame.t / self.speed - time.monotonic()
                    if delay > 0:
                        self.loop.stop.wait(delay)
                while press and press[0][0] <= frame.t:  # before the frame's events: tags stay in order
                    _, index, step = press.pop(0)
                    self.press(step, input=f"script:{index}")
                self.loop.process(frame, input=camera.clock.tag(frame.t))
                self._answer(partial(truth.card_at, t=frame.t))
        finally:
            camera.close()

    def press(self, step: JSON, *, input: str | None = None) -> None:
        """A button pressed as the script says: ``say`` an action, or OK."""
        try:
            if step["op"] == "say":
                self.session.submit(step["action"], source="button", input=input)
            else:
                self.session.confirm(source="button", input=input)
        except PegpiError as exc:
            log.info("button %s: %s", step, exc)

    def _answer(self, card_at: Callable[[str, int], str | None]) -> None:
        ask: Ask | None = self.session.protocol.ask
        if ask is None or ask.zone is None:
            return
        card = card_at(ask.zone, ask.slot or 0)
        try:
            if ask.kind == "confirm" and card == ask.card:
                log.info("demo players: OK, it is the %s", card)
                self.session.confirm(source="button")
            elif ask.kind == "illegal" and card == ask.card:
                # read right but refused (a card misread earlier makes it so): set it aside
                log.info("demo players: OK, leave the %s aside", card)
                self.session.confirm(source="button")
            elif (ask.text, card) == self._refused:
                # the right card was refused (the game's record went wrong earlier): let the
                # device have its way rather than wait for ever, as people at a table would
                log.info("demo players: OK, as the device says (%s)", ask.text)
                self.session.confirm(source="button")
            elif card is not None and card != ask.card:
                log.info("demo players: not the %s but the %s", ask.card, card)
                self.session.resolve(card, source="phone")
        except PegpiError as exc:
            log.info("demo players could not answer %r: %s", ask.text, exc)
            if card is not None:
                self._refused = (ask.text, card)


def _card_on(mat: dict[tuple[str, int], tuple[str, float]], zone: str, slot: int) -> str | None:
    found = mat.get((zone, slot))
    return found[0] if found else None
