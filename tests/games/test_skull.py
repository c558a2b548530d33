"""Skull: the rule card's worked rounds, the bidding, the revelation order, the lost card,
elimination and who starts next, and random playouts whose views never show another seat's
face-down card."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games import new_game
from games.errors import IllegalActionError
from games.faceplay import autoplay
from games.records import replay
from games.skull import SkullState, SkullView, is_skull
from games.view import view_from_json
from pegpi.cli import main

ROOT = Path(__file__).parents[2]
GOLDEN = Path(__file__).parent / "golden"
CARD = (ROOT / "seeds" / "skull.md").read_text()


def example_rows() -> list[list[str]]:
    section = CARD.split("## Worked examples", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    return [[c.strip() for c in row.strip("|").split("|")] for row in rows[2:]]


def action(text: str) -> dict[str, object]:
    """A row's action: "lay P [CARD]", "challenge P N", "bid P N", "pass P", "flip P MAT CARD",
    "lose P [CARD]", "first P SEAT"."""
    word, player, *rest = text.split()
    data: dict[str, object] = {"act": word, "player": int(player)}
    if word in ("challenge", "bid"):
        data["count"] = int(rest[0])
    elif word == "flip":
        data["mat"] = int(rest[0])
        if len(rest) > 1:
            data["card"] = rest[1]
    elif word == "first":
        data["seat"] = int(rest[0])
    elif rest:
        data["card"] = rest[0]
    return data


def fresh(players: int = 3) -> SkullState:
    return new_game("skull", ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"][:players]).new_initial_state()


def run(state: SkullState, texts: list[str]) -> SkullState:
    for text in texts:
        state = state.apply_json(action(text))
    return state


def test_the_worked_rounds() -> None:
    state = fresh()
    for text, acts, bets, note in example_rows():
        state = state.apply_json(action(text))
        assert state.waiting_for() == (None if acts == "-" else int(acts)), (text, note, state.prompt())
        assert state.scores == [int(b) for b in bets.split()], (text, note)
        view = state.view_for(None)
        assert view.turn == state.waiting_for()
    assert state.held == [4, 4, 3] and state.first == 2 and state.phase == "open"
    assert state.known[2] == {new_game("skull", 3).parse_card(c) for c in ("4D", "5D")}


def test_the_golden_record_replays_the_worked_rounds(capsys: pytest.CaptureFixture[str]) -> None:
    record = json.loads((GOLDEN / "skull_seed_rounds.json").read_text())
    assert record["actions"] == [action(r[0]) for r in example_rows()]
    assert main(["replay", str(GOLDEN / "skull_seed_rounds.json"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["scores"] == [0, 0, 1] and out["phase"] == "open"


def test_the_challenger_turns_their_own_mat_first_and_top_cards_only() -> None:
    state = run(fresh(), ["lay 0", "lay 1", "lay 2", "lay 0", "lay 1 2H", "challenge 2 4"])
    state = run(state, ["pass 0", "pass 1"])
    with pytest.raises(IllegalActionError, match="not Ann's turn"):
        state.apply_json(action("flip 0 0 5C"))
    with pytest.raises(IllegalActionError, match="own mat first"):
        state.apply_json(action("flip 2 0 5C"))
    with pytest.raises(IllegalActionError, match="say which card"):
        state.apply_json(action("flip 2 2"))
    state = state.apply_json(action("flip 2 2 6S"))
    with pytest.raises(IllegalActionError, match="no face-down card left"):
        state.apply_json(action("flip 2 2 7S"))
    # Bob entered his top card on his phone: a different card is refused, none needs naming
    with pytest.raises(IllegalActionError, match="Bob laid 2H there, not 3H"):
        state.apply_json(action("flip 2 1 3H"))
    state = state.apply_json(action("flip 2 1"))
    assert state.roses == 2 and state.view_for(None).groups[0].cards == ("2H",)
    with pytest.raises(IllegalActionError, match="6S is Cy's card"):
        state.apply_json(action("flip 2 0 6S"))


def test_bids_rise_and_a_bid_of_every_card_ends_the_bidding() -> None:
    state = run(fresh(4), ["lay 0", "lay 1", "lay 2", "lay 3"])
    with pytest.raises(IllegalActionError, match="a bid is 1 to 4 cards"):
        state.apply_json(action("challenge 0 5"))
    state = state.apply_json(action("challenge 0 2"))
    with pytest.raises(IllegalActionError, match="a bid is 3 to 4 cards"):
        state.apply_json(action("bid 1 2"))
    state = run(state, ["pass 1", "bid 2 3", "pass 3"])
    assert state.turn == 0  # Bob has passed: after Di comes Ann
    state = state.apply_json(action("bid 0 4"))
    assert state.phase == "reveal" and state.bidder == 0  # "burn out": nobody can raise


def test_a_player_with_no_card_in_hand_must_challenge() -> None:
    state = run(fresh(), ["lay 0", "lay 1", "lay 2"] + ["lay 0", "lay 1", "lay 2"] * 3)
    assert state.in_hand(0) == 0 and "Ann has no card left in hand: challenge" == state.prompt()
    with pytest.raises(IllegalActionError, match="no card left in hand"):
        state.apply_json(action("lay 0"))


def test_a_players_cards_are_checked_as_they_become_known() -> None:
    state = run(fresh(), ["lay 0 KS", "lay 1", "lay 2"])
    with pytest.raises(IllegalActionError, match="one skull"):
        state.apply_json(action("lay 0 QH"))
    state = run(state, ["lay 0 2C", "lay 1", "lay 2"])
    with pytest.raises(IllegalActionError, match="already on Ann's mat"):
        state.apply_json(action("lay 0 2C"))
    state = state.apply_json(action("lay 0 3C"))
    with pytest.raises(IllegalActionError, match="3C is Ann's card"):
        state.apply_json(action("lay 1 3C"))
    # a burn out: Cy bids every card, turns her own three roses, then Bob's cards
    state = run(fresh(), ["lay 0", "lay 1", "lay 2"] + ["lay 0", "lay 1", "lay 2", "lay 0", "lay 1", "lay 2", "lay 0", "lay 1"])
    state = run(state, ["challenge 2 11", "flip 2 2 5S", "flip 2 2 6S", "flip 2 2 7S", "flip 2 1 6C", "flip 2 1 7C"])
    with pytest.raises(IllegalActionError, match="6S is Cy's card"):
        state.apply_json(action("flip 2 1 6S"))
    state = state.apply_json(action("flip 2 1 8C"))
    with pytest.raises(IllegalActionError, match="Bob has three roses"):
        state.apply_json(action("flip 2 1 9C"))


def test_a_skull_costs_a_card_chosen_by_its_owner_and_the_challenger_starts_again() -> None:
    state = run(fresh(), ["lay 0", "lay 1", "lay 2", "challenge 0 2", "pass 1", "pass 2",
                          "flip 0 0 4C"])
    with pytest.raises(IllegalActionError):
        state.apply_json(action("lose 0"))
    state = state.apply_json(action("flip 0 2 JD"))
    assert state.phase == "lose" and state.chooser == 2 and state.skull_owner == 2 and state.waiting_for() == 2
    assert state.prompt() == "Cy picks one of Ann's cards at random: it is lost"
    with pytest.raises(IllegalActionError, match="not Cy's turn to lose"):
        state.apply_json(action("lose 2"))  # the lost card is always the challenger's
    with pytest.raises(IllegalActionError, match="JD is Cy's card"):
        state.apply_json(action("lose 0 JD"))
    state = state.apply_json(action("lose 0 4C"))
    assert state.held == [3, 4, 4] and state.first == 0 and state.mats == [[], [], []]
    assert state.view_for(0).lost == ("4C",) and state.view_for(2).lost == ()  # type: ignore[attr-defined]


def test_own_skull_elimination_lets_the_challenger_name_who_starts() -> None:
    state = fresh()
    # Ann turns her own skull four times: each time she picks the card she loses
    for lost in range(4):
        state = run(state, ["lay 0 KC", "lay 1", "lay 2", "challenge 0 1", "pass 1", "pass 2", "flip 0 0"])
        assert state.phase == "lose" and state.chooser == 0
        state = state.apply_json(action("lose 0 2C" if lost == 0 else "lose 0"))
        if lost < 3:
            assert state.first == 0 and state.held[0] == 3 - lost
    assert state.held[0] == 0 and state.phase == "choose" and state.waiting_for() == 0
    with pytest.raises(IllegalActionError, match="Ann is not in the game"):
        state.apply_json(action("first 0 0"))
    state = state.apply_json(action("first 0 2"))
    assert state.first == 2 and state.active() == [1, 2] and state.phase == "open"
    view = state.view_for(0)
    assert isinstance(view, SkullView) and view.out == (0,) and view.lost == ("2C", None, None, None)
    other = state.view_for(1)
    assert isinstance(other, SkullView) and other.lost == () and "2C" not in json.dumps(other.to_json())


def test_an_eliminated_challenger_gives_the_start_to_the_skulls_owner_and_the_last_player_wins() -> None:
    state = fresh()
    for _ in range(4):  # Ann turns her rose, then Bob's skull, four times
        state = run(state, ["lay 0", "lay 1 KD", "lay 2", "challenge 0 2", "pass 1", "pass 2",
                            "flip 0 0 9S", "flip 0 1", "lose 0"])
    assert state.held[0] == 0 and state.first == 1 and state.phase == "open" and state.active() == [1, 2]
    state = run(state, ["lay 1", "lay 2", "lay 1 KD", "challenge 2 2", "pass 1", "flip 2 2 9H",
                        "flip 2 1", "lose 2"])
    assert state.first == 2 and state.held == [0, 4, 3]
    for _ in range(3):  # a bid of every card on the mats ends the bidding at once
        state = run(state, ["lay 1", "lay 2", "challenge 2 2"])
        assert state.phase == "reveal"
        state = run(state, ["flip 2 2 9H", "flip 2 1 KD", "lose 2"])
    assert state.is_over and state.winner == 1 and state.held == [0, 4, 0]


def test_two_won_bets_win_the_game() -> None:
    state = fresh()
    for card in ("AH", "2H"):
        state = run(state, [f"lay 0 {card}", "lay 1", "lay 2", "challenge 0 1", "pass 1", "pass 2", "flip 0 0"])
    assert state.is_over and state.winner == 0 and state.scores == [2, 0, 0]
    assert state.view_for(None).result == "win"
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply_json(action("lay 1"))


# ------------------------------------------------------------------ random playouts


def hidden_from(state: SkullState, seat: int | None) -> set[str]:
    """Identities of face-down cards and lost cards a seat may not know."""
    out: set[str] = set()
    for owner in range(state.game.num_players):
        if owner == seat:
            continue
        up = len(state.flipped[owner])
        stack = state.mats[owner]
        out |= {str(c) for c in stack[:len(stack) - up] if c is not None}
        out |= {str(c) for c in state.lost[owner] if c is not None}
    return out


def check(state: SkullState, view_texts: object) -> None:
    n = state.game.num_players
    for seat in range(n):
        assert 0 <= len(state.mats[seat]) <= state.held[seat] <= 4
        assert state.held[seat] + len(state.lost[seat]) == 4
        assert len(state.flipped[seat]) <= len(state.mats[seat])
        skulls = [c for c in state.known[seat] if is_skull(c)]
        assert len(skulls) <= 1 and len(state.known[seat]) <= 4
    assert state.roses <= state.bid or state.phase == "open"
    if state.phase == "reveal":
        assert sum(len(m) for m in state.mats) >= state.bid > state.roses
    for seat in (None, *range(n)):
        view = state.view_for(seat)
        assert isinstance(view, SkullView)
        texts = view_texts(view)  # type: ignore[operator]
        assert not (texts & hidden_from(state, seat)), (seat, texts & hidden_from(state, seat))
        assert view.mats == tuple(len(m) for m in state.mats)
    wire = state.view_for(0).to_json()
    assert view_from_json(json.loads(json.dumps(wire))) == state.view_for(0)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("players", [3, 4, 6])
@pytest.mark.parametrize("known", [True, False])
def test_random_games_keep_the_invariants_and_hide_face_down_cards(
        seed: int, players: int, known: bool, view_texts: object) -> None:
    names = [f"P{i}" for i in range(players)]
    record = autoplay("skull", names, seed=seed, known_hands=known, each=lambda s: check(s, view_texts))  # type: ignore[arg-type]
    state = replay(record).state
    assert isinstance(state, SkullState) and state.is_over and state.winner is not None
    won = state.scores[state.winner] == 2 or len(state.active()) == 1
    assert won
    assert ("secret" in record) != known

