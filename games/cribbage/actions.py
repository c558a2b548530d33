"""The actions of the cribbage family, as written in game records (see seeds/cribbage.md).

The actions every pegging game shares live in :mod:`games.pegging.actions`; this module names
them for the cribbage family and adds its own (Auction's bid, solo three-hand's give, Revised's
nob and back).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from games.cards import Card
from games.engine import Action
from games.pegging.actions import Crib, Cut, Deal, Discard, Go, Muggins, Play, Show, Starter

__all__ = [
    "CRIBBAGE_ACTIONS", "Back", "Bid", "Crib", "Cut", "Deal", "Discard", "Give", "Go", "Muggins", "Nob",
    "Play", "Show", "Starter",
]


@dataclass(frozen=True)
class Bid(Action):
    """Auction cribbage: points a player offers to pay for the crib (0 passes)."""

    act: ClassVar[str] = "bid"
    player: int
    points: int


@dataclass(frozen=True)
class Give(Action):
    """Solo three-hand: a partner passes one card face down to the dealer (``card`` if known)."""

    act: ClassVar[str] = "give"
    player: int
    card: Card | None = None


@dataclass(frozen=True)
class Nob(Action):
    """Revised: the player who has just played the jack of the starter's suit takes 1 for his nob
    now instead of in the count."""

    act: ClassVar[str] = "nob"
    player: int


@dataclass(frozen=True)
class Back(Action):
    """Revised: the points the player's side has just pegged are taken off the opponents instead."""

    act: ClassVar[str] = "back"
    player: int


CRIBBAGE_ACTIONS: tuple[type[Action], ...] = (Cut, Deal, Discard, Starter, Play, Go, Show, Crib, Muggins)
