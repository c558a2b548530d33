"""Fight the Landlord's combinations (rule card seeds/landlord.md): what a play is, and whether
it beats the play before it.

Suits never matter: a play is read from its ranks, ordered 3 (low) to 10, J, Q, K, A, 2, the
black joker and the red joker (high). Twos and jokers never stand in a chain. Kickers (the
single or paired cards added to a trio, an airplane or a four) never share a rank with what they
are added to, are never both jokers, and an airplane's single kickers never hold a trio that
would lengthen it (``333444555666`` is an airplane of four, not one of three with three sixes).
So read, every play has one reading at most: the tests check each against a published move table.

>>> from games.cards import parse_cards
>>> [str(c) for c in classify(parse_cards("10S 10H 10D 4C 4S"))]
['trio with a pair of 10']
>>> beats(parse_cards("5S 5H 5D 5C"), parse_cards("2S 2H"))
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations

from games.cards import Card
from games.errors import CardError
from games.jsontypes import JSONObject

#: Ranks of play, low to high: 3..K are 3..13, the ace 14, the two 15, the jokers 16 and 17.
BLACK, RED = 16, 17
TOP_OF_CHAIN = 14  # a chain ends at the ace at most


def power(card: Card) -> int:
    if card.is_joker:
        return RED if card.suit == "R" else BLACK
    return {1: 14, 2: 15}.get(card.rank, card.rank)


def power_text(p: int) -> str:
    return {11: "J", 12: "Q", 13: "K", 14: "A", 15: "2", BLACK: "BJ", RED: "RJ"}.get(p, str(p))


#: Each kind's name as the table says it, and the least number of parts of a chain kind.
KINDS = {
    "solo": "single", "pair": "pair", "trio": "trio", "trio_solo": "trio with a single",
    "trio_pair": "trio with a pair", "chain": "chain", "pair_chain": "chain of pairs",
    "airplane": "airplane", "airplane_solo": "airplane with singles", "airplane_pair": "airplane with pairs",
    "four_two": "four with two", "four_two_pairs": "four with two pairs", "bomb": "bomb", "rocket": "rocket",
}
CHAIN_LEAST = {"chain": 5, "pair_chain": 3, "airplane": 2, "airplane_solo": 2, "airplane_pair": 2}


@dataclass(frozen=True, order=True)
class Combo:
    """One reading of a play: its kind, its length (parts of a chain, trios of an airplane; 1
    for the rest) and its rank (the lowest rank of the chain, the rank of the trio or four)."""

    kind: str
    length: int
    rank: int

    def beats(self, other: Combo) -> bool:
        if self.kind == "rocket":
            return True
        if other.kind == "rocket":
            return False
        if self.kind == "bomb" and other.kind != "bomb":
            return True
        return self.kind == other.kind and self.length == other.length and self.rank > other.rank

    @property
    def doubles(self) -> bool:
        """A bomb or the rocket doubles the stake."""
        return self.kind in ("bomb", "rocket")

    def to_json(self) -> JSONObject:
        return {"valid": True, "type": self.kind, "rank": power_text(self.rank), "length": self.length}

    def __str__(self) -> str:
        name = KINDS[self.kind]
        if self.kind == "rocket":
            return name
        if self.kind in CHAIN_LEAST:
            return f"{name} of {self.length} from {power_text(self.rank)}"
        return f"{name} of {power_text(self.rank)}"


def _runs(counts: Counter[int], need: int) -> list[tuple[int, int]]:
    """Every chain (start, length >= 2) of consecutive ranks up to the ace holding ``need`` cards."""
    out = []
    for start in range(3, TOP_OF_CHAIN):
        end = start
        while end <= TOP_OF_CHAIN and counts[end] >= need:
            if end > start:
                out.append((start, end - start + 1))
            end += 1
    return out


def _wings_ok(rest: Counter[int], chain: range, pairs: bool, k: int) -> bool:
    """Kickers: none of the chain's ranks, never both jokers, no trio that would lengthen the chain
    (that play is a longer airplane); pairs are of different ranks."""
    if any(rest[r] for r in chain):
        return False
    ends = [r for r in (chain.start - 1, chain.stop) if 3 <= r <= TOP_OF_CHAIN]
    if any(rest[r] >= 3 for r in ends):
        return False
    if pairs:
        return all(n == 2 for n in rest.values()) and len(rest) == k and not rest[BLACK] and not rest[RED]
    return sum(rest.values()) == k and not (rest[BLACK] and rest[RED]) and all(n < 4 for n in rest.values())


def read_powers(powers: Sequence[int]) -> list[Combo]:
    """The reading of a play given by its ranks of play: one, or none (an empty list)."""
    counts = Counter(powers)
    n = len(powers)
    out: list[Combo] = []
    if n == 0:
        return out
    shape = sorted(counts.values(), reverse=True)
    top = max(counts)
    low = min(counts)
    if n == 2 and set(counts) == {BLACK, RED}:
        return [Combo("rocket", 1, RED)]
    if len(counts) == 1:
        kind = {1: "solo", 2: "pair", 3: "trio", 4: "bomb"}[n]
        return [Combo(kind, 1, top)]
    straight = top - low + 1 == len(counts) and top <= TOP_OF_CHAIN
    for size, kind in ((1, "chain"), (2, "pair_chain"), (3, "airplane")):
        if straight and all(c == size for c in counts.values()) and len(counts) >= CHAIN_LEAST[kind]:
            out.append(Combo(kind, len(counts), low))
    if shape[0] >= 3:
        for rank in sorted((r for r, c in counts.items() if c == 3), reverse=True):
            rest = counts - Counter({rank: 3})
            if n == 4:
                out.append(Combo("trio_solo", 1, rank))
            elif n == 5 and len(rest) == 1 and max(rest) < BLACK:
                out.append(Combo("trio_pair", 1, rank))
    if shape[0] == 4:
        rank = next(r for r, c in counts.items() if c == 4)
        rest = counts - Counter({rank: 4})
        if n == 6 and not (rest[BLACK] and rest[RED]):
            out.append(Combo("four_two", 1, rank))
        if n == 8 and len(rest) == 2 and all(c == 2 for c in rest.values()):
            out.append(Combo("four_two_pairs", 1, rank))
    for start, length in sorted(_runs(counts, 3), key=lambda s: (-s[1], -s[0])):
        chain = range(start, start + length)
        rest = counts - Counter({r: 3 for r in chain})
        if n == 4 * length and _wings_ok(rest, chain, False, length):
            out.append(Combo("airplane_solo", length, start))
        if n == 5 * length and _wings_ok(rest, chain, True, length):
            out.append(Combo("airplane_pair", length, start))
    return out


def classify(cards: Sequence[Card]) -> list[Combo]:
    """The reading of a play, as a list of one (empty: the cards are no combination)."""
    if len(set(cards)) != len(cards):
        raise CardError("a card is given twice")
    return read_powers([power(c) for c in cards])


def why_not(cards: Sequence[Card]) -> str:
    """Why the cards are no combination, in a player's words."""
    counts = Counter(power(c) for c in cards)
    if not cards:
        return "no cards"
    sizes = set(counts.values())
    if len(counts) > 1 and len(sizes) == 1 and (size := sizes.pop()) <= 3:
        what = ("singles", "pairs", "trios")[size - 1]
        least = (5, 3, 2)[size - 1]
        if max(counts) > TOP_OF_CHAIN:
            return "a two or a joker never stands in a chain"
        if max(counts) - min(counts) + 1 != len(counts):
            return f"the {what} are not in sequence"
        return f"a chain of {what} has at least {least}"
    if counts[BLACK] and counts[RED]:
        return "the two jokers are the rocket, never a kicker"
    return f"{len(cards)} cards that make no combination"


def beats(cards: Sequence[Card], last: Sequence[Card]) -> bool:
    """Whether ``cards`` may be played on ``last``."""
    return any(a.beats(b) for a in classify(cards) for b in classify(last))


def score_json(cards: Sequence[Card]) -> JSONObject:
    """`pegpi score landlord CARDS --json`: the reading of one play, or why it is none."""
    readings = classify(cards)
    if not readings:
        return {"valid": False, "reason": why_not(cards)}
    return readings[0].to_json()


def all_plays(hand: Sequence[Card]) -> list[tuple[Card, ...]]:
    """Every play a hand holds, one per distinct reading of ranks (the lowest suits used)."""
    by_power: dict[int, list[Card]] = {}
    for card in sorted(hand, key=lambda c: (power(c), c.suit)):
        by_power.setdefault(power(card), []).append(card)
    ranks = sorted(by_power)
    found: dict[tuple[tuple[int, int], ...], tuple[Card, ...]] = {}

    def take(shape: dict[int, int]) -> tuple[Card, ...]:
        return tuple(c for r, k in sorted(shape.items()) for c in by_power[r][:k])

    def add(shape: dict[int, int]) -> None:
        key = tuple(sorted((r, k) for r, k in shape.items() if k))
        flat = tuple(r for r, k in key for _ in range(k))
        if key not in found and read_powers(flat):
            found[key] = take(dict(key))

    for r in ranks:
        for k in range(1, len(by_power[r]) + 1):
            add({r: k})
    if BLACK in by_power and RED in by_power:
        add({BLACK: 1, RED: 1})
    counts = {r: len(cs) for r, cs in by_power.items()}
    for size, least in ((1, 5), (2, 3), (3, 2)):
        for start in range(3, TOP_OF_CHAIN):
            end = start
            while end <= TOP_OF_CHAIN and counts.get(end, 0) >= size:
                if end - start + 1 >= least:
                    chain = {r: size for r in range(start, end + 1)}
                    add(chain)
                    if size == 3:
                        _wings(chain, counts, add)
                end += 1
    for r, c in counts.items():
        if c >= 3:
            _wings({r: 3}, counts, add)
        if c == 4:
            _wings({r: 4}, counts, add, solos=2, pairs=2)
    return list(found.values())


def _wings(body: dict[int, int], counts: dict[int, int], add: Callable[[dict[int, int]], None],
           solos: int = 0, pairs: int = 0) -> None:
    """Add the body with every choice of single and paired kickers from the other ranks."""
    k = len(body) if not solos else solos
    kp = len(body) if not pairs else pairs
    others = [r for r in counts if r not in body]
    singles = [r for r in others for _ in range(min(counts[r], 3))]
    for pick in set(combinations(sorted(singles), k)):
        add({**body, **Counter(pick)})
    for pick in combinations([r for r in others if counts[r] >= 2], kp):
        add({**body, **{r: 2 for r in pick}})


__all__ = ["BLACK", "KINDS", "RED", "Combo", "all_plays", "beats", "classify", "power", "power_text",
           "read_powers", "score_json", "why_not"]
