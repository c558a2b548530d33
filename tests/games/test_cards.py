"""Card notation: lossless text forms, decks, and errors that quote the bad input."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import (
    DECKTET,
    FRENCH_52,
    FRENCH_54,
    ITALIAN_40,
    Card,
    CardCountError,
    CardError,
    DecktetCard,
    DuplicateCardError,
    PegpiError,
    parse_cards,
    parse_decktet,
)


@pytest.mark.parametrize(
    "text, rank, suit, printed",
    [
        ("10H", 10, "H", "10H"),
        ("TH", 10, "H", "10H"),
        ("th", 10, "H", "10H"),
        ("AS", 1, "S", "AS"),
        ("QD", 12, "D", "QD"),
        ("KC", 13, "C", "KC"),
        (" 5c ", 5, "C", "5C"),
        ("RJ", 0, "R", "RJ"),
        ("BJ", 0, "B", "BJ"),
    ],
)
def test_parse_and_print(text, rank, suit, printed):
    card = Card.parse(text)
    assert (card.rank, card.suit) == (rank, suit)
    assert str(card) == printed
    assert repr(card) == f"Card.parse({printed!r})"


@given(st.sampled_from(FRENCH_54))
def test_every_card_round_trips(card):
    assert Card.parse(str(card)) == card
    assert Card.parse(str(card).lower()) == card
    assert eval(repr(card)) == card


@given(st.lists(st.sampled_from(FRENCH_52), min_size=1, max_size=10, unique=True))
def test_card_lists_round_trip(cards):
    text = " ".join(map(str, cards))
    assert parse_cards(text) == cards
    assert parse_cards(",".join(map(str, cards))) == cards


@pytest.mark.parametrize("bad", ["", "1H", "11H", "HX", "5X", "JOKER", "10", "AH5", "0S", "KK"])
def test_bad_notation_names_the_text(bad):
    with pytest.raises(CardError) as err:
        Card.parse(bad)
    assert repr(bad) in str(err.value)
    assert isinstance(err.value, ValueError) and isinstance(err.value, PegpiError)


def test_non_text_is_refused():
    with pytest.raises(CardError):
        Card.parse(5)  # type: ignore[arg-type]


def test_duplicates_and_counts_are_refused_with_the_input_quoted():
    with pytest.raises(DuplicateCardError, match="'5H' is given twice"):
        parse_cards("5H 5C 5H")
    with pytest.raises(CardCountError, match="need 4 cards, got 3: 5H 5C 5S"):
        parse_cards("5H 5C 5S", 4, what="a hand")


def test_decks():
    assert len(FRENCH_52) == len(set(FRENCH_52)) == 52
    assert len(FRENCH_54) == 54 and Card.parse("RJ") in FRENCH_54
    assert len(ITALIAN_40) == 40
    assert {c.rank for c in ITALIAN_40} == {1, 2, 3, 4, 5, 6, 7, 11, 12, 13}
    with pytest.raises(CardError, match="'8H' is not in this game's deck"):
        parse_cards("AH 8H", deck=ITALIAN_40)


def test_decktet_deck_facts():
    assert len(DECKTET) == 45
    excuse = DecktetCard.parse("Excuse")
    assert excuse.rank == "Excuse" and excuse.suits == ()
    assert sum(1 for c in DECKTET if c.rank == "Ace") == 6
    assert all(len(c.suits) == 3 for c in DECKTET if c.rank in ("Pawn", "Court"))
    assert all(len(c.suits) == 2 for c in DECKTET if c.rank.isdigit())
    # every suit is on 14 cards: its ace, one card of each rank 2-9, two pawns, two courts, its crown
    for suit in ("Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots"):
        assert sum(suit in c.suits for c in DECKTET) == 14


@pytest.mark.parametrize(
    "text, name",
    [("the Author", "the Author"), ("Author", "the Author"), ("author", "the Author"),
     ("Ace of Moons", "Ace of Moons"), ("ace of  moons", "Ace of Moons"), ("Excuse", "the Excuse"),
     ("the Chance Meeting", "the Chance Meeting")],
)
def test_decktet_names(text, name):
    card = DecktetCard.parse(text)
    assert str(card) == name
    assert DecktetCard.parse(str(card)) == card


@given(st.sampled_from(DECKTET))
def test_decktet_round_trip(card):
    assert DecktetCard.parse(str(card)) == card
    assert eval(repr(card)) == card


def test_decktet_errors_quote_the_text():
    with pytest.raises(CardError, match="'the Auther' is not a Decktet card"):
        DecktetCard.parse("the Auther")
    with pytest.raises(DuplicateCardError, match="'Author' is given twice"):
        parse_decktet("the Author, Author")
    with pytest.raises(CardCountError):
        parse_decktet("the Author; the Sea", 3)
