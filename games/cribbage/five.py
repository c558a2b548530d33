"""Five-card Cribbage: the older two-hand game, still the club standard in England."""

from __future__ import annotations

from games.cribbage.game import Cribbage
from games.engine import Option, Spec, register
from games.spec import TARGET_HIGH, TARGET_LOW


@register
class FiveCardCribbage(Cribbage):
    """Deal five, lay two away; non-dealer pegs 3 for last at the start of the game; one count to
    31 only; a three-card hand flush is 3 (4 with the starter); game 61, lurch below 45."""

    spec = Spec(
        name="cribbage5",
        title="Five-card Cribbage",
        players=(2,),
        deck="french52",
        table="pegging",
        target=61,
        aliases=("five-card cribbage", "five-card crib"),
        options=(
            Option("target", 61, "points to win", low=TARGET_LOW, high=TARGET_HIGH),
            Option("muggins", False, "players claim their counts; an opponent may take what they miss"),
        ),
        summary="Deal five, lay two away, one count to 31, 3 for last to the non-dealer; game 61.",
    )
    hand_size = 5
    one_count = True
    pone_start = 3

    def skunk_lines(self) -> list[tuple[str, int]]:
        return [("lurch", 45)]
