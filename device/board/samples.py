"""Example views of a cribbage game in every phase: the README pictures, the demo and the tests.

They have exactly the shape of the engine's ``view_for(state, seat)``, written out by hand.
"""

from __future__ import annotations

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


def play() -> JSON:
    return base(phase="play", dealer=0, turn=1, count=17, pile=["5H", "JD", "2C"], starter="5D",
                sides=sides(("Ann", 37, 31), ("Bob", 52, 44)),
                last={"side": 1, "seat": 1, "points": 2, "kind": "play", "say": "fifteen 2"})


def mid_game() -> JSON:
    return base(phase="discard", dealer=1, sides=sides(("Ann", 64, 58), ("Bob", 85, 76)))


def show() -> JSON:
    return base(phase="show", dealer=0, starter="5D", sides=sides(("Ann", 88, 79), ("Bob", 97, 88)),
                show={"seat": 1, "what": "hand", "cards": ["5H", "5S", "JD", "4C"], "starter": "5D",
                      "total": 9, "items": [
                          {"kind": "fifteen", "cards": ["5H", "JD"], "points": 2, "say": "fifteen 2"},
                          {"kind": "fifteen", "cards": ["5S", "JD"], "points": 2, "say": "fifteen 4"},
                          {"kind": "pair", "cards": ["5H", "5S"], "points": 2, "say": "pair 6"},
                          {"kind": "nobs", "cards": ["JD"], "points": 1, "say": "his nobs 7"}]},
                last={"side": 1, "seat": 1, "points": 9, "kind": "show", "say": "fifteen 4, pair 6, nobs 7"})


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
    return base(phase="play", dealer=1, turn=1, count=0, pile=[], starter="9C",
                sides=sides(("Ann", 23, 22), ("Bob", 30, 28)),
                last={"side": 0, "seat": 0, "points": 1, "kind": "go", "say": "go"})


def thirty_one() -> JSON:
    return base(phase="play", dealer=0, turn=0, count=31, pile=["10S", "JH", "6C", "5D"], starter="2H",
                sides=sides(("Ann", 48, 40), ("Bob", 71, 69)),
                last={"side": 1, "seat": 1, "points": 2, "kind": "31", "say": "31 for 2"})


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
