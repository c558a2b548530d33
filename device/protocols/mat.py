"""What the table protocols that read a mat share (not a protocol itself: nothing registers here).

:class:`MatProtocol` keeps the mat's memory (which card lies where, and how sure the read was),
asks the game through the table interface a protocol names, takes a correction of the card asked
about, and words the device's questions the same way for every table: a card it cannot read, a card
read below the confidence threshold. :class:`QueuedMatProtocol` adds the flow the pegging, pile and
layout protocols follow: table events wait in order behind a pending question; taking the card
asked about away, OK, a correction or an action from the phone answers it, and the events held back
are then read in turn. A protocol says what a card means (:meth:`QueuedMatProtocol._meaning`) and
may add to each step through the hooks below.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

from device.protocols import Ask, TableProtocol, TableSession
from games.errors import IllegalActionError, PegpiError
from games.jsontypes import JSONObject
from games.table import TableState, Zone
from vision.api import NOT_A_FACE

if TYPE_CHECKING:
    from games.engine import Action, State
    from vision.events import TableEvent

#: a place on the mat: a zone and an outline of it (0 for a zone without outlines)
Key = tuple[Zone, int]


@dataclass
class Seen:
    """A card on the mat as the protocol knows it; ``sure`` once read confidently or confirmed."""

    card: str
    confidence: float
    sure: bool


S = TypeVar("S", bound=Seen)
T = TypeVar("T", bound=TableState)


class MatProtocol(TableProtocol, Generic[S, T]):
    """A protocol that remembers what lies on the mat (``mat``: place -> what was read there) and
    asks the game through the table interface ``T``."""

    #: the table interface of :mod:`games.table` a game's state declares to be played by it, set
    #: on each class (not a ClassVar only because it names the type variable)
    interface: type[T]

    @classmethod
    def serves(cls, state: State) -> bool:
        return isinstance(state, cls.interface)

    @classmethod
    def table_of(cls, state: State) -> T:
        """``state`` as this protocol's table interface; refuses a game that does not declare it
        (the placement scripts ask a state of their own through it too)."""
        if not isinstance(state, cls.interface):
            raise IllegalActionError(f"{state.game.spec.title} is not played on the {cls.name} table")
        return state

    def __init__(self, session: TableSession) -> None:
        super().__init__(session)
        self.mat: dict[Key, S] = {}

    def resolve(self, card: str, *, source: str) -> None:
        """The card asked about, lying where the question names, is really ``card``: a card the
        deck lacks raises (the question stands); else :meth:`_corrected` takes it."""
        ask = self.ask
        key = (ask.where, ask.slot or 0) if ask is not None and ask.where is not None else None
        if key is None or key not in self.mat:
            super().resolve(card, source=source)
            return
        self._table().card_means(key[0], card)
        self.ask = None
        self._corrected(key, card, source)

    def answered(self, action: JSONObject) -> None:
        self.ask = None  # the phone gave what the table could not

    def _table(self) -> T:
        """The current state as this protocol's table interface."""
        return self.table_of(self.session.state)

    def _key(self, event: TableEvent) -> Key | None:
        """The place ``event`` happened at; None in a zone this mat does not have (nothing of this
        game lies there)."""
        try:
            return event.place, event.slot or 0
        except PegpiError:
            return None

    def _corrected(self, key: Key, card: str, source: str) -> None:
        """After :meth:`resolve`: remember ``card`` at ``key`` as read sure, then settle what the
        mat now shows."""
        raise NotImplementedError

    def _label(self, zone: Zone) -> str:
        return self._table().zone_label(zone)

    def _check(self, actions: Sequence[Action], state: State | None = None) -> list[Action]:
        """``actions`` as the engine takes them one after another from ``state`` (by default the
        current one); a refusal raises."""
        if state is None:
            state = self.session.state
        for action in actions:
            state = state.apply(action)
        return list(actions)

    def _unreadable(self, zone: Zone, slot: int, card: str) -> Ask:
        return Ask("unreadable", f"cannot read the card in {self._label(zone)}: straighten it or enter it "
                   "on the phone", zone, slot, card)

    def _doubt(self, zone: Zone, slot: int, card: str, actions: Sequence[Action]) -> Ask:
        """The question about a card read below the confidence threshold: OK applies ``actions``."""
        return Ask("confirm", f"is that the {card} in {self._label(zone)}? OK, or correct it", zone, slot, card,
                   list(actions))


class QueuedMatProtocol(MatProtocol[Seen, T]):
    """Events in order, held behind a pending question; each card laid is read once, as it lands."""

    def __init__(self, session: TableSession) -> None:
        super().__init__(session)
        self.waiting: list[tuple[TableEvent, str | None]] = []

    # ------------------------------------------------------------------ hooks of the session

    def reset(self) -> None:
        super().reset()
        self.waiting = []

    def on_events(self, events: Iterable[TableEvent], *, on_table: Mapping[tuple[str, int], str] | None = None,
                  input: str | None = None) -> None:
        for event in events:
            if self.ask is not None and not self._takes_back(event):
                self.waiting.append((event, input))
                continue
            self._event(event, input)

    def confirm(self, *, source: str, input: str | None = None) -> None:
        ask = self.ask
        if ask is None:
            super().confirm(source=source)
            return
        if ask.kind == "confirm":
            if ask.actions:
                self._play(ask.where, ask.card, ask.actions, source, input)
            seen = self.mat.get((ask.where, ask.slot or 0)) if ask.where is not None else None
            if seen is not None:
                seen.sure = True
        else:
            self._let_be(ask)
        self.ask = None
        self._drain()

    def resolve(self, card: str, *, source: str) -> None:
        ask = self.ask
        if ask is None or ask.where is None:
            super().resolve(card, source=source)
            return
        zone, slot = ask.where, ask.slot or 0
        actions = self._meaning(zone, slot, card)  # a refusal raises: the question stands
        self.ask = None
        self.mat[(zone, slot)] = Seen(card, 1.0, True)
        if actions:
            self._play(zone, card, actions, source, None)
        self._drain()

    def after_change(self) -> None:
        self._drain()

    # ------------------------------------------------------------------ events

    def _takes_back(self, event: TableEvent) -> bool:
        """``event`` takes away the card asked about (which answers the question)."""
        ask = self.ask
        if ask is None or event.kind != "removed":
            return False
        return self._key(event) == (ask.where, ask.slot or 0)

    def _drain(self) -> None:
        """Read the events held back, in order, until one raises a question."""
        while self.waiting and self.ask is None:
            event, input = self.waiting.pop(0)
            self._event(event, input)

    def _event(self, event: TableEvent, input: str | None) -> None:
        key = self._key(event)
        if key is None:
            return
        zone = key[0]
        self._touched(key)
        if event.kind == "removed":
            self.mat.pop(key, None)
            if self.ask is not None and (self.ask.where, self.ask.slot or 0) == key:
                self.ask = None  # the card asked about was taken back
            self._removed(zone, key[1], input)
            return
        self.mat[key] = Seen(event.card, event.confidence, event.confidence >= self.session.confidence)
        self._placed(zone, key[1], event.card, input)

    def _placed(self, zone: Zone, slot: int, card: str, input: str | None) -> None:
        """A card landed at ``slot`` of ``zone`` (``self.mat`` holds the read): it is applied at
        once, asked about first when read unsure, or named when unreadable or refused."""
        if card in NOT_A_FACE and not self._reads_back(zone, card):
            if not self._lies_face_down(zone):
                self.ask = self._unreadable(zone, slot, card)
            return
        try:
            actions = self._meaning(zone, slot, card)
        except PegpiError as exc:
            self.ask = Ask("illegal", self._refused(zone, card, exc), zone, slot, card)
            return
        if not actions:
            return
        if not self.mat[(zone, slot)].sure:
            self.ask = self._doubt(zone, slot, card, actions)
            return
        self._play(zone, card, actions, "table", input)

    # ------------------------------------------------------------------ what a protocol says

    def _meaning(self, zone: Zone, slot: int, card: str) -> list[Action] | None:
        """What ``card`` laid at ``slot`` of ``zone`` means now, checked by the engine (a card the
        rules refuse raises); None or [] when it means nothing to apply."""
        raise NotImplementedError

    def _play(self, zone: Zone | None, card: str | None, actions: Sequence[Action], source: str,
              input: str | None) -> None:
        """Apply what a card (or the question about ``zone``) means."""
        self.session.apply(actions, source=source, input=input)

    def _refused(self, zone: Zone, card: str, exc: PegpiError) -> str:
        """The words for ``card`` in ``zone`` that the rules refuse."""
        return f"{card} in {self._label(zone)}: {exc}"

    def _lies_face_down(self, zone: Zone) -> bool:
        """Cards lie face down in ``zone`` by the rules: a card unread there is not a question."""
        return False

    def _reads_back(self, zone: Zone, card: str) -> bool:
        """A card the camera reports as not a face that is still a move in ``zone`` (a Skull card
        laid face down): it is read like any card, through :meth:`_meaning`."""
        return False

    def _let_be(self, ask: Ask) -> None:
        """OK on a refusal or an unreadable card: by default it means "ignore that card"."""

    def _touched(self, key: Key) -> None:
        """A card was laid at, or taken from, ``key`` (before the mat's memory follows)."""

    def _removed(self, zone: Zone, slot: int, input: str | None) -> None:
        """A card was taken from ``slot`` of ``zone`` (the memory and the question followed)."""
