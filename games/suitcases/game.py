"""Suitcases: David L. Van Slyke's cribbage-board game for the extended Decktet (seed 001).

Deal six, two each to the dealer's crib, turn the top card; then *suit casing*: suit attempts in
which the players take turns adding a card whose suits are not yet used in the attempt, passing
when they cannot (the other plays on alone while able); 1 point to the last player able to play,
and the other leads the next attempt, until every card is played. Then *cleaning hands*:
non-dealer's hand, dealer's hand, the crib, each with the top card. Game 121, at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from games.bhargage.actions import Crib, Cut, Deal, Discard, Go, Muggins, Pass, Play, Show, Starter
from games.bhargage.table import DecktetPeggingGame, DecktetPeggingState, DecktetPeggingView
from games.decktet import DECKTET_SUITS, DecktetCard
from games.engine import Item, Option, Score, Spec, register
from games.errors import OptionError
from games.pegging.table import PeggingFields
from games.spec import TARGET_HIGH, TARGET_LOW
from games.suitcases import scoring
from games.view import Common, PeggingView


@register
class Suitcases(DecktetPeggingGame):
    """Suitcases for two: deal six, two to the crib, suit casing, cleaning hands, game 121."""

    spec = Spec(
        name="suitcases",
        title="Suitcases",
        players=(2,),
        deck="decktet45",
        table="pegging",
        target=121,
        aliases=("suit casing",),
        options=(
            Option("target", 121, "points to win", low=TARGET_LOW, high=TARGET_HIGH),
            Option("muggins", False, "players claim their counts; the opponent takes what they miss"),
            Option("starter_events", False,
                   "2 to the dealer for Sky High (top card the Excuse), So Low (a Pawn) and "
                   "Royal Clique (a Crown this deal and last)"),
            Option("face_ranks", "crown10",
                   "crown10: Crowns rank 10 in sums and runs, Courts unranked; unranked: neither ranks",
                   scoring.FACE_RANKS),
            Option("excuse_melds", False, "the Excuse may be in or out of a meld, doubling it"),
        ),
        summary="Decktet cribbage: suit attempts without repeating a suit, sums of 11, runs, melds; game 121.",
    )
    actions = (Cut, Deal, Discard, Starter, Play, Pass, Go, Show, Crib, Muggins)
    hand_size = 6
    crib_name = "crib"

    def validate(self) -> None:
        if self.options["starter_events"] and not self.options["muggins"]:
            # The seed offers the top-card events to keep players alert when playing muggins.
            raise OptionError("starter_events go with muggins: turn muggins on too")

    @property
    def rules(self) -> scoring.Rules:
        return scoring.Rules(face_ranks=str(self.options["face_ranks"]),
                             excuse_melds=bool(self.options["excuse_melds"]))

    def skunk_lines(self) -> list[tuple[str, int]]:
        target = self.target or 121
        return [("skunk", target - 30), ("double skunk", target - 60)]

    def score_hand(self, hand: Sequence[DecktetCard], starter: DecktetCard | None,
                   crib: bool = False) -> Score:
        return scoring.score_show(hand, starter, self.rules)

    def new_initial_state(self) -> SuitcasesState:
        return SuitcasesState(self)


class SuitcasesState(DecktetPeggingState):
    game: Suitcases

    @property
    def count(self) -> int:
        """The suit attempt's sum (of use up to 11)."""
        return scoring.attempt_sum(self.pile, self.game.rules)

    def _misfit(self, card: DecktetCard) -> str | None:
        clash = [s for s in card.suits if s in scoring.used_suits(self.pile)]
        if clash:
            return f"{' and '.join(clash)} already used in this suit attempt"
        return None

    def prompt(self) -> str:
        text = super().prompt()
        if self._phase == "play" and not self.is_over:
            text += " (new suit attempt)" if not self.pile else f" ({len(self.used())} suits used)"
        return text

    def used(self) -> list[str]:
        used = scoring.used_suits(self.pile)
        return [s for s in DECKTET_SUITS if s in used]

    def _on_top_card(self, card: DecktetCard) -> None:
        if not self.game.options["starter_events"]:
            return
        assert self.dealer is not None
        items = []
        if card.rank == "Excuse":
            items.append(Item("sky high", (card,), 2, "Sky High"))
        if card.rank == "Pawn":
            items.append(Item("so low", (card,), 2, "So Low"))
        previous = self.starters[-2:-1]
        if card.rank == "Crown" and previous and previous[0].rank == "Crown":
            items.append(Item("royal clique", (previous[0], card), 2, "Royal Clique"))
        self.peg(self.dealer, sum(i.points for i in items), "top card", items)

    def _score_play(self, seat: int) -> None:
        items = scoring.score_play(self.pile, self.game.rules)
        self.peg(seat, sum(i.points for i in items), "play", items)

    def _end_sequence(self) -> None:
        """1 to the last player able to play; the other leads the next attempt."""
        last = self.last_player
        if last is not None:
            self.peg(last, 1, "last", [Item("last", tuple(self.pile[-1:]), 1, "last card")])
        if self.is_over:
            return
        if not any(self.held):
            self._start_show()
            return
        assert last is not None
        leader = self.other[last] if self.held[self.other[last]] > 0 else last
        self._new_sequence(leader)

    def _pegging_view(self, common: Common, fields: PeggingFields, seat: int | None) -> PeggingView:
        playing = self._phase == "play"
        fields["count"] = self.count if playing else None
        return SuitcasesView(**common, **fields, **self._decktet_fields(),
                             suits_used=tuple(self.used()) if playing else ())


@dataclass(frozen=True, kw_only=True)
class SuitcasesView(DecktetPeggingView):
    style: ClassVar[str] = "pegging.decktet.suitcases"

    suits_used: tuple[str, ...]  # suits already in this suit attempt
