"""`pegpi run`, `pegpi demo`, `pegpi export` and `pegpi bench runtime`."""

from __future__ import annotations

import argparse
import json
import logging
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import warnings
from pathlib import Path
from typing import Any

from device.config import load_config, store_path
from device.store import Store
from games.records import replay
from pegpi.errors import CommandError


def _host_port(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    try:
        number = int(port)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--web wants HOST:PORT such as 0.0.0.0:8080, not {text!r}") from None
    if not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError(f"--web port {number} is not 0..65535")
    return host or "0.0.0.0", number


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", metavar="FILE", help="a TOML config on top of /etc/pegpi/config.toml")
    p.add_argument("--db", metavar="PATH", help="the event store (default: [store] path, or the state directory)")
    web = p.add_mutually_exclusive_group()
    web.add_argument("--web", metavar="HOST:PORT", type=_host_port, help="serve the phone page here (default 0.0.0.0:8080)")
    web.add_argument("--no-web", action="store_true", help="no phone page")
    p.add_argument("--display", metavar="DRIVER",
                   help="OLED driver: ssd1306, sh1106, ssd1322, dummy, pygame, capture or none")
    p.add_argument("--speed", type=float, help="demo speed: 1 real time, 0 as fast as possible")
    p.add_argument("--seed", type=int, help="which simulated game the demo plays")
    p.add_argument("--events", action="store_true",
                   help="demo without rendering frames: feed the table events straight to the session")
    p.add_argument("--quit-at-end", action="store_true", help="stop when the source ends (the demo's game is over)")
    p.add_argument("--grey-camera", action="store_true",
                   help="the demo's camera shows no colour and more noise (as a NoIR module): suits are read by shape")
    p.add_argument("--keep-crops", metavar="DIR",
                   help="keep the crop of every card the table reads in DIR/CARD/ (a card named on the phone moves "
                        "to its folder); `pegpi bench photos DIR --crops` measures the model on them")
    p.add_argument("-v", "--verbose", action="store_true", help="log every table event")


def register(commands: Any, benches: Any) -> None:
    p = commands.add_parser(
        "run", help="run the companion: camera -> vision -> score -> board and phones",
        description="Run the table companion. With no camera (not a Pi) it runs the demo: a simulated "
                    "cribbage game scored from rendered frames, live on the web page.")
    p.add_argument("--source", metavar="SOURCE",
                   help="auto (default), picamera, camera:N or /dev/videoN, video:FILE, folder:DIR (a video file or a "
                        "folder by its path works too), demo or script:FILE")
    _common(p)
    p.set_defaults(func=cmd_run, forced_source=None)

    p = commands.add_parser("demo", help="a whole simulated game (cribbage by default) scored from frames, "
                                         "on the web page")
    _common(p)
    which = p.add_mutually_exclusive_group()
    which.add_argument("--game", help="which game the demo plays (default: the config's [demo] game, cribbage); "
                                      "any game `pegpi table-sim` plays")
    which.add_argument("--all", action="store_true", help="play every game in turn, one whole game after another")
    p.set_defaults(func=cmd_run, source=None, forced_source="demo")

    p = commands.add_parser("export", help="print a stored game as a game record (or list the stored games)")
    p.add_argument("--db", metavar="PATH", help="the event store")
    p.add_argument("--config", metavar="FILE")
    p.add_argument("--game", type=int, metavar="ID", help="which game (default: the latest)")
    p.add_argument("--list", action="store_true", help="list the stored games")
    p.add_argument("--history", action="store_true", help="with every stored row (undos and corrections)")
    p.add_argument("-o", "--output", metavar="FILE", help="write the record here")
    p.set_defaults(func=cmd_export)

    b = benches.add_parser("runtime", help="memory, start-up time and frames per second of a running companion")
    b.add_argument("--json", action="store_true", help="print JSON")
    b.add_argument("--seconds", type=float, default=12.0, help="how long to measure the frame rate")
    b.add_argument("--frames", type=int, default=0, metavar="N",
                   help="a soak: run until the companion has read N frames, following its memory")
    b.add_argument("--grey-camera", action="store_true",
                   help="the demo's camera shows no colour (as a NoIR module), so the suits are read by shape too")
    b.set_defaults(func=cmd_bench_runtime)


def _config(args: argparse.Namespace) -> dict[str, Any]:
    return load_config(args.config)


def _setup_logging(level: str, verbose: bool) -> None:
    journal = bool(os.environ.get("JOURNAL_STREAM"))
    fmt = "%(levelname)s %(name)s: %(message)s" if journal else "%(asctime)s %(levelname)-7s %(message)s"
    logging.basicConfig(level=logging.DEBUG if verbose else getattr(logging, level.upper()), format=fmt,
                        datefmt="%H:%M:%S", stream=sys.stderr)
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)  # SSE holds threads on purpose

    # gpiozero says so for every pin library it tries; the LED and button warnings say what matters
    warnings.filterwarnings("ignore", message="Falling back from")


def _demo_game(name: str | None) -> str | None:
    """The demo's game by any of its names; one the demo cannot play is a one-line error."""
    if name is None:
        return None
    from device.demo import demo_games
    from games import get_game

    spec = get_game(name).spec  # an unknown name: the catalogue's own error
    if spec.name not in demo_games():
        raise CommandError(f"the demo cannot play {spec.title} yet: it plays {', '.join(demo_games())}")
    return spec.name


def cmd_run(args: argparse.Namespace) -> int:
    from pegpi.companion import Companion, Options

    config = _config(args)
    _setup_logging(config["log"]["level"], args.verbose)
    source = args.forced_source or args.source or config["camera"]["source"]
    demo = config.get("demo", {})
    web_cfg = config["web"]
    web: tuple[str, int] | None
    if args.no_web or not web_cfg.get("enabled", True):
        web = None if (args.no_web or args.web is None) else args.web
    else:
        web = args.web or (web_cfg["host"], int(web_cfg["port"]))
    options = Options(source=source, db=args.db, web=web, display=args.display,
                      speed=float(args.speed if args.speed is not None else demo.get("speed", 1.0)),
                      seed=int(args.seed if args.seed is not None else demo.get("seed", 1)),
                      frames=not args.events and bool(demo.get("frames", True)), quit_at_end=args.quit_at_end,
                      keep_crops=args.keep_crops or config["camera"].get("keep_crops") or None,
                      game=_demo_game(getattr(args, "game", None)), cycle=bool(getattr(args, "all", False)),
                      grey_camera=args.grey_camera)
    companion = Companion(config, options)
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, lambda *_: companion.stop())
    try:
        companion.start()
        session = companion.session
        assert session is not None  # start() opened it
        game = session.game
        print(f"pegpi: {game.spec.title} for {', '.join(game.players)}; source: {companion.source_name}; "
              f"store: {companion.db_path}", flush=True)
        if companion.url:
            from pegpi.banner import banner

            print(banner("pegpi", companion.urls, session.pairing_code), flush=True)
        else:
            print(f"pegpi: pairing code: {session.pairing_code} (no web page)", flush=True)
        print(f"pegpi: ready ({session.state.prompt()})", flush=True)
        code = companion.serve()
    except KeyboardInterrupt:
        code = 0
    finally:
        companion.close()
    if companion.session is not None:
        state = companion.session.state
        names = companion.session.game.side_names()
        print("pegpi: " + ", ".join(f"{n} {s}" for n, s in zip(names, state.scores, strict=True))
              + f" ({state.result_text()})", flush=True)
        expected = companion.expected
        if expected is not None and state.is_over:
            want = replay(expected).state.scores
            same = list(want) == list(state.scores)
            print(f"pegpi: the game as played scores {want}: {'the same' if same else 'DIFFERENT'}", flush=True)
    if companion.error is not None:
        print(f"pegpi: error: {companion.error}", file=sys.stderr)
        return 1
    return code


def cmd_export(args: argparse.Namespace) -> int:
    path = Path(args.db) if args.db else store_path(_config(args))
    if not path.exists():
        raise CommandError(f"no event store at {path}")
    with Store(path) as store:
        if args.list:
            for info in store.games():
                print(f"{info.id:>4}  {info.game:12} {' v '.join(info.players):24} {info.rows:>4} rows  "
                      f"{info.result or 'in play'}")
            return 0
        current = store.current()
        if current is None:
            raise CommandError(f"{path} holds no game yet")
        game_id = args.game if args.game is not None else current.id
        record = store.export(game_id)
        if args.history:
            record["pegpi"]["history"] = [
                {"seq": r.seq, "kind": r.kind, "action": r.action, "target": r.target, "source": r.source,
                 "t": r.t} for r in store.rows(game_id)]
    text = json.dumps(record, indent=1)
    if args.output:
        Path(args.output).write_text(text + "\n", encoding="utf-8")
        print(f"game {game_id}: {len(record['actions'])} actions written to {args.output}")
    else:
        print(text)
    return 0


def cmd_bench_runtime(args: argparse.Namespace) -> int:
    if args.frames < 0:
        raise CommandError(f"--frames takes a number of frames, not {args.frames}")
    report = bench_runtime(seconds=args.seconds, frames=args.frames, grey=args.grey_camera)
    if args.json:
        print(json.dumps(report))
        return 0 if report["ok"] else 1
    camera = "simulated grey camera" if args.grey_camera else "simulated camera"
    print(f"companion: pegpi demo ({camera} at full speed, web page on, {report['classifier']})")
    print(f"start-up to ready (sd_notify READY=1): {report['startup_s']:.2f} s   (budget 3 s)")
    print(f"resident memory: {report['rss_mb']:.1f} MB now, {report['peak_mb']:.1f} MB peak   (budget 150 MB)")
    print(f"  of it now: {report['anon_mb']:.1f} MB the companion's own data, {report['file_mb']:.1f} MB libraries' code "
          f"mapped from disk")
    print(f"  (the simulated camera, a process of its own standing in for the Pi camera: "
          f"{report['camera_mb']:.1f} MB more)")
    print(f"frames per second sustained: {report['fps']:.1f} (camera rendering included; budget 30)")
    if report.get("soak_frames"):
        print(f"soak: {report['soak_frames']} frames; resident memory {report['soak_start_mb']:.1f} MB after the "
              f"first third, {report['soak_end_mb']:.1f} MB at the end ({report['soak_growth_mb']:+.1f} MB)")
        print(f"  of it the companion's own data: {report['soak_anon_start_mb']:.1f} MB, then "
              f"{report['soak_anon_end_mb']:.1f} MB ({report['soak_anon_growth_mb']:+.1f} MB)")
    print(f"  pipeline + session alone: {report['pipeline_fps']:.1f} fps on pre-rendered frames")
    print(f"web page answered: {'yes' if report['web_ok'] else 'NO'} ({report['web_ms']:.1f} ms for /api/view)")
    print(f"within budget: {'yes' if report['ok'] else 'NO'}")
    return 0 if report["ok"] else 1


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _proc_kb(pid: int, key: str) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return float(line.split()[1])
    return float("nan")


#: the environment ``systemd/pegpi.service`` gives the companion, but for its paths: the runtime
#: bench runs the companion with it, so that it measures what the device runs
#: (``tests/device/test_runtime.py`` checks that the unit sets each of these)
SERVICE_ENV = {"PYTHONUNBUFFERED": "1", "MALLOC_ARENA_MAX": "2"}


def demo_args(db: Path, port: int, *, soak: bool, grey: bool = False) -> list[str]:
    """The ``pegpi`` arguments of the companion the runtime bench measures: the demo at full speed
    with the web page on. A soak plays every game in turn (``--all``), one after another, since
    one game's frames run out (cribbage's first demo game has under 12,000). ``grey``: through a
    camera that shows no colour."""
    return ["demo", "--speed", "0", "--db", str(db), "--web", f"127.0.0.1:{port}", "--display", "none",
            "--config", os.devnull, *(["--all"] if soak else []), *(["--grey-camera"] if grey else [])]


def bench_runtime(seconds: float = 12.0, frames: int = 0, grey: bool = False) -> dict[str, Any]:
    """Run ``pegpi demo`` as systemd would (a notify socket), at full speed with the web page on:
    time to READY=1, its frame rate from its STATUS lines, its resident memory; then the pipeline
    and session alone on pre-rendered frames. ``frames``: a soak, measured until the companion
    says it has read that many frames, its memory sampled at each STATUS line."""
    report: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        notify = str(Path(tmp) / "notify")
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.bind(notify)
        port = _free_port()
        env = {**os.environ, **SERVICE_ENV, "NOTIFY_SOCKET": notify}
        cmd = [sys.executable, "-m", "pegpi", *demo_args(Path(tmp) / "bench.db", port, soak=frames > 0, grey=grey)]
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            sock.settimeout(30.0)
            ready = None
            while ready is None:
                try:
                    message = sock.recv(4096).decode()
                except TimeoutError:
                    raise CommandError("the companion did not become ready within 30 s") from None
                if "READY=1" in message:
                    ready = time.perf_counter() - start
            report["startup_s"] = ready
            fps: list[float] = []
            # (frames read, resident MB, of it the companion's own data) at each STATUS line
            memory: list[tuple[int, float, float]] = []
            sock.settimeout(1.0)
            until = time.perf_counter() + seconds
            stalled = time.perf_counter() + 60.0  # a soak stops when no frame is read for a minute
            status = "starting"  # the companion's own word for what it is doing (its STATUS line)
            while proc.poll() is None:
                read = memory[-1][0] if memory else 0
                if (read >= frames if frames else time.perf_counter() >= until):
                    break
                if frames and time.perf_counter() > stalled:
                    raise CommandError(f"the companion stopped reading frames after {read} of {frames} "
                                       f"(its status: {status})")
                try:
                    message = sock.recv(4096).decode()
                except TimeoutError:
                    continue
                found = re.search(r"frames ([0-9]+) \(([0-9.]+) fps\)", message)
                said = re.search(r"STATUS=([^;\n]*)", message)
                status = said.group(1) if said else status
                if found:
                    if not memory or int(found.group(1)) > memory[-1][0]:
                        stalled = time.perf_counter() + 60.0
                    fps.append(float(found.group(2)))
                    memory.append((int(found.group(1)), _proc_kb(proc.pid, "VmRSS") / 1024,
                                   _proc_kb(proc.pid, "RssAnon") / 1024))
            if frames:
                if not memory:
                    raise CommandError("the companion stopped before reporting any frames")
                third = next((m for m in memory if m[0] >= memory[-1][0] / 3), memory[0])
                report.update(soak_frames=memory[-1][0], soak_start_mb=third[1], soak_end_mb=memory[-1][1],
                              soak_growth_mb=memory[-1][1] - third[1],
                              # the data alone: the libraries' pages come and go with the kernel's reclaim
                              soak_anon_start_mb=third[2], soak_anon_end_mb=memory[-1][2],
                              soak_anon_growth_mb=memory[-1][2] - third[2])
            began = time.perf_counter()
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/view", timeout=5) as answer:
                report["web_ok"] = answer.status == 200 and "phase" in json.loads(answer.read())
            report["web_ms"] = (time.perf_counter() - began) * 1e3
            report["rss_mb"] = _proc_kb(proc.pid, "VmRSS") / 1024
            # what of it is the companion's own data, and what the libraries' code mapped from disk
            # (clean pages the kernel may drop and read again: their share varies with the library
            # versions and with how much of them the kernel has paged out lately)
            report["anon_mb"] = _proc_kb(proc.pid, "RssAnon") / 1024
            report["file_mb"] = _proc_kb(proc.pid, "RssFile") / 1024
            report["peak_mb"] = _proc_kb(proc.pid, "VmHWM") / 1024
            kids = [k for task in Path(f"/proc/{proc.pid}/task").glob("*/children") for k in task.read_text().split()]
            report["camera_mb"] = sum(_proc_kb(int(k), "VmRSS") for k in kids) / 1024  # the simulated camera
            steady = fps[len(fps) // 3:] or fps
            report["fps"] = statistics.median(steady) if steady else 0.0
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                _, err = proc.communicate(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                _, err = proc.communicate()
            sock.close()
        found = re.search(r"classifier: (.*)", err or "")
        report["classifier"] = found.group(1).strip() if found else "unknown classifier"
    report["pipeline_fps"] = _pipeline_fps(grey=grey)
    report["ok"] = (report["startup_s"] <= 3.0 and report["peak_mb"] <= 150.0 and report["fps"] >= 30.0
                    and report["web_ok"])
    return report


def _pipeline_fps(frames: int = 150, grey: bool = False) -> float:
    """Frames per second of vision pipeline + session on pre-rendered frames of a simulated deal
    (``grey``: through a camera that shows no colour)."""
    from device.demo import demo_record, sim_steps
    from device.protocols.script import record_to_script
    from device.session import Session
    from pegpi.companion import load_classifier
    from vision.mat import layout_for
    from vision.pipeline import TablePipeline
    from vision.simtable import CameraPose, SimTable

    record = demo_record("cribbage", 1)
    layout = layout_for("pegging", 2)
    script, _ = sim_steps(record_to_script(record)[:40])
    sim = SimTable(layout, script, fps=30.0, pose=CameraPose(fill=0.86, tilt=0.08, roll=1.5, offset=(10.0, 0.0)),
                   grey=grey)
    rendered = [sim.render(i) for i in range(min(frames, len(sim.scenes)))]
    times = [sim.scenes[i].t for i in range(len(rendered))]
    classifier, _ = load_classifier(simulated=True)
    pipeline = TablePipeline(layout, classifier)
    with tempfile.TemporaryDirectory() as tmp:
        session = Session(Store(Path(tmp) / "p.db"), players=record["players"])
        start = time.perf_counter()
        for image, t in zip(rendered, times, strict=True):
            result = pipeline.process(image, t)
            if result.events:
                session.table_events(result.events)
        spent = time.perf_counter() - start
        session.store.close()
    return len(rendered) / spent
