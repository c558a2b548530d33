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
from device.protocols.mat import Key, QueuedMatProtocol, Seen
from device.protocols.script import register_script
from games.errors import IllegalActionError, PegpiError, RecordError
from games.jsontypes import JSONObject
from games.records import Replay
from games.table import PILE, STOCK, RummyTable, Zone

if TYPE_CHECKING:
    from games.engine import Action, State

#: the most seats a rummy mat has (four play two hands at once, at two tables)
MAT_SEATS = 3


@register_protocol
class RummyProtocol(QueuedMatProtocol):
    name = "rummy"
    interface = RummyTable

    @classmethod
    def serves(cls, state: State) -> bool:
        return super().serves(state) and state.game.num_players <= MAT_SEATS

    def __init__(self, session: TableSession) -> None:
        super().__init__(session)
        self.pending: str | None = None  # a discard laid on the pile while a hand is being spread
        self.group: list[Key] = []  # the cards the last meaning was read from
        self.lifting: str | None = None  # the card the mat showed where a card is being taken
        self.asked_here = False  # ... and whether the question pending was about that place

    def _table(self) -> RummyTable:
        state = self.session.state
        if not isinstance(state, RummyTable):
            raise IllegalActionError(f"{state.game.spec.title} is not played on the rummy table")
        return state

    def reset(self) -> None:
        super().reset()
        self.pending = None

    def confirm(self, *, source: str, input: str | None = None) -> None:
        super().confirm(source=source, input=input)
        if self.ask is None:
            self.pending = None

    def resolve(self, card: str, *, source: str) -> None:
        # the mat holds the correction before the meaning is read: a group reads every card laid
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
            self._play(ask.where, card, actions, source, None)
        self._drain()

    # ------------------------------------------------------------------ events

    def _lies_face_down(self, zone: Zone) -> bool:
        return self._table().lies_face_down(zone)  # the stock: nothing there is seen

    def _refused(self, zone: Zone, card: str, exc: PegpiError) -> str:
        return f"{card}: {exc}"

    def _play(self, zone: Zone | None, card: str | None, actions: Sequence[Action], source: str,
              input: str | None) -> None:
        self.session.apply(actions, source=source, input=input)
        self.pending = None

    def _touched(self, key: Key) -> None:
        seen = self.mat.get(key)
        self.lifting = seen.card if seen is not None else None
        self.asked_here = self.ask is not None and (self.ask.where, self.ask.slot or 0) == key

    def _placed(self, zone: Zone, slot: int, card: str, input: str | None) -> None:
        """As the base, but a meaning read from a group (a hand spread) is asked about when any
        card of the group was read unsure."""
        if card in NOT_A_FACE:
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
        doubtful = [k for k in [(zone, slot), *self.group] if k in self.mat and not self.mat[k].sure]
        if doubtful:
            where, at = doubtful[0]
            self.ask = self._doubt(where, at, self.mat[doubtful[0]].card, actions)
            return
        self._play(zone, card, actions, "table", input)

    def _removed(self, zone: Zone, slot: int, input: str | None) -> None:
        """The pile's top taken (not the card asked about taken back) is a draw from it."""
        card = self.lifting
        if zone != PILE or self.asked_here or card is None:
            return
        if self.pending == card:
            self.pending = None
        try:
            actions = self._table().lifted(zone, card)
            if actions:
                self._check(actions)
        except PegpiError as exc:
            self.ask = Ask("illegal", f"{card} taken: {exc}", zone, 0, card)
            return
        if actions:
            self.session.apply(actions, source="table", input=input)

    def _meaning(self, zone: Zone, slot: int, card: str) -> list[Action] | None:
        """What ``card`` in ``zone`` means now, read with the hands spread on the mat and checked
        by the engine (a move the rules refuse raises)."""
        table = self._table()
        self.group = []
        if zone.kind == "pile":
            means = table.card_means(zone, card)  # a discard, a deal, or nothing new (raises if refused)
            spreads = self._spreads(table) if means and table.whose_turn() is not None else {}
            for seat, keys in spreads.items():
                knock = table.knocks_with(seat, [self.mat[k].card for k in keys], card)
                if knock is not None:
                    self.group = keys
                    self.pending = card  # kept while the knock is asked about (a correction reads it again)
                    return self._check(knock)
            if spreads:
                self.pending = card  # a hand is still being laid: the knock waits for it
                return []
            return None if means is None else self._check(means)
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
                return self._check(knock)
        defender = table.whose_turn()
        if defender is not None and defender in spreads:
            keys = [k for keys in spreads.values() for k in keys]  # layoffs may lie by the knocker's melds
            spread = table.spread_from(defender, [self.mat[k].card for k in keys])
            if spread is not None:
                self.group = keys
                return self._check(spread)
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


@register_script("rummy")
def rummy_script(result: Replay) -> list[JSONObject]:
    """The steps that play a Gin record on the rummy mat: the stock and the upcard at each deal,
    discards laid on the pile, draws from it as its top taken (the card under it showing again),
    a knock as the hand laid in the knocker's spread zone and then the discard, the defender's hand
    and layoffs in their zone. The first dealer and a pass no later card shows are said."""
    state = result.game.new_initial_state()
    if not isinstance(state, RummyTable):
        raise RecordError(f"{result.game.spec.title} is not played on the rummy table")
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
        before = _rummy(state)
        state = state.apply(action)
        table = _rummy(state)
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
            laid = before.zone_cards(Zone.row(seat))
            lay(seat, [c for c in table.zone_cards(Zone.row(seat)) if c not in laid])
        elif act != "layoff":  # layoffs are laid with the defender's hand
            steps.append({"op": "say", "action": data})
    return steps


def _rummy(state: State) -> RummyTable:
    assert isinstance(state, RummyTable)  # the game's state keeps the interface it started with
    return state
