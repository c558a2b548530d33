"""The tricks protocol (Oh Hell, Bourré, Briscola Chiamata): each seat plays one card into its own
place round the mat; the card turned up for trumps lies in the centre.

What the camera sees, and what it means (the game says which action a card is, through
:class:`games.table.TricksTable`; this module never looks inside a game):

- **trump**: a card laid face up in the trump outline while the game waits for it names trumps.
- **play**: a card landing in the place of the seat to play is that seat's play. When every seat
  playing this deal has played, the engine takes the trick; the view names its winner and the
  board says to clear it. The winner leads the next trick.
- Whatever the camera cannot see (the deal, bids, antes, pass or play and the draw, the auction
  and the call, accepting or dismissing a revoke claim) comes from the phone or the buttons.

The mat is read as a whole after every change, so order matters only where the rules say so: a
card laid out of turn waits on the mat (named on the board and the phone) and is played as soon as
its seat's turn comes; a second card from a seat that has played to this trick, and a card of the
trick in progress taken away before the trick is complete, are named too. Nothing recorded is lost
meanwhile: OK sets the card aside (or goes on without the one taken away).

A card read below the confidence threshold is asked about ("is that the 7H in Bob's place?") and
waits for OK or a correction; a card it cannot read, or one the rules refuse, is not applied and
the device says why. A card the game already holds (seen again after a restart, the trick taken
still lying) is never applied twice. After an undo, a card whose play was taken back is not read
again until the mat changes; after a correction, the card lying where the corrected one was
takes the corrected name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from device.protocols import Ask, TableSession, register_protocol
from device.protocols.mat import Key, MatProtocol, Seen
from device.protocols.script import register_script
from games.errors import PegpiError
from games.jsontypes import JSONObject
from games.table import TRUMP, TricksTable, Zone
from vision.api import NOT_A_FACE

if TYPE_CHECKING:
    from games.records import Replay
    from vision.events import TableEvent


@dataclass
class Lying(Seen):
    """A card on the mat as the protocol knows it. ``used_at``: the number of actions the game had
    once this card's action was recorded (or the card was found to be the game's already); None
    while it means nothing yet."""

    used_at: int | None = None


@register_protocol
class TricksProtocol(MatProtocol[Lying, TricksTable]):
    name = "tricks"
    interface = TricksTable

    def __init__(self, session: TableSession) -> None:
        super().__init__(session)
        self.watching = False  # table events come in: the mat, not only the phone, is followed
        self.ignored: set[Key] = set()  # cards the players set aside with OK, until taken away
        self.held_back: set[Key] = set()  # cards whose play an undo took back, until the mat changes
        self.let_go: set[tuple[int, str]] = set()  # cards of the trick taken away early, OK'd

    # ------------------------------------------------------------------ hooks

    @property
    def notice(self) -> str | None:
        table = self._table()
        claim = table.referee_says()
        if claim is not None:
            return f"{claim}. Accept or dismiss it on the phone"
        taken = table.trick_taken()
        if taken is None or not any(z.kind == "seat" for z, _ in self.mat):
            return None
        winner, cards = taken
        names = self.session.game.players
        card = next(c for s, c in cards if s == winner)
        lead = table.whose_turn()
        then = f"; {names[lead]} leads" if lead is not None else ""
        return f"{names[winner]} takes the trick with the {card}: clear it{then}"

    def reset(self) -> None:
        super().reset()
        table = self._table()
        done = len(self.session.entries)
        for key, lying in self.mat.items():
            zone = key[0]
            held = table.zone_cards(zone)
            if lying.card in held:
                lying.used_at = min(lying.used_at if lying.used_at is not None else done, done)
            elif lying.used_at is not None and lying.used_at > done:
                lying.used_at = None  # an undo took its play back: read again once the mat changes
                self.held_back.add(key)
            elif lying.used_at is not None and len(held) == 1 and self._zone_keys(zone) == [key]:
                lying.card, lying.sure = held[0], True  # a correction named this card otherwise
        if self.watching:
            self._settle(None)

    def on_events(self, events: Iterable[TableEvent], *, on_table: Mapping[tuple[str, int], str] | None = None,
                  input: str | None = None) -> None:
        self.watching = True
        for event in events:
            key = self._key(event)
            if key is None:
                continue
            self.held_back.clear()  # the mat changed: what an undo took back may be read again
            self.ignored.discard(key)
            if event.kind == "removed":
                self.mat.pop(key, None)
            else:
                self.mat[key] = Lying(event.card, event.confidence, event.confidence >= self.session.confidence)
        self._settle(input)

    def confirm(self, *, source: str, input: str | None = None) -> None:
        ask = self.ask
        if ask is None:
            super().confirm(source=source)
            return
        key = (ask.where, ask.slot or 0) if ask.where is not None else None
        lying = self.mat.get(key) if key is not None else None
        self.ask = None
        if ask.kind == "confirm" and lying is not None and key is not None:
            lying.sure = True
            try:
                self.session.apply(ask.actions, source=source, input=input)
            except PegpiError as exc:
                self.ask = Ask("illegal", f"{self._label(key[0])}: {exc}", key[0], key[1], lying.card)
                return
            lying.used_at = len(self.session.entries)
        elif key is not None and lying is not None:
            self.ignored.add(key)  # OK on a refused or unreadable card: leave it be
        elif ask.where is not None and ask.where.seat is not None and ask.card is not None:
            self.let_go.add((ask.where.seat, ask.card))  # go on without the card taken away
        self._settle(input)

    def _corrected(self, key: Key, card: str, source: str) -> None:
        self.mat[key] = Lying(card, 1.0, True)
        self.ignored.discard(key)
        self._settle(None, source=source)

    def after_change(self) -> None:
        if self.watching:
            self._settle(None)

    # ------------------------------------------------------------------ reading the mat

    def _zone_keys(self, zone: Zone) -> list[Key]:
        return sorted(k for k in self.mat if k[0] == zone)

    def _fresh(self, zone: Zone) -> list[Key]:
        """The cards in ``zone`` that mean nothing to the game yet and are not set aside."""
        return [k for k in self._zone_keys(zone)
                if self.mat[k].used_at is None and k not in self.ignored and k not in self.held_back]

    def _settle(self, input: str | None, *, source: str = "table") -> None:
        """Apply what the mat now shows, in the order the rules take it (the trump card, then each
        seat's card as its turn comes), then ask about whatever lies there out of order."""
        before = self.ask
        ask: Ask | None = None
        for _ in range(4 * len(self.session.game.players) + 8):  # each round applies one card
            table = self._table()
            seat = table.whose_turn()
            zones = [TRUMP] + ([Zone.row(seat)] if seat is not None else [])
            keys = [k for z in zones for k in self._fresh(z)]
            applied = False
            for key in keys:
                ask, applied = self._take(key, input, source)
                if ask is not None or applied:
                    break
            if ask is not None or not applied:
                break
        if ask is None:
            ask = self._problem()
        if ask is not None and before is not None and ask.to_json() == before.to_json():
            ask = before  # the same question still stands
        self.ask = ask

    def _take(self, key: Key, input: str | None, source: str) -> tuple[Ask | None, bool]:
        """Apply the card at ``key`` when it means an action now: (a question, whether applied)."""
        zone, slot = key
        lying = self.mat[key]
        if lying.card in NOT_A_FACE:
            return self._unreadable(zone, slot, lying.card), False
        table = self._table()
        try:
            actions = table.card_means(zone, lying.card)
        except PegpiError as exc:
            return Ask("illegal", f"{self._label(zone)}: {exc}", zone, slot, lying.card), False
        if actions is None:
            if lying.card in table.zone_cards(zone):
                lying.used_at = len(self.session.entries)  # the game's already (seen again)
            return None, False
        if not lying.sure:
            return self._doubt(zone, slot, lying.card, actions), False
        try:
            self.session.apply(actions, source=source, input=input)
        except PegpiError as exc:
            return Ask("illegal", f"{self._label(zone)}: {exc}. Take the {lying.card} back, or press OK "
                       "to leave it", zone, slot, lying.card), False
        lying.used_at = len(self.session.entries)
        return None, True

    def _problem(self) -> Ask | None:
        """What lies out of order on the mat, named for the board and the phone: a card that
        cannot be read, a card laid out of turn, a second card from a seat that has played to
        this trick, a card of the trick in progress taken away, a card the rules refuse."""
        table = self._table()
        names = self.session.game.players
        played = dict(table.trick_in_play())
        for key in sorted(self.mat):
            zone, slot = key
            lying = self.mat[key]
            if lying.used_at is not None or key in self.ignored or key in self.held_back:
                continue
            if lying.card in NOT_A_FACE:
                return self._unreadable(zone, slot, lying.card)
            try:
                actions = table.card_means(zone, lying.card)
            except PegpiError as exc:
                return Ask("illegal", f"{self._label(zone)}: {exc}", zone, slot, lying.card)
            if not actions:
                continue
            owner = table.zone_owner(zone)
            if owner is not None and owner in played:
                return Ask("illegal", f"{names[owner]} has already played the {played[owner]} to this trick: "
                           f"take the {lying.card} back (OK leaves it)", zone, slot, lying.card)
            waiting = table.to_play()
            if owner is not None and owner in waiting:
                return Ask("illegal", f"{names[owner]} played the {lying.card} out of turn: "
                           f"{names[waiting[0]]} is to play first (it counts when {names[owner]}'s turn "
                           "comes; take it back, or OK to leave it aside)", zone, slot, lying.card)
            try:
                self._check(actions)
            except PegpiError as exc:
                return Ask("illegal", f"{self._label(zone)}: {exc}. Take the {lying.card} back, or press "
                           "OK to leave it", zone, slot, lying.card)
        if not self.watching:
            return None
        for seat, card in table.trick_in_play():
            zone = Zone.row(seat)
            if not self._zone_keys(zone) and (seat, card) not in self.let_go:
                still = table.to_play()
                left = f": {', '.join(names[s] for s in still)} still to play" if still else ""
                return Ask("illegal", f"the trick is not over{left}. Put {names[seat]}'s {card} back "
                           "(OK goes on without it)", zone, 0, card)
        return None



# ---------------------------------------------------------------------------------- the script


@register_script("tricks")
def tricks_script(result: Replay) -> list[JSONObject]:
    """The steps that play a record on a trick mat: each card played laid in its seat's place,
    the trump card in the centre, each trick cleared once taken, the mat cleared before a deal;
    every other action said (a button or the phone)."""
    game = result.game
    state = game.new_initial_state()
    TricksProtocol.table_of(state)  # refuses a game not played on the trick table
    mat: dict[str, str] = {}
    steps: list[JSONObject] = []

    def remove(zone: str) -> None:
        del mat[zone]
        steps.append({"op": "remove", "zone": zone, "slot": 0})

    for action in result.actions:
        data = action.to_json()
        act = data["act"]
        if act == "play":
            zone = Zone.row(int(data["player"])).name
            card = str(data["card"])
            if mat.get(TRUMP.name) == card:
                remove(TRUMP.name)  # the dealer takes the turned-up card back to play it
            if zone in mat:
                remove(zone)
            mat[zone] = card
            steps.append({"op": "place", "zone": zone, "slot": 0, "card": card})
        elif act == "trump" and data.get("card") is not None:
            if TRUMP.name in mat:
                remove(TRUMP.name)
            mat[TRUMP.name] = str(data["card"])
            steps.append({"op": "place", "zone": TRUMP.name, "slot": 0, "card": str(data["card"])})
        else:
            if act == "deal":
                for zone in sorted(mat):
                    remove(zone)
            steps.append({"op": "say", "action": data})
        before = TricksProtocol.table_of(state).trick_in_play()
        state = state.apply(action)
        if before and not TricksProtocol.table_of(state).trick_in_play():  # the trick is taken: clear it
            for zone in sorted(z for z in mat if z != TRUMP.name):
                remove(zone)
    return steps


__all__ = ["TricksProtocol", "tricks_script"]
