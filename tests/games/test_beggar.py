"""Beggar My Neighbour (seed 002): the pay-card pile, the seed's worked example, the play-out of
record deals (Nessler's 8,344 cards) with cycle detection, and random whole games."""

import json
from pathlib import Path

import pytest

from games import IllegalActionError, PegpiError, new_game
from games.beggar import play_out, score_command
from games.cards import FRENCH_52, Card
from games.pileplay import autoplay
from games.records import load_record, replay, steps
from pegpi.cli import main
from tests.games import rulecards

ROOT = Path(__file__).parents[2]
GOLDEN = Path(__file__).parent / "golden"
CARD = (ROOT / "seeds" / "beggar.md").read_text()
NESSLER = ["---AJ--Q---------QAKQJJ-QK", "-----A----KJ-K--------A---"]


def table_after(heading: str) -> list[list[str]]:
    return rulecards.table_after(CARD, heading)


def test_nessler_2022_longest_terminating_deal():
    out = play_out(NESSLER)
    assert (out.winner, out.cards, out.tricks, out.cycle) == (1, 8344, 1164, None)
    assert sum(len(t.cards) for t in out.trick_list) <= out.cards


@pytest.mark.parametrize("row", table_after("## Record deals"))
def test_rule_card_record_deals(row):
    stacks, outcome, cards, tricks = row
    out = play_out([s.strip("`") for s in stacks.split()])
    if outcome.startswith("cycle"):
        assert out.cycle is not None and out.winner is None
        assert outcome == f"cycle from trick {out.cycle.start + 1}: {out.cycle.tricks} tricks"
        assert (out.cycle.cards, out.cycle.tricks) == (int(cards), int(tricks))
    else:
        assert out.cycle is None and outcome == f"player {out.winner + 1} wins"
        assert (out.cards, out.tricks) == (int(cards), int(tricks))


def test_a_cycle_really_repeats():
    out = play_out(["-J---", "-----J-"])
    assert out.cycle is not None
    c = out.cycle
    # The piles taken repeat with the cycle's period, and its cards are the cards of its tricks.
    period = out.trick_list[c.start:c.start + c.tricks]
    again = play_out(["-J---", "-----J-"]).trick_list[c.start:c.start + c.tricks]
    assert period == again and sum(len(t.cards) for t in period) == c.cards


def test_score_command_text_and_json():
    text = score_command(NESSLER, as_json=False)
    assert "Player 2 wins after 8344 cards and 1164 tricks." in text
    data = json.loads(score_command(NESSLER, as_json=True))
    assert data["winner"] == 2 and data["cards"] == 8344 and data["tricks"] == 1164
    assert len(data["trick_list"]) == 1164 and data["cycle"] is None
    cyc = json.loads(score_command(["-Q-", "---Q--"], as_json=True))
    assert cyc["winner"] is None and cyc["cycle"] == {"start_trick": 1, "tricks": 2, "cards": 8}
    assert "Never ends" in score_command(["-Q-", "---Q--"], as_json=False)


@pytest.mark.parametrize("args,word", [
    (["--Z-", "----"], "'Z'"),
    (["----"], "2 to 4 stacks"),
    (["AAAAA", "----"], "four"),
    (["", "--"], "empty"),
])
def test_bad_deals_are_named(args, word):
    with pytest.raises(PegpiError, match=word):
        score_command(args, as_json=False)


def test_pegpi_score_beggar_plays_nesslers_deal(capsys):
    assert main(["score", "beggar", *NESSLER]) == 0
    text = capsys.readouterr().out
    assert "Player 2 wins after 8344 cards and 1164 tricks." in text
    assert text.splitlines()[-1] == " 1164. player 2 takes ---A-A----"
    assert main(["score", "beggar", *NESSLER, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["winner"], data["cards"], data["tricks"], len(data["trick_list"])) == (2, 8344, 1164, 1164)
    assert main(["score", "beggar", "--json", "-Q-", "---Q--"]) == 0
    assert json.loads(capsys.readouterr().out)["cycle"] == {"start_trick": 1, "tricks": 2, "cards": 8}


@pytest.mark.parametrize("args,error", [
    (["--Z-", "----"], "stack 1 has 'Z'"),
    (["-J--"], "needs 2 to 4 stacks, not 1"),
    (["X--", "---"], "no pay card"),
    (["-Q-", "---Q--", "--starter", "5H"], "takes the stacks only"),
])
def test_pegpi_score_beggar_names_bad_input(capsys, args, error):
    assert main(["score", "beggar", *args]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("pegpi: error: ") and error in err and "Traceback" not in err


def test_pegpi_score_of_a_game_with_nothing_to_count(capsys):
    assert main(["score", "ratscrew", "-Q-", "---Q--"]) == 2
    assert capsys.readouterr().err == "pegpi: error: Egyptian Ratscrew has no hand to count\n"


def test_seed_example_table_step_by_step():
    record = load_record(GOLDEN / "beggar_seed_example.json")
    rows = table_after("## Worked example")
    names = record["players"]
    plays = [(before, action, after) for before, action, after in steps(record) if action.act == "play"]
    assert len(plays) == len(rows)
    for (before, action, after), (card, player, owed, _) in zip(plays, rows, strict=True):
        assert str(action.card) == card and names[action.player] == player
        assert before.view_for(None).turn == action.player
        assert after.view_for(None).owed == int(owed)
    last = plays[-1][2]
    assert last.phase == "take" and last.view_for(None).takes == 1
    result = replay(record).state
    view = result.view_for(0)
    expect = record["expect"]
    assert [list(view.stacks), view.tricks, view.turn] == [expect["stacks"], expect["tricks"], expect["turn"]]


def test_pegpi_replay_runs_the_golden_record(capsys):
    code = main(["replay", str(GOLDEN / "beggar_seed_example.json"), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["phase"] == "play" and out["winner"] is None


def test_only_the_winner_takes_and_only_in_turn():
    s = new_game("beggar", ["A", "B"]).new_initial_state().apply_json({"act": "deal"})
    with pytest.raises(IllegalActionError, match="turn"):
        s.apply_json({"act": "play", "player": 1, "card": "5H"})
    s = s.apply_json({"act": "play", "player": 0, "card": "JH"}).apply_json(
        {"act": "play", "player": 1, "card": "5H"})
    with pytest.raises(IllegalActionError, match="A"):
        s.apply_json({"act": "take", "player": 1})
    with pytest.raises(IllegalActionError):
        s.apply_json({"act": "play", "player": 0, "card": "6H"})
    s = s.apply_json({"act": "take", "player": 0})
    assert s.view_for(None).stacks == (27, 25)


def test_known_stacks_refuse_a_wrong_card_and_three_players_share_the_pack():
    stacks = [[str(c) for c in FRENCH_52[i::2]] for i in range(2)]
    s = new_game("beggar", 2).new_initial_state().apply_json({"act": "deal", "hands": stacks})
    with pytest.raises(IllegalActionError, match=stacks[0][0]):
        s.apply_json({"act": "play", "player": 0, "card": stacks[0][1]})
    three = new_game("beggar", 3).new_initial_state().apply_json({"act": "deal", "dealer": 0})
    assert three.view_for(None).stacks == (17, 18, 17) and three.view_for(None).turn == 1


def test_engine_agrees_with_play_out_on_a_random_deal():
    import random

    rng = random.Random(7)
    pack = list(FRENCH_52)
    rng.shuffle(pack)
    stacks = [pack[:26], pack[26:]]
    notation = ["".join({1: "A", 11: "J", 12: "Q", 13: "K"}.get(c.rank, "-") for c in s) for s in stacks]
    out = play_out(notation)
    game = new_game("beggar", 2)
    s = game.new_initial_state().apply_json({"act": "deal", "hands": [[str(c) for c in h] for h in stacks]})
    while not s.is_over and s.table.tricks < 2000:
        t = s.table
        if t.taker is not None:
            s = s.apply_json({"act": "take", "player": t.taker})
        else:
            s = s.apply_json({"act": "play", "player": t.turn, "card": str(t.top(t.turn))})
    if out.cycle is None:
        assert s.winner == out.winner and s.table.played == out.cards and s.table.tricks == out.tricks


@pytest.mark.parametrize("seed", range(8))
def test_random_games_keep_every_card(seed):
    players = 2 + seed % 3
    states = []
    record = autoplay("beggar", [f"P{i}" for i in range(players)], seed=seed, known_hands=seed % 2 == 0,
                      each=states.append, max_actions=1500)
    for state in states[1:]:
        t = state.table
        assert sum(t.sizes) + len(t.pile) == 52
        assert all(size >= 0 for size in t.sizes)
        if t.stacks is not None:
            assert [len(s) for s in t.stacks] == t.sizes
        if state.is_over:
            assert t.sizes[state.winner] > 0
    assert replay(record).state.history == states[-1].history


def test_record_words_are_the_rule_cards():
    record = autoplay("beggar", seed=3)
    assert {a["act"] for a in record["actions"]} <= {"deal", "play", "take"}
    for word in ("deal", "play", "take"):
        assert f"| `{word}` |" in CARD
    assert Card.parse("10C") in FRENCH_52
