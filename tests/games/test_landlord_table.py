"""Fight the Landlord answers the combinations table's questions (games/table.py: CombosTable) in
step with its own records: every play laid in its seat's zone means the passes before it and the
play, the middle cards turned up mean the kitty, and lifting the combination to beat means the
passes that end its round."""

from __future__ import annotations

from typing import Any

import pytest

from games import new_game
from games.errors import IllegalActionError
from games.layoutplay import autoplay
from games.records import replay
from games.table import KITTY, CombosTable, TableState, Zone


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_each_play_of_a_record_is_what_its_cards_in_its_zone_mean(seed: int) -> None:
    result = replay(autoplay("landlord", seed=seed, deals=2))
    records = [a.to_json() for a in result.actions]
    state = result.game.new_initial_state()
    assert isinstance(state, CombosTable) and isinstance(state, TableState)
    since: tuple[Any, int] | None = None  # the state before a run of passes, and where the run began
    checked = {"play": 0, "kitty": 0, "cleared": 0}
    for index, action in enumerate(result.actions):
        data = records[index]
        assert isinstance(state, CombosTable)
        if data["act"] == "pass" and state.phase == "play":
            if since is None:
                since = (state, index)
            if index + 1 < len(records) and records[index + 1]["act"] == "pass" and state.to_beat() is not None:
                passes = state.cleared()  # the combination to beat lifted now: both others passed
                assert [a.to_json() for a in passes] == records[index:index + 2]
                checked["cleared"] += 1
        elif data["act"] == "play":
            first, start = since if since is not None else (state, index)
            means = first.group_means(Zone.row(data["player"]), data["cards"])
            assert [a.to_json() for a in means or []] == records[start:index + 1]
            assert first.group_size(Zone.row(data["player"])) >= len(data["cards"])
            since = None
            checked["play"] += 1
        elif data["act"] == "kitty":
            assert state.group_means(KITTY, data["cards"][:2]) == []  # not all three yet
            assert [a.to_json() for a in state.group_means(KITTY, data["cards"]) or []] == [data]
            checked["kitty"] += 1
        state = state.apply(action)
        assert isinstance(state, CombosTable)
        if data["act"] == "play":
            assert state.group_means(Zone.row(data["player"]), data["cards"]) is None  # seen again: nothing
            assert state.zone_cards(Zone.row(data["player"]))[-len(data["cards"]):] == data["cards"]
            if state.phase == "play":
                assert state.to_beat() == (data["player"], tuple(data["cards"]))
        if data["act"] == "kitty":
            assert state.zone_cards(KITTY) == data["cards"] and state.group_means(KITTY, data["cards"]) is None
    assert checked["play"] > 20 and checked["kitty"] >= 1 and checked["cleared"] >= 1


def _playing() -> Any:
    state = new_game("landlord", ["Ann", "Bob", "Cy"]).new_initial_state()
    for action in ({"act": "deal", "first": 0}, {"act": "bid", "player": 0, "points": 2},
                   {"act": "pass", "player": 1}, {"act": "pass", "player": 2},
                   {"act": "kitty", "cards": ["AC", "2S", "2C"]}):
        state = state.apply_json(action)
    return state


def test_what_the_table_may_not_show_is_refused_in_a_player_s_words() -> None:
    state = _playing()
    assert state.whose_turn() == 0 and state.zone_owner(KITTY) == 0 and state.zone_label(Zone.row(1)) == "Bob's zone"
    with pytest.raises(IllegalActionError, match="Ann leads: Bob plays out of turn"):
        state.group_means(Zone.row(1), ["3H"])
    with pytest.raises(IllegalActionError, match="no combination: the singles are not in sequence"):
        state.group_means(Zone.row(0), ["3S", "4S", "6S", "7S", "8S"])
    state = state.apply_json({"act": "play", "player": 0, "cards": ["9S", "9H"]})
    with pytest.raises(IllegalActionError, match=r"^it does not beat 9S 9H \(the pair of 9\)$"):
        state.group_means(Zone.row(1), ["3S", "3H"])
    # Cy's pair laid while Bob was to play: Bob passed; Ann's own pair again: both passed first
    assert [a.to_json() for a in state.group_means(Zone.row(2), ["10S", "10H"])] == [
        {"act": "pass", "player": 1}, {"act": "play", "player": 2, "cards": ["10S", "10H"]}]
    assert [a.to_json()["act"] for a in state.group_means(Zone.row(0), ["4S"])] == ["pass", "pass", "play"]
    assert state.group_size(Zone.row(0)) == 18 and state.group_size(KITTY) == 3
