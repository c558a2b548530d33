"""Six- and five-card Cribbage played through the engine: turns, the play, the show, the end."""

import json
from pathlib import Path

import pytest

from games import IllegalActionError, OptionError, RecordError, new_game
from games.records import replay

GOLDEN = Path(__file__).parent / "golden"


def start(name="cribbage", actions=(), options=None):
    game = new_game(name, ["Ann", "Bob"], options)
    state = game.new_initial_state()
    for a in actions:
        state = state.apply_json(a)
    return game, state


def act(game, state, **data):
    return state.apply_json(data)


DEALT = [{"act": "deal", "dealer": 0}, {"act": "discard", "player": 0}, {"act": "discard", "player": 1}]


@pytest.mark.parametrize("name", ["cribbage_one_deal", "cribbage5_one_deal"])
def test_hand_counted_golden_deals(name):
    """The records' expectations were counted by hand (see the rule cards)."""
    record = json.loads((GOLDEN / f"{name}.json").read_text())
    result = replay(record)
    assert result.state.scores == record["expect"]["scores"]
    got = [[e.side, e.points, e.kind] for e in result.events]
    assert got == record["expect"]["events"]


def test_cut_for_deal_lowest_deals_and_ties_cut_again():
    game, s = start()
    s = act(game, s, act="cut", player=0, card="7S")
    s = act(game, s, act="cut", player=1, card="7D")
    assert s.phase == "cut" and s.dealer is None  # a tie: cut again
    s = act(game, s, act="cut", player=0, card="KS")
    s = act(game, s, act="cut", player=1, card="AD")
    assert s.phase == "deal" and s.dealer == 1
    with pytest.raises(IllegalActionError, match="it is Bob's deal, not Ann's"):
        act(game, s, act="deal", dealer=0)


def test_his_heels():
    game, s = start(actions=DEALT)
    s = act(game, s, act="starter", card="JC")
    assert s.scores == [2, 0] and s.events[-1].kind == "heels"


def test_turns_and_reasons():
    game, s = start(actions=DEALT + [{"act": "starter", "card": "2C"}])
    with pytest.raises(IllegalActionError, match="not Ann's turn"):
        act(game, s, act="play", player=0, card="5H")
    s = act(game, s, act="play", player=1, card="KH")
    with pytest.raises(IllegalActionError, match="KH has already been seen"):
        act(game, s, act="play", player=0, card="KH")
    with pytest.raises(IllegalActionError, match="2C has already been seen"):
        act(game, s, act="play", player=0, card="2C")  # the starter
    s = act(game, s, act="play", player=0, card="QH")
    s = act(game, s, act="play", player=1, card="JH")
    with pytest.raises(IllegalActionError, match="5H would take the count to 35, over 31: Ann must say go"):
        act(game, s, act="play", player=0, card="5H")


def test_a_refused_action_changes_nothing():
    game, s = start(actions=DEALT + [{"act": "starter", "card": "2C"}])
    before = s.view_for(None)
    with pytest.raises(IllegalActionError):
        act(game, s, act="play", player=1, card="2C")
    assert s.view_for(None) == before


def test_go_then_the_other_plays_on_and_takes_last():
    game, s = start(actions=DEALT + [{"act": "starter", "card": "2C"}])
    for seat, card in [(1, "KH"), (0, "QH"), (1, "9H")]:
        s = act(game, s, act="play", player=seat, card=card)
    assert s.count == 29
    s = act(game, s, act="go", player=0)
    assert s.turn == 1
    s = act(game, s, act="play", player=1, card="AS")  # 30
    s = act(game, s, act="go", player=1)
    assert s.scores == [0, 1] and s.count == 0
    assert s.turn == 0  # the player after the last to play leads the next count


def test_a_play_after_saying_go_means_the_count_ended():
    """Inferred from the order of plays: Ann said go, Bob played on, then Ann leads again."""
    game, s = start(actions=DEALT + [{"act": "starter", "card": "2C"}])
    for seat, card in [(1, "KH"), (0, "QH"), (1, "9H")]:
        s = act(game, s, act="play", player=seat, card=card)
    s = act(game, s, act="go", player=0)
    s = act(game, s, act="play", player=0, card="3D")
    assert s.scores == [0, 1] and s.count == 3 and s.turn == 1


def test_known_hands_are_checked():
    hands = [["5H", "5C", "5S", "JD", "KH", "QH"], ["AC", "2C", "3C", "4C", "6D", "7D"]]
    game, s = start(actions=[{"act": "deal", "dealer": 0, "hands": hands}])
    with pytest.raises(IllegalActionError, match="Ann does not hold 9S"):
        act(game, s, act="discard", player=0, cards=["9S", "KH"])
    with pytest.raises(IllegalActionError, match="say which cards"):
        act(game, s, act="discard", player=0)
    s = act(game, s, act="discard", player=0, cards=["KH", "QH"])
    s = act(game, s, act="discard", player=1, cards=["6D", "7D"])
    s = act(game, s, act="starter", card="5D")
    s = act(game, s, act="play", player=1, card="AC")
    s = act(game, s, act="play", player=0, card="5H")
    with pytest.raises(IllegalActionError, match="Bob can still play"):
        act(game, s, act="go", player=1)


def test_the_game_ends_the_instant_the_target_is_reached_even_mid_show():
    game, s = start(options={"target": 10}, actions=DEALT + [{"act": "starter", "card": "5D"}])
    for seat, card in [(1, "10H"), (0, "5S"), (1, "5C"), (0, "5H"), (0, "6C"), (1, "7C"), (0, "8H"),
                       (1, "4S")]:
        if seat == 0 and card == "6C":
            s = act(game, s, act="go", player=1)
        s = act(game, s, act="play", player=seat, card=card)
        if s.is_over:
            break
    assert s.is_over and s.winner == 0 and s.scores[0] >= 10
    with pytest.raises(IllegalActionError, match="the game is over: Ann won"):
        act(game, s, act="show", player=1)


def test_show_order_and_crib_last():
    record = json.loads((GOLDEN / "cribbage_one_deal.json").read_text())
    game, s = start(actions=record["actions"][:15])
    assert s.phase == "show"
    with pytest.raises(IllegalActionError, match="not Ann's turn"):
        act(game, s, act="show", player=0)
    with pytest.raises(IllegalActionError, match="crib is counted last"):
        act(game, s, act="crib", cards=["QS", "KS", "2D", "3C"])
    s = act(game, s, act="show", player=1)
    s = act(game, s, act="show", player=0)
    with pytest.raises(IllegalActionError, match="5H has already been seen"):
        act(game, s, act="crib", cards=["QS", "KS", "2D", "5H"])


def test_hidden_hands_stay_hidden_in_views():
    hands = [["5H", "5C", "5S", "JD", "KH", "QH"], ["AC", "2C", "3C", "4C", "6D", "7D"]]
    game, s = start(actions=[{"act": "deal", "dealer": 0, "hands": hands}])
    ann, bob, spectator = (json.dumps(s.view_for(x).to_json()) for x in (0, 1, None))
    assert '"5H"' in ann and '"5H"' not in bob and '"5H"' not in spectator
    assert '"AC"' in bob and '"AC"' not in ann


def test_muggins_claims_and_takes():
    record = json.loads((GOLDEN / "cribbage_one_deal.json").read_text())
    actions = [a for a in record["actions"][:15]]
    game, s = start(options={"muggins": True}, actions=actions)
    with pytest.raises(IllegalActionError, match="say how many points you claim"):
        act(game, s, act="show", player=1)
    with pytest.raises(IllegalActionError, match="claims 8 but the hand counts 6"):
        act(game, s, act="show", player=1, claim=8)
    s = act(game, s, act="show", player=1, claim=4)  # Bob missed the pair
    assert s.scores[1] == 3 + 4
    with pytest.raises(IllegalActionError, match="not Bob's turn"):
        act(game, s, act="muggins", player=1)
    s = act(game, s, act="muggins", player=0)
    assert s.scores[0] == 12 + 2 and s.events[-1].kind == "muggins"


def test_five_card_one_count_and_three_for_last():
    game, s = start("cribbage5", actions=DEALT)
    assert s.scores == [0, 3]
    assert game.target == 61 and game.skunk_lines() == [("lurch", 45)]


def test_options_are_checked():
    with pytest.raises(OptionError, match="no option 'colour'"):
        new_game("cribbage", 2, {"colour": "red"})
    with pytest.raises(OptionError, match="whole number"):
        new_game("cribbage", 2, {"target": "lots"})
    with pytest.raises(OptionError, match="played by 2 players, not 3"):
        new_game("cribbage", 3)


@pytest.mark.parametrize(
    "action, message",
    [({"act": "fly"}, "no action 'fly'"), ({"act": "play", "player": 0}, "needs 'card'"),
     ({"act": "play", "player": "Ann", "card": "5H"}, "whole number"),
     ({"act": "play", "player": 0, "card": "5Z"}, "'5Z' is not a card"),
     ({"act": "deal", "dealer": 0, "colour": 1}, "no field 'colour'"), ("play", "an action is an object")],
)
def test_bad_actions_are_refused_with_a_reason(action, message):
    game = new_game("cribbage", 2)
    with pytest.raises((RecordError, ValueError), match=message):
        game.action_from_json(action)


def test_replay_names_the_bad_action():
    record = json.loads((GOLDEN / "cribbage_one_deal.json").read_text())
    record["actions"][7] = {"act": "play", "player": 0, "card": "10H"}
    with pytest.raises(RecordError, match=r"action 7 .*10H has already been seen") as err:
        replay(record)
    assert err.value.index == 7
