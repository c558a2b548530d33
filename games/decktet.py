"""The extended Decktet: 45 cards in six suits (facts from the Decktet deck table).

Ranks run Excuse < Ace < 2..9 < Pawn < Court < Crown. Aces and Crowns have one suit, numbers
two, Pawns and Courts three, and the Excuse none.

>>> DecktetCard.parse("Author") == DecktetCard.parse("the Author")
True
>>> str(DecktetCard.parse("ace of moons")), DecktetCard.parse("the Author").suits
('Ace of Moons', ('Moons', 'Knots'))
"""

from __future__ import annotations

import csv
import re
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from games.cards import check_cards
from games.errors import CardError

DECKTET_SUITS = ("Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots")
RANK_ORDER = ("Excuse", "Ace", "2", "3", "4", "5", "6", "7", "8", "9", "Pawn", "Court", "Crown")


@dataclass(frozen=True, slots=True)
class DecktetCard:
    """One Decktet card: its name, rank, suits (0 to 3) and types (Personality, Location, Event)."""

    name: str
    rank: str
    suits: tuple[str, ...]
    types: tuple[str, ...] = ()

    @classmethod
    def parse(cls, text: str) -> DecktetCard:
        """Read a card from its name: "the Author", "Author", "Ace of Moons", "Excuse"."""
        if not isinstance(text, str):
            raise CardError(f"a Decktet card is named in text like 'the Author', not {text!r}")
        card = _BY_KEY.get(_key(text))
        if card is None:
            raise CardError(
                f"{text!r} is not a Decktet card: name it like 'the Author', 'Ace of Moons' or 'Excuse'"
            )
        return card

    @property
    def order(self) -> int:
        """Position in rank order: Excuse 0, Ace 1, 2..9, Pawn 10, Court 11, Crown 12."""
        return RANK_ORDER.index(self.rank)

    @property
    def is_personality(self) -> bool:
        return "Personality" in self.types

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"DecktetCard.parse({self.name!r})"

    def __lt__(self, other: DecktetCard) -> bool:
        return (self.order, self.name) < (other.order, other.name)

    def __deepcopy__(self, memo: dict[int, Any]) -> DecktetCard:
        return self


def _key(text: str) -> str:
    key = re.sub(r"\s+", " ", text.strip().lower())
    return key[4:] if key.startswith("the ") else key


def _load() -> tuple[DecktetCard, ...]:
    source = resources.files("games").joinpath("data/decktet.csv").read_text(encoding="utf-8")
    cards = []
    for row in csv.DictReader(source.splitlines()):
        cards.append(
            DecktetCard(
                name=row["name"],
                rank=row["rank"],
                suits=tuple(row["suits"].split()),
                types=tuple(row["types"].split()),
            )
        )
    return tuple(cards)


DECKTET: tuple[DecktetCard, ...] = _load()
_BY_KEY = {_key(c.name): c for c in DECKTET}


def parse_decktet(
    text: str | Sequence[str], count: int | None = None, *, what: str = "cards"
) -> list[DecktetCard]:
    """Parse several Decktet names. A string is split on commas or semicolons (names have
    spaces); a list gives one name per item."""
    names = [n for n in re.split(r"[,;]", text)] if isinstance(text, str) else list(text)
    names = [n.strip() for n in names if n.strip()]
    cards = [DecktetCard.parse(n) for n in names]
    check_cards(cards, count, what=what, texts=names)
    return cards
