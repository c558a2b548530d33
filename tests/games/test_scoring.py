"""Cribbage scoring checked against the rule books, one row per worked example."""

from collections import defaultdict

import pytest

from games import Card, parse_cards
from games.cribbage.scoring import score_play, score_show

SEED_003 = "seed 003 (Penguin Book of Card Games), hands requiring care"

# The seed's table of five-card counts. "J!" is the jack of the starter's suit (his nob).
CARE_TABLE = [
    ("3 3 6 6 9", 14), ("7 7 7 A A", 20), ("5 5 J J J!", 21),
    ("J! Q Q Q K", 16), ("7 8 8 9 9", 20), ("5 5 5 10 10", 22),
    ("6 7 8 9 9", 16), ("7 7 7 8 8", 20), ("4 5 5 5 6", 23),
    ("2 6 7 7 8", 16), ("6 6 9 9 9", 20), ("5 5 5 J J!", 23),
    ("A A 2 2 3", 16), ("6 6 7 7 8", 20), ("7 7 7 7 A", 24),
    ("2 3 4 4 4", 17), ("3 3 4 4 5", 20), ("4 4 4 4 7", 24),
    ("5 5 J Q K", 17), ("3 3 6 6 6", 20), ("4 5 5 6 6", 24),
    ("3 3 3 6 6", 18), ("3 4 4 4 4", 20), ("6 7 7 8 8", 24),
    ("5 5 J! Q K", 18), ("7 7 7 8 9", 21), ("7 7 8 8 9", 24),
    ("3 3 4 5 5", 20), ("3 3 3 4 5", 21), ("5 5 5 5 10", 28),
    ("4 4 4 7 7", 20), ("4 5 6 6 6", 21), ("5 5 5 5 J!", 29),
]


def build_show(ranks: str) -> tuple[list[Card], Card]:
    """Give the ranks suits: no flush, the starter a non-jack, and only "J!" of the starter's suit."""
    tokens = ranks.split()
    starter_at = max(i for i, t in enumerate(tokens) if t not in ("J", "J!"))
    used: dict[str, set[str]] = defaultdict(set)
    starter_rank = tokens[starter_at]
    used[starter_rank].add("S")
    cards: list[Card | None] = [None] * 5
    cards[starter_at] = Card.parse(starter_rank + "S")
    cycle = "HDCS"
    for i, token in enumerate(tokens):
        if i == starter_at:
            continue
        rank = "J" if token == "J!" else token
        if token == "J!":
            suit = "S"
        else:
            options = [s for s in cycle[i % 4:] + cycle[: i % 4] if s not in used[rank]]
            if rank == "J":
                options = [s for s in options if s != "S"]
            suit = options[0]
        used[rank].add(suit)
        cards[i] = Card.parse(rank + suit)
    starter = cards[starter_at]
    hand = [c for i, c in enumerate(cards) if i != starter_at]
    assert starter is not None and all(hand)
    assert len({c.suit for c in hand}) > 1, "the example must not be a flush"
    return hand, starter  # type: ignore[return-value]


@pytest.mark.parametrize("ranks, total", CARE_TABLE, ids=[r for r, _ in CARE_TABLE])
def test_hands_requiring_care(ranks, total):
    """Source: """ + SEED_003
    hand, starter = build_show(ranks)
    assert score_show(hand, starter).total == total


@pytest.mark.parametrize(
    "hand, starter, crib, total, source",
    [
        ("5H 5C 5S JD", "5D", False, 29, "the 29 hand: seed 003 and the issue"),
        ("KH QH JH 10H", "5D", False, 16, "hand flush of four without the starter: seed 003"),
        ("KH QH JH 10H", "5H", False, 18, "fifteens 8, run 12, flush of five 17, nob 18: seed 003 rules"),
        ("KH QH JH 10H", "5D", True, 12, "crib flush needs all five cards: seed 003"),
        ("KH QH JH 10H", "5H", True, 18, "crib flush of five: seed 003 rules"),
        ("9S 10D JC QH", "AD", False, 4, "a run of four is not two runs of three: seed 002"),
        ("6C 7D 7H 8S", "KC", False, 12, "6-7-7-8: two runs of 3, two fifteens, a pair: seed 002"),
        ("KS JC 5D 5H", "AD", False, 10, "K J 5 5: four fifteens and a pair: seed 002"),
        ("2C 4D 6H 8S", "10C", False, 0, "nineteen: a hand that scores nothing"),
        ("JD 2C 4H 6S", "8D", False, 1, "his nob alone"),
    ],
)
def test_rule_book_hands(hand, starter, crib, total, source):
    assert score_show(parse_cards(hand), Card.parse(starter), crib=crib).total == total, source


def test_the_29_is_said_in_full():
    score = score_show(parse_cards("5H 5C 5S JD"), Card.parse("5D"))
    kinds = [i.kind for i in score.items]
    assert kinds.count("fifteen") == 8 and kinds.count("pair") == 1 and kinds.count("nob") == 1
    assert score.spoken().endswith("double pair royal 28, his nob 29")


def test_breakdown_items_add_up_and_name_their_cards():
    score = score_show(parse_cards("6C 7D 7H 8S"), Card.parse("KC"))
    assert sum(i.points for i in score.items) == score.total
    runs = [i for i in score.items if i.kind == "run"]
    assert len(runs) == 2 and all(len(r.cards) == 3 for r in runs)
    assert {str(c) for r in runs for c in r.cards} == {"6C", "7D", "7H", "8S"}
    assert score.spoken() == "fifteen 2, fifteen 4, pair 6, run of 3 is 9, run of 3 is 12"


def test_five_card_three_card_hand_flush():
    """Seed 003, Five-card Crib: a flush in hand counts 3, or 4 with the starter."""
    assert score_show(parse_cards("3H 7H 9H"), Card.parse("KC")).total == 3
    assert score_show(parse_cards("3H 7H 9H"), Card.parse("KH")).total == 4


# ------------------------------------------------------------------------------- the play

PLAY_EXAMPLES = [
    # (cards played in order, points scored by each card, source)
    ("4S 2D 3C 5H 6S", [0, 0, 3, 4, 5], "seed 002: 4-2-3-5-6, runs of 3, 4 and 5"),
    ("4S 2D 3C 4H 3S", [0, 0, 3, 3, 0], "seed 002: 4-2-3-4-3, the second 3 completes nothing"),
    ("4S 2D 6C 5H 3S", [0, 0, 0, 0, 5], "seed 002: 4-2-6-5-3, a run of 5 at the last card"),
    ("7S 8D", [0, 2], "fifteen 2"),
    ("KS KD KC", [0, 2, 6], "pair, then pair royal"),
    ("2S 2D 2C 2H", [0, 2, 6, 12], "double pair royal"),
    ("10S 5D 5C 5H 6S", [0, 2, 2, 6, 2], "fifteen, pair, pair royal, then 31 for 2"),
    ("10S KD 6C 5H", [0, 0, 0, 2], "31 for 2"),
]


@pytest.mark.parametrize("played, points, source", PLAY_EXAMPLES, ids=[p[2] for p in PLAY_EXAMPLES])
def test_play_scoring(played, points, source):
    cards = parse_cards(played)
    got = [sum(i.points for i in score_play(cards[: n + 1])) for n in range(len(cards))]
    assert got == points, source


def test_play_items_are_said_the_players_way():
    items = score_play(parse_cards("10S KD 6C 5H"))
    assert [(i.kind, i.points) for i in items] == [("thirty-one", 2)]
    from games.engine import spoken

    assert spoken(items) == "31 for 2"
    assert spoken(score_play(parse_cards("7S 8D"))) == "fifteen 2"
    assert spoken(score_play(parse_cards("3S 3D 3C"))) == "pair royal 6"
    assert spoken(score_play(parse_cards("4S 2D 3C"))) == "run of 3 for 3"
