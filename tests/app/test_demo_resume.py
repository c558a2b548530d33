"""The demo resumes after a power cut like any other game (issue 39, item 12): a restart on the
same store goes on with the same game from the script step it got to, and ends as the script does."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from device.config import load_config
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
    game_id, played = first.session.game_id, len(first.session.entries)
    assert 30 <= played and not first.session.state.is_over

    second = demo(db, speed=0.0)
    second.start()
    try:
        assert second.session.game_id == game_id
        assert len(second.session.entries) == played  # picked up where it stopped, nothing replayed
        assert second.serve() == 0
    finally:
        second.close()
    assert second.error is None
    assert second.expected is not None
    state = second.session.state
    assert state.is_over
    assert second.session.game_id == game_id
    assert state.scores == replay(second.expected).state.scores  # the script's final scores
