"""Every game option has allowed values: whole numbers a range or choices, checked where given
and when a stored game is loaded again."""

from __future__ import annotations

from typing import Any

import pytest

from games import registered_games
from games.engine import new_game
from games.errors import OptionError, RecordError


def test_every_whole_number_option_of_every_game_is_bounded() -> None:
    loose = [f"{spec.name}.{option.name}" for spec in registered_games() for option in spec.options
             if type(option.default) is int and option.choices is None
             and (option.low is None or option.high is None)]
    assert loose == []


def test_every_default_is_allowed() -> None:
    for spec in registered_games():
        for option in spec.options:
            assert option.check(option.default) == option.default, (spec.name, option.name)


@pytest.mark.parametrize("target", [10**9, 0, -5, 362])
def test_an_unbounded_target_is_refused_naming_the_option_and_range(target: int) -> None:
    with pytest.raises(OptionError, match=r"option 'target' is a whole number from 5 to 361"):
        new_game("cribbage", ["Ann", "Bob"], {"target": target})


def test_a_target_in_range_is_kept() -> None:
    assert new_game("cribbage", ["Ann", "Bob"], {"target": 61}).options["target"] == 61


def test_oh_hell_deals_are_bounded() -> None:
    with pytest.raises(OptionError, match="'most'"):
        new_game("ohhell", 3, {"most": 10**6})


def test_the_phone_cannot_set_a_huge_target(paired_phone: Any) -> None:
    reply = paired_phone.post("/api/new", {"game": "cribbage", "players": ["Ann", "Bob"],
                                           "options": {"target": 10**9}})
    assert reply.status_code == 400
    assert "'target'" in reply.get_json()["error"] and "5 to 361" in reply.get_json()["error"]


def test_a_stored_bad_option_is_refused_at_load_with_a_clear_message() -> None:
    from device.session import Session
    from device.store import Store

    store = Store(":memory:")
    store.new_game("cribbage", ["Ann", "Bob"], {"target": 10**9})  # as an older pegpi stored it
    with pytest.raises(RecordError, match=r"stored game 1 \(cribbage\) cannot be resumed: "
                                          r"option 'target' is a whole number from 5 to 361"):
        Session(store)


@pytest.fixture
def paired_phone() -> Any:
    from device.replay import ReplaySession
    from web import create_app

    app = create_app({"TESTING": True, "SECRET_KEY": "test only"}, service=ReplaySession(pairing_code="1357"))
    client = app.test_client()
    csrf = client.get("/api/me").get_json()["csrf"]

    class Phone:
        def post(self, url: str, body: Any) -> Any:
            return client.post(url, json=body, headers={"X-CSRF-Token": csrf})

    phone = Phone()
    assert phone.post("/api/pair", {"code": "1357"}).status_code == 200
    return phone
