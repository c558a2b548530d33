"""The pegging protocol (the cribbage family): each seat plays face up into its own row.

What the camera sees, and what it means:

- **cut**: a card placed in a seat's row while cutting for deal is that seat's cut.
- **deal**: when the mat has been cleared and a deal is due, the deal is made (hands unseen).
- **crib**: cards laid face down in the crib zone are the discards; the device cannot see them,
  so the discards are recorded when the **starter** is turned up in the starter zone.
- **play**: a card landing in a seat's row is that seat's play. "Go" and the end of a count are
  inferred from the order of plays: a play by the next-but-one player means the player between
  said go; a card that cannot fit the count means everyone said go and a new count began. The
  engine scores 1 for last, 31 and the rest.
- **show**: hands already seen in full (every card played) are counted at once, in order; a hand
  not yet seen waits for its remaining cards to be laid in the row. The crib is counted when it
  is turned face up in the crib zone.

A card read below the confidence threshold is never scored silently: the device asks ("Is that
the 7H in Bob's row?") and waits for OK or a correction. A card it cannot read, or a play the
rules refuse, is not applied: the device says why and waits (take the card back, enter the right
action on the phone, or press OK to ignore it). A card seen again (the camera restarted, a card
nudged) that the game already holds is ignored, so nothing is ever applied twice.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from device.protocols import Ask, TableProtocol
from games.errors import IllegalActionError, PegpiError

JSON = dict[str, Any]

NOT_A_FACE = ("back", "unknown")


def supports(game: Any) -> bool:
    """The cribbage family (six- and five-card, and their variants) and Bhargage are read this way.

    Suitcases is not yet: its "go" (a pass in a suit attempt) depends on suits, not on a count,
    so it cannot be inferred from the order of plays; it is played from the phone."""
    from games.bhargage.game import Bhargage
    from games.cribbage.game import Cribbage

    return isinstance(game, Cribbage | Bhargage)


@dataclass
class Seen:
    """A card on the mat as the protocol knows it; ``sure`` once read confidently or confirmed."""

    card: str
    confidence: float
    sure: bool


class PeggingProtocol(TableProtocol):
    name = "pegging"

    def __init__(self, session: Any) -> None:
        super().__init__(session)
        self.mat: dict[tuple[str, int], Seen] = {}
        self.waiting: list[tuple[Any, str | None]] = []
        self.cleared = False  # the camera has seen the mat emptied (a deal is made only then)
        self.watching = False  # table events come in: the table, not only the phone, is followed

    # ------------------------------------------------------------------ hooks

    def reset(self) -> None:
        super().reset()
        self.waiting = []

    def on_events(self, events: Iterable[Any], *, on_table: Any = None, input: str | None = None) -> None:
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

    def confirm(self, *, source: str, input: str | None = None) -> None:
        ask = self.ask
        if ask is None:
            super().confirm(source=source)
            return
        if ask.kind == "confirm":
            if ask.actions:
                self.session.apply(ask.actions, source=source, input=input)
            key = (ask.zone or "", ask.slot or 0)
            if key in self.mat:
                self.mat[key].sure = True
        # "illegal"/"unreadable": OK means "ignore that card"
        self.ask = None
        self._drain()

    def resolve(self, card: str, *, source: str) -> None:
        ask = self.ask
        if ask is None or ask.zone is None:
            super().resolve(card, source=source)
            return
        zone, slot = ask.zone, ask.slot or 0
        actions = self._actions_for(zone, self._seat(zone), card, self.session.state.phase)  # may refuse
        self.ask = None
        self.mat[(zone, slot)] = Seen(card, 1.0, True)
        if actions:
            self.session.apply(actions, source=source)
        self._drain()

    def answered(self, action: JSON) -> None:
        if self.ask is not None:  # the phone gives what the table could not: the question is answered
            self.ask = None

    def after_change(self) -> None:
        if self.watching:  # go on from what the phone said: held-back events, the show, the deal
            self._drain()

    # ------------------------------------------------------------------ events

    def _answers(self, event: Any) -> bool:
        ask = self.ask
        return ask is not None and event.kind == "removed" and (event.zone, event.slot or 0) == (ask.zone, ask.slot)

    def _drain(self) -> None:
        while self.waiting and self.ask is None:
            event, input = self.waiting.pop(0)
            self._event(event, input)
        if self.ask is None:
            self._settle(None)

    def _event(self, event: Any, input: str | None) -> None:
        key = (event.zone, event.slot or 0)
        if event.kind == "removed":
            self.mat.pop(key, None)
            self.cleared = not self.mat
            if self.ask is not None and (self.ask.zone, self.ask.slot) == key:
                self.ask = None  # the card was taken back
            return
        self.mat[key] = Seen(event.card, event.confidence, event.confidence >= self.session.confidence)
        self.cleared = False
        try:
            self._placed(event.zone, event.slot or 0, event.card, event.confidence, input)
        except PegpiError as exc:
            self.ask = Ask("illegal", f"{self._where(event.zone)}: {exc}", event.zone, event.slot or 0, event.card)

    def _placed(self, zone: str, slot: int, card: str, confidence: float, input: str | None) -> None:
        state = self.session.state
        phase = state.phase
        seat = self._seat(zone)
        if phase in ("over", "deal"):
            return  # the mat is to be cleared for the next deal; nothing on it counts now
        if card in NOT_A_FACE:
            if zone == "crib" or phase in ("cut", "discard", "starter"):
                return  # the crib lies face down; cards moved about before the play do not count
            self.ask = Ask("unreadable", f"cannot read the card in {self._where(zone)}: straighten it or "
                           "enter it on the phone", zone, slot, card)
            return
        actions = self._actions_for(zone, seat, card, phase)
        if actions is None:
            return
        if confidence < self.session.confidence:
            self.mat[(zone, slot)].sure = False
            self.ask = Ask("confirm", f"is that the {card} in {self._where(zone)}? OK, or correct it",
                           zone, slot, card, actions)
            return
        if actions:
            self.session.apply(actions, source="table", input=input)

    def _actions_for(self, zone: str, seat: int | None, card: str, phase: str) -> list[JSON] | None:
        """The actions a face card landing in ``zone`` means now (checked by the engine: an illegal
        one raises), [] when it means nothing yet, None when it is already known."""
        state = self.session.state
        game = self.session.game
        if phase == "cut":
            if seat is None:
                return None
            if str(state.cuts.get(seat, "")) == card:
                return None
            return self._check([{"act": "cut", "player": seat, "card": card}])
        if zone == "starter":
            if state.starter is not None and str(state.starter) == card:
                return None
            if phase not in ("discard", "starter"):
                return None
            laid = [{"act": "discard", "player": s} for s, n in enumerate(state.to_discard) if n > 0]
            return self._check([*laid, {"act": "starter", "card": card}])
        if seat is not None and card in {str(c) for c in state.played[seat]}:
            return None  # seen again: the game already holds it
        if phase == "play" and seat is not None:
            return self._plan_play(seat, game.parse_card(card))
        if phase == "show" and (seat is not None or zone == "crib"):
            game.parse_card(card)  # an unknown card name is refused now, not at the show
            return []
        return None

    def _check(self, actions: Sequence[JSON]) -> list[JSON]:
        state = self.session.state
        for action in actions:
            state = state.apply_json(action)
        return list(actions)

    def _plan_play(self, seat: int, card: Any) -> list[JSON]:
        """The play, with the "go"s the order of plays implies before it. When those "go"s end the
        play (five-card cribbage plays one count), the card is not played: it waits for the show."""
        game = self.session.game
        play = {"act": "play", "player": seat, "card": str(card)}
        try:
            return self._check([play])
        except IllegalActionError as refused:
            first = refused
        limit = int(getattr(game, "play_limit", 31))
        state = self.session.state
        gos: list[JSON] = []
        for _ in range(game.num_players):
            turn = state.turn
            if turn is None or (state.held[turn] > 0 and state.count <= limit - 10):
                break  # with a count this low every card fits: nobody can have said go
            go = {"act": "go", "player": turn}
            try:
                state = state.apply_json(go)
            except IllegalActionError:
                break
            gos.append(go)
            if state.phase != "play":
                return gos  # the play is over (a one-count game): the card is laid for the show
            try:
                state.apply_json(play)
            except IllegalActionError:
                continue
            return [*gos, play]
        raise first

    # ------------------------------------------------------------------ what follows by itself

    def _settle(self, input: str | None) -> None:
        """Apply what the table now implies: the next deal on a cleared mat, the show of hands
        already seen, the crib once it is turned up."""
        session = self.session
        for _ in range(16):  # each step applies one action; a deal has at most a few
            state = session.state
            phase = state.phase
            action: JSON | None = None
            if phase == "deal":
                if self.cleared and not self.mat:
                    action = {"act": "deal", "dealer": state.dealer}
            elif phase == "show" and state.show_queue:
                action = self._show_next(state)
            if action is None:
                return
            try:
                session.apply([action], source="table", input=input)
                if action["act"] == "deal":
                    self.cleared = False
            except PegpiError as exc:
                self.ask = Ask("illegal", f"{action['act']}: {exc}", None, None, None)
                return

    def _show_next(self, state: Any) -> JSON | None:
        nxt = state.show_queue[0]
        if self.session.game.options.get("muggins"):
            return None  # players claim their own counts: from the phone
        if nxt == "crib":
            faces = self._faces("crib")
            size = self.session.game.crib_size(state.dealer)
            if len(faces) >= size:
                return {"act": "crib", "cards": faces[:size]}
            return None
        seat = int(nxt)
        if state.held[seat] == 0:
            return {"act": "show", "player": seat}
        played = [str(c) for c in state.played[seat]]
        extra = [c for c in self._faces(f"seat{seat}") if c not in played]
        if len(played) + len(extra) >= self.session.game.kept_size(seat, state.dealer):
            return {"act": "show", "player": seat, "cards": played + extra}
        return None

    def _faces(self, zone: str) -> list[str]:
        return [seen.card for (z, _), seen in sorted(self.mat.items())
                if z == zone and seen.card not in NOT_A_FACE and seen.sure]

    # ------------------------------------------------------------------ words

    @staticmethod
    def _seat(zone: str) -> int | None:
        if zone.startswith("seat") and zone[4:].isdigit():
            return int(zone[4:])
        return None

    def _where(self, zone: str) -> str:
        seat = self._seat(zone)
        players = self.session.game.players
        if seat is not None and seat < len(players):
            return f"{players[seat]}'s row"
        return f"the {zone}"
