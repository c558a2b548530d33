"""A whole cribbage game, replayed through the real rules engine, drives the OLED (luma ``dummy``),
the LEDs and the buttons (gpiozero ``MockFactory``) and the WS2812 strip (a ``dummy`` too) through
every phase: the cut, deals, discards, starters, the play with its counts and "go"s, the shows, the
end. The Go button plays the record's "go"s and Undo takes an action back on the way.
"""

from __future__ import annotations

from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory
from luma.core.device import dummy

from device.board import render_board
from device.buttons import ButtonPanel
from device.display import BoardDisplay
from device.leds import LedConfig, TableLights
from device.strip import PEGS, PegStrip
from games.cribbage.autoplay import autoplay
from games.records import game_of
from games.view import TableView


class EngineTable:
    """The smallest table session over the real engine: what the buttons need of ``TableService``."""

    pairing_code = "0000"

    def new_pairing_code(self) -> str:
        raise AssertionError("no new pairing code in this test")

    def __init__(self, record: dict[str, Any]) -> None:
        self.game = game_of(record)
        self.state = self.game.new_initial_state()
        self.before: list[Any] = []
        self.sources: list[str] = []

    def view(self, seat: int | None = None) -> TableView:
        return self.state.view_for(seat)

    def submit(self, action: dict[str, Any], *, source: str = "phone") -> TableView:
        self.before.append(self.state)
        self.state = self.state.apply_json(action)
        self.sources.append(source)
        return self.view()

    def undo(self, *, source: str = "phone") -> TableView:
        self.state = self.before.pop()
        self.sources.append(f"undo:{source}")
        return self.view()

    def confirm(self, *, source: str = "button") -> TableView:
        return self.view()

    def new_game(self, game: str, players: list[str], options: dict[str, Any] | None = None) -> TableView:
        raise AssertionError("no new game in this test")


def press(panel: ButtonPanel, name: str) -> None:
    panel.buttons[name].pin.drive_low()
    panel.buttons[name].pin.drive_high()


def scores(view: TableView) -> list[int]:
    return [side.score for side in view.sides]


@pytest.mark.parametrize("seed", [3, 11])
def test_a_whole_game_drives_every_output(factory: MockFactory, seed: int) -> None:
    record = autoplay("cribbage", ["Ann", "Bob"], seed=seed)
    table = EngineTable(record)
    oled = dummy(width=128, height=64)
    strip_device = dummy(width=121, height=1)
    waits: list[float] = []
    config = LedConfig()
    phases: set[str] = set()
    announced: list[str] = []
    progress: list[float] = []
    undone = False
    with BoardDisplay(oled, sleep=waits.append) as display, TableLights(config) as lights, \
            PegStrip({"enabled": True}, device=strip_device) as strip, \
            ButtonPanel(table, {"bounce_time": None}, screen=display) as panel:
        view = table.state.view_for(None)
        display.show(view)
        for index, action in enumerate(record["actions"]):
            before = scores(view)
            if action["act"] == "go":
                assert view.turn == action["player"]
                press(panel, "go")  # the button says go for whoever is to play
            else:
                table.submit(action, source="camera")
                if not undone and action["act"] == "play" and index > 20:
                    press(panel, "undo")  # a misread card taken back...
                    assert table.view().actions == index
                    table.submit(action, source="camera")  # ...and played again
                    undone = True
            view = table.state.view_for(None)
            phases.add(view.phase)
            if scores(view) != before:
                display.announce(view)
                lights.announce(view)
                assert view.last is not None
                announced.append(view.last.say)
            else:
                display.show(view)
                lights.show(view)
            strip.show(view)

            # The OLED ends on the board of this moment.
            assert oled.image.convert("1").tobytes() == render_board(view, (128, 64)).tobytes()
            # The turn light is the seat to play.
            lit = [factory.pin(p).state for p in config.seats[:2]]
            if view.phase == "over":
                assert lit == [int(view.winner == 0), int(view.winner == 1)]
            else:
                assert lit == [int(view.turn == 0), int(view.turn == 1)]
            # The bar graph never goes back: scores only go up.
            bar = sum(factory.pin(p).state for p in config.bar) / len(config.bar)
            assert not progress or bar >= progress[-1] - 1e-9
            progress.append(bar)
            # The strip has each front peg in its hole, in its colour (when the two are not in one hole).
            front = scores(view)
            if front[0] != front[1]:
                for side, points in enumerate(front):
                    if points > 0:
                        assert strip_device.image.getpixel((min(points, 121) - 1, 0)) == PEGS[side]
    assert phases >= {"cut", "deal", "discard", "starter", "play", "show", "over"}
    assert undone and "undo:button" in table.sources
    assert table.sources.count("button") == sum(1 for a in record["actions"] if a["act"] == "go")
    assert any(say.startswith("fifteen") for say in announced)
    assert any("go" in say for say in announced)
    assert progress[-1] == 1.0
    # Each announcement waited its frames and its hold; nothing else waited.
    assert len(waits) == len(announced) * (display.steps + 1)
    assert table.view().winner in (0, 1)
