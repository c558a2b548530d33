"""Teaching pegpi a deck at the table: the enrolment wizard, batch by batch, from camera frames.

The players put down the enrolment mat (the ``layout`` mat, whose first :data:`BATCH` outlines
are used) with nothing on it, then lay up to twelve cards at a time. Frames go through the same
table pipeline as a game's (markers, warp, locate, track), so each card's crop is cut exactly as
the table will cut it in play. Each outline then shows its crop, what the card model reads and
the name the wizard proposes; the players confirm or rename, and the confirmed views are
embedded at once (with :func:`vision.enroll.augment_views`), so finishing only stacks and saves.
The saved deck is a plain :class:`~vision.enroll.EnrolledDeck`, read by the classifier's
nearest-view look-up like any deck enrolled by ``pegpi enroll``.

>>> sorted(CARD_SETS)
['decktet', 'jokers', 'own', 'standard']
>>> canonical_name("10h", CARD_SETS["standard"])
'10H'
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol, runtime_checkable

import numpy as np

from games.decktet import DECKTET
from vision.api import BACK, UNKNOWN, CardClassifier, Prediction
from vision.enroll import (
    DEFAULT_AUGMENT,
    Embedder,
    EnrolledDeck,
    augment_views,
    data_dir,
    list_decks,
    model_threshold,
)
from vision.errors import EnrolError
from vision.mat import MatLayout, layout_for
from vision.model_input import preprocess
from vision.pipeline import PipelineConfig, TablePipeline
from vision.render import CARD_IDS

#: Outlines laid at a time (the first ones of the mat's grid).
BATCH = 12
#: The card sets a deck may be enrolled as: the names the wizard expects (None: any names the
#: players give, for a deck of their own). A French deck's back comes last: a back the model does
#: not know reads as no card, and face-down cards (a crib, a stock) are then never counted.
CARD_SETS: dict[str, tuple[str, ...] | None] = {
    "standard": (*CARD_IDS[:52], BACK),
    "jokers": (*CARD_IDS, BACK),
    "decktet": tuple(c.name for c in DECKTET),
    "own": None,
}
#: How the players lay the cards: in the order the wizard shows (``given``), or any cards
#: (``any``: each is proposed as the model reads it, or left for the players to name).
Order = Literal["given", "any"]
#: What an outline holds: nothing, something not read yet (just laid, a hand over the mat, a card
#: lying across the outline), a card read and waiting to be named, or a card already enrolled.
OutlineState = Literal["empty", "settling", "card", "enrolled"]
_OWN_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 '_.,-]{0,39}$")
#: Looks at cards kept until the one a slot settles on is known (the tracker retries an unsure read).
_LOOKS_KEPT = 96


class EnrolReader(CardClassifier, Embedder, Protocol):
    """What the wizard needs of the card model: reading crops (to propose names) and embedding
    them (the enrolled descriptors). :class:`vision.classify.OnnxCardClassifier` is one."""


@runtime_checkable
class DeckReader(EnrolReader, Protocol):
    """A card model that can also use an enrolled deck from now on (the table's reader)."""

    def add_deck(self, deck: EnrolledDeck) -> None: ...


def canonical_name(name: str, names: Sequence[str] | None) -> str:
    """``name`` as the card set spells it (``"10h"`` -> ``"10H"``); any tidy name for a set of
    one's own. Raises :class:`EnrolError` naming the problem."""
    text = " ".join(str(name).split())
    if not text:
        raise EnrolError("a card needs a name")
    if names is None:
        if not _OWN_NAME.match(text) or text.lower() in (BACK, UNKNOWN):
            raise EnrolError(f"{text!r} is not a card name: up to 40 letters, digits, spaces or - _ . , '")
        return text
    key = text.replace(" ", "").upper()
    for known in names:
        if known.replace(" ", "").upper() == key:
            return known
    raise EnrolError(f"{text!r} is not a card of this deck (for example {', '.join(names[:3])})")


@dataclass(frozen=True, slots=True)
class OutlineRead:
    """One outline of the batch: its number (1-based, as printed), what it holds, what the model
    reads there, and the name the wizard proposes (None: the players must name it)."""

    outline: int
    state: OutlineState
    read: str | None = None
    confidence: float = 0.0
    proposal: str | None = None
    name: str | None = None  # the name it was enrolled under ("enrolled")
    look: int = 0  # changes whenever the crop does (the page's image address carries it)


@dataclass
class _Laid:
    crop: np.ndarray
    reading: Prediction
    look: int
    enrolled_as: str | None = None


class _Recorder:
    """The reader as the pipeline sees it: every crop read is kept beside its reading, so the crop
    behind each card placed can be found (the tracker hands back the very reading object)."""

    def __init__(self, reader: EnrolReader) -> None:
        self.reader = reader
        self.labels = reader.labels
        self.looks: list[tuple[Prediction, np.ndarray]] = []

    def classify(self, crops: Sequence[np.ndarray]) -> list[Prediction]:
        readings = self.reader.classify(crops)
        self.looks.extend((p, c.copy()) for p, c in zip(readings, crops, strict=True))
        del self.looks[:-_LOOKS_KEPT]
        return readings

    def crop_of(self, reading: Prediction) -> np.ndarray | None:
        found = [crop for p, crop in self.looks if p is reading]
        return found[-1] if found else None


@dataclass
class _Views:
    labels: list[str] = field(default_factory=list)
    views: list[np.ndarray] = field(default_factory=list)
    embeddings: list[np.ndarray] = field(default_factory=list)


class EnrolmentWizard:
    """One deck being enrolled: :meth:`feed` it camera frames, show :meth:`outlines`, then
    :meth:`confirm` each batch and :meth:`finish`. Not thread-safe (the device's mode locks it)."""

    def __init__(self, reader: EnrolReader, name: str, *, cards: str = "standard", order: Order = "given",
                 paper: str = "A3", folder: str | os.PathLike[str] | None = None,
                 augment: int = DEFAULT_AUGMENT, config: PipelineConfig | None = None) -> None:
        name = " ".join(str(name).split())
        if not re.match(r"^[A-Za-z0-9][A-Za-z0-9 _.-]{0,63}$", name):
            raise EnrolError(f"a deck name is letters, digits, spaces, '-', '_' or '.', not {name!r}")
        if name in list_decks(folder):
            raise EnrolError(f"a deck called {name!r} is already enrolled: choose another name, "
                             f"or remove it first (pegpi enroll {name} --remove)")
        if cards not in CARD_SETS:
            raise EnrolError(f"unknown card set {cards!r}; choose one of {', '.join(CARD_SETS)}")
        if order not in ("given", "any"):
            raise EnrolError(f"the order is 'given' or 'any', not {order!r}")
        if cards == "own" and order == "given":
            order = "any"  # a deck of one's own has no order to give
        self.reader = reader
        self.name = name
        self.cards = cards
        self.names = CARD_SETS[cards]
        self.order: Order = order
        self.folder = folder
        self.augment = augment
        self.layout: MatLayout = layout_for("layout", 1, paper)
        self.zone = self.layout.zones[0].name
        self.batch_size = min(BATCH, len(self.layout.zones[0].slots))
        self._recorder = _Recorder(reader)
        self.pipeline = TablePipeline(self.layout, self._recorder, config)
        self._laid: dict[int, _Laid] = {}
        self._seen: set[int] = set()
        self._stray: set[int] = set()
        self._covered = False
        self._status = "waiting"
        self._looks = 0
        self._done = _Views()
        self.batches = 0

    # -- frames in ------------------------------------------------------------------------------

    def feed(self, frame: np.ndarray, t: float) -> None:
        """One camera frame, taken at ``t`` seconds."""
        result = self.pipeline.process(frame, t)
        self._status = result.status
        tracker = self.pipeline.tracker
        for event in result.events:
            slot = event.slot or 0
            if event.kind == "removed":
                self._laid.pop(slot, None)
                continue
            reading = tracker.placed_readings.get((event.zone, slot))
            crop = self._recorder.crop_of(reading) if reading is not None else None
            if crop is not None and reading is not None:
                self._looks += 1
                self._laid[slot] = _Laid(crop, reading, self._looks)
        if result.sighting is not None:
            self._seen = {c.slot for c in result.sighting.cards}
            self._covered = bool(result.sighting.occluded)
            self._stray = {s for s in self._seen | set(self._laid) if s >= self.batch_size}

    # -- what the page shows --------------------------------------------------------------------

    @property
    def status(self) -> str:
        """The table as the pipeline last saw it: ``waiting`` (no frame yet), ``learning`` (the
        empty mat), ``ok``, ``held`` (markers covered), ``lost`` (no mat in view), ``dark``."""
        return self._status

    @property
    def covered(self) -> bool:
        """Something that is no card (a hand) lies over the mat this frame."""
        return self._covered

    @property
    def enrolled(self) -> tuple[str, ...]:
        """The names enrolled so far, in order."""
        return tuple(self._done.labels)

    @property
    def total(self) -> int | None:
        """How many cards the deck has (None: a deck of one's own, as many as the players give)."""
        return len(self.names) if self.names is not None else None

    def expected(self) -> list[str]:
        """The names to lay next, outline by outline (empty when any cards may be laid)."""
        if self.names is None or self.order == "any":
            return []
        done = set(self._done.labels)
        return [n for n in self.names if n not in done][: self.batch_size]

    def outlines(self) -> list[OutlineRead]:
        """Every outline of the batch, 1 to :attr:`batch_size`."""
        expected = self.expected()
        taken = {self._laid[s].enrolled_as for s in self._laid} | set(self._done.labels)
        out = []
        for slot in range(self.batch_size):
            laid = self._laid.get(slot)
            if laid is None:
                state: OutlineState = "settling" if slot in self._seen else "empty"
                out.append(OutlineRead(slot + 1, state))
                continue
            read = laid.reading.label
            if laid.enrolled_as is not None:
                out.append(OutlineRead(slot + 1, "enrolled", read, laid.reading.confidence,
                                       name=laid.enrolled_as, look=laid.look))
                continue
            proposal: str | None = None
            if self.order == "given":
                proposal = expected[slot] if slot < len(expected) else None
            elif read not in (BACK, UNKNOWN):
                try:
                    proposal = canonical_name(read, self.names)
                except EnrolError:
                    proposal = None
                if proposal in taken:
                    proposal = None
                taken.add(proposal)
            out.append(OutlineRead(slot + 1, "card", read, laid.reading.confidence, proposal, look=laid.look))
        return out

    def crop(self, outline: int) -> np.ndarray | None:
        """The crop of the card on ``outline`` (1-based), as the table cut it; None if none lies there."""
        laid = self._laid.get(outline - 1)
        return laid.crop if laid is not None else None

    # -- the players' answers -------------------------------------------------------------------

    def confirm(self, names: Mapping[int, str]) -> list[str]:
        """Enrol the batch: ``names`` maps each outline (1-based) holding a new card to its name.
        Every card read must be named, and none may be unsettled; nothing is enrolled otherwise.
        Returns the names enrolled."""
        pending = {o.outline: o for o in self.outlines() if o.state == "card"}
        if self._status in ("waiting", "learning"):
            raise EnrolError("pegpi is still learning the empty mat: keep it clear a moment")
        if self._covered:
            raise EnrolError("something lies over the mat (a hand?): take it away and wait a moment")
        if self._stray:
            first = min(self._stray) + 1
            raise EnrolError(f"a card lies on outline {first}: enrolment uses outlines 1 to {self.batch_size}, "
                             "move it onto a free one")
        settling = [o.outline for o in self.outlines() if o.state == "settling"]
        if settling:
            raise EnrolError(f"the card on outline {settling[0]} is not read yet: lay it flat inside the "
                             "outline and wait a moment")
        if not pending:
            raise EnrolError("no new card lies on the outlines: lay the next cards first")
        unknown = sorted(set(names) - set(pending))
        if unknown:
            raise EnrolError(f"outline {unknown[0]} holds no new card to name")
        missing = sorted(set(pending) - set(names))
        if missing:
            raise EnrolError(f"name the card on outline {missing[0]}")
        chosen: dict[int, str] = {}
        for outline in sorted(names):
            try:
                name = canonical_name(names[outline], self.names)
            except EnrolError as exc:
                raise EnrolError(f"outline {outline}: {exc}") from None
            if name in self._done.labels:
                raise EnrolError(f"outline {outline}: {name} is already enrolled")
            twin = next((o for o, n in chosen.items() if n == name), None)
            if twin is not None:
                raise EnrolError(f"outlines {twin} and {outline} are both named {name}")
            chosen[outline] = name
        for outline, name in chosen.items():
            laid = self._laid[outline - 1]
            view = preprocess(laid.crop).copy()
            seed = len(self._done.labels)  # as EnrolledDeck.expanded_views seeds each view
            self._done.embeddings.append(self.reader.embed(augment_views(view, self.augment, seed)))
            self._done.labels.append(name)
            self._done.views.append(view)
            laid.enrolled_as = name
        self.batches += 1
        return list(chosen.values())

    def finish(self, *, save: bool = True) -> EnrolledDeck:
        """The deck of every view confirmed, saved to the decks folder unless ``save`` is false."""
        if not self._done.labels:
            raise EnrolError("no card is enrolled yet: confirm a batch first")
        deck = EnrolledDeck(self.name, list(self._done.labels), np.stack(self._done.views),
                            np.concatenate(self._done.embeddings).astype(np.float32), self.reader.model_id,
                            model_threshold(self.reader), self.augment)
        if save:
            deck.save(self.folder)
        return deck

    def stored_at(self) -> str:
        """Where :meth:`finish` saves the deck."""
        return str(data_dir(self.folder) / f"{self.name}.npz")
