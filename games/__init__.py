"""pegpi's rules engine: cards, decks, the engine contract and one module per game.

Pure Python: no I/O, no hardware, no threads.

>>> from games import new_game, Card
>>> game = new_game("cribbage", ["Ann", "Bob"])
>>> game.score_hand([Card.parse(c) for c in "5H 5C 5S JD".split()], Card.parse("5D")).total
29
"""

from games.cards import FRENCH_52, FRENCH_54, ITALIAN_40, Card, parse_cards
from games.decktet import DECKTET, DecktetCard, parse_decktet
from games.engine import (
    Action,
    Game,
    Item,
    Option,
    Score,
    ScoreEvent,
    Spec,
    State,
    get_game,
    new_game,
    register,
    registered_games,
)
from games.errors import (
    CardCountError,
    CardError,
    DuplicateCardError,
    IllegalActionError,
    OptionError,
    PegpiError,
    RecordError,
    UnknownGameError,
    ViewError,
)
from games.view import TableView, view_from_json

__all__ = [
    "DECKTET",
    "FRENCH_52",
    "FRENCH_54",
    "ITALIAN_40",
    "Action",
    "Card",
    "CardCountError",
    "CardError",
    "DecktetCard",
    "DuplicateCardError",
    "Game",
    "IllegalActionError",
    "Item",
    "Option",
    "OptionError",
    "PegpiError",
    "RecordError",
    "Score",
    "ScoreEvent",
    "Spec",
    "State",
    "TableView",
    "UnknownGameError",
    "ViewError",
    "get_game",
    "new_game",
    "parse_cards",
    "parse_decktet",
    "register",
    "registered_games",
    "view_from_json",
]
