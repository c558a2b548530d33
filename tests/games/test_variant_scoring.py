"""Worked examples of the cribbage variants' scoring, one row per example with its source.

Sources: seed 003 (Parlett's notes on the variants), seed 004 (Revised Cribbage), Cotton's
Compleat Gamester (1674) for Costly Colours; rows marked "counted" were counted by hand from
the rules as the rule cards state them."""

import pytest

from games import new_game
from games.cards import Card, parse_cards
from games.cribbage.costly import colours, score_costly_hand
from games.cribbage.noddy import NODDY_PLAY, score_noddy_hand
from games.cribbage.revised import REVISED_SHOW, revised_play_rules
from games.cribbage.scoring import score_play, score_show
from games.errors import CardCountError


def kinds(score, kind):
    return [i for i in score.items if i.kind == kind]


# ----------------------------------------------------------------- Revised Cribbage (seed 004)

# (source, hand, starter, kind, how many items of that kind, their points)
REVISED_SHOW_ROWS = [
    ("seed 004: QQKA and an ace cut: four runs of three (cyclic)", "QS QH KD AC", "AD", "run", 4, 12),
    ("seed 004: 4567 and a 3 cut: three runs of three", "4S 5H 6D 7C", "3D", "run", 3, 9),
    ("seed 004: 4556 and a 5: four fifteens", "4S 5H 5D 6C", "5C", "fifteen", 4, 8),
    ("seed 004: 6788 and a queen: two 31s", "6S 7H 8D 8C", "QD", "thirty-one", 2, 4),
    ("seed 004: QQKK and an ace: four 31s count 8", "QS QH KD KC", "AD", "thirty-one", 4, 8),
    ("seed 004: any four of the five in suit count 4", "2H 6H 9H KC", "4H", "flush", 1, 4),
    ("seed 004: all five in suit count 8", "2H 6H 9H KH", "4H", "flush", 1, 8),
    ("seed 004: K-A-2 is a run", "KS AH 2D 7C", "9D", "run", 1, 3),
    ("seed 004: his nob in the count", "JD 4S 9C 8H", "2D", "nob", 1, 1),
]


@pytest.mark.parametrize("source,hand,starter,kind,count,points", REVISED_SHOW_ROWS,
                         ids=[r[0] for r in REVISED_SHOW_ROWS])
def test_revised_show(source, hand, starter, kind, count, points):
    score = score_show(parse_cards(hand), Card.parse(starter), rules=REVISED_SHOW)
    items = kinds(score, kind)
    assert len(items) == count
    assert sum(i.points for i in items) == points


def test_revised_crib_flush_counts_like_a_hand():
    # seed 004: "if any 4 of the five cards are of the same suit this counts 4" - hand and crib alike
    hand, starter = parse_cards("2H 6H 9H KC"), Card.parse("4H")
    assert kinds(score_show(hand, starter, crib=True, rules=REVISED_SHOW), "flush")[0].points == 4


# seed 004's "really extreme example": 4 6 5 3 2 K A, all hearts. The example's own points
# leave out the flushes its rule 6 describes; with flushes in the play (the rule text, our
# default) each card from the fourth on also scores a flush of that many cards.
EXTREME = "4H 6H 5H 3H 2H KH AH"
EXTREME_AS_PRINTED = [0, 0, 5, 4, 5, 0, 9]  # seed 004, as the example counts it
EXTREME_WITH_FLUSHES = [0, 0, 5, 4 + 4, 5 + 5, 0 + 6, 9 + 7]  # counted: + flush of 4, 5, 6, 7


@pytest.mark.parametrize("flushes,expected", [(False, EXTREME_AS_PRINTED), (True, EXTREME_WITH_FLUSHES)],
                         ids=["as-the-example-counts", "as-the-rule-text-says"])
def test_revised_extreme_play_example(flushes, expected):
    cards = parse_cards(EXTREME)
    rules = revised_play_rules(flushes)
    got = [sum(i.points for i in score_play(cards[: k + 1], rules)) for k in range(len(cards))]
    assert got == expected
    assert sum(got) == (23 if not flushes else 45)


def test_revised_flushes_option_reaches_the_game():
    assert new_game("revised", 2).play_rules.flushes is True
    assert new_game("revised", 2, {"play_flushes": False}).play_rules.flushes is False


# ----------------------------------------------------------------- Noddy (seed 003)

# (source, hand, turn-up, hand_runs, kind, points of that kind)
NODDY_HAND_ROWS = [
    ("seed 003 table: pair 2", "7S 7H 2C", "KD", "table", "pair", 2),
    ("seed 003 table: pair royal 6", "7S 7H 7C", "KD", "table", "pair", 6),
    ("seed 003 table: double pair royal 12", "9S 9H 9C", "9D", "table", "pair", 12),
    ("seed 003 table: fifteen 2", "7S 8H 2C", "QD", "table", "fifteen", 2),
    ("seed 003 table: twenty-five 2 (Q K 3 2)", "QS KH 3C", "2D", "table", "twenty-five", 2),
    ("seed 003 table: run of three as printed (1)", "2S 3H 4C", "QD", "table", "run", 1),
    ("seed 003 table: run of four as printed (2)", "2S 3H 4C", "5D", "table", "run", 2),
    ("other descriptions: run of three 3", "2S 3H 4C", "QD", "per-card", "run", 3),
    ("other descriptions: run of four 4", "2S 3H 4C", "5D", "per-card", "run", 4),
    ("seed 003 table: flush of three 3", "2S 6S 9S", "QD", "table", "flush", 3),
    ("seed 003 table: flush of four 4", "2S 6S 9S", "QS", "table", "flush", 4),
    ("seed 003: Knave Noddy, the jack of the turn-up's suit, 1", "JD 4S 8C", "2D", "table", "noddy", 1),
    ("seed 003: no Knave Noddy in hand when a jack is turned", "JD 4S 8C", "JS", "table", "noddy", 0),
]


@pytest.mark.parametrize("source,hand,turnup,hand_runs,kind,points", NODDY_HAND_ROWS,
                         ids=[r[0] for r in NODDY_HAND_ROWS])
def test_noddy_hand(source, hand, turnup, hand_runs, kind, points):
    score = score_noddy_hand(parse_cards(hand), Card.parse(turnup), hand_runs)
    assert sum(i.points for i in kinds(score, kind)) == points


# seed 003's play-off example: 6 4 7 then 5 pegs 4 for the run; with clubs 4 + 3 for the flush.
NODDY_PLAY_ROWS = [
    ("seed 003: 6 4 7 then 5: run of four", "6H 4D 7S 5C", 4),
    ("seed 003: ... then a club: run 4 and three successive clubs 3", "6H 4C 7C 5C", 7),
    ("seed 003: making 25 pegs 2", "10H 10D 5S", 2),
    ("seed 003: making 15 pegs 2", "10H 5S", 2),
    ("seed 003: making 31 pegs 2", "10H 10D 9S 2C", 2),
    ("seed 003: runs over four count 1 a card", "2H 3S 4D 5C 6H", 5),
]


@pytest.mark.parametrize("source,pile,points", NODDY_PLAY_ROWS, ids=[r[0] for r in NODDY_PLAY_ROWS])
def test_noddy_play(source, pile, points):
    assert sum(i.points for i in score_play(parse_cards(pile), NODDY_PLAY)) == points


# ----------------------------------------------------------------- Costly Colours

COSTLY_ROWS = [
    # Cotton (1674): the eldest's 5 4 8 of hearts with the knave of hearts turned: "Costly Colours" 6
    ("Cotton 1674: four of one suit, costly colours 6", "5H 4H 8H", "JH", "colours", 6),
    ("Cotton 1674: the deuce of the deck card's suit 4", "2H 7C 9H", "JH", "deuce", 4),
    ("Cotton 1674: three of a suit with the deck card 3", "2H 7C 9H", "JH", "colours", 3),
    ("Cotton 1674: a pair 2", "7S 7H KC", "4D", "pair", 2),
    ("Cotton 1674: pair royal 9", "7S 7H 7C", "4D", "pair", 9),
    ("Cotton 1674: a knave 2", "JS 4D 8C", "3H", "knave", 2),
    ("Cotton 1674: the right knave 4", "JH 4D 8C", "3H", "knave", 4),
    ("Cotton 1674: a fifteen of three cards scores 3", "4S 5D 6C", "8H", "fifteen", 3),
    ("Cotton 1674: twenty-five of three cards scores 3", "KS QD 5C", "3H", "twenty-five", 3),
    ("Cotton 1674: 31 in hand with the deck card scores 4", "KS QD 8C", "3H", "thirty-one", 4),
    ("seed 003: ace as 11 is better here: A+4 = 15 (2) and A+4+K = 25 (3)", "AS 4D 8C", "KH", "fifteen", 2),
    ("seed 003: ... and the twenty-five of the same reading", "AS 4D 8C", "KH", "twenty-five", 3),
]


@pytest.mark.parametrize("source,hand,deck,kind,points", COSTLY_ROWS, ids=[r[0] for r in COSTLY_ROWS])
def test_costly_hand(source, hand, deck, kind, points):
    score = score_costly_hand(parse_cards(hand), Card.parse(deck))
    assert sum(i.points for i in kinds(score, kind)) == points


COLOUR_LADDER = [
    ("four of one suit", "2H 5H 9H KH", 6),
    ("four red, three of a suit", "2H 5H 9H KD", 5),
    ("four red, two and two", "2H 5H 9D KD", 4),
    ("three of a suit", "2H 5H 9H KS", 3),
    ("three of a colour", "2H 5D 9H KS", 2),
    ("two and two colours", "2H 5D 9S KS", 0),
]


@pytest.mark.parametrize("source,cards,points", COLOUR_LADDER, ids=[r[0] for r in COLOUR_LADDER])
def test_costly_colour_ladder(source, cards, points):
    assert sum(i.points for i in colours(parse_cards(cards))) == points


# ----------------------------------------------------------------- seven-card and patience

def test_seven_card_hand_of_five_with_its_flush():
    # counted: 15s 3+5+7, 6+9, 5+K (6); run 5-6-7 (3); five hearts and a heart starter (6) = 15
    game = new_game("cribbage7", 2)
    [(label, score)] = game.score_cards("3H 5H 6H 7H 9H".split(), "KH")
    assert label == "hand"
    assert kinds(score, "flush")[0].points == 6
    assert score.total == 15


@pytest.mark.parametrize("name,cards", [
    ("cribbage7", "5H 5C 5S JD"), ("cribbage3", "5H 5C 5S"), ("cribbage4", "5H 5C 5S JD 4C"),
    ("revised", "5H 5C 5S"), ("noddy", "5H 5C 5S JD"), ("costly", "5H 5C"), ("patience", "5H 5C 5S JD"),
])
def test_wrong_number_of_cards_is_refused_with_a_reason(name, cards):
    game = new_game(name, new_game_players(name))
    with pytest.raises(CardCountError, match="cards"):
        game.score_cards(cards.split(), "2D")


def new_game_players(name):
    from games import get_game

    return get_game(name).spec.players[0]


def test_patience_scores_every_row_and_column():
    # counted by hand in seeds/patience.md
    game = new_game("patience", 1)
    lines = game.score_cards("5H 5C 5S JD AS 2S 3S 4S 6H 7H 8H 9H KC QC 10C 9C".split(), "5D")
    assert [label for label, _ in lines] == [
        "row 1", "row 2", "row 3", "row 4", "column 1", "column 2", "column 3", "column 4"]
    assert [s.total for _, s in lines] == [29, 11, 13, 10, 6, 6, 6, 5]


def test_patience_needs_the_starter():
    square = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AH 2H 3H".split()
    with pytest.raises(CardCountError, match="starter"):
        new_game("patience", 1).score_cards(square, None)


@pytest.mark.parametrize("module", ["noddy", "costly", "patience", "scoring"])
def test_the_examples_in_the_docstrings_run(module):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(f"games.cribbage.{module}"))
    assert result.attempted > 0 and result.failed == 0
