"""The pile protocols: cards turned face up onto a central place (Beggar My Neighbour, Egyptian
Ratscrew on the ``pile`` mat; New Eleusis on the ``line`` mat, a main line with sidelines under it).

What the camera sees, and what it means (the game says which action a card is, through
:class:`games.table.PileTable`; this module never looks inside a game):

- **a face card laid on the pile** (or in the main line) is the play of the seat whose turn it is:
  the camera cannot tell whose hand laid it, the order of play can. The pile's zone is a stack:
  each card laid on the one before is a new event. A card laid when nobody may play (the pile is
  won and not taken yet, the game is over, a prophet's call is due) is named and refused.
- **the pile lifted away** is its taking by the seat that won it.
- **face-down cards** in a seat's zone are that seat's stack: they mean nothing by themselves.
- **a card laid in a sideline** is a play too (a scientist who lays it straight under); a card the
  game already holds (a string of cards or "no play" entered on the phone, a wrong card moved
  from the main line to the sideline, a card uncovered on the pile) is only seen, not played again.

What the camera cannot see comes from the buttons or the phone as actions like any other: the
deal, a slap (the first slap recorded is the one judged), a string of cards, "no play", a
prophet and their calls, God's rule (entered on God's own phone, shown to nobody else).

A card read below the confidence threshold is asked about ("is that the 7H on the pile?"), a card
that cannot be read or that the rules refuse is named and not applied; OK, a correction on the
phone or taking the card back answers. After an undo or a correction the protocol reads the game
again: what it holds in each zone is what the mat has shown. A take undone on the phone while the
pile stays lifted is read from the mat: a new card laid on the empty place shows the pile taken.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from device.protocols import Ask, TableSession, register_protocol
from device.protocols.mat import QueuedMatProtocol
from device.protocols.script import register_script
from games.errors import PegpiError
from games.jsontypes import JSONObject
from games.table import PileTable, Zone
from games.view import PileView
from vision.api import NOT_A_FACE
from vision.mat import SIDE_DEPTH, layout_for

if TYPE_CHECKING:
    from games.engine import Action, State
    from games.records import Replay

PILE, LINE, SIDE = Zone("pile"), Zone("line"), Zone("side")


@register_protocol
class PileProtocol(QueuedMatProtocol[PileTable]):
    name = "pile"
    interface = PileTable

    def __init__(self, session: TableSession) -> None:
        super().__init__(session)
        #: zone -> how many of the cards the game holds there the mat has shown (in their order)
        self.shown: dict[Zone, int] = {}
        #: cards laid and played that the game put elsewhere (a wrong card, a play awaiting the
        #: prophet's call): seen when the game holds them where they lie
        self.offered: list[tuple[Zone, str]] = []
        #: zones the mat was seen lifted off, nothing laid there since (kept through an undo)
        self.lifted_off: set[Zone] = set()

    # ------------------------------------------------------------------ hooks

    def reset(self) -> None:
        super().reset()
        self._sync()

    def after_change(self) -> None:
        self._sync()
        super().after_change()

    # ------------------------------------------------------------------ events

    def _removed(self, zone: Zone, slot: int, input: str | None) -> None:
        self.lifted_off.add(zone)
        action = self._table().lifted(zone)
        if action is not None:
            try:
                self.session.apply([action], source="table", input=input)
            except PegpiError as exc:
                self.ask = Ask("illegal", f"{self._label(zone)} lifted: {exc}", actions=[action])
            self._sync()

    def _placed(self, zone: Zone, slot: int, card: str, input: str | None) -> None:
        lifted, self.lifted_off = zone in self.lifted_off, self.lifted_off - {zone}
        if lifted and card not in NOT_A_FACE and card not in self._table().zone_cards(zone):
            self._taken_before(zone, input)  # not the pile put back: a new card
        super()._placed(zone, slot, card, input)

    def _taken_before(self, zone: Zone, input: str | None) -> None:
        """A new card laid where the mat was seen lifted while the game still holds a won pile
        there (its take undone on the phone, the pile not put back): the mat shows it taken."""
        action = self._table().lifted(zone)
        if action is None:
            return
        try:
            self.session.apply([action], source="table", input=input)
        except PegpiError:
            return  # the card is judged as it comes
        self._sync()

    def _lies_face_down(self, zone: Zone) -> bool:
        return self._table().lies_face_down(zone)

    def _refused(self, zone: Zone, card: str, exc: PegpiError) -> str:
        return f"the {card} in {self._label(zone)}: {exc}"

    def _meaning(self, zone: Zone, slot: int, card: str) -> list[Action] | None:
        """The play ``card`` laid in ``zone`` is, checked by the engine; None when the game holds
        it there already (see :meth:`_known`)."""
        if self._known(zone, card):
            return None
        return self._check(self._table().card_means(zone, card) or [])

    def _play(self, zone: Zone | None, card: str | None, actions: Sequence[Action], source: str,
              input: str | None) -> None:
        self.session.apply(actions, source=source, input=input)
        self.offered = []  # a new play: what was laid before is settled
        self._sync()
        if zone is not None and card is not None and not self._known(zone, card):
            self.offered.append((zone, card))

    # ------------------------------------------------------------------ what the mat has shown

    def _known(self, zone: Zone, card: str) -> bool:
        """``card`` laid in ``zone`` is one the game already holds there and the mat has not shown
        yet (it is now), or the top of a pile uncovered again; the game is not told twice."""
        held = self._table().zone_cards(zone)
        shown = min(self.shown.get(zone, 0), len(held))
        if card in held[shown:]:
            self.shown[zone] = held.index(card, shown) + 1
            return True
        return zone == PILE and bool(held) and held[-1] == card and shown == len(held)

    def _sync(self) -> None:
        """The game changed: a zone it emptied (a pile taken, a new round, an undo) starts again,
        and a card laid earlier is seen once the game holds it where it lies."""
        table = self._table()
        for zone, count in list(self.shown.items()):
            self.shown[zone] = min(count, len(table.zone_cards(zone)))
        self.offered = [(zone, card) for zone, card in self.offered if not self._known(zone, card)]


@register_protocol
class LineProtocol(PileProtocol):
    """New Eleusis's main line and sidelines: the pile protocol on a mat of its own."""

    name = "line"


# ---------------------------------------------------------------------- placement scripts

Key = tuple[str, int]


class _Mat:
    """What the script has laid on the mat, and the steps that laid it."""

    def __init__(self) -> None:
        self.cards: dict[Key, str] = {}
        self.steps: list[JSONObject] = []

    def place(self, zone: Zone, slot: int, card: str) -> None:
        key = (zone.name, slot)
        step: JSONObject = {"op": "place", "zone": zone.name, "slot": slot, "card": card}
        if key in self.cards:
            step["cover"] = True
        self.cards[key] = card
        self.steps.append(step)

    def remove(self, zone: Zone, slot: int) -> None:
        if self.cards.pop((zone.name, slot), None) is not None:
            self.steps.append({"op": "remove", "zone": zone.name, "slot": slot})

    def slots(self, zone: Zone) -> list[int]:
        return sorted(slot for name, slot in self.cards if name == zone.name)


def _stacks(state: State, mat: _Mat) -> None:
    """Each seat's face-down stack lies in its zone while it holds cards."""
    view = state.view_for(None)
    if not isinstance(view, PileView):
        return
    for seat, size in enumerate(view.stacks):
        zone = Zone.row(seat)
        if size > 0 and not mat.slots(zone):
            mat.place(zone, 0, "back")
        elif size == 0 and mat.slots(zone):
            mat.remove(zone, 0)


class _Line:
    """The main line and its sidelines as laid on a line mat: the latest cards of the line, moved
    along (the mat cleared) when its row is full; a wrong card under the last card of the row."""

    def __init__(self, mat: _Mat, seats: int) -> None:
        layout = layout_for("line", seats)
        self.mat = mat
        self.width = len(layout.zone(LINE.name).slots)
        self.shown = {LINE: 0, SIDE: 0}
        self.offer: tuple[int, str] | None = None  # a card laid in the line, not yet placed by the game

    def clear(self) -> None:
        for zone in (LINE, SIDE):
            for slot in self.mat.slots(zone):
                self.mat.remove(zone, slot)

    def lay(self, card: str) -> int:
        """Lay ``card`` in the main line's next outline (moving the line along when it is full)."""
        taken = self.mat.slots(LINE)
        free = [s for s in range(self.width) if s not in taken and (not taken or s > max(taken))]
        if not free:
            self.clear()
            free = [0]
        self.mat.place(LINE, free[0], card)
        return free[0]

    def offered(self, card: str) -> None:
        self.offer = (self.lay(card), card)

    def follow(self, table: PileTable) -> None:
        """Lay what the game now holds in the line and the sidelines that the mat lacks."""
        line, side = table.zone_cards(LINE), table.zone_cards(SIDE)
        if len(line) < self.shown[LINE] or len(side) < self.shown[SIDE]:  # a new round
            self.clear()
            self.shown = {LINE: 0, SIDE: 0}
            self.offer = None
        for card in line[self.shown[LINE]:]:
            if self.offer is not None and self.offer[1] == card:
                self.offer = None  # it lies where the game put it
            else:
                self.lay(card)
        self.shown[LINE] = len(line)
        for card in side[self.shown[SIDE]:]:
            if self.offer is not None and self.offer[1] == card:
                self.mat.remove(LINE, self.offer[0])  # wrong: moved under the line
                self.offer = None
            taken = self.mat.slots(LINE)
            column = max(taken) if taken else 0
            under = [column * SIDE_DEPTH + depth for depth in range(SIDE_DEPTH)]
            free = [s for s in under if (SIDE.name, s) not in self.mat.cards]
            if not free:
                for slot in under:
                    self.mat.remove(SIDE, slot)
                free = under
            self.mat.place(SIDE, free[0], card)
        self.shown[SIDE] = len(side)


@register_script("pile")
@register_script("line")
def pile_script(result: Replay) -> list[JSONObject]:
    """The steps that play a record on a pile or line mat: a card turned onto the pile (or into the
    main line) where the game reads it so, the pile lifted where that is its taking, every other
    action said (a button or the phone); then the mat follows the game (a pile a slap gave away is
    lifted, a card judged wrong is laid under the line, or moved there after a prophet's call,
    cards entered on the phone are laid)."""
    game = result.game
    state = game.new_initial_state()
    PileProtocol.table_of(state)  # refuses a game not played on a pile table
    mat = _Mat()
    line = _Line(mat, game.num_players) if game.spec.table == "line" else None
    centre = LINE if line is not None else PILE
    for action in result.actions:
        data = action.to_json()
        table = PileProtocol.table_of(state)
        many = data.get("cards")
        card = many[0] if isinstance(many, list) and len(many) == 1 else data.get("card")
        laid = False
        if isinstance(card, str):
            try:
                laid = table.card_means(centre, card) == [action]
            except PegpiError:
                laid = False
        after = state.apply(action)
        if laid and line is not None:
            if not table.zone_cards(LINE):
                line.clear()  # a new round's starter: the last round's cards are swept away
            if len(PileProtocol.table_of(after).zone_cards(SIDE)) == len(table.zone_cards(SIDE)):
                line.offered(str(card))  # right, or waiting for the prophet's call: laid in the line
            # else God has said "wrong" as it was shown: laid straight under the line (by follow)
        elif laid:
            mat.place(PILE, 0, str(card))
        elif table.lifted(PILE) == action and mat.slots(PILE):
            mat.remove(PILE, 0)
        else:
            mat.steps.append({"op": "say", "action": data})
        state = after
        table = PileProtocol.table_of(state)
        if line is not None:
            line.follow(table)
        else:
            if mat.slots(PILE) and not table.zone_cards(PILE):
                mat.remove(PILE, 0)  # given away (a slap): lifted by the one who got it
            _stacks(state, mat)
    return mat.steps


__all__ = ["LineProtocol", "PileProtocol", "pile_script"]
