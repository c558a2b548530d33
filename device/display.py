"""The OLED: a luma device chosen by config, and the adapter that puts the peg board on it.

``open_display(config)`` returns a luma device (``ssd1306``/``sh1106``/``ssd1322`` on I2C or SPI,
``dummy`` for tests, the ``pygame``/``capture`` emulators of luma.emulator on a desktop) or None
for ``none`` and whenever the display cannot be opened: a missing display is a logged warning and
the companion keeps scoring. :class:`BoardDisplay` draws views on it and plays announcements.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from PIL import Image

from device.board import render_board
from device.board.announce import announcement_frames
from device.board.notice import render_notice
from device.errors import HardwareConfigError
from games.view import TableView

log = logging.getLogger(__name__)

DRIVERS = ("ssd1306", "sh1106", "ssd1322", "dummy", "pygame", "capture", "none")
INTERFACES = ("i2c", "spi")


def config_from(cls: Any, section: Mapping[str, Any] | None, name: str) -> Any:
    """Build the frozen config dataclass ``cls`` from a TOML section; unknown keys are an error,
    missing keys take the defaults (which mirror ``hardware/defaults.toml``)."""
    section = dict(section or {})
    known = {f.name for f in fields(cls)}
    unknown = sorted(set(section) - known)
    if unknown:
        raise HardwareConfigError(f"[{name}] has no setting {', '.join(map(repr, unknown))}; "
                                  f"known: {', '.join(sorted(known))}")
    return cls(**section)


def pin_number(value: Any, key: str, section: str) -> int | None:
    """A BCM GPIO number from the config (None when left empty)."""
    if value is None or value == "":
        return None
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 27:
        return value
    raise HardwareConfigError(f"[{section}] {key} must be a BCM pin number 0-27 (or empty), not {value!r}")


def _address(value: int | str) -> int:
    if isinstance(value, str):
        try:
            return int(value, 0)
        except ValueError:
            raise HardwareConfigError(f"[display] address {value!r} is not a number like 0x3C") from None
    return int(value)


@dataclass(frozen=True)
class DisplayConfig:
    driver: str = "ssd1306"
    interface: str = "i2c"
    port: int = 1  # I2C bus (1 on every Pi), or SPI port 0
    address: int | str = 0x3C  # I2C address; 0x3D when the board's address jumper is moved
    spi_device: int = 0  # SPI chip select CE0
    gpio_dc: int = 24  # SPI data/command pin (BCM)
    gpio_rst: int = 25  # SPI reset pin (BCM)
    width: int = 128
    height: int = 64
    rotate: int = 0  # 0..3, quarter turns, for a display mounted upside down (2)
    contrast: int | None = None  # 0..255
    render_mode: str | None = None  # "1" or "L"; default by size
    frame_time: float = 0.08  # seconds per announcement frame
    hold_time: float = 1.5  # seconds the announcement stays before the board returns
    capture_dir: str = "."  # where the `capture` emulator writes its PNGs

    def __post_init__(self) -> None:
        if self.driver not in DRIVERS:
            raise HardwareConfigError(f"[display] driver {self.driver!r} is not one of {', '.join(DRIVERS)}")
        if self.interface not in INTERFACES:
            raise HardwareConfigError(f"[display] interface {self.interface!r} is not i2c or spi")
        if not 0 <= self.rotate <= 3:
            raise HardwareConfigError(f"[display] rotate {self.rotate!r} must be 0, 1, 2 or 3")
        _address(self.address)

    @classmethod
    def from_mapping(cls, section: Mapping[str, Any] | None) -> DisplayConfig:
        config: DisplayConfig = config_from(cls, section, "display")
        return config


def open_display(config: DisplayConfig | Mapping[str, Any] | None = None) -> Any | None:
    """The luma device for ``config``, or None (with a warning) when there is none to be had."""
    if not isinstance(config, DisplayConfig):
        config = DisplayConfig.from_mapping(config)
    if config.driver == "none":
        log.info("display: none configured")
        return None
    try:
        device = _open(config)
    except ImportError as exc:
        log.warning("display: %s needs a library that is not installed (%s); running without a display",
                    config.driver, exc)
        return None
    except Exception as exc:  # noqa: BLE001 - any failure to open hardware means "no display", never a crash
        log.warning("display: cannot open %s on %s (%s: %s); running without a display",
                    config.driver, config.interface, type(exc).__name__, exc)
        return None
    if config.contrast is not None and hasattr(device, "contrast"):
        device.contrast(config.contrast)
    return device


def _open(config: DisplayConfig) -> Any:
    size = {"width": config.width, "height": config.height, "rotate": config.rotate}
    if config.driver == "dummy":
        from luma.core.device import dummy  # luma is optional: the [pi] extra

        return dummy(**size)
    if config.driver in ("pygame", "capture"):
        from luma.emulator import device as emulator

        if config.driver == "capture":
            template = f"{config.capture_dir.rstrip('/')}/pegpi_{{0:06}}.png"
            return emulator.capture(file_template=template, **size)
        return emulator.pygame(**size)
    from luma.core.interface import serial
    from luma.oled import device as oled

    if config.interface == "i2c":
        port = serial.i2c(port=config.port, address=_address(config.address))
    else:
        port = serial.spi(port=config.port, device=config.spi_device, gpio_DC=config.gpio_dc,
                          gpio_RST=config.gpio_rst)
    driver = getattr(oled, config.driver)
    return driver(port, **size)


class BoardDisplay:
    """Shows views on a luma device (or on nothing): ``show(view)``, ``announce(view)``, ``notice()``.

    Thread-safe; an announcement blocks its caller for its frames and hold time, through the
    injected ``sleep`` so tests run instantly. A device that fails while drawing (an I2C glitch, a
    loose wire) is logged once and tried again on the next picture.
    """

    def __init__(self, device: Any | None, *, render_mode: str | None = None, frame_time: float = 0.08,
                 hold_time: float = 1.5, steps: int = 6, sleep: Callable[[float], None] = time.sleep,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.device = device
        self.render_mode = render_mode
        self.frame_time = frame_time
        self.hold_time = hold_time
        self.steps = steps
        self._sleep = sleep
        self._clock = clock
        self._lock = threading.Lock()
        self._failing = False
        self._notice_until: float | None = None
        self.last_view: TableView | None = None

    @classmethod
    def from_config(cls, config: DisplayConfig | Mapping[str, Any] | None = None,
                    sleep: Callable[[float], None] = time.sleep) -> BoardDisplay:
        if not isinstance(config, DisplayConfig):
            config = DisplayConfig.from_mapping(config)
        return cls(open_display(config), render_mode=config.render_mode, frame_time=config.frame_time,
                   hold_time=config.hold_time, sleep=sleep)

    @property
    def size(self) -> tuple[int, int]:
        return (128, 64) if self.device is None else (int(self.device.width), int(self.device.height))

    def _noticing(self) -> bool:
        """A held notice (the pairing code) is on the screen: the board waits behind it."""
        if self._notice_until is None:
            return False
        if self._clock() < self._notice_until:
            return True
        self._notice_until = None
        return False

    def show(self, view: TableView) -> None:
        """Draw the board for ``view`` (kept for later while a held notice is up)."""
        with self._lock:
            self.last_view = view
            if self.device is not None and not self._noticing():
                self._put(render_board(view, self.size, mode=self.render_mode))

    def announce(self, view: TableView) -> None:
        """Play the announcement of ``view.last``, hold it, then draw the board for ``view``."""
        if self.device is not None:
            with self._lock:
                frames = [] if self._noticing() else announcement_frames(
                    view, self.size, mode=self.render_mode, steps=self.steps)
                for frame in frames:
                    self._put(frame)
                    self._sleep(self.frame_time)
                if frames:
                    self._sleep(self.hold_time)
        self.show(view)

    def notice(self, lines: Sequence[str], big: str | None = None, *, seconds: float | None = None) -> None:
        """A whole-screen notice. With ``seconds`` it is held that long over the board (views that
        arrive meanwhile are drawn when it ends); without, the next view replaces it."""
        with self._lock:
            self._notice_until = None if seconds is None else self._clock() + seconds
            if self.device is not None:
                self._put(render_notice(lines, self.size, big=big, mode=self.render_mode))

    def picture(self, draw: Callable[[tuple[int, int], str | None], Image.Image], *, seconds: float) -> None:
        """A whole-screen picture held ``seconds`` over the board, as a notice is (a QR code);
        ``draw(size, render_mode)`` makes it for this screen."""
        with self._lock:
            self._notice_until = self._clock() + seconds
            if self.device is not None:
                self._put(draw(self.size, self.render_mode))

    def clear_notice(self) -> None:
        """End a held notice and put the board back."""
        with self._lock:
            self._notice_until = None
            view = self.last_view
        if view is not None:
            self.show(view)

    def _put(self, image: Image.Image) -> None:
        assert self.device is not None
        try:
            self.device.display(image.convert(self.device.mode))
        except Exception as exc:  # noqa: BLE001 - a flaky display must never stop the scoring
            if not self._failing:
                log.warning("display: drawing failed (%s: %s); will keep trying", type(exc).__name__, exc)
            self._failing = True
        else:
            if self._failing:
                log.info("display: drawing works again")
            self._failing = False

    def close(self) -> None:
        with self._lock:
            if self.device is not None:
                try:
                    self.device.cleanup()
                except Exception as exc:  # noqa: BLE001 - closing a dead display is not an error
                    log.debug("display: cleanup failed: %s", exc)
                self.device = None

    def __enter__(self) -> BoardDisplay:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
