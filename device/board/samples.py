"""Example views of a cribbage game in every phase: the README pictures, the demo and the tests.

They have exactly the shape of the engine's ``view_for(state, seat)``. Every one that shows a
score (a count, a show, the last points pegged) is the engine's own view after a real deal
played through it, only moved along the board (:func:`placed`): no count is written by hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

JSON = dict[str, Any]

SKUNKS = [{"label": "skunk", "at": 91}, {"label": "double skunk", "at": 61}]


def base(**changes: Any) -> JSON:
    view: JSON = {
        "game": "cribbage", "title": "Cribbage", "players": ["Ann", "Bob"], "pegged": True,
        "sides": [{"name": "Ann", "seats": [0], "score": 0, "rear": 0},
                  {"name": "Bob", "seats": [1], "score": 0, "rear": 0}],
        "target": 121, "board": 121, "start": 0, "skunk_lines": SKUNKS,
        "phase": "deal", "dealer": 0, "turn": None, "count": None, "pile": [], "starter": None,
        "show": None, "last": None, "winner": None, "result": None, "message": None, "table": None,
    }
    view.update(changes)
    return view


def sides(*scores: tuple[str, int, int]) -> list[JSON]:
    return [{"name": name, "seats": [i], "score": score, "rear": rear}
            for i, (name, score, rear) in enumerate(scores)]


def start() -> JSON:
    return base(phase="deal")


CUTS: list[JSON] = [{"act": "cut", "player": 0, "card": "3H"}, {"act": "cut", "player": 1, "card": "KS"}]  # Ann deals

#: A deal with runs in the play, a 31, and Bob's hand 5H 5S JD 4C with the 5D turned.
SHOW_DEAL: list[JSON] = [*CUTS,
            {"act": "deal", "dealer": 0, "hands": [["AC", "2C", "3C", "AD", "KH", "QH"],
                                                   ["5H", "5S", "JD", "4C", "9S", "8H"]]},
            {"act": "discard", "player": 0, "cards": ["KH", "QH"]},
            {"act": "discard", "player": 1, "cards": ["9S", "8H"]},
            {"act": "starter", "card": "5D"}]
SHOW_PLAY = [(1, "4C"), (0, "3C"), (1, "5H"), (0, "2C"), (1, "5S"), (0, "AC"), (1, "JD"), (0, "AD")]

#: A deal with a 31 and a go.
GOES: list[JSON] = [*CUTS,
        {"act": "deal", "dealer": 0, "hands": [["JH", "5D", "9C", "7H", "AS", "QS"],
                                               ["10S", "6C", "KC", "8D", "2D", "3D"]]},
        {"act": "discard", "player": 0, "cards": ["AS", "QS"]},
        {"act": "discard", "player": 1, "cards": ["2D", "3D"]},
        {"act": "starter", "card": "2H"},
        *({"act": "play", "player": p, "card": c}
          for p, c in [(1, "10S"), (0, "JH"), (1, "6C"), (0, "5D"), (1, "KC"), (0, "9C"), (1, "8D")])]


def played(actions: Sequence[JSON]) -> JSON:
    """The engine's view (a spectator's) after ``actions`` of a two-hand cribbage game."""
    from games.engine import new_game

    state = new_game("cribbage", ["Ann", "Bob"], {}).new_initial_state()
    for action in actions:
        state = state.apply_json(action)
    return state.view_for(None)


def placed(view: JSON, *pegs: tuple[int, int]) -> JSON:
    """``view`` later in a game: each side's pegs moved on by its (points before this deal, rear
    peg for a side that has not pegged yet this deal), so the points of the deal stay the engine's."""
    for side, (before, rear) in zip(view["sides"], pegs, strict=True):
        moved = side["score"] > 0
        side["score"] += before
        side["rear"] = side["rear"] + before if moved else rear
    return view


def _plays(cards: Sequence[tuple[int, str]]) -> list[JSON]:
    return [{"act": "play", "player": p, "card": c} for p, c in cards]


def play() -> JSON:
    """Ann's 2C makes a run of 4 (4C 3C 5H 2C) at 14; Bob to play."""
    return placed(played([*SHOW_DEAL, *_plays(SHOW_PLAY[:4])]), (33, 31), (49, 44))


def mid_game() -> JSON:
    return base(phase="discard", dealer=1, sides=sides(("Ann", 64, 58), ("Bob", 85, 76)))


def show() -> JSON:
    """Bob's hand 5H 5S JD 4C with the 5D: fifteen 8, pair royal 14, his nob 15."""
    hand = {"act": "show", "player": 1, "cards": ["5H", "5S", "JD", "4C"]}
    return placed(played([*SHOW_DEAL, *_plays(SHOW_PLAY), hand]), (84, 79), (80, 88))


def four_players() -> JSON:
    names = ["Ann", "Bob", "Cy", "Di"]
    return base(players=names, phase="play", dealer=2, turn=3, count=24, pile=["7S", "8H", "9D"],
                starter="QC", sides=sides(("Ann", 45, 40), ("Bob", 61, 59), ("Cy", 38, 32), ("Di", 70, 62)))


def three_players() -> JSON:
    return base(players=["Ann", "Bob", "Cy"], phase="play", dealer=2, turn=0, count=12, pile=["2S", "QH"],
                starter="4C", sides=sides(("Ann", 20, 14), ("Bob", 33, 30), ("Cy", 27, 27)))


def partners() -> JSON:
    return base(players=["Ann", "Bob", "Cy", "Di"], phase="play", dealer=3, turn=2, count=21,
                pile=["10S", "5H", "6D"], starter="AS",
                sides=[{"name": "Ann & Cy", "seats": [0, 2], "score": 77, "rear": 70},
                       {"name": "Bob & Di", "seats": [1, 3], "score": 64, "rear": 60}])


def over_skunk() -> JSON:
    return base(phase="over", dealer=1, sides=sides(("Ann", 121, 113), ("Bob", 84, 80)),
                winner=0, result="skunk")


def bhargage() -> JSON:
    return base(game="bhargage", title="Bhargage", target=111, board=121, start=0, phase="play",
                dealer=1, turn=0, count=9, pile=["4S", "5H"], starter="KD",
                sides=sides(("Ann", 66, 60), ("Bob", 58, 55)), skunk_lines=[])


def bhargage_start10() -> JSON:
    return base(game="bhargage", title="Bhargage", target=121, board=121, start=10, phase="deal",
                dealer=0, sides=sides(("Ann", 10, 10), ("Bob", 10, 10)), skunk_lines=[])


def go() -> JSON:
    """Ann cannot play on 27 and says go; Bob, out of cards, pegs 1 for the last card."""
    return placed(played([*GOES, {"act": "go", "player": 0}]), (21, 20), (29, 28))


def thirty_one() -> JSON:
    """Ann's 5D makes 31 on 10S JH 6C: 2 for her, and the count starts again with Bob."""
    return placed(played(GOES[:-3]), (46, 40), (71, 69))


def question() -> JSON:
    return base(phase="play", dealer=0, turn=1, count=10, pile=["10S"], starter="2H",
                sides=sides(("Ann", 12, 10), ("Bob", 8, 6)), message="Is this the 5H? press OK")


def table() -> JSON:
    return {"game": "gin", "title": "Gin Rummy", "players": ["Ann", "Bob"], "pegged": False,
            "phase": "play", "target": 100,
            "table": {"columns": ["", "Ann", "Bob"],
                      "rows": [["Hand 1", "12", "0"], ["Hand 2", "0", "31"], ["Hand 3", "25", "0"],
                               ["Hand 4", "0", "8"], ["Hand 5", "18", "0"]],
                      "totals": ["Total", "55", "39"]}}


ALL = {
    "start": start, "mid-game": mid_game, "play": play, "show": show, "four-players": four_players,
    "three-players": three_players, "partners": partners,
    "over-skunk": over_skunk, "bhargage": bhargage, "bhargage-start10": bhargage_start10, "go": go,
    "thirty-one": thirty_one, "question": question, "table": table,
}
