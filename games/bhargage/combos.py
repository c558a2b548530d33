"""Counting combinations of Decktet cards: the pure pieces Bhargage and Suitcases share.

Each function takes the cards and a way to read them (a value, a rank, a kind) and returns every
distinct scoring combination, so a game says only how its cards are read and what each is worth.

>>> from games.decktet import parse_decktet
>>> hand = parse_decktet("the Lunatic, the Penitent, the Market")
>>> [len(m) for m in exact_melds(hand)]
[3]
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from itertools import combinations

from games.decktet import DECKTET_SUITS, DecktetCard

Cards = tuple[DecktetCard, ...]


def subsets(cards: Sequence[DecktetCard], smallest: int = 1) -> list[Cards]:
    """Every subset of ``cards`` with at least ``smallest`` cards, smallest first."""
    return [tuple(c) for size in range(smallest, len(cards) + 1) for c in combinations(cards, size)]


def sums_to(cards: Sequence[DecktetCard], total: int, number: Callable[[DecktetCard], int | None]) -> list[Cards]:
    """Every distinct combination of two or more cards whose numbers add up to ``total``.

    Cards whose ``number`` is None take no part (Suitcases' Pawns); a card numbered 0 (the
    Excuse, a Bhargage Court) may be in or out of each combination, doubling them."""
    counted = [c for c in cards if number(c) is not None]
    return [combo for combo in subsets(counted, 2) if sum(number(c) or 0 for c in combo) == total]


def of_a_kind(cards: Sequence[DecktetCard], kind: Callable[[DecktetCard], Hashable | None]) -> list[Cards]:
    """Groups of two or more cards of one kind (rank), in deck order of their first card."""
    groups: dict[Hashable, list[DecktetCard]] = {}
    for card in cards:
        key = kind(card)
        if key is not None:
            groups.setdefault(key, []).append(card)
    return [tuple(g) for g in groups.values() if len(g) >= 2]


def set_points(size: int) -> int:
    """Two points for every pair within a set: pair 2, three 6, four 12, five 20, six 30."""
    return size * (size - 1)


def is_meld(cards: Sequence[DecktetCard]) -> bool:
    """The cards hold each of the six suits exactly once (a bharg; a Suitcases meld)."""
    suits = [s for c in cards for s in c.suits]
    return len(suits) == len(DECKTET_SUITS) and set(suits) == set(DECKTET_SUITS)


def exact_melds(cards: Sequence[DecktetCard], *, suitless_count: bool = True) -> list[Cards]:
    """Every distinct combination holding each suit exactly once.

    With ``suitless_count`` the Excuse (no suit) may be in or out of each, doubling them, as
    Bhargage's bhargs; without it, only cards bringing a suit make a combination."""
    usable = cards if suitless_count else [c for c in cards if c.suits]
    return [combo for combo in subsets(usable) if is_meld(combo)]


def runs(cards: Sequence[DecktetCard], rank: Callable[[DecktetCard], int | None]) -> list[Cards]:
    """Every distinct run of three or more consecutive ranks, as in cribbage's show: only the
    longest runs count (a run of four is not two runs of three), one per choice of duplicates."""
    by_rank: dict[int, list[DecktetCard]] = {}
    for card in cards:
        r = rank(card)
        if r is not None:
            by_rank.setdefault(r, []).append(card)
    found: list[Cards] = []
    seq: list[int] = []
    for r in range(min(by_rank, default=0), max(by_rank, default=-1) + 2):
        if r in by_rank:
            seq.append(r)
            continue
        if len(seq) >= 3:
            combos: list[Cards] = [()]
            for s in seq:
                combos = [prefix + (c,) for prefix in combos for c in by_rank[s]]
            found.extend(combos)
        seq = []
    return found


def play_set(pile: Sequence[DecktetCard], kind: Callable[[DecktetCard], Hashable | None]) -> Cards:
    """The run of same-kind cards ending the pile (two or more), or ()."""
    if not pile:
        return ()
    key = kind(pile[-1])
    if key is None:
        return ()
    n = 0
    for card in reversed(pile):
        if kind(card) != key:
            break
        n += 1
    return tuple(pile[-n:]) if n >= 2 else ()


def play_run(pile: Sequence[DecktetCard], rank: Callable[[DecktetCard], int | None]) -> Cards:
    """The longest ending stretch of three or more cards whose ranks are consecutive in any
    order (cribbage's runs in the play), or ()."""
    best: Cards = ()
    for n in range(3, len(pile) + 1):
        tail = pile[-n:]
        ranks = [rank(c) for c in tail]
        if any(r is None for r in ranks):
            break  # a card without a rank breaks every longer stretch too
        values = sorted(r for r in ranks if r is not None)
        if values == list(range(values[0], values[0] + n)):
            best = tuple(tail)
    return best


def play_meld(pile: Sequence[DecktetCard]) -> Cards:
    """The shortest ending stretch of the pile holding each suit exactly once, or ()."""
    for n in range(1, len(pile) + 1):
        tail = pile[-n:]
        suits = [s for c in tail for s in c.suits]
        if len(suits) > len(DECKTET_SUITS):
            return ()
        if is_meld(tail):
            return tuple(tail)
    return ()


def missing_suits(cards: Sequence[DecktetCard]) -> tuple[str, ...]:
    """The suits none of the cards has, in the deck's suit order."""
    held = {s for c in cards for s in c.suits}
    return tuple(s for s in DECKTET_SUITS if s not in held)
