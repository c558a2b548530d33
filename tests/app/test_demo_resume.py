"""The demo resumes after a power cut like any other game (issue 39, item 12): a restart on the
same store goes on with the same game from the script step it got to, and ends as the script does;
the camera-frame demo's simulated camera starts from the mat as it lay at that step."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

from device.config import load_config
from device.demo import demo_record
from device.protocols.script import play_script, record_to_script
from device.session import Session
from device.store import Store
from games.records import replay
from pegpi.companion import Companion, Options


def demo(db: Path, *, speed: float) -> Companion:
    config = load_config(system=None, overrides={"demo": {"seed": 3}})
    return Companion(config, Options(source="demo", db=str(db), web=None, display="none", speed=speed,
                                     seed=3, frames=False, quit_at_end=True))


def test_the_demo_goes_on_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    first = demo(db, speed=50.0)
    first.start()
    server = threading.Thread(target=first.serve)
    server.start()
    try:
        deadline = time.monotonic() + 60
        while len(first.session.entries) < 30 and time.monotonic() < deadline and server.is_alive():
            time.sleep(0.01)
    finally:
        first.stop()  # the power cut, mid-game
        server.join(10)
        first.close()
    assert first.error is None
    game_id, before = first.session.game_id, list(first.session.entries)
    assert 30 <= len(before) and not first.session.state.is_over

    second = demo(db, speed=0.0)
    second.start()  # its table loop runs at once: it may have recorded more by the next line
    try:
        assert second.session.game_id == game_id
        assert second.session.entries[:len(before)] == before  # picked up where it stopped
        assert second.serve() == 0
    finally:
        second.close()
    assert second.error is None
    assert second.expected is not None
    state = second.session.state
    assert state.is_over
    assert second.session.game_id == game_id
    assert state.scores == replay(second.expected).state.scores  # the script's final scores


def _rows(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as con:
            return int(con.execute("SELECT COUNT(*) FROM actions").fetchone()[0])
    except sqlite3.OperationalError:  # killed before the schema was written
        return 0


def _run_until(db: Path, config: Path, rows: int) -> int:
    """The camera-frame demo as a real process, killed (SIGKILL, a power cut) once the store holds
    ``rows`` rows; the rows it held then."""
    cmd = [sys.executable, "-m", "pegpi", "demo", "--speed", "0", "--no-web", "--display", "none",
           "--db", str(db), "--config", str(config)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 240
        while _rows(db) < rows and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert proc.poll() is None, proc.communicate()[1].decode()[-2000:]
        assert _rows(db) >= rows, "the demo did not get that far"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    return _rows(db)


def test_the_camera_frame_demo_goes_on_after_a_power_cut(tmp_path: Path) -> None:
    # the demo's camera, at 10 frames a second to be quick (the tracker works at that rate too)
    config = tmp_path / "demo.toml"
    config.write_text("[camera]\nfps = 10\n\n[demo]\nseed = 3\n")
    db = tmp_path / "t.db"
    # what the table records for the demo's game when nothing goes wrong
    record = demo_record("cribbage", 3, ["Ann", "Bob"])
    with Store(tmp_path / "truth.db") as store:
        truth = Session(store, players=record["players"])
        play_script(truth, record_to_script(record))
        played = [e.action for e in truth.entries]

    first = _run_until(db, config, 10)  # the cut, the deal, the crib, the starter and some play
    with Store(db) as store:
        game = store.current()
        assert game is not None
        games = len(store.games())
        before = store.export(game.id)["actions"]
        assert store.last_input(game.id, "script:") is not None  # it knows the step the camera got to
    assert len(before) == first and before == played[:first]

    _run_until(db, config, first + 6)  # restarted on the same store: the same game plays on
    with Store(db) as store:
        assert len(store.games()) == games  # the restart resumed the demo's game, never began another
        current = store.current()
        assert current is not None and current.id == game.id
        rows = store.rows(current.id)
        after = store.export(current.id)["actions"]
    assert [r.kind for r in rows] == ["action"] * len(rows)  # nothing undone, nothing doubled
    assert len(after) >= first + 6
    assert after == played[:len(after)]  # nothing lost, nothing twice, the same game as the script
