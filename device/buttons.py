"""The four buttons: OK, Undo, Go and Menu. Each sends the session the same action a phone would.

- OK: accept what the device asks ("Is this the 5H?") -> ``service.confirm()``; on the pairing
  screen it shows the phone pairing code.
- Undo: ``service.undo()``; on the code screen, a new pairing code (phones pair again).
- Go: ``service.submit({"act": "go", "player": <whose turn>})``; in a game with no "go" but an
  auction, that seat's pass (Briscola Chiamata, Bourre), and after everyone passed in Briscola
  Chiamata, deal again (:func:`go_action`); on the code screen, a QR code of the phone page's
  address with the pairing code in it.
- Menu, short press: the pairing screen (and back to the board).
- Menu, long press: the next game in the configured cycle (cribbage for 2, for 3, five-card...)
  and a new game starts with it.
- Slap (optional, one per seat, ``slaps = [pin, ...]`` in seat order): that seat slaps the pile
  (Egyptian Ratscrew); the first slap the session records is the one judged.

Buttons are wired from the pin to ground and use the Pi's internal pull-ups. Without GPIO (not a
Pi, no gpiozero) the buttons are a logged warning and the phone does their work.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from device.display import config_from, pin_number
from device.errors import HardwareConfigError
from games.engine import get_game
from games.errors import PegpiError
from games.jsontypes import JSONObject
from games.view import TableView

T = TypeVar("T")

log = logging.getLogger(__name__)


PAIRING_LINES = ("Pair a phone", "OK: show the code", "Menu: back")


PAIRING_SECONDS = 60.0  # the pairing screen and code stay up this long unless dismissed
REFUSAL_SECONDS = 4.0  # a refused button action is shown this long


def go_action(view: TableView) -> JSONObject | None:
    """What the Go button says now: "go" for the seat to move; in a game that has no "go" but a
    "pass" (an auction: Briscola Chiamata, Bourre's pass or play), that seat's pass; when nobody
    is to move after everyone passed in Briscola Chiamata, deal again. None: nothing to say."""
    try:
        acts = {action.act for action in get_game(view.game).actions}
    except PegpiError:  # a game this pegpi does not know: Go keeps its plain meaning
        acts = {"go"}
    if view.turn is None:
        return {"act": "redeal"} if view.phase == "reopen" and "redeal" in acts else None
    if "go" not in acts and "pass" in acts:
        return {"act": "pass", "player": view.turn}
    return {"act": "go", "player": view.turn}


class Screen(Protocol):
    """What the buttons need of the display (``device.display.BoardDisplay`` is one)."""

    def show(self, view: TableView) -> None: ...

    def notice(self, lines: Sequence[str], big: str | None = None, *, seconds: float | None = None) -> None: ...

    def clear_notice(self) -> None: ...


@dataclass(frozen=True)
class GameChoice:
    """One stop of the Menu long-press cycle: a registry name and a number of players."""

    game: str
    players: int

    @classmethod
    def parse(cls, text: str) -> GameChoice:
        """``"cribbage/3"`` -> cribbage for three. ``"gin"`` means two players."""
        name, _, count = str(text).strip().partition("/")
        try:
            players = int(count) if count else 2
        except ValueError:
            raise HardwareConfigError(f"[buttons] game {text!r} is not like 'cribbage/3'") from None
        if not name or not 1 <= players <= 8:
            raise HardwareConfigError(f"[buttons] game {text!r} is not like 'cribbage/3'")
        return cls(name, players)

    def __str__(self) -> str:
        return f"{self.game}/{self.players}"


@dataclass(frozen=True)
class ButtonConfig:
    ok: int | None = 5
    undo: int | None = 6
    go: int | None = 13
    menu: int | None = 19
    pull_up: bool = True  # buttons between the pin and ground
    bounce_time: float | None = 0.03
    hold_time: float = 1.5  # seconds of Menu that make a long press
    games: Sequence[str] = ("cribbage/2", "cribbage5/2", "cribbage3/3", "cribbage4/4", "bhargage/2")
    slaps: Sequence[int] = ()  # one slap button per seat, in seat order (none: slaps from the phones)

    def __post_init__(self) -> None:
        for key in ("ok", "undo", "go", "menu"):
            object.__setattr__(self, key, pin_number(getattr(self, key), key, "buttons"))
        if isinstance(self.slaps, str | int) or not isinstance(self.slaps, Sequence):
            raise HardwareConfigError("[buttons] slaps must be a list of BCM pin numbers, one per seat")
        object.__setattr__(self, "slaps", tuple(pin_number(p, "slaps", "buttons") for p in self.slaps))
        pins = [p for p in (self.ok, self.undo, self.go, self.menu, *self.slaps) if p is not None]
        if len(set(pins)) != len(pins):
            raise HardwareConfigError(f"[buttons] two buttons on one pin: {pins}")
        if isinstance(self.games, str) or not self.games:
            raise HardwareConfigError("[buttons] games must be a list like ['cribbage/2', 'cribbage/3']")
        object.__setattr__(self, "games", tuple(str(GameChoice.parse(g)) for g in self.games))

    @classmethod
    def from_mapping(cls, section: Mapping[str, Any] | None) -> ButtonConfig:
        config: ButtonConfig = config_from(cls, section, "buttons")
        return config

    @property
    def choices(self) -> tuple[GameChoice, ...]:
        return tuple(GameChoice.parse(g) for g in self.games)


def next_game(choices: Sequence[GameChoice], view: TableView | None,
              tried: GameChoice | None = None) -> GameChoice:
    """The stop after the game being played (by name and number of players), or the first.
    After a choice the session refused (``tried``), the stop after that one, so the cycle moves on."""
    current = tried or (GameChoice(view.game, len(view.players)) if view is not None else None)
    for index, choice in enumerate(choices):
        if choice == current:
            return choices[(index + 1) % len(choices)]
    return choices[0]


def player_names(view: TableView | None, count: int) -> list[str]:
    """The names at the table now, as many as the new game needs (new seats get 'Player 3')."""
    names = list(view.players) if view is not None else []
    return [names[i] if i < len(names) else f"Player {i + 1}" for i in range(count)]


class ButtonTable(Protocol):
    """What the buttons use of the table (a part of :class:`device.service.TableService`)."""

    @property
    def pairing_code(self) -> str: ...

    def new_pairing_code(self) -> str: ...

    def view(self, seat: int | None = None) -> TableView: ...

    def submit(self, action: JSONObject, *, source: str = "phone") -> TableView: ...

    def undo(self, *, source: str = "phone") -> TableView: ...

    def confirm(self, *, source: str = "button") -> TableView: ...

    def new_game(self, game: str, players: list[str], options: JSONObject | None = None) -> TableView: ...


class ButtonPanel:
    """Connects the buttons to a :class:`device.service.TableService` (and optionally a screen)."""

    def __init__(self, service: ButtonTable, config: ButtonConfig | Mapping[str, Any] | None = None, *,
                 screen: Screen | None = None, pin_factory: Any = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.service = service
        self._clock = clock
        self._mode_until = 0.0
        self.config = config if isinstance(config, ButtonConfig) else ButtonConfig.from_mapping(config)
        self.screen = screen
        self.mode = "board"  # "board" | "pairing" | "code"
        self.address: str | None = None  # the phone page's address, once it serves (for the QR code)
        self._lock = threading.RLock()
        self._held = False
        self._refused: GameChoice | None = None
        self.buttons: dict[str, Any] = {}
        self._open(pin_factory)

    def _open(self, pin_factory: Any) -> None:
        try:
            from gpiozero import Button
        except ImportError as exc:
            log.warning("buttons: gpiozero is not installed (%s); use the phone instead", exc)
            return
        cfg = self.config
        wired = [(name, getattr(cfg, name)) for name in ("ok", "undo", "go", "menu")]
        wired += [(f"slap{seat}", pin) for seat, pin in enumerate(cfg.slaps)]
        for name, pin in wired:
            if pin is None:
                continue
            try:
                button = Button(pin, pull_up=cfg.pull_up, bounce_time=cfg.bounce_time, hold_time=cfg.hold_time,
                                pin_factory=pin_factory)
            except (TypeError, NameError, AttributeError):
                raise  # a mistake in this code, not missing hardware
            except Exception as exc:  # noqa: BLE001 - no GPIO here: the phone does the buttons' work
                log.warning("buttons: cannot use the %s button on GPIO%d (%s: %s)", name, pin,
                            type(exc).__name__, exc)
                continue
            self.buttons[name] = button
        if "ok" in self.buttons:
            self.buttons["ok"].when_pressed = self.ok
        if "undo" in self.buttons:
            self.buttons["undo"].when_pressed = self.undo
        if "go" in self.buttons:
            self.buttons["go"].when_pressed = self.go
        for seat in range(len(cfg.slaps)):
            if f"slap{seat}" in self.buttons:
                self.buttons[f"slap{seat}"].when_pressed = functools.partial(self.slap, seat)
        if "menu" in self.buttons:
            menu = self.buttons["menu"]
            menu.when_pressed = self._menu_down
            menu.when_held = self.menu_long
            menu.when_released = self._menu_up

    # The actions, callable directly too (the same as pressing the button).

    def _screen_mode(self) -> str:
        """The screen the buttons are on; the pairing screens time out as the display's notice does."""
        if self.mode != "board" and self._clock() >= self._mode_until:
            self.mode = "board"
        return self.mode

    def _enter(self, mode: str) -> None:
        self.mode = mode
        self._mode_until = self._clock() + PAIRING_SECONDS

    def ok(self) -> None:
        with self._lock:
            mode = self._screen_mode()
            if mode == "pairing":
                self._enter("code")
                code = str(self._safe(lambda: self.service.pairing_code) or "?")
                self._notice(["Pairing code"], big=code, seconds=PAIRING_SECONDS)
                return
            if mode == "code":
                self._back_to_board()
                return
            self._call("confirm", lambda: self.service.confirm(source="button"))

    def undo(self) -> None:
        with self._lock:
            if self._screen_mode() == "code":
                self._new_code()
                return
            self._call("undo", lambda: self.service.undo(source="button"))

    def _show_qr(self) -> None:
        """Go on the code screen: a QR code of the page's address with the pairing code in it
        (a phone that scans it opens the page and pairs). Without a phone page there is none."""
        picture = getattr(self.screen, "picture", None)
        if self.address is None or not callable(picture):
            return
        from device.board.qr import render_qr

        code = str(self._safe(lambda: self.service.pairing_code) or "")
        link = f"{self.address.split('#', 1)[0]}#pair={code}"
        self._enter("code")
        picture(lambda size, mode: render_qr(link, size, lines=["Scan to pair", code], mode=mode),
                seconds=PAIRING_SECONDS)

    def _new_code(self) -> None:
        """Undo on the code screen: a new pairing code (every phone pairs again), shown at once."""
        code = self._safe(self.service.new_pairing_code) or "?"
        log.info("buttons: a new pairing code")
        self._enter("code")
        self._notice(["New pairing code"], big=code, seconds=PAIRING_SECONDS)

    def go(self) -> None:
        with self._lock:
            if self._screen_mode() == "code":
                self._show_qr()
                return
            view = self._safe(self.service.view)
            action = go_action(view) if view is not None else None
            if action is None:
                log.info("buttons: Go pressed but it is nobody's turn")
                return
            self._call("go", lambda: self.service.submit(action, source="button"))

    def slap(self, seat: int) -> None:
        """Seat ``seat``'s slap button: a slap like a tap on that seat's phone."""
        with self._lock:
            self._call("slap", lambda: self.service.submit({"act": "slap", "player": seat}, source="button"))

    def menu_short(self) -> None:
        with self._lock:
            if self._screen_mode() == "board":
                self._enter("pairing")
                self._notice(list(PAIRING_LINES), seconds=PAIRING_SECONDS)
            else:
                self._back_to_board()

    def menu_long(self) -> None:
        with self._lock:
            self._held = True
            view = self._safe(self.service.view)
            choice = next_game(self.config.choices, view, self._refused)
            players = player_names(view, choice.players)
            self.mode = "board"
            self._notice(["New game", f"{choice.game} for {choice.players}"])
            log.info("buttons: new game %s for %s", choice.game, players)
            ok = self._call("new game", lambda: self.service.new_game(choice.game, players, {}))
            self._refused = None if ok else choice

    def _menu_down(self) -> None:
        self._held = False

    def _menu_up(self) -> None:
        if not self._held:
            self.menu_short()
        self._held = False

    def _back_to_board(self) -> None:
        self.mode = "board"
        if self.screen is None:
            return
        view = self._safe(self.service.view)
        self.screen.clear_notice()
        if view is not None:
            self.screen.show(view)

    def _notice(self, lines: list[str], big: str | None = None, seconds: float | None = None) -> None:
        if self.screen is not None:
            self.screen.notice(lines, big=big, seconds=seconds)

    def _call(self, what: str, action: Any) -> bool:
        """Run a session call; a refusal (an illegal go, nothing to undo) is shown, never raised
        into gpiozero's thread. True when the session accepted it."""
        try:
            result = action()
        except PegpiError as exc:
            log.info("buttons: %s refused: %s", what, exc)
            self._notice([f"{what.capitalize()}: not now", str(exc)], seconds=REFUSAL_SECONDS)
            return False
        if isinstance(result, TableView) and self.screen is not None:
            self.screen.show(result)
        return True

    def _safe(self, read: Callable[[], T]) -> T | None:
        try:
            return read()
        except PegpiError as exc:
            log.warning("buttons: the session did not answer: %s", exc)
            return None

    def close(self) -> None:
        for button in self.buttons.values():
            button.close()
        self.buttons = {}

    def __enter__(self) -> ButtonPanel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
