"""Four-hand partnership Cribbage (seed 003): partners sit opposite and score together."""

from __future__ import annotations

from games.cribbage.game import Cribbage
from games.engine import Option, Spec, register
from games.spec import TARGET_HIGH, TARGET_LOW


@register
class FourHandCribbage(Cribbage):
    """Five cards each, one laid away by everybody; the player on the dealer's left leads and
    shows first. Seats 0 and 2 are partners against 1 and 3, and each partnership's score is
    what both its members make."""

    spec = Spec(
        name="cribbage4",
        title="Four-hand Cribbage",
        players=(4,),
        deck="french52",
        table="pegging",
        target=121,
        aliases=("four-hand cribbage", "partnership cribbage"),
        options=(
            Option("target", 121, "points to win", low=TARGET_LOW, high=TARGET_HIGH),
            Option("muggins", False, "players claim their counts; an opponent may take what they miss"),
        ),
        summary="Two partnerships, partners opposite: five cards each, one to the crib, scores combined.",
    )
    hand_size = 5

    def sides(self) -> tuple[tuple[int, ...], ...]:
        return ((0, 2), (1, 3))
