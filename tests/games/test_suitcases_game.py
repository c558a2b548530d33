"""Suitcases played through the engine (seed 001): suit casing, cleaning hands, the end."""

import json
from pathlib import Path

import pytest

from games import CardError, IllegalActionError, OptionError, new_game
from games.records import replay
from games.suitcases.game import SuitcasesView

GOLDEN = Path(__file__).parent / "golden"
SEED = "seed 001"


def start(actions=(), options=None):
    game = new_game("suitcases", ["Ann", "Bob"], options)
    state = game.new_initial_state()
    for a in actions:
        state = state.apply_json(a)
    return game, state


def act(game, state, **data):
    return state.apply_json(data)


def golden():
    return json.loads((GOLDEN / "suitcases_one_deal.json").read_text())


def test_hand_counted_golden_deal():
    """The expectations were counted by hand from seed 001 (working in seeds/suitcases.md)."""
    record = golden()
    result = replay(record)
    assert result.state.scores == record["expect"]["scores"]
    assert [[e.side, e.points, e.kind] for e in result.events] == record["expect"]["events"]


def after(n):
    record = golden()
    return start(record["actions"][:n])


def test_a_suit_may_not_be_used_twice_in_an_attempt():
    """Source: seed 001, suit casing: players "cannot use a suit twice and thus may need to say pass"."""
    game, s = after(5)  # Bob has led the Lunatic (Moons, Waves)
    with pytest.raises(IllegalActionError, match="cannot play the Forest: Moons already used in this suit attempt"):
        act(game, s, act="play", player=0, card="the Forest")
    with pytest.raises(IllegalActionError, match="Ann must play: the Market; the Bard can go on"):
        act(game, s, act="pass", player=0)


def test_the_other_player_must_keep_playing_after_a_pass():
    """Source: seed 001, "If your opponent passes but you can play additional cards into that suit
    attempt you must do so"."""
    game, s = after(8)  # Ann has passed; Bob still holds the Excuse, which has no suit
    assert s.turn == 1
    with pytest.raises(IllegalActionError, match="Bob must play: the Excuse can go on"):
        act(game, s, act="pass", player=1)


def test_last_player_able_to_play_scores_one_and_the_other_leads():
    """Source: seed 001, "1 point to the last player able to play in each suit attempt; the other
    player initiates the next suit attempt", with a clean slate."""
    game, s = after(10)
    assert s.last_events[-1].kind == "last" and s.last_events[-1].side == 1
    assert s.turn == 0 and s.pile == []
    with pytest.raises(IllegalActionError, match="any card may be led"):
        act(game, s, act="pass", player=0)


def test_clean_slate_each_attempt():
    """Source: seed 001, "there is a clean slate at the start of each suit attempt regarding pairs
    and runs": an Ace led after an attempt that ended on an Ace is no pair."""
    hands = [["the End", "the Calamity", "Ace of Moons", "the Market", "the Sea", "the Windfall"],
             ["the Huntress", "the Bard", "the Penitent", "Ace of Knots", "the Author", "the Desert"]]
    game, s = start([{"act": "deal", "dealer": 1, "hands": hands},
                     {"act": "discard", "player": 0, "cards": ["the Sea", "the Windfall"]},
                     {"act": "discard", "player": 1, "cards": ["the Author", "the Desert"]},
                     {"act": "starter", "card": "the Origin"}])
    for seat, name in [(0, "the End"), (1, "the Huntress"), (0, "the Calamity"), (1, "the Bard")]:
        s = act(game, s, act="play", player=seat, card=name)
    assert s.scores == [6, 2 + 12]  # pair, three and four Crowns in one attempt
    s = act(game, s, act="pass", player=0)  # Moons and Leaves are used
    s = act(game, s, act="play", player=1, card="Ace of Knots")
    s = act(game, s, act="pass", player=1)
    assert s.scores == [6, 15] and s.turn == 0 and s.pile == []
    s = act(game, s, act="play", player=0, card="Ace of Moons")
    assert s.scores == [6, 15]  # not a pair with the Ace of Knots of the attempt before


def test_sum_of_eleven_in_the_play():
    """Source: seed 001, scoring events: "sum of 11 (1 point)" as cards are played."""
    hands = [["the Forest", "the Sea", "the Huntress", "the Bard", "the End", "the Calamity"],
             ["the Lunatic", "Ace of Knots", "the Author", "the Desert", "the Windfall", "the Excuse"]]
    game, s = start([{"act": "deal", "dealer": 0, "hands": hands},
                     {"act": "discard", "player": 0, "cards": ["the End", "the Calamity"]},
                     {"act": "discard", "player": 1, "cards": ["the Windfall", "the Excuse"]},
                     {"act": "starter", "card": "the Origin"},
                     {"act": "play", "player": 1, "card": "the Lunatic"}])
    s = act(game, s, act="play", player=0, card="the Bard")  # 6 + Crown 10: 16
    assert s.scores == [0, 0]
    game, s = start([{"act": "deal", "dealer": 0, "hands": hands},
                     {"act": "discard", "player": 0, "cards": ["the End", "the Calamity"]},
                     {"act": "discard", "player": 1, "cards": ["the Windfall", "the Excuse"]},
                     {"act": "starter", "card": "the Origin"},
                     {"act": "play", "player": 1, "card": "Ace of Knots"}])
    s = act(game, s, act="play", player=0, card="the Bard")  # Ace + Crown (rank 10): 11
    assert s.scores == [1, 0] and s.events[-1].say() == "11 for 1"


def test_skunk_lines():
    """Source: seed 001, "skunked if at 61 to 90 points when the opponent wins, and double skunked
    if at 60 points or less"."""
    game = new_game("suitcases")
    assert game.skunk_lines() == [("skunk", 91), ("double skunk", 61)]


@pytest.mark.parametrize("top, previous, events", [
    ("the Excuse", None, ["sky high"]),
    ("the Harvest", None, ["so low"]),
    ("the Sea", "the Huntress", ["royal clique"]),
    ("the Sea", "the Author", []),
])
def test_starter_events(top, previous, events):
    """Source: seed 001, "Sky High" (the Excuse), "So Low" (a Pawn), "Royal Clique" (a Crown both
    last round and this round): 2 points to the dealer, when playing muggins."""
    options = {"muggins": True, "starter_events": True}
    game, s = start([{"act": "deal", "dealer": 0}, {"act": "discard", "player": 0},
                     {"act": "discard", "player": 1}], options)
    if previous is not None:
        s.starters.append(game.parse_card(previous))  # the top card of the deal before
    s = act(game, s, act="starter", card=top)
    got = [i.kind for e in s.last_events for i in e.items]
    assert got == events
    assert s.scores == [2 * len(events), 0]
    plain_game, plain = start([{"act": "deal", "dealer": 0}, {"act": "discard", "player": 0},
                               {"act": "discard", "player": 1}])
    assert act(plain_game, plain, act="starter", card=top).scores == [0, 0]


def test_starter_events_go_with_muggins():
    with pytest.raises(OptionError, match="muggins"):
        new_game("suitcases", 2, {"starter_events": True})


def test_muggins_takes_what_was_overlooked():
    """Source: seed 001, muggins: "a player scores any points overlooked by his or her opponent"."""
    record = golden()
    actions = record["actions"][:15] + [{"act": "show", "player": 1, "claim": 3}]
    game, s = start(actions, {"muggins": True})
    assert s.scores[1] == 13 + 3
    s = act(game, s, act="muggins", player=0)
    assert s.scores == [4 + 2, 16]
    with pytest.raises(IllegalActionError, match="claims 7 but the hand counts 5"):
        start(record["actions"][:15] + [{"act": "show", "player": 1, "claim": 7}], {"muggins": True})


@pytest.mark.parametrize("text, message", [
    ("QS", "French card: Suitcases is played with the Decktet"),
    ("the Fool", "not a Decktet card"),
])
def test_bad_cards_are_refused_with_a_reason(text, message):
    with pytest.raises(CardError, match=message):
        new_game("suitcases").action_from_json({"act": "play", "player": 0, "card": text})


def test_views_hide_the_other_hand_and_show_the_suits_used():
    game, s = after(6)
    view = s.view_for(1)
    assert isinstance(view, SuitcasesView)
    assert view.suits_used == ("Moons", "Waves", "Leaves", "Knots")
    text = json.dumps(view.to_json())
    for name in ("the Forest", "the Mountain", "the Bard"):  # Ann's, not yet played
        assert f'"{name}"' not in text


def test_whole_game_regression_record():
    """A whole game (hidden hands) replays to the same end; see the record's note."""
    record = json.loads((GOLDEN / "suitcases_whole_game.json").read_text())
    result = replay(record)
    expect = record["expect"]
    assert (result.state.scores, result.state.winner, len(result.events)) == (
        expect["scores"], expect["winner"], expect["events"])
    assert result.state.scores[expect["winner"]] >= 121
