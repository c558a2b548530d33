"""The actions of the pegging games, as written in game records (see seeds/cribbage.md).

One set serves every deck: a field named ``card``, ``cards`` or ``hands`` is read with the
game's own ``parse_card`` (:meth:`games.engine.Game.action_from_json`), so a cribbage ``play``
holds a French card and a Bhargage ``play`` a Decktet card.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from games.engine import Action, CardLike

Hand = tuple[CardLike, ...]


@dataclass(frozen=True)
class Cut(Action):
    """A player cuts the pack to decide the first dealer: the lowest card deals."""

    act: ClassVar[str] = "cut"
    player: int
    card: CardLike


@dataclass(frozen=True)
class Deal(Action):
    """A deal. ``hands`` (one list per seat, or null) when the cards are known; usually unknown."""

    act: ClassVar[str] = "deal"
    dealer: int | None = None
    hands: tuple[Hand | None, ...] | None = None


@dataclass(frozen=True)
class Discard(Action):
    """A player lays cards away to the crib; ``cards`` may be omitted (the crib is face down)."""

    act: ClassVar[str] = "discard"
    player: int
    cards: Hand | None = None


@dataclass(frozen=True)
class Starter(Action):
    """The starter (the cut card, the top card) is turned up."""

    act: ClassVar[str] = "starter"
    card: CardLike


@dataclass(frozen=True)
class Play(Action):
    act: ClassVar[str] = "play"
    player: int
    card: CardLike


@dataclass(frozen=True)
class Pass(Action):
    """The player has no card that may be played now."""

    act: ClassVar[str] = "pass"
    player: int


@dataclass(frozen=True)
class Go(Pass):
    """``go``: the cribbage players' word for ``pass`` (no card fits under the limit)."""

    act: ClassVar[str] = "go"


@dataclass(frozen=True)
class Show(Action):
    """A player shows their hand. ``cards`` are needed only for cards not yet seen; ``claim``
    is the points the player claims (with muggins)."""

    act: ClassVar[str] = "show"
    player: int
    cards: Hand | None = None
    claim: int | None = None


@dataclass(frozen=True)
class Crib(Action):
    """The dealer turns up the crib and counts it."""

    act: ClassVar[str] = "crib"
    cards: Hand | None = None
    claim: int | None = None


@dataclass(frozen=True)
class Muggins(Action):
    """An opponent takes the points the last show missed (when playing muggins)."""

    act: ClassVar[str] = "muggins"
    player: int
