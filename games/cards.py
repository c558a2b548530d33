"""French-suited cards (52 + two jokers) and the Italian 40-card subset.

>>> Card.parse("TH") == Card.parse("10H")
True
>>> str(Card.parse("10h")), repr(Card.parse("QS"))
('10H', "Card.parse('QS')")
>>> [str(c) for c in parse_cards("5H 5C 5S JD")]
['5H', '5C', '5S', 'JD']
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from games.errors import CardCountError, CardError, DuplicateCardError

SUITS = "SHDC"
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K"}
RANK_NAMES = {1: "ace", 11: "jack", 12: "queen", 13: "king"}
_RANK_PARSE = {"A": 1, "J": 11, "Q": 12, "K": 13, "T": 10, "10": 10}
_RANK_PARSE.update({str(n): n for n in range(2, 10)})
_JOKERS = {"RJ": "R", "BJ": "B"}
_CARD_RE = re.compile(r"^(10|[2-9TAJQK])([SHDC])$")


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """A French-suited card. ``rank`` runs 1 (ace) to 13 (king); jokers have rank 0 and suit
    ``"R"`` (red) or ``"B"`` (black)."""

    rank: int
    suit: str

    def __post_init__(self) -> None:
        if self.rank == 0:
            if self.suit not in ("R", "B"):
                raise CardError(f"a joker is red (R) or black (B), not {self.suit!r}")
        elif not (1 <= self.rank <= 13) or self.suit not in SUITS:
            raise CardError(f"no card has rank {self.rank!r} and suit {self.suit!r}")

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card such as ``"10H"``, ``"TH"``, ``"qs"``, ``"RJ"`` (red joker)."""
        if not isinstance(text, str):
            raise CardError(f"a card is written as text like '10H', not {text!r}")
        norm = text.strip().upper()
        if norm in _JOKERS:
            return cls(0, _JOKERS[norm])
        match = _CARD_RE.match(norm)
        if match is None:
            raise CardError(
                f"{text!r} is not a card: write rank then suit, like 'AS', '10H', 'TH', 'QD' or 'RJ'"
            )
        return cls(_RANK_PARSE[match.group(1)], match.group(2))

    @property
    def is_joker(self) -> bool:
        return self.rank == 0

    @property
    def index(self) -> str:
        """The rank as printed in the corner: 'A', '2'..'10', 'J', 'Q', 'K'."""
        return RANK_TEXT.get(self.rank, str(self.rank))

    def name(self) -> str:
        """The card in words: 'five of hearts', 'red joker'."""
        if self.is_joker:
            return "red joker" if self.suit == "R" else "black joker"
        words = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
                 9: "nine", 10: "ten"}
        return f"{RANK_NAMES.get(self.rank) or words[self.rank]} of {SUIT_NAMES[self.suit]}"

    def __str__(self) -> str:
        if self.is_joker:
            return f"{self.suit}J"
        return f"{self.index}{self.suit}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __deepcopy__(self, memo: dict[int, Any]) -> Card:
        return self  # immutable: sharing is safe and keeps state copies cheap


def _deck(ranks: Iterable[int]) -> tuple[Card, ...]:
    return tuple(Card(r, s) for s in SUITS for r in ranks)


FRENCH_52: tuple[Card, ...] = _deck(range(1, 14))
JOKERS: tuple[Card, ...] = (Card(0, "R"), Card(0, "B"))
FRENCH_54: tuple[Card, ...] = FRENCH_52 + JOKERS
ITALIAN_40: tuple[Card, ...] = _deck([1, 2, 3, 4, 5, 6, 7, 11, 12, 13])


def split_card_text(text: str | Sequence[str]) -> list[str]:
    """Split "5H 5C,5S" (or a list of such strings) into single card texts."""
    parts = [text] if isinstance(text, str) else list(text)
    out: list[str] = []
    for part in parts:
        out.extend(t for t in re.split(r"[\s,]+", part) if t)
    return out


def parse_cards(
    text: str | Sequence[str],
    count: int | None = None,
    *,
    deck: Sequence[Card] | None = None,
    what: str = "cards",
) -> list[Card]:
    """Parse several cards, refusing duplicates, cards outside ``deck`` and a wrong count."""
    tokens = split_card_text(text)
    cards = [Card.parse(t) for t in tokens]
    check_cards(cards, count, deck=deck, what=what, texts=tokens)
    return cards


def check_cards(
    cards: Sequence[Any],
    count: int | None = None,
    *,
    deck: Sequence[Any] | None = None,
    what: str = "cards",
    texts: Sequence[str] | None = None,
) -> None:
    """Refuse duplicates, cards not in ``deck`` and a wrong number of cards, quoting them."""
    shown = list(texts) if texts is not None else [str(c) for c in cards]
    if count is not None and len(cards) != count:
        raise CardCountError(
            f"{what} need {count} cards, got {len(cards)}: {' '.join(shown) or '(none)'}"
        )
    seen: dict[Any, str] = {}
    for card, txt in zip(cards, shown, strict=True):
        if card in seen:
            raise DuplicateCardError(f"{txt!r} is given twice in {what}: {' '.join(shown)}")
        seen[card] = txt
        if deck is not None and card not in deck:
            raise CardError(f"{txt!r} is not in this game's deck")
