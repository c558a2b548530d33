"""Whole Decktet pegging games (Bhargage, Suitcases) played by a random player, as records.

Used by the random-playout tests (invariants at every step) and to make golden records. Every
action goes through ``State.apply``, so a record made here is legal because the engine says so.

>>> record = autoplay("bhargage", seed=1)
>>> record["game"], record["actions"][0]["act"]
('bhargage', 'cut')
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games.bhargage.table import DecktetPeggingGame, DecktetPeggingState
from games.engine import new_game
from games.jsontypes import JSONObject
from games.playouts import PlayoutRequest, register_playout
from games.records import to_record

Step = Callable[[DecktetPeggingState], None]


def autoplay(name: str = "bhargage", players: list[str] | None = None, seed: int = 0,
             *, known_hands: bool = True, max_deals: int = 200,
             options: dict[str, Any] | None = None, each: Step | None = None) -> dict[str, Any]:
    """Play a whole game with random legal choices and return its record; ``each`` is called
    with every state reached (for invariant checks)."""
    rng = random.Random(seed)
    game = new_game(name, players or ["Ann", "Bob"], options)
    assert isinstance(game, DecktetPeggingGame)
    state = game.new_initial_state()
    assert isinstance(state, DecktetPeggingState)
    actions = []

    def do(data: dict[str, Any]) -> None:
        nonlocal state
        action = game.action_from_json(data)
        new = state.apply(action)
        assert isinstance(new, DecktetPeggingState)
        state = new
        actions.append(action)
        if each is not None:
            each(state)

    deck = list(game.deck)
    while state.phase == "cut":
        for seat, card in enumerate(rng.sample(deck, game.num_players)):
            do({"act": "cut", "player": seat, "card": str(card)})
    while not state.is_over and state.deals < max_deals:
        dealer = state.dealer
        assert dealer is not None
        rng.shuffle(deck)
        size = game.hand_size
        hands = [deck[i * size:(i + 1) * size] for i in range(game.num_players)]
        stock = deck[size * game.num_players:]
        do({"act": "deal", "dealer": dealer,
            **({"hands": [[str(c) for c in h] for h in hands]} if known_hands else {})})
        kept = [list(h) for h in hands]
        laid = []
        for seat in range(game.num_players):
            away = rng.sample(kept[seat], game.lay_away)
            for c in away:
                kept[seat].remove(c)
            laid.extend(away)
            do({"act": "discard", "player": seat,
                **({"cards": [str(c) for c in away]} if known_hands else {})})
        do({"act": "starter", "card": str(stock[0])})
        while state.phase == "play":
            assert state.turn is not None
            seat = state.turn
            playable = [c for c in kept[seat] if state._misfit(c) is None]
            if playable:
                card = rng.choice(playable)
                kept[seat].remove(card)
                do({"act": "play", "player": seat, "card": str(card)})
            else:
                do({"act": rng.choice(["pass", "go"]), "player": seat})
        while state.phase == "show":
            nxt = state.show_queue[0]
            claim: dict[str, Any] = {}
            if game.options.get("muggins"):
                cards = laid if nxt == "crib" else state.played[int(nxt)] + kept[int(nxt)]
                full = game.score_hand(cards, state.starter, crib=(nxt == "crib")).total
                claim = {"claim": rng.choice([full, full, max(0, full - 2)])}
            if nxt == "crib":
                do({"act": "crib", **({} if known_hands else {"cards": [str(c) for c in laid]}), **claim})
            else:
                seat = int(nxt)
                do({"act": "show", "player": seat,
                    "cards": [str(c) for c in state.played[seat] + kept[seat]], **claim})
            if state.phase == "show" and state.missed is not None and rng.random() < 0.5:
                taker = [s for s in range(game.num_players) if state.side_of(s) != state.missed[0]][0]
                do({"act": "muggins", "player": taker})
    return to_record(game, actions)


@register_playout("bhargage", "suitcases")
def _playout(request: PlayoutRequest) -> JSONObject:
    record: JSONObject = autoplay(request.game, list(request.players), request.seed,
                                  known_hands=request.known_hands, max_deals=request.deals or 200,
                                  options=request.options)
    return record
