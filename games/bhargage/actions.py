"""The actions of the Decktet pegging games (Bhargage, Suitcases), as written in game records.

They mean what the cribbage family's actions mean (see games/cribbage/actions.py) but hold
Decktet cards. ``pass`` and ``go`` are one action under two names: a player who cannot play.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from games.decktet import DecktetCard
from games.engine import Action

Hand = tuple[DecktetCard, ...]


@dataclass(frozen=True)
class Cut(Action):
    """A player cuts the pack for the first deal: the lowest rank deals (the Excuse is lowest)."""

    act: ClassVar[str] = "cut"
    player: int
    card: DecktetCard


@dataclass(frozen=True)
class Deal(Action):
    """A deal; ``hands`` (one list per seat, or null) when the cards are known."""

    act: ClassVar[str] = "deal"
    dealer: int | None = None
    hands: tuple[Hand | None, ...] | None = None


@dataclass(frozen=True)
class Discard(Action):
    """A player lays two cards away to the crib (the bhargage); ``cards`` may be unknown."""

    act: ClassVar[str] = "discard"
    player: int
    cards: Hand | None = None


@dataclass(frozen=True)
class Starter(Action):
    """The dealer turns up the top card of the pack (the up-card, the top card)."""

    act: ClassVar[str] = "starter"
    card: DecktetCard


@dataclass(frozen=True)
class Play(Action):
    act: ClassVar[str] = "play"
    player: int
    card: DecktetCard


@dataclass(frozen=True)
class Pass(Action):
    """The player has no card that may be played now."""

    act: ClassVar[str] = "pass"
    player: int


@dataclass(frozen=True)
class Go(Pass):
    """``go``: the cribbage players' word for ``pass``."""

    act: ClassVar[str] = "go"


@dataclass(frozen=True)
class Show(Action):
    """A player shows (cleans) their hand; ``cards`` needed only for cards not yet seen;
    ``claim`` the points claimed when playing muggins."""

    act: ClassVar[str] = "show"
    player: int
    cards: Hand | None = None
    claim: int | None = None


@dataclass(frozen=True)
class Crib(Action):
    """The dealer turns up the crib (the bhargage) and counts it."""

    act: ClassVar[str] = "crib"
    cards: Hand | None = None
    claim: int | None = None


@dataclass(frozen=True)
class CountBhargage(Crib):
    """``bhargage``: Bhargage's own word for ``crib``."""

    act: ClassVar[str] = "bhargage"


@dataclass(frozen=True)
class Muggins(Action):
    """An opponent takes the points the last show missed (when playing muggins)."""

    act: ClassVar[str] = "muggins"
    player: int
