"""Seven-card Cribbage: deal seven, lay two away, game 181 (seed 003)."""

from __future__ import annotations

from games.cribbage.game import Cribbage
from games.engine import Option, Spec, register
from games.spec import TARGET_HIGH, TARGET_LOW


@register
class SevenCardCribbage(Cribbage):
    """Six-card Cribbage with seven cards dealt: five are kept, so a hand shows six cards with the
    starter; the crib still holds four. Game 181."""

    spec = Spec(
        name="cribbage7",
        title="Seven-card Cribbage",
        players=(2,),
        deck="french52",
        table="pegging",
        target=181,
        aliases=("seven-card cribbage", "seven-card crib"),
        options=(
            Option("target", 181, "points to win", low=TARGET_LOW, high=TARGET_HIGH),
            Option("muggins", False, "players claim their counts; an opponent may take what they miss"),
        ),
        summary="Deal seven, lay two away, keep five; peg and show as in six-card; game 181.",
    )
    hand_size = 7
