"""Oh Hell through the same engine contract: bids, the dealer's hook, trumps, following suit,
a score table instead of a peg board (seed 002, "Oh Hell")."""

import json
import random

import pytest

from games import IllegalActionError, new_game
from games.cards import FRENCH_52
from games.ohhell import TRICK_RANK, deal_sizes
from games.view import TricksView


def act(game, state, **data):
    return state.apply_json(data)


def test_deal_sequence_from_the_seed():
    """Seed 002: with 7 players 7, 6, ... 1, then 2 ... 7: thirteen deals."""
    assert deal_sizes(7, 7) == [7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7]
    assert new_game("ohhell", 6).most == 8 and new_game("ohhell", 4).most == 10


def one_card_deal(options=None):
    game = new_game("ohhell", ["Ann", "Bob", "Cy"], {"most": 1, **(options or {})})
    s = game.new_initial_state()
    s = act(game, s, act="deal", dealer=0, hands=[["2H"], ["AS"], ["KH"]])
    s = act(game, s, act="trump", card="5S")
    return game, s


def test_the_dealers_hook():
    game, s = one_card_deal()
    s = act(game, s, act="bid", player=1, tricks=1)
    s = act(game, s, act="bid", player=2, tricks=0)
    with pytest.raises(IllegalActionError, match="dealer may not bid 0"):
        act(game, s, act="bid", player=0, tricks=0)
    s = act(game, s, act="bid", player=0, tricks=1)
    assert s.phase == "play" and s.turn == 1


def test_trumps_win_and_exact_bids_score():
    game, s = one_card_deal()
    for seat, bid in [(1, 1), (2, 0), (0, 1)]:
        s = act(game, s, act="bid", player=seat, tricks=bid)
    s = act(game, s, act="play", player=1, card="AS")
    s = act(game, s, act="play", player=2, card="KH")
    s = act(game, s, act="play", player=0, card="2H")
    # 1 card each, 3 players: AS (a trump) wins. Bob bid 1 took 1: 11; Cy bid 0 took 0: 10; Ann 0.
    assert s.scores == [0, 11, 10]
    view = s.view_for(None)
    assert isinstance(view, TricksView) and view.table is not None
    assert view.table.totals == ("Total", "0", "11", "10")
    assert view.pegged is False and view.tricks == (0, 1, 0) and view.bids == (1, 1, 0)
    assert view.to_json()["table"]["totals"] == ["Total", "0", "11", "10"]


def test_follow_suit_and_revokes():
    game = new_game("ohhell", 3, {"most": 2})
    s = game.new_initial_state()
    s = act(game, s, act="deal", dealer=0, hands=[["2H", "3S"], ["AH", "4D"], ["KC", "QC"]])
    s = act(game, s, act="trump", card="9D")
    for seat, bid in [(1, 1), (2, 0), (0, 0)]:
        s = act(game, s, act="bid", player=seat, tricks=bid)
    s = act(game, s, act="play", player=1, card="AH")
    s = act(game, s, act="play", player=2, card="KC")
    with pytest.raises(IllegalActionError, match="Player 1 must follow suit"):
        act(game, s, act="play", player=0, card="3S")


def random_game(seed, players=4):
    rng = random.Random(seed)
    game = new_game("ohhell", players, {"most": 3})
    s = game.new_initial_state()
    first = True
    while not s.is_over:
        deck = list(FRENCH_52)
        rng.shuffle(deck)
        size = s.hand_size
        hands = [deck[i * size:(i + 1) * size] for i in range(players)]
        data = {"act": "deal", "hands": [[str(c) for c in h] for h in hands]}
        if first:
            data["dealer"] = 0
            first = False
        s = act(game, s, **data)
        s = act(game, s, act="trump", card=str(deck[players * size]))
        while s.phase == "bid":
            try:
                s = act(game, s, act="bid", player=s.turn, tricks=rng.randint(0, size))
            except IllegalActionError:
                continue
        while s.phase == "play":
            hand = s.known[s.turn]
            led = s.trick[0][1].suit if s.trick else None
            legal = [c for c in hand if c.suit == led] or hand
            s = act(game, s, act="play", player=s.turn, card=str(rng.choice(legal)))
        yield s


@pytest.mark.parametrize("seed", range(5))
def test_random_games_invariants(seed):
    states = list(random_game(seed))
    last = states[-1]
    assert last.is_over and len(last.sheet) == len(deal_sizes(4, 3))
    for row in last.sheet:
        assert sum(row["tricks"]) == row["cards"]  # every trick is won by someone
        assert sum(row["bids"]) != row["cards"]  # the hook
    assert last.winner == last.scores.index(max(last.scores))
    assert TRICK_RANK[1] == 14


def test_views_hide_other_hands():
    game = new_game("ohhell", 3, {"most": 2})
    s = game.new_initial_state()
    s = act(game, s, act="deal", dealer=0, hands=[["2H", "3S"], ["AH", "4D"], ["KC", "QC"]])
    bob = json.dumps(s.view_for(1).to_json())
    assert '"AH"' in bob and '"2H"' not in bob and '"KC"' not in bob


def test_the_view_shows_the_trick_number_the_last_trick_and_the_legal_cards():
    from games.view import LastTrick, TrickCard, view_from_json

    game = new_game("ohhell", ["Ann", "Bob", "Cy"], {"most": 2})  # deals of 2, 1, 2 cards
    s = game.new_initial_state()
    for data in ({"act": "deal", "dealer": 0, "hands": [["AS", "KS"], ["2H", "3H"], ["4C", "5C"]]},
                 {"act": "trump", "card": "3D"}, {"act": "bid", "player": 1, "tricks": 0},
                 {"act": "bid", "player": 2, "tricks": 0}, {"act": "bid", "player": 0, "tricks": 0}):
        s = s.apply_json(data)
    assert s.view_for(None).active == (1, 2, 0) and s.view_for(None).trick_number == 1
    assert s.view_for(1).legal == ("2H", "3H") and s.view_for(0).legal is None  # Bob leads
    s = s.apply_json({"act": "play", "player": 1, "card": "2H"})
    assert s.view_for(2).legal == ("4C", "5C")  # void in hearts: anything goes
    s = s.apply_json({"act": "play", "player": 2, "card": "4C"})
    s = s.apply_json({"act": "play", "player": 0, "card": "AS"})
    view = s.view_for(1)
    assert view.last_trick == LastTrick((TrickCard(1, "2H"), TrickCard(2, "4C"), TrickCard(0, "AS")), 1)
    assert view.trick_number == 2 and view.legal == ("3H",) and view.trick == ()
    assert view_from_json(json.loads(json.dumps(view.to_json()))) == view
    for data in ({"act": "play", "player": 1, "card": "3H"}, {"act": "play", "player": 2, "card": "5C"},
                 {"act": "play", "player": 0, "card": "KS"}):
        s = s.apply_json(data)
    assert s.view_for(None).trick_number is None and s.view_for(None).active == ()  # the deal is scored
    s = s.apply_json({"act": "deal", "hands": [["AS"], ["2H"], ["4C"]]})
    assert s.view_for(None).last_trick is None  # a new deal clears it
