"""Serving the phone page with waitress.

Each phone that watches holds one Server-Sent Events response open, and waitress gives every
open response a thread of its own. The app caps the open streams (web.limits), and the server
is always given more threads than that cap, so that the page and its changes never wait behind
the streams. Threads that wait cost little memory. ``channel_request_lookahead`` lets waitress
notice a phone that hung up while its stream is quiet (the stream then ends within seconds).
"""

from __future__ import annotations

from typing import Any

from web.limits import STREAMS_MAX, threads_for


def _options(app: Any, threads: int, options: dict[str, Any]) -> dict[str, Any]:
    streams = int(getattr(app, "config", {}).get("STREAMS_MAX", STREAMS_MAX))
    threads = threads_for(streams, threads)
    options.setdefault("channel_timeout", 60)
    options.setdefault("channel_request_lookahead", 1)
    options.setdefault("connection_limit", max(100, 2 * threads))
    return {"threads": threads, "ident": "pegpi", **options}


def serve(app: Any, host: str = "0.0.0.0", port: int = 8080, threads: int = 0, **options: Any) -> None:
    """Serve ``app`` until interrupted (blocks). ``options`` go to waitress as they are."""
    from waitress import serve as waitress_serve

    waitress_serve(app, host=host, port=port, **_options(app, threads, options))


def make_server(app: Any, host: str = "127.0.0.1", port: int = 0, threads: int = 0, **options: Any) -> Any:
    """A waitress server that is not yet running: call ``.run()`` (in a thread) and ``.close()``.
    Port 0 picks a free port (read it from ``.effective_port``). For tests and the bench.
    ``threads`` is raised to what the app's stream cap needs."""
    from waitress.server import create_server

    return create_server(app, host=host, port=port, **_options(app, threads, options))


class Background:
    """The app served by waitress in a thread, for tests and the bench::

        with Background(app) as running:
            urllib.request.urlopen(running.url)

    Stopping ends the phones' event streams first, then lets waitress's threads finish, so that
    nothing writes to a server that is already closed."""

    def __init__(self, app: Any, host: str = "127.0.0.1", port: int = 0, threads: int = 0) -> None:
        import threading

        self.app = app
        self.server = make_server(app, host=host, port=port, threads=threads)
        self.thread = threading.Thread(target=self.server.run, name="pegpi-web", daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.effective_port}/"

    def __enter__(self) -> Background:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        stop(self.app, self.server)
        self.thread.join(timeout=5)


def stop(app: Any, server: Any, timeout: float = 5.0) -> None:
    """Stop a server made by :func:`make_server` cleanly: end the phones' event streams, let
    waitress's threads finish their responses, then close the sockets (closing first would leave
    threads writing to a closed server). The thread running ``server.run()`` then returns."""
    import threading
    import time

    from waitress import wasyncore

    pegpi = app.extensions.get("pegpi")
    if pegpi is not None:
        pegpi.hub.close()
        deadline = time.monotonic() + timeout
        while pegpi.hub.listeners and time.monotonic() < deadline:
            time.sleep(0.02)
    server.task_dispatcher.shutdown(timeout=timeout)
    closed = threading.Event()

    def close() -> None:
        server.close()
        wasyncore.close_all(server._map)
        closed.set()

    # closed from inside the loop's own thread (waitress runs a trigger's thunks there): closed
    # from here, the loop's select would meet sockets closed under it
    try:
        server.trigger.pull_trigger(close)
    except OSError:  # the trigger's pipe is closed already (the loop ended): nothing is selecting
        close()
        return
    if not closed.wait(min(timeout, 2.0)):  # the loop is not running: nothing is selecting
        close()
