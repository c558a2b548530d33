"""How the cribbage variants play through the engine: their own steps (bids, gives, mogging,
pegging back, his nob in the play, the square) and the bad input each refuses, with a reason."""

import copy
import json
from pathlib import Path

import pytest

from games import new_game
from games.cribbage.revised import RevisedView, game_points
from games.errors import IllegalActionError, OptionError
from games.records import replay

GOLDEN = Path(__file__).parent / "golden"


def golden(name, upto=None):
    record = json.loads((GOLDEN / f"{name}.json").read_text())
    return record, replay(record, upto=upto).state


def act(state, **data):
    return state.apply_json(data)


def deal(name, players, dealer, hands, options=None):
    game = new_game(name, players, options)
    state = game.new_initial_state()
    return act(state, act="deal", dealer=dealer, hands=[h.split() for h in hands])


# ----------------------------------------------------------------- auction


def test_auction_refuses_a_bid_larger_than_the_bidders_score():
    s = deal("auction", 2, 0, ["4H 6C 9D JS QH 2C", "5D 5S 7C 8H KD 3S"])
    s = act(s, act="discard", player=0, cards=["JS", "QH"])
    s = act(s, act="discard", player=1, cards=["7C", "8H"])
    with pytest.raises(IllegalActionError, match="has 0 points and cannot bid 1"):
        act(s, act="bid", player=0, points=1)
    with pytest.raises(IllegalActionError, match="0 or more"):
        act(s, act="bid", player=0, points=-1)
    with pytest.raises(IllegalActionError, match="not Player 2's turn"):
        act(s, act="bid", player=1, points=0)  # the dealer bids first


def test_auction_tie_leaves_the_crib_with_the_dealer_and_the_deal_passes_from_who_dealt():
    record, _ = golden("auction_one_deal")
    actions = record["actions"]
    tie = [a if a.get("act") != "bid" else {**a, "points": 0} for a in actions[:5]]
    s = replay({**record, "actions": tie}).state
    assert s.dealer == 0 and s.phase == "starter" and s.scores == [0, 3]
    _, after = golden("auction_one_deal")
    assert after.dealer == 1  # Ann dealt deal 1, so Bob deals next although he bought deal 1's crib


def test_auction_winner_pays_and_plays_as_dealer():
    _, s = golden("auction_one_deal", upto=6)
    assert s.dealer == 1 and s.scores == [0, 1]  # Bob had 3 for last, paid 2
    assert [e.kind for e in s.events] == ["start", "bid"] and s.events[-1].points == -2
    _, before = golden("auction_one_deal", upto=4)
    with pytest.raises(IllegalActionError, match="has 3 points and cannot bid 4"):
        act(before, act="bid", player=1, points=4)


def test_auction_base_must_be_a_two_hand_game():
    with pytest.raises(OptionError, match="base"):
        new_game("auction", 3, {"base": "cribbage3"})


# ----------------------------------------------------------------- three and four hands


def test_solo_partners_peg_together_and_the_dealer_alone():
    _, s = golden("cribbage3-solo_one_deal")
    partner_events = [(e.side, e.points, e.kind) for e in s.events if e.side in (1, 2)]
    bob = [(p, k) for side, p, k in partner_events if side == 1]
    cat = [(p, k) for side, p, k in partner_events if side == 2]
    assert bob == cat  # whatever either partner made, both pegged
    assert all(e.side == 0 for e in s.events if e.kind == "crib")


def test_solo_gives_come_before_the_dealers_discard():
    s = deal("cribbage3-solo", 3, 0, ["AH 2H 3H 4C 9S 10S", "5D 5S 6H 7C KD", "JD QC 8H 8S 2C"])
    assert s.phase == "give"
    with pytest.raises(IllegalActionError, match="give a card to the dealer"):
        act(s, act="discard", player=0, cards=["9S", "10S", "KD", "2C"])
    with pytest.raises(IllegalActionError, match="does not hold"):
        act(s, act="give", player=1, card="2C")
    s = act(s, act="give", player=1, card="KD")
    s = act(s, act="give", player=2, card="2C")
    with pytest.raises(IllegalActionError, match="lays away 4 cards, not 2"):
        act(s, act="discard", player=0, cards=["9S", "10S"])


def test_four_hand_partners_share_a_score():
    _, s = golden("cribbage4_one_deal")
    view = s.view_for(None)
    assert [side.seats for side in view.sides] == [(0, 2), (1, 3)]
    assert [side.score for side in view.sides] == [22, 26]


@pytest.mark.parametrize("name,players,hands", [
    ("cribbage7", 2, ["5H 5C 6D 7S JH KC", "4S 4D 8C 9H 10S QD"]),
    ("cribbage3", 3, ["2S 3S 4S 9C KH 8H", "5H 10D JC 6S 6C", "7D 8D AC QS 3H"]),
    ("cribbage4", 4, ["5S 10H JC 4D", "3C 3D 9S KH", "6C 7C 8C QS", "2S 5D 7H 9D"]),
    ("revised", 3, ["2S 3S 4S 9C KH 8H", "5H 10D JC 6S 6C", "7D 8D AC QS 3H"]),
    ("noddy", 2, ["5C 6C", "4C 10S JH"]),
])
def test_a_deal_with_the_wrong_number_of_cards_is_refused(name, players, hands):
    with pytest.raises(IllegalActionError, match="is dealt \\d+ cards, not \\d+"):
        deal(name, players, 0, hands)


# ----------------------------------------------------------------- losing


def test_losing_the_first_to_the_target_loses():
    record, s = golden("losing_one_deal")
    assert s.loser == 1 and s.winner == 0 and s.phase == "over"
    assert s.result_text() == "Ann won" and s.scores[1] >= record["options"]["target"]


def test_losing_knows_its_bases():
    assert new_game("losing", 3, {"base": "cribbage3"}).spec.title == "Losing Three-hand Cribbage"
    with pytest.raises(OptionError, match="base"):
        new_game("losing", 2, {"base": "bhargage"})


# ----------------------------------------------------------------- revised


def test_revised_cards_of_an_earlier_deal_of_the_shuffle_are_refused():
    _, s = golden("revised_one_deal")
    view = s.view_for(None)
    assert isinstance(view, RevisedView)
    seen = view.seen_since_shuffle
    assert len(seen) == 13 and "JH" in seen  # twelve dealt cards and the starter
    with pytest.raises(IllegalActionError, match="earlier deal from this shuffle"):
        act(s, act="deal", dealer=1, hands=[["KH", "2C", "3C", "4C", "5C", "6C"], None])
    fresh = act(s, act="deal", dealer=1)
    fresh = act(fresh, act="discard", player=0)
    fresh = act(fresh, act="discard", player=1)
    with pytest.raises(IllegalActionError, match="earlier deal"):
        act(fresh, act="starter", card="JH")


def with_scores(state, scores):
    state = copy.deepcopy(state)
    state.scores = list(scores)
    return state


def test_revised_pegging_back_in_the_last_quartile():
    # Bob's 4H makes a run of three (3 points) in the golden deal; put both sides on 90+ first
    _, s = golden("revised_one_deal", upto=6)
    s = act(with_scores(s, [100, 95]), act="play", player=1, card="4H")
    assert s.scores == [100, 98]
    back = act(s, act="back", player=1)
    assert back.scores == [97, 95]
    with pytest.raises(IllegalActionError, match="nothing just pegged"):
        act(back, act="back", player=1)


@pytest.mark.parametrize("scores,reason", [
    ([91, 95], "would take them to 88, below 90"),
    ([100, 88], "both sides on 90 or more"),
    ([80, 95], "both sides on 90 or more"),
])
def test_revised_pegging_back_refused_with_a_reason(scores, reason):
    _, s = golden("revised_one_deal", upto=6)
    s = act(with_scores(s, scores), act="play", player=1, card="4H")
    with pytest.raises(IllegalActionError, match=reason):
        act(s, act="back", player=1)
    with pytest.raises(IllegalActionError, match="turn to back"):
        act(s, act="back", player=0)  # Ann pegged nothing just now


def test_revised_no_pegging_back_with_three_players():
    s = deal("revised", 3, 0, ["2S 3S 4S 9C KH", "5H 10D JC 6S 6C", "7D 8D AC QS 3H"])
    for seat, card in ((0, "KH"), (1, "JC"), (2, "QS")):
        s = act(s, act="discard", player=seat, cards=[card])
    s = act(s, act="starter", card="5C")
    s = act(with_scores(s, [100, 100, 100]), act="play", player=1, card="10D")
    s = act(s, act="play", player=2, card="3H")
    s = act(s, act="play", player=0, card="2S")  # 15 for 2
    with pytest.raises(IllegalActionError, match="two- and four-handed"):
        act(s, act="back", player=0)


def test_revised_his_nob_taken_in_the_play_is_not_counted_again():
    s = deal("revised", 2, 0, ["JD 4S 9C 8H 2C 3C", "5H 6H 7S KS QS 10H"])
    s = act(s, act="discard", player=0, cards=["2C", "3C"])
    s = act(s, act="discard", player=1, cards=["QS", "10H"])
    s = act(s, act="starter", card="2D")
    s = act(s, act="play", player=1, card="5H")
    with pytest.raises(IllegalActionError, match="his nob"):
        act(s, act="nob", player=1)  # 5H is not the jack of diamonds
    s = act(s, act="play", player=0, card="JD")  # 15 for 2
    s = act(s, act="nob", player=0)
    assert [(e.kind, e.points) for e in s.events] == [("play", 2), ("nob", 1)]
    while s.phase == "play":  # play out: the first card that fits, else go
        seat = s.turn
        fits = [c for c in s.known[seat] if s.count + min(c.rank, 10) <= 31]
        s = act(s, act="play", player=seat, card=str(fits[0])) if fits else act(s, act="go", player=seat)
    s = act(s, act="show", player=1)
    s = act(s, act="show", player=0)
    assert not [i for i in s.events[-1].items if i.kind == "nob"]


@pytest.mark.parametrize("scores,winner,points", [
    ([121, 95], 0, 1),   # seed 004: 1 for an opponent in the last quartile (90-120)
    ([70, 121], 1, 2),   # 2 for an opponent skunked on 60-89
    ([121, 59], 0, 4),   # 4 for an opponent double skunked below 60
    ([121, 95, 50], 0, 5),
])
def test_revised_points_for_a_win_by_quartile(scores, winner, points):
    assert game_points(scores, winner) == points


# ----------------------------------------------------------------- noddy


def test_noddy_has_no_go_and_no_crib():
    _, s = golden("noddy_one_deal", upto=4)
    assert s.phase == "play"
    with pytest.raises(IllegalActionError, match="count may pass 31"):
        act(s, act="go", player=1)
    with pytest.raises(IllegalActionError, match="no crib"):
        act(s, act="crib")


def test_noddy_non_dealer_reaching_31_in_hand_ends_the_game_before_the_dealer_counts():
    _, s = golden("noddy_one_deal", upto=2)
    s = act(with_scores(s, [20, 28]), act="show", player=1, cards=["4C", "10S", "JH"])
    assert s.is_over and s.winner == 1 and s.scores == [20, 35]
    with pytest.raises(IllegalActionError, match="game is over"):
        act(s, act="show", player=0, cards=["5C", "6C", "7D"])


def test_noddy_hand_may_be_announced_without_showing_it():
    _, s = golden("noddy_one_deal", upto=2)
    s = act(s, act="show", player=1, claim=7)
    assert s.scores == [0, 7] and s.events[-1].items[0].kind == "claim"
    with pytest.raises(IllegalActionError, match="give its cards or the points claimed"):
        act(s, act="show", player=0)


def test_noddy_jack_turned_is_knave_noddy_for_the_dealer():
    s = deal("noddy", 2, 0, ["5C 6C 7D", "4C 10S 2H"])
    s = act(s, act="starter", card="JH")
    assert [(e.side, e.points, e.kind) for e in s.events] == [(0, 2, "noddy")]


# ----------------------------------------------------------------- costly colours


def test_costly_mogging_swaps_cards_and_pays_for_a_jack_or_deuce_given():
    s = deal("costly", 2, 0, ["2H 7C 9H", "5H 4H 8H"])
    s = act(s, act="starter", card="6H")
    with pytest.raises(IllegalActionError, match="turn to mog"):
        act(s, act="mog", player=0, card="2H")  # the eldest decides first
    s = act(s, act="mog", player=1, card="8H")
    s = act(s, act="mog", player=0, card="2H")
    assert [(e.side, e.points, e.kind) for e in s.events] == [(0, 4, "mog")]  # the right deuce given
    assert sorted(map(str, s.known[1])) == ["2H", "4H", "5H"]
    with pytest.raises(IllegalActionError, match="does not hold 8H"):
        act(s, act="play", player=1, card="8H")
    s = act(s, act="play", player=1, card="2H")
    assert s.count == 2


def test_costly_refusing_to_mog_gives_the_other_one():
    _, s = golden("costly_one_deal", upto=3)
    assert [(e.side, e.points, e.kind) for e in s.events] == [(0, 4, "heels"), (0, 1, "mog")]


def test_costly_an_ace_may_count_eleven_in_the_play():
    s = deal("costly", 2, 0, ["AS 7C 9H", "4D 4H 8H"])
    s = act(s, act="starter", card="6C")
    s = act(s, act="refuse", player=1)
    s = act(s, act="play", player=1, card="4D")
    with pytest.raises(IllegalActionError, match="only an ace"):
        act(s, act="play", player=0, card="7C", eleven=True)
    s = act(s, act="play", player=0, card="AS", eleven=True)  # 4 + 11 = 15 with two cards
    assert s.count == 15 and s.events[-1].points == 2


# ----------------------------------------------------------------- patience


def test_patience_refuses_a_card_that_touches_nothing_and_places_off_the_square():
    s = new_game("patience", 1).new_initial_state()
    s = act(s, act="place", card="5H", row=0, col=0)
    with pytest.raises(IllegalActionError, match="must touch"):
        act(s, act="place", card="6H", row=2, col=2)
    with pytest.raises(IllegalActionError, match="no place at row 4"):
        act(s, act="place", card="6H", row=4, col=0)
    with pytest.raises(IllegalActionError, match="already in the square"):
        act(s, act="place", card="5H", row=0, col=1)
    with pytest.raises(IllegalActionError, match="cannot turn the starter yet"):
        act(s, act="starter", card="5D")


def test_patience_layout_needs_sixteen_cards():
    s = new_game("patience", 1).new_initial_state()
    with pytest.raises(IllegalActionError, match="16 cards, not 15"):
        act(s, act="layout", cards="AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AH 2H".split())
