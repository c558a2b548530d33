"""Revised Cribbage (seed 004) for two, three or four players (four as two partnerships).

What it changes from six-card Cribbage:

- one shuffle serves several deals (four for two players, three for three, two for four); the
  cards faced in a deal stay out until the next shuffle, and the view lists them
  (``seen_since_shuffle``) so players can play from memory as the rules intend;
- runs are cyclic (K-A-2 is a run) in the play and the show;
- the play scores 15 and 31 (2 each), pairs, runs, and flushes of four or more successive cards
  of one suit (option ``play_flushes``, on by default as the rule text says); the rule text
  lists no point for the last card of a count, so there is none unless option ``go_point``;
- his nob (the jack of the starter's suit) may be taken as it is played (action ``nob``) or in
  the count, not both;
- the show counts 15s and 31s (2 for each combination), every three cards in sequence as a run
  of three (3 each), pairs, 4 for any four of the five cards in one suit and 8 for all five,
  hand and crib alike;
- a win earns game points by quartile: 1 for each opponent on 90-120, 2 on 60-89, 4 below 60;
- in the two- and four-handed games, once both sides have 90 or more, a side that has just
  pegged may take the same points off the opponents instead (action ``back``), never taking
  them below 90 and never splitting one pegging.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from games.cards import Card
from games.cribbage.actions import CRIBBAGE_ACTIONS, Back, Nob, Play
from games.cribbage.game import Cribbage, CribbageState, CribbageView
from games.cribbage.scoring import PlayRules, ShowRules
from games.engine import Action, Item, Option, Score, Spec, register
from games.errors import IllegalActionError
from games.pegging.table import PeggingFields
from games.spec import TARGET_HIGH, TARGET_LOW
from games.view import Common, PeggingView

REVISED_SHOW = ShowRules(cyclic_runs=True, thirty_ones=True, flush_any_four=True, runs_of_three=True)
#: the last quartile of the board: pegging back is allowed only while both sides are on it
LAST_QUARTILE = 90
DEALS_PER_SHUFFLE = {2: 4, 3: 3, 4: 2}


def revised_play_rules(flushes: bool = True) -> PlayRules:
    return PlayRules(totals=(15, 31), cyclic_runs=True, flushes=flushes, flush_min=4)


@register
class RevisedCribbage(Cribbage):
    spec = Spec(
        name="revised",
        title="Revised Cribbage",
        players=(2, 3, 4),
        deck="french52",
        table="pegging",
        target=121,
        aliases=("revised cribbage",),
        options=(
            Option("target", 121, "points to win", low=TARGET_LOW, high=TARGET_HIGH),
            Option("muggins", False, "players claim their counts; an opponent may take what they miss"),
            Option("play_flushes", True,
                   "four or more successive cards of one suit score in the play, as the rule text says "
                   "(false: as the rule's worked example counts)"),
            Option("go_point", False, "1 for the last card of a count short of 31 (not in the rule text)"),
        ),
        summary="2-4 players, one shuffle for several deals, cyclic runs, 31s and flushes, "
                "points by quartile, pegging back near the end.",
    )
    actions = (*CRIBBAGE_ACTIONS, Nob, Back)
    show_rules = REVISED_SHOW

    def validate(self) -> None:
        n = self.num_players
        self.hand_size = 6 if n == 2 else 5
        self.crib_from_stock = 1 if n == 3 else 0
        self.deals_per_shuffle = DEALS_PER_SHUFFLE[n]
        self.play_rules = revised_play_rules(bool(self.options["play_flushes"]))
        self.last_point = bool(self.options["go_point"])

    def sides(self) -> tuple[tuple[int, ...], ...]:
        if self.num_players == 4:
            return ((0, 2), (1, 3))
        return super().sides()

    def skunk_lines(self) -> list[tuple[str, int]]:
        return [("skunk", LAST_QUARTILE), ("double skunk", 60)]

    def new_initial_state(self) -> RevisedState:
        return RevisedState(self)


def game_points(scores: list[int], winner: int) -> int:
    """What a win is worth: 1 for each opponent in the last quartile (90 and up), 2 for each on
    60-89 (skunked), 4 for each below 60 (double skunked)."""
    points = 0
    for side, score in enumerate(scores):
        if side != winner:
            points += 1 if score >= LAST_QUARTILE else 2 if score >= 60 else 4
    return points


class RevisedState(CribbageState):
    game: RevisedCribbage

    def __init__(self, game: RevisedCribbage) -> None:
        super().__init__(game)
        self.nob_taken: set[Card] = set()

    def _start_deal(self, dealer: int, hands: tuple[tuple[Card, ...] | None, ...] | None) -> None:
        self.nob_taken = set()
        super()._start_deal(dealer, hands)

    def to_move(self, action: Action) -> list[int] | None:
        if isinstance(action, Nob):
            last = self.history[-1] if self.history else None
            return [last.player] if isinstance(last, Play) else []
        if isinstance(action, Back):
            sides = {e.side for e in self._just_pegged()}
            if not sides:
                return None  # nobody just pegged: _on_back says so
            return [s for side in sides for s in self.game.sides()[side]]
        moves = super().to_move(action)
        return None if moves is None else list(moves)

    def _just_pegged(self) -> list[Any]:
        previous = len(self.history) - 1
        return [e for e in self.events if e.action_index == previous and e.points > 0]

    def _on_nob(self, action: Nob) -> None:
        last = self.history[-1] if self.history else None
        starter = self.starter
        if not (isinstance(last, Play) and last.player == action.player and starter is not None
                and last.card.rank == 11 and last.card.suit == starter.suit):
            raise IllegalActionError("his nob is taken as the jack of the starter's suit is played, by its player")
        self.nob_taken.add(last.card)
        self.peg(action.player, 1, "nob", [Item("nob", (last.card,), 1, "his nob")])

    def _show_score(self, cards: list[Card], what: str) -> Score:
        score = super()._show_score(cards, what)
        if any(c in self.nob_taken for c in cards):
            return Score.of([i for i in score.items if i.kind != "nob"])
        return score

    def _on_back(self, action: Back) -> None:
        if self.game.num_players == 3:
            raise IllegalActionError("pegging back is played only in the two- and four-handed games")
        side = self.side_of(action.player)
        points = sum(e.points for e in self._just_pegged() if e.side == side)
        if points <= 0:
            raise IllegalActionError("there is nothing just pegged to take off the opponents instead")
        other = 1 - side
        names = self.game.side_names()
        if self.scores[side] - points < LAST_QUARTILE or self.scores[other] < LAST_QUARTILE:
            raise IllegalActionError(
                f"pegging back needs both sides on {LAST_QUARTILE} or more before the pegging "
                f"({names[side]} had {self.scores[side] - points}, {names[other]} {self.scores[other]})"
            )
        if self.scores[other] - points < LAST_QUARTILE:
            raise IllegalActionError(
                f"pegging {names[other]} back {points} would take them to {self.scores[other] - points}, "
                f"below {LAST_QUARTILE}"
            )
        self.peg(None, -points, "back", [Item("back", (), -points, "pegged back instead")], side=side)
        self.peg(None, -points, "pegged back", [Item("pegged back", (), -points, "pegged back")], side=other)

    def claim_open(self) -> bool:
        """Pegging back, or his nob, may be claimed right now by someone."""
        if self.is_over:
            return False
        for act in ("back", "nob"):
            for seat in self.to_move(self.game.action_from_json({"act": act, "player": 0})) or []:
                try:
                    self.apply(self.game.action_from_json({"act": act, "player": seat}))
                except IllegalActionError:
                    continue
                return True
        return False

    def game_points(self) -> int | None:
        return None if self.winner is None else game_points(self.scores, self.winner)

    def _pegging_view(self, common: Common, fields: PeggingFields, seat: int | None) -> PeggingView:
        per = self.game.deals_per_shuffle
        return RevisedView(
            **common, **fields, **self._cribbage_fields(),
            deals_per_shuffle=per,
            deal_in_shuffle=(self.deals - 1) % per + 1 if self.deals else 0,
            nob_taken=tuple(sorted(str(c) for c in self.nob_taken)),
            game_points=self.game_points(),
            peg_back_open=(self.game.num_players != 3 and not self.is_over
                           and all(s >= LAST_QUARTILE for s in self.scores)),
        )


@dataclass(frozen=True, kw_only=True)
class RevisedView(CribbageView):
    style: ClassVar[str] = "pegging.cribbage.revised"

    deals_per_shuffle: int
    deal_in_shuffle: int  # 1 for the first deal after a shuffle
    nob_taken: tuple[str, ...]  # jacks already scored for nob this shuffle
    game_points: int | None  # what the win is worth, once won
    peg_back_open: bool  # both sides in the last quartile: points may be taken off instead
