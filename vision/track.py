"""Tracking cards slot by slot: sightings in, table events out.

A card counts as placed once seen with the same appearance for ``stable_frames`` frames in a
row, and as removed once its slot has been seen empty for ``removal_s`` seconds. A zone under a
hand is frozen: nothing is placed or removed there until the hand has gone. The classifier is
asked only about cards that are new, whose appearance changed, or that a hand was over (it may
have swapped one card for a look-alike: the jack of spades for the jack of hearts on a pile),
never about every card every frame; the clock is the frames' own time, so tests drive it by hand.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from vision.api import UNKNOWN, Prediction
from vision.events import TableEvent
from vision.locate import SeenCard, Sighting, similarity
from vision.mat import MatLayout

#: Reads the given cards (as seen this frame); returns one prediction per card.
Classify = Callable[[Sequence[SeenCard]], list[Prediction]]


@dataclass(frozen=True, slots=True)
class TrackerConfig:
    """``stable_frames``: frames a new card must be seen unchanged before it counts as placed;
    ``removal_s``: seconds a slot must be seen empty before its card counts as removed;
    ``same_card``: signature similarity above which two sightings are the same card;
    a reading below ``min_confidence`` (or ``unknown``) is tried again ``retries`` times, every
    ``retry_frames`` frames (a glare, a blur), before the best reading is reported; so is a card
    newly read below ``look_again`` (the device's asking threshold: a hand leaving may still cover
    part of it), so that a sure second look spares the players a question; and a card read well
    before, looked at after a hand was over it, stays what it was unless read otherwise at
    ``look_again`` or more (a hand near the card may still shade it), but on a pile, where a hand
    usually brings a new card."""

    stable_frames: int = 3
    removal_s: float = 0.5
    same_card: float = 0.8
    min_confidence: float = 0.5
    retries: int = 2
    retry_frames: int = 4
    look_again: float = 0.0


@dataclass(slots=True)
class _SlotState:
    card: str | None = None
    confidence: float = 0.0
    signature: np.ndarray | None = None
    candidate: np.ndarray | None = None
    #: a second look of the candidate: a card whose outline is found two ways in turn (touching
    #: its neighbour, or not) shows two signatures frame after frame, and is still one card
    alt: np.ndarray | None = None
    seen: int = 0
    missing_since: float | None = None
    tries: int = 0
    best: Prediction | None = None
    verify: bool = False  # a hand was over the card: read it once more when it is seen again
    #: what the camera read the card as before the players named it otherwise (:meth:`Tracker.correct`)
    misread: str | None = None

    def forget_candidate(self) -> None:
        self.candidate, self.alt, self.seen, self.tries, self.best = None, None, 0, 0, None


class Tracker:
    """The cards on one mat. Create once per table; call :meth:`update` with each frame's sighting."""

    def __init__(self, layout: MatLayout, config: TrackerConfig | None = None) -> None:
        self.layout = layout
        self.config = config or TrackerConfig()
        self._zones = {z.name: z for z in layout.zones}
        self._slots = {(z.name, s.index): _SlotState() for z in layout.zones for s in z.slots}
        self.classified = 0
        #: (zone, slot) -> the reading behind the last ``placed`` event there (the very object the
        #: classifier returned, so the pipeline can tell which crop it came from)
        self.placed_readings: dict[tuple[str, int], Prediction] = {}

    def on_table(self) -> dict[tuple[str, int], str]:
        """(zone, slot) -> the card the tracker believes lies there."""
        return {key: st.card for key, st in self._slots.items() if st.card is not None}

    def correct(self, zone: str, slot: int, card: str) -> None:
        """The players named the card at ``slot`` of ``zone`` otherwise than it was read: it is
        ``card`` from now on (taken away, it is reported as such), and a later look at it that
        reads it as before is that same card, not a card swapped in."""
        st = self._slots.get((zone, slot))
        if st is None or st.card is None or st.card == card:
            return
        st.misread, st.card, st.confidence = st.card, card, 1.0

    def update(self, sighting: Sighting | None, t: float, classify: Classify) -> list[TableEvent]:
        """Advance to time ``t`` with this frame's sighting (None: the mat is not seen, so nothing
        changes). Returns the events this frame settles, in zone/slot order."""
        if sighting is None:
            for st in self._slots.values():
                st.forget_candidate()
                st.missing_since = None
            return []
        cfg = self.config
        seen = {(c.zone, c.slot): c for c in sighting.cards}
        ready: list[tuple[tuple[str, int], SeenCard]] = []
        events: list[TableEvent] = []
        for key, st in self._slots.items():
            zone, slot = key
            if zone in sighting.occluded:
                st.forget_candidate()
                st.missing_since = None
                st.verify = st.card is not None
                continue
            card = seen.get(key)
            if card is None:
                st.forget_candidate()
                if st.card is not None:
                    if st.missing_since is None:
                        st.missing_since = t
                    if t - st.missing_since >= cfg.removal_s - 1e-9:
                        events.append(TableEvent(zone, st.card, "removed", t, st.confidence, slot))
                        st.card, st.signature, st.missing_since = None, None, None
                        st.verify, st.misread = False, None  # no card left to read again: the next one is new
                continue
            st.missing_since = None
            if (st.signature is not None and not st.verify
                    and similarity(card.signature, st.signature) >= cfg.same_card):
                st.forget_candidate()
                continue
            if st.candidate is not None and (
                    similarity(card.signature, st.candidate) >= cfg.same_card
                    or (st.alt is not None and similarity(card.signature, st.alt) >= cfg.same_card)):
                st.seen += 1
            elif st.candidate is not None and st.alt is None:
                st.alt = card.signature
                st.seen += 1
            else:
                st.forget_candidate()
                st.candidate, st.seen = card.signature, 1
            wait = st.seen - cfg.stable_frames
            if wait >= 0 and wait % max(1, cfg.retry_frames) == 0:
                ready.append((key, card))
        if ready:
            predictions = classify([card for _, card in ready])
            self.classified += len(ready)
            for (key, card), pred in zip(ready, predictions, strict=True):
                events.extend(self._settle(key, card, pred, t))
        events.sort(key=lambda e: (e.kind != "removed", e.zone, e.slot or 0))
        return events

    def _settle(self, key: tuple[str, int], card: SeenCard, pred: Prediction, t: float) -> list[TableEvent]:
        st = self._slots[key]
        zone, slot = key
        events: list[TableEvent] = []
        if st.best is None or pred.confidence > st.best.confidence or st.best.label == UNKNOWN:
            if pred.label != UNKNOWN or st.best is None:
                st.best = pred
        unsure = st.best.label == UNKNOWN or st.best.confidence < self.config.min_confidence
        # below the asking threshold: a new card, or a card read after a hand as another than before
        # where cards lie side by side (on a pile, a hand usually brings a new card: it is read anew)
        shaded = st.verify and not self._zones[zone].stack and st.best.label not in (st.card, st.misread)
        doubtful = st.best.confidence < self.config.look_again and (not st.verify or shaded)
        if (unsure or doubtful) and st.tries < self.config.retries:
            st.tries += 1  # look again in a few frames
            return events
        pred = st.best
        st.forget_candidate()
        verifying, st.verify = st.verify, False
        if verifying and (unsure or doubtful):  # a doubtful second look does not unseat a card read well
            return events
        if pred.label in (st.card, st.misread):  # same card, new look (light, a nudge): remember the look
            st.signature = card.signature
            return events
        if st.card is not None and not self._zones[zone].stack:
            events.append(TableEvent(zone, st.card, "removed", t, st.confidence, slot))
        st.card, st.confidence, st.signature, st.misread = pred.label, pred.confidence, card.signature, None
        events.append(TableEvent(zone, pred.label, "placed", t, pred.confidence, slot))
        self.placed_readings[key] = pred
        return events
