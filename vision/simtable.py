"""The simulated table: a placement script played out as the frames a camera would see.

A script is a list of steps (place a card in a zone's slot, take one away, clear a zone, a hand
passing over, idle time, a light change, camera shake). :class:`SimTable` turns it into timed
scenes once, keeps the ground truth (the table events a perfect reader would give, timed at
the moment the card is first seen with no hand over it), and renders frames on demand through
a :class:`~vision.simcamera.TableCamera` (hands reach in from the player's edge).

>>> from vision.mat import layout_for
>>> sim = SimTable(layout_for("pegging", 2), [Place("5H", "seat0", 0), Idle(0.5)], fps=10)
>>> [(e.zone, e.card, e.kind, e.slot) for e in sim.truth]
[('seat0', '5H', 'placed', 0)]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from vision.errors import ScriptError
from vision.events import TableEvent
from vision.mat import MatLayout, Zone
from vision.simcamera import GREY_NOISE, MARGIN_MM, CameraPose, CardOnMat, TableCamera, default_card_art
from vision.sources import Frame, IterSource

__all__ = ["CameraPose", "Clear", "HandPass", "Idle", "Light", "Place", "Remove", "Shake", "SimTable", "Step",
           "Timing", "default_card_art"]



@dataclass(frozen=True, slots=True)
class Place:
    """Put ``card`` (``"back"`` for a face-down card) in a zone's slot (the first free one if None).
    With ``hand=False`` the card simply appears in the next frame, with no pause after it (cards
    already on the table at the start; latency measured to the frame)."""

    card: str
    zone: str
    slot: int | None = None
    hand: bool = True


@dataclass(frozen=True, slots=True)
class Remove:
    """Take the card in a zone's slot away (the last one placed if ``slot`` is None)."""

    zone: str
    slot: int | None = None


@dataclass(frozen=True, slots=True)
class Clear:
    """Sweep every card off a zone, or off the whole mat when ``zone`` is None."""

    zone: str | None = None


@dataclass(frozen=True, slots=True)
class HandPass:
    """A hand reaching over a zone (the middle of the mat if None) and back, touching nothing."""

    zone: str | None = None
    seconds: float = 1.0


@dataclass(frozen=True, slots=True)
class Idle:
    seconds: float


@dataclass(frozen=True, slots=True)
class Light:
    """The room light changes to ``gain`` (1.0 as at the start) over ``seconds``."""

    gain: float
    seconds: float = 0.5


@dataclass(frozen=True, slots=True)
class Shake:
    """From now on the camera shakes by about ``pixels`` (0 stops it)."""

    pixels: float


Step = Place | Remove | Clear | HandPass | Idle | Light | Shake


@dataclass(frozen=True, slots=True)
class Timing:
    """How long things take: a hand reaching in or out, and the pause after a card is down."""

    reach_s: float = 0.3
    settle_s: float = 0.6


@dataclass(frozen=True, slots=True)
class _Scene:
    t: float
    cards: tuple[CardOnMat, ...]
    hand: tuple[tuple[float, float], tuple[float, float]] | None  # (hand, arm entry) in mm
    held: str | None  # card in the hand
    gain: float
    shake: float


@dataclass
class _Walk:
    """Script state while the scenes are laid out."""

    t: float = 0.0
    cards: dict[tuple[str, int], CardOnMat] = field(default_factory=dict)
    order: list[tuple[str, int]] = field(default_factory=list)
    gain: float = 1.0
    shake: float = 0.0


class SimTable:
    """A placement script played on a mat, seen through a camera. Frames are rendered lazily.
    ``grey``: a camera that shows no colour; ``noise``: its sensor's sigma per channel (3, or
    :data:`~vision.simcamera.GREY_NOISE` for a grey camera, by default)."""

    def __init__(self, layout: MatLayout, script: Sequence[Step], *, title: str = "pegpi", fps: float = 30.0,
                 size: tuple[int, int] = (1280, 720), pose: CameraPose | None = None, seed: int = 0,
                 card_art: Callable[[str], np.ndarray] | None = None, px_per_mm: float = 3.0,
                 timing: Timing | None = None, noise: float | None = None, blur: float = 0.0,
                 grey: bool = False) -> None:
        self.layout = layout
        self.fps = fps
        self.size = size
        self.pose = pose or CameraPose()
        self.timing = timing or Timing()
        self.seed = seed
        self.camera = TableCamera(layout, title=title, size=size, pose=self.pose, seed=seed,
                                  card_art=card_art or default_card_art(px_per_mm=px_per_mm), px_per_mm=px_per_mm,
                                  noise=(GREY_NOISE if grey else 3.0) if noise is None else noise, blur=blur,
                                  grey=grey)
        self.truth: list[TableEvent] = []
        self._rng = np.random.default_rng(seed)
        self._removed: list[CardOnMat] = []
        self.scenes = self._lay_out(script)

    @property
    def duration(self) -> float:
        return len(self.scenes) / self.fps

    def to_frame(self) -> np.ndarray:
        """The camera's homography from mat mm to frame pixels (without shake)."""
        return self.camera.to_frame()

    # -- laying out the script --------------------------------------------------------------------------------

    def _lay_out(self, script: Sequence[Step]) -> list[_Scene]:
        walk = _Walk()
        scenes: list[_Scene] = []
        dt = 1.0 / self.fps
        for index, step in enumerate(script):
            try:
                self._step(step, walk, scenes, dt)
            except ScriptError as exc:
                raise ScriptError(f"step {index} ({step!r}): {exc}") from None
        return scenes

    def _still(self, walk: _Walk, scenes: list[_Scene], seconds: float, dt: float) -> None:
        for _ in range(max(0, round(seconds / dt))):
            scenes.append(_Scene(walk.t, tuple(walk.cards.values()), None, None, walk.gain, walk.shake))
            walk.t += dt

    def _reach(self, walk: _Walk, scenes: list[_Scene], target: tuple[float, float], entry: tuple[float, float],
               dt: float, outward: bool, held: str | None) -> None:
        n = max(1, round(self.timing.reach_s / dt))
        for i in range(n):
            f = (i + 1) / n
            f = 1.0 - f if outward else f
            pos = (entry[0] + (target[0] - entry[0]) * f, entry[1] + (target[1] - entry[1]) * f)
            scenes.append(_Scene(walk.t, tuple(walk.cards.values()), (pos, entry), held, walk.gain, walk.shake))
            walk.t += dt

    def _step(self, step: Step, walk: _Walk, scenes: list[_Scene], dt: float) -> None:
        if isinstance(step, Place):
            zone = self._zone(step.zone)
            slot = self._slot(zone, step.slot, walk, free=True)
            key = (zone.name, slot)
            s = zone.slots[slot]
            jitter = self._rng.uniform(-2.5, 2.5, 2)
            angle = (90.0 if s.size[0] > s.size[1] else 0.0) + float(self._rng.uniform(-4, 4))
            lying = CardOnMat(step.card, zone.name, slot, (s.center[0] + jitter[0], s.center[1] + jitter[1]), angle)
            entry = self._entry(zone)
            if step.hand:
                self._reach(walk, scenes, lying.center, entry, dt, False, step.card)
            if key in walk.cards and not zone.stack:
                raise ScriptError(f"slot {slot} of {zone.name} already holds {walk.cards[key].card}")
            if key in walk.cards:
                walk.order.remove(key)
                del walk.cards[key]  # a pile: the new card covers the old one
            walk.cards[key] = lying
            walk.order.append(key)
            self.truth.append(TableEvent(zone.name, step.card, "placed", walk.t, 1.0, slot))
            if step.hand:
                self._reach(walk, scenes, lying.center, entry, dt, True, None)
                self.truth[-1] = replace(self.truth[-1], t=walk.t)
                self._still(walk, scenes, self.timing.settle_s, dt)
        elif isinstance(step, Remove):
            zone = self._zone(step.zone)
            slot = self._slot(zone, step.slot, walk, free=False)
            self._take(walk, scenes, zone, [(zone.name, slot)], dt)
        elif isinstance(step, Clear):
            zones = [self._zone(step.zone)] if step.zone else list(self.layout.zones)
            for zone in zones:
                # a zone swept at once is reported in slot order (as the tracker does)
                keys = sorted(k for k in walk.order if k[0] == zone.name)
                if keys:
                    self._take(walk, scenes, zone, keys, dt)
        elif isinstance(step, HandPass):
            over = self._zone(step.zone) if step.zone else None
            target = _centre(over.rect) if over else (self.layout.size[0] / 2, self.layout.size[1] / 2)
            entry = self._entry(over)
            self._reach(walk, scenes, target, entry, dt, False, None)
            n = max(0, round((step.seconds - 2 * self.timing.reach_s) / dt))
            for i in range(n):  # wave to and fro over the zone
                wobble = 25.0 * math.sin(2 * math.pi * i / max(6, n / 2))
                pos = (target[0] + wobble, target[1] + 0.5 * wobble)
                scenes.append(_Scene(walk.t, tuple(walk.cards.values()), (pos, entry), None, walk.gain, walk.shake))
                walk.t += dt
            self._reach(walk, scenes, target, entry, dt, True, None)
        elif isinstance(step, Idle):
            self._still(walk, scenes, step.seconds, dt)
        elif isinstance(step, Light):
            n = max(1, round(step.seconds / dt))
            start = walk.gain
            for i in range(n):
                walk.gain = start + (step.gain - start) * (i + 1) / n
                self._still(walk, scenes, dt, dt)
        elif isinstance(step, Shake):
            walk.shake = float(step.pixels)
        else:
            raise ScriptError(f"unknown step {step!r}")

    def _take(self, walk: _Walk, scenes: list[_Scene], zone: Zone, keys: list[tuple[str, int]], dt: float) -> None:
        entry = self._entry(zone)
        target = walk.cards[keys[-1]].center
        self._reach(walk, scenes, target, entry, dt, False, None)
        for key in keys:
            lying = walk.cards.pop(key)
            walk.order.remove(key)
            self._removed.append(lying)
        self._reach(walk, scenes, target, entry, dt, True, None)
        for lying in self._removed:
            self.truth.append(TableEvent(lying.zone, lying.card, "removed", walk.t, 1.0, lying.slot))
        self._removed.clear()
        self._still(walk, scenes, self.timing.settle_s, dt)

    def _zone(self, name: str) -> Zone:
        try:
            return self.layout.zone(name)
        except ValueError as exc:
            raise ScriptError(str(exc)) from None

    def _slot(self, zone: Zone, slot: int | None, walk: _Walk, free: bool) -> int:
        if slot is not None:
            if not 0 <= slot < len(zone.slots):
                raise ScriptError(f"{zone.name} has slots 0 to {len(zone.slots) - 1}, not {slot}")
            if not free and (zone.name, slot) not in walk.cards:
                raise ScriptError(f"slot {slot} of {zone.name} is empty")
            return slot
        if free:
            for s in zone.slots:
                if (zone.name, s.index) not in walk.cards:
                    return s.index
            if zone.stack:
                return 0
            raise ScriptError(f"{zone.name} is full")
        taken = [k for k in walk.order if k[0] == zone.name]
        if not taken:
            raise ScriptError(f"{zone.name} holds no card to take")
        return taken[-1][1]

    def _entry(self, zone: Zone | None) -> tuple[float, float]:
        """Where an arm comes from for this zone: beyond the nearest mat edge (seat 0's for the middle)."""
        w, h = self.layout.size
        if zone is None or zone.seat is None:
            return (w / 2 + 40.0, h + MARGIN_MM)
        cx, cy = _centre(zone.rect)
        gaps = {"left": cx, "right": w - cx, "top": cy, "bottom": h - cy}
        side = min(gaps, key=gaps.__getitem__)
        return {"left": (-MARGIN_MM, cy), "right": (w + MARGIN_MM, cy), "top": (cx, -MARGIN_MM),
                "bottom": (cx, h + MARGIN_MM)}[side]

    # -- rendering ---------------------------------------------------------------------------------------------

    def frames(self) -> Iterator[Frame]:
        """The camera frames, one per scene."""
        for index in range(len(self.scenes)):
            yield Frame(self.render(index), self.scenes[index].t, index)

    def source(self) -> IterSource:
        """The simulated camera as a frame source."""
        return IterSource(self.frames, name="simulated table")

    def render(self, index: int) -> np.ndarray:
        """The camera frame of scene ``index``."""
        scene = self.scenes[index]
        return self.camera.render(scene.cards, scene.hand, scene.held, scene.gain, scene.shake, index)


def _centre(rect: tuple[float, float, float, float]) -> tuple[float, float]:
    return ((rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2)
