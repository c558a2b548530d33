"""Whole games of Ricochet Poker and Skull played by a random player, as game records (for the
random-playout tests, the golden records and, later, the simulated table).

Every action goes through ``State.apply``. Ricochet Poker is played face up, so its records hold
every card. In Skull the player keeps each seat's four real cards beside the engine; with
``known_hands=True`` every card laid face down is entered by its owner (``lay`` with ``card``),
otherwise only cards turned up are, and ``record["secret"]`` keeps each seat's real cards.

>>> record = autoplay("ricochet", seed=1)
>>> record["game"], record["actions"][0]["act"]
('ricochet', 'deal')
"""

from __future__ import annotations

import random
from typing import Any

from games.cards import FRENCH_52, Card
from games.engine import new_game
from games.jsontypes import JSONObject
from games.playouts import Driver, PlayoutRequest, Step, register_playout
from games.records import to_record
from games.ricochet import Ricochet, RicochetState
from games.skull import CARDS_EACH, SkullState, is_skull


@register_playout("ricochet", "skull")
def _playout(request: PlayoutRequest) -> JSONObject:
    """Ricochet: ``deals`` deals (its own length option to the end); Skull: always a whole game."""
    options = dict(request.options or {})
    deals = request.deals or int(options.pop("deals", 3))
    return autoplay(request.game, list(request.players), request.seed, known_hands=request.known_hands,
                    deals=deals, options=options)


def autoplay(name: str, players: list[str] | None = None, seed: int = 0, *, known_hands: bool = False,
             deals: int = 1, options: dict[str, Any] | None = None, each: Step | None = None) -> JSONObject:
    """Play ``name`` ("ricochet": ``deals`` deals; "skull": one whole game) with random choices
    and return the record; ``each`` is called with every state reached."""
    rng = random.Random(seed)
    names = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
    if name == "ricochet":
        game = new_game(name, players or names[:4], {"deals": deals, **(options or {})})
        driver = Driver(game, each)
        _ricochet(driver, rng)
        return to_record(game, driver.actions)
    if name == "skull":
        game = new_game(name, players or names[:4], options)
        driver = Driver(game, each)
        secret = _skull(driver, rng, known_hands)
        record = to_record(game, driver.actions)
        if not known_hands:
            record["secret"] = secret
        return record
    raise ValueError(f"no random player for {name!r}")


# ---------------------------------------------------------------------------------- Ricochet


def _ricochet(driver: Driver, rng: random.Random) -> None:
    game = driver.game
    assert isinstance(game, Ricochet)
    pack: list[Card] = []
    first = True
    while not driver.state.is_over:
        state = driver.state
        assert isinstance(state, RicochetState)
        if state.phase == "deal":
            pack = list(game.deck)
            rng.shuffle(pack)
            driver.do({"act": "deal", "dealer": rng.randrange(game.num_players)} if first else {"act": "deal"})
            first = False
        elif state.phase in ("start", "draw"):
            seat = state.give_to()
            assert seat is not None
            driver.do({"act": "give", "to": seat, "card": str(pack.pop())})
        elif state.phase == "act":
            seat = state.turn
            assert seat is not None
            if rng.random() < 0.15:
                driver.do({"act": "fold", "player": seat})
            else:
                driver.do({"act": "buy", "player": seat, "count": rng.randint(1, state.room(seat))})


# ---------------------------------------------------------------------------------- Skull


def _skull_cards(rng: random.Random, n: int) -> list[list[Card]]:
    """Each seat's four cards: three numbered cards (roses) and a face card (the skull)."""
    faces = [c for c in FRENCH_52 if is_skull(c)]
    numbers = [c for c in FRENCH_52 if not is_skull(c)]
    rng.shuffle(faces)
    rng.shuffle(numbers)
    return [[*numbers[3 * s:3 * s + 3], faces[s]] for s in range(n)]


def _skull(driver: Driver, rng: random.Random, known: bool) -> list[list[str]]:
    n = driver.game.num_players
    owned = _skull_cards(rng, n)
    secret = [[str(c) for c in cards] for cards in owned]
    mats: list[list[Card]] = [[] for _ in range(n)]

    def lay(seat: int) -> None:
        free = [c for c in owned[seat] if c not in mats[seat]]
        card = rng.choice(free)
        mats[seat].append(card)
        driver.do({"act": "lay", "player": seat, **({"card": str(card)} if known else {})})

    while not driver.state.is_over:
        state = driver.state
        assert isinstance(state, SkullState)
        phase = state.phase
        if phase == "open":
            mats = [[] for _ in range(n)]
            for opener in rng.sample(state.active(), len(state.active())):
                lay(opener)
        elif phase == "lay":
            assert state.turn is not None
            seat = state.turn
            if state.in_hand(seat) and rng.random() < 0.6:
                lay(seat)
            else:
                count = rng.randint(1, min(state.on_mats, 1 + len(mats[seat]) + 1))
                driver.do({"act": "challenge", "player": seat, "count": count})
        elif phase == "bid":
            assert state.turn is not None
            seat = state.turn
            if state.bid < state.on_mats and rng.random() < 0.3:
                driver.do({"act": "bid", "player": seat, "count": state.bid + rng.randint(1, state.on_mats - state.bid)})
            else:
                driver.do({"act": "pass", "player": seat})
        elif phase == "reveal":
            challenger = state.bidder
            assert challenger is not None
            if len(state.flipped[challenger]) < len(mats[challenger]):
                mat = challenger
            else:
                mat = rng.choice([s for s in range(n) if len(state.flipped[s]) < len(mats[s])])
            card = mats[mat][len(mats[mat]) - 1 - len(state.flipped[mat])]
            driver.do({"act": "flip", "player": challenger, "mat": mat, "card": str(card)})
        elif phase == "lose":
            challenger = state.bidder
            assert challenger is not None
            card = rng.choice(owned[challenger])
            owned[challenger].remove(card)
            driver.do({"act": "lose", "player": challenger, **({"card": str(card)} if known else {})})
        elif phase == "choose":
            challenger = state.bidder
            assert challenger is not None
            driver.do({"act": "first", "player": challenger, "seat": rng.choice(state.active())})
    assert all(len(cards) <= CARDS_EACH for cards in owned)
    return secret


__all__ = ["autoplay"]
