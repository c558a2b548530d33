"""Costly Colours, the seventeenth-century relative of Cribbage, for two players.

Seed 003 breaks off in the middle of its rules; the rest is completed from public descriptions.
Where each rule comes from is listed in ``seeds/costly.md``. In short:

- three cards each, the next turned up as the deck card; a jack or a deuce turned pegs the
  dealer 4 (seed 003);
- mogging: each passes one card face down to the other; whoever refuses gives the other 1
  (seed 003, Cotton 1674); a player who gives away a jack or a deuce pegs 2 for it, 4 if it is
  of the deck card's suit (Parlett, as quoted in public descriptions);
- one play towards 31 from the eldest hand: making 15, 25 or 31 pegs as many points as there
  are cards on the table; if 31 is not made, the last to play pegs 1 "for the latter" (Cotton);
- the show, eldest first, three cards with the deck card: each combination making 15 or 25
  pegs as many as its cards, one making 31 pegs 4; a pair 2, three of a kind 9 (Cotton), four
  of a kind 18; each jack or deuce 2, or 4 of the deck card's suit (Cotton); colours: four of
  one suit 6 ("costly colours", Cotton), four of one colour with three of a suit 5, four of one
  colour 4, three of one suit 3, three of one colour 2;
- an ace counts 1 or 11 as its player declares (seed 003): in the play with ``"eleven": true``;
  in the show the engine takes the better reading for the holder;
- game 61 (Cotton; option ``target``).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from games.cards import Card
from games.cribbage.actions import Crib, Cut, Deal, Go, Play, Show, Starter
from games.cribbage.game import CribbageState, CribbageView
from games.cribbage.scoring import value
from games.cribbage.threecard import ThreeCardCribbage
from games.engine import Action, Item, Option, Score, Spec, register
from games.errors import IllegalActionError
from games.pegging.table import PeggingFields
from games.spec import TARGET_HIGH, TARGET_LOW
from games.view import Common, PeggingView

PAIR_POINTS = {2: ("pair", 2), 3: ("pair royal", 9), 4: ("double pair royal", 18)}
TOTAL_NAMES = {15: "fifteen", 25: "twenty-five", 31: "thirty-one"}
RED = frozenset("HD")


@dataclass(frozen=True)
class CostlyPlay(Play):
    """A card played; ``eleven`` when an ace is declared as 11."""

    eleven: bool | None = None


@dataclass(frozen=True)
class Mog(Action):
    """The player agrees to mog and passes ``card`` (if the companion is told it) face down."""

    act: ClassVar[str] = "mog"
    player: int
    card: Card | None = None


@dataclass(frozen=True)
class Refuse(Action):
    """The player will not mog: the other pegs 1."""

    act: ClassVar[str] = "refuse"
    player: int


def is_red(card: Card) -> bool:
    return card.suit in RED


def colours(cards: Sequence[Card]) -> list[Item]:
    """The best colour combination of the four cards (hand and deck card), if any."""
    suit, in_suit = Counter(c.suit for c in cards).most_common(1)[0]
    reds = sum(is_red(c) for c in cards)
    one_colour = reds in (0, len(cards))
    same_suit = tuple(c for c in cards if c.suit == suit)
    if in_suit == 4:
        return [Item("colours", tuple(cards), 6, "costly colours")]
    if one_colour and in_suit == 3:
        return [Item("colours", tuple(cards), 5, "four of a colour, three of a suit")]
    if one_colour:
        return [Item("colours", tuple(cards), 4, "four of a colour")]
    if in_suit == 3:
        return [Item("colours", same_suit, 3, "three of a suit")]
    if reds in (1, 3):
        major = tuple(c for c in cards if is_red(c) == (reds == 3))
        return [Item("colours", major, 2, "three of a colour")]
    return []


def _totals(cards: Sequence[Card], aces_high: frozenset[Card]) -> list[Item]:
    items = []
    for size in range(2, len(cards) + 1):
        for combo in itertools.combinations(cards, size):
            total = sum(11 if c in aces_high else value(c) for c in combo)
            if total in (15, 25):
                items.append(Item(TOTAL_NAMES[total], combo, size, str(total) if total == 25 else ""))
            elif total == 31:
                items.append(Item("thirty-one", combo, 4, "31"))
    return items


def score_costly_hand(hand: Sequence[Card], deck_card: Card) -> Score:
    """Count a Costly Colours hand: three cards and the deck card.

    >>> from games.cards import parse_cards
    >>> score_costly_hand(parse_cards("5H 4H 8H"), Card.parse("JH")).spoken()
    'fifteen 2, costly colours 8'
    """
    cards = list(hand) + [deck_card]
    aces = [c for c in cards if c.rank == 1]
    best: Score | None = None
    for k in range(len(aces) + 1):
        for high in itertools.combinations(aces, k):
            items = _totals(cards, frozenset(high))
            groups = Counter(c.rank for c in cards)
            for rank, n in sorted(groups.items()):
                if n >= 2:
                    label, points = PAIR_POINTS[n]
                    items.append(Item("pair", tuple(c for c in cards if c.rank == rank), points,
                                      "" if label == "pair" else label))
            for c in hand:
                if c.rank in (2, 11):
                    right = c.suit == deck_card.suit
                    word = "knave" if c.rank == 11 else "deuce"
                    items.append(Item(word, (c,), 4 if right else 2, f"right {word}" if right else word))
            items += colours(cards)
            score = Score.of(items)
            if best is None or score.total > best.total:
                best = score
    assert best is not None
    return best


@register
class CostlyColours(ThreeCardCribbage):
    spec = Spec(
        name="costly",
        title="Costly Colours",
        players=(2,),
        deck="french52",
        table="pegging",
        target=61,
        aliases=("costly colours", "costly colors"),
        options=(Option("target", 61, "points to win (Cotton: 61)", low=TARGET_LOW, high=TARGET_HIGH),),
        summary="Three cards and a deck card, mogging, one play to 31 scoring 15/25/31 by the card, "
                "colours in the show; game 61.",
    )
    actions = (Cut, Deal, Starter, Mog, Refuse, CostlyPlay, Go, Show)

    def score_hand(self, hand: Sequence[Card], starter: Card | None, crib: bool = False) -> Score:
        if starter is None:
            raise IllegalActionError("a Costly Colours hand is counted with the deck card")
        return score_costly_hand(hand, starter)

    def score_cards(self, cards: Sequence[str], starter: str | None, crib: bool = False) -> list[tuple[str, Score]]:
        if crib:
            raise IllegalActionError("Costly Colours has no crib")
        if not starter:
            raise IllegalActionError("a Costly Colours hand is counted with the deck card: --starter CARD")
        return super().score_cards(cards, starter)

    def new_initial_state(self) -> CostlyState:
        return CostlyState(self)


class CostlyState(CribbageState):
    game: CostlyColours

    def __init__(self, game: CostlyColours) -> None:
        super().__init__(game)
        self.mog_queue: list[int] = []
        self.mogged: dict[int, Card | None] = {}

    def to_move(self, action: Action) -> Sequence[int] | None:
        if isinstance(action, Mog | Refuse):
            return self.mog_queue[:1] or None
        return super().to_move(action)

    def prompt(self) -> str:
        if not self.is_over and self._phase == "mog" and self.mog_queue:
            return f"{self.game.players[self.mog_queue[0]]}: mog or refuse"
        return super().prompt()

    def _on_starter(self, action: Starter) -> None:
        self._need_phase(action, "starter")
        card = action.card
        if card in self._seen_this_deal() or any(h is not None and card in h for h in self.known):
            raise IllegalActionError(f"{card} is already in play this deal; it cannot be the deck card")
        self.starter = card
        assert self.dealer is not None
        if card.rank in (2, 11):
            self.peg(self.dealer, 4, "heels", [Item("heels", (card,), 4, "4 for his heels")])
        self._phase = "mog"
        eldest = (self.dealer + 1) % 2
        self.mog_queue = [eldest, self.dealer]
        self.mogged = {}

    def _on_refuse(self, action: Refuse) -> None:
        self._need_phase(action, "mog")
        other = 1 - action.player
        self.peg(other, 1, "mog", [Item("mog", (), 1, "refused to mog")])
        self._start_play()

    def _on_mog(self, action: Mog) -> None:
        self._need_phase(action, "mog")
        seat = action.player
        hand = self.known[seat]
        if hand is not None:
            if action.card is None:
                raise IllegalActionError(f"say which card {self.game.players[seat]} passes")
            if action.card not in hand:
                raise IllegalActionError(f"{self.game.players[seat]} does not hold {action.card}")
        elif action.card is not None and (action.card == self.starter
                                          or any(action.card in (h or []) for h in self.known)):
            raise IllegalActionError(f"{action.card} is not in {self.game.players[seat]}'s hand")
        self.mogged[seat] = action.card
        self.mog_queue.pop(0)
        if self.mog_queue:
            return
        for giver, card in self.mogged.items():
            taker = 1 - giver
            mine, theirs = self.known[giver], self.known[taker]
            if card is not None and mine is not None:
                mine.remove(card)
                got = self.mogged[taker]
                if got is not None:
                    mine.append(got)
            elif mine is not None or theirs is not None:
                self.known[giver] = None  # the exchange leaves this hand unknown
            if card is not None and card.rank in (2, 11) and self.starter is not None:
                right = card.suit == self.starter.suit
                word = "knave" if card.rank == 11 else "deuce"
                self.peg(giver, 4 if right else 2, "mog",
                         [Item(word, (card,), 4 if right else 2, f"{'right ' if right else ''}{word} given")])
        self._start_play()

    def _start_play(self) -> None:
        assert self.dealer is not None
        self.mog_queue = []
        if self.is_over:
            return
        self._phase = "play"
        self.turn = (self.dealer + 1) % 2

    def _play_value(self, action: Play) -> int:
        if isinstance(action, CostlyPlay) and action.eleven:
            if action.card.rank != 1:
                raise IllegalActionError(f"only an ace may count 11, not {action.card}")
            return 11
        return value(action.card)

    def _score_played(self) -> list[Item]:
        if self.count in TOTAL_NAMES:
            n = len(self.pile)
            label = {31: "31", 25: "25"}.get(self.count, "")
            return [Item(TOTAL_NAMES[self.count], tuple(self.pile), n, label)]
        return []

    def _on_crib(self, action: Crib) -> None:
        raise IllegalActionError("Costly Colours has no crib")

    def _pegging_view(self, common: Common, fields: PeggingFields, seat: int | None) -> PeggingView:
        fields["crib"] = None
        cribbage = self._cribbage_fields()
        cribbage["crib_count"] = 0
        return CostlyView(**common, **fields, **cribbage, deck_card=fields["starter"],
                          mog_waiting=tuple(self.mog_queue))


@dataclass(frozen=True, kw_only=True)
class CostlyView(CribbageView):
    style: ClassVar[str] = "pegging.cribbage.costly"

    deck_card: str | None  # Costly Colours' name for the starter
    mog_waiting: tuple[int, ...]  # seats still to say whether they mog
