"""Gin Rummy's melds (rule card seeds/gin.md): sets and runs, the deadwood count, and the search
for the arrangement that leaves the least deadwood, with or without laying off.

A set is three or four cards of one rank; a run is three or more cards of one suit in sequence,
the ace low only. A card counts its pips, the ace 1 and pictures 10.

>>> from games.cards import parse_cards
>>> best = best_melds(parse_cards("7D 7S 7H 8H 9H 2C 3C 4C KS KD"))
>>> best.deadwood, [[str(c) for c in m] for m in best.melds]
(34, [['2C', '3C', '4C'], ['7H', '8H', '9H']])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from games.cards import Card
from games.errors import CardError
from games.jsontypes import JSONObject

Meld = tuple[Card, ...]


def value(card: Card) -> int:
    """A card's deadwood points: pips, the ace 1, pictures 10."""
    return min(card.rank, 10)


def deadwood(cards: Iterable[Card]) -> int:
    return sum(value(c) for c in cards)


def order(cards: Iterable[Card]) -> Meld:
    """Cards as a meld is read: by rank, then suit in pack order (S H D C)."""
    return tuple(sorted(cards, key=lambda c: (c.rank, "SHDC".index(c.suit))))


def meld_kind(cards: Sequence[Card]) -> str | None:
    """``"set"``, ``"run"`` or None when the cards are no meld.

    >>> from games.cards import parse_cards
    >>> meld_kind(parse_cards("AH 2H 3H")), meld_kind(parse_cards("QH KH AH")), meld_kind(parse_cards("5S 5D 5C"))
    ('run', None, 'set')
    """
    if len(cards) < 3 or len(set(cards)) != len(cards) or any(c.is_joker for c in cards):
        return None
    if len({c.rank for c in cards}) == 1:
        return "set" if len(cards) <= 4 else None
    if len({c.suit for c in cards}) == 1:
        ranks = sorted(c.rank for c in cards)
        if ranks == list(range(ranks[0], ranks[0] + len(ranks))):
            return "run"
    return None


def extends(meld: Sequence[Card], card: Card) -> bool:
    """Whether ``card`` laid off on ``meld`` leaves a meld (a set's fourth, a run's next card)."""
    return card not in meld and meld_kind([*meld, card]) is not None


def candidate_melds(cards: Sequence[Card]) -> list[Meld]:
    """Every set and run the cards hold (each set of four also as its four sets of three)."""
    out: list[Meld] = []
    ranks: dict[int, list[Card]] = {}
    suits: dict[str, list[Card]] = {}
    for card in cards:
        ranks.setdefault(card.rank, []).append(card)
        suits.setdefault(card.suit, []).append(card)
    for group in ranks.values():
        for size in range(3, len(group) + 1):
            out.extend(order(m) for m in combinations(group, size))
    for group in suits.values():
        by_rank = {c.rank: c for c in group}
        for low in sorted(by_rank):
            high = low
            while high + 1 in by_rank:
                high += 1
                if high - low >= 2:
                    out.append(tuple(by_rank[r] for r in range(low, high + 1)))
    return out


@dataclass(frozen=True)
class Melding:
    """An arrangement of a hand: its melds, the cards left (deadwood) and their count."""

    melds: tuple[Meld, ...]
    unmatched: Meld
    deadwood: int
    layoffs: tuple[tuple[int, Meld], ...] = ()  # cards laid off on the knocker's meld of that index

    def to_json(self) -> JSONObject:
        out: JSONObject = {"deadwood": self.deadwood, "melds": [[str(c) for c in m] for m in self.melds]}
        if self.layoffs:
            out["layoffs"] = [{"meld": i, "cards": [str(c) for c in m]} for i, m in self.layoffs]
        out["unmatched"] = [str(c) for c in self.unmatched]
        return out


def _packings(cards: Meld) -> list[tuple[int, ...]]:
    """Every set of disjoint melds the cards hold, as bit masks of the melds' cards (the card at
    index i is bit i)."""
    masks = sorted({sum(1 << cards.index(c) for c in m) for m in candidate_melds(cards)})
    out: list[tuple[int, ...]] = []

    def walk(start: int, used: int, chosen: tuple[int, ...]) -> None:
        out.append(chosen)
        for i in range(start, len(masks)):
            if not masks[i] & used:
                walk(i + 1, used | masks[i], (*chosen, masks[i]))

    walk(0, 0, ())
    return out


def _melding(cards: Meld, chosen: tuple[int, ...]) -> Melding:
    used = 0
    for mask in chosen:
        used |= mask
    melds = tuple(sorted((order(c for i, c in enumerate(cards) if mask >> i & 1) for mask in chosen),
                         key=lambda m: (m[0].rank, "SHDC".index(m[0].suit), len(m))))
    rest = order(c for i, c in enumerate(cards) if not used >> i & 1)
    return Melding(melds, rest, deadwood(rest))


def _key(m: Melding) -> tuple[int, int, tuple[tuple[int, str], ...]]:
    # least deadwood, then fewest melds, then the first in card order: one answer for one hand
    return m.deadwood, len(m.melds), tuple((c.rank, c.suit) for meld in m.melds for c in meld)


@lru_cache(maxsize=4096)
def _best(cards: Meld) -> Melding:
    values = [value(c) for c in cards]
    total = sum(values)

    def laid(chosen: tuple[int, ...]) -> tuple[int, int]:
        used = 0
        for mask in chosen:
            used |= mask
        return total - sum(v for i, v in enumerate(values) if used >> i & 1), len(chosen)

    packings = _packings(cards)
    least = min(laid(p) for p in packings)
    return min((_melding(cards, p) for p in packings if laid(p) == least), key=_key)


def check_hand(cards: Sequence[Card], *, most: int = 11) -> Meld:
    """The cards of a hand in order; refuses jokers, a card twice and more than ``most`` cards."""
    for card in cards:
        if card.is_joker:
            raise CardError("Gin Rummy is played without jokers")
    if len(set(cards)) != len(cards):
        twice = next(c for c in cards if list(cards).count(c) > 1)
        raise CardError(f"{twice} is given twice")
    if len(cards) > most:
        raise CardError(f"a gin hand holds at most {most} cards, not {len(cards)}")
    return order(cards)


def best_melds(cards: Sequence[Card]) -> Melding:
    """The arrangement with the least deadwood (ties: fewest melds, then card order)."""
    return _best(check_hand(cards))


def lay_off(unmatched: Sequence[Card], melds: Sequence[Sequence[Card]]) -> tuple[tuple[tuple[int, Meld], ...], Meld]:
    """Lay off every card that will go on ``melds`` (a run extended may take the next card too);
    a card that fits a run and a set goes on the run, which may then take more. Returns the
    layoffs by meld index and the cards left."""
    grown = [list(m) for m in melds]
    laid: dict[int, list[Card]] = {}
    left = list(unmatched)
    changed = True
    while changed:
        changed = False
        for card in list(left):
            fits = [i for i, m in enumerate(grown) if extends(m, card)]
            if not fits:
                continue
            runs = [i for i in fits if meld_kind(grown[i]) == "run"]
            at = (runs or fits)[0]
            grown[at].append(card)
            laid.setdefault(at, []).append(card)
            left.remove(card)
            changed = True
    return tuple((i, order(cards)) for i, cards in sorted(laid.items())), order(left)


def best_defence(cards: Sequence[Card], knocker: Sequence[Sequence[Card]]) -> Melding:
    """The defender's arrangement with the least deadwood once laid off on the knocker's melds."""
    hand = check_hand(cards)
    best: Melding | None = None
    for chosen in _packings(hand):
        own = _melding(hand, chosen)
        layoffs, left = lay_off(own.unmatched, knocker)
        m = Melding(own.melds, left, deadwood(left), layoffs)
        if best is None or _key(m) < _key(best):
            best = m
    assert best is not None
    return best


__all__ = ["Meld", "Melding", "best_defence", "best_melds", "candidate_melds", "check_hand", "deadwood",
           "extends", "lay_off", "meld_kind", "order", "value"]
