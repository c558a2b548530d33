"""Suitcases scoring checked against seed 001 (David L. Van Slyke's rules), one row per example."""

from itertools import product

import pytest

from games.decktet import DECKTET, DecktetCard, parse_decktet
from games.suitcases.scoring import Rules, score_play, score_show

SEED = "seed 001"
UNRANKED = Rules(face_ranks="unranked")


def cards(text):
    return parse_decktet(text)


def card(name):
    return DecktetCard.parse(name)


def kinds(score):
    return [(i.kind, i.points) for i in score.items]


def test_the_seeds_example_a_4_a_5_and_all_three_6s():
    """Source: seed 001, "a hand of cards containing a 4, a 5, and all three 6's is worth a total of
    at least 24 points": 3 for sums of 11, 6 for three of a kind, 9 for three runs, 6 for a meld."""
    sixes = [c for c in DECKTET if c.rank == "6"]
    fours = [c for c in DECKTET if c.rank == "4"]
    fives = [c for c in DECKTET if c.rank == "5"]
    for four, five in product(fours, fives):
        for top in (four, five):  # the top card is one of the five cards, either way
            hand = [c for c in [*sixes, four, five] if c != top]
            score = score_show(hand, top)
            assert score.total >= 24, (four, five)
            counted = [(i.kind, i.points) for i in score.items]
            assert counted.count(("eleven", 1)) == 3
            assert counted.count(("set", 6)) == 1
            assert counted.count(("run", 3)) == 3
            assert counted.count(("meld", 6)) >= 1


def test_the_seeds_example_counted_item_by_item():
    """Source: seed 001, the example with the Mountain and the Forest: no further meld (no card
    set of the two holds Waves and Wyrms with the Market), so exactly 24."""
    score = score_show(cards("the Lunatic; the Penitent; the Market; the Mountain"), card("the Forest"))
    assert kinds(score) == [("eleven", 1)] * 3 + [("set", 6)] + [("run", 3)] * 3 + [("meld", 6)]
    assert score.total == 3 + 6 + 9 + 6


# (source, hand, top card, rules, expected total)
SHOWS = [
    (f"{SEED}: the Excuse has rank zero (useful with sums of 11): it doubles them",
     "the Forest; the Lunatic; the Excuse; the Harvest", "the Betrayal", Rules(), 2),
    (f"{SEED}: Pawns have no rank: irrelevant to sums of 11, valid for pairs",
     "the Harvest; the Watchman; the Forest; the Sailor", "Ace of Moons", Rules(), 2),
    (f"{SEED}: Pawns are irrelevant to runs (8, 9 and a Pawn is no run)",
     "the Mill; the Pact; the Borderland; Ace of Moons", "the Excuse", Rules(), 0),
    (f"{SEED}: four of a kind scores 12", "Ace of Moons; Ace of Suns; Ace of Waves; Ace of Leaves",
     "the Consul", Rules(), 12),
    (f"{SEED}: five of a kind scores 20", "Ace of Moons; Ace of Suns; Ace of Waves; Ace of Leaves",
     "Ace of Wyrms", Rules(), 20),
    (f"{SEED}: runs of three or more score one per card (a run of four)",
     "the Author; the Journey; the Mountain; the Forest", "the Harvest", Rules(), 4 + 1),
    (f"{SEED}: every distinct run (a double run of three)",
     "the Author; the Journey; the Painter; the Mountain", "the Harvest", Rules(), 3 + 3 + 2),
    (f"{SEED}: a complete suit-meld of all six suits scores 6 (Pawn and Court: every suit once)",
     "the Light Keeper; the Rite; the Excuse; the Pact", "the Mill", Rules(), 6),
    (f"{SEED}, choice (rule card): Crowns rank 10 by default, so Crown + Ace is 11, 8-9-Crown a run",
     "the Sea; Ace of Knots; the Mill; the Pact", "the Excuse", Rules(), 2 + 3),
    (f"{SEED}, choice (rule card): with face_ranks unranked a Crown counts in neither",
     "the Sea; Ace of Knots; the Mill; the Pact", "the Excuse", UNRANKED, 0),
    (f"{SEED}, choice (rule card): Courts pair with Courts, Crowns with Crowns either way",
     "the Consul; the Window; the Sea; the Bard", "the Excuse", UNRANKED, 4),
    (f"{SEED}, choice (rule card): excuse_melds lets the Excuse double a meld",
     "the Light Keeper; the Rite; the Excuse; the Pact", "the Mill", Rules(excuse_melds=True), 12),
]


@pytest.mark.parametrize("source, hand, top, rules, total", SHOWS, ids=[s[1] for s in SHOWS])
def test_show_examples(source, hand, top, rules, total):
    assert score_show(cards(hand), card(top), rules).total == total, source


# (source, suit attempt so far, items for its last card)
PLAYS = [
    (f"{SEED}: a sum of 11 in the suit attempt scores 1", "the Lunatic; the Forest", [("eleven", 1)]),
    (f"{SEED}: past 11 the sum is of no more use", "the Lunatic; the Forest; Ace of Suns", []),
    (f"{SEED}: consecutive cards of a rank pair", "the Lunatic; the Market", [("pair", 2)]),
    (f"{SEED}: three of a kind 6, and the three 6s hold every suit: a meld",
     "the Lunatic; the Market; the Penitent", [("set", 6), ("meld", 6)]),
    (f"{SEED}: a run of three consecutive cards in any order (no suit repeated)",
     "the Sailor; the Author; the Savage", [("run", 3)]),
    (f"{SEED}: a Pawn has no rank: it breaks a run", "the Author; the Harvest; the Savage", []),
]


@pytest.mark.parametrize("source, attempt, expected", PLAYS, ids=[p[1] for p in PLAYS])
def test_play_scores(source, attempt, expected):
    assert [(i.kind, i.points) for i in score_play(cards(attempt))] == expected, source


def test_examples_in_docstrings_run():
    import doctest

    import games.suitcases.scoring

    result = doctest.testmod(games.suitcases.scoring)
    assert result.attempted > 0 and result.failed == 0
