"""hardware/: the guide's pin map says what hardware/defaults.toml and the code use, and no pin is
used twice (LEDs, buttons, the SPI display, the strip)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from device.buttons import ButtonConfig
from device.display import DisplayConfig
from device.leds import LedConfig
from device.strip import StripConfig

HARDWARE = Path(__file__).parents[2] / "hardware"

# BCM GPIO -> physical header pin on every 40-pin Raspberry Pi.
HEADER = {2: 3, 3: 5, 4: 7, 5: 29, 6: 31, 7: 26, 8: 24, 9: 21, 10: 19, 11: 23, 12: 32, 13: 33, 14: 8,
          15: 10, 16: 36, 17: 11, 18: 12, 19: 35, 20: 38, 21: 40, 22: 15, 23: 16, 24: 18, 25: 22, 26: 37, 27: 13}
STRIP_GPIO = 18  # fixed by luma.led_matrix's ws2812 driver


def pin_map() -> dict[int, int]:
    """GPIO -> header pin, from the rows of the guide's tables."""
    text = (HARDWARE / "README.md").read_text(encoding="utf-8")
    found: dict[int, int] = {}
    for gpio, header in re.findall(r"\|\s*GPIO(\d+)[^|]*\|\s*(\d+)\s*\|", text):
        found[int(gpio)] = int(header)
    return found


def test_the_guide_gives_the_right_header_pin_for_every_gpio() -> None:
    for gpio, header in pin_map().items():
        assert HEADER[gpio] == header, f"GPIO{gpio} is header pin {HEADER[gpio]}, the guide says {header}"


def test_every_default_pin_is_in_the_guide() -> None:
    defaults = tomllib.loads((HARDWARE / "defaults.toml").read_text(encoding="utf-8"))
    leds = LedConfig.from_mapping(defaults["leds"])
    buttons = ButtonConfig.from_mapping(defaults["buttons"])
    display = DisplayConfig.from_mapping(defaults["display"])
    assert StripConfig.from_mapping(defaults["strip"]) == StripConfig()
    used = [*leds.seats, *leds.bar, leds.score, leds.problem, buttons.ok, buttons.undo, buttons.go, buttons.menu,
            display.gpio_dc, display.gpio_rst, STRIP_GPIO, 2, 3, 8, 10, 11]
    pins = [p for p in used if p is not None]
    assert len(pins) == len(set(pins)), "a pin is used twice"
    documented = pin_map()
    assert set(pins) <= set(documented), f"not in the guide: {sorted(set(pins) - set(documented))}"
