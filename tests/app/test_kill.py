"""Pull the plug: the companion runs a simulated game as a real process and is killed (SIGKILL)
at random moments; each time it is restarted on the same store. Its final game must be exactly
the one an uninterrupted run records: nothing committed is lost, nothing is applied twice."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from device.store import Store
from games.cribbage.autoplay import autoplay
from games.records import replay

KILLS = 12


def _rows(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as con:
            return int(con.execute("SELECT COUNT(*) FROM actions").fetchone()[0])
    except sqlite3.OperationalError:  # killed before the schema was written
        return 0


def _start(record: Path, db: Path, notify: socket.socket) -> subprocess.Popen[bytes]:
    env = {**os.environ, "NOTIFY_SOCKET": notify.getsockname()}
    env.pop("WATCHDOG_USEC", None)
    cmd = [sys.executable, "-m", "pegpi", "run", "--source", f"script:{record}", "--db", str(db),
           "--no-web", "--display", "none", "--quit-at-end", "--config", os.devnull]
    return subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _wait_ready(notify: socket.socket, proc: subprocess.Popen[bytes]) -> bool:
    notify.settimeout(0.2)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if b"READY=1" in notify.recv(4096):
                return True
        except TimeoutError:
            if proc.poll() is not None:
                return False
    raise AssertionError("the companion never became ready")


def _export(db: Path) -> dict:
    with Store(db) as store:
        current = store.current()
        assert current is not None
        return store.export(current.id)


@pytest.fixture
def notify(tmp_path: Path):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(tmp_path / "notify"))
    yield sock
    sock.close()


@pytest.mark.parametrize("seed", [3])
def test_sigkill_at_random_moments_loses_nothing_and_doubles_nothing(tmp_path: Path, notify: socket.socket,
                                                                    seed: int) -> None:
    record = autoplay("cribbage", seed=seed, known_hands=False)
    record_file = tmp_path / "game.json"
    record_file.write_text(json.dumps(record))

    # the uninterrupted run
    calm = tmp_path / "calm.db"
    proc = _start(record_file, calm, notify)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err.decode()
    expected = _export(calm)
    want = replay(record).state
    assert replay(expected).state.scores == want.scores  # the table scored the game that was played

    # the same game, killed again and again
    rng = random.Random(seed)
    db = tmp_path / "killed.db"
    kills = 0
    moments: list[int] = []
    finished = False
    total = len(expected["actions"])
    while not finished:
        proc = _start(record_file, db, notify)
        if kills < KILLS:
            if kills % 4 == 3:  # now and then, while it is still starting (opening the store, replaying)
                time.sleep(rng.uniform(0.0, 0.6))
            elif _wait_ready(notify, proc):
                # then at a random point of the game: once the store holds a random number of rows
                target = min(total, _rows(db) + rng.randint(1, max(2, 2 * total // KILLS)))
                deadline = time.monotonic() + 30
                while _rows(db) < target and proc.poll() is None and time.monotonic() < deadline:
                    time.sleep(0.002)
            before = _rows(db)  # committed rows another reader can see
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=30)
            after = _rows(db)
            assert after >= before, f"kill {kills}: {before - after} committed rows lost"
            if proc.returncode == -signal.SIGKILL:
                kills += 1
                moments.append(after)
                continue
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err.decode()
        finished = True

    got = _export(db)
    assert kills >= KILLS // 2, f"only {kills} kills landed before the game ended"
    mid_game = {n for n in moments if 0 < n < total}
    assert len(mid_game) >= KILLS // 3, f"the kills did not land mid-game: rows at each kill {moments}"
    assert got["actions"] == expected["actions"]
    assert replay(got).state.scores == want.scores
    with Store(db) as store:
        assert len(store.games()) == 1  # restarts resumed the game, never began another
        rows = store.rows(store.current().id)  # type: ignore[union-attr]
    assert [r.kind for r in rows] == ["action"] * len(rows)
    assert len(rows) == len(expected["actions"])
