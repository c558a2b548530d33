"""The LEDs on gpiozero's MockFactory: turn lights, the progress bar, the score flash, the red light."""

from __future__ import annotations

import tomllib
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from device.board import samples
from device.errors import HardwareConfigError
from device.leds import LedConfig, TableLights

DEFAULTS = Path(__file__).parents[2] / "hardware" / "defaults.toml"


@pytest.fixture
def no_gpio(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """This machine as it is: not a Pi, no GPIO chip, gpiozero finds no pin factory."""
    if Path("/proc/device-tree/model").exists():
        pytest.skip("this machine may have real GPIO")
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    previous = Device.pin_factory
    Device.pin_factory = None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield
    Device.pin_factory = previous


@pytest.fixture
def lights(factory: MockFactory) -> Iterator[TableLights]:
    with TableLights(LedConfig()) as table_lights:
        yield table_lights


def on(factory: MockFactory, pin: int) -> float:
    return float(factory.pin(pin).state)


def test_the_seat_whose_turn_it_is_is_lit(factory: MockFactory, lights: TableLights) -> None:
    seats = LedConfig().seats
    lights.show(samples.play())  # Bob (seat 1) to play
    assert [on(factory, p) for p in seats] == [0, 1, 0, 0]
    lights.show(samples.four_players())  # Di (seat 3)
    assert [on(factory, p) for p in seats] == [0, 0, 0, 1]
    lights.show(samples.mid_game())  # discarding: nobody's turn
    assert [on(factory, p) for p in seats] == [0, 0, 0, 0]


def test_at_the_end_the_winners_are_lit(factory: MockFactory, lights: TableLights) -> None:
    lights.show(samples.over_skunk())
    assert [on(factory, p) for p in LedConfig().seats] == [1, 0, 0, 0]


def test_the_bar_graph_shows_the_leader_s_progress(factory: MockFactory, lights: TableLights) -> None:
    bar = LedConfig().bar
    lights.show(samples.start())
    assert [on(factory, p) for p in bar] == [0, 0, 0, 0]
    lights.show(samples.base(sides=samples.sides(("Ann", 0, 0), ("Bob", 91, 80))))  # 91/121 of the way
    states = [on(factory, p) for p in bar]
    assert states[:3] == [1, 1, 1]
    assert states[3] == pytest.approx(4 * 91 / 121 - 3)  # the last LED dimmed for the part step
    lights.show(samples.over_skunk())
    assert [on(factory, p) for p in bar] == [1, 1, 1, 1]


def test_without_pwm_the_bar_lights_whole_steps(factory: MockFactory) -> None:
    with TableLights({"bar_pwm": False}) as lights:
        lights.show(samples.base(sides=samples.sides(("Ann", 1, 0), ("Bob", 0, 0))))
        assert [on(factory, p) for p in LedConfig().bar] == [1, 0, 0, 0]


def test_the_problem_light_follows_the_message(factory: MockFactory, lights: TableLights) -> None:
    red = LedConfig().problem
    assert red is not None
    lights.show(samples.question())
    assert on(factory, red) == 1
    lights.show(samples.play())
    assert on(factory, red) == 0
    lights.show(samples.base(message="Is this the 5H? press OK"))
    assert on(factory, red) == 1
    lights.show(samples.base(message=None))
    assert on(factory, red) == 0


def test_every_score_flashes_the_score_light(factory: MockFactory, lights: TableLights) -> None:
    pin = LedConfig().score
    assert pin is not None
    factory.pin(pin).clear_states()
    lights.announce(samples.play())
    assert lights.score is not None
    # The flash runs in gpiozero's background thread; wait for it to finish, then read its history.
    thread = lights.score._blink_thread
    if thread is not None:
        thread.join(timeout=10)
    states = [s.state for s in factory.pin(pin).states]
    assert states.count(1) == LedConfig().flashes
    assert states[-1] == 0


def test_no_score_no_flash(factory: MockFactory, lights: TableLights) -> None:
    pin = LedConfig().score
    assert pin is not None
    factory.pin(pin).clear_states()
    lights.announce(samples.start())
    assert [s.state for s in factory.pin(pin).states] == [0]


def test_a_pin_in_use_is_a_warning_and_the_rest_still_work(factory: MockFactory,
                                                           caplog: pytest.LogCaptureFixture) -> None:
    from gpiozero import LED

    busy = LED(26)  # someone else holds the red light's pin
    try:
        with TableLights(LedConfig()) as lights:
            assert lights.problem is None
            assert "problem" in caplog.text
            lights.show(samples.play())
            assert on(factory, LedConfig().seats[1]) == 1
    finally:
        busy.close()


def test_no_gpio_at_all_is_a_warning(no_gpio: None, caplog: pytest.LogCaptureFixture) -> None:
    with TableLights(LedConfig()) as lights:
        assert not lights.available
        lights.show(samples.play())
        lights.announce(samples.play())
    assert "cannot drive" in caplog.text


def test_config_is_checked() -> None:
    with pytest.raises(HardwareConfigError, match="used twice"):
        LedConfig(seats=(17, 27), bar=(17,))
    with pytest.raises(HardwareConfigError, match="no setting 'colour'"):
        LedConfig.from_mapping({"colour": "red"})
    with pytest.raises(HardwareConfigError, match="BCM pin"):
        LedConfig(score=40)
    assert LedConfig.from_mapping({"seats": [5, 6]}).seats == (5, 6)


def test_hardware_defaults_match_the_code() -> None:
    defaults = tomllib.loads(DEFAULTS.read_text(encoding="utf-8"))
    assert LedConfig.from_mapping(defaults["leds"]) == LedConfig()


def test_the_flash_does_not_hold_up_the_scoring(factory: MockFactory) -> None:
    with TableLights({"flash_on": 0.5, "flash_off": 0.5, "flashes": 3}) as lights:
        lights.announce(samples.play())
        assert lights.score is not None
        assert lights.score._blink_thread is not None  # still flashing in the background
