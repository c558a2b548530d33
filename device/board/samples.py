"""Example views of a cribbage game in every phase: the README pictures, the demo and the tests.

They are the engine's typed views (:mod:`games.view`), written out by hand.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from games.view import (
    Counted,
    LastScore,
    LayoutView,
    PeggingView,
    ScoreTable,
    ShowCount,
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


def play() -> PeggingView:
    return base(phase="play", dealer=0, turn=1, count=17, pile=("5H", "JD", "2C"), starter="5D",
                sides=sides(("Ann", 37, 31), ("Bob", 52, 44)), last=last(1, 2, "play", "fifteen 2"))


def mid_game() -> PeggingView:
    return base(phase="discard", dealer=1, sides=sides(("Ann", 64, 58), ("Bob", 85, 76)))


def show() -> PeggingView:
    return base(phase="show", dealer=0, starter="5D", sides=sides(("Ann", 88, 79), ("Bob", 97, 88)),
                show=ShowCount(seat=1, what="hand", cards=("5H", "5S", "JD", "4C"), starter="5D",
                               total=9, claimed=9, items=(
                                   Counted("fifteen", ("5H", "JD"), 2, "fifteen 2"),
                                   Counted("fifteen", ("5S", "JD"), 2, "fifteen 4"),
                                   Counted("pair", ("5H", "5S"), 2, "pair 6"),
                                   Counted("nobs", ("JD",), 1, "his nobs 7"))),
                last=last(1, 9, "show", "fifteen 4, pair 6, nobs 7"))


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
    return base(phase="play", dealer=1, turn=1, count=0, pile=(), starter="9C",
                sides=sides(("Ann", 23, 22), ("Bob", 30, 28)), last=last(0, 1, "go", "go"))


def thirty_one() -> PeggingView:
    return base(phase="play", dealer=0, turn=0, count=31, pile=("10S", "JH", "6C", "5D"), starter="2H",
                sides=sides(("Ann", 48, 40), ("Bob", 71, 69)), last=last(1, 2, "31", "31 for 2"))


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
