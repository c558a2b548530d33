"""The rummy protocol (Gin Rummy): a face-down stock, a discard pile the camera follows, and each
seat's spread zone where a hand is laid face up at a knock. Four players play two hands at once
on a mat with two tables (a stock and a pile each); every event is read for the hand at the
table of its zone, which the game names (:meth:`games.table.RummyTable.pile_of`).

What the camera sees, and what it means (the game says, through :class:`games.table.RummyTable`):

- a card laid on a discard pile is the discard of the player to move at its table; the draw
  before it is inferred when the camera did not see it (a stock card is never seen), and so are
  the passes of a refused upcard;
- the top of a pile taken away (the card under it showing again, or the pile emptying) is a draw
  from the discard pile by the player to move there;
- cards laid in a spread zone wait; the discard laid on the seat's pile with the whole hand
  spread is the knock (gin with no deadwood), the hand read as one group and arranged by the
  engine into the melds that leave the least deadwood; the defender's whole hand in their spread
  zone is read the same way, with the layoffs that leave the least;
- a card laid on an empty pile while a deal is due there is the next deal's upcard (with four,
  who deals at that table is said on the phone).

A group read with a doubtful card is asked about before it counts; a card the rules refuse is
named and waits (take it back, correct it on the phone, or OK to ignore it). Who deals first and
a pass that the next card does not show come from the phone or the buttons.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from device.protocols import Ask, TableSession, register_protocol
from device.protocols.mat import Key, QueuedMatProtocol, Seen
from device.protocols.script import register_script
from games.errors import PegpiError, RecordError
from games.jsontypes import JSONObject
from games.records import Replay
from games.table import PILE, RummyTable, Zone
from vision.api import NOT_A_FACE

if TYPE_CHECKING:
    from games.engine import Action, State


@register_protocol
class RummyProtocol(QueuedMatProtocol[RummyTable]):
    name = "rummy"
    interface = RummyTable

    def __init__(self, session: TableSession) -> None:
        super().__init__(session)
        #: a discard laid on a pile while a hand at its table is being spread (pile -> card)
        self.pending: dict[Zone, str] = {}
        self.group: list[Key] = []  # the cards the last meaning was read from
        self.lifting: str | None = None  # the card the mat showed where a card is being taken
        self.asked_here = False  # ... and whether the question pending was about that place

    def reset(self) -> None:
        super().reset()
        self.pending = {}

    def confirm(self, *, source: str, input: str | None = None) -> None:
        ask = self.ask
        super().confirm(source=source, input=input)
        if self.ask is None and ask is not None and ask.where is not None:
            self.pending.pop(self._table().pile_of(ask.where), None)

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
        return self._table().lies_face_down(zone)  # a stock: nothing there is seen

    def _refused(self, zone: Zone, card: str, exc: PegpiError) -> str:
        return f"{card}: {exc}"

    def _play(self, zone: Zone | None, card: str | None, actions: Sequence[Action], source: str,
              input: str | None) -> None:
        pile = self._table().pile_of(zone) if zone is not None else None
        self.session.apply(actions, source=source, input=input)
        if pile is not None:
            self.pending.pop(pile, None)  # the knock waiting at that table, if any, is made

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
        """A pile's top taken (not the card asked about taken back) is a draw from it."""
        card = self.lifting
        if zone.kind != "pile" or self.asked_here or card is None:
            return
        if self.pending.get(zone) == card:
            del self.pending[zone]
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
        """What ``card`` in ``zone`` means now, read with the hands spread at its table and
        checked by the engine (a move the rules refuse raises)."""
        table = self._table()
        self.group = []
        if zone.kind == "pile":
            means = table.card_means(zone, card)  # a discard, a deal, or nothing new (raises if refused)
            spreads = self._spreads(table, zone) if means and table.turn_at(zone) is not None else {}
            for seat, keys in spreads.items():
                knock = table.knocks_with(seat, [self.mat[k].card for k in keys], card)
                if knock is not None:
                    self.group = keys
                    self.pending[zone] = card  # kept while the knock is asked about (a correction reads it again)
                    return self._check(knock)
            if spreads:
                self.pending[zone] = card  # a hand is still being laid: the knock waits for it
                return []
            return None if means is None else self._check(means)
        if zone.kind != "seat" or zone.seat is None:
            return None
        means = table.card_means(zone, card)
        if means is None:
            return None
        pile = table.pile_of(zone)
        spreads = self._spreads(table, pile)
        pending = self.pending.get(pile)
        if pending is not None and zone.seat in spreads:
            keys = spreads[zone.seat]
            knock = table.knocks_with(zone.seat, [self.mat[k].card for k in keys], pending)
            if knock is not None:
                self.group = [*keys, (pile, 0)]
                return self._check(knock)
        defender = table.turn_at(pile)
        if defender is not None and defender in spreads:
            keys = [k for keys in spreads.values() for k in keys]  # layoffs may lie by the knocker's melds
            spread = table.spread_from(defender, [self.mat[k].card for k in keys])
            if spread is not None:
                self.group = keys
                return self._check(spread)
        return means

    def _spreads(self, table: RummyTable, pile: Zone) -> dict[int, list[Key]]:
        """The cards in the spread zones of the seats playing at ``pile``'s table that the game
        does not hold there yet, by seat, in slot order."""
        out: dict[int, list[Key]] = {}
        for key in sorted(self.mat, key=lambda k: (k[0], k[1])):
            zone = key[0]
            seen = self.mat[key]
            if zone.kind != "seat" or zone.seat is None or seen.card in NOT_A_FACE:
                continue
            if table.pile_of(zone) != pile or seen.card in table.zone_cards(zone):
                continue
            out.setdefault(zone.seat, []).append(key)
        return out


@register_script("rummy")
def rummy_script(result: Replay) -> list[JSONObject]:
    """The steps that play a Gin record on the rummy mat: the stock and the upcard at each deal,
    discards laid on the pile, draws from it as its top taken (the card under it showing again),
    a knock as the hand laid in the knocker's spread zone and then the discard, the defender's hand
    and layoffs in their zone. The first dealer (with four, each table's) and a pass no later card
    shows are said. With four players each step is made at the table of the hand it belongs to,
    in the record's order: the two hands go on at once."""
    state = result.game.new_initial_state()
    if not isinstance(state, RummyTable):
        raise RecordError(f"{result.game.spec.title} is not played on the rummy table")
    steps: list[JSONObject] = []
    mat: set[tuple[str, int]] = set()
    piles: dict[Zone, list[str]] = {}  # each pile's cards, the top last
    records = [a.to_json() for a in result.actions]

    def place(zone: Zone, slot: int, card: str) -> None:
        step: JSONObject = {"op": "place", "zone": zone.name, "slot": slot, "card": card}
        if (zone.name, slot) in mat and zone.kind == "pile":
            step["cover"] = True
        mat.add((zone.name, slot))
        steps.append(step)

    def lay(seat: int, cards: Sequence[str]) -> None:
        zone = Zone.row(seat)
        for card in cards:
            place(zone, sum(1 for z, _ in mat if z == zone.name), card)

    def discard(pile: Zone, card: str) -> None:
        place(pile, 0, card)
        piles.setdefault(pile, []).append(card)

    for index, action in enumerate(result.actions):
        data = records[index]
        act = data["act"]
        before = _rummy(state)
        state = state.apply(action)
        table = _rummy(state)
        player = data.get("player")
        pile = before.pile_of(Zone.row(int(player))) if isinstance(player, int) else PILE
        if act == "deal":
            dealer = data.get("dealer")
            pile = table.pile_of(Zone.row(dealer)) if isinstance(dealer, int) else PILE
            here = {pile.name, Zone("stock", index=pile.index).name}
            here |= {Zone.row(s).name for s in range(result.game.num_players) if table.pile_of(Zone.row(s)) == pile}
            for zone_name, slot in sorted(k for k in mat if k[0] in here):
                steps.append({"op": "remove", "zone": zone_name, "slot": slot})
                mat.discard((zone_name, slot))
            if dealer is not None:
                steps.append({"op": "say", "action": data})  # who deals: the phone or the buttons
            place(Zone("stock", index=pile.index), 0, "back")
            place(pile, 0, data["card"])
            piles[pile] = [data["card"]]
        elif act == "pass":
            shown = next((r for r in records[index + 1:] if r["act"] != "pass" and isinstance(r.get("player"), int)
                          and before.pile_of(Zone.row(int(r["player"]))) == pile), None)
            if shown is None or shown["act"] != "draw" or shown.get("source") != "discard":
                continue  # the next discard at this table shows it
            steps.append({"op": "say", "action": data})
        elif act == "draw":
            if data.get("source") == "discard":
                steps.append({"op": "remove", "zone": pile.name, "slot": 0})
                mat.discard((pile.name, 0))
                cards = piles[pile]
                cards.pop()
                if cards:
                    place(pile, 0, cards[-1])  # the card under it shows again
        elif act == "discard":
            discard(pile, data["card"])
        elif act in ("knock", "gin"):
            seat = int(data["player"])
            lay(seat, table.zone_cards(Zone.row(seat)))
            discard(pile, data["card"])
        elif act == "spread":
            seat = int(data["player"])
            laid = before.zone_cards(Zone.row(seat))
            lay(seat, [c for c in table.zone_cards(Zone.row(seat)) if c not in laid])
        elif act != "layoff":  # layoffs are laid with the defender's hand
            steps.append({"op": "say", "action": data})
    return steps


def _rummy(state: State) -> RummyTable:
    assert isinstance(state, RummyTable)  # the game's state keeps the interface it started with
    return state
