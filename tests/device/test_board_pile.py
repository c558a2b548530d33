"""The peg board and the lights for the pile games: everyone's stack as it changes, the top card,
and a pile that may be slapped announced at once (the panel's first line, the score light)."""

from __future__ import annotations

from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from device.board.panel import stack_line
from device.board.render import render_board
from device.board.view import board_of
from device.leds import TableLights
from games import new_game
from games.engine import State


def _state(game: str, players: list[str], actions: list[dict[str, Any]]) -> State:
    state = new_game(game, players).new_initial_state()
    for action in actions:
        state = state.apply_json(action)
    return state


PAIR = [{"act": "deal", "dealer": 2}, {"act": "play", "player": 0, "card": "9S"},
        {"act": "play", "player": 1, "card": "9D"}]


def test_the_board_has_everyones_stack_as_it_changes() -> None:
    state = _state("beggar", ["Ann", "Bob"], [{"act": "deal", "dealer": 1}, {"act": "play", "player": 0, "card": "9S"},
                                              {"act": "play", "player": 1, "card": "QD"}])
    board = board_of(state.view_for(None))
    assert board.stacks == (25, 25) and board.pile[-1] == "QD" and board.alert is None
    assert stack_line(board, 200) == ">Ann 25 Bob 25"
    state = state.apply_json({"act": "play", "player": 0, "card": "2C"})
    assert board_of(state.view_for(None)).stacks == (24, 25)
    assert stack_line(board_of(_state("ratscrew", ["Ann", "Bob", "Cy", "Dina", "Ed"], PAIR[:1]).view_for(None)),
                      60) == "A10 B10 C10 >D11 E11"  # names cut short to fit
    render_board(state.view_for(None))  # draws without error at the board's size


def test_a_slappable_pile_is_announced_on_the_board_and_the_lights(factory: MockFactory,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    slappable = _state("ratscrew", ["Ann", "Bob", "Cy"], PAIR)
    board = board_of(slappable.view_for(None))
    assert board.alert == "slap: pair"
    covered = slappable.apply_json({"act": "play", "player": 2, "card": "4C"})
    assert board_of(covered.view_for(None)).alert is None
    with TableLights() as lights:
        assert lights.score is not None
        blinks: list[dict[str, Any]] = []
        monkeypatch.setattr(lights.score, "blink", lambda **kw: blinks.append(kw))
        lights.show(slappable.view_for(None))
        lights.show(slappable.view_for(0))  # still the same pile: no second start
        assert len(blinks) == 1 and blinks[0]["n"] is None  # flashes until the pile changes
        lights.show(covered.view_for(None))
        assert not lights.score.is_lit
