"""`pegpi games`, `pegpi score`, `pegpi replay` and `pegpi bench cribbage-shows`."""

from __future__ import annotations

import argparse
import csv
import json
import re
from importlib import resources
from typing import Any

from games import get_game, registered_games
from games.cribbage.census import TOTAL_SHOWS, census
from games.engine import ScoreRequest
from games.records import replay


def register(commands: Any, benches: Any) -> None:
    p = commands.add_parser("games", help="list the games pegpi knows")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_games)

    p = commands.add_parser(
        "score",
        help="count a hand: pegpi score cribbage 5H 5C 5S JD --starter 5D",
        description="Count a hand (or crib) with its starter and say the breakdown; for beggar, "
                    "play a known deal out (pegpi score beggar ---AJ--Q... -----A...).",
    )
    # A Beggar stack starts with '-' as often as not ("---AJ--Q"): words of the notation are read as
    # arguments, not options (argparse's test for a negative number is the hook it offers for that).
    p._negative_number_matcher = re.compile(r"^-[-0-9A-Za-z]*$")
    p.add_argument("game", help="game name, e.g. cribbage, cribbage5, bhargage, patience, beggar")
    p.add_argument("cards", nargs="+",
                   help="the cards of the hand (Decktet cards by name, quoted); for beggar, the stacks "
                        "in the notation ('-' an ordinary card, J Q K A the pay cards, top card first)")
    p.add_argument("--starter", help="the starter (turn-up) card")
    p.add_argument("--crib", action="store_true", help="count as the crib")
    p.add_argument("--lowest", action="store_true",
                   help="each word is a hand (2D,2S,9H): say which is lowest (ricochet)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_score)

    p = commands.add_parser("replay", help="run a game record and print the scoring")
    p.add_argument("record", help="a game record (JSON file)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_replay)

    b = benches.add_parser("cribbage-shows", help="count all 12,994,800 shows as hand and crib")
    b.add_argument("--json", action="store_true", help="print JSON")
    b.set_defaults(func=cmd_bench_shows)


def cmd_games(args: argparse.Namespace) -> int:
    specs = registered_games()
    if args.json:
        print(json.dumps([s.to_json() for s in specs], indent=2))
        return 0
    rows = [(s.name, s.title, _players(s.players), s.summary) for s in specs]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    for name, title, players, summary in rows:
        print(f"{name:{widths[0]}}  {title:{widths[1]}}  {players:{widths[2]}}  {summary}")
    return 0


def _players(counts: tuple[int, ...]) -> str:
    """``(1,)`` -> "1 player"; ``(2, 3, 4)`` -> "2-4 players"; ``(2, 4)`` -> "2 or 4 players"."""
    if len(counts) == 1:
        return f"{counts[0]} player{'s' if counts[0] != 1 else ''}"
    if list(counts) == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}-{counts[-1]} players"
    return f"{', '.join(map(str, counts[:-1]))} or {counts[-1]} players"


def cmd_score(args: argparse.Namespace) -> int:
    request = ScoreRequest(tuple(args.cards), args.starter, args.crib, args.json, args.lowest)
    print(get_game(args.game).score_command(request))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    result = replay(args.record)
    if args.json:
        print(json.dumps(result.to_json()))
        return 0
    names = result.game.side_names()
    for event in result.events:
        print(f"{names[event.side]:>12} +{event.points:<3} {event.kind:7} {event.say()}")
    print()
    for name, score in zip(names, result.state.scores, strict=True):
        print(f"{name:>12} {score}")
    print(f"{'':>12} {result.state.result_text()}")
    return 0


def published_distribution() -> dict[int, tuple[int, int]]:
    text = resources.files("games").joinpath("data/cribbage_show_distribution.csv").read_text()
    return {int(r["score"]): (int(r["hand_count"]), int(r["crib_count"])) for r in csv.DictReader(text.splitlines())}


def cmd_bench_shows(args: argparse.Namespace) -> int:
    result = census()
    published = published_distribution()
    hand_ok = all(result.hand.get(s, 0) == h for s, (h, _) in published.items()) and \
        sum(result.hand.values()) == TOTAL_SHOWS
    crib_ok = all(result.crib.get(s, 0) == c for s, (_, c) in published.items()) and \
        sum(result.crib.values()) == TOTAL_SHOWS
    if args.json:
        print(json.dumps({
            "shows": result.shows, "seconds": round(result.seconds, 3), "groups": result.groups,
            "hand": {str(k): v for k, v in sorted(result.hand.items())},
            "crib": {str(k): v for k, v in sorted(result.crib.items())},
            "hand_matches_published": hand_ok, "crib_matches_published": crib_ok,
        }))
    else:
        print(f"{'score':>5} {'hand':>10} {'crib':>10}")
        for s in range(30):
            print(f"{s:>5} {result.hand.get(s, 0):>10} {result.crib.get(s, 0):>10}")
        print(f"shows counted: {result.shows:,} as hand and as crib ({result.groups:,} distinct groups scored)")
        print(f"hand histogram matches published: {'yes' if hand_ok else 'NO'}")
        print(f"crib histogram matches published: {'yes' if crib_ok else 'NO'}")
        print(f"time: {result.seconds:.2f} s (budget 30 s)")
    return 0 if hand_ok and crib_ok else 1
