"""Table protocols: how a game is played on the mat, turning table events into game actions.

A protocol belongs to one :class:`device.session.Session` and is only called with the session's
lock held; it reaches the session through :class:`TableSession` and the game only through the
interface its table declares (:mod:`games.table`). It keeps what lies on the mat and, when it is
unsure (a card read with low confidence, a card it cannot read, a play the rules refuse), an
:class:`Ask`: the device says what it wants (OLED, LEDs, phone) and waits. Events that arrive
meanwhile wait in order behind the question.

Protocols are registered by table name (``@register_protocol``, like games' ``@register``):
every module of this package is imported once and registers its own. ``protocol_for(session)``
picks the one the game's ``spec.table`` names; a game whose table has no protocol yet gets
:class:`PhoneOnly` (every action from the buttons or the phone), which says so in the view.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, Literal, Protocol, TypeVar

from games.errors import IllegalActionError
from games.jsontypes import JSONObject
from games.table import Zone
from games.view import Question

if TYPE_CHECKING:
    from games.engine import Action, Game, State
    from vision.events import TableEvent

AskKind = Literal["confirm", "unreadable", "illegal"]


class Recorded(Protocol):
    """An action the session has recorded, in its record form."""

    @property
    def action(self) -> JSONObject: ...


class TableSession(Protocol):
    """What a table protocol may use of its session: the game and its current state, the actions
    recorded so far, the confidence a read needs, and the one path by which actions are applied."""

    @property
    def game(self) -> Game: ...

    @property
    def state(self) -> State: ...

    @property
    def entries(self) -> Sequence[Recorded]: ...

    @property
    def confidence(self) -> float: ...

    def apply(self, actions: Sequence[Action], *, source: str, input: str | None = None) -> State:
        """Check ``actions`` with the engine, record them and make them current (raises, changing
        nothing, when the rules refuse any of them)."""


@dataclass
class Ask:
    """A question the device is waiting on. ``kind``: ``confirm`` (a low-confidence read: OK
    applies ``actions``), ``unreadable`` (a card it cannot read) or ``illegal`` (the rules refuse
    what was read, or what the table implied: OK ignores it). Taking the card away from ``where``
    (slot ``slot``), or entering the right action on the phone, also answers it."""

    kind: AskKind
    text: str
    where: Zone | None = None
    slot: int | None = None
    card: str | None = None
    actions: list[Action] = field(default_factory=list)

    @property
    def zone(self) -> str | None:
        """The zone asked about as the mat names it (what the phone and the runtime use)."""
        return self.where.name if self.where is not None else None

    def question(self) -> Question:
        """The question as every view shows it."""
        return Question(self.kind, self.text, self.zone, self.slot, self.card,
                        tuple(a.to_json() for a in self.actions))

    def to_json(self) -> JSONObject:
        return {"kind": self.kind, "text": self.text, "zone": self.zone, "slot": self.slot,
                "card": self.card, "actions": [a.to_json() for a in self.actions]}


class TableProtocol:
    """The base: no table reading; answers to the session's hooks."""

    #: the ``spec.table`` this protocol plays
    name: ClassVar[str] = "phone"

    def __init__(self, session: TableSession) -> None:
        self.session = session
        self.ask: Ask | None = None

    @classmethod
    def serves(cls, state: State) -> bool:
        """Whether ``state`` answers this protocol's questions (its table's declared interface)."""
        return True

    @property
    def notice(self) -> str | None:
        """A standing word for the players about how this table is played (shown as the message
        when nothing else is)."""
        return None

    def reset(self) -> None:
        """The game changed under the protocol (start-up, undo, correction, new game)."""
        self.ask = None

    def on_events(self, events: Iterable[TableEvent], *, on_table: Mapping[tuple[str, int], str] | None = None,
                  input: str | None = None) -> None:
        """Table events in the order they happened. ``on_table``: what the tracker believes lies
        on the mat now (None when not known)."""

    def confirm(self, *, source: str, input: str | None = None) -> None:
        raise IllegalActionError("there is nothing to confirm: the device is not asking anything")

    def resolve(self, card: str, *, source: str) -> None:
        """The card asked about is really ``card``."""
        raise IllegalActionError("there is nothing to correct: the device is not asking about a card")

    def answered(self, action: JSONObject) -> None:
        """An action from the phone or a button was recorded: it answers any question pending."""

    def after_change(self) -> None:
        """An action from the phone or a button was applied."""


class PhoneOnly(TableProtocol):
    """For games whose table protocol is not built yet: the camera is not used to score."""

    def __init__(self, session: TableSession, notice: str | None = None) -> None:
        super().__init__(session)
        self._notice = notice

    @property
    def notice(self) -> str | None:
        return self._notice


P = TypeVar("P", bound=type[TableProtocol])
_PROTOCOLS: dict[str, type[TableProtocol]] = {}


def register_protocol(cls: P) -> P:
    """Class decorator: the protocol plays every game whose ``spec.table`` is ``cls.name``."""
    owner = _PROTOCOLS.get(cls.name)
    if owner is not None and owner is not cls:
        raise ValueError(f"table protocol {cls.name!r} is taken by {owner.__qualname__}")
    _PROTOCOLS[cls.name] = cls
    return cls


_NOT_PROTOCOLS = ("device.protocols.mat", "device.protocols.script")


def _load_protocols() -> None:
    """Import every module of this package once: each registers the protocols it defines."""
    for info in pkgutil.iter_modules(__path__, prefix=f"{__name__}."):
        if info.name not in _NOT_PROTOCOLS:
            importlib.import_module(info.name)


def registered_protocols() -> dict[str, type[TableProtocol]]:
    """Table name -> the protocol that plays it."""
    _load_protocols()
    return dict(_PROTOCOLS)


def protocol_for(session: TableSession) -> TableProtocol:
    """The protocol of the game's ``spec.table``; :class:`PhoneOnly`, saying why, when none fits."""
    spec = session.game.spec
    cls = registered_protocols().get(spec.table)
    if cls is None:
        return PhoneOnly(session, f"{spec.title} is played on a {spec.table} table, which the camera "
                                  "cannot follow yet: enter every action on the phone")
    if not cls.serves(session.state):
        return PhoneOnly(session, f"{spec.title} does not answer the {spec.table} table's questions: "
                                  "enter every action on the phone")
    return cls(session)
