"""The demo's simulated players answer the device as people at the table would, and never leave
a question standing for ever: the demo and the soak of `pegpi bench runtime` must go on."""

from __future__ import annotations

import threading
from pathlib import Path

from device.demo import DemoPlayers
from device.runtime import Stats, TableLoop
from device.session import Session
from device.store import Store
from vision.events import TableEvent


def _dealt(tmp_path: Path) -> tuple[Session, DemoPlayers]:
    session = Session(Store(tmp_path / "t.db"), players=["Ann", "Bob"])
    for action in ({"act": "deal", "dealer": 0}, {"act": "discard", "player": 0},
                   {"act": "discard", "player": 1}, {"act": "starter", "card": "2C"}):
        session.submit(action)
    loop = TableLoop(session, None, stats=Stats(), stop=threading.Event())
    return session, DemoPlayers(loop, speed=0)


def test_a_card_the_rules_refuse_as_read_is_set_aside_with_ok(tmp_path: Path) -> None:
    """Bob is to play, yet a card lands in Ann's row (a card misread earlier makes it so): the
    players see that card there and press OK, which sets it aside."""
    session, players = _dealt(tmp_path)
    session.table_events([TableEvent("seat1", "KH", "placed", 0.0, 0.99, 0)])
    session.table_events([TableEvent("seat0", "QH", "placed", 1.0, 0.99, 0)])
    session.table_events([TableEvent("seat0", "5S", "placed", 2.0, 0.99, 1)])
    ask = session.protocol.ask
    assert ask is not None and ask.kind == "illegal" and ask.card == "5S"
    players._answer(lambda zone, slot: "5S")
    assert session.protocol.ask is None


def test_an_answer_the_device_refuses_is_not_given_for_ever(tmp_path: Path) -> None:
    """The players name the card that truly lies there, and the device refuses it (the game's
    record went wrong earlier): they do not say it again on every frame, they let the device
    have its way and the game goes on."""
    session, players = _dealt(tmp_path)
    session.table_events([TableEvent("seat1", "KH", "placed", 0.0, 0.99, 0)])
    session.table_events([TableEvent("seat0", "QH", "placed", 1.0, 0.5, 0)])  # unsure: asked
    ask = session.protocol.ask
    assert ask is not None and ask.kind == "confirm" and ask.card == "QH"
    players._answer(lambda zone, slot: "KH")  # already played this deal: refused
    assert session.protocol.ask is not None
    players._answer(lambda zone, slot: "KH")
    assert session.protocol.ask is None and session.entries[-1].action["card"] == "QH"
