"""The pegging protocol (the cribbage family, Bhargage, Suitcases): each seat plays face up into
its own row.

What the camera sees, and what it means (the game says which action a card is, through
:class:`games.table.PeggingTable`; this module never looks inside a game):

- **cut**: a card placed in a seat's row while cutting for deal is that seat's cut.
- **deal**: when the mat has been cleared and a deal is due, the deal is made (hands unseen).
- **crib**: cards laid face down in the crib zone are the discards; the device cannot see them,
  so the discards are recorded when the **starter** is turned up in the starter zone.
- **play**: a card landing in a seat's row is that seat's play. "Go" (a pass) and the end of a
  count (a suit attempt) are inferred from the order of plays: a play by the next-but-one player
  means the player between said go; a card that cannot go on means everyone said go and a new
  count began. The engine scores 1 for last, 31 and the rest.
- **show**: hands already seen in full (every card played) are counted at once, in order; a hand
  not yet seen waits for its remaining cards to be laid in the row. The crib is counted when it
  is turned face up in the crib zone.

A card read below the confidence threshold is never scored silently: the device asks ("Is that
the 7H in Bob's row?") and waits for OK or a correction. A card it cannot read, or a play the
rules refuse, is not applied: the device says why and waits (take the card back, enter the right
action on the phone, or press OK to ignore it). A card seen again (the camera restarted, a card
nudged) that the game already holds is ignored, so nothing is ever applied twice.

When the game changes without the table (an undo, a correction, an action from the phone), the
protocol reads its memory of the mat again against the new game: a card the game now names
differently takes that name, and what the mat then implies (a show, the crib, the next deal) is
applied, so play goes on. What the players set aside (OK on a refusal, an undo) is not applied
again until the mat or the game changes: a card refused and let lie (OK) is taken once the game
has changed so that it fits (rows laid again out of order after undos). What an undo took back
is read again once the mat changes: from the cards, or, when the mat cannot show it (a deal
undone while cards lie, a count whose cards were cleared away, a cut or a play undone after the
rows were swept), as it was, if the game still waits for it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from device.protocols import Ask, Recorded, TableSession, register_protocol
from device.protocols.mat import Key, QueuedMatProtocol, Seen
from games.errors import IllegalActionError, PegpiError
from games.jsontypes import JSONObject
from games.table import CRIB, PeggingTable, Zone
from vision.api import NOT_A_FACE

if TYPE_CHECKING:
    from games.engine import Action
    from vision.events import TableEvent


@register_protocol
class PeggingProtocol(QueuedMatProtocol[PeggingTable]):
    name = "pegging"
    interface = PeggingTable

    def __init__(self, session: TableSession) -> None:
        super().__init__(session)
        #: cards the players let lie when the rules refused them (OK on a refusal), oldest first:
        #: taken once the game has changed so that they fit (a card laid before the one it follows)
        self.set_aside: list[Key] = []
        self.cleared = False  # the camera has seen the mat emptied (a deal is made only then)
        self.watching = False  # table events come in: the table, not only the phone, is followed
        #: actions the table implies that the players set aside (OK on a refusal, an undo)
        self.ignored: list[JSONObject] | None = None
        #: what undos in a row took back (the earliest in the game last), read again once the mat
        #: changes when the mat itself no longer shows it (see :meth:`_again`); valid while the
        #: game holds ``undone_left`` actions
        self.undone: list[JSONObject] = []
        self.undone_left = 0
        self.moved = False  # the mat changed since that undo
        #: face cards laid before their time (a starter turned before the bids): read again as the
        #: game moves on
        self.early: set[Key] = set()
        self._entries: Sequence[Recorded] = session.entries  # as last seen: tells an undo apart

    # ------------------------------------------------------------------ hooks

    def reset(self) -> None:
        super().reset()
        undone = self._undone()
        self.ignored = [undone] if undone is not None else None  # an undo is not re-applied at once
        if undone is None:
            if len(self.session.entries) != self.undone_left:
                self.undone = []  # the game changed otherwise (a correction keeps what was undone)
        elif self.undone and len(self._entries) == self.undone_left:
            self.undone.append(undone)  # another undo in a row
        else:
            self.undone = [undone]
        self.undone_left = len(self.session.entries)
        self._entries = self.session.entries
        self.moved = False
        if self.mat:
            self._reread()
        if self.watching:
            self._settle(None)
        self._track()

    def on_events(self, events: Iterable[TableEvent], *, on_table: Mapping[tuple[str, int], str] | None = None,
                  input: str | None = None) -> None:
        self.watching = True
        super().on_events(events, on_table=on_table, input=input)
        if on_table is not None and not on_table:
            self.cleared = True
        if self.ask is None:
            self._settle(input)
        self._track()

    def confirm(self, *, source: str, input: str | None = None) -> None:
        super().confirm(source=source, input=input)
        self._track()

    def resolve(self, card: str, *, source: str) -> None:
        super().resolve(card, source=source)
        self._track()

    def after_change(self) -> None:
        if self.watching:  # go on from what the phone said: held-back events, the show, the deal
            self._reread()
            self._drain()
        self._track()

    # ------------------------------------------------------------------ events

    def _let_be(self, ask: Ask) -> None:
        if ask.where is None:
            self.ignored = [a.to_json() for a in ask.actions]  # OK: leave what the table implied
        elif ask.kind == "illegal":  # OK means "ignore that card" for now: it is taken once it fits
            key = (ask.where, ask.slot or 0)
            if key not in self.set_aside:
                self.set_aside.append(key)

    def _drain(self) -> None:
        super()._drain()
        if self.ask is None:
            self._settle(None)

    def _touched(self, key: Key) -> None:
        self.ignored = None  # the mat changed: what it implies is new
        self.moved = True
        if key in self.set_aside:
            self.set_aside.remove(key)  # that card was taken back (or another laid there): it is new

    def _removed(self, zone: Zone, slot: int, input: str | None) -> None:
        self.early.discard((zone, slot))
        self.cleared = not self.mat

    def _lies_face_down(self, zone: Zone) -> bool:
        return self._table().lies_face_down(zone)  # the crib; cards moved about before the play

    def _placed(self, zone: Zone, slot: int, card: str, input: str | None) -> None:
        self.cleared = False
        try:
            self._read(zone, slot, card, input)
        except PegpiError as exc:
            why = str(exc) if card in str(exc) else f"{card}: {exc}"  # the card is named
            self.ask = Ask("illegal", f"{self._label(zone)}: {why}", zone, slot, card)

    def _read(self, zone: Zone, slot: int, card: str, input: str | None) -> None:
        """What a card laid means: unlike other tables, a card read unsure is asked about even when
        it means nothing yet (it is laid early, and taken when the game reaches it)."""
        if card in NOT_A_FACE:
            if not self._lies_face_down(zone):
                self.ask = self._unreadable(zone, slot, card)
            return
        actions = self._meaning(zone, slot, card)
        if actions is None:
            return
        if not actions:
            self.early.add((zone, slot))
        if not self.mat[(zone, slot)].sure:
            self.ask = self._doubt(zone, slot, card, actions)
            return
        if actions:
            self.session.apply(actions, source="table", input=input)
            if all(a.to_json().get("card") != card for a in actions):
                self.early.add((zone, slot))  # what came before it is recorded; the card itself waits

    def _meaning(self, zone: Zone, slot: int, card: str) -> list[Action] | None:
        """The actions a face card landing in ``zone`` means now, checked by the engine (an
        illegal one raises), with the passes the order of plays implies before it; [] when it
        means nothing yet, None when it is already known. When those passes end the play (a
        one-count game), the card is not played: it waits for the show."""
        state = self.session.state
        actions = self.table_of(state).card_means(zone, card)
        if not actions:
            return actions
        try:
            return self._check(actions)
        except IllegalActionError as refused:
            first = refused
        passes: list[Action] = []
        for _ in range(self.session.game.num_players):
            went = self.table_of(state).inferred_pass()
            if went is None:
                break
            try:
                state = state.apply(went)
            except IllegalActionError:
                break
            passes.append(went)
            table = self.table_of(state)
            if table.whose_turn() is None:
                return passes  # the play is over: the card is laid for the show
            means = table.card_means(zone, card) or []
            try:
                self._check(means, state)
            except IllegalActionError:
                continue
            return [*passes, *means]
        raise first

    # ------------------------------------------------------------------ what follows by itself

    def _settle(self, input: str | None) -> None:
        """Apply what the table now implies: the next deal on a cleared mat, the show of hands
        already seen, the crib once it is turned up, a card set aside that fits now."""
        for _ in range(64):  # each step applies one action, or the few of a card set aside
            table = self._table()
            action: Action | None = None
            what = "the deal"
            try:
                deal = table.deal_due()
                if deal is not None:
                    if self.cleared and not self.mat:
                        action = deal
                else:
                    action = table.discard_seen(self._face_down(CRIB))
                    zone = table.show_waits_for()
                    if zone is not None and action is None:
                        what = table.zone_label(zone)
                        action = table.show_from(zone, self._faces(zone))
                        if action is not None and table.claim_open() and [action.to_json()] != self.ignored:
                            self.ask = Ask("confirm", f"a claim may be made now on the phone (pegging back, his nob); OK to count {what}",
                                           actions=[action])
                            return
                if action is None:
                    action = self._laid_early()
                if action is None:
                    action = self._again(deal)
                if action is None:
                    fits = self._fits()
                    if not fits:
                        return
                    self.session.apply(fits, source="table", input=input)
                    continue
                if [action.to_json()] == self.ignored:
                    return
                self.session.apply([action], source="table", input=input)
            except PegpiError as exc:
                self.ask = Ask("illegal", f"cannot count {what} from the table: {exc}. Fix the cards, "
                               "or press OK and enter it on the phone", actions=[action] if action else [])
                return
            if deal is not None:
                self.cleared = False

    def _laid_early(self) -> Action | None:
        """The first action a card laid before its time means now, once the game has moved on to
        it (the bids said, the starter turned before them is turned now)."""
        table = self._table()
        for key in sorted(self.early):
            seen = self.mat.get(key)
            means = table.card_means(key[0], seen.card) if seen is not None and seen.sure else None
            if means is None:
                self.early.discard(key)  # taken back, or the game holds it by now
                continue
            if not means:
                continue
            try:
                return self._check(means)[0]
            except PegpiError:
                continue  # refused still: the card waits
        return None

    def _again(self, deal: Action | None) -> Action | None:
        """The action an undo took back, once the mat has changed since and the game still waits
        for it, when the mat cannot show it again: a deal while cards lie on the mat, a count whose
        cards were cleared away, a cut, a play or a go once the rows were swept. None when the
        engine would refuse it now."""
        self._track()
        if not self.undone or not self.moved:
            return None
        undone = self.undone[-1]
        if deal is not None:
            return deal if deal.to_json() == undone else None
        table = self._table()
        zone = table.show_waits_for()
        if zone is not None:
            if self._faces(zone) or undone.get("act") not in ("crib", "show"):
                return None
        elif not self._swept(table, undone):
            return None
        try:
            action = self.session.game.action_from_json(undone)
            self._check([action])
        except PegpiError:
            return None
        return action

    def _track(self) -> None:
        """Follow the game since it was last seen: an action taken again as an undo took it back
        (from the cards, by the phone or from memory) is struck off what the undos took back; any
        other action ends that memory, since the game went on otherwise."""
        before, now = self._entries, self.session.entries
        if len(now) >= len(before) and all(a is b for a, b in zip(before, now, strict=False)):
            for index in range(len(before), len(now)):
                if self.undone and index == self.undone_left and self.undone[-1] == now[index].action:
                    self.undone.pop()
                    self.undone_left += 1
                else:
                    self.undone = []
        elif len(now) != self.undone_left:
            self.undone = []
        self._entries = now

    def _fits(self) -> list[Action]:
        """The actions of the oldest card set aside that the game takes now (read confidently,
        not an action the players set aside too); [] when none does."""
        for key in list(self.set_aside):
            seen = self.mat.get(key)
            if seen is None or not seen.sure:
                continue  # a doubtful read is never taken silently
            try:
                actions = self._meaning(*key, seen.card)
            except PegpiError:
                continue  # still refused: it waits
            self.set_aside.remove(key)
            if actions and not any([a.to_json()] == self.ignored for a in actions):
                return actions
        return []

    def _swept(self, table: PeggingTable, undone: JSONObject) -> bool:
        """The rows were cleared away while the game still holds cards played there, or (for a
        cut) while the deal goes on elsewhere on the mat: the mat can no longer show a cut or a
        play undone after its cards were put away. A card just taken back is not that."""
        if any(zone.kind == "seat" for zone, _ in self.mat):
            return False
        if undone.get("act") == "cut":
            return bool(self.mat)  # the crib laid away, a starter: the cut was long done
        rows = [Zone.row(seat) for seat in range(self.session.game.num_players)]
        return any(table.zone_cards(row) for row in rows)

    def _faces(self, zone: Zone) -> list[str]:
        """The cards read face up in ``zone`` (confidently or confirmed), in slot order."""
        return [self.mat[(zone, slot)].card for slot in self._slots(zone)
                if self.mat[(zone, slot)].card not in NOT_A_FACE and self.mat[(zone, slot)].sure]

    def _face_down(self, zone: Zone) -> int:
        """How many cards lie face down (or unreadable) in ``zone``."""
        return sum(1 for slot in self._slots(zone) if self.mat[(zone, slot)].card in NOT_A_FACE)

    def _slots(self, zone: Zone) -> list[int]:
        return sorted(slot for z, slot in self.mat if z == zone)

    # ------------------------------------------------------------------ the game changed

    def _undone(self) -> JSONObject | None:
        """The action an undo just took back, when that is how the game changed."""
        before, now = self._entries, self.session.entries
        if len(now) == len(before) - 1 and all(a.action == b.action for a, b in zip(now, before, strict=False)):
            return before[-1].action
        return None

    def _reread(self) -> None:
        """Read the mat's memory again against the game: where the game now holds cards in a zone
        that the mat remembers otherwise (a correction, a card named on the phone), the cards
        lying there are the game's (matched one for one, or by their order in the zone)."""
        table = self._table()
        for zone in sorted({z for z, _ in self.mat}):
            held = table.zone_cards(zone)
            slots = self._slots(zone)
            lying = {self.mat[(zone, s)].card for s in slots}
            missing = [c for c in held if c not in lying]
            if not missing:
                continue
            loose = [s for s in slots if self.mat[(zone, s)].card not in held]
            if len(loose) == len(missing):
                named = list(zip(loose, missing, strict=True))
            elif len(missing) == 1 and held.index(missing[0]) < len(slots):
                at = slots[held.index(missing[0])]
                named = [(at, missing[0])] if at in loose else []
            else:
                named = []
            for slot, card in named:
                self.mat[(zone, slot)] = Seen(card, 1.0, True)
