"""The simulated table as a camera: a whole legal game played on rendered frames.

The demo (``pegpi demo``, and ``make run`` without a Pi camera) takes a random legal game from
``games``' autoplay, turns it into a placement script, and renders it with ``vision.simtable``
in a process of its own, so the renderer's memory and time are not the companion's. The frames
then go through exactly the path a real camera's frames take.
"""

from __future__ import annotations

import json
import logging
import struct
import subprocess
import sys
import time
from collections.abc import Callable
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
from vision.mat import layout_for
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


def sim_steps(steps: list[JSON]) -> tuple[list[Step], list[tuple[int, JSON]]]:
    """A placement script as ``vision.simtable`` steps, and the buttons pressed (each with the
    number of simulated steps before it). Removals that empty the mat become one sweep."""
    out: list[Step] = [Idle(0.4)]
    buttons: list[tuple[int, JSON]] = []
    mat: set[tuple[str, int]] = set()
    i = 0
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
                mat.clear()
                i = j
                continue
            mat.discard((step["zone"], int(step.get("slot", 0))))
            out.append(Remove(step["zone"], int(step.get("slot", 0))))
        elif op == "place":
            key = (step["zone"], int(step.get("slot", 0)))
            if key in mat:
                out.append(Remove(*key))
            mat.add(key)
            out.append(Place(step["card"], key[0], key[1]))
        else:
            out.append(Idle(1.0))  # the vision settles first, then the button is pressed
            buttons.append((len(out), step))
        i += 1
    out.append(Idle(1.0))
    return out, buttons


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
        self.spec = spec
        self.press: list[tuple[float, JSON]] = []
        self.truth: list[list[Any]] = []
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
        self.press = [(float(t), step) for t, step in info["press"]]
        self.truth = info["truth"]
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
    buttons are pressed, what truly lies where), then every frame, raw, down stdout."""
    spec = json.loads(sys.stdin.readline())
    script, buttons = sim_steps(spec["steps"])
    layout = layout_for(spec["table"], int(spec["seats"]), spec["paper"])
    fps = float(spec["fps"])
    pose = CameraPose(fill=0.86, tilt=0.08, roll=1.5, offset=(10.0, 0.0))
    sim = SimTable(layout, script, title=spec["title"], fps=fps, pose=pose, seed=int(spec["seed"]))
    press = [(SimTable(layout, script[:n], fps=fps).duration, step) for n, step in buttons]
    truth = [[e.t, e.zone, e.slot or 0, e.card, e.kind] for e in sim.truth]
    out = sys.stdout.buffer
    shape = (sim.size[1], sim.size[0], 3)
    out.write(json.dumps({"press": press, "truth": truth, "shape": shape}).encode() + b"\n")
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
        are pressed when the script says and the questions answered from the camera's truth."""
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
                self.loop.process(frame)
                while press and press[0][0] <= frame.t:
                    self.press(press.pop(0)[1])
                self._answer(partial(truth.card_at, t=frame.t))
        finally:
            camera.close()

    def press(self, step: JSON) -> None:
        """A button pressed as the script says: ``say`` an action, or OK."""
        try:
            if step["op"] == "say":
                self.session.submit(step["action"], source="button")
            else:
                self.session.confirm(source="button")
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
            elif card is not None and card != ask.card:
                log.info("demo players: not the %s but the %s", ask.card, card)
                self.session.resolve(card, source="phone")
        except PegpiError as exc:
            log.info("demo players could not answer %r: %s", ask.text, exc)


def _card_on(mat: dict[tuple[str, int], tuple[str, float]], zone: str, slot: int) -> str | None:
    found = mat.get((zone, slot))
    return found[0] if found else None
