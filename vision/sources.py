"""Frame sources behind one small interface, and a wrapper that survives their failures.

A source is opened, read frame by frame, and closed (a context manager does both). ``read()``
returns the next :class:`Frame`, returns ``None`` when a finite source (a video file, a folder, a
simulated game) has ended, and raises :class:`~vision.errors.SourceError` when it fails.
:class:`ResilientSource` wraps any source: it drops broken and black frames, and when the
source fails it reports why and reopens it with growing back-off, so nothing crashes when a
camera is unplugged.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, Self

import numpy as np

if TYPE_CHECKING:
    import cv2

from vision.errors import FrameError, ImageFileError, SourceError

FRAME_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp")


@dataclass(frozen=True, slots=True)
class Frame:
    """A BGR ``uint8`` image and the time (seconds) it was taken."""

    image: np.ndarray
    t: float
    index: int = 0


class FrameSource(Protocol):
    name: str

    def open(self) -> None: ...

    def read(self) -> Frame | None: ...

    def close(self) -> None: ...


class _Base:
    name = "source"

    def __enter__(self) -> Self:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def open(self) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def read(self) -> Frame | None:  # pragma: no cover - overridden
        raise NotImplementedError

    def close(self) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def __iter__(self) -> Iterator[Frame]:
        while (frame := self.read()) is not None:
            yield frame


def check_frame(image: object, source: str = "frame") -> np.ndarray:
    """The image if it is a usable BGR frame; else :class:`FrameError` saying what is wrong."""
    if not isinstance(image, np.ndarray) or image.size == 0:
        raise FrameError(f"{source}: empty or missing frame")
    if image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] != 3:
        raise FrameError(f"{source}: not a BGR uint8 image but {image.dtype} {image.shape}")
    if float(image[::8, ::8].mean()) < 4.0:
        raise FrameError(f"{source}: black frame (lens covered, or the camera gives no picture)")
    return image


class CaptureSource(_Base):
    """An OpenCV capture: a camera index (``/dev/video0`` is 0) or a video file."""

    def __init__(self, target: int | str, *, width: int = 1280, height: int = 720, fps: float = 30.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.target = target
        self.name = f"camera {target}" if isinstance(target, int) else f"video {Path(str(target)).name}"
        self.size = (width, height)
        self.fps = fps
        self._clock = clock
        self._cap: cv2.VideoCapture | None = None
        self._index = 0
        self._live = isinstance(target, int)

    def open(self) -> None:
        import cv2

        if not self._live and not Path(str(self.target)).is_file():
            raise SourceError(f"{self.name}: no such file {str(self.target)!r}")
        cap = cv2.VideoCapture(self.target)
        if not cap.isOpened():
            cap.release()
            raise SourceError(f"{self.name}: cannot open (unplugged, busy, or not a video)")
        if self._live:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
            cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # the newest frame, not a queue of old ones
        self._cap = cap
        self._index = 0

    def read(self) -> Frame | None:
        if self._cap is None:
            raise SourceError(f"{self.name}: read before open")
        ok, image = self._cap.read()
        if not ok:
            if self._live:
                raise SourceError(f"{self.name}: stopped giving frames (unplugged?)")
            return None
        t = self._clock() if self._live else self._index / self.fps
        self._index += 1
        return Frame(image, t, self._index - 1)

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class FolderSource(_Base):
    """Image files of a folder in name order, timed at ``fps``."""

    def __init__(self, folder: str | Path, fps: float = 30.0) -> None:
        self.folder = Path(folder)
        self.name = f"folder {self.folder.name}"
        self.fps = fps
        self._files: list[Path] = []
        self._index = 0

    def open(self) -> None:
        if not self.folder.is_dir():
            raise SourceError(f"{self.name}: no such folder {str(self.folder)!r}")
        self._files = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in FRAME_SUFFIXES)
        if not self._files:
            raise SourceError(f"{self.name}: no {'/'.join(FRAME_SUFFIXES)} images in it")
        self._index = 0

    def read(self) -> Frame | None:
        from vision.images import read_image

        if self._index >= len(self._files):
            return None
        path = self._files[self._index]
        index = self._index
        self._index += 1
        try:
            image = read_image(path)
        except ImageFileError as exc:
            raise FrameError(f"{self.name}: cannot read image {path.name!r}: {exc.reason}") from None
        return Frame(image, index / self.fps, index)

    def close(self) -> None:
        self._files = []


class PiCameraSource(_Base):
    """The Raspberry Pi camera through picamera2 (only importable on a Pi)."""

    def __init__(self, *, width: int = 1280, height: int = 720, clock: Callable[[], float] = time.monotonic) -> None:
        self.name = "picamera2"
        self.size = (width, height)
        self._clock = clock
        self._camera = None
        self._index = 0

    def open(self) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError as exc:
            raise SourceError("picamera2: not installed (it comes from apt on a Raspberry Pi)") from exc
        try:
            camera = Picamera2()
            config = camera.create_video_configuration(main={"size": self.size, "format": "BGR888"})
            camera.configure(config)
            camera.start()
        except Exception as exc:  # picamera2 raises plain RuntimeError/IndexError when no camera is attached
            raise SourceError(f"picamera2: cannot start the camera ({exc})") from exc
        self._camera = camera

    def read(self) -> Frame | None:
        if self._camera is None:
            raise SourceError("picamera2: read before open")
        try:
            image = self._camera.capture_array("main")
        except Exception as exc:
            raise SourceError(f"picamera2: capture failed ({exc})") from exc
        self._index += 1
        return Frame(np.ascontiguousarray(image[..., :3]), self._clock(), self._index - 1)

    def close(self) -> None:
        if self._camera is not None:
            try:
                self._camera.stop()
                self._camera.close()
            finally:
                self._camera = None


class IterSource(_Base):
    """Any iterable of frames (the simulated table, a list in a test) as a source."""

    def __init__(self, frames: Callable[[], Iterator[Frame]], name: str = "frames") -> None:
        self.name = name
        self._make = frames
        self._it: Iterator[Frame] | None = None

    def open(self) -> None:
        self._it = self._make()

    def read(self) -> Frame | None:
        if self._it is None:
            raise SourceError(f"{self.name}: read before open")
        return next(self._it, None)

    def close(self) -> None:
        self._it = None


class ResilientSource(_Base):
    """Wraps a source: skips broken/black frames, reopens a failed source with back-off.

    ``report`` is told each problem in words; ``sleep`` waits (tests pass a fake). After
    ``max_bad`` bad frames in a row the source is reopened too, and so it is after ``max_frozen``
    identical frames in a row (a live camera's picture always has some noise; a stuck driver
    repeats itself). A finite source that ends, ends."""

    def __init__(self, source: FrameSource, *, report: Callable[[str], None] = print,
                 sleep: Callable[[float], None] = time.sleep, backoff: tuple[float, float] = (0.5, 8.0),
                 max_bad: int = 30, max_frozen: int | None = None, max_reopens: int | None = None) -> None:
        self.source = source
        self.name = f"resilient {source.name}"
        self._report = report
        self._sleep = sleep
        self._backoff = backoff
        self._max_bad = max_bad
        self._max_reopens = max_reopens
        self._max_frozen = max_frozen
        self._last_look = b""
        self._same = 0
        self._opened = False
        self.reopens = 0

    def open(self) -> None:
        self._delay = self._backoff[0]
        self._ensure_open()

    def _ensure_open(self) -> None:
        while not self._opened:
            try:
                self.source.open()
                self._opened = True
                self._delay = self._backoff[0]
            except SourceError as exc:
                self._give_up_or_wait(str(exc))

    def _give_up_or_wait(self, why: str) -> None:
        if self._max_reopens is not None and self.reopens >= self._max_reopens:
            raise SourceError(f"{self.source.name}: gave up after {self.reopens} reopens: {why}")
        self._report(f"{why}; retrying in {self._delay:.1f} s")
        self._sleep(self._delay)
        self._delay = min(self._delay * 2, self._backoff[1])
        self.reopens += 1

    def read(self) -> Frame | None:
        bad = 0
        while True:
            self._ensure_open()
            try:
                frame = self.source.read()
                if frame is None:
                    return None
                check_frame(frame.image, self.source.name)
                if self._max_frozen is not None:
                    self._check_frozen(frame.image)
                return frame
            except FrameError as exc:
                bad += 1
                if bad < self._max_bad:
                    continue
                self._report(f"{exc} ({bad} bad frames in a row); reopening")
            except SourceError as exc:
                self._report(str(exc))
            self._reset()
            self._give_up_or_wait(f"{self.source.name}: reopening")
            bad = 0

    def _check_frozen(self, image: np.ndarray) -> None:
        look = image[::23, ::29].tobytes()
        self._same = self._same + 1 if look == self._last_look else 0
        self._last_look = look
        if self._max_frozen is not None and self._same + 1 >= self._max_frozen:
            self._same = 0
            raise SourceError(f"{self.source.name}: frozen (the same picture for {self._max_frozen} frames)")

    def _reset(self) -> None:
        try:
            self.source.close()
        finally:
            self._opened = False

    def close(self) -> None:
        if self._opened:
            self._reset()


# --------------------------------------------------------------------------------- sources by name


@dataclass(frozen=True, slots=True)
class SourceSettings:
    """What a camera is asked for (a video file or a folder only takes ``fps``)."""

    width: int = 1280
    height: int = 720
    fps: float = 30.0


#: makes a source from the part of its spec after the scheme
SourceOpener = Callable[[str, SourceSettings], FrameSource]

_OPENERS: dict[str, SourceOpener] = {}
VIDEO_SUFFIXES = (".mp4", ".avi", ".mkv", ".mov", ".webm", ".h264", ".mjpeg")


def register_source(*schemes: str) -> Callable[[SourceOpener], SourceOpener]:
    """Decorator: the opener makes the sources whose spec starts with one of ``schemes``."""

    def add(opener: SourceOpener) -> SourceOpener:
        for scheme in schemes:
            _OPENERS[scheme] = opener
        return opener

    return add


def source_schemes() -> list[str]:
    """The schemes :func:`open_source` knows, sorted."""
    return sorted(_OPENERS)


def split_spec(spec: str) -> tuple[str, str]:
    """``"video:game.mp4"`` -> ``("video", "game.mp4")``; a bare word is a scheme with nothing after
    it (``"picamera"``); a path is ``/dev/videoN`` (a camera), a folder or a video file."""
    scheme, colon, rest = spec.partition(":")
    if colon and scheme.isidentifier():
        return scheme, rest
    if spec.isidentifier():
        return spec, ""
    if spec.startswith("/dev/video") and spec[len("/dev/video"):].isdigit():
        return "camera", spec[len("/dev/video"):]
    if Path(spec).is_dir():
        return "folder", spec
    if Path(spec).suffix.lower() in VIDEO_SUFFIXES:
        return "video", spec
    return "", spec


def open_source(spec: str, settings: SourceSettings | None = None) -> FrameSource:
    """The frame source a spec names, made but not opened (:class:`ResilientSource` opens it and
    reopens it when it fails). :class:`SourceError` names an unknown scheme and the known ones."""
    scheme, rest = split_spec(spec)
    opener = _OPENERS.get(scheme)
    if opener is None:
        raise SourceError(f"unknown frame source {spec!r}: use one of "
                          + ", ".join(f"{s}:" for s in source_schemes()) + ", a /dev/videoN, a folder or a video file")
    return opener(rest, settings or SourceSettings())


@register_source("picamera", "pi")
def _picamera(rest: str, settings: SourceSettings) -> FrameSource:
    return PiCameraSource(width=settings.width, height=settings.height)


@register_source("camera", "cam")
def _camera(rest: str, settings: SourceSettings) -> FrameSource:
    if not rest.isdigit():
        raise SourceError(f"a camera is its number, as in camera:0 (/dev/video0), not {rest!r}")
    return CaptureSource(int(rest), width=settings.width, height=settings.height, fps=settings.fps)


@register_source("video", "file")
def _video(rest: str, settings: SourceSettings) -> FrameSource:
    if not rest:
        raise SourceError("video: wants a file, as in video:game.mp4")
    return CaptureSource(rest, fps=settings.fps)


@register_source("folder")
def _folder(rest: str, settings: SourceSettings) -> FrameSource:
    if not rest:
        raise SourceError("folder: wants a folder of frames, as in folder:frames/")
    return FolderSource(rest, fps=settings.fps)
