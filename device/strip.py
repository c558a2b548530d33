"""The optional full electronic board: a WS2812 (NeoPixel) strip with one LED per hole.

``strip_image(view, holes)`` is a pure function: a ``(holes * streets) x 1`` RGB picture, pixel
``n - 1`` of a street being the hole a peg stands in with ``n`` points. Every hole glows faintly,
every fifth a little more (the groups of five on a wooden board), skunk lines faint red, the game
hole white; each side's front peg is bright in its colour and its rear peg dim.
``PegStrip`` sends it to luma.led_matrix's ``ws2812`` device (which drives GPIO 18 itself). Without
the library or the hardware it is a logged warning, and the OLED board carries on alone.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from PIL import Image

from device.board.view import Board, board_of
from device.display import config_from
from device.errors import HardwareConfigError
from games.view import TableView

log = logging.getLogger(__name__)

RGB = tuple[int, int, int]

# Peg colours of the sides, as the coloured pegs of a board set: red, blue, green, yellow.
PEGS: tuple[RGB, ...] = ((255, 0, 0), (0, 64, 255), (0, 200, 0), (255, 160, 0))
HOLE: RGB = (3, 3, 3)
GROUP: RGB = (10, 10, 10)
SKUNK: RGB = (24, 0, 0)
GAME_HOLE: RGB = (60, 60, 60)
REAR_DIM = 6  # the rear peg at a sixth of the front peg's brightness


@dataclass(frozen=True)
class StripConfig:
    enabled: bool = False
    holes: int = 121  # LEDs per street: 121 for a cribbage board (hole 121 is the game hole)
    streets: str = "shared"  # "shared": every side on one street; "per_side": one street per side, end to end
    brightness: int = 64  # 0..255; a full-white strip draws several amps

    def __post_init__(self) -> None:
        if self.streets not in ("shared", "per_side"):
            raise HardwareConfigError(f"[strip] streets {self.streets!r} is not 'shared' or 'per_side'")
        if not 1 <= self.holes <= 1000:
            raise HardwareConfigError(f"[strip] holes {self.holes!r} must be 1..1000")
        if not 0 <= self.brightness <= 255:
            raise HardwareConfigError(f"[strip] brightness {self.brightness!r} must be 0..255")

    @classmethod
    def from_mapping(cls, section: Mapping[str, Any] | None) -> StripConfig:
        config: StripConfig = config_from(cls, section, "strip")
        return config


def _hole_index(board: Board, points: int, holes: int) -> int | None:
    """The LED for a peg at ``points``: scaled when the strip is shorter or longer than the board."""
    if points <= 0:
        return None  # 0 is the start, off the board
    points = min(points, board.holes)
    return min(holes - 1, round(points * holes / board.holes) - 1) if holes != board.holes else points - 1


def _add(a: RGB, b: RGB) -> RGB:
    return (min(255, a[0] + b[0]), min(255, a[1] + b[1]), min(255, a[2] + b[2]))


def _street(board: Board, holes: int, sides: list[int]) -> list[RGB]:
    pixels: list[RGB] = []
    for n in range(1, holes + 1):
        points = round(n * board.holes / holes)
        pixels.append(GROUP if points % 5 == 0 else HOLE)
    for line in board.skunk_lines:
        index = _hole_index(board, line.at, holes)
        if index is not None:
            pixels[index] = SKUNK
    target = _hole_index(board, board.target, holes)
    if target is not None:
        pixels[target] = GAME_HOLE
    # Rear pegs first; a front peg in the same hole hides them (two front pegs share the hole).
    for front in (False, True):
        pegs: dict[int, RGB] = {}
        for side in sides:
            colour = PEGS[side % len(PEGS)]
            score, rear = board.sides[side].score, board.sides[side].rear
            if front:
                index, shade = _hole_index(board, score, holes), colour
            elif rear != score:
                index = _hole_index(board, rear, holes)
                shade = (colour[0] // REAR_DIM, colour[1] // REAR_DIM, colour[2] // REAR_DIM)
            else:
                continue
            if index is not None:
                pegs[index] = _add(pegs.get(index, (0, 0, 0)), shade)
        for index, colour in pegs.items():
            pixels[index] = colour
    return pixels


def strip_image(view: TableView, holes: int = 121, *, streets: str = "shared") -> Image.Image:
    """The strip as a ``(length x 1)`` RGB picture for ``view``.

    >>> from games import new_game
    >>> strip_image(new_game("cribbage", ["Ann", "Bob"]).new_initial_state().view_for(None), 121).size
    (121, 1)
    """
    board = board_of(view)
    if streets == "per_side":
        pixels = [p for i in range(len(board.sides)) for p in _street(board, holes, [i])]
    else:
        pixels = _street(board, holes, list(range(len(board.sides))))
    image = Image.new("RGB", (max(1, len(pixels)), 1))
    image.putdata(pixels or [(0, 0, 0)])
    return image


class PegStrip:
    """Shows views on a WS2812 strip, or on a luma ``dummy`` device given for tests."""

    def __init__(self, config: StripConfig | Mapping[str, Any] | None = None, *, device: Any = None,
                 sides: int = 2) -> None:
        self.config = config if isinstance(config, StripConfig) else StripConfig.from_mapping(config)
        self.device = device
        self._sides = sides
        if self.device is None and self.config.enabled:
            self.device = self._open()

    def _length(self, sides: int) -> int:
        return self.config.holes * (sides if self.config.streets == "per_side" else 1)

    def _open(self) -> Any | None:
        try:
            from luma.led_matrix.device import ws2812
        except ImportError as exc:
            log.warning("strip: luma.led_matrix is not installed (%s); no LED strip", exc)
            return None
        try:
            device = ws2812(width=self._length(self._sides), height=1)
            device.contrast(self.config.brightness)
            return device
        except Exception as exc:  # noqa: BLE001 - no strip driver (not a Pi, not root): the OLED carries on
            log.warning("strip: cannot open the WS2812 strip (%s: %s); no LED strip", type(exc).__name__, exc)
            return None

    def show(self, view: TableView) -> None:
        if self.device is None:
            return
        image = strip_image(view, self.config.holes, streets=self.config.streets)
        width, height = int(self.device.width), int(self.device.height)
        if image.size != (width, height):
            fitted = Image.new("RGB", (width, height))
            fitted.paste(image.crop((0, 0, min(image.width, width * height), 1)), (0, 0))
            image = fitted
        try:
            self.device.display(image.convert(self.device.mode))
        except Exception as exc:  # noqa: BLE001 - a strip glitch must never stop the scoring
            log.warning("strip: drawing failed (%s: %s)", type(exc).__name__, exc)

    def announce(self, view: TableView) -> None:
        self.show(view)

    def close(self) -> None:
        if self.device is not None:
            try:
                self.device.cleanup()
            except Exception as exc:  # noqa: BLE001 - closing a dead strip is not an error
                log.debug("strip: cleanup failed: %s", exc)
            self.device = None

    def __enter__(self) -> PegStrip:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
