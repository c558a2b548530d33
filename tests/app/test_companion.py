"""The companion as a whole: systemd notifications and the watchdog, a camera that dies and comes
back mid-game, black and corrupt frames, the web page on the same session, the demo default."""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from device.config import load_config
from device.demo import sim_steps
from device.protocols.script import play_script, record_to_script
from device.runtime import TableLoop, sd_notify, watchdog_interval
from device.session import Session
from device.store import Store
from games.cribbage.autoplay import autoplay
from pegpi.companion import Companion, Options, resolve_source
from vision.errors import LayoutError, SourceError
from vision.sources import Frame

RECORD = autoplay("cribbage", seed=4, known_hands=False)


@pytest.fixture
def notify(tmp_path: Path):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(tmp_path / "notify"))
    sock.settimeout(0.05)
    yield sock
    sock.close()


def _drain(sock: socket.socket, seconds: float) -> list[str]:
    got, end = [], time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            got.append(sock.recv(4096).decode())
        except TimeoutError:
            pass
    return got


def _config(**table: Any) -> dict[str, Any]:
    return load_config(system=None, overrides={"table": {"players": RECORD["players"], **table},
                                               "watchdog": {"interval": 0.1}})


def test_sd_notify_speaks_the_datagram_protocol(notify: socket.socket) -> None:
    assert sd_notify("READY=1", env={"NOTIFY_SOCKET": notify.getsockname()})
    assert notify.recv(100) == b"READY=1"
    assert not sd_notify("READY=1", env={})
    abstract = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    name = f"pegpi-test-{time.monotonic_ns()}"
    abstract.bind("\0" + name)
    try:
        assert sd_notify("WATCHDOG=1", env={"NOTIFY_SOCKET": "@" + name})
        assert abstract.recv(100) == b"WATCHDOG=1"
    finally:
        abstract.close()


def test_watchdog_interval_is_half_of_systemds(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    assert watchdog_interval(env={"WATCHDOG_USEC": "30000000"}) == 15.0
    assert watchdog_interval(env={"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid())}) == 15.0
    assert watchdog_interval(env={"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}) is None  # not for us
    assert watchdog_interval(env={}) is None
    assert watchdog_interval(2.0, env={}) == 2.0


def test_the_watchdog_is_fed_while_the_table_loop_lives_and_starves_when_it_hangs(
        tmp_path: Path, notify: socket.socket, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NOTIFY_SOCKET", notify.getsockname())
    release = threading.Event()

    class Hung:
        name = "hung camera"

        def open(self) -> None: ...

        def read(self) -> Frame | None:
            release.wait(30)  # a driver that never returns
            return None

        def close(self) -> None: ...

    companion = Companion(_config(), Options(source="camera:0", db=str(tmp_path / "t.db"), web=None,
                                             display="none", source_factory=lambda name: Hung()))
    companion.start()
    server = threading.Thread(target=companion.serve)
    server.start()
    try:
        first = _drain(notify, 0.25)
        _drain(notify, 0.3)
        later = _drain(notify, 0.5)
    finally:
        companion.stop()
        release.set()
        server.join(5)
        companion.close()
    assert any(m.startswith("READY=1") for m in first)
    assert "WATCHDOG=1" in first  # fed at first
    assert "WATCHDOG=1" not in later  # the loop is stuck: systemd will restart us
    assert any(m.startswith("STATUS=") for m in later)


class FlakyCamera:
    """Frames of a simulated deal; the camera is unplugged for a while mid-game (frames go by
    unseen meanwhile, as the game goes on) and gives a black and a corrupt frame."""

    name = "flaky camera"

    def __init__(self, frames: list[Frame], die_at: int) -> None:
        self.frames = frames
        self.i = 0
        self.die_at = die_at
        self.opened = False
        self.refuse_opens = 0
        self.opens = 0

    def open(self) -> None:
        self.opens += 1
        if self.refuse_opens:
            self.refuse_opens -= 1
            raise SourceError("flaky camera: cannot open (unplugged)")
        self.opened = True

    def read(self) -> Frame | None:
        if not self.opened:
            raise SourceError("flaky camera: read before open")
        if self.i == self.die_at:
            self.i += 8  # the world goes on while the camera is away
            self.opened, self.refuse_opens = False, 1
            raise SourceError("flaky camera: stopped giving frames (unplugged?)")
        if self.i >= len(self.frames):
            return None
        frame = self.frames[self.i]
        self.i += 1
        if self.i == 20:
            return Frame(np.zeros_like(frame.image), frame.t, frame.index)  # lens covered
        if self.i == 21:
            return Frame(np.zeros((7, 7), np.uint8), frame.t, frame.index)  # a torn buffer
        return frame

    def close(self) -> None:
        self.opened = False


def test_a_camera_that_dies_and_returns_mid_game_loses_nothing(tmp_path: Path) -> None:
    from vision.mat import layout_for
    from vision.simtable import CameraPose, SimTable

    steps = record_to_script(RECORD)
    starter = next(i for i, s in enumerate(steps) if s.get("zone") == "starter")
    steps = steps[: starter + 5]  # cut, deal, crib, starter and four plays
    script, _ = sim_steps(steps)
    sim = SimTable(layout_for("pegging", 2), script, fps=10.0, seed=4,
                   pose=CameraPose(fill=0.86, tilt=0.08, roll=1.5, offset=(10.0, 0.0)))
    frames = list(sim.frames())
    camera = FlakyCamera(frames, die_at=int(len(frames) * 0.6))
    companion = Companion(_config(confidence=0.3), Options(source="camera:0", db=str(tmp_path / "t.db"), web=None,
                                                           display="none", quit_at_end=True, source_factory=lambda n: camera,
                                                           keep_crops=str(tmp_path / "crops")))
    companion.start()
    try:
        assert companion.serve() == 0
    finally:
        companion.close()
    assert camera.opens >= 3  # it was reopened, and refused once while unplugged
    assert any("stopped giving frames" in p for p in companion.stats.problems)
    expected = Session(Store(tmp_path / "truth.db"), players=RECORD["players"])
    play_script(expected, steps)
    with Store(tmp_path / "t.db") as store:
        got = store.export(store.current().id)["actions"]  # type: ignore[union-attr]
    assert got == expected.export()["actions"]
    assert len(got) > 8
    # --keep-crops: the crop of every card read is filed under its card, camera outage or not
    kept = {f.parent.name for f in (tmp_path / "crops").glob("*/*.png")}
    assert kept == {s["card"] for s in steps if s["op"] == "place"}


def test_the_web_page_serves_the_running_session(tmp_path: Path) -> None:
    record_file = tmp_path / "game.json"
    record_file.write_text(json.dumps(RECORD))
    companion = Companion(_config(), Options(source=f"script:{record_file}", db=str(tmp_path / "t.db"),
                                             web=("127.0.0.1", 0), quit_at_end=True))
    companion.start()
    try:
        assert companion.url is not None
        assert companion.serve() == 0
        with urllib.request.urlopen(companion.url + "api/view", timeout=5) as answer:
            view = json.loads(answer.read())
    finally:
        companion.close()
    assert view["phase"] == "over"
    assert [s["score"] for s in view["sides"]] == companion.session.state.scores


def test_run_with_no_camera_runs_the_demo(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "picamera2" else real(name, *a))
    assert resolve_source("auto") == "demo"
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: object() if name == "picamera2" else real(name, *a))
    assert resolve_source("auto") == "picamera"
    assert resolve_source("video:x.mp4") == "video:x.mp4"


def test_the_board_follows_the_game_to_its_end(tmp_path: Path) -> None:
    from PIL import ImageChops

    from device.board import render_board

    record_file = tmp_path / "game.json"
    record_file.write_text(json.dumps(RECORD))
    config = load_config(system=None, overrides={"display": {"driver": "dummy", "frame_time": 0, "hold_time": 0}})
    companion = Companion(config, Options(source=f"script:{record_file}", db=str(tmp_path / "t.db"), web=None,
                                          display="dummy", quit_at_end=True))
    companion.start()
    board = companion.outputs[0]
    oled = board.device  # luma's dummy: keeps the last picture sent to it
    assert oled is not None
    try:
        assert companion.serve() == 0
        final = companion.session.view()
        deadline = time.monotonic() + 10
        while board.last_view != final and time.monotonic() < deadline:  # the board draws at its own pace
            time.sleep(0.01)
        drawn = oled.image.copy()
    finally:
        companion.close()  # (closing blanks the screen)
    assert board.last_view == final and final.phase == "over"
    want = render_board(final, (128, 64)).convert(drawn.mode)
    assert ImageChops.difference(drawn, want).getbbox() is None


def test_the_demo_reads_its_simulated_camera_through_the_pipeline(tmp_path: Path) -> None:
    config = load_config(system=None, overrides={"demo": {"seed": 2}})
    companion = Companion(config, Options(source="demo", db=str(tmp_path / "t.db"), web=None, display="none",
                                          speed=0.0, seed=2))
    companion.start()
    server = threading.Thread(target=companion.serve)
    server.start()
    try:
        deadline = time.monotonic() + 60
        while companion.session.state.deals < 1 and time.monotonic() < deadline and server.is_alive():
            time.sleep(0.05)
    finally:
        companion.stop()
        server.join(10)
        companion.close()
    assert companion.error is None
    assert companion.stats.frames > 30
    assert companion.expected is not None
    cuts = [a for a in companion.expected["actions"] if a["act"] == "cut"]
    read = [e.action for e in companion.session.entries if e.action["act"] == "cut"]
    assert read == cuts  # the cut for deal, read by the camera pipeline from rendered frames
    assert companion.session.state.deals == 1


def test_the_demo_s_next_game_wires_the_phone_s_corrections_to_its_own_pipeline(tmp_path: Path) -> None:
    """``--all`` plays game after game, each on its own mat and pipeline: a card the players name
    on the phone is learned by the pipeline now reading the table (not kept alive in the one before)."""
    config = load_config(system=None, overrides={"demo": {"seed": 2}})
    companion = Companion(config, Options(source="demo", db=str(tmp_path / "t.db"), web=None, display="none",
                                          speed=0.0, seed=2, cycle=True))
    companion.start()
    try:
        assert companion.session is not None and companion.pipeline is not None
        first = companion.pipeline
        loop = companion._next_demo_game(TableLoop(companion.session, first, stats=companion.stats,
                                                   stop=companion.stop_event))
        assert loop.pipeline is companion.pipeline and companion.pipeline is not first
        resolved = companion.session.on_resolved
        assert resolved is not None and getattr(resolved, "__self__", None) is companion.pipeline
    finally:
        companion.stop()
        companion.close()


def test_the_demo_s_games_hold_one_pipeline_at_a_time_and_load_their_model_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--all`` plays game after game for as long as the companion runs (the runtime soak): the
    game before's pipeline (its mat images, its tracker) is let go before the next game's is built,
    the first game's too, and games on the same deck read with the model already loaded; so the
    companion's memory is one game's, however many it has played."""
    import weakref

    from pegpi import companion as module
    from vision.pipeline import TablePipeline

    built: list[weakref.ref[TablePipeline]] = []
    alive_at_build: list[int] = []  # pipelines still in memory as each is built

    def build(*args: Any, **kwargs: Any) -> TablePipeline:
        alive_at_build.append(sum(ref() is not None for ref in built))
        pipeline = TablePipeline(*args, **kwargs)
        built.append(weakref.ref(pipeline))
        return pipeline

    loads: list[str] = []
    real_load = module.load_classifier

    def load(**kwargs: Any) -> Any:
        loads.append(kwargs["deck"])
        return real_load(**kwargs)

    games: list[str] = []

    class EndedCamera:
        """A simulated camera whose game ends at once: the demo goes on to its next game."""

        def __init__(self, spec: dict[str, Any]) -> None:
            games.append(spec["title"])
            self.press: list[Any] = []
            self.truth: list[Any] = []
            if len(games) == 3:
                companion.stop()

        def open(self) -> None:
            pass

        def read(self) -> None:
            return None

        def close(self) -> None:
            pass

    monkeypatch.setattr(module, "TablePipeline", build)
    monkeypatch.setattr(module, "load_classifier", load)
    monkeypatch.setattr(module, "SimCamera", EndedCamera)
    config = load_config(system=None, overrides={"demo": {"seed": 2}})
    companion = Companion(config, Options(source="demo", db=str(tmp_path / "t.db"), web=None, display="none",
                                          speed=0.0, seed=2, cycle=True))
    companion.start()
    try:
        assert companion.finished.wait(60)
    finally:
        companion.stop()
        companion.close()
    assert companion.error is None
    assert games == ["Cribbage", "Three-hand Cribbage", "Three-hand Solo Cribbage"]
    assert len(built) == 3 and alive_at_build == [0, 0, 0]
    assert loads == ["french52"]  # the three are played with one deck: its model is loaded once


def test_the_runtime_bench_runs_the_companion_with_the_services_environment() -> None:
    """`pegpi bench runtime` measures the companion as systemd starts it on the device: every
    setting it adds (such as the malloc arenas that its memory figure depends on) is in the unit."""
    from pegpi.cli.runtime import SERVICE_ENV

    unit = (Path(__file__).resolve().parents[2] / "systemd" / "pegpi.service").read_text(encoding="utf-8")
    set_by_unit = dict(line.removeprefix("Environment=").split("=", 1)
                       for line in unit.splitlines() if line.startswith("Environment="))
    assert SERVICE_ENV and all(set_by_unit.get(k) == v for k, v in SERVICE_ENV.items()), (SERVICE_ENV, set_by_unit)


def test_four_hand_gin_starts_on_its_own_two_table_mat_read_by_the_rummy_protocol(tmp_path: Path) -> None:
    from device.protocols.rummy import RummyProtocol

    config = load_config(system=None, overrides={"table": {"game": "gin", "players": ["Ann", "Bob", "Cy", "Di"]},
                                                 "watchdog": {"interval": 0.1}})
    camera = FlakyCamera([], die_at=-1)
    companion = Companion(config, Options(source="camera:0", db=str(tmp_path / "t.db"), web=None, display="none",
                                          quit_at_end=True, source_factory=lambda n: camera))
    companion.start()
    try:
        assert companion.session is not None and isinstance(companion.session.protocol, RummyProtocol)
        assert companion.pipeline is not None
        mat = companion.pipeline.layout
        assert (mat.table, mat.seats, mat.paper) == ("rummy", 4, "A1")
        assert {"pile", "pile1", "stock", "stock1"} <= set(mat.zone_names)
    finally:
        companion.close()


def test_a_game_whose_mat_cannot_be_drawn_still_starts_with_a_plain_grid(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    def no_room(table: str, seats: int, paper: str = "A3") -> str:
        raise LayoutError(f"a {table} mat has no room for {seats} seats")

    monkeypatch.setattr("pegpi.companion.mat_paper", no_room)
    config = load_config(system=None, overrides={"table": {"game": "gin", "players": ["Ann", "Bob", "Cy", "Di"]},
                                                 "watchdog": {"interval": 0.1}})
    camera = FlakyCamera([], die_at=-1)
    companion = Companion(config, Options(source="camera:0", db=str(tmp_path / "t.db"), web=None, display="none",
                                          quit_at_end=True, source_factory=lambda n: camera))
    companion.start()  # the camera's preview still works; the game is scored as it can be
    try:
        assert companion.session is not None and companion.session.game.spec.name == "gin"
        assert companion.pipeline is not None and companion.pipeline.layout.table == "layout"
    finally:
        companion.close()


def test_the_runtime_soak_reads_the_frames_asked_for_and_follows_the_memory() -> None:
    """`pegpi bench runtime --frames N` runs the companion until it has read N frames; its memory
    stays within generous bounds of where it stood after the first third (the bench prints the figures)."""
    from pegpi.cli.runtime import bench_runtime

    report = bench_runtime(seconds=0.0, frames=300)
    assert report["soak_frames"] >= 300
    assert report["soak_growth_mb"] < 40.0, report
    # the soak follows the companion's own data apart from the libraries' pages
    assert 0 < report["soak_anon_end_mb"] < report["soak_end_mb"], report
    assert report["soak_anon_growth_mb"] < 40.0, report
    assert report["web_ok"]
    # the memory is told apart: the companion's own data and the libraries' code make it up
    assert report["anon_mb"] > 0 and report["file_mb"] > 0
    assert abs(report["anon_mb"] + report["file_mb"] - report["rss_mb"]) < 5.0, report


def test_the_runtime_soak_plays_game_after_game() -> None:
    """One demo game has fewer frames than a long soak asks for (cribbage's first demo game has
    11,742), after which its simulated camera ends: a soak runs the demo through every game in
    turn, the plain runtime bench one game at full speed as before."""
    from pegpi.cli import build_parser
    from pegpi.cli.runtime import demo_args

    soak = build_parser().parse_args(demo_args(Path("bench.db"), 8080, soak=True))
    plain = build_parser().parse_args(demo_args(Path("bench.db"), 8080, soak=False))
    grey = build_parser().parse_args(demo_args(Path("bench.db"), 8080, soak=True, grey=True))
    assert soak.all and not plain.all and grey.all
    assert grey.grey_camera and not soak.grey_camera and not plain.grey_camera
    assert soak.speed == plain.speed == 0 and soak.web == plain.web == ("127.0.0.1", 8080)
