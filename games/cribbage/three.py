"""Three-hand Cribbage (seed 003): cut-throat, everyone for themselves, and solo, where the
dealer's two opponents play as partners."""

from __future__ import annotations

from games.cribbage.actions import CRIBBAGE_ACTIONS, Give
from games.cribbage.game import Cribbage
from games.engine import Option, Spec, register
from games.spec import TARGET_HIGH, TARGET_LOW

_OPTIONS = (
    Option("target", 121, "points to win", low=TARGET_LOW, high=TARGET_HIGH),
    Option("muggins", False, "players claim their counts; an opponent may take what they miss"),
)


@register
class ThreeHandCribbage(Cribbage):
    """Cut-throat: five cards each and one from the pack face down to the crib; each lays one
    away. The player on the dealer's left leads and shows first; each scores alone."""

    spec = Spec(
        name="cribbage3",
        title="Three-hand Cribbage",
        players=(3,),
        deck="french52",
        table="pegging",
        target=121,
        aliases=("three-hand cribbage", "cut-throat cribbage", "cribbage3-cutthroat"),
        options=_OPTIONS,
        summary="Three players each for themselves: five cards, one to the crib, one from the pack.",
    )
    hand_size = 5
    crib_from_stock = 1


@register
class SoloThreeHandCribbage(Cribbage):
    """Solo: the dealer gets six cards, the others five; each partner gives the dealer one card,
    and the dealer lays four away to the crib. Everybody keeps four. Whatever a partner pegs,
    both partners peg; the dealer scores alone. Scores are kept per player, because the
    partnership changes with every deal."""

    spec = Spec(
        name="cribbage3-solo",
        title="Three-hand Solo Cribbage",
        players=(3,),
        deck="french52",
        table="pegging",
        target=121,
        aliases=("solo cribbage", "three-hand solo cribbage"),
        options=_OPTIONS,
        summary="Dealer against two partners: partners give the dealer a card each, dealer lays four away.",
    )
    actions = (*CRIBBAGE_ACTIONS, Give)
    hand_size = 5

    def dealt(self, seat: int, dealer: int) -> int:
        return 6 if seat == dealer else 5

    def passes(self, seat: int, dealer: int) -> int:
        return 0 if seat == dealer else 1

    def discards(self, seat: int, dealer: int) -> int:
        return 4 if seat == dealer else 0

    def partners(self, seat: int, dealer: int) -> tuple[int, ...]:
        if seat == dealer:
            return ()
        return tuple(s for s in range(self.num_players) if s not in (seat, dealer))
