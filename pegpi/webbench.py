"""`pegpi bench web`: many phones watching one table over Server-Sent Events, on loopback.

The server (waitress, the app, a replayed game) runs in this process; the phones are threads of
a second process, so that the memory measured is the server's own. For each update the bench
notes the time, steps the replay, and waits until every phone has the new board: the delivery
latency is the time from just before the table's Session is asked to apply an action (which
includes recording it, synced, in its SQLite event store on disk, as on the device) to a phone
having parsed the new view. Both processes read CLOCK_MONOTONIC, which is one clock for the
whole machine on Linux.
"""

from __future__ import annotations

import http.client
import json
import multiprocessing
import statistics
import threading
import time
from typing import Any


def _rss_mb() -> float:
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _phone(port: int, number: int, heard: Any, stop: threading.Event) -> None:
    """One phone: read the stream and report (phone, actions, monotonic ns) for every view."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("GET", "/api/stream", headers={"Accept": "text/event-stream"})
    response = connection.getresponse()
    event = ""
    while not stop.is_set():
        line = response.readline()
        if not line:
            break
        text = line.decode().rstrip("\n")
        if text.startswith("event: "):
            event = text[7:]
        elif text.startswith("data: ") and event == "view":
            view = json.loads(text[6:])
            heard.put((number, view["actions"], time.monotonic_ns()))
    connection.close()


def phones_main(port: int, count: int, heard: Any, done: Any) -> None:
    """The phones' process: ``count`` threads, each one phone, until ``done`` is set."""
    stop = threading.Event()
    threads = [threading.Thread(target=_phone, args=(port, n, heard, stop), daemon=True) for n in range(count)]
    for thread in threads:
        thread.start()
    done.wait()
    stop.set()


def run(clients: int = 20, updates: int = 60, timeout: float = 30.0) -> dict[str, Any]:
    import tempfile

    from device.replay import replayed_table
    from games.cribbage.autoplay import autoplay
    from web import create_app
    from web.serve import Background

    record = autoplay("cribbage", ["Ann", "Bob"], seed=7, known_hands=False)
    updates = min(updates, len(record["actions"]))
    folder = tempfile.TemporaryDirectory(prefix="pegpi-bench-web-")
    table = replayed_table(record, store=f"{folder.name}/bench.db")
    app = create_app({"SSE_KEEPALIVE": 15.0, "STREAMS_PER_ADDRESS": clients}, service=table)
    rss_before = _rss_mb()
    running = Background(app, threads=clients + 8).__enter__()
    spawn = multiprocessing.get_context("spawn")
    heard = spawn.Queue()
    done = spawn.Event()
    phones = spawn.Process(target=phones_main, args=(running.server.effective_port, clients, heard, done), daemon=True)
    phones.start()
    latencies: list[float] = []
    try:
        _await_all(heard, clients, 0, timeout)  # every phone has the first board
        rss_connected = _rss_mb()
        for expected in range(1, updates + 1):
            started = time.monotonic_ns()
            table.step()
            for arrived in _await_all(heard, clients, expected, timeout):
                latencies.append((arrived - started) / 1e6)
        rss_after = _rss_mb()
    finally:
        done.set()
        running.stop()
        phones.join(timeout=10)
        if phones.is_alive():
            phones.terminate()
        table.close()
        folder.cleanup()
    latencies.sort()
    return {
        "store": "sqlite on disk, synced",
        "clients": clients,
        "updates": updates,
        "deliveries": len(latencies),
        "latency_ms": {
            "median": round(statistics.median(latencies), 2),
            "p95": round(latencies[int(0.95 * (len(latencies) - 1))], 2),
            "max": round(latencies[-1], 2),
        },
        "server_rss_mb": {
            "before_clients": round(rss_before, 1),
            "clients_connected": round(rss_connected, 1),
            "after_updates": round(rss_after, 1),
        },
    }


def _await_all(heard: Any, clients: int, actions: int, timeout: float) -> list[int]:
    """Wait until every phone has reported the view with ``actions`` actions; their arrival times."""
    import queue

    arrivals: dict[int, int] = {}
    deadline = time.monotonic() + timeout
    while len(arrivals) < clients:
        left = deadline - time.monotonic()
        try:
            phone, count, at = heard.get(timeout=max(left, 0.001))
        except queue.Empty:
            raise TimeoutError(f"only {len(arrivals)} of {clients} phones got update {actions}") from None
        if count == actions:
            arrivals[phone] = at
    return list(arrivals.values())
