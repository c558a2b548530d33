"""The server never starves: many open event streams over real sockets against the real waitress
server, a cap per client address, dead streams noticed within seconds; pairing limits per
address that a crowd of wrong codes cannot turn against a right one; deeply nested JSON."""

from __future__ import annotations

import socket
import time
import urllib.request
from typing import Any

import pytest

from device.replay import ReplaySession
from web import create_app
from web.phones import WrongCodes
from web.serve import Background

CODE = "2468"  # as conftest.py


def open_stream(port: int, source: str) -> socket.socket:
    """A phone's EventSource: a raw socket from ``source`` (any 127.x.y.z) that asks for the stream."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    sock.sendall(b"GET /api/stream HTTP/1.1\r\nHost: table\r\nAccept: text/event-stream\r\n\r\n")
    return sock


def first_reply(sock: socket.socket) -> bytes:
    """What the server sent first: the status line, and for a stream its first board."""
    got = b""
    while b"event: view" not in got and not (got.startswith(b"HTTP/1.1 5") and b"\r\n\r\n" in got):
        chunk = sock.recv(65536)
        if not chunk:
            break
        got += chunk
    return got


def page_answers(url: str) -> float:
    """Seconds /api/view took to answer (the test fails on a timeout)."""
    start = time.monotonic()
    with urllib.request.urlopen(url + "api/view", timeout=10) as reply:
        assert reply.status == 200
    return time.monotonic() - start


@pytest.fixture
def served(record_of: Any) -> Any:
    service = ReplaySession(record_of(), pairing_code=CODE, played=27)
    # the keepalive is slow on purpose: a dead stream must be found without writing to it
    app = create_app({"SECRET_KEY": "test only", "SSE_KEEPALIVE": 30.0}, service=service)
    with Background(app) as running:
        yield app, running
    service.close()


def test_a_hundred_open_streams_leave_the_page_answering(served: Any) -> None:
    app, running = served
    port = running.server.effective_port
    socks = []
    try:
        for n in range(110):  # 110 phones, two streams from each of 55 addresses
            socks.append(open_stream(port, f"127.0.1.{n // 2 + 1}"))
        for sock in socks:
            assert b" 200 " in first_reply(sock).split(b"\r\n", 1)[0]
        assert app.extensions["pegpi"].hub.listeners == 110
        assert page_answers(running.url) < 5.0
    finally:
        for sock in socks:
            sock.close()
    # every dead stream is noticed within seconds, though none was written to since
    deadline = time.monotonic() + 8
    while app.extensions["pegpi"].hub.listeners and time.monotonic() < deadline:
        time.sleep(0.1)
    assert app.extensions["pegpi"].hub.listeners == 0
    assert page_answers(running.url) < 5.0


def test_one_address_cannot_take_every_stream(served: Any) -> None:
    app, running = served
    port = running.server.effective_port
    cap = app.config["STREAMS_PER_ADDRESS"]
    socks = [open_stream(port, "127.0.2.1") for _ in range(cap)]
    try:
        for sock in socks:
            assert b" 200 " in first_reply(sock).split(b"\r\n", 1)[0]
        over = open_stream(port, "127.0.2.1")
        socks.append(over)
        reply = first_reply(over)
        assert reply.startswith(b"HTTP/1.1 503") and b"Retry-After" in reply
        other = open_stream(port, "127.0.2.2")  # another phone still gets its stream
        socks.append(other)
        assert b" 200 " in first_reply(other).split(b"\r\n", 1)[0]
        assert page_answers(running.url) < 5.0
    finally:
        for sock in socks:
            sock.close()


def test_the_server_has_threads_for_every_stream_it_allows(served: Any) -> None:
    app, running = served
    assert running.server.adj.threads > app.config["STREAMS_MAX"] + 8


# -- pairing -------------------------------------------------------------------------------------


def test_wrong_codes_from_many_addresses_cannot_lock_out_a_right_one() -> None:
    now = [0.0]
    codes = WrongCodes(per_address=5, overall=30, window=60.0, clock=lambda: now[0])
    for n in range(40):  # a crowd of addresses, each under its own limit
        for _ in range(4):
            if not codes.wait(f"10.0.0.{n}"):
                codes.miss(f"10.0.0.{n}")
    assert codes.wait("10.0.0.200") == 0  # a phone that has not guessed may still try its code
    assert codes.wait("10.0.0.3") > 0  # a guesser waits out the window
    codes.miss("10.0.0.200")
    assert codes.wait("10.0.0.200") > 0  # over the ceiling an address gets one try a window
    now[0] += 61
    assert codes.wait("10.0.0.3") == 0


def test_one_address_waits_after_its_own_wrong_codes() -> None:
    codes = WrongCodes(per_address=5, overall=30, window=60.0, clock=lambda: 0.0)
    for _ in range(5):
        codes.miss("10.0.0.1")
    assert codes.wait("10.0.0.1") > 0
    assert codes.wait("10.0.0.2") == 0


def test_a_right_code_pairs_while_others_are_guessing(new_phone: Any) -> None:
    service = ReplaySession(pairing_code=CODE)
    app = create_app({"TESTING": True, "SECRET_KEY": "test only"}, service=service)
    for n in range(40):
        guesser = new_phone(app)
        for _ in range(3):
            guesser.post("/api/pair", {"code": "0000"}, environ_base={"REMOTE_ADDR": f"10.1.0.{n}"})
    player = new_phone(app)
    reply = player.post("/api/pair", {"code": CODE}, environ_base={"REMOTE_ADDR": "10.1.1.1"})
    assert reply.status_code == 200, reply.get_json()


def test_the_device_can_show_a_new_code(new_phone: Any) -> None:
    service = ReplaySession(pairing_code=CODE)
    app = create_app({"TESTING": True, "SECRET_KEY": "test only"}, service=service)
    phone = new_phone(app)
    assert phone.pair().status_code == 200
    fresh = service.new_pairing_code()
    assert fresh != CODE and service.pairing_code == fresh
    assert phone.get("/api/me").get_json()["paired"] is False  # phones pair again
    assert phone.pair(code=CODE).status_code == 403
    assert phone.pair(code=fresh).status_code == 200


def test_the_session_rotates_and_keeps_its_code() -> None:
    from device.session import Session
    from device.store import Store

    store = Store(":memory:")
    session = Session(store)
    old = session.pairing_code
    fresh = session.new_pairing_code()
    assert fresh != old and session.pairing_code == fresh
    assert store.meta("pairing_code") == fresh


# -- bad JSON ------------------------------------------------------------------------------------


@pytest.mark.parametrize("route", ["/api/pair", "/api/seat", "/api/new", "/api/action", "/api/correct", "/api/resolve"])
def test_deeply_nested_json_is_a_bad_request(paired: Any, route: str) -> None:
    body = "[" * 1000 + "]" * 1000
    reply = paired.post(route, data=body, headers={"Content-Type": "application/json"})
    assert reply.status_code == 400
    assert "nested" in reply.get_json()["error"]


def test_a_server_whose_loop_closed_its_wakeup_pipe_still_stops(record_of: Any) -> None:
    """Stopping wakes waitress's loop through its trigger pipe; once the loop has closed that
    pipe (it ended, or dropped the pipe on an error) stopping closes the sockets itself instead
    of failing on a closed file (seen once in CI, after a hundred streams)."""
    service = ReplaySession(record_of(), pairing_code=CODE, played=27)
    running = Background(create_app({"SECRET_KEY": "test only"}, service=service)).__enter__()
    port = running.server.effective_port
    assert page_answers(running.url) < 5.0
    running.server.trigger.close()
    running.stop()
    service.close()
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
