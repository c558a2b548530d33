"""The running table's loop and its health: frames -> vision pipeline -> session, the figures the
watchdog and the status line read, and systemd's notify protocol.

:class:`TableLoop` reads a frame source through ``vision.sources.ResilientSource`` (a camera that
fails is reopened with back-off; broken and black frames are dropped) and hands the pipeline's
table events to the session. ``pegpi.companion`` puts it together with the outputs and the phones.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from device.session import Session
from vision.errors import FrameError
from vision.events import TableEvent
from vision.pipeline import TablePipeline
from vision.preview import JpegPreview
from vision.sources import Frame, FrameSource, ResilientSource

log = logging.getLogger("pegpi")


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


# --------------------------------------------------------------------------------- the table loop


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


class Stopped(Exception):
    """The companion is stopping: leave the table loop."""


class TableLoop:
    """Frames through the pipeline into the session, counted in ``stats``, until ``stop`` is set."""

    def __init__(self, session: Session, pipeline: TablePipeline | None, *, stats: Stats,
                 stop: threading.Event, preview: JpegPreview | None = None,
                 observer: Callable[[Sequence[TableEvent]], object] | None = None) -> None:
        self.session = session
        self.pipeline = pipeline
        self.stats = stats
        self.stop = stop
        self.preview = preview
        #: told every frame's table events before the session is (the simulated table's referee)
        self.observer = observer
        #: takes the frames instead of the game while it returns True (the enrolment mode); the
        #: game's pipeline learns the empty mat again once it gives them back
        self.divert: Callable[[Frame], bool] | None = None
        self._diverted = False

    def process(self, frame: Frame, *, input: str | None = None) -> None:
        """One frame: its table events go to the session (what they lead to is stored with the tag
        ``input``); an unusable frame is counted and dropped."""
        pipeline = self.pipeline
        assert pipeline is not None, "a loop without a pipeline plays events, not frames"
        if self._divert(frame):
            return
        try:
            result = pipeline.process(frame.image, frame.t)
        except FrameError as exc:
            self.stats.dropped += 1
            log.debug("frame dropped: %s", exc)
            return
        if self.preview is not None:
            self.preview.show(frame)
        self.stats.frame_done()
        if result.status != self.stats.status:
            self.stats.status = result.status
        if result.events:
            self.stats.events += len(result.events)
            for event in result.events:
                log.debug("table: %s", event)
            if self.observer is not None:
                self.observer(result.events)
            self.session.table_events(result.events, input=input)
        elif result.status == "ok":
            on_table = pipeline.tracker.on_table()
            if not on_table and self.session.state.phase == "deal":
                self.session.table_events([], on_table=on_table, input=input)

    def _divert(self, frame: Frame) -> bool:
        taken = False
        if self.divert is not None:
            try:
                taken = self.divert(frame)
            except FrameError as exc:
                self.stats.dropped += 1
                log.debug("frame dropped: %s", exc)
                return True
        if taken:
            if self.preview is not None:
                self.preview.show(frame)
            self.stats.frame_done()
        elif self._diverted and self.pipeline is not None:
            self.pipeline.relearn()  # the mat was changed for enrolment: learn it anew
        self._diverted = taken
        return taken

    def run_camera(self, source: FrameSource) -> None:
        """Read ``source`` until it ends or the loop stops; a failing camera is reported and reopened."""

        def report(problem: str) -> None:
            log.warning("camera: %s", problem)
            self.stats.problems.append(problem)
            self.stats.status = f"camera: {problem}"
            self.stats.tick()  # the loop is alive, waiting for the camera

        resilient = ResilientSource(source, report=report, sleep=self.sleep)
        try:
            resilient.open()
            while not self.stop.is_set():
                frame = resilient.read()
                if frame is None:
                    return
                self.process(frame)
        except Stopped:
            return
        finally:
            resilient.close()

    def sleep(self, seconds: float) -> None:
        """Wait, beating the watchdog; raises :class:`Stopped` when the companion stops meanwhile."""
        end = time.monotonic() + seconds
        while not self.stop.is_set() and time.monotonic() < end:
            self.stats.tick()
            self.stop.wait(min(0.5, end - time.monotonic()))
        if self.stop.is_set():
            raise Stopped
