"""The composition root: one running table assembled from the config.

:class:`Companion` builds every part and starts their threads:

- the **session** over the event store (``device.session``), with the demo's or a script's game;
- the **frame source** by its spec (``vision.sources.open_source``: ``picamera``, ``camera:N``,
  ``/dev/videoN``, ``video:FILE``, ``folder:DIR``...), or the demo's simulated table and players
  (``demo``, ``sim``, ``script:FILE``, in ``device.demo``);
- the **vision pipeline** with the shipped card model, and the **table loop** (``device.runtime``)
  that feeds the session from it;
- the **outputs**: the board on the OLED, the LEDs, the strip, the count said aloud when a
  speaker is configured (``device.outputs.BoardFeed`` follows the session for them) and the buttons;
- the **web server** (waitress, in threads) serving the phones from the same session;
- the **main thread** tells systemd it is ready and feeds its watchdog, but only while the table
  loop is alive, so a hung loop gets the service restarted.

Missing hardware degrades: no OLED, no LEDs, no buttons or no web are warnings in the log.
"""

from __future__ import annotations

import gc
import importlib.util
import logging
import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from device.board.outputs import Output
from device.buttons import ButtonPanel
from device.config import store_path
from device.demo import DemoPlayers, SimCamera, demo_record, load_script, next_demo_game
from device.display import BoardDisplay
from device.enrolment import EnrolmentMode
from device.errors import CompanionError
from device.leds import TableLights
from device.memory import release_free_memory
from device.outputs import BoardFeed
from device.protocols.script import record_to_script, resume_point
from device.runtime import Stats, TableLoop, sd_notify, watchdog_interval
from device.session import Session
from device.speech import CountVoice, SpeechConfig
from device.store import Store
from device.strip import PegStrip
from games.decktet import DECKTET
from games.engine import Game
from games.errors import PegpiError
from games.jsontypes import JSONObject
from vision.album import CropAlbum
from vision.api import ASK_BELOW, CardClassifier
from vision.enrol_session import CARD_SETS, DeckReader
from vision.enroll import list_decks, load_decks
from vision.errors import LayoutError
from vision.mat import layout_for, mat_paper
from vision.pipeline import PipelineConfig, TablePipeline
from vision.preview import JpegPreview
from vision.render import CARD_IDS
from vision.simcamera import simulated_decktet
from vision.simtable import default_card_art
from vision.sources import FrameSource, SourceSettings, open_source, split_spec
from vision.template_classifier import TemplateClassifier
from vision.track import TrackerConfig
from web import create_app
from web.netaddr import phone_urls
from web.serve import make_server
from web.serve import stop as stop_server

log = logging.getLogger("pegpi")

#: specs played by the demo's players rather than read from a camera
DEMO_SCHEMES = ("demo", "sim")
SCRIPT_SCHEME = "script"
#: seconds between handing the heap's free pages back to the system (:func:`release_free_memory`)
TRIM_EVERY_S = 2.0


def picamera_available() -> bool:
    return importlib.util.find_spec("picamera2") is not None


def resolve_source(source: str) -> str:
    """``auto`` is the Pi camera when picamera2 is installed, else the demo."""
    if source == "auto":
        return "picamera" if picamera_available() else "demo"
    return source


def load_classifier(*, simulated: bool, deck: str = "french52") -> tuple[CardClassifier, str]:
    """The shipped ONNX model; when there is none, the simulated table's deck can still be read
    by the template stand-in (real cards cannot: the log says so). On the simulated table a
    Decktet game's cards are read through the simulated Decktet, enrolled once."""
    decktet = deck.startswith("decktet")
    spec = importlib.util.find_spec("vision")
    shipped = Path(spec.origin).parent.parent / "models" / "cards.onnx" if spec and spec.origin else None
    if shipped is not None and not shipped.is_file():
        why = f"no model file {shipped.parent.name}/{shipped.name}"  # skip importing onnxruntime for nothing
    else:
        try:
            from vision.classify import load_default_classifier  # heavy: onnxruntime

            model = load_default_classifier(threads=1)
            if simulated and decktet:
                model.add_deck(simulated_decktet(model))
                return model, "onnx model (vision.classify) with the simulated Decktet enrolled"
            return model, "onnx model (vision.classify)"
        except Exception as exc:  # noqa: BLE001 - no model file, or onnxruntime missing
            why = f"{type(exc).__name__}: {exc}"
    if not simulated:
        log.warning("no card model (%s): only the simulated deck can be read; use the phone to enter cards", why)
    # the stand-in compares 24x34 thumbnails: faces drawn at 1.5 px/mm are plenty, and quick to draw
    names = [*CARD_IDS, "back"] + ([c.name for c in DECKTET] if decktet else [])
    clf = TemplateClassifier.from_art(names, default_card_art(px_per_mm=1.5))
    return clf, f"template stand-in taught the simulated deck (no model: {why})"


def _add_enrolled_decks(reader: DeckReader, game_deck: str) -> None:
    """Every deck enrolled on this device (``pegpi enroll``, or from a phone) whose cards belong
    to a game played with ``game_deck`` (:func:`deck_fits`), read from now on; one that cannot be
    loaded is left out, with a warning."""
    for name in list_decks():
        try:
            deck = load_decks([name])[0]
        except (PegpiError, OSError, ValueError, KeyError) as exc:
            log.warning("enrolled deck %s left out: %s", name, exc)
            continue
        if deck_fits(deck.labels, game_deck):
            reader.add_deck(deck)
            log.info("enrolled deck: %s", name)
        else:
            log.info("enrolled deck %s is not read in this game: its cards are not %s cards", name, game_deck)


#: the names an enrolled deck's cards may have in a Decktet game, and in every other game
DECKTET_NAMES = frozenset(CARD_SETS["decktet"] or ())
FRENCH_NAMES = frozenset(CARD_SETS["jokers"] or ())


def deck_fits(names: Sequence[str], game_deck: str) -> bool:
    """Whether an enrolled deck naming ``names`` belongs to a game played with ``game_deck``: a
    Decktet game's decks name Decktet cards; every other game is played with French cards and takes
    only decks of French cards (one the model reads poorly), as another deck's cards (the
    Decktet's) in its reader would only be read in place of French ones, and a reader holding
    them cannot search a photo by its French indices."""
    known = DECKTET_NAMES if game_deck.startswith("decktet") else FRENCH_NAMES
    return all(n in known for n in names)


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
    game: str | None = None  # the demo's game (default: the config's [demo] game, or cribbage)
    cycle: bool = False  # the demo plays every game in turn (device.demo.demo_games), one after another
    grey_camera: bool = False  # the demo's camera shows no colour (as a NoIR module)
    source_factory: Callable[[str], FrameSource] | None = None  # tests: a frame source for a source spec


class Companion:
    """One running table. ``start()``, then ``serve()`` until ``stop()`` (or a signal)."""

    def __init__(self, config: Mapping[str, Any], options: Options) -> None:
        self.config = config
        self.options = options
        self.source_name = resolve_source(options.source)
        self.scheme, self.target = split_spec(self.source_name)
        self.demo = self.scheme in DEMO_SCHEMES
        self.scripted = self.scheme == SCRIPT_SCHEME
        self.stats = Stats()
        self.stop_event = threading.Event()
        self.finished = threading.Event()
        self.session: Session | None = None
        self.db_path: Path | None = None
        self.threads: list[threading.Thread] = []
        self.server: Any = None  # waitress's server (untyped)
        self.web_app: Any = None
        self.url: str | None = None
        self.urls: list[str] = []  # every address phones may open (the LAN's), the first is url
        self.outputs: list[Output] = []
        self.buttons: ButtonPanel | None = None
        self.error: BaseException | None = None
        self.expected: JSONObject | None = None  # the demo's record, to compare at the end
        self.first_game = ""  # the demo's first game (``--all`` plays the cycle from it)
        self.steps: list[JSONObject] = []  # the placement script the demo and the script runs play
        self.pipeline: TablePipeline | None = None
        #: teaching the card model a deck from a phone (it gets the model once the pipeline has it)
        self.enrolment = EnrolmentMode(None, paper=str((config.get("table") or {}).get("paper", "A3")))
        self.classifier_name = "none"
        #: the card model loaded, with what it was loaded for (simulated?, deck): the demo's next
        #: game on the same deck reads with it rather than loading a second copy
        self._model: tuple[tuple[bool, str], CardClassifier, str] | None = None
        self.preview = JpegPreview()

    @property
    def simulated(self) -> bool:
        """A simulated table (the demo or a script): no camera, and no OLED on a desktop's I2C bus."""
        return self.demo or self.scripted

    # ------------------------------------------------------------------ start-up

    def start(self) -> None:
        source = None if self.simulated else self._source()  # a spec that names no source stops here
        session = self.session = self._open_session()
        self._open_outputs(session)
        self._start_web(session)
        if not (self.scripted or (self.demo and not self.options.frames)):
            self.pipeline = self._pipeline(demo=self.demo)  # the model, before READY
        # the thread takes the loop out of a list: a closure holding the loop itself would keep the
        # first game's pipeline (its mat images and its model) alive through every later demo game
        first = [self._loop(session)]
        self._spawn("pegpi-table", lambda: self._table_loop(first.pop(), source))
        feed = BoardFeed(session, self.outputs, guard=self._guard)
        self._spawn("pegpi-outputs", feed.run)
        self.stats.ready_at = time.monotonic()
        self.stats.status = "ready"
        self.stats.tick()

    def _open_session(self) -> Session:
        cfg = self.config
        table = cfg["table"]
        game, players, options = table["game"], list(table["players"]), dict(table.get("options") or {})
        if self.demo:
            name = self.options.game or cfg.get("demo", {}).get("game", "cribbage")
            self.expected = demo_record(name, self.options.seed, players)
            self.first_game = str(self.expected["game"])
            self.steps = record_to_script(self.expected)
        elif self.scripted:
            self.expected, self.steps = load_script(self.target)
        if self.expected is not None:
            game, players = self.expected["game"], list(self.expected.get("players", players))
            options = self.expected.get("options") or {}
        path = Path(self.options.db) if self.options.db else store_path(cfg)
        max_mb = float(cfg.get("store", {}).get("max_mb", 0) or 0)
        store = Store(path, max_bytes=int(max_mb * 1024 * 1024))
        session = Session(store, game=game, players=players, options=options,
                          confidence=float(table.get("confidence", ASK_BELOW)))
        current = session.game
        if self.expected is not None and (current.spec.name != self.expected["game"]
                                          or list(current.players) != list(self.expected["players"])
                                          or (self.demo and not self._resumes_demo(session))):
            # a script or the demo resumes its own unfinished game after a restart (a power cut);
            # another demo, a finished one or another game starts anew (earlier games stay stored)
            session.new_game(self.expected["game"], list(self.expected["players"]),
                             self.expected.get("options") or {})
            if self.demo:
                session.store.set_meta("demo", self._demo_key(session.game_id))
        self.db_path = path
        return session

    def _demo_key(self, game_id: int) -> str:
        return f"{game_id} {self.options.seed} {'frames' if self.options.frames else 'events'}"

    def _resumes_demo(self, session: Session) -> bool:
        """The store's current game is this demo's and unfinished: it goes on from the script step
        the store got to (both demos tag what each step led to; the camera starts from that step,
        and a card the game already holds is not applied again)."""
        return session.store.meta("demo") == self._demo_key(session.game_id) and not session.state.is_over

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

    def _open_outputs(self, session: Session) -> None:
        cfg = self.config
        display_cfg = dict(cfg.get("display") or {})
        if self.options.display is not None:
            display_cfg["driver"] = self.options.display
        elif self.simulated:
            display_cfg.setdefault("driver", "none")  # a desktop has no OLED on its I2C bus
        board: BoardDisplay | None = None
        try:
            board = BoardDisplay.from_config(display_cfg)
            self.outputs.append(board)
            if board.device is not None:
                board.notice(["pair a phone with", "code"], big=session.pairing_code)
        except ImportError as exc:
            log.warning("display: not available (%s)", exc)
        hardware = not self.simulated
        if hardware or "leds" in cfg:
            try:
                self.outputs.append(TableLights(cfg.get("leds")))
            except ImportError as exc:
                log.warning("leds: not available (%s)", exc)
        if hardware or "buttons" in cfg:
            try:
                self.buttons = ButtonPanel(session, cfg.get("buttons"), screen=board)
            except ImportError as exc:
                log.warning("buttons: not available (%s)", exc)
        speech = SpeechConfig.from_mapping(cfg.get("speech"))
        if speech.wanted:
            try:
                self.outputs.append(CountVoice(speech))
            except CompanionError as exc:
                log.warning("%s", exc)
        if (cfg.get("strip") or {}).get("enabled"):
            try:
                self.outputs.append(PegStrip(cfg.get("strip"), sides=len(session.game.sides())))
            except ImportError as exc:
                log.warning("strip: not available (%s)", exc)

    def _start_web(self, session: Session) -> None:
        if self.options.web is None:
            return
        host, port = self.options.web
        threads = int(self.config.get("web", {}).get("threads", 136))
        app = self.web_app = create_app({"SECRET_KEY": self._web_secret(session)}, service=session,
                                        enrolment=self.enrolment)
        try:
            self.server = make_server(app, host=host, port=port, threads=threads)
        except OSError as exc:
            if self.demo and port != 0:  # the demo must start anywhere: any free port
                log.warning("web: port %d is taken (%s); the demo uses a free one", port, exc.strerror)
                self.options.web = (host, 0)
                self._start_web(session)
                return
            raise CompanionError(f"web: cannot listen on {host}:{port} ({exc.strerror}); "
                                 "choose another with --web HOST:PORT, or --no-web") from exc
        self.urls = phone_urls(host, self.server.effective_port)  # the LAN's, never localhost
        self.url = self.urls[0]
        if self.buttons is not None:
            self.buttons.address = self.url
        self._spawn("pegpi-web", self.server.run)

    @staticmethod
    def _web_secret(session: Session) -> str:
        """The key that signs the phones' cookies, kept in the store so that paired phones stay
        paired across a restart (the pairing code itself is kept there too)."""
        secret = session.store.meta("web_secret")
        if secret is None:
            secret = secrets.token_hex(32)
            session.store.set_meta("web_secret", secret)
        return secret

    def _pipeline(self, *, demo: bool) -> TablePipeline:
        assert self.session is not None
        game = self.session.game
        try:
            layout = layout_for(game.spec.table, game.num_players, self._paper(game))
        except LayoutError as exc:
            # a table whose mat has no room for the game's seats (every catalogue game's has, four-
            # hand Gin's included): the camera keeps a plain grid so its preview still works
            log.warning("%s: %s is scored from the phone", exc, game.spec.title)
            layout = layout_for("layout", min(max(game.num_players, 1), 8), "A3")
        wanted = (demo, game.spec.deck)
        if self._model is not None and self._model[0] == wanted:
            _, classifier, name = self._model  # the demo's next game reads the same deck
        else:
            self._model = None  # the model of another deck goes before this one is loaded
            classifier, name = load_classifier(simulated=demo, deck=game.spec.deck)
            if isinstance(classifier, DeckReader):
                _add_enrolled_decks(classifier, game.spec.deck)
            self._model = (wanted, classifier, name)
        log.info("classifier: %s", name)
        self.classifier_name = name
        album = None
        if self.options.keep_crops:
            try:
                album = CropAlbum(self.options.keep_crops)
            except OSError as exc:
                raise CompanionError(f"cannot keep card crops in {self.options.keep_crops}: {exc}") from None
            log.info("keeping the crop of every card read in %s", album.folder)
        # a card read below the asking threshold is looked at again before the players are asked
        config = PipelineConfig(tracker=TrackerConfig(look_again=self.session.confidence))
        return TablePipeline(layout, classifier, config, album=album)

    # ------------------------------------------------------------------ the table loop

    def _table_loop(self, loop: TableLoop, source: FrameSource | None) -> None:
        while True:
            players = DemoPlayers(loop, speed=self.options.speed)
            if self.scripted:
                players.play_events(self.steps)
            elif self.demo and self.options.frames:
                players.play_frames(self._sim_camera(loop.session))
            elif self.demo:
                players.play_events(self.steps, pace=True)
            else:
                assert source is not None
                loop.run_camera(source)
            if not (self.demo and self.options.cycle) or self.stop_event.is_set():
                break
            if self.options.quit_at_end and next_demo_game(loop.session.game.spec.name) == self.first_game:
                break  # every game played once
            loop = self._next_demo_game(loop)
        self.stats.status = "game over" if loop.session.state.is_over else "source ended"
        self.finished.set()
        if self.options.quit_at_end:
            self.stop_event.set()

    def _next_demo_game(self, loop: TableLoop) -> TableLoop:
        """``--all``: the next game of the demo's cycle, on its own mat (a new pipeline)."""
        session = loop.session
        players = list(self.config["table"]["players"])
        self.expected = demo_record(next_demo_game(session.game.spec.name), self.options.seed, players)
        self.steps = record_to_script(self.expected)
        session.new_game(self.expected["game"], list(self.expected["players"]), self.expected.get("options") or {})
        session.store.set_meta("demo", self._demo_key(session.game_id))
        log.info("demo: next game, %s", session.game.spec.title)
        if self.pipeline is not None:
            self._drop_pipeline(loop)
            self.pipeline = self._pipeline(demo=True)
        return self._loop(session)

    def _drop_pipeline(self, loop: TableLoop) -> None:
        """Let the finished game's pipeline go, and every hook to it, before the next is built: else
        two pipelines (mat images, tracker, model) are in memory at once, raising the peak."""
        self.pipeline = loop.pipeline = None
        loop.session.on_resolved = None
        self.enrolment.reader = self.enrolment.on_deck = None
        gc.collect()  # whatever of it lies in reference cycles
        release_free_memory()  # and the C heap's pages it held back to the system

    def _loop(self, session: Session) -> TableLoop:
        """The table loop of :attr:`pipeline`, wired to the session and the enrolment: every hook
        points at this pipeline (one left at a game's before would keep that pipeline alive, and
        teach it the players' corrections instead)."""
        pipeline = self.pipeline
        session.on_resolved = pipeline.corrected if pipeline is not None else None  # the camera learns a named card
        loop = TableLoop(session, pipeline, stats=self.stats, stop=self.stop_event, preview=self.preview)
        if pipeline is not None and isinstance(pipeline.classifier, DeckReader):
            reader = pipeline.classifier
            self.enrolment.reader, self.enrolment.on_deck = reader, reader.add_deck
            loop.divert = self.enrolment.take_frame
        return loop

    def _camera_settings(self) -> SourceSettings:
        cam = self.config.get("camera", {})
        return SourceSettings(width=int(cam.get("width", 1280)), height=int(cam.get("height", 720)),
                              fps=float(cam.get("fps", 30)))

    def _source(self) -> FrameSource:
        if self.options.source_factory is not None:
            return self.options.source_factory(self.source_name)
        return open_source(self.source_name, self._camera_settings())

    def _paper(self, game: Game) -> str:
        """The configured paper, or the smallest larger one the game's mat needs."""
        return mat_paper(game.spec.table, game.num_players, str(self.config["table"].get("paper", "A3")))

    def _sim_camera(self, session: Session) -> SimCamera:
        """The demo's camera: the placement script rendered by the simulated table, in another
        process (as a real camera is another device), from the step the stored game got to."""
        game = session.game
        return SimCamera({"steps": self.steps, "table": game.spec.table, "seats": game.num_players,
                          "paper": self._paper(game), "title": game.spec.title,
                          "fps": self._camera_settings().fps, "seed": self.options.seed,
                          "start": resume_point(session), "grey": self.options.grey_camera})

    # ------------------------------------------------------------------ running and stopping

    def serve(self) -> int:
        """Tell systemd we are ready, feed the watchdog while the table loop lives, until stopped."""
        assert self.session is not None, "start() first"
        self.session.set_frame_provider(self.preview.jpeg)
        interval = watchdog_interval(float(self.config.get("watchdog", {}).get("interval", 0) or 0))
        sd_notify("READY=1\nSTATUS=" + self.status_line())
        tick = min(interval or 1.0, 1.0)
        stale = 3 * interval if interval else 10.0  # the table loop beats at every frame and while it waits
        trimmed = time.monotonic()
        while not self.stop_event.wait(tick):
            now = time.monotonic()
            alive = now - self.stats.beat < stale or self.finished.is_set()
            if interval and alive:
                sd_notify("WATCHDOG=1")
            if now - trimmed >= TRIM_EVERY_S:  # the heap's free pages back: resident memory stays flat
                release_free_memory()
                trimmed = now
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
                stop_server(self.web_app, self.server)
            except Exception as exc:  # noqa: BLE001
                log.debug("web close: %s", exc)
        if self.session is not None:
            self.session.close()
        for thread in self.threads:
            thread.join(timeout=2.0)
        for out in [*self.outputs, self.buttons]:
            if out is not None:
                try:
                    out.close()
                except Exception as exc:  # noqa: BLE001
                    log.debug("close %s: %s", out, exc)
        if self.session is not None:
            self.session.store.close()
