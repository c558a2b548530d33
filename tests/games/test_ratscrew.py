"""Egyptian Ratscrew (seed 002): each slap pattern of the rule card, the chances, slaps ruled
right and wrong with the seed's penalties, and random whole games with slaps."""

from pathlib import Path

import pytest

from games import IllegalActionError, OptionError, new_game
from games.cards import Card
from games.pileplay import autoplay
from games.ratscrew import DEFAULTS, pattern
from games.records import load_record, replay
from tests.games import rulecards

ROOT = Path(__file__).parents[2]
GOLDEN = Path(__file__).parent / "golden"
CARD = (ROOT / "seeds" / "ratscrew.md").read_text()


def table_after(heading: str) -> list[list[str]]:
    return rulecards.table_after(CARD, heading)


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def options_of(text: str) -> dict[str, object]:
    out = {}
    for part in text.split():
        name, value = part.split("=")
        out[name] = value == "on"
    return out


@pytest.mark.parametrize("row", table_after("## Worked examples"))
def test_rule_card_slap_patterns(row):
    pile, opts, want = row
    options = {**DEFAULTS, **options_of(opts)}
    assert pattern(cards(pile), options) == (None if want == "-" else want)


def test_every_pattern_of_the_options_table_is_an_example():
    named = {row[2].split("**")[1] for row in table_after("## Slaps")}
    examples = {row[2] for row in table_after("## Worked examples")}
    assert named <= examples


def deal(players=3, options=None, dealer=None):
    s = new_game("ratscrew", players, options).new_initial_state()
    return s.apply_json({"act": "deal"} if dealer is None else {"act": "deal", "dealer": dealer})


def play(s, *pairs):
    for seat, card in pairs:
        s = s.apply_json({"act": "play", "player": seat, "card": card})
    return s


def test_chances_then_the_face_card_player_takes():
    s = deal(3)  # seat 0 leads, with 18 cards (17 each for the others)
    s = play(s, (0, "QH"), (1, "5C"), (1, "7D"))
    v = s.view_for(None)
    assert s.phase == "take" and v.takes == 0 and v.slappable is None
    with pytest.raises(IllegalActionError):
        s.apply_json({"act": "take", "player": 1})
    s = s.apply_json({"act": "take", "player": 0})
    assert s.view_for(None).stacks == (20, 15, 17) and s.view_for(None).turn == 0


def test_a_face_card_within_the_chances_passes_them_on():
    s = play(deal(3), (0, "KH"), (1, "5C"), (1, "JD"))
    v = s.view_for(None)
    assert v.turn == 2 and v.owed == 1 and v.payee == 1


def test_a_right_slap_takes_the_pile_and_announces_the_pattern():
    s = play(deal(3), (0, "9H"), (1, "9C"))
    v = s.view_for(2)
    assert v.slappable == "pair"
    assert v.pile == ("9H", "9C") and v.pile_seats == (0, 1)
    s = s.apply_json({"act": "slap", "player": 2})
    v = s.view_for(None)
    assert v.ruling.right is True and v.ruling.pattern == "pair"
    assert v.stacks == (17, 16, 19) and v.turn == 2 and v.pile == ()
    late = s.apply_json({"act": "slap", "player": 0})  # a slower hand: nothing happens
    assert late.view_for(None).stacks == (17, 16, 19) and late.view_for(None).ruling.right is None


def test_a_wrong_slap_gives_the_pile_to_the_last_player():
    s = play(deal(3), (0, "9H"), (1, "4C"))
    s = s.apply_json({"act": "slap", "player": 2})
    v = s.view_for(None)
    assert v.ruling.right is False and v.ruling.to == 1
    assert v.stacks == (17, 18, 17) and v.turn == 1 and v.false_slaps == (0, 0, 1)


def test_slapping_your_own_card_wrongly_gives_it_to_the_player_before():
    s = play(deal(3), (0, "9H"), (1, "4C"))
    s = s.apply_json({"act": "slap", "player": 1})
    assert s.view_for(None).ruling.to == 0


def test_a_pile_slapped_after_the_pair_was_covered_is_wrong():
    s = play(deal(3), (0, "9H"), (1, "9C"), (2, "3D"))
    s = s.apply_json({"act": "slap", "player": 0})
    assert s.view_for(None).ruling.to == 2  # the player of the 3 picks it up


def test_triples_win_and_triple_sixes_burn():
    s = play(deal(3), (0, "9H"), (1, "9C"), (2, "9D"))
    won = s.apply_json({"act": "slap", "player": 1})
    assert won.is_over and won.winner == 1
    s = play(deal(3), (0, "6H"), (1, "6C"), (2, "6D"))
    burned = s.apply_json({"act": "slap", "player": 1})
    assert burned.is_over and burned.winner is None and "everyone" in burned.result_text()
    with pytest.raises(IllegalActionError, match="over"):
        burned.apply_json({"act": "play", "player": 0, "card": "2S"})


def test_more_than_five_wrong_slaps_in_a_row_puts_a_player_out():
    s = deal(3)
    for k in range(6):
        seat = s.view_for(None).turn
        s = s.apply_json({"act": "play", "player": seat, "card": ["2H", "4C", "6D", "8S", "10H", "3C"][k]})
        s = s.apply_json({"act": "slap", "player": 2})
    v = s.view_for(None)
    assert v.banned == (2,) and 2 in v.out
    assert sum(v.stacks) + len(v.pile) == 52
    ignored = play(s, (v.turn, "5S")).apply_json({"act": "slap", "player": 2})
    assert ignored.view_for(None).ruling.right is None


def test_jokers_option_and_the_pack():
    with pytest.raises(Exception, match="jokers"):
        new_game("ratscrew", 2).parse_card("RJ")
    s = deal(2, {"jokers": True})
    assert sum(s.view_for(None).stacks) == 54
    s = play(s, (0, "5D"), (1, "RJ"))
    assert s.view_for(None).slappable == "joker"
    with pytest.raises(OptionError):
        new_game("ratscrew", 2, {"false_slap_limit": -1})


def test_golden_record_replays():
    record = load_record(GOLDEN / "ratscrew_one_game.json")
    result = replay(record).state
    v = result.view_for(None)
    assert [list(v.stacks), result.winner] == [record["expect"]["stacks"], record["expect"]["winner"]]
    fresh = autoplay("ratscrew", record["players"], seed=record["expect"]["seed"])
    assert fresh["actions"] == record["actions"]


@pytest.mark.parametrize("seed", range(10))
def test_random_games_with_slaps_keep_every_card(seed):
    players = 2 + seed % 7
    options = {"jokers": seed % 3 == 0, "sandwiches": seed % 2 == 0}
    deck = 54 if options["jokers"] else 52
    states = []
    record = autoplay("ratscrew", [f"P{i}" for i in range(players)], seed=seed, known_hands=seed % 2 == 1,
                      options=options, each=states.append, false_slap_rate=0.1)
    rulings = 0
    for state in states[1:]:
        t = state.table
        assert sum(t.sizes) + len(t.pile) == deck
        if t.stacks is not None:
            assert [len(s) for s in t.stacks] == t.sizes
        v = state.view_for(0)
        assert v.slappable == state.slappable() and (v.slappable is None or v.pile)
        if v.ruling and v.ruling.right is not None:
            rulings += 1
    assert rulings > 0
    assert replay(record).state.view_for(None) == states[-1].view_for(None)


def test_a_player_out_of_cards_may_slap_back_in_but_a_wrong_slap_is_ignored():
    s = deal(2)
    s.table.sizes = [1, 51]  # a fresh state not yet handed out: set up the end of a game
    s = play(s, (0, "9H"), (1, "4C"))
    assert s.view_for(None).out == (0,) and s.view_for(None).turn == 1 and not s.is_over
    s = s.apply_json({"act": "slap", "player": 0})
    assert s.view_for(None).ruling.right is False and s.view_for(None).stacks == (0, 50)
    s = play(s, (1, "4D"))
    s = s.apply_json({"act": "slap", "player": 0})
    v = s.view_for(None)
    assert v.ruling.pattern == "pair" and v.stacks == (3, 49) and v.out == () and v.turn == 0
