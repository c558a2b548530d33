"""PegBoard: the OLED (luma dummy), LEDs (gpiozero MockFactory) and strip fed from one thread."""

from __future__ import annotations

import threading
from typing import Any

from gpiozero.pins.mock import MockFactory
from luma.core.device import dummy

from device.board import render_board, samples
from device.board.outputs import PegBoard, is_scoring
from device.display import BoardDisplay
from device.leds import LedConfig, TableLights
from device.strip import PegStrip
from games.view import TableView


def test_a_score_is_a_rise_with_a_last_moment() -> None:
    before = samples.base(sides=samples.sides(("Ann", 35, 31), ("Bob", 50, 44)))
    assert is_scoring(before, samples.play())
    assert not is_scoring(samples.play(), samples.play())  # nothing went up
    assert not is_scoring(samples.play(), before)  # an undo
    assert not is_scoring(None, samples.start())  # no scoring moment
    assert not is_scoring(samples.play(), samples.four_players())  # a new game


def test_updates_reach_every_output(factory: MockFactory) -> None:
    oled = dummy(width=128, height=64)
    strip = dummy(width=121, height=1)
    waits: list[float] = []
    display = BoardDisplay(oled, sleep=waits.append, steps=3)
    with PegBoard(TableLights(LedConfig()), PegStrip({"enabled": True}, device=strip), display) as board:
        board.update(samples.base(phase="play", sides=samples.sides(("Ann", 37, 31), ("Bob", 50, 44))))
        board.update(samples.play())  # Bob pegs 2
        board.wait()
        assert oled.image.convert("1").tobytes() == render_board(samples.play(), (128, 64)).tobytes()
        assert waits == [display.frame_time] * 3 + [display.hold_time]  # one announcement
        assert factory.pin(LedConfig().seats[1]).state == 1
        assert strip.image.getpixel((51, 0)) == (0, 64, 255)


def test_a_backlog_is_shown_without_announcing(factory: MockFactory) -> None:
    oled = dummy(width=128, height=64)
    waits: list[float] = []
    inside = threading.Event()
    go_on = threading.Event()

    def sleep(seconds: float) -> None:
        waits.append(seconds)
        inside.set()
        assert go_on.wait(timeout=30)

    views: list[TableView] = [
        samples.base(phase="play", last=samples.last(0, 1, "go", "go"),
                     sides=samples.sides(("Ann", n, n - 1), ("Bob", 0, 0)))
        for n in range(1, 8)
    ]
    with PegBoard(BoardDisplay(oled, sleep=sleep, steps=2)) as board:
        board.update(views[0])
        board.update(views[1])  # a score: the announcement starts and waits in its first frame
        assert inside.wait(timeout=30)
        for view in views[2:]:  # five more pile up behind it
            board.update(view)
        go_on.set()
        board.wait()
        assert oled.image.convert("1").tobytes() == render_board(views[-1], (128, 64)).tobytes()
    # Announced: views[1], and the last two once the backlog was short again; the rest only shown.
    assert len(waits) == 3 * 3


def test_a_failing_output_does_not_stop_the_others() -> None:
    errors: list[Exception] = []

    class Broken:
        def show(self, view: Any) -> None:
            raise OSError("I2C bus error")

        def announce(self, view: Any) -> None:
            raise OSError("I2C bus error")

        def close(self) -> None:
            pass

    oled = dummy(width=128, height=64)
    with PegBoard(Broken(), BoardDisplay(oled), on_error=errors.append) as board:
        board.update(samples.start())
        board.wait()
    assert oled.image is not None and len(errors) == 1


def test_from_config_without_hardware_keeps_going(factory: MockFactory) -> None:
    with PegBoard.from_config({"display": {"driver": "none"}}) as board:
        board.update(samples.play())
        board.wait()
