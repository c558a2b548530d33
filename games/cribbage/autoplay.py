"""Whole cribbage-family games played by a simple random player, as game records.

Used by random-playout tests (invariants at every step), golden records and the simulated
table. Every action goes through ``State.apply``, so a record made here is legal by
construction of the engine, not of this module.
"""

from __future__ import annotations

import random
from typing import Any

from games.cribbage.game import Cribbage, CribbageState
from games.cribbage.scoring import value
from games.engine import new_game
from games.records import to_record


def autoplay(name: str = "cribbage", players: list[str] | None = None, seed: int = 0,
             *, known_hands: bool = True, max_deals: int = 200,
             options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play a whole game with random legal choices and return its record."""
    rng = random.Random(seed)
    game = new_game(name, players or ["Ann", "Bob"], options)
    assert isinstance(game, Cribbage)
    state = game.new_initial_state()
    assert isinstance(state, CribbageState)
    actions = []

    def do(data: dict[str, Any]) -> None:
        nonlocal state
        action = game.action_from_json(data)
        state = state.apply(action)
        actions.append(action)

    # cut for deal until someone is lowest
    deck = list(game.deck)
    while state.phase == "cut":
        cut = rng.sample(deck, game.num_players)
        for seat, card in enumerate(cut):
            do({"act": "cut", "player": seat, "card": str(card)})
    while not state.is_over and state.deals < max_deals:
        dealer = state.dealer
        assert dealer is not None
        rng.shuffle(deck)
        pos = 0
        hands = []
        for seat in range(game.num_players):
            size = game.dealt(seat, dealer)
            hands.append(deck[pos:pos + size])
            pos += size
        stock = deck[pos:]
        do({"act": "deal", "dealer": dealer,
             **({"hands": [[str(c) for c in h] for h in hands]} if known_hands else {})})
        kept = [list(h) for h in hands]
        laid: list[Any] = []
        for seat in range(game.num_players):
            n = game.discards(seat, dealer)
            away = rng.sample(kept[seat], n)
            for c in away:
                kept[seat].remove(c)
            laid.extend(away)
            do({"act": "discard", "player": seat,
                 **({"cards": [str(c) for c in away]} if known_hands else {})})
            if state.is_over:
                break
        crib_extra = stock[:game.crib_from_stock]
        stock = stock[game.crib_from_stock:]
        if state.is_over:
            break
        do({"act": "starter", "card": str(stock[0])})
        while state.phase == "play":
            assert state.turn is not None
            seat = state.turn
            playable = [c for c in kept[seat] if state.count + value(c) <= game.play_limit]
            if playable:
                card = rng.choice(playable)
                kept[seat].remove(card)
                do({"act": "play", "player": seat, "card": str(card)})
            else:
                do({"act": "go", "player": seat})
        while state.phase == "show":
            nxt = state.show_queue[0]
            if nxt == "crib":
                crib = laid + crib_extra
                do({"act": "crib", **({} if known_hands and not crib_extra else
                                      {"cards": [str(c) for c in crib]})})
            else:
                seat = int(nxt)
                hand = state.played[seat] + kept[seat]
                do({"act": "show", "player": seat, "cards": [str(c) for c in hand]})
    return to_record(game, actions)

