"""Whole cribbage-family games played by a simple random player, as game records.

Used by random-playout tests (invariants at every step), golden records and the simulated
table. Every action goes through ``State.apply``, so a record made here is legal by
construction of the engine, not of this module. The player follows the phase the state is in,
so every variant's extra steps (gives, bids, mogging, pegging back, his nob in the play) are
exercised the same way.
"""

from __future__ import annotations

import random
from typing import Any

from games.cards import Card
from games.cribbage.game import Cribbage, CribbageState
from games.cribbage.scoring import value
from games.engine import Action, new_game
from games.jsontypes import JSONObject
from games.playouts import PlayoutRequest, register_playout
from games.records import to_record


class _Table:
    """The physical cards of a random game: the pack, every hand, the laid-away cards."""

    def __init__(self, game: Cribbage, rng: random.Random, known_hands: bool) -> None:
        self.game = game
        self.rng = rng
        self.known_hands = known_hands
        self.pack: list[Card] = []
        self.hands: list[list[Card]] = []
        self.laid: list[Card] = []
        self.crib_extra: list[Card] = []
        self.mogged: dict[int, Card] = {}

    def deal(self, state: CribbageState) -> dict[str, Any]:
        game = self.game
        dealer = state.dealer
        assert dealer is not None
        if state.deals % game.deals_per_shuffle == 0:
            self.pack = list(game.deck)
            self.rng.shuffle(self.pack)
        self.hands = []
        for seat in range(game.num_players):
            size = game.dealt(seat, dealer)
            self.hands.append(self.pack[:size])
            del self.pack[:size]
        self.crib_extra = self.pack[:game.crib_from_stock]
        del self.pack[:game.crib_from_stock]
        self.laid = []
        self.mogged = {}
        data: dict[str, Any] = {"act": "deal", "dealer": dealer}
        if self.known_hands:
            data["hands"] = [[str(c) for c in h] for h in self.hands]
        return data

    def cards(self, key: str, cards: list[Card]) -> dict[str, Any]:
        return {key: [str(c) for c in cards]} if self.known_hands else {}


def autoplay(name: str = "cribbage", players: list[str] | None = None, seed: int = 0,
             *, known_hands: bool = True, max_deals: int = 200,
             options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play a whole game with random legal choices and return its record."""
    rng = random.Random(seed)
    game = new_game(name, players or ["Ann", "Bob", "Cat", "Dan"][:_seats(name, options)], options)
    if not isinstance(game, Cribbage):
        from games.cribbage.patience import CribbagePatience, random_square

        assert isinstance(game, CribbagePatience), f"autoplay plays the cribbage family, not {name}"
        return random_square(seed, card_by_card=known_hands)
    state = game.new_initial_state()
    assert isinstance(state, CribbageState)
    table = _Table(game, rng, known_hands)
    actions: list[Action] = []

    def do(data: dict[str, Any]) -> None:
        nonlocal state
        action = game.action_from_json(data)
        state = state.apply(action)
        actions.append(action)

    deck = list(game.deck)
    while state.phase == "cut":
        for seat, card in enumerate(rng.sample(deck, game.num_players)):
            do({"act": "cut", "player": seat, "card": str(card)})
    while not state.is_over and state.deals <= max_deals:
        phase = state.phase
        if phase == "deal":
            if state.deals == max_deals:
                break
            do(table.deal(state))
        elif phase == "give":
            seat = next(s for s, n in enumerate(state.to_give) if n > 0)
            card = rng.choice(table.hands[seat])
            table.hands[seat].remove(card)
            assert state.dealer is not None
            table.hands[state.dealer].append(card)
            do({"act": "give", "player": seat, **({"card": str(card)} if known_hands else {})})
        elif phase == "discard":
            seat = next(s for s, n in enumerate(state.to_discard) if n > 0)
            away = rng.sample(table.hands[seat], state.to_discard[seat])
            for c in away:
                table.hands[seat].remove(c)
            table.laid.extend(away)
            do({"act": "discard", "player": seat, **table.cards("cards", away)})
        elif phase == "bid":
            seat = state.bid_queue[0]
            points = rng.choice([0, 0, 1, 2, 3, 5])
            do({"act": "bid", "player": seat, "points": min(points, state.scores[state.side_of(seat)])})
        elif phase == "mog":
            _mog_one(state, table, do)
            _swap_mogged(state, table)
        elif phase == "starter":
            do({"act": "starter", "card": str(table.pack.pop(0))})
        elif phase == "play":
            _play_one(state, table, do)
        elif phase == "show":
            nxt = state.show_queue[0]
            if nxt == "crib":
                crib = table.laid + table.crib_extra
                do({"act": "crib", **({} if known_hands and not table.crib_extra else
                                      {"cards": [str(c) for c in crib]})})
            else:
                seat = int(nxt)
                hand = state.played[seat] + table.hands[seat]
                do({"act": "show", "player": seat, "cards": [str(c) for c in hand]})
        else:
            raise AssertionError(f"autoplay does not know the phase {phase!r}")
        _optional_claims(state, game, rng, do)
    return to_record(game, actions)


@register_playout("cribbage", "cribbage3", "cribbage3-solo", "cribbage4", "cribbage5", "cribbage7", "auction",
                  "costly", "noddy", "losing", "revised")
def _playout(request: PlayoutRequest) -> JSONObject:
    options = dict(request.options or {})
    if request.game == "losing" and "base" not in options and len(request.players) > 2:
        options["base"] = {3: "cribbage3", 4: "cribbage4"}[len(request.players)]
    record: JSONObject = autoplay(request.game, list(request.players), request.seed,
                                  known_hands=request.known_hands, max_deals=request.deals or 200,
                                  options=options or None)
    return record


def _seats(name: str, options: dict[str, Any] | None) -> int:
    """The smallest table the game (on its base, for Losing and Auction) can be played at."""
    from games.engine import get_game
    from games.errors import OptionError

    for seats in get_game(name).spec.players:
        try:
            new_game(name, seats, options)
        except OptionError:
            continue
        return seats
    raise OptionError(f"{name} cannot be played with options {options!r}")


def _play_one(state: CribbageState, table: _Table, do: Any) -> None:
    assert state.turn is not None
    seat = state.turn
    limit = state.game.play_limit
    if state.game.count_may_pass_limit:
        playable = list(table.hands[seat])
    else:
        playable = [c for c in table.hands[seat] if state.count + value(c) <= limit]
    if playable:
        card = table.rng.choice(playable)
        table.hands[seat].remove(card)
        data: dict[str, Any] = {"act": "play", "player": seat, "card": str(card)}
        actions = {a.act: a for a in state.game.actions}
        eleven = "eleven" in getattr(actions["play"], "__dataclass_fields__", {})
        if eleven and card.rank == 1 and state.count + 11 <= limit and table.rng.random() < 0.5:
            data["eleven"] = True
        do(data)
    else:
        do({"act": "go", "player": seat})


def _mog_one(state: Any, table: _Table, do: Any) -> None:
    """Costly Colours: agree to mog (passing a random card) or refuse; swap when both agree."""
    seat = state.mog_queue[0]
    if table.rng.random() < 0.25:
        do({"act": "refuse", "player": seat})
        return
    card = table.rng.choice(table.hands[seat])
    do({"act": "mog", "player": seat, **({"card": str(card)} if table.known_hands else {})})
    table.mogged[seat] = card


def _swap_mogged(state: Any, table: _Table) -> None:
    """Both agreed to mog: the passed cards change hands."""
    if len(getattr(state, "mogged", {})) == 2 and state.phase != "mog" and len(table.mogged) == 2:
        a, b = table.mogged[0], table.mogged[1]
        table.hands[0].remove(a)
        table.hands[1].remove(b)
        table.hands[0].append(b)
        table.hands[1].append(a)
        table.mogged = {}


def _optional_claims(state: CribbageState, game: Cribbage, rng: random.Random, do: Any) -> None:
    """Take the optional actions a variant offers right after a pegging (his nob in the play,
    pegging back), at random, when the engine would accept them."""
    names = {a.act for a in game.actions}
    if state.is_over:
        return
    for act in ("nob", "back"):
        if act not in names or rng.random() < 0.5:
            continue
        seats = state.to_move(game.action_from_json({"act": act, "player": 0})) or []
        if not seats:
            continue
        try:
            trial = state.apply_json({"act": act, "player": seats[0]})
        except Exception:  # refused: the claim was not open
            continue
        del trial
        do({"act": act, "player": seats[0]})
