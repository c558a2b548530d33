"""Oh Hell through the same engine contract: bids, the dealer's hook, trumps, following suit,
a score table instead of a peg board (seed 002, "Oh Hell")."""

import json
from pathlib import Path

import pytest

from games import IllegalActionError, new_game
from games.ohhell import TRICK_RANK, deal_sizes
from games.records import replay
from games.trickplay import autoplay
from games.view import TricksView
from pegpi.cli import main

GOLDEN = Path(__file__).parent / "golden"


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


@pytest.mark.parametrize("seed", range(5))
def test_random_games_invariants(seed):
    states = []
    autoplay("ohhell", ["Ann", "Bob", "Cy", "Di"], seed=seed, known_hands=True, deals=0, options={"most": 3},
             each=states.append)
    last = states[-1]
    assert last.is_over and len(last.sheet) == len(deal_sizes(4, 3))
    for row in last.sheet:
        assert sum(row["tricks"]) == row["cards"]  # every trick is won by someone
        assert sum(row["bids"]) != row["cards"]  # the hook
    assert last.winner == last.scores.index(max(last.scores))
    assert TRICK_RANK[1] == 14 and last.claims == []  # known hands: a revoke is refused, never claimed


@pytest.mark.parametrize(("sequence", "sizes"), [("down-up", [3, 2, 1, 2, 3]), ("up-down", [1, 2, 3, 2, 1]),
                                                 ("down", [3, 2, 1]), ("up", [1, 2, 3])])
def test_the_deal_sizes_of_the_seed_and_its_variants(sequence, sizes):
    state = new_game("ohhell", 4, {"most": 3, "sequence": sequence}).new_initial_state()
    assert state.sizes == sizes and state.hand_size == sizes[0]
    record = autoplay("ohhell", ["A", "B", "C", "D"], seed=1, deals=0, options={"most": 3, "sequence": sequence})
    assert [row["cards"] for row in replay(record).state.sheet] == sizes


def test_blob_scoring_gives_ten_plus_the_bid_only_when_exact():
    game, s = one_card_deal({"scoring": "blob"})
    for seat, bid in [(1, 1), (2, 1), (0, 1)]:
        s = act(game, s, act="bid", player=seat, tricks=bid)
    for seat, card in [(1, "AS"), (2, "KH"), (0, "2H")]:
        s = act(game, s, act="play", player=seat, card=card)
    assert s.scores == [0, 11, 0]


def test_a_revoke_is_claimed_when_a_later_card_proves_it():
    game = new_game("ohhell", ["Ann", "Bob", "Cy"], {"most": 2})
    s = game.new_initial_state()
    for data in ({"act": "deal", "dealer": 0}, {"act": "trump", "card": "9D"},
                 {"act": "bid", "player": 1, "tricks": 1}, {"act": "bid", "player": 2, "tricks": 0},
                 {"act": "bid", "player": 0, "tricks": 0},
                 {"act": "play", "player": 1, "card": "AH"}, {"act": "play", "player": 2, "card": "KC"},
                 {"act": "play", "player": 0, "card": "2S"}):
        s = s.apply_json(data)
    assert s.claims == []  # Ann showed no heart: nothing is proven yet
    for data in ({"act": "play", "player": 1, "card": "3C"}, {"act": "play", "player": 2, "card": "QC"}):
        s = s.apply_json(data)
    s = s.apply_json({"act": "play", "player": 0, "card": "5H"})
    (claim,) = s.claims
    assert (claim.deal, claim.trick, claim.player, str(claim.card), str(claim.proof)) == (1, 1, 0, "2S", "5H")
    assert claim.rule == "failed to follow suit" and claim.amount == 10
    before = s.scores[0]
    accepted = s.apply_json({"act": "accept", "claim": 0})
    assert accepted.scores[0] == before - 10 and accepted.claims[0].status == "accepted"
    dismissed = s.apply_json({"act": "dismiss", "claim": 0})
    assert dismissed.scores == s.scores
    with pytest.raises(IllegalActionError, match="already dismissed"):
        dismissed.apply_json({"act": "accept", "claim": 0})


def test_pegpi_replay_runs_the_golden_record(capsys):
    record = json.loads((GOLDEN / "ohhell_whole_game.json").read_text())
    code = main(["replay", str(GOLDEN / "ohhell_whole_game.json"), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["scores"] == record["expect"]["scores"]
    state = replay(record).state
    assert state.winner == record["expect"]["winner"]
    assert sorted(c.status for c in state.claims) == ["accepted", "dismissed"]


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
