"""The layout protocol (Cribbage Patience, and games read as an arrangement of outlines): each
card laid into an outline of the grid is a move at that place.

What the camera sees, and what it means (the game says, through :class:`games.table.LayoutTable`):

- a card laid in an empty outline is the game's move there (Patience: the square's card at that
  row and column); a card the game already holds there is seen again and means nothing;
- a card laid over another (Patience: the starter laid on the square) is the move the game
  expects next; the card underneath stays in the game;
- a card read below the confidence threshold is asked about before it counts; a card the camera
  cannot read, or a move the rules refuse ("row 1, column 2 already holds 7H"), is named and
  waits: take it back, enter the move on the phone, or press OK to ignore it.

Nothing is undone by the table: a card taken away from an outline leaves the game as it is (an
undo is made on the phone), so the recorded game is never lost to a nudged card.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from device.protocols import NOT_A_FACE, Ask, TableProtocol, TableSession, register_protocol
from device.protocols.pegging import Seen
from device.protocols.script import register_script
from games.errors import IllegalActionError, PegpiError
from games.jsontypes import JSONObject
from games.records import Replay
from games.table import LayoutTable, Zone

if TYPE_CHECKING:
    from games.engine import Action, State
    from vision.events import TableEvent

Key = tuple[Zone, int]


def layout_table(state: State) -> LayoutTable:
    """``state`` as the layout table's interface; refuses a game that does not declare it."""
    if not isinstance(state, LayoutTable):
        raise IllegalActionError(f"{state.game.spec.title} is not played on the layout table")
    return state


@register_protocol
class LayoutProtocol(TableProtocol):
    name = "layout"

    @classmethod
    def serves(cls, state: State) -> bool:
        return isinstance(state, LayoutTable)

    def __init__(self, session: TableSession) -> None:
        super().__init__(session)
        self.mat: dict[Key, Seen] = {}
        self.waiting: list[tuple[TableEvent, str | None]] = []

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
            self.session.apply(ask.actions, source=source, input=input)
            seen = self.mat.get((ask.where, ask.slot or 0)) if ask.where is not None else None
            if seen is not None:
                seen.sure = True
        self.ask = None  # a refusal or an unreadable card: OK means "ignore that card"
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
            self.session.apply(actions, source=source)
        self._drain()

    def answered(self, action: JSONObject) -> None:
        self.ask = None  # the phone gave what the table could not

    def after_change(self) -> None:
        self._drain()

    # ------------------------------------------------------------------ events

    def _takes_back(self, event: TableEvent) -> bool:
        ask = self.ask
        return (ask is not None and event.kind == "removed"
                and (event.place, event.slot or 0) == (ask.where, ask.slot or 0))

    def _drain(self) -> None:
        while self.waiting and self.ask is None:
            event, input = self.waiting.pop(0)
            self._event(event, input)

    def _event(self, event: TableEvent, input: str | None) -> None:
        try:
            zone = event.place
        except PegpiError:
            return  # a zone this mat does not have
        key = (zone, event.slot or 0)
        if event.kind == "removed":
            self.mat.pop(key, None)
            if self.ask is not None and (self.ask.where, self.ask.slot or 0) == key:
                self.ask = None  # the card asked about was taken back
            return
        sure = event.confidence >= self.session.confidence
        self.mat[key] = Seen(event.card, event.confidence, sure)
        label = layout_table(self.session.state).zone_label(zone)
        if event.card in NOT_A_FACE:
            self.ask = Ask("unreadable", f"cannot read the card in {label}: straighten it or enter it on "
                           "the phone", zone, key[1], event.card)
            return
        try:
            actions = self._meaning(zone, key[1], event.card)
        except PegpiError as exc:
            self.ask = Ask("illegal", f"{event.card} in {label}: {exc}", zone, key[1], event.card)
            return
        if not actions:
            return
        if not sure:
            self.ask = Ask("confirm", f"is that the {event.card} in {label}? OK, or correct it",
                           zone, key[1], event.card, actions)
            return
        self.session.apply(actions, source="table", input=input)

    def _meaning(self, zone: Zone, slot: int, card: str) -> list[Action] | None:
        """What ``card`` in outline ``slot`` of ``zone`` means now, checked by the engine (a move
        the rules refuse raises); None when the game already holds it."""
        state = self.session.state
        actions = layout_table(state).slot_means(zone, slot, card)
        for action in actions or []:
            state = state.apply(action)
        return actions


@register_script("layout")
def layout_script(result: Replay) -> list[JSONObject]:
    """The steps that play a record on a layout mat: each action's cards laid where the game says
    they lie (over what lies there already); actions the camera cannot see are said."""
    state = result.game.new_initial_state()
    layout_table(state)  # refuses a game not played on the layout table
    steps: list[JSONObject] = []
    for action in result.actions:
        laid = layout_table(state).laid_by(action)
        for zone, slot, card in laid:
            steps.append({"op": "place", "zone": zone.name, "slot": slot, "card": card})
        if not laid:
            steps.append({"op": "say", "action": action.to_json()})
        state = state.apply(action)
    return steps
