"""The display adapter: the luma device chosen by config, degrading to none, and BoardDisplay."""

from __future__ import annotations

import importlib.util
import tomllib
from pathlib import Path

import pytest
from luma.core.device import dummy

from device.board import render_board, samples
from device.board.announce import announcement_frames
from device.display import BoardDisplay, DisplayConfig, open_display
from device.errors import HardwareConfigError

DEFAULTS = Path(__file__).parents[2] / "hardware" / "defaults.toml"


def test_dummy_is_opened_at_the_configured_size() -> None:
    device = open_display({"driver": "dummy", "width": 128, "height": 32})
    assert device is not None
    assert (device.width, device.height) == (128, 32)
    device.cleanup()


def test_none_means_no_display() -> None:
    assert open_display({"driver": "none"}) is None


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106", "ssd1322"])
@pytest.mark.parametrize("interface", ["i2c", "spi"])
def test_a_display_that_is_not_there_is_a_warning(driver: str, interface: str,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    if Path("/dev/i2c-1").exists() or Path("/dev/spidev0.0").exists():
        pytest.skip("this machine has a real bus")
    width = 256 if driver == "ssd1322" else 128
    assert open_display({"driver": driver, "interface": interface, "width": width}) is None
    assert "running without a display" in caplog.text


def test_an_emulator_without_luma_emulator_is_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    if importlib.util.find_spec("luma.emulator") is not None:
        pytest.skip("luma.emulator is installed here")
    assert open_display({"driver": "pygame"}) is None
    assert "not installed" in caplog.text


def test_bad_settings_name_the_key() -> None:
    with pytest.raises(HardwareConfigError, match="driver 'ssd9999'"):
        DisplayConfig(driver="ssd9999")
    with pytest.raises(HardwareConfigError, match="address"):
        DisplayConfig(address="sixty")
    with pytest.raises(HardwareConfigError, match="no setting 'colour'"):
        DisplayConfig.from_mapping({"colour": "blue"})
    assert DisplayConfig(address="0x3D").address == "0x3D"


def test_hardware_defaults_match_the_code() -> None:
    defaults = tomllib.loads(DEFAULTS.read_text(encoding="utf-8"))
    assert DisplayConfig.from_mapping(defaults["display"]) == DisplayConfig(address="0x3C")


def test_show_puts_the_board_on_the_device() -> None:
    device = dummy(width=128, height=64)
    with BoardDisplay(device) as board:
        board.show(samples.play())
        assert device.image.convert("1").tobytes() == render_board(samples.play(), (128, 64)).tobytes()


def test_greyscale_panel_gets_greys() -> None:
    device = dummy(width=256, height=64)
    with BoardDisplay(device) as board:
        board.show(samples.play())
        greys = {value for value in device.image.convert("L").histogram() if value}
        assert len(greys) > 2


def test_announce_plays_the_frames_then_the_board_comes_back() -> None:
    device = dummy(width=128, height=64)
    waits: list[float] = []
    seen: list[bytes] = []

    def sleep(seconds: float) -> None:
        waits.append(seconds)
        seen.append(device.image.convert("1").tobytes())

    with BoardDisplay(device, sleep=sleep, frame_time=0.05, hold_time=1.0, steps=4) as board:
        board.announce(samples.play())
        frames = announcement_frames(samples.play(), (128, 64), steps=4)
        assert waits == [0.05] * 4 + [1.0]
        assert seen[:4] == [f.tobytes() for f in frames]
        assert device.image.convert("1").tobytes() == render_board(samples.play(), (128, 64)).tobytes()


def test_announce_without_a_scoring_moment_just_shows() -> None:
    device = dummy(width=128, height=64)
    waits: list[float] = []
    with BoardDisplay(device, sleep=waits.append) as board:
        board.announce(samples.start())
    assert waits == []


def test_no_device_keeps_going() -> None:
    waits: list[float] = []
    with BoardDisplay(None, sleep=waits.append) as board:
        board.show(samples.play())
        board.announce(samples.play())
        board.notice(["Pairing code"], big="1234")
        assert board.last_view == samples.play()
    assert waits == []  # nobody waits for a display that is not there


def test_from_config_with_no_display() -> None:
    with BoardDisplay.from_config({"driver": "none"}) as board:
        assert board.device is None
        board.show(samples.play())


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_held_notice_keeps_the_board_behind_it_until_it_ends() -> None:
    device = dummy(width=128, height=64)
    clock = Clock()
    waits: list[float] = []
    with BoardDisplay(device, sleep=waits.append, clock=clock) as board:
        board.notice(["Pairing code"], big="4821", seconds=60)
        code = device.image.copy()
        board.show(samples.start())
        board.announce(samples.play())  # a score while the code is up: no animation over it
        assert device.image.tobytes() == code.tobytes() and waits == []
        clock.now += 61  # the notice has timed out: the next view is drawn
        board.show(samples.play())
        assert device.image.convert("1").tobytes() == render_board(samples.play(), (128, 64)).tobytes()


def test_clearing_a_notice_puts_back_the_latest_board() -> None:
    device = dummy(width=128, height=64)
    with BoardDisplay(device, clock=Clock()) as board:
        board.notice(["Pair a phone"], seconds=60)
        board.show(samples.mid_game())
        board.clear_notice()
        assert device.image.convert("1").tobytes() == render_board(samples.mid_game(), (128, 64)).tobytes()
