"""Bhargage: Kerry Handscomb's five-card cribbage for the extended Decktet (seed 000).

Deal five, lay two away to the dealer's bhargage, turn the up-card ("2 for the Chief" on a
Character), one play to 23 with compulsory play, then the show: non-dealer's hand, dealer's
hand, the bhargage, each followed by the opponent's shortage points. Game 111, the instant it is
reached; on a cribbage board both players start at 10 and race to 121.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from games.bhargage import combos, scoring
from games.bhargage.actions import (
    CountBhargage,
    Crib,
    Cut,
    Deal,
    Discard,
    Go,
    Pass,
    Play,
    Show,
    Starter,
)
from games.bhargage.table import DecktetPeggingGame, DecktetPeggingState, DecktetPeggingView
from games.decktet import DecktetCard
from games.engine import Item, Option, Score, Spec, register
from games.pegging.table import PeggingFields
from games.spec import TARGET_HIGH, TARGET_LOW
from games.view import Common, PeggingView, Shortage

BOARD = 121
BOARD_START = 10
#: the most a card adds to the count (a Crown)
MOST_VALUE = 10


@register
class Bhargage(DecktetPeggingGame):
    """Bhargage for two: deal five, two to the bhargage, play to 23, game 111."""

    spec = Spec(
        name="bhargage",
        title="Bhargage",
        players=(2,),
        deck="decktet45",
        table="pegging",
        target=111,
        aliases=("eleventy-one",),
        options=(
            Option("target", 111, "points to win (\"eleventy-one\")", low=TARGET_LOW, high=TARGET_HIGH),
            Option("start_at_10", True, "peg on a 121-hole cribbage board, both players starting at 10"),
            Option("sequences", False, "also score runs as in cribbage (the seed's optional rule)"),
        ),
        summary="Decktet cribbage: deal five, two to the bhargage, play to 23, 11s, sets, bhargs; game 111.",
    )
    actions = (Cut, Deal, Discard, Starter, Play, Pass, Go, Show, Crib, CountBhargage)
    hand_size = 5
    crib_name = "bhargage"
    play_limit = scoring.LIMIT

    @property
    def rules(self) -> scoring.Rules:
        return scoring.Rules(sequences=bool(self.options["sequences"]))

    def score_hand(self, hand: Sequence[DecktetCard], starter: DecktetCard | None,
                   crib: bool = False) -> Score:
        return scoring.score_show(hand, starter, crib, self.rules)

    def score_lines(self, hand: Sequence[DecktetCard], starter: DecktetCard | None,
                    crib: bool) -> list[tuple[str, Score]]:
        """The owner's count and, on its own line, the opponent's shortage."""
        lines = [(self.crib_name if crib else "hand", self.score_hand(hand, starter, crib))]
        short = scoring.shortage(hand, starter)
        if short.total:
            lines.append(("shortage", dataclasses.replace(short, to_opponent=True)))
        return lines

    def new_initial_state(self) -> BhargageState:
        return BhargageState(self)


class BhargageState(DecktetPeggingState):
    game: Bhargage

    @property
    def count(self) -> int:
        return sum(scoring.value(c) for c in self.pile)

    def prompt(self) -> str:
        text = super().prompt()
        if self._phase == "play" and not self.is_over:
            text += f" (count {self.count})"
        return text

    def _misfit(self, card: DecktetCard) -> str | None:
        total = self.count + scoring.value(card)
        if total > scoring.LIMIT:
            return f"it would take the count to {total}, over {scoring.LIMIT}"
        return None

    def _every_card_goes_on(self) -> bool:
        return self.count <= scoring.LIMIT - MOST_VALUE

    def _on_top_card(self, card: DecktetCard) -> None:
        assert self.dealer is not None
        if scoring.is_character(card):
            self.peg(self.dealer, 2, "chief", [Item("chief", (card,), 2, "the Chief")])

    def _score_play(self, seat: int) -> None:
        items = scoring.score_play(self.pile, self.game.rules)
        self.peg(seat, sum(i.points for i in items), "play", items)
        aces = [c for c in self.pile[-6:] if c.rank == "Ace"]
        if len(aces) == 6 and not self.is_over:
            side = self.side_of(seat)
            needed = max(1, (self.game.target or 0) - self.scores[side])
            self.peg(seat, needed, "game", [Item("six", tuple(aces), needed, "six Aces, game")])

    def _end_sequence(self) -> None:
        last = self.last_player
        if last is not None and self.count not in (11, scoring.LIMIT):
            self.peg(last, 1, "last", [Item("last", tuple(self.pile[-1:]), 1, "last card")])
        if not self.is_over:
            self._start_show()

    def _count_show(self, seat: int, what: str, cards: list[DecktetCard], claim: int | None) -> None:
        """The owner's count, then the opponent's shortage points."""
        score = self.game.score_hand(cards, self.starter, crib=(what == "crib"))
        self._peg_show(seat, what, cards, score, claim)
        short = scoring.shortage(cards, self.starter)
        opponent = self.other[seat]
        assert self.shown is not None
        missing = combos.missing_suits(cards + ([self.starter] if self.starter else []))
        self.shown = dataclasses.replace(self.shown, shortage=Shortage(opponent, short.total, tuple(missing)))
        self.peg(opponent, short.total, "shortage", short.items)

    def _pegging_view(self, common: Common, fields: PeggingFields, seat: int | None) -> PeggingView:
        fields["count"] = self.count if self._phase == "play" else None
        target = self.game.target or 111
        fields["board"] = BOARD
        if self.game.options["start_at_10"]:
            # The cribbage-board form: both pegs start at hole 10 and the game hole is 121.
            fields["start"] = BOARD_START
            common["target"] = target + BOARD_START
            common["sides"] = tuple(dataclasses.replace(side, score=side.score + BOARD_START,
                                                        rear=side.rear + BOARD_START)
                                    for side in common["sides"])
        won = [e for e in self.events if e.side == self.winner][-1:] if self.winner is not None else []
        return BhargageView(
            **common, **fields, **self._decktet_fields(),
            limit=scoring.LIMIT,
            points=GamePoints(target, tuple(self.scores), tuple(self.rear)),
            won_on=won[0].kind if won else None,
        )


@dataclass(frozen=True)
class GamePoints:
    """The points themselves, whatever hole the pegs start from."""

    target: int
    scores: tuple[int, ...]
    rear: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class BhargageView(DecktetPeggingView):
    style: ClassVar[str] = "pegging.decktet.bhargage"

    limit: int  # the count may not pass it
    points: GamePoints
    won_on: str | None  # the moment the game was won (a "shortage" win is unusual)
