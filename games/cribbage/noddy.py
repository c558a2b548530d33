"""Noddy (seed 003), the sixteenth-century parent of Cribbage: three cards each and a turn-up;
each player announces and pegs his hand with the turn-up before the play; then one play-off
towards 31 in which the count may overshoot. Game 31.

Scores, all from seed 003:

- turn-up a jack: the dealer pegs 2 at once ("Knave Noddy"); otherwise the jack of the
  turn-up's suit in a hand is Knave Noddy and pegs 1 in the show;
- in the hand (three cards and the turn-up): pair 2, pair royal 6, double pair royal 12; each
  combination making 15 or 25 pegs 2; a run of three 1 and of four 2 as the seed's table prints
  them (option ``hand_runs``: "table", or "per-card" for 3 and 4 as other descriptions give);
  a flush of three 3, of four 4;
- in the play-off: pairs as in the hand, runs and flushes of successive cards 1 per card
  (the seed's example: 6 4 7 then 5 pegs 4 for the run), 2 for making 15, 25 or 31; a card
  that takes the count past 31 ends the play and the player who last kept it under 31 pegs 1.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from games.cards import Card
from games.cribbage.actions import Crib, Go, Play, Show, Starter
from games.cribbage.game import CribbageState, CribbageView
from games.cribbage.scoring import PlayRules, fifteens, pairs, runs, score_play, value
from games.cribbage.threecard import ThreeCardCribbage
from games.engine import Action, Item, Option, Score, Spec, register
from games.errors import IllegalActionError
from games.pegging.table import PeggingFields
from games.spec import TARGET_HIGH, TARGET_LOW
from games.table import Zone
from games.view import Common, PeggingView

NODDY_PLAY = PlayRules(totals=(15, 25, 31), flushes=True, flush_min=3)
RUN_POINTS = {"table": {3: 1, 4: 2}, "per-card": {3: 3, 4: 4}}
LIMIT = 31


def score_noddy_hand(hand: Sequence[Card], turnup: Card, hand_runs: str = "table") -> Score:
    """Count a Noddy hand: the three cards and the turn-up.

    >>> from games.cards import parse_cards
    >>> score_noddy_hand(parse_cards("5H 10S 5C"), Card.parse("5D")).spoken()
    'fifteen 2, fifteen 4, fifteen 6, fifteen 8, twenty-five 10, pair royal 16'
    """
    cards = list(hand) + [turnup]
    items = fifteens(cards)
    items += fifteens(cards, 25, "twenty-five")
    items += pairs(cards)
    table = RUN_POINTS[hand_runs]
    for run in runs(cards):
        items.append(Item("run", run.cards, table[len(run.cards)], f"run of {len(run.cards)}"))
    suit, count = Counter(c.suit for c in cards).most_common(1)[0]
    if count >= 3:
        items.append(Item("flush", tuple(c for c in cards if c.suit == suit), count, f"flush of {count}"))
    if turnup.rank != 11:
        items += [Item("noddy", (c,), 1, "knave noddy") for c in hand if c.rank == 11 and c.suit == turnup.suit]
    return Score.of(items)


@register
class Noddy(ThreeCardCribbage):
    spec = Spec(
        name="noddy",
        title="Noddy",
        players=(2,),
        deck="french52",
        table="pegging",
        target=31,
        aliases=("knave noddy",),
        options=(
            Option("target", 31, "points to win", low=TARGET_LOW, high=TARGET_HIGH),
            Option("hand_runs", "table", "runs in the hand: as the seed's table prints them (1, 2) or 3 and 4",
                   ("table", "per-card")),
        ),
        summary="Three cards and a turn-up: hands pegged first, then one play-off to 31; game 31.",
    )
    play_rules = NODDY_PLAY
    count_may_pass_limit = True

    def score_hand(self, hand: Sequence[Card], starter: Card | None, crib: bool = False) -> Score:
        if starter is None:
            raise IllegalActionError("a Noddy hand is counted with the turn-up")
        return score_noddy_hand(hand, starter, str(self.options["hand_runs"]))

    def score_cards(self, cards: Sequence[str], starter: str | None, crib: bool = False) -> list[tuple[str, Score]]:
        if crib:
            raise IllegalActionError("Noddy has no crib")
        if not starter:
            raise IllegalActionError("a Noddy hand is counted with the turn-up: --starter CARD")
        return super().score_cards(cards, starter)

    def new_initial_state(self) -> NoddyState:
        return NoddyState(self)


class NoddyState(CribbageState):
    game: Noddy

    def prompt(self) -> str:
        if not self.is_over and self._phase == "show" and self.show_queue:
            return f"{self.game.players[int(self.show_queue[0])]} to announce their hand"
        return super().prompt()

    def _on_starter(self, action: Starter) -> None:
        super()._on_starter(action)  # the dealer pegs 2 for a jack, as for his heels
        assert self.dealer is not None
        if self.last_events:
            self.events[-1] = self.last_events[-1] = _renamed(self.last_events[-1])
        self._phase = "show"
        self.turn = None
        pone = (self.dealer + 1) % 2
        self.show_queue = [pone, self.dealer]

    def _on_show(self, action: Show) -> None:
        self._need_phase(action, "show")
        seat = action.player
        name = self.game.players[seat]
        if action.cards is None:
            if action.claim is None:
                raise IllegalActionError(f"{name} announces the hand: give its cards or the points claimed")
            self.show_queue.pop(0)
            self.peg(seat, action.claim, "hand", [Item("claim", (), action.claim, "claimed")])
        else:
            cards = list(action.cards)
            if len(cards) != 3 or len(set(cards)) != 3:
                raise IllegalActionError(f"a Noddy hand has 3 different cards, not {len(cards)}")
            known = self.known[seat]
            if known is not None and sorted(known) != sorted(cards):
                raise IllegalActionError(f"{name} holds {' '.join(map(str, known))}")
            for card in cards:
                self._check_fresh(card)
                if card == self.starter or any(h is not None and card in h for s, h in enumerate(self.known)
                                               if s != seat):
                    raise IllegalActionError(f"{card} is already elsewhere this deal")
            self.known[seat] = cards
            self.show_queue.pop(0)
            self._count_show(seat, "hand", cards, action.claim)
        if not self.is_over and not self.show_queue:
            assert self.dealer is not None
            self.shown = None
            self._phase = "play"
            self.turn = (self.dealer + 1) % 2

    def _on_play(self, action: Play) -> None:
        self._need_phase(action, "play")
        seat, card = action.player, action.card
        if seat != self.turn:
            raise IllegalActionError(f"it is not {self.game.players[seat]}'s turn to play")
        self._take_from_hand(seat, card, "play")
        self.played[seat].append(card)
        self.pile.append(card)
        self.count += value(card)
        if self.count > LIMIT:
            last = self.last_player
            if last is not None:
                self.peg(last, 1, "last", [Item("go", tuple(self.pile[-2:-1]), 1, "last under 31")])
            self._end_play()
            return
        self.last_player = seat
        items = score_play(self.pile, self.game.play_rules)
        self.peg(seat, sum(i.points for i in items), "play", items)
        other = 1 - seat
        if self.is_over:
            return
        if self.count == LIMIT or not any(self.held):
            self._end_play()
        else:
            self.turn = other if self.held[other] > 0 else seat

    def _end_play(self) -> None:
        self.turn = None
        self.count, self.pile = 0, []
        self._end_deal()

    def inferred_pass(self) -> Action | None:
        return None  # a card can always be played: the count may pass 31

    def show_waits_for(self) -> Zone | None:
        return None  # hands are announced before the play, on the phone: their cards stay hidden

    def _on_go(self, action: Go) -> None:
        raise IllegalActionError("in Noddy a card can always be played: the count may pass 31, ending the play")

    def _on_crib(self, action: Crib) -> None:
        raise IllegalActionError("Noddy has no crib")

    def _pegging_view(self, common: Common, fields: PeggingFields, seat: int | None) -> PeggingView:
        shown = fields["show"]
        if shown is not None and seat != shown.seat and self._phase in ("show", "over"):
            # an announced hand is not revealed: others hear the total, not the cards
            fields["show"] = replace(shown, cards=None, items=None)
        fields["crib"] = None
        if self._phase == "show" and not self.is_over:
            fields["count"] = None
        cribbage = self._cribbage_fields()
        cribbage["crib_count"] = 0
        return NoddyView(**common, **fields, **cribbage, turnup=fields["starter"])


@dataclass(frozen=True, kw_only=True)
class NoddyView(CribbageView):
    style: ClassVar[str] = "pegging.cribbage.noddy"

    turnup: str | None  # Noddy's name for the starter


def _renamed(event: Any) -> Any:
    """The dealer's 2 for a turned-up jack is called Knave Noddy in this game."""
    from dataclasses import replace

    items = tuple(replace(i, kind="noddy", label="knave noddy") for i in event.items)
    return replace(event, kind="noddy", items=items)
