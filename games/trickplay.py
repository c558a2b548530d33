"""Whole games of Oh Hell, Bourré and Briscola Chiamata played by a random player, as game records.

Used by the random-playout tests (invariants at every step), the golden records and the
simulated table. Every action goes through ``State.apply``, so a record made here is legal
because the engine says so. With ``known_hands=False`` the record holds what the companion sees
(cards only when played) and ``record["secret"]`` keeps each deal's real hands for tests; with
``renege`` above 0 a player breaks the rules of the play that often (Oh Hell: follow suit;
Bourré: the strict rules), to exercise the referee.

>>> record = autoplay("bourre", seed=1, deals=2)
>>> record["game"], record["actions"][0]["act"]
('bourre', 'ante')
"""

from __future__ import annotations

import random
from typing import Any

from games.bourre import HAND, BourreState, legal_plays
from games.briscola import CALL_ORDER, STRENGTH, BriscolaState, rank_text
from games.cards import FRENCH_52, ITALIAN_40, Card
from games.engine import new_game
from games.jsontypes import JSONObject
from games.ohhell import OhHellState
from games.playouts import Driver, PlayoutRequest, Step, register_playout
from games.records import to_record


def _texts(cards: list[Card]) -> list[str]:
    return [str(c) for c in cards]


def autoplay(name: str = "bourre", players: list[str] | None = None, seed: int = 0, *,
             known_hands: bool = False, deals: int = 3, options: dict[str, Any] | None = None,
             renege: float = 0.0, each: Step | None = None) -> JSONObject:
    """Play ``deals`` deals of ``name`` ("ohhell", "bourre" or "briscola") with random choices and
    return the record; ``each`` is called with every state reached."""
    rng = random.Random(seed)
    opts = {"deals": deals, **(options or {})}
    if name == "ohhell":
        opts.pop("deals")
        game = new_game(name, players or ["Ann", "Bob", "Cy", "Di"], opts)
        driver = Driver(game, each)
        secret = _ohhell(driver, rng, known_hands, renege, deals)
    elif name == "bourre":
        game = new_game(name, players or ["Ann", "Bob", "Cy", "Di", "Ed"], opts)
        driver = Driver(game, each)
        secret = _bourre(driver, rng, known_hands, renege)
    elif name == "briscola":
        game = new_game(name, players or ["Ann", "Bob", "Cy", "Di", "Ed"], opts)
        driver = Driver(game, each)
        secret = _briscola(driver, rng, known_hands)
    else:
        raise ValueError(f"no random player for {name!r}")
    record = to_record(game, driver.actions)
    if not known_hands:
        record["secret"] = secret
    return record


@register_playout("ohhell", "bourre", "briscola")
def _playout(request: PlayoutRequest) -> JSONObject:
    """``deals`` deals (Bourré, Briscola: the game's length option); to the end: the game's own
    length (Oh Hell: every deal of its sequence)."""
    options = dict(request.options or {})
    if request.game == "ohhell":
        return autoplay("ohhell", list(request.players), request.seed, known_hands=request.known_hands,
                        deals=request.deals or 0, options=options)
    return autoplay(request.game, list(request.players), request.seed, known_hands=request.known_hands,
                    deals=request.deals or int(options.pop("deals", 3)), options=options)


# ---------------------------------------------------------------------------------- Oh Hell


def _ohhell(driver: Driver, rng: random.Random, known: bool, renege: float, deals: int) -> list[JSONObject]:
    """Deals of Oh Hell (``deals`` of them; 0: the whole sequence) with random bids and plays."""
    n = driver.game.num_players
    secret: list[JSONObject] = []
    while not driver.state.is_over and (not deals or len(secret) < deals):
        state = driver.state
        assert isinstance(state, OhHellState)
        pack = list(FRENCH_52)
        rng.shuffle(pack)
        size = state.hand_size
        hands = [pack[i * size:(i + 1) * size] for i in range(n)]
        deal: JSONObject = {"act": "deal"}
        if state.dealer is None:
            deal["dealer"] = rng.randrange(n)
        if known:
            deal["hands"] = [_texts(h) for h in hands]
        driver.do(deal)
        if driver.state.phase == "trump":
            driver.do({"act": "trump", "card": str(pack[n * size])})
        secret.append({"hands": [_texts(h) for h in hands]})
        while driver.state.phase == "bid":
            state = driver.state
            assert isinstance(state, OhHellState) and state.turn is not None
            hook = size - sum(b or 0 for b in state.bids)  # the dealer may not make the bids add up
            bids = [b for b in range(size + 1) if state.turn != state.dealer or b != hook]
            driver.do({"act": "bid", "player": state.turn, "tricks": rng.choice(bids)})
        while driver.state.phase == "play":
            state = driver.state
            assert isinstance(state, OhHellState) and state.turn is not None
            hand = hands[state.turn]
            led = state.trick[0][1].suit if state.trick else None
            legal = [c for c in hand if c.suit == led] or hand
            if not known and rng.random() < renege:
                legal = hand
            card = rng.choice(legal)
            hand.remove(card)
            driver.do({"act": "play", "player": state.turn, "card": str(card)})
        state = driver.state
        assert isinstance(state, OhHellState)
        for index in state.open_claims():
            driver.do({"act": rng.choice(["accept", "dismiss"]), "claim": index})
    return secret


# ---------------------------------------------------------------------------------- Bourré


def _bourre(driver: Driver, rng: random.Random, known: bool, renege: float) -> list[JSONObject]:
    game = driver.game
    n = game.num_players
    secret: list[JSONObject] = []
    first = True
    while not driver.state.is_over:
        state = driver.state
        assert isinstance(state, BourreState)
        if state.phase == "ante":
            if rng.random() < 0.5:
                driver.do({"act": "ante"})
            else:
                driver.do({"act": "ante", "player": rng.choice(sorted(state.owed))})
            continue
        pack = list(FRENCH_52)
        rng.shuffle(pack)
        dealer = rng.randrange(n) if first else (state.dealer or 0) + 1
        dealer %= n
        hands = [pack[i * HAND:(i + 1) * HAND] for i in range(n)]
        stock = pack[n * HAND:]
        deal: JSONObject = {"act": "deal"}
        if first:
            deal["dealer"] = dealer
        if known:
            deal["hands"] = [_texts(h) for h in hands]
        first = False
        driver.do(deal)
        trump = hands[dealer][-1]
        driver.do({"act": "trump", "card": str(trump)})
        players = 0
        for step in range(1, n + 1):
            seat = (dealer + step) % n
            must = seat == dealer and (trump.rank == 1 or players == 0)
            if not must and rng.random() < 0.35:
                driver.do({"act": "pass", "player": seat})
                continue
            players += 1
            count = min(rng.randint(0, 3), len(stock))
            away = rng.sample(hands[seat], count)
            new = stock[:count]
            del stock[:count]
            hands[seat] = [c for c in hands[seat] if c not in away] + new
            data: JSONObject = {"act": "draw", "player": seat, "count": count}
            if known:
                data.update(cards=_texts(away), drawn=_texts(new))
            driver.do(data)
        state = driver.state
        assert isinstance(state, BourreState)
        secret.append({"hands": [_texts(h) if s in state.active else None for s, h in enumerate(hands)],
                       "trump": str(trump)})
        while isinstance(driver.state, BourreState) and driver.state.phase == "play":
            state = driver.state
            turn = state.turn
            assert turn is not None
            legal = legal_plays(hands[turn], state.trick, state.trump)
            if not known and rng.random() < renege:
                legal = hands[turn]
            card = rng.choice(legal)
            hands[turn].remove(card)
            driver.do({"act": "play", "player": turn, "card": str(card)})
        state = driver.state
        assert isinstance(state, BourreState)
        for index, claim in enumerate(state.claims):
            if claim.status == "open" and not state.is_over:
                driver.do({"act": rng.choice(["accept", "dismiss"]), "claim": index})
    return secret


# ---------------------------------------------------------------------------------- Briscola


def _briscola(driver: Driver, rng: random.Random, known: bool) -> list[JSONObject]:
    game = driver.game
    n = game.num_players
    secret: list[JSONObject] = []
    first = True
    hands: list[list[Card]] = []
    monte: list[Card] = []
    laid: list[Card] = []
    while not driver.state.is_over:
        state = driver.state
        assert isinstance(state, BriscolaState)
        phase = state.phase
        if phase == "deal":
            pack = list(ITALIAN_40)
            rng.shuffle(pack)
            size = 7 if game.options["variant"] == "monte" else 8
            hands = [pack[i * size:(i + 1) * size] for i in range(n)]
            monte = pack[n * size:]
            deal: JSONObject = {"act": "deal"}
            if first:
                deal["dealer"] = rng.randrange(n)
            if known:
                deal["hands"] = [_texts(h) for h in hands] + ([_texts(monte)] if monte else [])
            first = False
            driver.do(deal)
            secret.append({"hands": [_texts(h) for h in hands], "monte": _texts(monte)})
        elif phase == "bid":
            seat = state.turn
            assert seat is not None
            bid = _random_bid(state, rng)
            driver.do({"act": "pass", "player": seat} if bid is None else {"act": "bid", "player": seat, **bid})
        elif phase == "reopen":
            if rng.random() < 0.5:
                driver.do({"act": "reopen", "player": rng.randrange(n)})
            else:
                driver.do({"act": "redeal"})
        elif phase == "monte":
            bidder = state.bidder
            assert bidder is not None
            hands[bidder] += monte
            laid = rng.sample(hands[bidder], 5)
            hands[bidder] = [c for c in hands[bidder] if c not in laid]
            driver.do({"act": "monte", "player": bidder, **({"cards": _texts(laid)} if known else {})})
        elif phase == "call":
            bidder = state.bidder
            assert bidder is not None
            card = _random_call(state, hands[bidder], laid, rng)
            driver.do({"act": "call", "player": bidder, "card": str(card)})
        elif phase == "play":
            seat = state.turn
            assert seat is not None
            choice = hands[seat]
            if game.options["variant"] == "buio" and state.trick_no == 0:
                last = len(state.trick) == n - 1
                if not (seat == state.bidder and last):
                    choice = [c for c in choice if c.rank != 2]
            card = rng.choice(choice)
            hands[seat].remove(card)
            driver.do({"act": "play", "player": seat, "card": str(card)})
    return secret


def _random_bid(state: BriscolaState, rng: random.Random) -> JSONObject | None:
    if rng.random() < (0.3 if state.bidder is None else 0.55):
        return None
    if state.game.by_points:
        low = state.bid_points + 1 if state.bidder is not None else 61
        if low > 120:
            return None
        return {"points": rng.randint(low, min(120, low + 8))}
    at = CALL_ORDER.index(state.bid_rank) if state.bid_rank is not None else -1
    if state.bidder is None or at < len(CALL_ORDER) - 1:
        rank = CALL_ORDER[rng.randint(at + 1, min(at + 3, len(CALL_ORDER) - 1))]
        if rank != 2:
            return {"rank": rank_text(rank)}
        return {"rank": "2"}
    if state.bid_points >= 120:
        return None
    return {"rank": "2", "points": rng.randint(state.bid_points + 1, min(120, state.bid_points + 6))}


def _random_call(state: BriscolaState, hand: list[Card], laid: list[Card], rng: random.Random) -> Card:
    suit = rng.choice("SHDC")
    variant = state.game.options["variant"]
    if variant in ("subito", "buio"):
        return Card(2, suit)
    if variant == "basic":
        rank = state.bid_rank or 2
        two = Card(2, suit)
        if rank == 2 and two in hand:
            order = sorted(STRENGTH, key=STRENGTH.__getitem__)
            lowest = next((Card(r, suit) for r in order if Card(r, suit) not in hand), two)
            return rng.choice([two, lowest])
        return Card(rank, suit)
    suit_cards = [c for c in ITALIAN_40 if c.suit == suit and c not in laid and c not in state.seen]
    others = [c for c in suit_cards if c not in hand]
    return rng.choice(others if others and rng.random() < 0.8 else suit_cards)


__all__ = ["autoplay"]
