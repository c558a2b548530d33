"""Frame sources: files, folders, a missing camera, and the resilient wrapper around a failing source."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.errors import FrameError, SourceError
from vision.sources import (
    CaptureSource,
    FolderSource,
    Frame,
    IterSource,
    PiCameraSource,
    ResilientSource,
    check_frame,
)


def picture(value: int) -> np.ndarray:
    image = np.full((48, 64, 3), value, np.uint8)
    cv2.putText(image, str(value), (5, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (255, 255, 255), 2)
    return image


def test_a_folder_is_read_in_name_order_and_a_broken_file_is_named(tmp_path):
    for i in (2, 0, 1):
        cv2.imwrite(str(tmp_path / f"f{i}.png"), picture(60 + i))
    (tmp_path / "notes.txt").write_text("not a frame")
    with FolderSource(tmp_path, fps=10) as source:
        frames = list(source)
    assert [f.index for f in frames] == [0, 1, 2]
    assert [f.t for f in frames] == pytest.approx([0.0, 0.1, 0.2])
    assert [int(f.image[2, 2, 0]) for f in frames] == [60, 61, 62]
    (tmp_path / "f3.png").write_bytes(b"\x89PNG broken")
    with FolderSource(tmp_path) as source, pytest.raises(FrameError, match="f3.png"):
        list(source)


def test_missing_folders_files_and_cameras_raise_source_errors(tmp_path):
    with pytest.raises(SourceError, match="no such folder"):
        FolderSource(tmp_path / "nope").open()
    with pytest.raises(SourceError, match="no .* images"):
        FolderSource(tmp_path).open()
    with pytest.raises(SourceError, match="no such file"):
        CaptureSource(str(tmp_path / "game.avi")).open()
    with pytest.raises(SourceError, match="camera 97: cannot open"):
        CaptureSource(97).open()
    with pytest.raises(SourceError, match="picamera2"):
        PiCameraSource().open()


def test_a_video_file_plays_through_and_ends(tmp_path):
    path = tmp_path / "game.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 30.0, (64, 48))
    for i in range(5):
        writer.write(picture(80 + 10 * i))
    writer.release()
    with CaptureSource(str(path), fps=30.0) as video:
        frames = list(video)
    assert len(frames) == 5
    assert frames[-1].t == pytest.approx(4 / 30)
    assert frames[0].image.shape == (48, 64, 3)


@pytest.mark.parametrize(("image", "message"), [
    (None, "empty"),
    (np.zeros((0, 0, 3), np.uint8), "empty"),
    (np.zeros((10, 10), np.uint8) + 100, "not a BGR"),
    (np.zeros((10, 10, 3), np.float32) + 100, "not a BGR"),
    (np.zeros((10, 10, 3), np.uint8), "black frame"),
])
def test_unusable_frames_are_named(image, message):
    with pytest.raises(FrameError, match=message):
        check_frame(image, "camera 0")


class Flaky:
    """A camera that fails to open twice, gives two frames, a black one, is unplugged, comes back."""

    name = "flaky camera"

    def __init__(self) -> None:
        self.opens = 0
        self.script: list = []

    def open(self) -> None:
        self.opens += 1
        if self.opens <= 2:
            raise SourceError("flaky camera: cannot open (unplugged)")
        if self.opens == 3:
            self.script = [picture(50), picture(51), np.zeros((48, 64, 3), np.uint8), picture(52), "unplug"]
        else:
            self.script = [picture(53), None]

    def read(self):
        item = self.script.pop(0)
        if isinstance(item, str):
            raise SourceError("flaky camera: stopped giving frames (unplugged?)")
        return None if item is None else Frame(item, float(self.opens), 0)

    def close(self) -> None:
        pass


def test_the_resilient_source_skips_bad_frames_and_reopens_with_backoff():
    problems, waits = [], []
    camera = Flaky()
    with ResilientSource(camera, report=problems.append, sleep=waits.append, backoff=(0.5, 1.5)) as source:
        values = [int(f.image[2, 2, 0]) for f in source]
    assert values == [50, 51, 52, 53]  # the black frame is dropped, nothing crashes
    assert camera.opens == 4
    assert waits == [0.5, 1.0, 0.5]  # doubling while it stays down; back to short once it worked
    assert any("cannot open" in p for p in problems) and any("stopped giving frames" in p for p in problems)


def test_the_resilient_source_can_give_up_with_a_clear_error():
    class Dead:
        name = "camera 3"

        def open(self):
            raise SourceError("camera 3: cannot open (unplugged, busy, or not a video)")

        def read(self):  # pragma: no cover - never opened
            return None

        def close(self):
            pass

    with pytest.raises(SourceError, match="gave up after 3 reopens"):
        ResilientSource(Dead(), report=lambda _: None, sleep=lambda _: None, max_reopens=3).open()


def test_an_iterable_becomes_a_source_and_must_be_opened():
    frames = [Frame(picture(70), 0.0, 0), Frame(picture(71), 0.1, 1)]
    source = IterSource(lambda: iter(frames), name="two frames")
    with pytest.raises(SourceError, match="read before open"):
        source.read()
    with source:
        assert [f.index for f in source] == [0, 1]


def test_a_frozen_camera_is_reopened():
    still = picture(90)
    opened = []

    def frames():
        opened.append(True)
        if len(opened) == 1:
            return iter([Frame(still, i / 30, i) for i in range(10)])
        return iter([Frame(picture(91), 1.0, 0)])

    problems, waits = [], []
    source = ResilientSource(IterSource(frames, name="camera 0"), report=problems.append, sleep=waits.append,
                             max_frozen=4)
    with source:
        values = [int(f.image[2, 2, 0]) for f in source]
    assert values == [90, 90, 90, 91]  # the fourth identical picture is the frozen one
    assert any("frozen (the same picture for 4 frames)" in p for p in problems)
    assert len(opened) == 2 and waits == [0.5]


def test_sources_are_found_by_scheme(tmp_path):
    from vision.sources import SourceSettings, open_source, split_spec

    settings = SourceSettings(width=640, height=480, fps=12.0)
    for spec in ("camera:2", "cam:2", "/dev/video2"):
        source = open_source(spec, settings)
        assert isinstance(source, CaptureSource) and source.target == 2 and source.size == (640, 480)
    assert isinstance(open_source("picamera"), PiCameraSource)
    assert isinstance(open_source("pi:"), PiCameraSource)
    video = open_source("video:game.mp4", settings)
    assert isinstance(video, CaptureSource) and video.target == "game.mp4" and video.fps == 12.0
    assert isinstance(open_source("clip.MP4"), CaptureSource)
    folder = open_source(f"folder:{tmp_path}")
    assert isinstance(folder, FolderSource) and folder.folder == tmp_path
    assert isinstance(open_source(str(tmp_path)), FolderSource)
    assert split_spec("script:game.json") == ("script", "game.json")
    assert split_spec("demo") == ("demo", "")


@pytest.mark.parametrize("spec, message", [("webcam:0", "unknown frame source 'webcam:0'"),
                                           ("notes.txt", "unknown frame source"),
                                           ("camera:front", "camera:0"), ("video:", "wants a file")])
def test_an_unknown_source_is_named_with_the_known_schemes(spec, message):
    from vision.sources import open_source

    with pytest.raises(SourceError, match=message) as caught:
        open_source(spec)
    if "unknown" in message:
        assert "folder:" in str(caught.value) and "picamera:" in str(caught.value)
