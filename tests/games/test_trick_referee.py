"""The referee's property (issue 36): in random Bourré games where players break the strict rules,
with hands unknown to the engine, a revoke claim is filed exactly when a card shown proves one.

The legality check here is written independently of games.bourre: a play of ``c`` is proven
illegal by a card ``x`` the player is known to have held at the time (a later card of the same
player, or the dealer's turned-up card when the dealer stood pat) when the hand {c, x} alone
already forbids ``c``; holding more cards never makes a forbidden play legal.
"""

import pytest

from games.cards import Card
from games.records import replay, steps
from games.trickplay import autoplay


def high(card):
    return 14 if card.rank == 1 else card.rank


def allowed(hand, trick, trump, card):
    """Whether the strict rules let ``card`` be played from ``hand`` on ``trick``."""
    if not trick:
        return True
    led = trick[0].suit
    best = trick[0]
    for c in trick[1:]:
        if (c.suit == best.suit and high(c) > high(best)) or (c.suit == trump and best.suit != trump):
            best = c

    def wins(c):
        return (c.suit == best.suit and high(c) > high(best)) or (c.suit == trump and best.suit != trump)

    for suit in (led, trump):
        group = [c for c in hand if c.suit == suit]
        if group:
            if card.suit != suit:
                return False
            return wins(card) or not any(wins(c) for c in group)
    return True


def proves(play, later):
    return not allowed([play["card"], later], play["trick"], play["trump"], play["card"])


@pytest.mark.parametrize("seed", range(40))
def test_claims_are_filed_exactly_when_a_card_proves_a_renege(seed):
    record = autoplay("bourre", [f"P{i}" for i in range(3 + seed % 6)], seed=seed, deals=3, renege=0.35)
    secret = iter(record.pop("secret"))
    deal = 0
    plays = []  # every play of the game with what was known when it was made
    hands = []
    for before, action, after in steps(record):
        if action.act == "deal":
            deal += 1
        if action.act in ("pass", "draw") and after.phase != "declare":  # the hands are now in play
            hands = [None if h is None else [Card.parse(c) for c in h] for h in next(secret)["hands"]]
        if action.act != "play":
            continue
        seat, card = action.player, action.card
        trick = [c for _, c in before.trick]
        # a dealer who stood pat holds the turned-up card until playing it: it is shown
        shown = before.trump_card
        held = [shown] if seat == before.dealer and before.draws[seat] == 0 and shown in hands[seat] else []
        plays.append({"deal": deal, "number": before.trick_no + 1, "player": seat, "card": card,
                      "trick": trick, "trump": before.trump, "later": [c for c in held if c != card],
                      "broken": not allowed(hands[seat], trick, before.trump, card)})
        hands[seat].remove(card)
        for earlier in plays[:-1]:
            if earlier["deal"] == deal and earlier["player"] == seat:
                earlier["later"].append(card)
        expected = {(p["deal"], p["number"], p["player"], str(p["card"]))
                    for p in plays if any(proves(p, x) for x in p["later"])}
        filed = {(c.deal, c.trick, c.player, str(c.card)) for c in after.claims}
        assert filed == expected
        # only a broken rule can be proven, and a claim names a card the player held then
        for claim in after.claims:
            play = next(p for p in plays if (p["deal"], p["number"], p["player"]) ==
                        (claim.deal, claim.trick, claim.player))
            assert play["broken"] and claim.proof in play["later"]
    # when the deal is over every card of a playing hand has been shown: every renege is caught
    broken = {(p["deal"], p["number"], p["player"]) for p in plays if p["broken"]}
    assert {(c.deal, c.trick, c.player) for c in after.claims} == broken


def test_the_property_sees_reneges_at_all():
    caught = 0
    for seed in range(20):
        record = autoplay("bourre", seed=seed, deals=3, renege=0.35)
        caught += sum(1 for a in record["actions"] if a["act"] in ("accept", "dismiss"))
    assert caught > 10


# ------------------------------------------------------------------------------ Oh Hell


@pytest.mark.parametrize("seed", range(30))
def test_oh_hell_revokes_are_claimed_exactly_when_a_later_card_proves_them(seed):
    """A play that did not follow the suit led is proven a revoke by a later card of that suit
    from the same player in the same deal; every card of a hand is played, so by the end of a
    deal every revoke is caught, and nothing else ever is."""
    players = [f"P{i}" for i in range(3 + seed % 5)]
    record = autoplay("ohhell", players, seed=seed, deals=3, options={"most": 4}, renege=0.3)
    secret = iter(record.pop("secret"))
    deal = 0
    plays = []
    hands = []
    for before, action, after in steps(record):
        if action.act == "deal":
            deal += 1
            hands = [[Card.parse(c) for c in h] for h in next(secret)["hands"]]
        if action.act != "play":
            continue
        seat, card = action.player, action.card
        led = before.trick[0][1].suit if before.trick else None
        broken = led is not None and card.suit != led and any(c.suit == led for c in hands[seat])
        plays.append({"deal": deal, "number": sum(before.tricks) + 1, "player": seat, "card": card,
                      "led": led, "later": [], "broken": broken})
        hands[seat].remove(card)
        for earlier in plays[:-1]:
            if earlier["deal"] == deal and earlier["player"] == seat:
                earlier["later"].append(card)
        expected = {(p["deal"], p["number"], p["player"], str(p["card"])) for p in plays
                    if p["led"] is not None and p["card"].suit != p["led"]
                    and any(x.suit == p["led"] for x in p["later"])}
        filed = {(c.deal, c.trick, c.player, str(c.card)) for c in after.claims}
        assert filed == expected
        for claim in after.claims:
            assert claim.rule == "failed to follow suit" and claim.proof.suit == claim_led(plays, claim)
    broken = {(p["deal"], p["number"], p["player"]) for p in plays if p["broken"]}
    assert {(c.deal, c.trick, c.player) for c in after.claims} == broken


def claim_led(plays, claim):
    return next(p["led"] for p in plays if (p["deal"], p["number"], p["player"]) ==
                (claim.deal, claim.trick, claim.player))


def test_the_oh_hell_property_sees_revokes_at_all():
    caught = sum(len(replay(autoplay("ohhell", seed=seed, deals=3, options={"most": 4}, renege=0.3)).state.claims)
                 for seed in range(10))
    assert caught > 10
