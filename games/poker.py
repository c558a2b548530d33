"""Poker hands of one to seven cards, ranked for Ricochet Poker (rule card seeds/ricochet.md).

A hand is valued by its best five cards; a hand of fewer than five is valued as it stands, so a
pair of twos is a "pair" with no kicker yet. Values compare by category, then by the ranks that
decide it, most significant first. A longer list of ranks with the same start is higher: a kicker
beats no kicker (ace-eight beats a lone ace). Suits (clubs < diamonds < hearts < spades) break a
tie between hands of the same ranks until the end of a deal, card by card in the same order.

Jokers may play as *bugs*: a bug is an ace, or any card not held that completes a straight or a
flush (in a flush, the best card of the suit not held).

>>> evaluate(parse_cards("2D 2S 9H 7C")).name
'pair of 2s, 9 7 kickers'
>>> evaluate(parse_cards("AH 8C")) > evaluate(parse_cards("AS"))
True
>>> evaluate(parse_cards("5H 4H 3H 2H RJ")).category
'straight flush'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import total_ordering
from itertools import combinations, product

from games.cards import Card, parse_cards
from games.errors import CardCountError, CardError
from games.jsontypes import JSONObject

#: The categories from lowest to highest; an ace-high straight flush is also named a royal flush.
CATEGORIES = ("high card", "pair", "two pair", "three of a kind", "straight", "flush", "full house",
              "four of a kind", "straight flush", "five of a kind")
HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH, FIVE_OF_A_KIND = range(10)
#: Suits in the order that breaks ties; a bug has no suit and ranks below clubs (black below red).
SUIT_ORDER = {"C": 0, "D": 1, "H": 2, "S": 3}
_BUG_ORDER = {"B": -2, "R": -1}
_COMPLETED = {STRAIGHT, FLUSH, STRAIGHT_FLUSH}
_WORDS = {14: "A", 13: "K", 12: "Q", 11: "J"}

#: (rank with ace 14, suit letter, suit order for ties)
_Slot = tuple[int, str, int]


def rank_word(rank: int) -> str:
    """A rank as players say it in a hand's name: 2..10, J, Q, K, A (ace as 14 or 1)."""
    return _WORDS.get(rank, "A" if rank == 1 else str(rank))


@total_ordering
@dataclass(frozen=True)
class HandValue:
    """What a hand is worth: its category, the deciding ranks (ace 14, but 5 for the top of a
    five-high straight) and the suits that break a tie, both most significant first, and the
    cards that make it in that order (a bug as itself)."""

    rank: int  # index into CATEGORIES
    ranks: tuple[int, ...]
    suits: tuple[int, ...]
    cards: tuple[Card, ...]

    @property
    def category(self) -> str:
        return CATEGORIES[self.rank]

    @property
    def key(self) -> tuple[int, tuple[int, ...]]:
        """The value without suits: equal keys are identical hands, which split a pot at the end."""
        return (self.rank, self.ranks)

    @property
    def order(self) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
        """The value with the suits that break ties: what decides who is lowest during a deal."""
        return (self.rank, self.ranks, self.suits)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.order < other.order

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.order == other.order

    def __hash__(self) -> int:
        return hash(self.order)

    @property
    def name(self) -> str:
        """The hand in words: "pair of 2s, 9 7 kickers", "royal flush", "K high"."""
        r = self.ranks
        word = [rank_word(x) for x in r]
        if not r:
            return "no cards"
        if self.rank == HIGH_CARD:
            return f"{word[0]} high" + (f", {' '.join(word[1:])}" if len(r) > 1 else "")
        if self.rank == PAIR:
            return f"pair of {word[0]}s" + _kick(word[1:])
        if self.rank == TWO_PAIR:
            return f"two pair, {word[0]}s and {word[1]}s" + _kick(word[2:])
        if self.rank == TRIPS:
            return f"three {word[0]}s" + _kick(word[1:])
        if self.rank == STRAIGHT:
            return f"straight, {word[0]} high"
        if self.rank == FLUSH:
            return f"flush, {' '.join(word)}"
        if self.rank == FULL_HOUSE:
            return f"full house, {word[0]}s full of {word[1]}s"
        if self.rank == QUADS:
            return f"four {word[0]}s" + _kick(word[1:])
        if self.rank == STRAIGHT_FLUSH:
            return "royal flush" if r[0] == 14 else f"straight flush, {word[0]} high"
        return f"five {word[0]}s"

    def to_json(self) -> JSONObject:
        return {"category": "royal flush" if self.rank == STRAIGHT_FLUSH and self.ranks[0] == 14 else self.category,
                "rank": self.rank, "name": self.name, "ranks": list(self.ranks),
                "cards": [str(c) for c in self.cards]}


def _kick(rest: Sequence[str]) -> str:
    return f", {' '.join(rest)} kicker{'s' if len(rest) > 1 else ''}" if rest else ""


def _value(slots: Sequence[_Slot], cards: Sequence[Card]) -> HandValue:
    """The value of up to five cards given as slots (a bug already stands for a card)."""
    counts = Counter(r for r, _, _ in slots)
    order = sorted(range(len(slots)), key=lambda i: (counts[slots[i][0]], slots[i][0], slots[i][2]), reverse=True)
    ranks = tuple(r for r, n in sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True))
    shape = sorted(counts.values(), reverse=True)
    flush = len(slots) == 5 and len({s for _, s, _ in slots}) == 1
    high = None
    if len(slots) == 5 and len(counts) == 5:
        low, top = min(counts), max(counts)
        if top - low == 4:
            high = top
        elif set(counts) == {14, 2, 3, 4, 5}:
            high = 5
    if high is not None:
        # the cards from the top of the straight down (the ace of a wheel last)
        order = sorted(range(5), key=lambda i: slots[i][0] if not (high == 5 and slots[i][0] == 14) else 1,
                       reverse=True)
        rank = STRAIGHT_FLUSH if flush else STRAIGHT
        return HandValue(rank, (high,), tuple(slots[i][2] for i in order), tuple(cards[i] for i in order))
    if shape[0] == 5:
        rank = FIVE_OF_A_KIND
    elif shape[0] == 4:
        rank = QUADS
    elif shape[:2] == [3, 2]:
        rank = FULL_HOUSE
    elif flush:
        rank = FLUSH
    elif shape[0] == 3:
        rank = TRIPS
    elif shape[:2] == [2, 2]:
        rank = TWO_PAIR
    elif shape[0] == 2:
        rank = PAIR
    else:
        rank = HIGH_CARD
    if rank == FLUSH:
        ranks = tuple(sorted((r for r, _, _ in slots), reverse=True))
    return HandValue(rank, ranks, tuple(slots[i][2] for i in order), tuple(cards[i] for i in order))


def _slot(card: Card) -> _Slot:
    return (14 if card.rank == 1 else card.rank, card.suit, SUIT_ORDER[card.suit])


def _stand_ins(natural: Sequence[Card], size: int, bugs: int) -> list[tuple[int, str]]:
    """What a bug may usefully stand for: an ace (of no suit: as an ace alone it makes no flush),
    and in a five-card hand a rank that fits a straight with the other cards (off suit), or in
    the suit they all share a card for a straight flush or one of the best missing for a flush."""
    out = [(14, "")]
    if size != 5:
        return out
    ranks = {14 if c.rank == 1 else c.rank for c in natural}
    wheel = {14, 2, 3, 4, 5}
    near = [r for r in range(2, 15) if r not in ranks and (
        all(abs(r - x) <= 4 for x in ranks) or (r in wheel and ranks <= wheel))]
    suits = {c.suit for c in natural}
    off = next(s for s in SUIT_ORDER if s not in suits or len(suits) > 1)
    out += [(r, off) for r in near]
    if len(suits) == 1:
        suit = next(iter(suits))
        missing = [r for r in range(14, 1, -1) if r not in ranks]
        out += [(r, suit) for r in sorted(set(near) | set(missing[:bugs]), reverse=True)]
    return out


def _with_bugs(cards: Sequence[Card], five_aces: bool) -> HandValue:
    """The best value of at most five cards with one or more bugs among them."""
    natural = [c for c in cards if not c.is_joker]
    bugs = [c for c in cards if c.is_joker]
    ordered = natural + bugs
    base = [_slot(c) for c in natural]
    best: HandValue | None = None
    for picks in product(_stand_ins(natural, len(cards), len(bugs)), repeat=len(bugs)):
        slots = base + [(r, s, _BUG_ORDER[b.suit]) for (r, s), b in zip(picks, bugs, strict=True)]
        value = _value(slots, ordered)
        # a straight or flush needs real cards (a flush takes the best card of its suit not held);
        # as an ace, a bug may double an ace held
        real = len({(r, s) for r, s, _ in slots}) == len(slots)
        all_aces = all(r == 14 for r, _ in picks)
        if (value.rank in _COMPLETED and real) or (
                all_aces and value.rank not in _COMPLETED and (value.rank != FIVE_OF_A_KIND or five_aces)):
            if best is None or value > best:
                best = value
    if best is not None:
        return best
    # four aces are held already: a bug that may not be a fifth ace stays an ace kicker
    aces = sum(1 for c in natural if c.rank == 1)
    as_aces = max(0, 4 - aces)
    slots = base + [(14, "", _BUG_ORDER[b.suit]) for b in bugs[:as_aces]]
    value = _value(slots, ordered[:len(slots)])
    extra = bugs[as_aces:]
    return HandValue(value.rank, value.ranks + (14,) * len(extra),
                     value.suits + tuple(_BUG_ORDER[b.suit] for b in extra), value.cards + tuple(extra))


def evaluate(cards: Iterable[Card], *, limit: int = 7, five_aces: bool = True) -> HandValue:
    """The value of a hand of 1 to ``limit`` (at most 7) cards: its best five.

    ``five_aces``: a bug beside four aces makes five of a kind (otherwise it is an ace kicker).
    Raises :class:`CardError` for no card, too many or a card given twice."""
    hand = list(cards)
    if not hand:
        raise CardCountError("a hand needs at least one card")
    if len(hand) > min(limit, 7):
        raise CardCountError(f"a hand has at most {min(limit, 7)} cards, not {len(hand)}")
    if len(set(hand)) != len(hand):
        raise CardError(f"a card is given twice in {' '.join(map(str, hand))}")
    if len(hand) <= 5:
        return _with_bugs(hand, five_aces) if any(c.is_joker for c in hand) else _value(
            [_slot(c) for c in hand], hand)
    return max(evaluate(five, five_aces=five_aces) for five in combinations(hand, 5))


def lowest(values: Sequence[HandValue]) -> int:
    """The index of the lowest value (suits break ties): the hand that acts next."""
    if not values:
        raise CardCountError("no hands to compare")
    return min(range(len(values)), key=lambda i: values[i].order)


def hand_text(text: str | Sequence[str]) -> list[Card]:
    """Read the cards of one hand ("2D 2S 9H", "2D,2S,9H"), jokers written RJ and BJ."""
    return parse_cards(text)


__all__ = ["CATEGORIES", "SUIT_ORDER", "HandValue", "evaluate", "hand_text", "lowest", "rank_word"]
