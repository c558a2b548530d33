"""Variants that change one rule of any cribbage game: Losing and Auction Cribbage (seed 003).

Seed 003 says "play as at any form of standard Crib" for both. So they are not fixed games
but a rule laid over another: the option ``base`` names the cribbage game, and the variant is
built as a subclass of that game's class with one knob turned (``losing`` or ``auction``). The
record keeps ``"game": "losing"`` and ``"options": {"base": ...}``, so a replay rebuilds the
same class. The base's own options (target, muggins, ...) stay available.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, cast

from games.cribbage.actions import CRIBBAGE_ACTIONS, Bid
from games.cribbage.game import Cribbage
from games.engine import Option, Spec, get_game, register
from games.errors import OptionError
from games.spec import TARGET_HIGH, TARGET_LOW


class BasedVariant(Cribbage):
    """A rule laid over the cribbage game named by the option ``base``."""

    bases: ClassVar[tuple[str, ...]] = ()
    default_base: ClassVar[str] = "cribbage"
    title_prefix: ClassVar[str] = ""

    def __new__(cls, players: int | Sequence[str] = 2,
                options: Mapping[str, Any] | None = None) -> BasedVariant:
        base = (options or {}).get("base", cls.default_base)
        if base not in cls.bases:
            raise OptionError(
                f"option 'base' must be one of {', '.join(cls.bases)}, not {base!r}"
            )
        return object.__new__(_variant_class(cls, str(base)))


@functools.cache
def _variant_class(variant: type[BasedVariant], base_name: str) -> type[BasedVariant]:
    base = get_game(base_name)
    spec = variant.spec
    merged = Spec(
        name=spec.name,
        title=f"{variant.title_prefix} {base.spec.title}",
        players=base.spec.players,
        deck=base.spec.deck,
        table=base.spec.table,
        target=base.spec.target,
        aliases=(),
        options=(*base.spec.options, _base_option(variant)),
        pegged=base.spec.pegged,
        summary=spec.summary,
    )
    name = f"{variant.__name__}Of{base.__name__}"
    return cast(type[BasedVariant], type(name, (variant, base), {"spec": merged, "__module__": __name__}))


def _base_option(variant: type[BasedVariant]) -> Option:
    return Option("base", variant.default_base, "the cribbage game this is played as", variant.bases)


_COMMON = (
    Option("target", 121, "points to win (the base game's target by default)", low=TARGET_LOW, high=TARGET_HIGH),
    Option("muggins", False, "players claim their counts; an opponent may take what they miss"),
)


@register
class LosingCribbage(BasedVariant):
    """Any cribbage game, but the first side to reach the target loses."""

    bases = ("cribbage", "cribbage5", "cribbage7", "cribbage3", "cribbage3-solo", "cribbage4", "revised")
    title_prefix = "Losing"
    losing = True
    spec = Spec(
        name="losing",
        title="Losing Cribbage",
        players=(2, 3, 4),
        deck="french52",
        table="pegging",
        target=121,
        aliases=("losing cribbage", "reverse cribbage"),
        options=(*_COMMON, Option("base", "cribbage", "the cribbage game this is played as", bases)),
        summary="Any cribbage game (option base), but the first to reach the target loses.",
    )


@register
class AuctionCribbage(BasedVariant):
    """Two-hand cribbage where, after the discards and before the starter, the dealer and then
    the other player bid points for the crib; the higher bid pays and is dealer for the deal."""

    bases = ("cribbage", "cribbage5", "cribbage7")
    title_prefix = "Auction"
    auction = True
    actions = (*CRIBBAGE_ACTIONS, Bid)
    spec = Spec(
        name="auction",
        title="Auction Cribbage",
        players=(2,),
        deck="french52",
        table="pegging",
        target=121,
        aliases=("auction cribbage",),
        options=(*_COMMON, Option("base", "cribbage", "the cribbage game this is played as", bases)),
        summary="Bid points for the crib before the starter: the higher bid pays it and plays as dealer.",
    )
