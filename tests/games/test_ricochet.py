"""Ricochet Poker: the rule card's worked example (the seed's four players), the lowest hand
found after every card, folds and players out, the pot, options, the score command and random
playouts with invariants at every step."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from games import new_game
from games.cards import FRENCH_52, FRENCH_54, Card
from games.errors import CardError, IllegalActionError, OptionError
from games.faceplay import autoplay
from games.records import replay, steps
from games.ricochet import RicochetState, RicochetView
from games.view import view_from_json
from pegpi.cli import main

ROOT = Path(__file__).parents[2]
GOLDEN = Path(__file__).parent / "golden"
CARD = (ROOT / "seeds" / "ricochet.md").read_text()
PLAYERS = ["P1", "P2", "P3", "P4"]


def tables_after(heading: str) -> list[list[list[str]]]:
    """Every Markdown table after ``heading`` up to the next heading, rows as cells."""
    section = CARD.split(heading, 1)[1].split("\n## ", 1)[0]
    tables: list[list[list[str]]] = []
    block: list[str] = []
    for line in [*section.splitlines(), ""]:
        if line.startswith("|"):
            block.append(line)
        elif block:
            tables.append([[c.strip() for c in row.strip("|").split("|")] for row in block[2:]])
            block = []
    return tables


def action(text: str) -> dict[str, object]:
    """A row's action: "give SEAT CARD", "buy SEAT COUNT" or "fold SEAT"."""
    word, seat, *arg = text.split()
    if word == "give":
        return {"act": "give", "to": int(seat), "card": arg[0]}
    if word == "buy":
        return {"act": "buy", "player": int(seat), "count": int(arg[0])}
    return {"act": word, "player": int(seat)}


def start() -> RicochetState:
    state = new_game("ricochet", PLAYERS).new_initial_state()
    return state.apply_json({"act": "deal", "dealer": 3})


def play_rows(state: RicochetState, rows: list[list[str]]) -> RicochetState:
    for text, acts, pot, note in rows:
        state = state.apply_json(action(text))
        assert state.turn == (None if acts == "-" else int(acts)), (text, note, state.prompt())
        assert state.pot == int(pot), (text, note)
        view = state.view_for(None)
        assert view.lowest == state.turn or state.phase != "act"
    return state


def test_the_seeds_four_player_example_step_by_step() -> None:
    main_rows, *_ = tables_after("## Worked example")
    state = play_rows(start(), main_rows)
    assert state.status == ["in", "out", "folded", "in"]
    assert state.values[0] is not None and state.values[0].name == "pair of 8s, K 5 kickers"
    assert state.values[3] is not None and state.values[3].name == "pair of 2s, 9 7 kickers"
    # chips: the antes, P4 bought 3 + 2 + 1, P2 2, P1 4
    assert [state.chips(s) for s in range(4)] == [45, 47, 49, 43]


@pytest.mark.parametrize("branch", [1, 2])
def test_both_ways_the_seeds_example_can_end(branch: int) -> None:
    main_rows, *ends = tables_after("## Worked example")
    state = play_rows(play_rows(start(), main_rows), ends[branch - 1])
    assert state.status[0] == "won" and state.status[3] == "out"
    pot = 17 if branch == 1 else 16
    assert [state.chips(s) for s in range(4)] == [45 - 1 * (branch == 1) + pot, 47, 49, 43]
    assert sum(state.chips(s) for s in range(4)) + state.pot == 4 * 50
    assert state.phase == "deal" and state.dealer == 3


def test_the_golden_record_is_the_seeds_example_and_replays(capsys: pytest.CaptureFixture[str]) -> None:
    main_rows, first_end, _ = tables_after("## Worked example")
    record = json.loads((GOLDEN / "ricochet_seed_example.json").read_text())
    assert record["actions"][1:] == [action(r[0]) for r in main_rows + first_end]
    assert main(["replay", str(GOLDEN / "ricochet_seed_example.json"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["scores"] == [11, -3, -1, -7] and out["phase"] == "deal"


def test_the_lowest_hand_acts_and_suits_break_a_tie() -> None:
    state = new_game("ricochet", ["A", "B", "C"]).new_initial_state().apply_json({"act": "deal", "dealer": 2})
    for seat, card in enumerate(["7D", "7C", "7S"]):
        state = state.apply_json({"act": "give", "to": seat, "card": card})
    assert state.turn == 1 and "B (7 high) is lowest" in state.prompt()
    with pytest.raises(IllegalActionError, match="not A's turn"):
        state.apply_json({"act": "buy", "player": 0, "count": 1})
    state = state.apply_json({"act": "buy", "player": 1, "count": 2})
    with pytest.raises(IllegalActionError, match="next card goes to B, not A"):
        state.apply_json({"act": "give", "to": 0, "card": "2C"})
    with pytest.raises(IllegalActionError, match="7D has already been dealt"):
        state.apply_json({"act": "give", "to": 1, "card": "7D"})
    # a kicker beats no kicker: 7-2 is above the lone 7s, so the dealer stops after one card
    state = state.apply_json({"act": "give", "to": 1, "card": "2C"})
    assert state.turn == 0 and state.paid == 2 and state.phase == "act"


def test_a_buyer_may_not_buy_past_the_hand_limit() -> None:
    state = new_game("ricochet", ["A", "B"]).new_initial_state().apply_json({"act": "deal", "dealer": 1})
    state = state.apply_json({"act": "give", "to": 0, "card": "2C"}).apply_json(
        {"act": "give", "to": 1, "card": "AS"})
    with pytest.raises(IllegalActionError, match="may buy 1 to 4 cards, not 5"):
        state.apply_json({"act": "buy", "player": 0, "count": 5})
    with pytest.raises(IllegalActionError, match="cannot give now"):
        state.apply_json({"act": "give", "to": 0, "card": "3C"})


def test_identical_best_hands_split_the_pot_at_the_end() -> None:
    """A and B build the same straight in different suits. Once C folds, A's straight is the
    lowest hand (by suits) and full, and it is as good as every hand still in: the deal ends and
    the pot of 11 is shared, the odd chip to the first winner from the dealer's left."""
    state = new_game("ricochet", ["A", "B", "C"]).new_initial_state().apply_json({"act": "deal", "dealer": 2})
    for seat, card in enumerate(["5C", "9D", "KS"]):
        state = state.apply_json({"act": "give", "to": seat, "card": card})
    state = state.apply_json({"act": "buy", "player": 0, "count": 4})
    for card in ["6C", "7D", "8H", "9C"]:
        state = state.apply_json({"act": "give", "to": 0, "card": card})
    assert state.turn == 1
    state = state.apply_json({"act": "buy", "player": 1, "count": 4})
    for card in ["5D", "6H", "7S", "8S"]:
        state = state.apply_json({"act": "give", "to": 1, "card": card})
    assert state.turn == 2 and state.lowest() == 2
    state = state.apply_json({"act": "fold", "player": 2})
    assert state.status == ["won", "won", "folded"] and state.pot == 0 and state.phase == "deal"
    assert [(e.seat, e.points) for e in state.events if e.kind == "pot"] == [(0, 6), (1, 5)]
    assert state.view_for(None).table is not None


def test_a_full_lowest_hand_below_the_best_is_put_out() -> None:
    state = new_game("ricochet", ["A", "B", "C"]).new_initial_state().apply_json({"act": "deal", "dealer": 2})
    for seat, card in enumerate(["2C", "KS", "KH"]):
        state = state.apply_json({"act": "give", "to": seat, "card": card})
    state = state.apply_json({"act": "buy", "player": 0, "count": 4})
    for card in ["3D", "4H", "5S", "KD"]:  # K-5-4-3-2 beats a lone king with its last card
        state = state.apply_json({"act": "give", "to": 0, "card": card})
    assert state.status[0] == "in" and state.turn == 2  # the king of hearts is below the spade
    state = state.apply_json({"act": "buy", "player": 2, "count": 1}).apply_json(
        {"act": "give", "to": 2, "card": "KC"})
    assert state.turn == 1
    state = state.apply_json({"act": "buy", "player": 1, "count": 1}).apply_json(
        {"act": "give", "to": 1, "card": "AS"})
    # A's five cards are now lowest and cannot draw, below C's pair: A is out and B acts
    assert state.status == ["out", "in", "in"] and state.turn == 1 and not state.hands[0]


def test_options_jokers_limit_and_start() -> None:
    with pytest.raises(CardError, match="without jokers"):
        start().apply_json({"act": "give", "to": 0, "card": "RJ"})
    with pytest.raises(OptionError, match="'limit' is a whole number from 5 to 7"):
        new_game("ricochet", 3, {"limit": 8})
    with pytest.raises(OptionError, match="'start' is a whole number from 1 to 3"):
        new_game("ricochet", 3, {"start": 4})
    state = new_game("ricochet", ["A", "B"], {"jokers": True, "limit": 7, "start": 2}).new_initial_state()
    state = state.apply_json({"act": "deal", "dealer": 0})
    for seat, card in [(1, "RJ"), (0, "AC"), (1, "2D"), (0, "KD")]:
        state = state.apply_json({"act": "give", "to": seat, "card": card})
    # the bug is an ace: A-2 is below A-K, so B acts, and may buy up to five
    assert state.turn == 1 and state.room(1) == 5 and state.left == 50


def test_the_score_command_names_a_hand_and_finds_the_lowest(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "ricochet", "2D", "2S", "9H", "7C", "9S", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["category"] == "two pair"
    assert main(["score", "ricochet", "AH", "KH", "QH", "JH", "10H", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["category"] == "royal flush"
    assert main(["score", "ricochet", "--lowest", "KS", "JH", "8D", "7C", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["lowest"] == 4
    assert main(["score", "ricochet", "--lowest", "7C,2D,9H", "8D", "JH"]) == 0
    assert capsys.readouterr().out.strip().endswith("hand 2 is lowest and acts next")
    assert main(["score", "ricochet", "--lowest", "AH,8C", "AS"]) == 0
    assert "hand 2 is lowest" in capsys.readouterr().out
    assert main(["score", "ricochet", "--lowest", "AH,8C", "AH"]) != 0
    assert "a card is in two hands" in capsys.readouterr().err
    assert main(["score", "ricochet", "--lowest", "AH,8C"]) != 0
    assert "two hands or more" in capsys.readouterr().err


# ------------------------------------------------------------------ random playouts


def check(state: RicochetState) -> None:
    game = state.game
    n = game.num_players
    deck = FRENCH_54 if game.options["jokers"] else FRENCH_52
    # chips are conserved: every stack plus the pot is what the players started with
    assert sum(state.chips(s) for s in range(n)) + state.pot == n * int(game.options["chips"])
    held = [c for h in state.hands for c in h]
    assert len(held) == len(set(held)) and set(held) <= state.seen <= set(deck)
    assert state.left == len(deck) - len(state.seen) >= 0
    for seat in range(n):
        assert len(state.hands[seat]) <= int(game.options["limit"])
        assert (state.values[seat] is None) == (not state.hands[seat])
        if state.status[seat] in ("folded", "out"):
            assert not state.hands[seat]
    if state.phase == "act":
        live = [s for s in range(n) if state.status[s] == "in"]
        values = {s: state.values[s] for s in live}
        assert state.turn is not None and state.room(state.turn) > 0
        assert all(values[state.turn] < v for s, v in values.items() if s != state.turn)  # type: ignore[operator]
    if state.phase == "draw":
        assert state.buyer is not None and state.given < state.paid
        assert state.lowest() == state.buyer
    view = state.view_for(None)
    assert isinstance(view, RicochetView)
    assert view_from_json(json.loads(json.dumps(view.to_json()))) == view
    assert [g.seat for g in view.groups] == [s for s in range(n) if state.hands[s]]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize(("players", "options"), [
    (2, {}), (4, {"jokers": True}), (6, {"limit": 6, "start": 2}), (8, {"limit": 7, "start": 2, "jokers": True}),
])
def test_random_playouts_keep_the_invariants(seed: int, players: int, options: dict[str, object]) -> None:
    names = [f"P{i}" for i in range(players)]
    record = autoplay("ricochet", names, seed=seed, deals=3, options=options, each=check)  # type: ignore[arg-type]
    result = replay(record)
    assert result.state.is_over  # the game ends after its deals
    acts = Counter(a["act"] for a in record["actions"])
    assert acts["deal"] == 3 and acts["give"] >= 3 * players
    pots = [e for e in result.events if e.kind == "pot"]
    assert pots and sum(e.points for e in pots) == -sum(e.points for e in result.events if e.kind != "pot")


def test_every_action_of_a_playout_is_refused_out_of_turn() -> None:
    record = autoplay("ricochet", seed=3, deals=2)
    for before, act, _ in steps(record):
        player = getattr(act, "player", None)
        if player is None:
            continue
        other = (player + 1) % before.game.num_players
        with pytest.raises(IllegalActionError):
            before.apply(type(act)(**{**act.__dict__, "player": other}))


def test_a_card_is_read_with_the_deck_of_the_game() -> None:
    assert new_game("ricochet", 2, {"jokers": True}).parse_card("bj") == Card(0, "B")
