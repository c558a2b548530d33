"""The LEDs beside the board: whose turn, how far the leader is to the game hole, a flash when
anyone scores (and on and on while a pile may be slapped), and a red light while there is a
problem (an illegal play, an unreadable card, the mat lost from view).

All through gpiozero; tests use its ``MockFactory``. Pins that cannot be had (not a Pi, no GPIO
chip, a pin in use) are a logged warning and those lights stay dark: the scoring goes on.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from device.board.view import Board, board_of
from device.display import config_from, pin_number
from device.errors import HardwareConfigError
from games.view import TableView

log = logging.getLogger(__name__)


def _pins(value: Any, key: str) -> tuple[int, ...]:
    if value is None:
        return ()
    if isinstance(value, int) and not isinstance(value, bool):
        return (value,)
    if isinstance(value, Sequence) and not isinstance(value, str):
        pins = tuple(value)
        if all(isinstance(p, int) and not isinstance(p, bool) and 0 <= p <= 27 for p in pins):
            return pins
    raise HardwareConfigError(f"[leds] {key} must be a list of BCM pin numbers 0-27, not {value!r}")


@dataclass(frozen=True)
class LedConfig:
    seats: Sequence[int] = (17, 27, 22, 23)  # one per seat, in seat order: whose turn it is
    bar: Sequence[int] = (12, 16, 20, 21)  # progress of the leader to the game hole, first to last
    bar_pwm: bool = True  # dim the last LED of the bar for a part of a step
    score: int | None = 4  # flashes on every score
    problem: int | None = 26  # red: something needs a person
    active_high: bool = True  # LEDs wired pin -> resistor -> LED -> ground
    flash_on: float = 0.08
    flash_off: float = 0.08
    flashes: int = 3

    def __post_init__(self) -> None:
        object.__setattr__(self, "seats", _pins(self.seats, "seats"))
        object.__setattr__(self, "bar", _pins(self.bar, "bar"))
        object.__setattr__(self, "score", pin_number(self.score, "score", "leds"))
        object.__setattr__(self, "problem", pin_number(self.problem, "problem", "leds"))
        used = [*self.seats, *self.bar, *(p for p in (self.score, self.problem) if p is not None)]
        doubled = sorted({p for p in used if used.count(p) > 1})
        if doubled:
            raise HardwareConfigError(f"[leds] pin(s) {doubled} used twice")

    @classmethod
    def from_mapping(cls, section: Mapping[str, Any] | None) -> LedConfig:
        config: LedConfig = config_from(cls, section, "leds")
        return config


def progress(board: Board) -> float:
    """How far the leader is from the start to the game hole, 0..1."""
    if not board.sides or board.target <= board.start:
        return 0.0
    leader = max(side.score for side in board.sides)
    return max(0.0, min(1.0, (leader - board.start) / (board.target - board.start)))


def lit_seats(board: Board, seats: int) -> set[int]:
    """The seats whose light is on: whose turn it is, or at the end, the winners."""
    if board.phase == "over":
        if board.winner is not None and 0 <= board.winner < len(board.sides):
            return {s for s in board.sides[board.winner].seats if 0 <= s < seats}
        return set()
    return {board.turn} if board.turn is not None and 0 <= board.turn < seats else set()


class TableLights:
    """``show(view)`` sets every light for a view; ``announce(view)`` also flashes the score light."""

    def __init__(self, config: LedConfig | Mapping[str, Any] | None = None, *, pin_factory: Any = None) -> None:
        self.config = config if isinstance(config, LedConfig) else LedConfig.from_mapping(config)
        self._factory = pin_factory
        self.seat_leds: list[Any] = []
        self.bar: Any | None = None
        self.score: Any | None = None
        self._alerting = False
        self.problem: Any | None = None
        self._open()

    def _open(self) -> None:
        cfg = self.config
        try:
            from gpiozero import LED, LEDBarGraph
        except ImportError as exc:
            log.warning("leds: gpiozero is not installed (%s); running without LEDs", exc)
            return
        self.seat_leds = [led for pin in cfg.seats if (led := self._make(LED, pin, what="seat")) is not None]
        if len(self.seat_leds) != len(cfg.seats):
            self._close_all(self.seat_leds)
            self.seat_leds = []
        if cfg.bar:
            self.bar = self._make(LEDBarGraph, *cfg.bar, what="bar graph", pwm=cfg.bar_pwm)
        if cfg.score is not None:
            self.score = self._make(LED, cfg.score, what="score")
        if cfg.problem is not None:
            self.problem = self._make(LED, cfg.problem, what="problem")

    def _make(self, kind: Any, *pins: int, what: str = "", **kwargs: Any) -> Any | None:
        try:
            return kind(*pins, active_high=self.config.active_high, pin_factory=self._factory, **kwargs)
        except (TypeError, NameError, AttributeError):
            raise  # a mistake in this code, not missing hardware
        except Exception as exc:  # noqa: BLE001 - no GPIO (not a Pi, pin busy) means dark LEDs, not a crash
            log.warning("leds: cannot drive the %s LED on GPIO%s (%s: %s); it stays dark",
                        what, ",".join(map(str, pins)), type(exc).__name__, exc)
            return None

    @property
    def available(self) -> bool:
        return bool(self.seat_leds or self.bar or self.score or self.problem)

    def show(self, view: TableView) -> None:
        board = board_of(view)
        on = lit_seats(board, len(self.seat_leds))
        for seat, led in enumerate(self.seat_leds):
            led.value = seat in on
        if self.bar is not None:
            value = progress(board)
            if not self.config.bar_pwm:
                # Without dimming, light a step once it is reached (the first step as soon as anyone pegs).
                steps = len(self.bar)
                value = math.ceil(value * steps) / steps
            self.bar.value = value
        if self.problem is not None:
            self.problem.value = board.problem
        if self.score is not None and bool(board.alert) != self._alerting:
            self._alerting = bool(board.alert)  # a pile to slap: the score light flashes until it is gone
            if self._alerting:
                cfg = self.config
                self.score.blink(on_time=cfg.flash_on, off_time=cfg.flash_off, n=None, background=True)
            else:
                self.score.off()

    def announce(self, view: TableView) -> None:
        """A scoring moment: flash the score light (in the background), then show the view."""
        if self.score is not None and view.last is not None:
            cfg = self.config
            self.score.blink(on_time=cfg.flash_on, off_time=cfg.flash_off, n=cfg.flashes, background=True)
        self.show(view)

    @staticmethod
    def _close_all(devices: Sequence[Any]) -> None:
        for device in devices:
            device.close()

    def close(self) -> None:
        self._close_all([d for d in (*self.seat_leds, self.bar, self.score, self.problem) if d is not None])
        self.seat_leds, self.bar, self.score, self.problem = [], None, None, None

    def __enter__(self) -> TableLights:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
