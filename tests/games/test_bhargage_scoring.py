"""Bhargage scoring checked against seed 000 (Kerry Handscomb's rules), one row per example."""

from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.bhargage import scoring
from games.bhargage.scoring import bhargs, elevens, score_play, score_show, shortage, value
from games.decktet import DECKTET, DecktetCard, parse_decktet

SEED = "seed 000"


def cards(text):
    return parse_decktet(text)


def card(name):
    return DecktetCard.parse(name)


# (source, card, play value)
VALUES = [
    (f"{SEED}, play of the cards: Ace has the value 1", "Ace of Knots", 1),
    (f"{SEED}: numbers have their number value", "the Merchant", 9),
    (f"{SEED}: Crown 10", "the Windfall", 10),
    (f"{SEED}: Court 0", "the Window", 0),
    (f"{SEED}: Pawn 0", "the Borderland", 0),
    (f"{SEED}: Excuse 0", "the Excuse", 0),
]


@pytest.mark.parametrize("source, name, expected", VALUES, ids=[v[1] for v in VALUES])
def test_play_values(source, name, expected):
    assert value(card(name)) == expected, source


# (source, cards, number of distinct 11 combinations)
ELEVENS = [
    (f"{SEED}, 11s: Crown-Crown-Ace is two Crown-Ace combinations",
     "the Huntress; the Bard; Ace of Waves; the Mountain", 2),
    (f"{SEED}, 11s: ... with a Pawn up-card there are four",
     "the Huntress; the Bard; Ace of Waves; the Harvest", 4),
    (f"{SEED}, 11s: two zero-valued cards multiply by 4",
     "the Huntress; Ace of Waves; the Rite; the Light Keeper", 4),
    (f"{SEED}, 11s: three zero-valued cards multiply by 8 (bhargage)",
     "the Huntress; Ace of Waves; the Rite; the Consul; the Light Keeper", 8),
    (f"{SEED}, 11s: a collection of cards whose total value is 11 (three cards: 2+4+5)",
     "the Author; the Sailor; the Soldier; the Huntress", 1),
]


@pytest.mark.parametrize("source, text, count", ELEVENS, ids=[e[1] for e in ELEVENS])
def test_elevens_with_zero_value_multiplier(source, text, count):
    found = elevens(cards(text))
    assert len(found) == count, source
    assert all(sum(value(c) for c in item.cards) == 11 and item.points == 2 for item in found)


# (source, hand, up-card, bhargage?, expected total, breakdown kinds)
SHOWS = [
    (f"{SEED}: Crown-Crown-Ace with a Pawn up-card: 4 x 2 for 11s, and the Crowns pair",
     "the Huntress; the Bard; Ace of Waves", "the Harvest", False, 8 + 2),
    (f"{SEED}, bharg: the Pawn and Court of opposite suits is the only two-card bharg",
     "the Light Keeper; the Rite; Ace of Moons", "the Desert", False, 6),
    (f"{SEED}, bharg: an Excuse in the hand doubles the bhargs",
     "the Light Keeper; the Rite; the Excuse", "the Desert", False, 12),
    (f"{SEED}: three 5s score 6 for the set and 6 for the bharg",
     "the Forest; the Discovery; the Soldier", "the Harvest", False, 6 + 6),
    (f"{SEED}, sets: four of a kind 12 (four Pawns in the bhargage, zero value, no 11)",
     "the Harvest; the Watchman; the Light Keeper; the Borderland", "Ace of Moons", True, 12),
    (f"{SEED}, sets: five of a kind 20 (five Aces in the bhargage)",
     "Ace of Moons; Ace of Suns; Ace of Waves; Ace of Leaves", "Ace of Wyrms", True, 20),
    (f"{SEED}, Friends of the Chief: a Character in the hand scores 1 when the up-card is one",
     "the Lunatic; the Sailor; the Betrayal", "the Author", False, 1 + 1),
    (f"{SEED}: Friends of the Chief are not scored in the bhargage (a pair of 2s and a bharg here)",
     "the Lunatic; the Sailor; the Betrayal; the Desert", "the Author", True, 2 + 6),
    (f"{SEED}: a Character in the hand is no friend when the up-card is not a Character",
     "the Lunatic; the Sailor; the Betrayal", "the Desert", False, 0),
]


@pytest.mark.parametrize("source, hand, up, crib, total", SHOWS, ids=[s[1] for s in SHOWS])
def test_show_examples(source, hand, up, crib, total):
    assert score_show(cards(hand), card(up), crib).total == total, source


def test_breakdown_in_the_players_order_and_words():
    """Source: seed 000, scoring order: 11s, sets, bhargs, Friends of the Chief."""
    score = score_show(cards("the Huntress; the Bard; Ace of Waves"), card("the Author"))
    assert [i.kind for i in score.items] == ["eleven", "eleven", "pair", "friend", "friend"]
    assert score.spoken().startswith("11 for 2, 11 is 4, pair 6")


def test_a_set_of_three_numbers_is_always_a_bharg():
    """Source: seed 000, "the set of all three of a particular number-value is always a bharg"."""
    for rank in "23456789":
        three = [c for c in DECKTET if c.rank == rank]
        assert len(three) == 3
        assert [i.cards for i in bhargs(three)] == [tuple(three)]


def test_the_only_two_card_bharg():
    """Source: seed 000, bharg: "the only possible two-card bharg" (Pawn and Court of opposite suits)."""
    pairs = [pair for pair in combinations(DECKTET, 2) if bhargs(pair)]
    assert len(pairs) == 1
    assert {c.rank for c in pairs[0]} == {"Pawn", "Court"}


# (source, hand, up-card, points to the opponent)
SHORTAGES = [
    (f"{SEED}, shortage: no suit lacking scores nothing",
     "the Light Keeper; the Rite; the Excuse", "the Author", 0),
    (f"{SEED}, shortage: 1 suit lacking scores 1", "the Pact; the Darkness; Ace of Leaves", "the Savage", 1),
    (f"{SEED}, shortage: 2 suits lacking score 3", "Ace of Moons; Ace of Suns; Ace of Waves", "the End", 3),
    (f"{SEED}, shortage: 3 suits lacking score 6", "Ace of Moons; Ace of Suns; Ace of Waves", "the Huntress", 6),
    (f"{SEED}, shortage: 4 suits lacking score 10", "Ace of Moons; the Huntress; the Lunatic", "the Journey", 10),
    (f"{SEED}, shortage: the up-card's suits count", "Ace of Moons; the Huntress; the Lunatic", "the Excuse", 10),
]


@pytest.mark.parametrize("source, hand, up, points", SHORTAGES, ids=[s[1] + " + " + s[2] for s in SHORTAGES])
def test_shortage(source, hand, up, points):
    assert shortage(cards(hand), card(up)).total == points, source


@given(st.lists(st.sampled_from(DECKTET), min_size=4, max_size=5, unique=True))
def test_no_hand_lacks_five_suits(hand):
    """Source: seed 000, "No hand or bhargage can be composed entirely of one suit, even with the Excuse"."""
    short = shortage(hand[:-1], hand[-1])
    assert short.total <= 10


# (source, pile, items' kinds and points for the last card)
PLAYS = [
    (f"{SEED}, 11: a card making the total 11 scores 2", "the Huntress; Ace of Moons", [("eleven", 2)]),
    (f"{SEED}, 11: the other player's zero-value card scores 11 for 2 again",
     "the Huntress; Ace of Moons; the Harvest", [("eleven", 2)]),
    (f"{SEED}, 23: a card making 23 scores 3", "the Huntress; the Bard; the Journey", [("twenty-three", 3)]),
    (f"{SEED}, pair: the last two cards of one rank score 2", "the Author; the Desert", [("pair", 2)]),
    (f"{SEED}, three of a kind scores 6 (and three numbers are a bharg)", "the Author; the Desert; the Origin",
     [("three", 6), ("bharg", 6)]),
    (f"{SEED}, four of a kind scores 12 (four Pawns)",
     "the Harvest; the Watchman; the Light Keeper; the Borderland", [("four", 12)]),
    (f"{SEED}, five of a kind scores 20",
     "Ace of Moons; Ace of Suns; Ace of Waves; Ace of Leaves; Ace of Wyrms", [("five", 20)]),
    (f"{SEED}, bharg: the last cards hold each suit once", "the Light Keeper; the Huntress; the Savage",
     [("bharg", 6)]),
    (f"{SEED}, bharg: the opponent can now play the Excuse and score 6 for bharg in turn",
     "the Light Keeper; the Huntress; the Savage; the Excuse", [("bharg", 6)]),
    (f"{SEED}: one card can make 11 and a set; all are scored",
     "the Huntress; Ace of Moons; the Window; the Consul", [("eleven", 2), ("pair", 2)]),
    (f"{SEED}: a suit twice among the last cards is no bharg", "the Light Keeper; the Forest; the Savage", []),
]


@pytest.mark.parametrize("source, pile, expected", PLAYS, ids=[p[1] for p in PLAYS])
def test_play_scores(source, pile, expected):
    items = score_play(cards(pile))
    assert [(i.kind, i.points) for i in items] == expected, source


def test_bharg_in_play_plus_eleven_and_set():
    """Source: seed 000, "A player can create a count of 11 (or 23) and a set or a bharg with the
    play of a single card. All combinations are scored"."""
    items = score_play(cards("the Huntress; Ace of Waves; the Light Keeper; the Rite"))
    assert sorted((i.kind, i.points) for i in items) == [("bharg", 6), ("eleven", 2)]


def test_sequences_option_scores_runs_in_rank_order():
    """Source: seed 000, sequences "may be used ... scored exactly as they are scored in Cribbage";
    the rank order is Excuse < Ace < 2..9 < Pawn < Court < Crown."""
    rules = scoring.Rules(sequences=True)
    pile = cards("the Merchant; the Window; the Harvest")  # 9, Court, Pawn in any order
    assert [(i.kind, i.points) for i in score_play(pile, rules)] == [("run", 3)]
    assert score_play(pile) == []
    hand = cards("the Excuse; Ace of Moons; the Author")
    runs = [i for i in score_show(hand, card("the Origin"), rules=rules).items if i.kind == "run"]
    assert [len(i.cards) for i in runs] == [3, 3]  # Excuse-Ace-2, twice (two 2s)


@pytest.mark.parametrize("module", ["games.bhargage.combos", "games.bhargage.scoring", "games.bhargage.autoplay"])
def test_examples_in_docstrings_run(module):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0
