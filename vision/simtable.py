"""The simulated table: a placement script played out as the frames a camera would see.

A script is a list of steps (place a card in a zone's slot, take one away, clear a zone, a hand
passing over, idle time, a light change, camera shake). :class:`SimTable` turns it into timed
scenes once, keeps the ground truth (the table events a perfect reader would give, timed at
the moment the card is first seen with no hand over it), and renders frames on demand:
mat and cards in mat millimetres, a hand and arm reaching in from the player's edge, then a
perspective camera with shake, light gain, a little vignetting and noise.

>>> from vision.mat import layout_for
>>> sim = SimTable(layout_for("pegging", 2), [Place("5H", "seat0", 0), Idle(0.5)], fps=10)
>>> [(e.zone, e.card, e.kind, e.slot) for e in sim.truth]
[('seat0', '5H', 'placed', 0)]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from vision.api import CARD_MM
from vision.errors import ScriptError
from vision.events import TableEvent
from vision.mat import MatLayout, Zone
from vision.mat_print import render_mat
from vision.sources import Frame, IterSource

MARGIN_MM = 70.0  # table visible around the mat (where arms come from)
TABLE = (62, 84, 112)  # wood, BGR
SKIN = (118, 150, 205)
SHADOW_MM = (14.0, 18.0)  # where a hand's shadow falls, relative to the hand
SHADOW_DEPTH = 0.6  # how much light the shadow leaves


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
class CameraPose:
    """Where the camera looks from: the mat's share of the frame height, tilt (the far edge
    shrinks by this fraction), roll in degrees, and offset of the mat centre in pixels."""

    fill: float = 0.86
    tilt: float = 0.08
    roll: float = 0.0
    offset: tuple[float, float] = (0.0, 0.0)

    @staticmethod
    def random(rng: np.random.Generator) -> CameraPose:
        return CameraPose(float(rng.uniform(0.8, 0.92)), float(rng.uniform(0.0, 0.15)),
                          float(rng.uniform(-4, 4)), (float(rng.uniform(-30, 30)), float(rng.uniform(-12, 12))))


@dataclass(frozen=True, slots=True)
class Timing:
    """How long things take: a hand reaching in or out, and the pause after a card is down."""

    reach_s: float = 0.3
    settle_s: float = 0.6


@dataclass(frozen=True, slots=True)
class _Lying:
    card: str
    zone: str
    slot: int
    center: tuple[float, float]
    angle: float  # degrees, 90 for a card lying sideways


@dataclass(frozen=True, slots=True)
class _Scene:
    t: float
    cards: tuple[_Lying, ...]
    hand: tuple[tuple[float, float], tuple[float, float]] | None  # (hand, arm entry) in mm
    held: str | None  # card in the hand
    gain: float
    shake: float


@dataclass
class _Walk:
    """Script state while the scenes are laid out."""

    t: float = 0.0
    cards: dict[tuple[str, int], _Lying] = field(default_factory=dict)
    order: list[tuple[str, int]] = field(default_factory=list)
    gain: float = 1.0
    shake: float = 0.0


def default_card_art(design: int = 7, px_per_mm: float = 3.0) -> Callable[[str], np.ndarray]:
    """Card faces from :mod:`vision.render` (BGRA, alpha cuts the round corners)."""
    from vision.render import render_card

    def art(card: str) -> np.ndarray:
        return render_card(card, design, px_per_mm=px_per_mm, alpha=True)

    return art


class SimTable:
    """A placement script played on a mat, seen through a camera. Frames are rendered lazily."""

    def __init__(self, layout: MatLayout, script: Sequence[Step], *, title: str = "pegpi", fps: float = 30.0,
                 size: tuple[int, int] = (1280, 720), pose: CameraPose | None = None, seed: int = 0,
                 card_art: Callable[[str], np.ndarray] | None = None, px_per_mm: float = 3.0,
                 timing: Timing | None = None, noise: float = 3.0, blur: float = 0.0) -> None:
        self.layout = layout
        self.fps = fps
        self.size = size
        self.pose = pose or CameraPose()
        self.s = px_per_mm
        self.timing = timing or Timing()
        self.seed = seed
        self._art_fn = card_art or default_card_art(px_per_mm=px_per_mm)
        self._art: dict[str, np.ndarray] = {}
        self.truth: list[TableEvent] = []
        self._rng = np.random.default_rng(seed)
        self._removed: list[_Lying] = []
        self._vignette: np.ndarray | None = None
        self._noise: list[tuple[np.ndarray, np.ndarray]] = []
        self._mat: np.ndarray | None = None
        self._shade: np.ndarray | None = None
        self.scenes = self._lay_out(script)
        self._title = title
        self._noise_level = noise
        self._blur = blur
        self._base_cache: tuple[tuple[_Lying, ...], np.ndarray] | None = None
        self._canvas: np.ndarray | None = None

    @property
    def duration(self) -> float:
        return len(self.scenes) / self.fps

    def to_frame(self) -> np.ndarray:
        """The camera's homography from mat mm to frame pixels (without shake)."""
        w_mm, h_mm = self.layout.size
        fw, fh = self.size
        p = self.pose
        scale = p.fill * fh / h_mm
        half_w, half_h = w_mm * scale / 2, h_mm * scale / 2
        shrink = 1.0 - p.tilt
        pts = np.array([[-half_w * shrink, -half_h], [half_w * shrink, -half_h], [half_w, half_h], [-half_w, half_h]])
        a = math.radians(p.roll)
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        pts = pts @ rot.T + np.array([fw / 2 + p.offset[0], fh / 2 + p.offset[1]])
        src = np.array([[0, 0], [w_mm, 0], [w_mm, h_mm], [0, h_mm]], np.float32)
        return cv2.getPerspectiveTransform(src, pts.astype(np.float32))

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
            lying = _Lying(step.card, zone.name, slot, (s.center[0] + jitter[0], s.center[1] + jitter[1]), angle)
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
                keys = [k for k in walk.order if k[0] == zone.name]
                if keys:
                    self._take(walk, scenes, zone, keys, dt)
        elif isinstance(step, HandPass):
            zone = self._zone(step.zone) if step.zone else None
            target = _centre(zone.rect) if zone else (self.layout.size[0] / 2, self.layout.size[1] / 2)
            entry = self._entry(zone)
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
        scene = self.scenes[index]
        canvas = self._scene_canvas(scene)
        m = self._mm_to_canvas()
        to_frame = self.to_frame() @ np.linalg.inv(m)
        if scene.shake > 0:
            rng = np.random.default_rng((self.seed, index))
            dx, dy = rng.normal(0, scene.shake, 2)
            to_frame = np.array([[1, 0, dx], [0, 1, dy], [0, 0, 1]]) @ to_frame
        frame = cv2.warpPerspective(canvas, to_frame, self.size, flags=cv2.INTER_LINEAR,
                                    borderMode=cv2.BORDER_CONSTANT, borderValue=TABLE)
        return self._camera_effects(frame, scene.gain, index)

    def _mm_to_canvas(self) -> np.ndarray:
        return np.array([[self.s, 0, MARGIN_MM * self.s], [0, self.s, MARGIN_MM * self.s], [0, 0, 1]])

    def _base(self, cards: tuple[_Lying, ...]) -> np.ndarray:
        """Table, mat and lying cards at ``s`` px/mm (cached while the cards do not change)."""
        if self._base_cache is not None and self._base_cache[0] == cards:
            return self._base_cache[1]
        pad = round(MARGIN_MM * self.s)
        if self._mat is None:
            self._mat = render_mat(self.layout, self._title, self.s)
        mat = self._mat
        base = np.empty((mat.shape[0] + 2 * pad, mat.shape[1] + 2 * pad, 3), np.uint8)
        base[:] = TABLE
        base[pad:pad + mat.shape[0], pad:pad + mat.shape[1]] = mat
        for lying in cards:
            self._paste(base, lying.card, lying.center, lying.angle)
        self._base_cache = (cards, base)
        return base

    def _scene_canvas(self, scene: _Scene) -> np.ndarray:
        base = self._base(scene.cards)
        if scene.hand is None:
            return base
        if self._canvas is None or self._canvas.shape != base.shape:
            self._canvas = np.empty_like(base)
        canvas = self._canvas
        np.copyto(canvas, base)
        (hx, hy), (ex, ey) = scene.hand
        if scene.held is not None:
            self._paste(canvas, scene.held, (hx, hy + 25.0), 8.0)
        to_px = self._mm_to_canvas()

        def px(x: float | tuple[float, float], y: float = 0.0) -> tuple[int, int]:
            if isinstance(x, tuple):
                x, y = x
            return (round(to_px[0, 0] * x + to_px[0, 2]), round(to_px[1, 1] * y + to_px[1, 2]))

        angle = math.degrees(math.atan2(hy - ey, hx - ex))
        self._shadow(canvas, px((ex + SHADOW_MM[0], ey + SHADOW_MM[1])), px((hx + SHADOW_MM[0], hy + SHADOW_MM[1])),
                     angle)
        cv2.line(canvas, px(ex, ey), px(hx, hy), SKIN, round(65 * self.s), cv2.LINE_AA)
        cv2.ellipse(canvas, px(hx, hy), (round(55 * self.s), round(45 * self.s)), angle, 0, 360, SKIN, -1,
                    cv2.LINE_AA)
        darker = tuple(int(c * 0.85) for c in SKIN)
        cv2.ellipse(canvas, px(hx, hy), (round(30 * self.s), round(22 * self.s)), angle, 0, 360, darker, -1,
                    cv2.LINE_AA)
        return canvas

    def _shadow(self, canvas: np.ndarray, entry: tuple[int, int], hand: tuple[int, int], angle: float) -> None:
        """The hand's soft-edged shadow, cast down and to the right by the room light."""
        if self._shade is None or self._shade.shape != canvas.shape[:2]:
            self._shade = np.zeros(canvas.shape[:2], np.uint8)
        shade = self._shade
        shade[:] = 0
        cv2.line(shade, entry, hand, 255, round(60 * self.s))
        cv2.ellipse(shade, hand, (round(52 * self.s), round(42 * self.s)), angle, 0, 360, 255, -1)
        x, y, w, h = cv2.boundingRect(shade)
        if w == 0 or h == 0:
            return
        region = canvas[y:y + h, x:x + w]
        soft = cv2.blur(shade[y:y + h, x:x + w], (9, 9))
        darker = cv2.multiply(region, (SHADOW_DEPTH,) * 3 + (0,), dtype=cv2.CV_8U)
        weight = cv2.merge([soft] * 3)
        region[:] = cv2.add(cv2.multiply(darker, weight, scale=1 / 255, dtype=cv2.CV_8U),
                            cv2.multiply(region, cv2.bitwise_not(weight), scale=1 / 255, dtype=cv2.CV_8U))

    def _paste(self, canvas: np.ndarray, card: str, center: tuple[float, float], angle: float) -> None:
        art = self._art.get(card)
        if art is None:
            art = self._art[card] = self._card_art(card)
        h, w = art.shape[:2]
        to_px = self._mm_to_canvas()
        cx, cy = to_px[0, 0] * center[0] + to_px[0, 2], to_px[1, 1] * center[1] + to_px[1, 2]
        m = cv2.getRotationMatrix2D((w / 2, h / 2), -angle, 1.0)
        m[:, 2] += (cx - w / 2, cy - h / 2)
        big = int(math.hypot(w, h)) + 4
        x0, y0 = max(0, int(cx - big / 2)), max(0, int(cy - big / 2))
        x1, y1 = min(canvas.shape[1], x0 + big), min(canvas.shape[0], y0 + big)
        m[:, 2] -= (x0, y0)
        patch = cv2.warpAffine(art, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0, 0))
        alpha = patch[..., 3:4].astype(np.float32) / 255.0
        region = canvas[y0:y1, x0:x1]
        region[:] = (patch[..., :3] * alpha + region * (1.0 - alpha)).astype(np.uint8)

    def _card_art(self, card: str) -> np.ndarray:
        art = self._art_fn(card)
        want = (round(CARD_MM[1] * self.s), round(CARD_MM[0] * self.s))
        if art.shape[:2] != want:
            art = cv2.resize(art, want[::-1], interpolation=cv2.INTER_AREA)
        if art.shape[2] == 3:
            art = np.dstack([art, np.full(art.shape[:2], 255, np.uint8)])
        return art

    def _camera_effects(self, frame: np.ndarray, gain: float, index: int) -> np.ndarray:
        if self._vignette is None:
            fh, fw = frame.shape[:2]
            yy, xx = np.mgrid[0:fh, 0:fw].astype(np.float32)
            r2 = ((xx - fw / 2) / fw) ** 2 + ((yy - fh / 2) / fh) ** 2
            shade = np.clip(255.0 * (1.0 - 0.35 * r2), 0, 255).astype(np.uint8)
            self._vignette = cv2.merge([shade, shade, shade])
            rng = np.random.default_rng(self.seed + 1)
            for _ in range(3):
                noise = rng.normal(0, self._noise_level, frame.shape)
                self._noise.append((np.clip(noise, 0, 255).astype(np.uint8), np.clip(-noise, 0, 255).astype(np.uint8)))
        if self._blur > 0:  # focus and motion blur
            frame = cv2.GaussianBlur(frame, (0, 0), self._blur)
        out = cv2.multiply(frame, self._vignette, scale=gain / 255.0, dtype=cv2.CV_8U)
        plus, minus = self._noise[index % len(self._noise)]
        cv2.add(out, plus, dst=out)
        cv2.subtract(out, minus, dst=out)
        return out


def _centre(rect: tuple[float, float, float, float]) -> tuple[float, float]:
    return ((rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2)
