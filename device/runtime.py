"""The companion: camera -> vision -> table protocol -> session -> board, LEDs and phones.

:class:`Companion` owns the parts of one running table and their threads:

- the **table loop** (a background thread) reads frames from the source, runs the vision
  pipeline on them and hands the table events to the session; a camera that fails is reopened
  with back-off (``vision.sources.ResilientSource``), broken and black frames are dropped;
- the **outputs** (a thread) follow the session's updates: the peg board on the OLED, the LEDs,
  the strip; buttons call the session directly;
- the **web server** (waitress, in threads) serves the phones from the same session;
- the **main thread** tells systemd it is ready and feeds its watchdog, but only while the table
  loop is alive, so a hung loop gets the service restarted.

Missing hardware degrades: no OLED, no LEDs, no buttons or no web are warnings in the log. The
demo source plays a whole simulated game (a random legal game from ``games``' autoplay, turned
into a placement script, rendered by ``vision.simtable``) through the same path; the demo's
players answer the device's questions the way people at the table would.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from device.demo import SimCamera, TableTruth, demo_record, load_script
from device.errors import CompanionError
from games.errors import PegpiError

log = logging.getLogger("pegpi")

JSON = dict[str, Any]


# --------------------------------------------------------------------------------- systemd


def sd_notify(message: str, *, env: Mapping[str, str] | None = None) -> bool:
    """Send ``message`` (``READY=1``, ``WATCHDOG=1``, ``STATUS=...``) to systemd's notify socket.
    Returns False when not run by systemd (no ``NOTIFY_SOCKET``)."""
    address = (env if env is not None else os.environ).get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]  # an abstract socket
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(message.encode("utf-8"))
    except OSError as exc:
        log.debug("sd_notify %r failed: %s", message, exc)
        return False
    return True


def watchdog_interval(configured: float = 0.0, *, env: Mapping[str, str] | None = None) -> float | None:
    """Seconds between watchdog pings: the configured value, else half of systemd's
    ``WATCHDOG_USEC`` (when it is meant for this process), else None (no watchdog)."""
    env = env if env is not None else os.environ
    if configured > 0:
        return configured
    usec = env.get("WATCHDOG_USEC")
    pid = env.get("WATCHDOG_PID")
    if not usec or (pid and pid != str(os.getpid())):
        return None
    try:
        return max(0.05, int(usec) / 2e6)
    except ValueError:
        return None


# --------------------------------------------------------------------------------- sources


@dataclass
class Stats:
    """What the table loop has done, for the watchdog, the status line and the bench."""

    started: float = field(default_factory=time.monotonic)
    frames: int = 0
    events: int = 0
    steps: int = 0
    dropped: int = 0
    beat: float = field(default_factory=time.monotonic)
    status: str = "starting"
    problems: list[str] = field(default_factory=list)
    ready_at: float | None = None
    window: list[float] = field(default_factory=list)

    def tick(self) -> None:
        self.beat = time.monotonic()

    def fps(self) -> float:
        if len(self.window) < 2:
            return 0.0
        span = self.window[-1] - self.window[0]
        return (len(self.window) - 1) / span if span > 0 else 0.0

    def frame_done(self) -> None:
        now = time.monotonic()
        self.frames += 1
        self.beat = now
        self.window.append(now)
        if len(self.window) > 90:
            del self.window[:-90]


def picamera_available() -> bool:
    import importlib.util

    return importlib.util.find_spec("picamera2") is not None


def resolve_source(source: str) -> str:
    """``auto`` is the Pi camera when picamera2 is installed, else the demo."""
    if source == "auto":
        return "picamera" if picamera_available() else "demo"
    return source


# --------------------------------------------------------------------------------- the companion


@dataclass
class Options:
    """What to run: the command line on top of the config."""

    source: str = "auto"
    db: str | None = None
    web: tuple[str, int] | None = ("0.0.0.0", 8080)
    display: str | None = None
    speed: float = 1.0
    seed: int = 1
    frames: bool = True
    quit_at_end: bool = False
    keep_crops: str | None = None  # a folder: keep the crop of every card read, filed under its card
    source_factory: Callable[[str], Any] | None = None  # tests: a frame source for a source name


class Companion:
    """One running table. ``start()``, then ``serve()`` until ``stop()`` (or a signal)."""

    def __init__(self, config: Mapping[str, Any], options: Options) -> None:
        self.config = config
        self.options = options
        self.source_name = resolve_source(options.source)
        self.stats = Stats()
        self.stop_event = threading.Event()
        self.finished = threading.Event()
        self.session: Any = None
        self.threads: list[threading.Thread] = []
        self.server: Any = None
        self.web_app: Any = None
        self.url: str | None = None
        self.urls: list[str] = []
        self.outputs: list[Any] = []
        self.buttons: Any = None
        self.error: BaseException | None = None
        self.expected: JSON | None = None  # the demo's record, to compare at the end
        self._last_frame: Any = None
        self.pipeline: Any = None
        self.classifier_name = "none"
        self._jpeg: tuple[int, bytes] | None = None
        self._board_changed = threading.Condition()
        self._newest: JSON | None = None
        self._scored = False
        self._board_done = False

    # ------------------------------------------------------------------ start-up

    def start(self) -> None:
        from device.config import store_path
        from device.session import Session
        from device.store import Store

        cfg = self.config
        table = cfg["table"]
        game, players, options = table["game"], list(table["players"]), dict(table.get("options") or {})
        if self.source_name == "demo":
            demo = cfg.get("demo", {})
            game = demo.get("game", "cribbage")
            self.expected = demo_record(game, self.options.seed, players)
            players, options = self.expected["players"], self.expected.get("options") or {}
        elif self.source_name.startswith("script:"):
            record, _ = load_script(self.source_name[len("script:"):])
            if record is not None:
                self.expected = record
                game, players, options = record["game"], record.get("players", players), record.get("options") or {}
        path = Path(self.options.db) if self.options.db else store_path(cfg)
        max_mb = float(cfg.get("store", {}).get("max_mb", 0) or 0)
        store = Store(path, max_bytes=int(max_mb * 1024 * 1024))
        self.session = Session(store, game=game, players=players, options=options,
                               confidence=float(table.get("confidence", 0.85)))
        current = self.session.game
        if self.source_name == "demo":
            assert self.expected is not None  # every demo is a new game; earlier games stay in the store
            self.session.new_game(self.expected["game"], list(self.expected["players"]),
                                  self.expected.get("options") or {})
        elif self.expected is not None and (current.spec.name != self.expected["game"]
                                            or list(current.players) != list(self.expected["players"])):
            # a script resumes its own game after a restart; another game in the store is left as it is
            self.session.new_game(self.expected["game"], list(self.expected["players"]),
                                  self.expected.get("options") or {})
        self.db_path = path
        self._open_outputs()
        self._start_web()
        if not (self.source_name.startswith("script:") or (self.source_name == "demo" and not self.options.frames)):
            self.pipeline = self._pipeline(self._layout(), demo=self.source_name == "demo")  # the model, before READY
            if self.pipeline.album is not None:  # a card named on the phone moves its kept crop
                self.session.on_resolved = self.pipeline.album.relabel
        target = self._table_loop
        self._spawn("pegpi-table", target)
        self._spawn("pegpi-outputs", self._outputs_loop)
        self.stats.ready_at = time.monotonic()
        self.stats.status = "ready"
        self.stats.tick()

    def _spawn(self, name: str, target: Callable[[], None]) -> None:
        thread = threading.Thread(target=self._guard(target), name=name, daemon=True)
        self.threads.append(thread)
        thread.start()

    def _guard(self, target: Callable[[], None]) -> Callable[[], None]:
        def run() -> None:
            try:
                target()
            except BaseException as exc:  # noqa: BLE001 - reported, and the service restarts
                log.exception("%s stopped: %s", threading.current_thread().name, exc)
                self.error = exc
                self.stop_event.set()
        return run

    def _open_outputs(self) -> None:
        cfg = self.config
        display_cfg = dict(cfg.get("display") or {})
        if self.options.display is not None:
            display_cfg["driver"] = self.options.display
        elif self.source_name == "demo" or self.source_name.startswith("script:"):
            display_cfg.setdefault("driver", "none")  # a desktop has no OLED on its I2C bus
        try:
            from device.display import BoardDisplay

            board = BoardDisplay.from_config(display_cfg)
            self.outputs.append(board)
            if board.device is not None:
                board.notice(["pair a phone with", "code"], big=self.session.pairing_code)
        except ImportError as exc:
            log.warning("display: not available (%s)", exc)
        hardware = not (self.source_name == "demo" or self.source_name.startswith("script:"))
        if hardware or "leds" in cfg:
            try:
                from device.leds import TableLights

                self.outputs.append(TableLights(cfg.get("leds")))
            except ImportError as exc:
                log.warning("leds: not available (%s)", exc)
        if hardware or "buttons" in cfg:
            try:
                from device.buttons import ButtonPanel

                screen = self.outputs[0] if self.outputs else None
                self.buttons = ButtonPanel(self.session, cfg.get("buttons"), screen=screen)
            except ImportError as exc:
                log.warning("buttons: not available (%s)", exc)
        if (cfg.get("strip") or {}).get("enabled"):
            try:
                from device.strip import PegStrip

                self.outputs.append(PegStrip(cfg.get("strip"), sides=len(self.session.game.sides())))
            except ImportError as exc:
                log.warning("strip: not available (%s)", exc)

    def _start_web(self) -> None:
        if self.options.web is None:
            return
        host, port = self.options.web
        try:
            from web import create_app
            from web.serve import make_server
        except ImportError as exc:
            log.warning("web: the phone page is not available (%s)", exc)
            return
        threads = int(self.config.get("web", {}).get("threads", 136))
        app = self.web_app = create_app({"SECRET_KEY": self._web_secret()}, service=self.session)
        try:
            self.server = make_server(app, host=host, port=port, threads=threads)
        except OSError as exc:
            if self.source_name == "demo" and port != 0:  # the demo must start anywhere: any free port
                log.warning("web: port %d is taken (%s); the demo uses a free one", port, exc.strerror)
                self.options.web = (host, 0)
                self._start_web()
                return
            raise CompanionError(f"web: cannot listen on {host}:{port} ({exc.strerror}); "
                                "choose another with --web HOST:PORT, or --no-web") from exc
        from web.netaddr import phone_urls

        self.urls = phone_urls(host, self.server.effective_port)  # the LAN's, never localhost
        self.url = self.urls[0]
        if self.buttons is not None:
            self.buttons.address = self.url
        self._spawn("pegpi-web", self.server.run)

    def _web_secret(self) -> str:
        """The key that signs the phones' cookies, kept in the store so that paired phones stay
        paired across a restart (the pairing code itself is kept there too)."""
        import secrets

        assert self.session is not None
        secret = self.session.store.meta("web_secret")
        if secret is None:
            secret = secrets.token_hex(32)
            self.session.store.set_meta("web_secret", secret)
        return secret

    # ------------------------------------------------------------------ the loops

    def _table_loop(self) -> None:
        name = self.source_name
        if name.startswith("script:"):
            _, steps = load_script(name[len("script:"):])
            self._play_events(steps)
        elif name == "demo":
            from device.protocols.script import record_to_script

            assert self.expected is not None
            steps = record_to_script(self.expected)
            if self.options.frames:
                self._play_frames(steps)
            else:
                self._play_events(steps, pace=True)
        else:
            self._camera(name)
        self.stats.status = "game over" if self.session.state.is_over else "source ended"
        self.finished.set()
        if self.options.quit_at_end:
            self.stop_event.set()

    def _play_events(self, steps: list[JSON], pace: bool = False) -> None:
        """Table events straight from a placement script (no frames): tests, the kill test."""
        from device.protocols.script import play_script

        def step(index: int, item: JSON, error: BaseException | None) -> None:
            self.stats.steps += 1
            self.stats.tick()
            if error is not None:
                log.info("step %d %s: %s", index, item, error)
            self._answer_asks(steps, index + 1)
            if pace and self.options.speed > 0:
                self.stop_event.wait(0.5 / self.options.speed)
            if self.stop_event.is_set():
                raise _Stop

        try:
            play_script(self.session, steps, on_step=step)
        except _Stop:
            return

    def _play_frames(self, steps: list[JSON]) -> None:
        """The demo: the placement script rendered by the simulated table (a camera of its own, in
        another process, as a real camera is another device), read by the pipeline."""
        game = self.session.game
        camera = SimCamera({"steps": steps, "table": game.spec.table, "seats": game.num_players,
                            "paper": str(self.config["table"].get("paper", "A3")), "title": game.spec.title,
                            "fps": self._camera_fps(), "seed": self.options.seed})
        camera.open()
        try:
            press = list(camera.press)
            truth = TableTruth(camera.truth)
            start = time.monotonic()
            while not self.stop_event.is_set():
                frame = camera.read()
                if frame is None:
                    return
                if self.options.speed > 0:
                    delay = start + frame.t / self.options.speed - time.monotonic()
                    if delay > 0:
                        self.stop_event.wait(delay)
                self._process(self.pipeline, frame)
                while press and press[0][0] <= frame.t:
                    self._press(press.pop(0)[1])
                self._answer_asks_truth(truth, frame.t)
        finally:
            camera.close()

    def _camera(self, name: str) -> None:
        from vision.sources import CaptureSource, FolderSource, PiCameraSource, ResilientSource

        cam = self.config.get("camera", {})
        width, height, fps = int(cam.get("width", 1280)), int(cam.get("height", 720)), float(cam.get("fps", 30))
        if self.options.source_factory is not None:
            source: Any = self.options.source_factory(name)
        elif name == "picamera":
            source = PiCameraSource(width=width, height=height)
        elif name.startswith("camera:"):
            source = CaptureSource(int(name[7:]), width=width, height=height, fps=fps)
        elif name.startswith("video:"):
            source = CaptureSource(name[6:], fps=fps)
        elif name.startswith("folder:"):
            source = FolderSource(name[7:], fps=fps)
        else:
            raise CompanionError(f"unknown source {name!r}")

        def report(problem: str) -> None:
            log.warning("camera: %s", problem)
            self.stats.problems.append(problem)
            self.stats.status = f"camera: {problem}"
            self.stats.tick()  # the loop is alive, waiting for the camera

        resilient = ResilientSource(source, report=report, sleep=self._sleep)
        pipeline = self.pipeline
        resilient.open()
        try:
            while not self.stop_event.is_set():
                frame = resilient.read()
                if frame is None:
                    return
                self._process(pipeline, frame)
        finally:
            resilient.close()

    def _sleep(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while not self.stop_event.is_set() and time.monotonic() < end:
            self.stats.tick()
            self.stop_event.wait(min(0.5, end - time.monotonic()))
        if self.stop_event.is_set():
            raise _Stop

    def _layout(self) -> Any:
        from vision.mat import layout_for

        game = self.session.game
        return layout_for(game.spec.table, game.num_players, str(self.config["table"].get("paper", "A3")))

    def _camera_fps(self) -> float:
        return float(self.config.get("camera", {}).get("fps", 30))

    def _pipeline(self, layout: Any, *, demo: bool) -> Any:
        from vision.pipeline import TablePipeline

        classifier, name = load_classifier(simulated=demo)
        log.info("classifier: %s", name)
        self.classifier_name = name
        album = None
        if self.options.keep_crops:
            from vision.album import CropAlbum

            try:
                album = CropAlbum(self.options.keep_crops)
            except OSError as exc:
                raise CompanionError(f"cannot keep card crops in {self.options.keep_crops}: {exc}") from None
            log.info("keeping the crop of every card read in %s", album.folder)
        return TablePipeline(layout, classifier, album=album)

    def _process(self, pipeline: Any, frame: Any) -> None:
        from vision.errors import FrameError

        try:
            result = pipeline.process(frame.image, frame.t)
        except FrameError as exc:
            self.stats.dropped += 1
            log.debug("frame dropped: %s", exc)
            return
        self._last_frame = frame
        self.stats.frame_done()
        if result.status != self.stats.status:
            self.stats.status = result.status
        if result.events:
            self.stats.events += len(result.events)
            for event in result.events:
                log.debug("table: %s", event)
            self.session.table_events(result.events)
        elif result.status == "ok":
            on_table = pipeline.tracker.on_table()
            if not on_table and self.session.state.phase == "deal":
                self.session.table_events([], on_table=on_table)

    def _press(self, step: JSON) -> None:
        try:
            if step["op"] == "say":
                self.session.submit(step["action"], source="button")
            else:
                self.session.confirm(source="button")
        except PegpiError as exc:
            log.info("button %s: %s", step, exc)

    def _answer_asks(self, steps: list[JSON], upto: int) -> None:
        """In the demo and the script runs, the players answer the device's questions as people
        would: OK when it read right; otherwise they give the right card on the phone."""
        from device.protocols.script import mat_at

        ask = self.session.protocol.ask
        if ask is None or ask.zone is None:
            return
        truth = mat_at(steps, upto).get((ask.zone, ask.slot or 0))
        self._answer(ask, truth[0] if truth else None)

    def _answer_asks_truth(self, truth: TableTruth, t: float) -> None:
        ask = self.session.protocol.ask
        if ask is None or ask.zone is None:
            return
        self._answer(ask, truth.card_at(ask.zone, ask.slot or 0, t))

    def _answer(self, ask: Any, card: str | None) -> None:
        try:
            if ask.kind == "confirm" and card == ask.card:
                log.info("demo players: OK, it is the %s", card)
                self.session.confirm(source="button")
            elif card is not None and card != ask.card:
                log.info("demo players: not the %s but the %s", ask.card, card)
                self.session.resolve(card, source="phone")
        except PegpiError as exc:
            log.info("demo players could not answer %r: %s", ask.text, exc)

    def _outputs_loop(self) -> None:
        """Follow the session's updates into the newest view (and whether points were scored
        since the last drawing); the drawer shows it. A slow screen (an announcement holds for a
        second or two) skips straight to the newest board instead of falling behind."""
        drawer = threading.Thread(target=self._guard(self._draw_loop), name="pegpi-board", daemon=True)
        drawer.start()
        updates = self.session.subscribe()
        try:
            for update in updates:
                kind = update.get("type")
                if kind == "score":
                    event = update["event"]
                    names = self.session.game.side_names()
                    log.info("%s pegs %d: %s", names[event["player"]], event["points"], event["say"])
                    with self._board_changed:
                        self._scored = True
                elif kind == "view":
                    with self._board_changed:
                        self._newest = update["view"]
                        self._board_changed.notify()
                elif kind == "ask" and update.get("message"):
                    log.info("asking: %s", update["message"])
        finally:
            updates.close()
            with self._board_changed:
                self._board_done = True
                self._board_changed.notify()
            drawer.join(timeout=5.0)

    def _draw_loop(self) -> None:
        while True:
            with self._board_changed:
                while self._newest is None and not self._board_done:
                    self._board_changed.wait()
                view, scored = self._newest, self._scored
                self._newest, self._scored = None, False
                if view is None:
                    return
            for out in self.outputs:
                self._safely(getattr(out, "announce", out.show) if scored else out.show, view)

    @staticmethod
    def _safely(call: Callable[[Any], None], view: Any) -> None:
        try:
            call(view)
        except Exception as exc:  # noqa: BLE001 - an output that fails never stops the scoring
            log.warning("output %s failed: %s", getattr(call, "__qualname__", call), exc)

    # ------------------------------------------------------------------ camera picture for phones

    def camera_jpeg(self) -> bytes | None:
        frame = self._last_frame
        if frame is None:
            return None
        if self._jpeg is not None and self._jpeg[0] == frame.index:
            return self._jpeg[1]
        import cv2

        image = frame.image
        scale = 640 / image.shape[1]
        small = cv2.resize(image, (640, round(image.shape[0] * scale)), interpolation=cv2.INTER_AREA)
        ok, data = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 70])
        if not ok:
            return None
        self._jpeg = (frame.index, data.tobytes())
        return self._jpeg[1]

    # ------------------------------------------------------------------ running and stopping

    def serve(self) -> int:
        """Tell systemd we are ready, feed the watchdog while the table loop lives, until stopped."""
        self.session.set_frame_provider(self.camera_jpeg)
        interval = watchdog_interval(float(self.config.get("watchdog", {}).get("interval", 0) or 0))
        sd_notify("READY=1\nSTATUS=" + self.status_line())
        tick = min(interval or 1.0, 1.0)
        stale = 3 * interval if interval else 10.0  # the table loop beats at every frame and while it waits
        while not self.stop_event.wait(tick):
            alive = time.monotonic() - self.stats.beat < stale or self.finished.is_set()
            if interval and alive:
                sd_notify("WATCHDOG=1")
            sd_notify("STATUS=" + self.status_line())
        sd_notify("STOPPING=1")
        return 1 if self.error is not None else 0

    def status_line(self) -> str:
        s = self.stats
        scores = "-".join(str(x) for x in self.session.state.scores) if self.session else "?"
        return (f"{s.status}; frames {s.frames} ({s.fps():.1f} fps); steps {s.steps}; "
                f"score {scores}; phase {self.session.state.phase if self.session else '?'}")

    def stop(self) -> None:
        self.stop_event.set()

    def close(self) -> None:
        self.stop_event.set()
        if self.server is not None:
            try:
                from web.serve import stop

                stop(self.web_app, self.server)
            except Exception as exc:  # noqa: BLE001
                log.debug("web close: %s", exc)
        if self.session is not None:
            self.session.close()
        for thread in self.threads:
            thread.join(timeout=2.0)
        for out in [*self.outputs, self.buttons]:
            close = getattr(out, "close", None)
            if close is not None:
                try:
                    close()
                except Exception as exc:  # noqa: BLE001
                    log.debug("close %s: %s", out, exc)
        if self.session is not None:
            self.session.store.close()


class _Stop(Exception):
    """The companion is stopping: leave the table loop."""


def load_classifier(*, simulated: bool) -> tuple[Any, str]:
    """The shipped ONNX model; when there is none, the simulated table's deck can still be read
    by the template stand-in (real cards cannot: the log says so)."""
    import importlib.util

    spec = importlib.util.find_spec("vision")
    shipped = Path(spec.origin).parent.parent / "models" / "cards.onnx" if spec and spec.origin else None
    if shipped is not None and not shipped.is_file():
        why = f"no model file {shipped.parent.name}/{shipped.name}"  # skip importing onnxruntime for nothing
    else:
        try:
            from vision.classify import load_default_classifier

            return load_default_classifier(threads=1), "onnx model (vision.classify)"
        except Exception as exc:  # noqa: BLE001 - no model file, or onnxruntime missing
            why = f"{type(exc).__name__}: {exc}"
    from vision.render import CARD_IDS
    from vision.simtable import default_card_art
    from vision.template_classifier import TemplateClassifier

    if not simulated:
        log.warning("no card model (%s): only the simulated deck can be read; use the phone to enter cards", why)
    # the stand-in compares 24x34 thumbnails: faces drawn at 1.5 px/mm are plenty, and quick to draw
    clf = TemplateClassifier.from_art([*CARD_IDS, "back"], default_card_art(px_per_mm=1.5))
    return clf, f"template stand-in taught the simulated deck (no model: {why})"
