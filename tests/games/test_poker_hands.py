"""The poker values behind Ricochet Poker, against an independent reference and as properties.

Five-card hands are checked against phevaluator (a published perfect-hash evaluator, a test
dependency only): the category of every hand and the order of any two agree. phevaluator gives
each five-card hand one of 7,462 classes, 1 the best (the royal flush); its classes fall into the
categories in the published counts below. Ricochet plays the same order and asks for the LOWEST
hand: the one phevaluator ranks with the largest number.

Partial hands (one to four cards) and bugs are pegpi's own: their order is checked as
properties (a card added never lowers a hand; a bug is an ace or completes a straight or flush).
"""

from __future__ import annotations

import random
from itertools import accumulate, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.cards import FRENCH_52, Card, parse_cards
from games.errors import CardError
from games.poker import CATEGORIES, evaluate, lowest

phevaluator = pytest.importorskip("phevaluator")

# the classes per category, best first, as published with the 7,462 equivalence classes
REFERENCE = [("straight flush", 10), ("four of a kind", 156), ("full house", 156), ("flush", 1277),
             ("straight", 10), ("three of a kind", 858), ("two pair", 858), ("pair", 2860),
             ("high card", 1277)]
BOUNDS = list(accumulate(count for _, count in REFERENCE))


def reference_category(rank: int) -> str:
    return next(name for (name, _), top in zip(REFERENCE, BOUNDS, strict=True) if rank <= top)


def reference_rank(cards: list[Card]) -> int:
    text = [("A23456789TJQK"[c.rank - 1]) + c.suit.lower() for c in cards]
    rank: int = phevaluator.evaluate_cards(*text)
    return rank


def test_the_reference_counts_cover_every_class() -> None:
    assert BOUNDS[-1] == 7462
    assert reference_category(1) == "straight flush" and reference_category(7462) == "high card"


@pytest.fixture(scope="module")
def sample() -> list[tuple[list[Card], int]]:
    rng = random.Random(2026)
    hands = [rng.sample(FRENCH_52, 5) for _ in range(12000)]
    # and every category at least a few times: deal from a few ranks, or from one suit
    for _ in range(400):
        ranks = rng.sample(range(1, 14), 3)
        pool = [c for c in FRENCH_52 if c.rank in ranks]
        hands.append(rng.sample(pool, 5))
        suit = rng.choice("SHDC")
        top = rng.randint(5, 14)
        run = [(r - 1) % 13 + 1 for r in range(top - 4, top + 1)]
        hands.append([Card(r, suit) for r in run] if rng.random() < 0.5 else
                     [Card(r, rng.choice("SHDC")) for r in run])
        hands.append(rng.sample([c for c in FRENCH_52 if c.suit == suit], 5))
    return [(hand, reference_rank(hand)) for hand in hands]


def test_categories_agree_with_the_reference(sample: list[tuple[list[Card], int]]) -> None:
    seen = set()
    for hand, rank in sample:
        ours = evaluate(hand).category
        assert ours == reference_category(rank), (hand, rank)
        seen.add(ours)
    assert seen == set(CATEGORIES) - {"five of a kind"}


def test_the_order_agrees_with_the_reference(sample: list[tuple[list[Card], int]]) -> None:
    """Sorted by our value, the reference's classes never go up, and two hands share a class
    exactly when their values are equal without suits (so every pair of the sample agrees)."""
    ordered = sorted(sample, key=lambda item: evaluate(item[0]).order)
    for (low, low_rank), (high, high_rank) in zip(ordered, ordered[1:], strict=False):
        same = evaluate(low).key == evaluate(high).key
        assert (low_rank == high_rank) if same else (low_rank > high_rank), (low, high)


def test_the_lowest_of_several_hands_is_the_references_worst(sample: list[tuple[list[Card], int]]) -> None:
    rng = random.Random(7)
    for _ in range(500):
        group = rng.sample(sample, rng.randint(2, 8))
        at = lowest([evaluate(hand) for hand, _ in group])
        assert group[at][1] == max(rank for _, rank in group)


# ------------------------------------------------------------------ partial hands (ours)


cards = st.sampled_from(FRENCH_52)
hands = st.lists(cards, min_size=1, max_size=6, unique=True)


@settings(max_examples=400, deadline=None)
@given(hands, cards)
def test_a_card_added_never_lowers_a_hand(hand: list[Card], extra: Card) -> None:
    if extra in hand:
        return
    before, after = evaluate(hand), evaluate([*hand, extra])
    if len(hand) < 5:
        assert after > before and after.key > before.key  # a kicker beats no kicker
    else:
        assert after >= before and after.key >= before.key  # the best five may stay as they were


@settings(max_examples=300, deadline=None)
@given(hands, hands)
def test_different_cards_never_tie_during_a_deal(first: list[Card], second: list[Card]) -> None:
    if set(first) & set(second) or len(first) > 5 or len(second) > 5:
        return
    assert evaluate(first) != evaluate(second)  # suits break every tie


@settings(max_examples=300, deadline=None)
@given(st.lists(cards, min_size=0, max_size=4, unique=True), st.sampled_from([Card(0, "R"), Card(0, "B")]))
def test_a_bug_is_an_ace_or_completes_a_straight_or_flush(hand: list[Card], bug: Card) -> None:
    if sum(c.rank == 1 for c in hand) == 4:
        return
    with_bug = evaluate([*hand, bug]).key
    aces = [evaluate([*hand, Card(1, s)]).key for s in "SHDC" if Card(1, s) not in hand]
    best_real = max(evaluate([*hand, c]).key for c in FRENCH_52 if c not in hand)
    assert all(with_bug >= key for key in aces)  # at least any ace
    assert with_bug <= best_real  # never more than a fully wild card would be
    if len(hand) < 4:
        assert with_bug == max(aces, default=with_bug)  # no straight or flush yet: just an ace


def test_bugs_against_the_reference() -> None:
    """A five-card hand with bugs is worth the best real hand its bugs could make, where every bug
    is an ace or the hand is a straight or flush (phevaluator finds the best): every bug becomes
    each card not held. Hands with three aces or more are left out (a bug would double an ace)."""
    rng = random.Random(11)
    deck = list(FRENCH_52)
    checked = 0
    while checked < 150:
        bugs = [Card(0, "R"), Card(0, "B")][:rng.choice([1, 1, 2])]
        natural = rng.sample(deck, 5 - len(bugs))
        if rng.random() < 0.5:  # often all of one suit, or close in rank, where bugs matter most
            suit = rng.choice("SHDC")
            natural = rng.sample([c for c in deck if c.suit == suit], 5 - len(bugs))
        if sum(c.rank == 1 for c in natural) > 2:
            continue
        checked += 1
        best: tuple[int, list[Card]] | None = None
        free = [c for c in deck if c not in natural]
        for picks in product(free, repeat=len(bugs)):
            if len(set(picks)) < len(picks):
                continue
            hand = [*natural, *picks]
            rank = reference_rank(hand)
            if all(c.rank == 1 for c in picks) or reference_category(rank) in ("straight", "flush", "straight flush"):
                if best is None or rank < best[0]:
                    best = (rank, hand)
        assert best is not None
        assert evaluate([*natural, *bugs]).key == evaluate(best[1]).key, (natural, best[1])


def test_five_aces_is_an_option() -> None:
    hand = parse_cards("AS AH AD AC RJ")
    assert evaluate(hand).category == "five of a kind"
    assert evaluate(hand, five_aces=False).name == "four As, A kicker"
    assert evaluate(hand) > evaluate(parse_cards("AS KS QS JS 10S"))


@pytest.mark.parametrize(("text", "name"), [
    ("KS", "K high"), ("AH 8C", "A high, 8"), ("2D 2S 9H 7C", "pair of 2s, 9 7 kickers"),
    ("KS 5D 8S 8C KD", "two pair, Ks and 8s, 5 kicker"), ("AH 2C 3D 4S 5H", "straight, 5 high"),
    ("9H 8H 2H 4H RJ", "flush, A 9 8 4 2"), ("AH KH QH JH 10H", "royal flush"),
    ("QS QH QD 3C 3S", "full house, Qs full of 3s"), ("2S 3S 4S 5S 6S 7S 8S", "straight flush, 8 high"),
    ("RJ BJ", "pair of As"),
])
def test_hands_are_named(text: str, name: str) -> None:
    assert evaluate(parse_cards(text)).name == name


def test_bad_hands_are_refused() -> None:
    with pytest.raises(CardError, match="at least one card"):
        evaluate([])
    with pytest.raises(CardError, match="at most 5 cards"):
        evaluate(parse_cards("2S 3S 4S 5S 6S 7S"), limit=5)
