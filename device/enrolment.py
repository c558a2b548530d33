"""Enrolment as a mode of the device: while a deck is being taught from a phone, the camera's
frames go to the enrolment wizard (:mod:`vision.enrol_session`) instead of the game, which
waits unchanged; finishing saves the deck and hands it to the table's card reader, which uses
it from then on (and the game's pipeline learns its empty mat again: the mat was changed).

The web app reaches it through :class:`device.service.EnrolmentService` only; what comes out is
typed (:class:`device.service.EnrolmentStatus`). Every refusal is a :class:`~games.errors.PegpiError` a player can read.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Mapping

import numpy as np

from device.service import EnrolmentStatus, OutlineStatus
from games.errors import PegpiError
from vision.enrol_session import CARD_SETS, EnrolmentWizard, EnrolReader, Order
from vision.enroll import EnrolledDeck
from vision.preview import encode_jpeg
from vision.sources import Frame

log = logging.getLogger(__name__)


class EnrolmentError(PegpiError):
    """A request the enrolment mode refuses (none running, one already running, a bad answer)."""


class EnrolmentMode:
    """The one :class:`~device.service.EnrolmentService` of a device. ``reader``: the table's card model (None:
    there is none, and enrolment is refused); ``on_deck``: told the finished deck (the companion
    adds it to the model the game reads with)."""

    def __init__(self, reader: EnrolReader | None, *, paper: str = "A3",
                 folder: str | os.PathLike[str] | None = None,
                 on_deck: Callable[[EnrolledDeck], object] | None = None) -> None:
        self.reader = reader
        self.paper = paper
        self.folder = folder
        self.on_deck = on_deck
        self._lock = threading.Lock()
        self._wizard: EnrolmentWizard | None = None
        self._last: str | None = None

    @property
    def active(self) -> bool:
        return self._wizard is not None

    def take_frame(self, frame: Frame) -> bool:
        """The table loop's frame, if a deck is being enrolled (True: taken; the game gets none)."""
        with self._lock:
            wizard = self._wizard
            if wizard is None:
                return False
            wizard.feed(frame.image, frame.t)
            return True

    def _running(self) -> EnrolmentWizard:
        if self._wizard is None:
            raise EnrolmentError("no deck is being enrolled: start one first")
        return self._wizard

    def _status(self) -> EnrolmentStatus:
        w = self._wizard
        if w is None:
            return EnrolmentStatus(False, last=self._last, card_sets=tuple(CARD_SETS))
        outlines = tuple(OutlineStatus(o.outline, o.state, o.read, o.confidence, o.proposal, o.name, o.look)
                         for o in w.outlines())
        return EnrolmentStatus(True, w.name, w.cards, w.order, w.status, w.covered, outlines,
                               tuple(w.expected()), w.enrolled, w.total, w.batches, tuple(w.names or ()),
                               self._last, tuple(CARD_SETS))

    def status(self) -> EnrolmentStatus:
        with self._lock:
            return self._status()

    def start(self, deck: str, *, cards: str = "standard", order: str = "given") -> EnrolmentStatus:
        with self._lock:
            if self.reader is None:
                raise EnrolmentError("this device has no card model to teach: enrolment needs models/cards.onnx")
            if self._wizard is not None:
                raise EnrolmentError(f"the deck {self._wizard.name!r} is being enrolled: finish or cancel it first")
            if order not in ("given", "any"):
                raise EnrolmentError(f"the order is 'given' or 'any', not {order!r}")
            chosen: Order = "given" if order == "given" else "any"
            self._wizard = EnrolmentWizard(self.reader, deck, cards=cards, order=chosen, paper=self.paper,
                                           folder=self.folder)
            log.info("enrolling deck %r (%s)", self._wizard.name, cards)
            return self._status()

    def crop_jpeg(self, outline: int) -> bytes | None:
        with self._lock:
            crop = self._running().crop(outline)
            if crop is None:
                return None
            return encode_jpeg(np.ascontiguousarray(crop), width=crop.shape[1], quality=85)

    def confirm(self, names: Mapping[int, str]) -> EnrolmentStatus:
        with self._lock:
            self._running().confirm(names)
            return self._status()

    def finish(self) -> EnrolmentStatus:
        with self._lock:
            wizard = self._running()
            deck = wizard.finish()
            if self.on_deck is not None:
                self.on_deck(deck)
            log.info("enrolled deck %r: %d cards", deck.name, len(deck.labels))
            self._wizard, self._last = None, deck.name
            return self._status()

    def cancel(self) -> EnrolmentStatus:
        with self._lock:
            self._running()
            self._wizard = None
            return self._status()
