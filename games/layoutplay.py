"""Whole games of Gin Rummy and Fight the Landlord played by a random player, as game records
(for the random-playout tests, the golden records and the simulated table).

Every action goes through ``State.apply``, so a record made here is legal because the engine
says so. The player keeps the real cards beside the engine. With ``known_hands=False`` the
engine sees what the companion would (gin: the turned-up card, discards, what is laid at the
knock; the landlord: every card played and the three extra cards) and ``record["secret"]``
keeps each deal's hands for the tests.

>>> record = autoplay("gin", seed=1)
>>> record["game"], record["actions"][0]["act"]
('gin', 'deal')
"""

from __future__ import annotations

import random
from typing import Any

from games.cards import FRENCH_52, FRENCH_54, Card
from games.engine import new_game
from games.gin import GinState, pairings
from games.ginmelds import best_defence, best_melds
from games.jsontypes import JSONObject
from games.landlord import HAND, LandlordState
from games.landlordcombos import all_plays, classify
from games.playouts import Driver, PlayoutRequest, Step, register_playout
from games.records import to_record


def _texts(cards: list[Card] | tuple[Card, ...]) -> list[str]:
    return [str(c) for c in cards]


def autoplay(name: str, players: list[str] | None = None, seed: int = 0, *, known_hands: bool = False,
             deals: int = 1, options: dict[str, Any] | None = None, each: Step | None = None) -> JSONObject:
    """Play ``deals`` deals (hands) of ``name`` ("gin" or "landlord") with random choices, or the
    whole game when ``deals`` is 0; ``each`` sees every state reached."""
    rng = random.Random(seed)
    default = ["Ann", "Bob", "Cy", "Di"]
    if name == "gin":
        game = new_game(name, players or default[:2], options)
        driver = Driver(game, each)
        secret = _gin(driver, rng, known_hands, deals)
    elif name == "landlord":
        game = new_game(name, players or default[:3], options)
        driver = Driver(game, each)
        secret = _landlord(driver, rng, known_hands, deals)
    else:
        raise ValueError(f"no random player for {name!r}")
    record = to_record(game, driver.actions)
    if not known_hands:
        record["secret"] = secret
    return record


@register_playout("gin", "landlord")
def _playout(request: PlayoutRequest) -> JSONObject:
    return autoplay(request.game, list(request.players), request.seed, known_hands=request.known_hands,
                    deals=0 if request.deals is None else request.deals, options=request.options)


# ---------------------------------------------------------------------------------- Gin


def _gin(driver: Driver, rng: random.Random, known: bool, deals: int) -> list[JSONObject]:
    game = driver.game
    n = game.num_players
    secret: list[JSONObject] = []
    hands: dict[int, list[Card]] = {}
    stocks: dict[int, list[Card]] = {}  # by the hand's first seat
    dealt = 0
    first = True
    while not driver.state.is_over:
        state = driver.state
        assert isinstance(state, GinState)
        if state.tables_due:
            if deals and state.settled and state.round >= deals:
                break
            pack = list(FRENCH_52)
            rng.shuffle(pack)
            deal: JSONObject = {"act": "deal", "card": str(pack[20])}
            if n == 4:
                dealt_pairs = [set(h.seats) for h in state.hands if h.step != "void" and not state.settled]
                pair = next(p for p in pairings(n, state.round) if set(p) not in dealt_pairs)
                dealer = rng.choice(pair)
                deal["dealer"] = dealer
                seats = (pair[0] if pair[1] == dealer else pair[1], dealer)
            else:
                dealer = rng.randrange(n) if first else state.next_dealer or 0
                if first:
                    deal["dealer"] = dealer
                seats = ((dealer + 1) % n, (dealer + 2) % n) if n == 3 else ((dealer + 1) % 2, dealer)
            first = False
            for i, seat in enumerate(seats):
                hands[seat] = pack[i * 10:(i + 1) * 10]
            stocks[min(seats)] = pack[21:]
            if known:
                deal["hands"] = [_texts(hands[s]) if s in seats else None for s in range(n)]
            secret.append({"seats": list(seats), "hands": [_texts(hands[s]) for s in seats], "upcard": str(pack[20])})
            dealt += 1
            driver.do(deal)
            continue
        live = [h for h in state.hands if h.step in ("offer", "draw", "discard", "layoff")]
        hand = rng.choice(live)
        stock = stocks[min(hand.seats)]
        if hand.step == "layoff":
            defender = hand.defender
            assert defender is not None
            cards = hands[defender]
            if not hand.gin:
                plan = best_defence(cards, hand.melds)
                for index, laid in plan.layoffs:
                    driver.do({"act": "layoff", "player": defender, "meld": index, "cards": _texts(laid)})
                own, rest = plan.melds, plan.unmatched
            else:
                best = best_melds(cards)
                own, rest = best.melds, best.unmatched
            data: JSONObject = {"act": "spread", "player": defender, "melds": [_texts(m) for m in own]}
            if not known or rng.random() < 0.5:
                data["cards"] = _texts(rest)
            driver.do(data)
            continue
        seat = hand.turn
        cards = hands[seat]
        if hand.step == "offer":
            if rng.random() < 0.3:
                cards.append(hand.pile[-1])
                driver.do({"act": "draw", "player": seat, "source": "discard"})
            else:
                driver.do({"act": "pass", "player": seat})
        elif hand.step == "draw":
            top = hand.pile[-1]
            if not hand.stock_only and (best_melds([*cards, top]).deadwood < best_melds(cards).deadwood - 5
                                        or rng.random() < 0.1):
                cards.append(top)
                driver.do({"act": "draw", "player": seat, "source": "discard"})
            else:
                card = stock.pop(0)
                cards.append(card)
                driver.do({"act": "draw", "player": seat, **({"card": str(card)} if known else {})})
        else:
            choices = [c for c in cards if c != hand.took]
            scored = sorted(choices, key=lambda c: (best_melds([x for x in cards if x != c]).deadwood, str(c)))
            out = scored[0] if rng.random() < 0.8 else rng.choice(choices)
            cards.remove(out)
            best = best_melds(cards)
            limit = 0 if game.options["ace_gin"] and hand.upcard.rank == 1 and \
                game.options["variant"] == "oklahoma" else hand.limit
            if best.deadwood <= limit and rng.random() < 0.8:
                melds = [_texts(m) for m in best.melds]
                if best.deadwood == 0 and rng.random() < 0.5:
                    driver.do({"act": "gin", "player": seat, "card": str(out), "melds": melds})
                else:
                    data = {"act": "knock", "player": seat, "card": str(out), "melds": melds}
                    if not known or rng.random() < 0.5:
                        data["cards"] = _texts(best.unmatched)
                    driver.do(data)
            else:
                driver.do({"act": "discard", "player": seat, "card": str(out)})
    return secret


# ---------------------------------------------------------------------------------- Fight the Landlord


def _landlord(driver: Driver, rng: random.Random, known: bool, deals: int) -> list[JSONObject]:
    secret: list[JSONObject] = []
    hands: list[list[Card]] = []
    middle: list[Card] = []
    while True:
        s = driver.state
        assert isinstance(s, LandlordState)
        if s.is_over:
            break
        if s.phase == "deal":
            if deals and s.deals >= deals:
                break
            pack = list(FRENCH_54)
            rng.shuffle(pack)
            hands = [pack[i * HAND:(i + 1) * HAND] for i in range(3)]
            middle = pack[3 * HAND:]
            deal: JSONObject = {"act": "deal", "first": rng.randrange(3)}
            if known:
                deal["hands"] = [[str(c) for c in h] for h in hands]
                deal["cards"] = [str(c) for c in middle]
            secret.append({"hands": [[str(c) for c in h] for h in hands], "middle": [str(c) for c in middle]})
            driver.do(deal)
        elif s.phase == "bid":
            seat = s.turn
            assert seat is not None
            if s.bid < 3 and rng.random() < 0.45:
                driver.do({"act": "bid", "player": seat, "points": rng.randint(s.bid + 1, 3)})
            else:
                driver.do({"act": "pass", "player": seat})
        elif s.phase == "kitty":
            assert s.landlord is not None
            hands[s.landlord].extend(middle)
            driver.do({"act": "kitty", "cards": [str(c) for c in middle]})
        else:
            seat = s.turn
            assert seat is not None
            plays = all_plays(hands[seat])
            if s.beat is not None:
                to_beat = s.beat[2]
                plays = [p for p in plays if any(r.beats(to_beat) for r in classify(p))]
                if not plays or rng.random() < 0.25:
                    driver.do({"act": "pass", "player": seat})
                    continue
            quiet = [p for p in plays if not classify(p)[0].doubles]
            chosen = rng.choice(quiet if quiet and rng.random() < 0.9 else plays)
            for card in chosen:
                hands[seat].remove(card)
            driver.do({"act": "play", "player": seat, "cards": [str(c) for c in chosen]})
    return secret


__all__ = ["autoplay"]
