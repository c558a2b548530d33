"""Whole games of Beggar My Neighbour, Egyptian Ratscrew and New Eleusis played by a random
player, as game records (for the random-playout tests and the simulated table).

Every action goes through ``State.apply``. The player keeps the real cards (the stacks, the
hands, the double pack of Eleusis) beside the engine, which usually sees cards only as they are
played; with ``known_hands=True`` the Beggar and Ratscrew deals carry the stacks.

>>> record = autoplay("beggar", seed=1)
>>> record["game"], record["actions"][0]["act"]
('beggar', 'deal')
"""

from __future__ import annotations

import json
import random
from collections import deque
from collections.abc import Callable
from typing import Any

from games.beggar import BeggarState
from games.cards import FRENCH_52, Card
from games.eleusis import EleusisState
from games.eleusis_rules import LIBRARY, judge, judge_sequence
from games.engine import new_game
from games.errors import IllegalActionError
from games.jsontypes import JSONObject
from games.pile import deal_sizes
from games.playouts import Driver, PlayoutRequest, Step, register_playout
from games.ratscrew import Ratscrew, RatscrewState
from games.records import to_record


def autoplay(name: str, players: list[str] | None = None, seed: int = 0, *, known_hands: bool = False,
             options: dict[str, Any] | None = None, each: Step | None = None, max_actions: int = 3000,
             slap_rate: float = 0.6, false_slap_rate: float = 0.05) -> JSONObject:
    """Play a game of ``name`` ("beggar", "ratscrew", "eleusis") with random choices; stops after
    ``max_actions`` (Beggar deals can be very long). ``each`` sees every state reached."""
    rng = random.Random(seed)
    default = ["Ann", "Bob", "Cy", "Di", "Ed"]
    if name in ("beggar", "ratscrew"):
        count = 2 if name == "beggar" else 3
        game = new_game(name, players or default[:count], options)
        driver = Driver(game, each)
        _pile_game(driver, rng, known_hands, max_actions, slap_rate, false_slap_rate)
    elif name == "eleusis":
        game = new_game(name, players or default, options)
        driver = Driver(game, each)
        _eleusis(driver, rng, max_actions)
    else:
        raise ValueError(f"no random player for {name!r}")
    return to_record(game, driver.actions)


#: actions a "deal" of a pile game stops after on the simulated table (a whole game can run to
#: thousands of cards; ``deals=None`` plays on to the end or the cap of ``autoplay``)
DEAL_ACTIONS = 80


@register_playout("beggar", "ratscrew", "eleusis")
def _playout(request: PlayoutRequest) -> JSONObject:
    cap = 3000 if request.deals is None else DEAL_ACTIONS * request.deals
    return autoplay(request.game, list(request.players), request.seed, known_hands=request.known_hands,
                    options=request.options, max_actions=cap)


# ---------------------------------------------------------------------------- the pile games


def _pile_game(driver: Driver, rng: random.Random, known: bool, max_actions: int,
               slap_rate: float, false_slap_rate: float) -> None:
    game = driver.game
    n = game.num_players
    pack = list(game.deck if isinstance(game, Ratscrew) else FRENCH_52)
    rng.shuffle(pack)
    dealer = rng.randrange(n)
    sizes = deal_sizes(len(pack), n, (dealer + 1) % n)
    stacks: list[deque[Card]] = []
    for size in sizes:
        stacks.append(deque(pack[:size]))
        del pack[:size]
    deal: JSONObject = {"act": "deal", "dealer": dealer}
    if known:
        deal["hands"] = [[str(c) for c in s] for s in stacks]
    driver.do(deal)
    slaps = isinstance(game, Ratscrew)
    while not driver.state.is_over and len(driver.actions) < max_actions:
        state = driver.state
        assert isinstance(state, BeggarState | RatscrewState)
        table = state.table
        assert table is not None
        if slaps and table.pile:
            assert isinstance(state, RatscrewState)
            candidates = [s for s in range(n) if s not in state.banned]
            if state.slappable() is not None and rng.random() < slap_rate:
                first = rng.choice(candidates)
                _give(driver, stacks, first, "slap")
                if rng.random() < 0.3 and not driver.state.is_over:
                    _give(driver, stacks, rng.choice(candidates), "slap")  # a slower hand, too late
                continue
            if rng.random() < false_slap_rate:
                _give(driver, stacks, rng.choice(candidates), "slap")
                continue
        if table.taker is not None:
            _give(driver, stacks, table.taker, "take")
            continue
        seat = table.turn
        assert seat is not None
        card = stacks[seat].popleft()
        driver.do({"act": "play", "player": seat, "card": str(card)})


def _give(driver: Driver, stacks: list[deque[Card]], seat: int, act: str) -> None:
    """A take or a slap: whoever ends up with the pile puts it under their real stack."""
    before = driver.state
    assert isinstance(before, BeggarState | RatscrewState) and before.table is not None
    pile = list(before.table.pile)
    sizes = list(before.table.sizes)
    driver.do({"act": act, "player": seat})
    after = driver.state
    assert isinstance(after, BeggarState | RatscrewState) and after.table is not None
    if pile and not after.table.pile:
        for other, size in enumerate(sizes):
            if after.table.sizes[other] - size == len(pile):
                stacks[other].extend(c for _, c in pile)
                break

# ---------------------------------------------------------------------------- New Eleusis


def _eleusis(driver: Driver, rng: random.Random, max_actions: int) -> None:
    game = driver.game
    n = game.num_players
    names = sorted(LIBRARY)
    while not driver.state.is_over and len(driver.actions) < max_actions:
        state = driver.state
        assert isinstance(state, EleusisState)
        if state.phase == "deal":
            if state.dealt and rng.random() < 0.15:
                driver.do({"act": "end"})
                break
            driver.do({"act": "deal"})
            _round(driver, rng, names, n, max_actions)


def _round(driver: Driver, rng: random.Random, names: list[str], n: int, max_actions: int) -> None:
    state = driver.state
    assert isinstance(state, EleusisState) and state.dealer is not None
    god = state.dealer
    example = LIBRARY[rng.choice(names)]
    rule = example.rule
    text = example.name if rng.random() < 0.5 else json.dumps(rule.to_json())
    driver.do({"act": "rule", "player": god, "rule": text})
    pack = [*FRENCH_52, *FRENCH_52]
    rng.shuffle(pack)
    hand_size = int(driver.game.options["hand"])
    hands: list[list[Card]] = [[] for _ in range(n)]
    for scientist in range(n):
        if scientist != god:
            hands[scientist] = [pack.pop() for _ in range(hand_size)]

    def draw(who: int, k: int) -> None:
        for _ in range(k):
            if not pack:
                pack.extend(FRENCH_52)
                rng.shuffle(pack)
            hands[who].append(pack.pop())

    driver.do({"act": "starter", "card": str(pack.pop())})
    while len(driver.actions) < max_actions:
        state = driver.state
        assert isinstance(state, EleusisState)
        if state.phase != "play" or state.dealer != god:
            return
        turn = state.turn
        assert turn is not None
        seat = turn
        hand = hands[seat]
        line = list(state.line)
        right = [c for c in hand if judge(rule, line, c)]
        roll = rng.random()
        if roll < 0.06:
            driver.do({"act": "noplay", "player": seat, "cards": [str(c) for c in hand]})
            kind, cards = "noplay", list(hand)
        else:
            k = 1 if roll < 0.8 or len(hand) < 2 else rng.randint(2, min(4, len(hand)))
            pick = rng.sample(right, 1) if right and rng.random() < 0.6 and k == 1 else rng.sample(hand, k)
            for c in pick:
                hand.remove(c)
            driver.do({"act": "play", "player": seat, "cards": [str(c) for c in pick]})
            kind, cards = "play", pick
        state = driver.state
        assert isinstance(state, EleusisState)
        if state.phase == "call":
            assert state.prophet is not None
            truth = (judge_sequence(rule, line, cards) if kind == "play"
                     else not any(judge(rule, line, c) for c in cards))
            call = truth if rng.random() < 0.85 else not truth
            prophet = state.prophet
            driver.do({"act": "call", "player": prophet, "right": call})
            if call != truth:
                draw(prophet, 5)
        _settle_hand(driver, hands, seat, kind, cards, draw)
        state = driver.state
        assert isinstance(state, EleusisState)
        if (state.phase == "play" and state.last_player == seat and state.prophet is None
                and rng.random() < 0.08):
            try:
                driver.do({"act": "prophet", "player": seat})
            except IllegalActionError:
                pass  # not allowed now (too few players left, or already prophet this round)


def _settle_hand(driver: Driver, hands: list[list[Card]], seat: int, kind: str, cards: list[Card],
                 draw: Callable[[int, int], None]) -> None:
    """Keep the real hand in step with the engine's ruling (penalties, a new hand, a card played)."""
    state = driver.state
    assert isinstance(state, EleusisState)
    ruling = state.ruling
    if ruling is None:
        return
    if kind == "noplay":
        played = ruling.played
        if ruling.right:
            hands[seat] = []
            draw(seat, state.hands[seat])
        elif played is not None:
            hands[seat].remove(Card.parse(played))
    draw(seat, ruling.penalty)


__all__ = ["autoplay"]
