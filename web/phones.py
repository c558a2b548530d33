"""Who may change the game: pairing codes, seats, cross-site request forgery, wrong-code limits.

Anyone on the table's network may watch. A phone that enters the pairing code shown on the
device gets a paired session (a signed cookie holding a digest of that code: when the device
shows a new code, every phone must pair again). A paired phone may take one seat, and then
sees that seat's own cards; a seat belongs to one phone at a time. Every request that changes
anything carries the session's CSRF token in a header, which another site cannot read.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import current_app, request, session

from games.errors import PegpiError
from games.jsontypes import JSONObject


class WebError(PegpiError):
    """A request the page refuses, with the HTTP status and a message for a person."""

    def __init__(self, status: int, message: str, *, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after = retry_after


class WrongCodes:
    """Counts wrong pairing codes per address (and in all) over a sliding window.

    An address waits once it has missed ``per_address`` times in the window. Past ``overall``
    misses from everybody, each address gets one try a window: a crowd of guessers slows to a
    crawl, yet a phone that has not guessed may still enter the right code."""

    def __init__(self, per_address: int, overall: int, window: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.per_address = per_address
        self.overall = overall
        self.window = window
        self.clock = clock
        self._lock = threading.Lock()
        self._misses: dict[str, deque[float]] = {}
        self._all: deque[float] = deque()

    def _trim(self, times: deque[float], now: float) -> None:
        while times and times[0] <= now - self.window:
            times.popleft()

    def wait(self, address: str) -> int:
        """Seconds ``address`` must wait before its next try (0: it may try now)."""
        now = self.clock()
        with self._lock:
            mine = self._misses.get(address, deque())
            self._trim(mine, now)
            self._trim(self._all, now)
            waits = []
            if len(mine) >= self.per_address:
                waits.append(mine[0] + self.window - now)
            if len(self._all) >= self.overall and mine:
                waits.append(mine[-1] + self.window - now)
            return max(1, int(max(waits)) + 1) if waits else 0

    def miss(self, address: str) -> None:
        now = self.clock()
        with self._lock:
            self._misses.setdefault(address, deque()).append(now)
            self._all.append(now)
            if len(self._misses) > 1000:  # forget quiet addresses
                for key in [k for k, v in self._misses.items() if not v or v[-1] <= now - self.window]:
                    del self._misses[key]


class Seats:
    """Which phone holds which seat (at most one phone a seat)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._holder: dict[int, str] = {}
        self.table = secrets.token_hex(4)  # changes with every new game: seats are chosen again

    def take(self, seat: int, phone: str) -> bool:
        with self._lock:
            holder = self._holder.get(seat)
            if holder not in (None, phone):
                return False
            for s in [s for s, p in self._holder.items() if p == phone]:
                del self._holder[s]
            self._holder[seat] = phone
            return True

    def release(self, phone: str) -> None:
        with self._lock:
            for s in [s for s, p in self._holder.items() if p == phone]:
                del self._holder[s]

    def holds(self, seat: int, phone: str) -> bool:
        """Does ``phone`` hold ``seat``? A seat nobody holds (after a restart) goes back to it."""
        with self._lock:
            return self._holder.setdefault(seat, phone) == phone

    def clear(self) -> None:
        with self._lock:
            self._holder.clear()
            self.table = secrets.token_hex(4)


# -- the session cookie ------------------------------------------------------------------------


def _digest(code: str) -> str:
    key = current_app.secret_key
    assert key is not None
    raw = key.encode() if isinstance(key, str) else key
    return hmac.new(raw, f"pair:{code}".encode(), hashlib.sha256).hexdigest()


def phone_id() -> str:
    if "phone" not in session:
        session["phone"] = secrets.token_urlsafe(12)
    return str(session["phone"])


def csrf_token() -> str:
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(24)
    return str(session["csrf"])


def is_paired() -> bool:
    pair = session.get("pair")
    code = current_app.extensions["pegpi"].service.pairing_code
    return isinstance(pair, str) and hmac.compare_digest(pair, _digest(code))


def pair_this_phone() -> None:
    code = current_app.extensions["pegpi"].service.pairing_code
    session["pair"] = _digest(code)
    phone_id()


def unpair_this_phone() -> None:
    current_app.extensions["pegpi"].seats.release(phone_id())
    session.pop("pair", None)
    session.pop("seat", None)


def my_seat() -> int | None:
    """The seat whose cards this phone may see, or None: a spectator."""
    seats = current_app.extensions["pegpi"].seats
    kept = session.get("seat")
    if not isinstance(kept, list) or len(kept) != 2 or not is_paired():
        return None
    table, seat = kept
    if table != seats.table or not isinstance(seat, int) or not seats.holds(seat, phone_id()):
        session.pop("seat", None)
        return None
    return seat


def seat_guard(seat: int | None) -> Callable[[], bool]:
    """For a stream that outlives its request: does this phone still hold ``seat``? False once the
    device shows a new pairing code, the phone lets the seat go or a new game frees the seats."""
    if seat is None:
        return lambda: True
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    pair, phone = session.get("pair"), phone_id()
    pegpi = app.extensions["pegpi"]
    table = pegpi.seats.table

    def still() -> bool:
        with app.app_context():
            paired = isinstance(pair, str) and hmac.compare_digest(pair, _digest(pegpi.service.pairing_code))
        return paired and pegpi.seats.table == table and pegpi.seats.holds(seat, phone)

    return still


def keep_seat(seat: int) -> None:
    session["seat"] = [current_app.extensions["pegpi"].seats.table, seat]


def check_code(given: Any) -> None:
    """Pair this phone when ``given`` is the device's code; count and limit wrong ones."""
    pegpi = current_app.extensions["pegpi"]
    address = request.remote_addr or "?"
    wait = pegpi.wrong_codes.wait(address)
    if wait:
        raise WebError(429, f"Too many wrong codes: wait {wait} seconds and try again.", retry_after=wait)
    if not isinstance(given, str | int) or isinstance(given, bool):
        raise WebError(400, "Enter the pairing code shown on the device.")
    code = str(given).strip()
    if not code:
        raise WebError(400, "Enter the pairing code shown on the device.")
    if not hmac.compare_digest(code.upper().encode(), str(pegpi.service.pairing_code).upper().encode()):
        pegpi.wrong_codes.miss(address)
        raise WebError(403, "That is not the code on the device. Check the screen and try again.")
    pair_this_phone()


def changes_game(view: Callable[..., Any]) -> Callable[..., Any]:
    """For views that change anything: the phone must be paired and send its CSRF token."""

    @wraps(view)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        check_csrf()
        if not is_paired():
            raise WebError(403, "Pair this phone first: enter the code shown on the device.")
        return view(*args, **kwargs)

    return guarded


def check_csrf() -> None:
    sent = request.headers.get("X-CSRF-Token", "")
    token = session.get("csrf")
    if not isinstance(token, str) or not hmac.compare_digest(sent.encode(), token.encode()):
        raise WebError(403, "This page is out of date: reload it and try again.")


def json_body() -> JSONObject:
    """The request's JSON object, or a 400 a person can read."""
    if not request.is_json:
        raise WebError(415, "Send the request as JSON (Content-Type: application/json).")
    try:
        data = request.get_json(silent=True)
    except RecursionError:  # the parser's own limit on nesting
        raise WebError(400, "The request's JSON is nested too deeply.") from None
    if not isinstance(data, dict):
        raise WebError(400, "The request must be a JSON object.")
    return data
