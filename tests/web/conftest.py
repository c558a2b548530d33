"""Fixtures for the phone page: a replayed game behind the app (the table's Session over an
in-memory store), and phones (test clients)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from device.replay import ReplaySession
from web import create_app

CODE = "2468"  # the device's pairing code in these tests (test_api.py says it too)


HERE = Path(__file__).parent


def game_record(*, known_hands: bool = False) -> dict[str, Any]:
    """A whole game of cribbage (made once by ``games.cribbage.autoplay``, seed 1, and kept so
    that the expectations below do not move when the random player changes)."""
    name = "game_known_hands.json" if known_hands else "game.json"
    return dict(json.loads((HERE / name).read_text()))


@pytest.fixture
def make_table() -> Any:
    """``make_table(record, played=N)``: the table's one Session, over an in-memory store, stepped
    through ``record`` (a new game of cribbage when None) by ``step()``; closed after the test."""
    made: list[ReplaySession] = []

    def make(record: dict[str, Any] | None = None, *, played: int = 0, pairing_code: str = CODE) -> ReplaySession:
        table = ReplaySession(record, pairing_code=pairing_code, played=played)
        made.append(table)
        return table

    yield make
    for table in made:
        table.close()


@pytest.fixture
def service(make_table: Any) -> Any:
    # 27 actions in: the play of the second deal, Ann to play at a count of 27
    return make_table(game_record(), played=27)


@pytest.fixture
def app(service: Any) -> Any:
    app = create_app({"TESTING": True, "SECRET_KEY": "test only", "SSE_KEEPALIVE": 0.05}, service=service)
    yield app
    app.extensions["pegpi"].hub.close()


@pytest.fixture
def client(app: Any) -> Any:
    return app.test_client()


class Phone:
    """A test client that behaves as the page does: sends its CSRF token with every POST."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.csrf = client.get("/api/me").get_json()["csrf"]

    def get(self, url: str) -> Any:
        return self.client.get(url)

    def post(self, url: str, body: Any = None, **kwargs: Any) -> Any:
        headers = {"X-CSRF-Token": self.csrf, **kwargs.pop("headers", {})}
        if body is None and "data" not in kwargs:
            body = {}
        if body is not None:
            kwargs["json"] = body
        return self.client.post(url, headers=headers, **kwargs)

    def pair(self, seat: int | None = None, code: str = CODE) -> Any:
        body: dict[str, Any] = {"code": code}
        if seat is not None:
            body["seat"] = seat
        return self.post("/api/pair", body)


@pytest.fixture
def new_phone() -> Any:
    """Another phone at the table: ``new_phone(app)``."""
    return lambda app: Phone(app.test_client())


@pytest.fixture
def record_of() -> Any:
    """A whole replayed game's record: ``record_of(known_hands=True)``."""
    return game_record


@pytest.fixture
def phone(client: Any) -> Phone:
    return Phone(client)


@pytest.fixture
def paired(app: Any) -> Phone:
    phone = Phone(app.test_client())
    assert phone.pair().status_code == 200
    return phone
