"""Every button, and the long press of Menu, on gpiozero's MockFactory, against a recording session.

The session is a small fake of pegpi's own ``TableService`` protocol that records what it is asked;
the screen is a real ``BoardDisplay`` on luma's ``dummy`` device, so the pairing code is a picture.
"""

from __future__ import annotations

import threading
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory
from luma.core.device import dummy

from device.board import samples
from device.board.notice import render_notice
from device.buttons import ButtonConfig, ButtonPanel, GameChoice, next_game, player_names
from device.display import BoardDisplay
from device.errors import HardwareConfigError
from games import new_game
from games.errors import IllegalActionError, UnknownGameError
from games.view import TableView

DEFAULTS = Path(__file__).parents[2] / "hardware" / "defaults.toml"
FAST = {"bounce_time": None, "hold_time": 0.05}


class RecordingTable:
    """Answers like a table session and remembers every call (pegpi's own protocol, not a GPIO double)."""

    pairing_code = "4821"

    def __init__(self, view: TableView | None = None) -> None:
        self.current = view or samples.play()  # a session answers with typed views
        self.calls: list[tuple[Any, ...]] = []
        self.refuse: Exception | None = None
        self.new_game_called = threading.Event()
        self.fresh_codes: list[str] = []

    def _answer(self, *call: Any) -> TableView:
        self.calls.append(call)
        if self.refuse is not None:
            raise self.refuse
        return self.current

    def new_pairing_code(self) -> str:
        self.fresh_codes.append("7139")
        self.pairing_code = "7139"
        return self.pairing_code

    def view(self, seat: int | None = None) -> TableView:
        return self.current

    def submit(self, action: dict[str, Any], *, source: str = "phone") -> TableView:
        return self._answer("submit", action, source)

    def undo(self, *, source: str = "phone") -> TableView:
        return self._answer("undo", source)

    def confirm(self, *, source: str = "button") -> TableView:
        return self._answer("confirm", source)

    def new_game(self, game: str, players: list[str], options: dict[str, Any] | None = None) -> TableView:
        try:
            return self._answer("new_game", game, players, options)
        finally:
            self.new_game_called.set()


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    previous = Device.pin_factory
    Device.pin_factory = MockFactory()
    try:
        yield Device.pin_factory
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = previous


@pytest.fixture
def table() -> RecordingTable:
    return RecordingTable()


@pytest.fixture
def screen() -> Iterator[tuple[BoardDisplay, Any]]:
    device = dummy(width=128, height=64)
    display = BoardDisplay(device, sleep=lambda _: None)
    yield display, device
    display.close()


@pytest.fixture
def panel(factory: MockFactory, table: RecordingTable, screen: tuple[BoardDisplay, Any]) -> Iterator[ButtonPanel]:
    with ButtonPanel(table, FAST, screen=screen[0]) as buttons:
        yield buttons


def press(panel: ButtonPanel, name: str) -> None:
    pin = panel.buttons[name].pin
    pin.drive_low()
    pin.drive_high()


def test_ok_confirms(panel: ButtonPanel, table: RecordingTable) -> None:
    press(panel, "ok")
    assert table.calls == [("confirm", "button")]


def test_undo_undoes(panel: ButtonPanel, table: RecordingTable) -> None:
    press(panel, "undo")
    assert table.calls == [("undo", "button")]


def test_go_says_go_for_whoever_is_to_play(panel: ButtonPanel, table: RecordingTable) -> None:
    press(panel, "go")
    assert table.calls == [("submit", {"act": "go", "player": 1}, "button")]


def test_a_seats_slap_button_slaps_for_that_seat(factory: MockFactory, table: RecordingTable) -> None:
    with ButtonPanel(table, {**FAST, "slaps": [24, 25, 26]}) as buttons:
        press(buttons, "slap2")
        press(buttons, "slap0")
    assert table.calls == [("submit", {"act": "slap", "player": 2}, "button"),
                           ("submit", {"act": "slap", "player": 0}, "button")]
    with pytest.raises(HardwareConfigError, match="two buttons on one pin"):
        ButtonConfig(slaps=[5])  # the OK button's pin


def test_go_when_it_is_nobody_s_turn_does_nothing(panel: ButtonPanel, table: RecordingTable) -> None:
    table.current = samples.mid_game()
    press(panel, "go")
    assert table.calls == []


def test_a_refusal_is_shown_not_raised(panel: ButtonPanel, table: RecordingTable,
                                       screen: tuple[BoardDisplay, Any]) -> None:
    table.refuse = IllegalActionError("Bob can still play the 5H")
    press(panel, "go")
    assert table.calls == [("submit", {"act": "go", "player": 1}, "button")]
    assert screen[1].image.convert("1").tobytes() == render_notice(
        ["Go: not now", "Bob can still play the 5H"], (128, 64)).tobytes()


def test_menu_short_press_opens_pairing_and_ok_shows_the_code(panel: ButtonPanel, table: RecordingTable,
                                                             screen: tuple[BoardDisplay, Any]) -> None:
    display, device = screen
    press(panel, "menu")
    assert panel.mode == "pairing"
    assert device.image.convert("1").tobytes() == render_notice(
        ["Pair a phone", "OK: show the code", "Menu: back"], (128, 64)).tobytes()
    press(panel, "ok")
    assert panel.mode == "code"
    assert device.image.convert("1").tobytes() == render_notice(["Pairing code"], (128, 64), big="4821").tobytes()
    assert table.calls == []  # OK on the pairing screen confirms nothing
    press(panel, "menu")
    assert panel.mode == "board"
    from device.board import render_board

    assert device.image.convert("1").tobytes() == render_board(table.current, (128, 64)).tobytes()


def test_undo_on_the_code_screen_shows_a_new_code(panel: ButtonPanel, table: RecordingTable,
                                                  screen: tuple[BoardDisplay, Any]) -> None:
    device = screen[1]
    press(panel, "menu")
    press(panel, "ok")
    press(panel, "undo")
    assert table.fresh_codes == ["7139"] and panel.mode == "code"
    assert table.calls == []  # nothing was undone in the game
    assert device.image.convert("1").tobytes() == render_notice(
        ["New pairing code"], (128, 64), big="7139").tobytes()


def test_menu_long_press_starts_the_next_game(panel: ButtonPanel, table: RecordingTable) -> None:
    menu = panel.buttons["menu"].pin
    menu.drive_low()
    assert table.new_game_called.wait(timeout=10), "the long press never fired"
    menu.drive_high()
    assert table.calls == [("new_game", "cribbage5", ["Ann", "Bob"], {})]
    assert panel.mode == "board"  # and the release after the hold is not a short press


def test_a_refused_game_moves_the_cycle_on(panel: ButtonPanel, table: RecordingTable) -> None:
    table.refuse = UnknownGameError("no game called 'cribbage5'")
    panel.menu_long()
    table.refuse = None
    panel.menu_long()
    assert [c[1] for c in table.calls] == ["cribbage5", "cribbage3"]
    assert table.calls[-1][2] == ["Ann", "Bob", "Player 3"]


def test_the_cycle_goes_round() -> None:
    choices = ButtonConfig().choices
    def view(game: str, *players: str) -> TableView:
        return new_game(game, list(players)).new_initial_state().view_for(None)

    assert next_game(choices, view("cribbage", "A", "B")) == GameChoice("cribbage5", 2)
    assert next_game(choices, view("bhargage", "A", "B")) == GameChoice("cribbage", 2)
    assert next_game(choices, view("ohhell", "A", "B", "C")) == choices[0]
    assert next_game(choices, None) == choices[0]
    assert player_names(view("cribbage4", "Ann", "Bob", "Cy", "Di"), 2) == ["Ann", "Bob"]


def test_without_a_screen_the_buttons_still_act(factory: MockFactory, table: RecordingTable) -> None:
    with ButtonPanel(table, FAST) as buttons:
        press(buttons, "menu")
        press(buttons, "ok")
        press(buttons, "ok")  # back to the board
        press(buttons, "ok")
    assert table.calls == [("confirm", "button")]


def test_an_unfitted_button_is_left_out(factory: MockFactory, table: RecordingTable) -> None:
    with ButtonPanel(table, {**FAST, "undo": ""}) as buttons:
        assert sorted(buttons.buttons) == ["go", "menu", "ok"]


def test_no_gpio_is_a_warning(table: RecordingTable, caplog: pytest.LogCaptureFixture,
                              monkeypatch: pytest.MonkeyPatch) -> None:
    import warnings

    if Path("/proc/device-tree/model").exists():
        pytest.skip("this machine may have real GPIO")
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    previous = Device.pin_factory
    Device.pin_factory = None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with ButtonPanel(table, FAST) as buttons:
                assert buttons.buttons == {}
                buttons.go()  # the actions still work when called (as the phone would)
    finally:
        Device.pin_factory = previous
    assert "cannot use the ok button" in caplog.text
    assert table.calls == [("submit", {"act": "go", "player": 1}, "button")]


def test_config_is_checked() -> None:
    with pytest.raises(HardwareConfigError, match="two buttons on one pin"):
        ButtonConfig(ok=5, undo=5)
    with pytest.raises(HardwareConfigError, match="cribbage/3"):
        ButtonConfig(games=["cribbage/three"])
    with pytest.raises(HardwareConfigError, match="no setting"):
        ButtonConfig.from_mapping({"buzzer": 3})


def test_hardware_defaults_match_the_code() -> None:
    defaults = tomllib.loads(DEFAULTS.read_text(encoding="utf-8"))
    assert ButtonConfig.from_mapping(defaults["buttons"]) == ButtonConfig()


def test_the_pairing_code_stays_while_the_game_goes_on(panel: ButtonPanel, table: RecordingTable,
                                                       screen: tuple[BoardDisplay, Any]) -> None:
    display, device = screen
    press(panel, "menu")
    press(panel, "ok")
    code = device.image.copy()
    display.show(samples.thirty_one())  # the session moves on meanwhile
    assert device.image.tobytes() == code.tobytes()
    press(panel, "ok")  # dismiss: the latest board comes back
    from device.board import render_board

    assert device.image.convert("1").tobytes() == render_board(table.current, (128, 64)).tobytes()


def test_the_pairing_screen_times_out(factory: MockFactory, table: RecordingTable) -> None:
    now = [0.0]
    with ButtonPanel(table, FAST, clock=lambda: now[0]) as buttons:
        press(buttons, "menu")
        assert buttons.mode == "pairing"
        now[0] += 61
        press(buttons, "ok")  # the pairing screen is gone, so OK confirms
    assert table.calls == [("confirm", "button")]


def test_go_on_the_code_screen_shows_a_qr_code_of_the_pairing_link(panel: ButtonPanel, table: RecordingTable,
                                                                   screen: tuple[BoardDisplay, Any]) -> None:
    from device.board.qr import render_qr

    device = screen[1]
    panel.address = "http://192.168.1.20:8080/"
    press(panel, "menu")
    press(panel, "ok")
    press(panel, "go")
    assert panel.mode == "code" and table.calls == []  # no Go was said in the game
    assert device.image.convert("1").tobytes() == render_qr(
        "http://192.168.1.20:8080/#pair=4821", (128, 64), lines=["Scan to pair", "4821"]).tobytes()


def test_go_passes_in_an_auction_and_deals_again_after_everyone_passed(panel: ButtonPanel,
                                                                         table: RecordingTable) -> None:
    state = new_game("briscola", ["Ann", "Bob", "Cy", "Di", "Ed"], {"variant": "subito"}).new_initial_state()
    state = state.apply_json({"act": "deal", "dealer": 0})
    table.current = state.view_for(None)  # Ed opens the auction
    press(panel, "go")
    for seat in (4, 3, 2, 1, 0):
        state = state.apply_json({"act": "pass", "player": seat})
    table.current = state.view_for(None)  # everyone passed: reopen, or deal again
    press(panel, "go")
    assert table.calls == [("submit", {"act": "pass", "player": 4}, "button"),
                           ("submit", {"act": "redeal"}, "button")]
