"""The actions of the Decktet pegging games (Bhargage, Suitcases), as written in game records.

They are the pegging games' shared actions (:mod:`games.pegging.actions`), holding Decktet
cards. ``pass`` and ``go`` are one action under two names: a player who cannot play.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from games.decktet import DecktetCard
from games.pegging.actions import Crib, Cut, Deal, Discard, Go, Muggins, Pass, Play, Show, Starter

__all__ = [
    "CountBhargage", "Crib", "Cut", "Deal", "Discard", "Go", "Hand", "Muggins", "Pass", "Play", "Show",
    "Starter",
]

Hand = tuple[DecktetCard, ...]


@dataclass(frozen=True)
class CountBhargage(Crib):
    """``bhargage``: Bhargage's own word for ``crib``."""

    act: ClassVar[str] = "bhargage"
