"""How many live boards (event streams) the server keeps open, in all and per phone address.

waitress gives every open response a worker thread, so each stream holds one for as long as the
phone watches. The server is therefore started with more threads than :data:`STREAMS_MAX`
(see :func:`threads_for`), and a stream over either cap is refused with 503 at once: requests
for pages and changes always find a free thread.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

STREAMS_MAX = 120  # open streams in all: phones at a table, with room for reloads and tabs
STREAMS_PER_ADDRESS = 6  # open streams from one address (a phone with a few tabs)
SPARE_THREADS = 16  # threads that streams can never take: they answer every other request


def threads_for(streams_max: int, asked: int = 0) -> int:
    """waitress threads for a server that allows ``streams_max`` streams (at least ``asked``)."""
    return max(asked, streams_max + SPARE_THREADS)


class StreamSlots:
    """Counts open streams; :meth:`take` gives a release callable, or None when a cap is reached."""

    def __init__(self, total: int = STREAMS_MAX, per_address: int = STREAMS_PER_ADDRESS) -> None:
        self.total = total
        self.per_address = per_address
        self._lock = threading.Lock()
        self._open: dict[str, int] = {}
        self.count = 0

    def take(self, address: str) -> Callable[[], None] | None:
        with self._lock:
            if self.count >= self.total or self._open.get(address, 0) >= self.per_address:
                return None
            self.count += 1
            self._open[address] = self._open.get(address, 0) + 1
        released = threading.Event()

        def release() -> None:
            if released.is_set():
                return
            released.set()
            with self._lock:
                self.count -= 1
                left = self._open.get(address, 1) - 1
                if left > 0:
                    self._open[address] = left
                else:
                    self._open.pop(address, None)

        return release
