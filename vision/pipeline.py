"""Frames in, table events out: markers -> warp -> locate -> classify -> track, each stage timed.

The pipeline learns the empty mat from its first still frames; outlines that already hold a
card then (a restart mid-deal) are repainted from an empty outline, so those cards are reported
as placed. It keeps the empty mat up to date where the felt is bare (slow light changes), and lets
something that is no card and lies still for long (a phone) join it. :meth:`TablePipeline.relearn`
starts over.

>>> from vision.mat import layout_for
>>> from vision.simtable import Idle, Place, SimTable
>>> from vision.template_classifier import TemplateClassifier
>>> from vision.simcamera import default_card_art
>>> art = default_card_art()
>>> sim = SimTable(layout_for("pegging", 2), [Idle(0.4), Place("5H", "seat0"), Idle(0.3)], fps=15, card_art=art)
>>> pipeline = TablePipeline(sim.layout, TemplateClassifier.from_art(["5H", "5D", "back"], art))
>>> [(e.kind, e.card, e.zone, e.slot) for f in sim.frames() for e in pipeline.process(f.image, f.t).events]
[('placed', '5H', 'seat0', 0)]
"""

from __future__ import annotations

import functools
import time
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.album import CropAlbum
from vision.api import CardClassifier, Prediction
from vision.doubt import CameraColour, court_unsure, held, jokers_held
from vision.errors import FrameError
from vision.events import TableEvent
from vision.locate import Locator, SeenCard, Sighting, crop_card, seen_height
from vision.mat import MatLayout
from vision.mat_find import MatFinder, MatPose, warp_mat
from vision.sources import Frame
from vision.track import Tracker, TrackerConfig

if TYPE_CHECKING:
    from vision.classify import GreySuits

STAGES = ("markers", "warp", "locate", "classify", "track")
#: a quarter-scale mat pixel has moved only if it leaves the grey range of this square round it
#: in the frame before (3: 4 mm either way at the locator's 1 px/mm)
STILL_REACH = 3


@dataclass(frozen=True, slots=True)
class PipelineConfig:
    """Scales and thresholds. ``locate_px_per_mm``: the mat image the locator works on;
    ``crop_px_per_mm``: card crops handed to the classifier (cut from the full camera frame);
    ``learn_frames``: frames averaged into the empty mat; ``adapt``: how fast the empty mat follows
    the light where the felt is bare (per update, every ``adapt_every`` frames); ``absorb_s``: after
    this long with something that is not a card lying still on the mat (a phone, a score pad, a hand
    that was there when the mat was learned), it becomes part of the empty mat (0: never)."""

    locate_px_per_mm: float = 1.0
    crop_px_per_mm: float = 2.0
    detect_width: int = 640
    hold_s: float = 2.0
    threshold: int = 45
    learn_frames: int = 5
    adapt: float = 0.05
    adapt_every: int = 5
    absorb_s: float = 8.0
    tracker: TrackerConfig = field(default_factory=TrackerConfig)


@dataclass(frozen=True, slots=True)
class FrameResult:
    """One frame's outcome. ``status``: ``ok``; ``held`` (markers covered, last pose used);
    ``learning`` (taking in the empty mat); ``lost`` (no mat in view); ``dark`` (a black frame).
    ``timings`` are milliseconds per stage."""

    t: float
    events: tuple[TableEvent, ...]
    status: str
    timings: dict[str, float]
    sighting: Sighting | None = None


class TablePipeline:
    """One table: a mat layout and a classifier (any :class:`~vision.api.CardClassifier`)."""

    def __init__(self, layout: MatLayout, classifier: CardClassifier, config: PipelineConfig | None = None,
                 album: CropAlbum | None = None) -> None:
        self.layout = layout
        #: where the crop behind each card placed is kept, filed under its card (None: nowhere)
        self.album = album
        self.classifier = classifier
        #: whether the camera shows colour; through one that does not (a NoIR module, a grey
        #: webcam) the card network takes grey hearts for spades, so suits are read by shape too,
        #: and the red joker for the black one, so jokers are asked about
        self.colour = CameraColour()
        self.config = cfg = config or PipelineConfig()
        self.finder = MatFinder(layout, detect_width=cfg.detect_width, hold_s=cfg.hold_s)
        self.locator = Locator(layout, cfg.locate_px_per_mm, threshold=cfg.threshold)
        self.tracker = Tracker(layout, cfg.tracker)
        h, w = self.locator.shape
        self._mat = np.empty((h, w, 3), np.uint8)
        self._reference: np.ndarray | None = None
        self._accumulator = np.zeros((h, w, 3), np.float32)
        self._learned = 0
        self._frames = 0
        #: outlines that already held a card when the empty mat was learned (reported as placed)
        self.started_with: list[tuple[str, int]] = []
        self._kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (15, 15))
        self._small = np.zeros((max(1, h // 4), max(1, w // 4), 3), np.uint8)
        self._previous = np.zeros_like(self._small)
        self._reach = np.ones((STILL_REACH, STILL_REACH), np.uint8)
        self._still_since: float | None = None
        #: cards the players named otherwise, for the tracker before its next update
        self._corrections: deque[tuple[str, int, str]] = deque()

    @property
    def reference(self) -> np.ndarray | None:
        """The empty mat's appearance (mat image at the locate scale), once learned."""
        return self._reference

    def relearn(self) -> None:
        """Take the empty mat's appearance anew from the next frames (the table must be clear)."""
        self._reference, self._learned = None, 0
        self._accumulator[:] = 0

    def corrected(self, zone: str, slot: int | None, card: str) -> None:
        """The players named the card last placed at ``slot`` of ``zone``: it is ``card`` (the
        tracker takes it so from the next frame on, and its kept crop moves to that card). Safe to
        call from another thread than the one processing frames."""
        self._corrections.append((zone, slot or 0, card))
        if self.album is not None:
            self.album.relabel(zone, slot, card)

    def process(self, frame: np.ndarray, t: float) -> FrameResult:
        """Run every stage on one BGR frame taken at time ``t`` (seconds)."""
        if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
            shape = getattr(frame, "shape", type(frame).__name__)
            raise FrameError(f"the pipeline takes BGR uint8 frames (h, w, 3), not {shape}")
        timings = dict.fromkeys(STAGES, 0.0)
        clock = time.perf_counter
        start = clock()
        self.colour.see(frame)
        pose = self.finder.find(frame, t)
        timings["markers"] = (clock() - start) * 1e3
        if pose is None:
            dark = float(frame[::16, ::16].mean()) < 8.0
            self.tracker.update(None, t, self._no_classify)
            return FrameResult(t, (), "dark" if dark else "lost", timings)
        start = clock()
        mat = warp_mat(frame, pose, self.layout, self.config.locate_px_per_mm, out=self._mat)
        timings["warp"] = (clock() - start) * 1e3
        if self._reference is None:
            self._learn(mat, pose)
            return FrameResult(t, (), "learning", timings)
        start = clock()
        self.locator.grey = self.colour.colourless
        sighting, foreground = self.locator.locate(mat, self._reference)
        timings["locate"] = (clock() - start) * 1e3
        classify_ms = [0.0]

        def classify(cards: Sequence[SeenCard]) -> list[Prediction]:
            began = clock()
            crops = [crop_card(frame, pose.to_frame, c.quad, self.config.crop_px_per_mm) for c in cards]
            predictions = self.classifier.classify(crops)
            if self.colour.colourless:
                predictions = self._by_shape(crops, jokers_held(predictions))
            # a court seen small by the camera (a large mat at 720p) is asked about unless read very surely
            predictions = [held(p) if court_unsure(p.label, p.confidence, seen_height(pose.to_frame, c.quad)) else p
                           for p, c in zip(predictions, cards, strict=True)]
            classify_ms[0] += (clock() - began) * 1e3
            if self.album is not None:
                for card, crop, prediction in zip(cards, crops, predictions, strict=True):
                    self.album.offer(card.zone, card.slot, crop, prediction)
            return predictions

        start = clock()
        while self._corrections:
            self.tracker.correct(*self._corrections.popleft())
        events = self.tracker.update(sighting, t, classify)
        timings["classify"] = classify_ms[0]
        timings["track"] = (clock() - start) * 1e3 - classify_ms[0]
        if self.album is not None:
            for event in events:
                if event.kind == "placed":
                    self.album.placed(event, self.tracker.placed_readings.get((event.zone, event.slot or 0)))
        self._frames += 1
        start = clock()
        if self.config.adapt > 0 and self._frames % self.config.adapt_every == 0:
            self._adapt(mat, foreground, sighting)
        if self.config.absorb_s > 0:
            self._absorb_still_things(mat, foreground, sighting, t)
        timings["locate"] += (clock() - start) * 1e3
        return FrameResult(t, tuple(events), "ok" if pose.fresh else "held", timings, sighting)

    def run(self, frames: Iterable[Frame]) -> Iterator[FrameResult]:
        """Process a stream of frames (any frame source)."""
        for frame in frames:
            yield self.process(frame.image, frame.t)

    def _by_shape(self, crops: list[np.ndarray], predictions: list[Prediction]) -> list[Prediction]:
        """``predictions`` with suits the signs' shapes surely deny replaced and unsure, and unsure
        ones the rank's readers and the shapes agree on made sure (:func:`vision.grey.suits_by_shape`);
        as they were for a classifier without the network."""
        from vision.grey import suits_by_shape

        if self._shapes is None:
            return predictions
        return suits_by_shape(self._shapes, crops, predictions, self.classifier)

    @functools.cached_property
    def _shapes(self) -> GreySuits | None:
        """The grey suit network, loaded on first need (it brings onnxruntime)."""
        from vision.classify import grey_suits_for

        return grey_suits_for(self.classifier)

    @staticmethod
    def _no_classify(cards: Sequence[SeenCard]) -> list[Prediction]:
        return []

    def _learn(self, mat: np.ndarray, pose: MatPose) -> None:
        if not pose.fresh:
            return
        if self._moved(mat) and self._learned:
            self._accumulator[:] = 0  # something moves over the mat: learn from still frames only
            self._learned = 0
        cv2.accumulate(mat, self._accumulator)
        self._learned += 1
        if self._learned >= self.config.learn_frames:
            self._accumulator /= self._learned
            reference = self._accumulator.astype(np.uint8)
            self.started_with = self.locator.empty_outlines(reference)
            self._accumulator[:] = reference
            self._reference = reference

    def _moved(self, mat: np.ndarray) -> bool:
        """Whether anything moved since the last call: a share of a quarter-scale mat (where camera
        noise averages out) came out of the range of grey its neighbourhood held before (a
        :data:`STILL_REACH` square) by more than half the locator's threshold. The markers' pose
        wavers by a fraction of a pixel from frame to frame, which moves the mat's printed lines
        in the warped mat: a plain difference took that for movement on an A1 mat at 720p, and
        the empty mat was never learned."""
        cv2.resize(mat, (self._small.shape[1], self._small.shape[0]), dst=self._small, interpolation=cv2.INTER_AREA)
        over = cv2.subtract(self._small, cv2.dilate(self._previous, self._reach))  # bytes saturate at 0
        under = cv2.subtract(cv2.erode(self._previous, self._reach), self._small)
        np.copyto(self._previous, self._small)
        changed = np.count_nonzero(cv2.max(over, under).max(axis=2) > self.config.threshold // 2)
        return bool(changed > 0.003 * over.shape[0] * over.shape[1])

    def _absorb_still_things(self, mat: np.ndarray, foreground: np.ndarray, sighting: Sighting, t: float) -> None:
        """Something that is no card and has lain still for ``absorb_s`` joins the empty mat, so the
        zones under it are not frozen for ever; outlines holding a known card are left alone."""
        if self._moved(mat) or not sighting.occluded:
            self._still_since = None
            return
        if self._still_since is None:
            self._still_since = t
        if t - self._still_since < self.config.absorb_s or self._reference is None:
            return
        self._still_since = None
        s = self.config.locate_px_per_mm
        keep = np.zeros(foreground.shape, np.uint8)
        for zone, slot in self.tracker.on_table():
            x0, y0, x1, y1 = (round(v * s) for v in self.layout.zone(zone).slots[slot].rect)
            pad = round(6 * s)
            keep[max(0, y0 - pad):y1 + pad, max(0, x0 - pad):x1 + pad] = 255
        free = cv2.bitwise_not(keep)
        still = cv2.bitwise_and(cv2.dilate(cv2.bitwise_and(foreground, free), self._kernel), free) > 0
        np.copyto(self._reference, mat, where=still[..., None])
        np.copyto(self._accumulator, mat, where=still[..., None], casting="unsafe")

    def _adapt(self, mat: np.ndarray, foreground: np.ndarray, sighting: Sighting) -> None:
        """Let the empty mat follow the light where the felt is bare (never under cards or hands)."""
        bare = cv2.bitwise_not(cv2.dilate(foreground, self._kernel))
        s = self.config.locate_px_per_mm
        for zone in self.layout.zones:
            if zone.name in sighting.occluded:
                x0, y0, x1, y1 = (round(v * s) for v in zone.rect)
                bare[max(0, y0):y1, max(0, x0):x1] = 0
        cv2.accumulateWeighted(mat, self._accumulator, self.config.adapt, mask=bare)
        assert self._reference is not None  # the empty mat is learned before it adapts
        np.copyto(self._reference, self._accumulator, casting="unsafe")
