"""The public face of a running table, used by the web app, the buttons and the CLI.

Everything outside ``device`` talks to the table through :class:`TableService` only; it never
reaches into the engine, the store or the hardware. Actions go in as raw JSON in the game-record
form (``{"act": "go", "player": 0}``, checked by the engine); what comes out is typed: a
:class:`~games.view.TableView`, :class:`HistoryEntry` values and :class:`Update` values.
:class:`device.session.Session` is the one implementation (a replayed game runs it over an
in-memory store, see :mod:`device.replay`).
"""

from __future__ import annotations

from collections.abc import Generator, Mapping
from dataclasses import dataclass
from typing import Literal, Protocol

from games.jsontypes import JSONObject
from games.scores import ScoreEvent
from games.view import TableView

#: What an :class:`Update` tells: a new ``view`` (after every change), the ``action``\ s just
#: recorded, a ``score`` pegged, the device's question (``ask``), an ``undo``, a ``correct``\ ion,
#: a ``new_game``, an ``error`` (the store refused), or a ``ping`` after a quiet spell.
UpdateKind = Literal["view", "action", "score", "ask", "undo", "correct", "new_game", "error", "ping"]


@dataclass(frozen=True)
class HistoryEntry:
    """One action of the current game: its number, what it was, who gave it and what it scored."""

    index: int
    action: JSONObject
    source: str
    corrected: bool
    t: float
    scores: tuple[ScoreEvent, ...] = ()

    @property
    def points(self) -> int:
        return sum(event.points for event in self.scores)

    def to_json(self) -> JSONObject:
        return {
            "index": self.index, "action": dict(self.action), "source": self.source,
            "corrected": self.corrected, "t": self.t, "points": self.points,
            "scores": [{"side": e.side, "seat": e.seat, "points": e.points, "kind": e.kind, "say": e.say(),
                        "cards": [str(c) for c in e.cards]}
                       for e in self.scores],
        }


@dataclass(frozen=True)
class Update:
    """One change of the table, as it happens. Only the fields of its ``kind`` are set; a ``view``
    update follows every change. ``message`` is plain text for everyone (the question, an error):
    it never holds a seat's hidden cards, so it may go to every phone."""

    kind: UpdateKind
    view: TableView | None = None  # "view": the spectators' view after the change
    message: str | None = None  # "ask" (None: the question is gone), "error"
    ask: JSONObject | None = None  # "ask": the question as the phone shows it
    actions: tuple[JSONObject, ...] = ()  # "action": the actions recorded, in record form
    score: ScoreEvent | None = None  # "score"
    index: int | None = None  # "correct": the action corrected
    source: str | None = None  # "action", "undo", "correct": who gave it
    game_id: int | None = None  # "new_game"

    def to_json(self) -> JSONObject:
        """For Server-Sent Events and logs: ``{"type": kind, ...}`` with the kind's own fields."""
        out: JSONObject = {"type": self.kind}
        if self.kind == "view" and self.view is not None:
            out["view"] = self.view.to_json()
        if self.kind in ("ask", "error"):
            out["message"] = self.message
        if self.kind == "ask":
            out["ask"] = self.ask
        if self.kind == "action":
            out["actions"] = [dict(a) for a in self.actions]
        if self.kind == "score" and self.score is not None:
            out["event"] = self.score.to_json()
        if self.kind == "correct":
            out["index"] = self.index
        if self.kind in ("action", "undo", "correct"):
            out["source"] = self.source
        if self.kind == "new_game":
            out["game_id"] = self.game_id
        return out


class TableService(Protocol):
    """One table, as the web app and the buttons see it. Every method is thread-safe; every
    refusal raises a :class:`~games.errors.PegpiError` whose message a player can read
    (:class:`~games.errors.IllegalActionError` when the rules or the table refuse it)."""

    @property
    def pairing_code(self) -> str:
        """The code shown on the device (OLED) that a phone must enter to change anything."""

    def new_pairing_code(self) -> str:
        """Show a new pairing code (asked for on the device): every phone must pair again."""

    def view(self, seat: int | None = None) -> TableView:
        """What ``seat`` may see (None: a spectator); never another seat's hidden cards."""

    def submit(self, action: JSONObject, *, source: str = "phone") -> TableView:
        """Apply one game action (record form), recorded before it is shown; the new spectators'
        view. A question the device was asking is answered by it."""

    def undo(self, *, source: str = "phone") -> TableView:
        """Take back the last action (recorded as an undo, never a destructive edit)."""

    def correct(self, index: int, action: JSONObject, *, source: str = "phone") -> TableView:
        """Replace action number ``index`` of this game by ``action`` (e.g. a misread card);
        refused, changing nothing, when a later action no longer fits."""

    def confirm(self, *, source: str = "button") -> TableView:
        """OK to what the device asks: a doubtful read is right, or a card it refused is ignored."""

    def resolve(self, card: str, *, source: str = "phone") -> TableView:
        """The card the device asks about is really ``card`` (the phone's card picker)."""

    def new_game(self, game: str, players: list[str], options: JSONObject | None = None) -> TableView:
        """End the current game and start another (from the registry)."""

    def history(self) -> list[HistoryEntry]:
        """Every action of the current game, in order."""

    def export(self) -> JSONObject:
        """The current game as a game record."""

    def subscribe(self) -> Generator[Update, None, None]:
        """Updates as they happen, the current view first; a consumer that stops iterating (or
        closes the iterator) is dropped. A ``ping`` comes after a quiet spell."""

    def games(self) -> list[JSONObject]:
        """The registry's games (``Spec.to_json()``), for the set-up page."""

    def camera_frame(self) -> bytes | None:
        """A recent camera frame as JPEG with the mat, zones and recognised cards drawn on it,
        or None when there is no camera."""



class ReplayedTable(TableService, Protocol):
    """A table whose actions come from a game record instead of a camera (a demo, a test, a bench)."""

    @property
    def steps_left(self) -> int:
        """The record's actions not yet played (0 once a new game was started)."""

    def step(self) -> TableView:
        """Play the record's next action as the camera would; the new spectators' view."""

    def close(self) -> None:
        """End every subscription and close the store."""


@dataclass(frozen=True)
class OutlineStatus:
    """One outline of an enrolment batch (1-based): ``empty``, ``settling`` (not read yet),
    ``card`` (read, to be named) or ``enrolled``; the model's reading, the proposed name, the
    name it was enrolled under, and ``look``, which changes whenever its crop does."""

    outline: int
    state: str
    read: str | None = None
    confidence: float = 0.0
    proposal: str | None = None
    name: str | None = None
    look: int = 0


@dataclass(frozen=True)
class EnrolmentStatus:
    """What the phone shows: whether a deck is being enrolled, its name and card set, what the
    camera sees (``table``), the outlines of the batch, the names to lay next, and progress."""

    active: bool
    deck: str | None = None
    cards: str | None = None
    order: str | None = None
    table: str = "waiting"
    covered: bool = False
    outlines: tuple[OutlineStatus, ...] = ()
    expected: tuple[str, ...] = ()
    enrolled: tuple[str, ...] = ()
    total: int | None = None
    batches: int = 0
    names: tuple[str, ...] = ()  # the card set's names (empty for a deck of one's own)
    last: str | None = None  # the deck finished last, by name
    card_sets: tuple[str, ...] = ()  # the card sets a deck may be enrolled as

    def to_json(self) -> JSONObject:
        return {
            "active": self.active, "deck": self.deck, "cards": self.cards, "order": self.order,
            "table": self.table, "covered": self.covered,
            "outlines": [{"outline": o.outline, "state": o.state, "read": o.read,
                          "confidence": round(o.confidence, 3), "proposal": o.proposal, "name": o.name,
                          "look": o.look} for o in self.outlines],
            "expected": list(self.expected), "enrolled": len(self.enrolled), "enrolled_names": list(self.enrolled),
            "total": self.total, "batches": self.batches, "names": list(self.names), "last": self.last,
            "card_sets": list(self.card_sets),
        }


class EnrolmentService(Protocol):
    """Enrolment from the phone. Thread-safe; refusals raise :class:`~games.errors.PegpiError`."""

    def status(self) -> EnrolmentStatus:
        """Where the enrolment stands (``active`` false when none is running)."""

    def start(self, deck: str, *, cards: str = "standard", order: str = "given") -> EnrolmentStatus:
        """Begin teaching deck ``deck`` (a new name) of card set ``cards``; the camera's frames go
        to it from now on."""

    def crop_jpeg(self, outline: int) -> bytes | None:
        """The crop of the card on ``outline`` (1-based) as JPEG, or None when none lies there."""

    def confirm(self, names: Mapping[int, str]) -> EnrolmentStatus:
        """Enrol the cards of the batch under ``names`` (outline -> card name)."""

    def finish(self) -> EnrolmentStatus:
        """Save the deck, hand it to the card reader and give the camera back to the game."""

    def cancel(self) -> EnrolmentStatus:
        """Forget the deck being enrolled and give the camera back to the game."""
