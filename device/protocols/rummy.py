"""The rummy protocol (Gin Rummy): a face-down stock, a discard pile the camera follows, and each
seat's spread zone where a hand is laid face up at a knock.

What the camera sees, and what it means (the game says, through :class:`games.table.RummyTable`):

- a card laid on the discard pile is the discard of the player to move; the draw before it is
  inferred when the camera did not see it (a stock card is never seen), and so are the passes of
  a refused upcard;
- the top of the pile taken away (the card under it showing again, or the pile emptying) is a
  draw from the discard pile by the player to move;
- cards laid in a spread zone wait; the discard laid on the pile with the whole hand spread is
  the knock (gin with no deadwood), the hand read as one group and arranged by the engine into
  the melds that leave the least deadwood; the defender's whole hand in their spread zone is read
  the same way, with the layoffs that leave the least;
- a card laid on an empty pile while a deal is due is the next deal's upcard.

A group read with a doubtful card is asked about before it counts; a card the rules refuse is
named and waits (take it back, correct it on the phone, or OK to ignore it). Who deals first and
a pass that the next card does not show come from the phone or the buttons.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from device.protocols import NOT_A_FACE, Ask, TableSession, register_protocol
from device.protocols.layout import LayoutProtocol
from device.protocols.mat import Seen
from device.protocols.script import register_script
from games.errors import IllegalActionError, PegpiError, RecordError
from games.jsontypes import JSONObject
from games.records import Replay
from games.table import PILE, STOCK, RummyTable, Zone

if TYPE_CHECKING:
    from games.engine import Action, State
    from vision.events import TableEvent

Key = tuple[Zone, int]
#: the most seats a rummy mat has (four play two hands at once, at two tables)
MAT_SEATS = 3


def rummy_table(state: State) -> RummyTable:
    """``state`` as the rummy table's interface; refuses a game that does not declare it."""
    if not isinstance(state, RummyTable):
        raise IllegalActionError(f"{state.game.spec.title} is not played on the rummy table")
    return state


@register_protocol
class RummyProtocol(LayoutProtocol):
    name = "rummy"

    @classmethod
    def serves(cls, state: State) -> bool:
        return isinstance(state, RummyTable) and state.game.num_players <= MAT_SEATS

    def __init__(self, session: TableSession) -> None:
        super().__init__(session)
        self.pending: str | None = None  # a discard laid on the pile while a hand is being spread
        self.group: list[Key] = []  # the cards the last meaning was read from

    def reset(self) -> None:
        super().reset()
        self.pending = None

    def confirm(self, *, source: str, input: str | None = None) -> None:
        super().confirm(source=source, input=input)
        if self.ask is None:
            self.pending = None

    def resolve(self, card: str, *, source: str) -> None:
        ask = self.ask
        if ask is None or ask.where is None:
            super().resolve(card, source=source)
            return
        key = (ask.where, ask.slot or 0)
        old = self.mat.get(key)
        self.mat[key] = Seen(card, 1.0, True)
        try:
            actions = self._meaning(ask.where, key[1], card)
        except PegpiError:
            if old is not None:
                self.mat[key] = old
            raise  # the question stands
        self.ask = None
        if actions:
            self.session.apply(actions, source=source)
            self.pending = None
        self._drain()

    # ------------------------------------------------------------------ events

    def _event(self, event: TableEvent, input: str | None) -> None:
        try:
            zone = event.place
        except PegpiError:
            return  # a zone this mat does not have
        key = (zone, event.slot or 0)
        table = rummy_table(self.session.state)
        if table.lies_face_down(zone):
            return  # the stock: nothing there is seen
        if event.kind == "removed":
            self.mat.pop(key, None)
            if self.ask is not None and (self.ask.where, self.ask.slot or 0) == key:
                self.ask = None
                return
            if zone == PILE:
                if self.pending == event.card:
                    self.pending = None
                self._lifted(zone, event.card, input)
            return
        sure = event.confidence >= self.session.confidence
        self.mat[key] = Seen(event.card, event.confidence, sure)
        label = table.zone_label(zone)
        if event.card in NOT_A_FACE:
            self.ask = Ask("unreadable", f"cannot read the card in {label}: straighten it or enter it on "
                           "the phone", zone, key[1], event.card)
            return
        try:
            actions = self._meaning(zone, key[1], event.card)
        except PegpiError as exc:
            self.ask = Ask("illegal", f"{event.card}: {exc}", zone, key[1], event.card)
            return
        if not actions:
            return
        doubtful = [k for k in [key, *self.group] if k in self.mat and not self.mat[k].sure]
        if doubtful:
            where, slot = doubtful[0]
            card = self.mat[doubtful[0]].card
            self.ask = Ask("confirm", f"is that the {card} in {table.zone_label(where)}? OK, or correct it",
                           where, slot, card, actions)
            return
        self.session.apply(actions, source="table", input=input)
        self.pending = None

    def _lifted(self, zone: Zone, card: str, input: str | None) -> None:
        try:
            actions = self._checked(rummy_table(self.session.state).lifted(zone, card))
        except PegpiError as exc:
            self.ask = Ask("illegal", f"{card} taken: {exc}", zone, 0, card)
            return
        if actions:
            self.session.apply(actions, source="table", input=input)

    def _meaning(self, zone: Zone, slot: int, card: str) -> list[Action] | None:
        """What ``card`` in ``zone`` means now, read with the hands spread on the mat and checked
        by the engine (a move the rules refuse raises)."""
        table = rummy_table(self.session.state)
        self.group = []
        if zone.kind == "pile":
            means = table.card_means(zone, card)  # a discard, a deal, or nothing new (raises if refused)
            spreads = self._spreads(table) if means and table.whose_turn() is not None else {}
            for seat, keys in spreads.items():
                knock = table.knocks_with(seat, [self.mat[k].card for k in keys], card)
                if knock is not None:
                    self.group = keys
                    self.pending = card  # kept while the knock is asked about (a correction reads it again)
                    return self._checked(knock)
            if spreads:
                self.pending = card  # a hand is still being laid: the knock waits for it
                return []
            return self._checked(means)
        if zone.kind != "seat" or zone.seat is None:
            return None
        means = table.card_means(zone, card)
        if means is None:
            return None
        spreads = self._spreads(table)
        if self.pending is not None and zone.seat in spreads:
            keys = spreads[zone.seat]
            knock = table.knocks_with(zone.seat, [self.mat[k].card for k in keys], self.pending)
            if knock is not None:
                self.group = [*keys, (PILE, 0)]
                return self._checked(knock)
        defender = table.whose_turn()
        if defender is not None and defender in spreads:
            keys = [k for keys in spreads.values() for k in keys]  # layoffs may lie by the knocker's melds
            spread = table.spread_from(defender, [self.mat[k].card for k in keys])
            if spread is not None:
                self.group = keys
                return self._checked(spread)
        return means

    def _spreads(self, table: RummyTable) -> dict[int, list[Key]]:
        """Each seat's cards in its spread zone that the game does not hold there yet, in slot order."""
        out: dict[int, list[Key]] = {}
        for key in sorted(self.mat, key=lambda k: (k[0], k[1])):
            zone = key[0]
            seen = self.mat[key]
            if zone.kind != "seat" or zone.seat is None or seen.card in NOT_A_FACE:
                continue
            if seen.card in table.zone_cards(zone):
                continue
            out.setdefault(zone.seat, []).append(key)
        return out

    def _checked(self, actions: Sequence[Action] | None) -> list[Action] | None:
        """``actions`` once the engine accepts them all (a refusal raises, changing nothing)."""
        if actions is None:
            return None
        state = self.session.state
        for action in actions:
            state = state.apply(action)
        return list(actions)


@register_script("rummy")
def rummy_script(result: Replay) -> list[JSONObject]:
    """The steps that play a Gin record on the rummy mat: the stock and the upcard at each deal,
    discards laid on the pile, draws from it as its top taken (the card under it showing again),
    a knock as the hand laid in the knocker's spread zone and then the discard, the defender's hand
    and layoffs in their zone. The first dealer and a pass no later card shows are said."""
    state = result.game.new_initial_state()
    rummy_table(state)  # refuses a game not played on the rummy table
    if result.game.num_players > MAT_SEATS:
        raise RecordError(f"{result.game.spec.title} for {result.game.num_players} is played at two tables at "
                          f"once; the rummy mat follows one hand of {MAT_SEATS} players at most")
    steps: list[JSONObject] = []
    mat: set[tuple[str, int]] = set()
    pile: list[str] = []
    records = [a.to_json() for a in result.actions]

    def place(zone: Zone, slot: int, card: str) -> None:
        step: JSONObject = {"op": "place", "zone": zone.name, "slot": slot, "card": card}
        if (zone.name, slot) in mat and zone == PILE:
            step["cover"] = True
        mat.add((zone.name, slot))
        steps.append(step)

    def lay(seat: int, cards: Sequence[str]) -> None:
        zone = Zone.row(seat)
        for card in cards:
            place(zone, sum(1 for z, _ in mat if z == zone.name), card)

    for index, action in enumerate(result.actions):
        data = records[index]
        act = data["act"]
        before = state
        state = state.apply(action)
        table = rummy_table(state)
        if act == "deal":
            for zone, slot in sorted(mat):
                steps.append({"op": "remove", "zone": zone, "slot": slot})
            mat.clear()
            if data.get("dealer") is not None:
                steps.append({"op": "say", "action": data})  # who deals: the phone or the buttons
            place(STOCK, 0, "back")
            place(PILE, 0, data["card"])
            pile[:] = [data["card"]]
        elif act == "pass":
            shown = next((r for r in records[index + 1:] if r["act"] != "pass"), None)
            if shown is None or shown["act"] != "draw" or shown.get("source") != "discard":
                continue  # the next discard shows it
            steps.append({"op": "say", "action": data})
        elif act == "draw":
            if data.get("source") == "discard":
                steps.append({"op": "remove", "zone": PILE.name, "slot": 0})
                mat.discard((PILE.name, 0))
                pile.pop()
                if pile:
                    place(PILE, 0, pile[-1])  # the card under it shows again
        elif act == "discard":
            place(PILE, 0, data["card"])
            pile.append(data["card"])
        elif act in ("knock", "gin"):
            lay(data["player"], table.zone_cards(Zone.row(data["player"])))
            place(PILE, 0, data["card"])
            pile.append(data["card"])
        elif act == "spread":
            seat = data["player"]
            laid = rummy_table(before).zone_cards(Zone.row(seat))
            lay(seat, [c for c in table.zone_cards(Zone.row(seat)) if c not in laid])
        elif act != "layoff":  # layoffs are laid with the defender's hand
            steps.append({"op": "say", "action": data})
    return steps
