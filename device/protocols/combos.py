"""The combinations protocol (Fight the Landlord): each seat lays its plays into its own zone, a
grid of outlines in front of it, and the three middle cards lie in the kitty.

Why a zone per seat rather than one central zone: the camera must know who played, and a pass
shows nothing. With one central zone a combination that beats the last one could be the next
seat's or the one after (the seat between having passed): only the players could say. With a zone
per seat the place says who played, and the order of play then proves the passes (the game says
which, through :class:`games.table.CombosTable`):

- **a play** is the group of new cards laid in a seat's zone, read as ONE group once it is
  complete: when something happens elsewhere on the mat (a card laid in, or lifted from, another
  seat's zone), when OK is pressed, when the seat has laid every card it holds, or when its cards
  have lain still for :data:`STILL_S` before one is lifted. Then it is classified and checked
  against the combination to beat;
- **passes** are what the order proves: a play in Cy's zone while Ann was to play means Ann and
  Bob passed (when the rules let them: a leader never passes). Lifting the combination to beat off
  the mat means the seats still to answer it passed, and the round is over (nobody lifts it
  before); the winner of the round leads next. A pass nothing on the mat proves (the next play was
  entered on the phone) is said on the phone or the buttons;
- **the kitty**: the middle cards lie face down in its outlines; turned face up once the bidding is
  over, they are the landlord's extra cards; the landlord then takes them into the hand;
- the bids, and a play too long for the zone's outlines, are entered on the phone or the buttons.

A group holding a card read below the confidence threshold is asked about ("is that the 5H in
Bob's zone?") before it is judged; a card that cannot be read, or a play the rules refuse
("3S 3H: it does not beat 5C 5D"), is named on the board and the phone and waits: take the cards
back, correct them, enter the play on the phone, or press OK to set them aside. Cards laid
elsewhere meanwhile wait their turn behind the question; nothing recorded is lost, and an undo or a
correction on the phone makes the protocol read the mat again.
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
from games.table import KITTY, CombosTable, Zone
from vision.api import NOT_A_FACE

if TYPE_CHECKING:
    from games.engine import Action
    from games.records import Replay
    from vision.events import TableEvent

#: seconds a group's cards lie still before lifting one of them means the play was made
STILL_S = 3.0


@dataclass
class Laid(Seen):
    """A card on the mat as the protocol knows it. ``t``: when it was laid; ``used``: part of a
    recorded action (or of the game already)."""

    t: float
    used: bool = False


@register_protocol
class CombosProtocol(MatProtocol[Laid, CombosTable]):
    name = "combos"
    interface = CombosTable

    def __init__(self, session: TableSession) -> None:
        super().__init__(session)
        self.open: list[Zone] = []  # seat zones holding new cards, in the order they began
        self.done: list[Zone] = []  # of those, the groups complete and waiting to be judged
        self.aside: set[Key] = set()  # new cards set aside with OK (or by an undo) until their zone changes
        self.waiting: list[tuple[TableEvent, str | None]] = []

    # ------------------------------------------------------------------ hooks

    @property
    def notice(self) -> str | None:
        if not self.open:
            return None
        zone = self.open[0]
        cards = " ".join(self.mat[k].card for k in self._fresh(zone))
        return f"{self._label(zone)}: {cards}. OK once the play is down (or the next player plays)"

    def reset(self) -> None:
        super().reset()
        table = self._table()
        for zone in sorted({z for z, _ in self.mat}):
            held = table.zone_cards(zone)
            keys = sorted(k for k in self.mat if k[0] == zone)
            was = [k for k in keys if self.mat[k].used and self.mat[k].card not in held]
            lying = {self.mat[k].card for k in keys}
            missing = [c for c in held[len(held) - len(was):] if c not in lying] if was else []
            if was and len(was) == len(missing):  # a correction named these cards otherwise
                for key, card in zip(was, missing, strict=True):
                    self.mat[key].card, self.mat[key].sure = card, True
            for key in keys:
                laid = self.mat[key]
                if laid.card in held:
                    laid.used = True
                elif laid.used and (zone == KITTY or not self._played_before(laid.card)):
                    laid.used = False  # an undo took its play back: read again once the zone changes
                    self.aside.add(key)
        self.open = [z for z in self.open if self._fresh(z)]
        self.done = [z for z in self.done if z in self.open]

    def on_events(self, events: Iterable[TableEvent], *, on_table: Mapping[tuple[str, int], str] | None = None,
                  input: str | None = None) -> None:
        for event in events:
            if self.ask is not None and not self._answers(event):
                self.waiting.append((event, input))
                continue
            self._event(event, input)
            self._drain()  # a question just answered: what waited behind it comes first
        self._settle(input)
        self._drain()

    def confirm(self, *, source: str, input: str | None = None) -> None:
        ask = self.ask
        if ask is None:
            if not self.open:
                super().confirm(source=source)
                return
            for zone in self.open:  # OK: the play is down
                self._close(zone)
            self._settle(input, source=source)
            self._drain()
            return
        self.ask = None
        key = (ask.where, ask.slot or 0) if ask.where is not None else None
        if ask.kind == "confirm" and key is not None and key in self.mat:
            self.mat[key].sure = True
        elif ask.where is not None:  # OK on a refused or unreadable group: set it aside
            for key in self._fresh(ask.where):
                self.aside.add(key)
            self._forget(ask.where)
        self._settle(input, source=source)
        self._drain()

    def _corrected(self, key: Key, card: str, source: str) -> None:
        self.mat[key] = Laid(card, 1.0, True, self.mat[key].t)
        self._settle(None, source=source)
        self._drain()

    def answered(self, action: JSONObject) -> None:
        ask = self.ask
        self.ask = None
        if ask is not None and ask.where is not None:  # the phone said what the group asked about was
            for key in self._fresh(ask.where):
                self.mat[key].used = True
            self._forget(ask.where)

    def after_change(self) -> None:
        self._settle(None)
        self._drain()

    # ------------------------------------------------------------------ events

    def _answers(self, event: TableEvent) -> bool:
        """An event in the zone asked about changes the group in question: it is taken at once."""
        key = self._key(event)
        return self.ask is not None and key is not None and key[0] == self.ask.where

    def _drain(self) -> None:
        while self.waiting and self.ask is None:
            event, input = self.waiting.pop(0)
            self._event(event, input)
            self._settle(input)

    def _event(self, event: TableEvent, input: str | None) -> None:
        key = self._key(event)
        if key is None:
            return
        zone = key[0]
        if self.ask is not None and self.ask.where == zone:
            self.ask = None  # the group asked about changed: it is read again once complete
        if zone.kind == "seat" and any(other != zone for other in self.open):
            for other in [z for z in self.open if z != zone]:
                self._close(other)  # another seat acts: the plays before it are down
            self._settle(input)
            if self.ask is not None:
                self.waiting.insert(0, (event, input))  # this event waits behind the question
                return
        fresh = self._fresh(zone)
        self.aside -= {k for k in self.aside if k[0] == zone}
        if event.kind == "removed":
            if key in fresh and zone in self.open and event.t - max(self.mat[k].t for k in fresh) >= STILL_S:
                self._close(zone)  # lain still long enough: the play was made before it is lifted
                self._settle(input)
                if self.ask is not None:
                    self.waiting.insert(0, (event, input))
                    return
            laid = self.mat.pop(key, None)
            if laid is None:
                return
            if laid.used:
                self._lifted(zone, laid.card, input)
            elif zone in self.open and not self._fresh(zone):
                self._forget(zone)
            elif zone in self.done:
                self.done.remove(zone)  # a card taken back: the group is not complete after all
            return
        self.mat[key] = Laid(event.card, event.confidence, event.confidence >= self.session.confidence, event.t)
        if zone.kind == "seat":
            if zone in self.done:
                self.done.remove(zone)
            if zone not in self.open:
                self.open.append(zone)

    def _lifted(self, zone: Zone, card: str, input: str | None) -> None:
        """A card of a recorded play lifted: when it leaves the combination to beat off the mat,
        the seats still to answer it passed."""
        table = self._table()
        beat = table.to_beat()
        if beat is None or Zone.row(beat[0]) != zone or card not in beat[1]:
            return
        if any(self.mat[k].card in beat[1] for k in self.mat if k[0] == zone):
            return
        passes = table.cleared()
        if not passes:
            return
        try:
            self.session.apply(passes, source="table", input=input)
        except PegpiError as exc:
            self.ask = Ask("illegal", f"{self._label(zone)} lifted: {exc}", zone, None, card)

    # ------------------------------------------------------------------ judging the groups

    def _fresh(self, zone: Zone) -> list[Key]:
        """The new cards in ``zone``: not yet part of the game, not set aside."""
        return sorted(k for k, laid in self.mat.items()
                      if k[0] == zone and not laid.used and k not in self.aside)

    def _close(self, zone: Zone) -> None:
        if zone in self.open and zone not in self.done:
            self.done.append(zone)

    def _forget(self, zone: Zone) -> None:
        if zone in self.open:
            self.open.remove(zone)
        if zone in self.done:
            self.done.remove(zone)

    def _played_before(self, card: str) -> bool:
        table = self._table()
        return any(card in table.zone_cards(Zone.row(s)) for s in range(len(self.session.game.players)))

    def _settle(self, input: str | None, *, source: str = "table") -> None:
        """Judge what the mat now shows, in order: each complete group, then the kitty."""
        for _ in range(64):
            if self.ask is not None:
                return
            table = self._table()
            for zone in self.open:
                size = table.group_size(zone)
                if size and len(self._fresh(zone)) >= size:
                    self._close(zone)  # every card the seat holds is down
            if self.done:
                if not self._judge(self.done[0], input, source):
                    return
                continue
            if not self._kitty(input, source):
                return

    def _judge(self, zone: Zone, input: str | None, source: str) -> bool:
        """Read the group in ``zone`` as one play: True once it is settled (applied, or the game's
        already), False when it asks or waits."""
        keys = self._fresh(zone)
        if not keys:
            self._forget(zone)
            return True
        cards = [self.mat[k].card for k in keys]
        table = self._table()
        label = self._label(zone)
        if (unread := self._unread(zone, keys, "the play")) is not None:
            self.ask = unread
            return False
        actions: list[Action] | None = []
        refused: str | None = None
        try:
            actions = table.group_means(zone, cards)
        except PegpiError as exc:
            refused = str(exc)
        unsure = next((k for k in keys if not self.mat[k].sure), None)
        if unsure is not None:
            shown = " ".join(cards)
            self.ask = Ask("confirm", f"is that the {self.mat[unsure].card} in {label} ({shown})? OK, or "
                           "correct it", zone, unsure[1], self.mat[unsure].card, list(actions or []))
            return False
        if refused is not None:
            self.ask = self._refusal(zone, keys, refused)
            return False
        if actions is None:  # the game's already (seen again)
            self._use(keys)
            self._forget(zone)
            return True
        if not actions or not self._apply(zone, keys, actions, input, source):
            return False
        self._forget(zone)
        return True

    def _kitty(self, input: str | None, source: str) -> bool:
        """The middle cards turned face up: True when they were just applied (more may follow)."""
        keys = [k for k in self._fresh(KITTY) if self.mat[k].card != "back"]
        if not keys:
            return False
        cards = [self.mat[k].card for k in keys]
        table = self._table()
        if (unread := self._unread(KITTY, keys, "it")) is not None:
            self.ask = unread
            return False
        try:
            actions = table.group_means(KITTY, cards)
        except PegpiError as exc:
            self.ask = self._refusal(KITTY, keys, exc)
            return False
        if actions is None:
            self._use(keys)
            return False
        if not actions:
            return False
        unsure = next((k for k in keys if not self.mat[k].sure), None)
        if unsure is not None:
            self.ask = Ask("confirm", f"is that the {self.mat[unsure].card} in {self._label(KITTY)}? OK, or "
                           "correct it", KITTY, unsure[1], self.mat[unsure].card, list(actions))
            return False
        return self._apply(KITTY, keys, actions, input, source)

    def _unread(self, zone: Zone, keys: list[Key], what: str) -> Ask | None:
        """The question about the first card at ``keys`` that cannot be read (``what`` the phone
        may give instead), None when every card there is read."""
        key = next((k for k in keys if self.mat[k].card in NOT_A_FACE), None)
        if key is None:
            return None
        return Ask("unreadable", f"cannot read a card in {self._label(zone)}: straighten it or enter {what} "
                   "on the phone", zone, key[1], self.mat[key].card)

    def _apply(self, zone: Zone, keys: list[Key], actions: list[Action], input: str | None, source: str) -> bool:
        """Apply what the group at ``keys`` in ``zone`` means and count its cards in the game:
        False when the rules refuse it (named on the board and the phone)."""
        try:
            self.session.apply(actions, source=source, input=input)
        except PegpiError as exc:
            self.ask = self._refusal(zone, keys, exc)
            return False
        self._use(keys)
        return True

    def _use(self, keys: list[Key]) -> None:
        """The cards at ``keys`` are part of the game now (recorded, or its already)."""
        for key in keys:
            self.mat[key].used = True

    def _refusal(self, zone: Zone, keys: list[Key], why: str | PegpiError) -> Ask:
        """The rules refuse the group at ``keys`` in ``zone``: named with its cards."""
        cards = [self.mat[k].card for k in keys]
        return Ask("illegal", f"{' '.join(cards)}: {why}", zone, keys[0][1], cards[0])


# ---------------------------------------------------------------------------------- the script


def _slots(seats: int) -> dict[str, int]:
    """Outlines per zone of the combinations mat these seats play on."""
    from vision.mat import layout_for, mat_paper

    layout = layout_for("combos", seats, mat_paper("combos", seats))
    return {zone.name: len(zone.slots) for zone in layout.zones}


@register_script("combos")
def combos_script(result: Replay) -> list[JSONObject]:
    """The steps that play a record on a combinations mat: the middle cards laid face down at each
    deal, turned up for the landlord and taken; each play laid in its seat's zone (its earlier cards
    lifted first) or, too long for the outlines, entered on the phone; the round's cards lifted
    after two passes, the mat cleared before a deal. OK is pressed after a play when nothing else
    on the mat shows it is down; a pass is said only when no later play on the mat proves it."""
    game = result.game
    state = game.new_initial_state()
    CombosProtocol.table_of(state)  # refuses a game not played on the combinations table
    slots = _slots(game.num_players)
    actions = [a.to_json() for a in result.actions]
    laid = [a["act"] == "play" and len(a["cards"]) <= slots[Zone.row(int(a["player"])).name] for a in actions]
    mat: dict[tuple[str, int], str] = {}
    steps: list[JSONObject] = []
    ends: dict[int, bool] = {}  # step index of a play's last card -> the seat went out

    def remove(zone: str | None = None) -> None:
        for key in sorted(k for k in mat if zone is None or k[0] == zone):
            del mat[key]
            steps.append({"op": "remove", "zone": key[0], "slot": key[1]})

    def place(zone: str, slot: int, card: str) -> None:
        mat[(zone, slot)] = card
        steps.append({"op": "place", "zone": zone, "slot": slot, "card": card})

    for index, action in enumerate(result.actions):
        data = actions[index]
        act = data["act"]
        table = CombosProtocol.table_of(state)
        before = table.to_beat()
        if act == "deal":
            remove()
            steps.append({"op": "say", "action": data})
        elif act == "kitty":
            for slot, card in enumerate(data["cards"]):
                place(KITTY.name, slot, card)
        elif act == "play" and laid[index]:
            zone = Zone.row(int(data["player"])).name
            remove(zone)
            for slot, card in enumerate(data["cards"]):
                place(zone, slot, card)
            ends[len(steps) - 1] = False
        elif act == "pass" and state.phase == "play" and _proven(actions, laid, index, before):
            pass  # the order of play shows it
        else:
            steps.append({"op": "say", "action": data})
        state = state.apply(action)
        table = CombosProtocol.table_of(state)
        if act == "deal" and state.phase == "bid":
            for slot in range(3):
                place(KITTY.name, slot, "back")
        elif act == "kitty":
            remove(KITTY.name)  # the landlord takes them
        elif act == "play" and laid[index] and state.phase != "play":
            ends[len(steps) - 1] = True  # the seat went out: its group is complete as it lands
        if act == "pass" and before is not None and table.to_beat() is None:
            remove()  # two passes: the round's cards are lifted
    out: list[JSONObject] = []
    for index, step in enumerate(steps):
        out.append(step)
        if index in ends and not ends[index]:
            after = steps[index + 1] if index + 1 < len(steps) else None
            shown = after is not None and after["op"] in ("place", "remove") and after["zone"] != step["zone"] \
                and Zone.parse(str(after["zone"])).kind == "seat"
            if not shown:
                out.append({"op": "ok"})  # nothing else shows the play is down
    return out


def _proven(actions: list[JSONObject], laid: list[bool], index: int,
            before: tuple[int, tuple[str, ...]] | None) -> bool:
    """Whether the mat proves the pass at ``index``: the round it ends is lifted with its
    combination to beat on the mat, or the next play is laid on the mat."""
    later = next((i for i in range(index, len(actions)) if actions[i]["act"] != "pass"), None)
    owner = next((i for i in range(index - 1, -1, -1) if actions[i]["act"] != "pass"), None)
    passes = (later if later is not None else len(actions)) - (owner if owner is not None else -1) - 1
    if before is not None and passes >= 2 and owner is not None and laid[owner]:
        return True  # the round is over: its combination to beat, on the mat, is lifted
    return later is not None and actions[later]["act"] == "play" and laid[later]


__all__ = ["CombosProtocol", "combos_script"]
