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
from dataclasses import dataclass
from typing import TYPE_CHECKING

from device.protocols import NOT_A_FACE, Ask, Recorded, TableProtocol, TableSession, register_protocol
from games.errors import IllegalActionError, PegpiError
from games.jsontypes import JSONObject
from games.table import CRIB, PeggingTable, Zone

if TYPE_CHECKING:
    from games.engine import Action, State
    from vision.events import TableEvent

Key = tuple[Zone, int]


@dataclass
class Seen:
    """A card on the mat as the protocol knows it; ``sure`` once read confidently or confirmed."""

    card: str
    confidence: float
    sure: bool


def pegging_table(state: State) -> PeggingTable:
    """``state`` as the pegging table's interface; refuses a game that does not declare it."""
    if not isinstance(state, PeggingTable):
        raise IllegalActionError(f"{state.game.spec.title} is not played on the pegging table")
    return state


@register_protocol
class PeggingProtocol(TableProtocol):
    name = "pegging"

    @classmethod
    def serves(cls, state: State) -> bool:
        return isinstance(state, PeggingTable)

    def __init__(self, session: TableSession) -> None:
        super().__init__(session)
        self.mat: dict[Key, Seen] = {}
        self.waiting: list[tuple[TableEvent, str | None]] = []
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
        self.waiting = []
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
        for event in events:
            if self.ask is not None and not self._answers(event):
                self.waiting.append((event, input))
                continue
            self._event(event, input)
        if on_table is not None and not on_table:
            self.cleared = True
        if self.ask is None:
            self._settle(input)
        self._track()

    def confirm(self, *, source: str, input: str | None = None) -> None:
        ask = self.ask
        if ask is None:
            super().confirm(source=source)
            return
        if ask.kind == "confirm":
            if ask.actions:
                self.session.apply(ask.actions, source=source, input=input)
            seen = self.mat.get((ask.where, ask.slot or 0)) if ask.where is not None else None
            if seen is not None:
                seen.sure = True
        elif ask.where is None:
            self.ignored = [a.to_json() for a in ask.actions]  # OK: leave what the table implied
        elif ask.kind == "illegal":  # OK means "ignore that card" for now: it is taken once it fits
            key = (ask.where, ask.slot or 0)
            if key not in self.set_aside:
                self.set_aside.append(key)
        # "unreadable" about a card: OK means "ignore that card"
        self.ask = None
        self._drain()
        self._track()

    def resolve(self, card: str, *, source: str) -> None:
        ask = self.ask
        if ask is None or ask.where is None:
            super().resolve(card, source=source)
            return
        zone, slot = ask.where, ask.slot or 0
        actions = self._meaning(zone, card)  # may refuse: the question stands
        self.ask = None
        self.mat[(zone, slot)] = Seen(card, 1.0, True)
        if actions:
            self.session.apply(actions, source=source)
        self._drain()
        self._track()

    def answered(self, action: JSONObject) -> None:
        if self.ask is not None:  # the phone gives what the table could not: the question is answered
            self.ask = None

    def after_change(self) -> None:
        if self.watching:  # go on from what the phone said: held-back events, the show, the deal
            self._reread()
            self._drain()
        self._track()

    # ------------------------------------------------------------------ events

    def _answers(self, event: TableEvent) -> bool:
        ask = self.ask
        return (ask is not None and event.kind == "removed"
                and (event.place, event.slot or 0) == (ask.where, ask.slot))

    def _drain(self) -> None:
        while self.waiting and self.ask is None:
            event, input = self.waiting.pop(0)
            self._event(event, input)
        if self.ask is None:
            self._settle(None)

    def _event(self, event: TableEvent, input: str | None) -> None:
        try:
            zone = event.place
        except PegpiError:
            return  # a zone the pegging mat does not have: nothing of this game lies there
        key = (zone, event.slot or 0)
        self.ignored = None  # the mat changed: what it implies is new
        self.moved = True
        if key in self.set_aside:
            self.set_aside.remove(key)  # that card was taken back (or another laid there): it is new
        if event.kind == "removed":
            self.mat.pop(key, None)
            self.early.discard(key)
            self.cleared = not self.mat
            if self.ask is not None and (self.ask.where, self.ask.slot) == key:
                self.ask = None  # the card was taken back
            return
        self.mat[key] = Seen(event.card, event.confidence, event.confidence >= self.session.confidence)
        self.cleared = False
        try:
            self._placed(zone, key[1], event.card, event.confidence, input)
        except PegpiError as exc:
            why = str(exc) if event.card in str(exc) else f"{event.card}: {exc}"  # the card is named
            self.ask = Ask("illegal", f"{self._label(zone)}: {why}", zone, key[1], event.card)

    def _placed(self, zone: Zone, slot: int, card: str, confidence: float, input: str | None) -> None:
        table = pegging_table(self.session.state)
        if card in NOT_A_FACE:
            if table.lies_face_down(zone):
                return  # the crib lies face down; cards moved about before the play do not count
            self.ask = Ask("unreadable", f"cannot read the card in {self._label(zone)}: straighten it or "
                           "enter it on the phone", zone, slot, card)
            return
        actions = self._meaning(zone, card)
        if actions is None:
            return
        if not actions:
            self.early.add((zone, slot))
        if confidence < self.session.confidence:
            self.mat[(zone, slot)].sure = False
            self.ask = Ask("confirm", f"is that the {card} in {self._label(zone)}? OK, or correct it",
                           zone, slot, card, actions)
            return
        if actions:
            self.session.apply(actions, source="table", input=input)
            if all(a.to_json().get("card") != card for a in actions):
                self.early.add((zone, slot))  # what came before it is recorded; the card itself waits

    def _meaning(self, zone: Zone, card: str) -> list[Action] | None:
        """The actions a face card landing in ``zone`` means now, checked by the engine (an
        illegal one raises), with the passes the order of plays implies before it; [] when it
        means nothing yet, None when it is already known. When those passes end the play (a
        one-count game), the card is not played: it waits for the show."""
        state = self.session.state
        actions = pegging_table(state).card_means(zone, card)
        if not actions:
            return actions
        try:
            return self._check(state, actions)
        except IllegalActionError as refused:
            first = refused
        passes: list[Action] = []
        for _ in range(self.session.game.num_players):
            went = pegging_table(state).inferred_pass()
            if went is None:
                break
            try:
                state = state.apply(went)
            except IllegalActionError:
                break
            passes.append(went)
            table = pegging_table(state)
            if table.whose_turn() is None:
                return passes  # the play is over: the card is laid for the show
            means = table.card_means(zone, card) or []
            try:
                self._check(state, means)
            except IllegalActionError:
                continue
            return [*passes, *means]
        raise first

    @staticmethod
    def _check(state: State, actions: Sequence[Action]) -> list[Action]:
        for action in actions:
            state = state.apply(action)
        return list(actions)

    # ------------------------------------------------------------------ what follows by itself

    def _settle(self, input: str | None) -> None:
        """Apply what the table now implies: the next deal on a cleared mat, the show of hands
        already seen, the crib once it is turned up, a card set aside that fits now."""
        for _ in range(64):  # each step applies one action, or the few of a card set aside
            table = pegging_table(self.session.state)
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
        state = self.session.state
        table = pegging_table(state)
        for key in sorted(self.early):
            seen = self.mat.get(key)
            means = table.card_means(key[0], seen.card) if seen is not None and seen.sure else None
            if means is None:
                self.early.discard(key)  # taken back, or the game holds it by now
                continue
            if not means:
                continue
            try:
                return self._check(state, means)[0]
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
        state = self.session.state
        if deal is not None:
            return deal if deal.to_json() == undone else None
        table = pegging_table(state)
        zone = table.show_waits_for()
        if zone is not None:
            if self._faces(zone) or undone.get("act") not in ("crib", "show"):
                return None
        elif not self._swept(table, undone):
            return None
        try:
            action = self.session.game.action_from_json(undone)
            self._check(state, [action])
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
                actions = self._meaning(key[0], seen.card)
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
        table = pegging_table(self.session.state)
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

    # ------------------------------------------------------------------ words

    def _label(self, zone: Zone) -> str:
        return pegging_table(self.session.state).zone_label(zone)
