"""Cribbage scoring as pure functions that return their breakdown.

>>> from games.cards import parse_cards, Card
>>> score_show(parse_cards("5H 5C 5S JD"), Card.parse("5D")).total
29
>>> score_show(parse_cards("5H 5C 6S 4D"), Card.parse("KD")).spoken()
'fifteen 2, fifteen 4, fifteen 6, fifteen 8, pair 10, run of 3 is 13, run of 3 is 16'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from games.cards import Card
from games.engine import Item, Score

PAIR_NAMES = {2: ("pair", 2), 3: ("pair royal", 6), 4: ("double pair royal", 12)}


def value(card: Card) -> int:
    """Pip value in the count: ace 1, two to ten their number, court cards 10."""
    return min(card.rank, 10)


@dataclass(frozen=True, slots=True)
class ShowRules:
    """How a hand is counted; variants differ only here.

    ``cyclic_runs``: K-A-2 is a run (Revised Cribbage). ``thirty_ones``: combinations making 31
    score 2 each (Revised). ``flush_any_four``: 4 for any four of the five in suit, 8 for all
    five, hand or crib alike (Revised). Otherwise a hand flush needs every card of the hand and
    scores one per card, one more with the starter; a crib flush needs all five."""

    cyclic_runs: bool = False
    thirty_ones: bool = False
    flush_any_four: bool = False
    nob: bool = True
    #: every three cards in sequence score 3, so 3-4-5-6 is two runs (Revised)
    runs_of_three: bool = False


STANDARD = ShowRules()


def fifteens(cards: Sequence[Card], total: int = 15, kind: str = "fifteen", label: str = "") -> list[Item]:
    """Every distinct combination of cards whose values add up to ``total`` (2 points each)."""
    values = [value(c) for c in cards]
    items = []
    for size in range(2, len(cards) + 1):
        for idx in combinations(range(len(cards)), size):
            if sum(values[i] for i in idx) == total:
                items.append(Item(kind, tuple(cards[i] for i in idx), 2, label))
    return items


def pairs(cards: Sequence[Card]) -> list[Item]:
    """Pairs by rank: two of a kind 2, three (pair royal) 6, four (double pair royal) 12."""
    groups: dict[int, list[Card]] = {}
    for c in cards:
        groups.setdefault(c.rank, []).append(c)
    items = []
    for rank in sorted(groups):
        group = groups[rank]
        if len(group) >= 2:
            name, points = PAIR_NAMES[len(group)]
            items.append(Item("pair", tuple(group), points, name if name != "pair" else ""))
    return items


def runs(cards: Sequence[Card], *, cyclic: bool = False) -> list[Item]:
    """Every run of three or more ranks, one item per distinct run (a double run is two runs).

    A run of four is not two runs of three: only maximal runs count."""
    by_rank: dict[int, list[Card]] = {}
    for c in cards:
        by_rank.setdefault(c.rank, []).append(c)
    ranks = set(by_rank)
    sequences: list[list[int]] = []
    if cyclic and 0 < len(ranks) < 13:
        # Walk the circle of ranks starting just after a gap so wrapping runs stay whole.
        start = next(r for r in range(1, 14) if (r - 2) % 13 + 1 not in ranks and r in ranks)
        current: list[int] = []
        for step in range(13):
            r = (start - 1 + step) % 13 + 1
            if r in ranks:
                current.append(r)
            else:
                if current:
                    sequences.append(current)
                current = []
        if current:
            sequences.append(current)
    else:
        current = []
        for r in range(1, 15):
            if r in ranks:
                current.append(r)
            else:
                if current:
                    sequences.append(current)
                current = []
    items = []
    for seq in sequences:
        if len(seq) < 3:
            continue
        choices = [by_rank[r] for r in seq]
        for combo in _product(choices):
            items.append(Item("run", tuple(combo), len(seq), f"run of {len(seq)}"))
    return items


def runs_of_three(cards: Sequence[Card], *, cyclic: bool = False) -> list[Item]:
    """Every set of three cards whose ranks are consecutive (3 points each), as Revised
    Cribbage counts runs in the show: 4-5-6-7 with a 3 is three runs of three."""
    items = []
    for trio in combinations(cards, 3):
        ranks = [c.rank for c in trio]
        if len(set(ranks)) == 3 and _consecutive(ranks, cyclic):
            items.append(Item("run", tuple(sorted(trio, key=lambda c: c.rank)), 3, "run of 3"))
    return items


def _product(choices: list[list[Card]]) -> list[list[Card]]:
    out: list[list[Card]] = [[]]
    for options in choices:
        out = [prefix + [c] for prefix in out for c in options]
    return out


def flush(hand: Sequence[Card], starter: Card | None, crib: bool, rules: ShowRules = STANDARD) -> list[Item]:
    cards = list(hand) + ([starter] if starter is not None else [])
    if rules.flush_any_four:
        counts = Counter(c.suit for c in cards)
        suit, n = counts.most_common(1)[0] if counts else ("", 0)
        if n == 5:
            return [Item("flush", tuple(cards), 8)]
        if n == 4:
            return [Item("flush", tuple(c for c in cards if c.suit == suit), 4)]
        return []
    if not hand or len({c.suit for c in hand}) != 1:
        return []
    with_starter = starter is not None and starter.suit == hand[0].suit
    if crib:
        return [Item("flush", tuple(cards), len(cards))] if with_starter else []
    return [Item("flush", tuple(cards) if with_starter else tuple(hand), len(hand) + int(with_starter))]


def nob(hand: Sequence[Card], starter: Card | None) -> list[Item]:
    """One for the jack of the starter's suit held in the hand ("his nob")."""
    if starter is None:
        return []
    return [Item("nob", (c,), 1, "his nob") for c in hand if c.rank == 11 and c.suit == starter.suit]


def score_show(
    hand: Sequence[Card], starter: Card | None, crib: bool = False, rules: ShowRules = STANDARD
) -> Score:
    """Count a hand (or the crib) with the starter: fifteens, pairs, runs, flush, his nob."""
    cards = list(hand) + ([starter] if starter is not None else [])
    items = fifteens(cards)
    if rules.thirty_ones:
        items += fifteens(cards, 31, "thirty-one", "31")
    items += pairs(cards)
    if rules.runs_of_three:
        items += runs_of_three(cards, cyclic=rules.cyclic_runs)
    else:
        items += runs(cards, cyclic=rules.cyclic_runs)
    items += flush(hand, starter, crib, rules)
    if rules.nob:
        items += nob(hand, starter)
    return Score.of(items)


# --------------------------------------------------------------------------------- the play


@dataclass(frozen=True, slots=True)
class PlayRules:
    """What scores in the play. ``flushes``: consecutive cards of one suit (Revised, Noddy);
    ``cyclic_runs``: K-A-2 (Revised); ``totals``: counts that score 2 when hit exactly."""

    totals: tuple[int, ...] = (15, 31)
    cyclic_runs: bool = False
    flushes: bool = False
    flush_min: int = 3


STANDARD_PLAY = PlayRules()
_TOTAL_NAMES = {15: ("fifteen", ""), 25: ("twenty-five", ""), 31: ("thirty-one", "31")}


def score_play(pile: Sequence[Card], rules: PlayRules = STANDARD_PLAY) -> list[Item]:
    """What the last card of ``pile`` (the cards of the current count, in order) scores."""
    if not pile:
        return []
    card = pile[-1]
    count = sum(value(c) for c in pile)
    items = []
    if count in rules.totals:
        kind, label = _TOTAL_NAMES.get(count, (str(count), str(count)))
        items.append(Item(kind, tuple(pile), 2, label))
    same = 1
    while same < len(pile) and pile[-same - 1].rank == card.rank:
        same += 1
    if same >= 2:
        name, points = PAIR_NAMES[min(same, 4)]
        items.append(Item("pair", tuple(pile[-same:]), points, name if name != "pair" else ""))
    run = play_run_length(pile, cyclic=rules.cyclic_runs)
    if run:
        items.append(Item("run", tuple(pile[-run:]), run, f"run of {run}"))
    if rules.flushes:
        n = 1
        while n < len(pile) and pile[-n - 1].suit == card.suit:
            n += 1
        if n >= rules.flush_min:
            items.append(Item("flush", tuple(pile[-n:]), n, f"flush of {n}"))
    return items


def play_run_length(pile: Sequence[Card], *, cyclic: bool = False) -> int:
    """Length of the longest run the last card completes: the last k cards, in any order, with
    distinct consecutive ranks and nothing between."""
    best = 0
    for k in range(3, len(pile) + 1):
        ranks = [c.rank for c in pile[-k:]]
        if len(set(ranks)) != k:
            break  # a repeated rank breaks every longer tail too
        if _consecutive(ranks, cyclic):
            best = k
    return best


def _consecutive(ranks: list[int], cyclic: bool) -> bool:
    if max(ranks) - min(ranks) == len(ranks) - 1:
        return True
    if not cyclic:
        return False
    # On the circle: some rotation of the ranks is consecutive.
    present = set(ranks)
    return any(all((start + i - 1) % 13 + 1 in present for i in range(len(ranks))) for start in range(1, 14))


def count_of(pile: Sequence[Card]) -> int:
    return sum(value(c) for c in pile)


__all__ = [
    "PlayRules",
    "ShowRules",
    "STANDARD",
    "STANDARD_PLAY",
    "count_of",
    "fifteens",
    "flush",
    "nob",
    "pairs",
    "runs",
    "runs_of_three",
    "score_play",
    "score_show",
    "value",
]
