"""Example views of a cribbage game in every phase: the README pictures, the demo and the tests.

They are the engine's typed views (:mod:`games.view`). Every one that shows a score (a count, a
show, the last points pegged) is the engine's own view after a real deal played through it, only
moved along the board (:func:`placed`): no count is written by hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from games.jsontypes import JSONObject
from games.view import (
    LastScore,
    LayoutView,
    PeggingView,
    ScoreTable,
    Side,
    SkunkLine,
    TableView,
)

SKUNKS = (SkunkLine("skunk", 91), SkunkLine("double skunk", 61))


def base(**changes: Any) -> PeggingView:
    """A two-handed cribbage view at the deal, with ``changes`` (field=value) made to it."""
    view = PeggingView(
        game="cribbage", title="Cribbage", players=("Ann", "Bob"), options={}, pegged=True,
        sides=sides(("Ann", 0, 0), ("Bob", 0, 0)), target=121, board=121, start=0, skunk_lines=SKUNKS,
        phase="deal", prompt="", dealer=0, turn=None, count=None, pile=(), starter=None, show=None,
        last=None, winner=None, loser=None, result=None, message=None, table=None, seat=None, actions=0,
    )
    return replace(view, **changes)


def sides(*scores: tuple[str, int, int]) -> tuple[Side, ...]:
    """One side a seat, from (name, score, rear) each."""
    return tuple(Side(name, (i,), score, rear) for i, (name, score, rear) in enumerate(scores))


def last(side: int, points: int, kind: str, say: str) -> LastScore:
    return LastScore(side=side, seat=side, points=points, kind=kind, say=say)


def start() -> PeggingView:
    return base(phase="deal")


CUTS: list[JSONObject] = [{"act": "cut", "player": 0, "card": "3H"},
                          {"act": "cut", "player": 1, "card": "KS"}]  # Ann deals

#: A deal with runs in the play, a 31, and Bob's hand 5H 5S JD 4C with the 5D turned.
SHOW_DEAL: list[JSONObject] = [
    *CUTS,
    {"act": "deal", "dealer": 0, "hands": [["AC", "2C", "3C", "AD", "KH", "QH"],
                                           ["5H", "5S", "JD", "4C", "9S", "8H"]]},
    {"act": "discard", "player": 0, "cards": ["KH", "QH"]},
    {"act": "discard", "player": 1, "cards": ["9S", "8H"]},
    {"act": "starter", "card": "5D"},
]
SHOW_PLAY = [(1, "4C"), (0, "3C"), (1, "5H"), (0, "2C"), (1, "5S"), (0, "AC"), (1, "JD"), (0, "AD")]

#: A deal with a 31 and a go.
GOES: list[JSONObject] = [
    *CUTS,
    {"act": "deal", "dealer": 0, "hands": [["JH", "5D", "9C", "7H", "AS", "QS"],
                                           ["10S", "6C", "KC", "8D", "2D", "3D"]]},
    {"act": "discard", "player": 0, "cards": ["AS", "QS"]},
    {"act": "discard", "player": 1, "cards": ["2D", "3D"]},
    {"act": "starter", "card": "2H"},
    *({"act": "play", "player": p, "card": c}
      for p, c in [(1, "10S"), (0, "JH"), (1, "6C"), (0, "5D"), (1, "KC"), (0, "9C"), (1, "8D")]),
]


def played(actions: Sequence[JSONObject]) -> PeggingView:
    """The engine's view (a spectator's) after ``actions`` of a two-hand cribbage game."""
    from games.engine import new_game

    state = new_game("cribbage", ["Ann", "Bob"], {}).new_initial_state()
    for action in actions:
        state = state.apply_json(action)
    view = state.view_for(None)
    assert isinstance(view, PeggingView)
    return view


def placed(view: PeggingView, *pegs: tuple[int, int]) -> PeggingView:
    """``view`` later in a game: each side's pegs moved on by its (points before this deal, rear
    peg for a side that has not pegged yet this deal), so the points of the deal stay the engine's."""
    moved = tuple(
        replace(side, score=side.score + before, rear=side.rear + before if side.score > 0 else rear)
        for side, (before, rear) in zip(view.sides, pegs, strict=True)
    )
    return replace(view, sides=moved)


def _plays(cards: Sequence[tuple[int, str]]) -> list[JSONObject]:
    return [{"act": "play", "player": p, "card": c} for p, c in cards]


def play() -> PeggingView:
    """Ann's 2C makes a run of 4 (4C 3C 5H 2C) at 14; Bob to play."""
    return placed(played([*SHOW_DEAL, *_plays(SHOW_PLAY[:4])]), (33, 31), (49, 44))


def mid_game() -> PeggingView:
    return base(phase="discard", dealer=1, sides=sides(("Ann", 64, 58), ("Bob", 85, 76)))


def show() -> PeggingView:
    """Bob's hand 5H 5S JD 4C with the 5D: fifteen 8, pair royal 14, his nob 15."""
    hand = {"act": "show", "player": 1, "cards": ["5H", "5S", "JD", "4C"]}
    return placed(played([*SHOW_DEAL, *_plays(SHOW_PLAY), hand]), (84, 79), (80, 88))


def four_players() -> PeggingView:
    names = ("Ann", "Bob", "Cy", "Di")
    return base(players=names, phase="play", dealer=2, turn=3, count=24, pile=("7S", "8H", "9D"),
                starter="QC", sides=sides(("Ann", 45, 40), ("Bob", 61, 59), ("Cy", 38, 32), ("Di", 70, 62)))


def three_players() -> PeggingView:
    return base(players=("Ann", "Bob", "Cy"), phase="play", dealer=2, turn=0, count=12, pile=("2S", "QH"),
                starter="4C", sides=sides(("Ann", 20, 14), ("Bob", 33, 30), ("Cy", 27, 27)))


def partners() -> PeggingView:
    return base(players=("Ann", "Bob", "Cy", "Di"), phase="play", dealer=3, turn=2, count=21,
                pile=("10S", "5H", "6D"), starter="AS",
                sides=(Side("Ann & Cy", (0, 2), 77, 70), Side("Bob & Di", (1, 3), 64, 60)))


def over_skunk() -> PeggingView:
    return base(phase="over", dealer=1, sides=sides(("Ann", 121, 113), ("Bob", 84, 80)),
                winner=0, result="skunk")


def bhargage() -> PeggingView:
    return base(game="bhargage", title="Bhargage", target=111, board=121, start=0, phase="play",
                dealer=1, turn=0, count=9, pile=("4S", "5H"), starter="KD",
                sides=sides(("Ann", 66, 60), ("Bob", 58, 55)), skunk_lines=())


def bhargage_start10() -> PeggingView:
    return base(game="bhargage", title="Bhargage", target=121, board=121, start=10, phase="deal",
                dealer=0, sides=sides(("Ann", 10, 10), ("Bob", 10, 10)), skunk_lines=())


def go() -> PeggingView:
    """Ann cannot play on 27 and says go; Bob, out of cards, pegs 1 for the last card."""
    return placed(played([*GOES, {"act": "go", "player": 0}]), (21, 20), (29, 28))


def thirty_one() -> PeggingView:
    """Ann's 5D makes 31 on 10S JH 6C: 2 for her, and the count starts again with Bob."""
    return placed(played(GOES[:-3]), (46, 40), (71, 69))


def question() -> PeggingView:
    return base(phase="play", dealer=0, turn=1, count=10, pile=("10S",), starter="2H",
                sides=sides(("Ann", 12, 10), ("Bob", 8, 6)), message="Is this the 5H? press OK")


def table() -> TableView:
    """A game kept on a score sheet (Gin Rummy)."""
    return LayoutView(
        game="gin", title="Gin Rummy", players=("Ann", "Bob"), options={}, pegged=False,
        sides=sides(("Ann", 55, 43), ("Bob", 39, 31)), target=100, phase="play", prompt="",
        last=None, winner=None, loser=None, seat=None, actions=0,
        table=ScoreTable(columns=("", "Ann", "Bob"),
                         rows=(("Hand 1", "12", "0"), ("Hand 2", "0", "31"), ("Hand 3", "25", "0"),
                               ("Hand 4", "0", "8"), ("Hand 5", "18", "0")),
                         totals=("Total", "55", "39")),
    )


ALL = {
    "start": start, "mid-game": mid_game, "play": play, "show": show, "four-players": four_players,
    "three-players": three_players, "partners": partners,
    "over-skunk": over_skunk, "bhargage": bhargage, "bhargage-start10": bhargage_start10, "go": go,
    "thirty-one": thirty_one, "question": question, "table": table,
}
