"""One subscription to the table, shared by every phone that watches it (Server-Sent Events).

A background thread reads :meth:`TableService.subscribe` and bumps a version number; each SSE
response waits on a condition for a newer version and then sends *its own* seat's view, fetched
once per version and seat and shared by every phone with that seat. A slow phone therefore never
queues up stale boards: it skips straight to the newest one. With nothing new for a while a
phone gets a comment line, which keeps proxies and waitress's idle timeout from closing it and
finds phones that have gone away.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Iterator

from device.service import TableService, Update
from games.jsontypes import JSONObject

log = logging.getLogger(__name__)

GONE_POLL = 1.0  # seconds between checks that a quiet stream's phone is still connected


def sse(event: str, data: JSONObject, *, ident: int | None = None) -> str:
    """One Server-Sent Event; ``data`` is sent as JSON on one line."""
    head = f"id: {ident}\n" if ident is not None else ""
    return f"{head}event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


class Hub:
    def __init__(self, service: TableService, *, keepalive: float = 15.0, retry_ms: int = 1500) -> None:
        self.service = service
        self.keepalive = keepalive
        self.retry_ms = retry_ms
        self._changed = threading.Condition()
        self._version = 0
        self._cache: dict[int | None, str] = {}
        self._notice: tuple[int, str] | None = None  # the newest message and the version it came with
        self._reader: threading.Thread | None = None
        self._closed = False
        self.listeners = 0

    # -- the one subscription -----------------------------------------------------------------

    def _ensure_reader(self) -> None:
        with self._changed:
            if self._reader is not None and self._reader.is_alive():
                return
            # subscribed here, before the phone is sent its first board: no change falls between
            updates = self.service.subscribe()
            self._reader = threading.Thread(target=self._read, args=(updates,), name="pegpi-web-hub",
                                            daemon=True)
            self._reader.start()

    def _read(self, updates: Iterator[Update]) -> None:
        try:
            next(updates, None)  # the view at subscribing: no change, and phones read their own
            for update in updates:
                if update.kind != "view" and update.message is None:
                    continue  # "action", "score", "ping"...: a "view" follows every change
                with self._changed:
                    self._version += 1
                    self._cache.clear()
                    # Only a plain text message travels beyond the view: an update might carry
                    # a seat's cards, and each phone must get its own seat's view only.
                    if update.kind != "view" and update.message is not None:
                        self._notice = (self._version, update.message)
                    self._changed.notify_all()
                if self._closed:
                    return
        except Exception:  # the table went away: phones keep their last board and reconnect
            log.exception("the table's update stream failed")

    def close(self) -> None:
        with self._changed:
            self._closed = True
            self._changed.notify_all()

    # -- per phone ----------------------------------------------------------------------------

    def _view_json(self, seat: int | None, version: int) -> str:
        cached = self._cache.get(seat)
        if cached is None:
            cached = json.dumps(self.service.view(seat).to_json(), separators=(",", ":"))
            with self._changed:
                if self._version == version:
                    self._cache[seat] = cached
        return cached

    def _newer_than(self, version: int) -> Callable[[], bool]:
        return lambda: self._version != version or self._closed

    def listen(self, seat: int | None, allowed: Callable[[], bool] = lambda: True,
               gone: Callable[[], bool] = lambda: False) -> Iterator[str]:
        """The SSE text for one phone: its view now, then after every change of the table. The
        stream ends (the page reconnects, as a spectator if need be) once ``allowed()`` is false:
        the phone no longer holds the seat whose cards it was being sent. It ends too once
        ``gone()`` says the phone hung up, checked every :data:`GONE_POLL` seconds, so that a
        dead stream gives its thread back within seconds."""
        self._ensure_reader()
        with self._changed:
            self.listeners += 1
            seen = self._version
        try:
            yield f"retry: {self.retry_ms}\n\n"
            sent = self._view_json(seat, seen)
            yield f"id: {seen}\nevent: view\ndata: {sent}\n\n"
            while not self._closed:
                fresh, quiet_until, notice = False, time.monotonic() + self.keepalive, None
                while not fresh and not self._closed and not gone():
                    left = quiet_until - time.monotonic()
                    if left <= 0:
                        break
                    with self._changed:
                        last = seen
                        fresh = self._changed.wait_for(self._newer_than(last), timeout=min(left, GONE_POLL))
                        seen = self._version
                        notice = self._notice[1] if self._notice is not None and self._notice[0] > last else None
                if self._closed or gone():
                    return
                if not fresh:
                    yield ": still here\n\n"
                    continue
                if seat is not None and not allowed():
                    return
                if notice:
                    yield sse("notice", {"message": notice}, ident=seen)
                view = self._view_json(seat, seen)
                if view == sent:  # the same board again (an update that changed nothing here)
                    continue
                sent = view
                yield f"id: {seen}\nevent: view\ndata: {view}\n\n"
        finally:
            with self._changed:
                self.listeners -= 1
