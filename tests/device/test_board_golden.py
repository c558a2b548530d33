"""Golden pictures of the peg board, drawn through luma's ``dummy`` device as on the real OLED.

Each case renders one state and compares it pixel for pixel with a PNG in ``golden/``. After a
deliberate change of the drawing, look at the new pictures and refresh them with
``PEGPI_UPDATE_GOLDEN=1 python -m pytest tests/device/test_board_golden.py``.
A mismatch leaves the picture drawn under ``test-artifacts/golden/`` for a look.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from luma.core.device import dummy
from PIL import Image, ImageChops

from device.board import samples
from device.display import BoardDisplay
from games.view import TableView

GOLDEN = Path(__file__).parent / "golden"
ARTIFACTS = Path(__file__).parents[2] / "test-artifacts" / "golden"

NARROW = (128, 64)
SHORT = (128, 32)
WIDE = (256, 64)

BOARDS: list[tuple[str, Callable[[], TableView], tuple[int, int]]] = [
    ("start", samples.start, NARROW),
    ("mid-game", samples.mid_game, NARROW),
    ("play-count", samples.play, NARROW),
    ("thirty-one", samples.thirty_one, NARROW),
    ("show", samples.show, NARROW),
    ("four-players", samples.four_players, NARROW),
    ("over-skunk", samples.over_skunk, NARROW),
    ("bhargage-111", samples.bhargage, NARROW),
    ("bhargage-start10", samples.bhargage_start10, NARROW),
    ("question", samples.question, NARROW),
    ("score-table", samples.table, NARROW),
    ("start", samples.start, SHORT),
    ("play-count", samples.play, SHORT),
    ("show", samples.show, SHORT),
    ("four-players", samples.four_players, SHORT),
    ("over-skunk", samples.over_skunk, SHORT),
    ("three-players", samples.three_players, SHORT),
    ("partners", samples.partners, SHORT),
    ("three-players", samples.three_players, NARROW),
    ("partners", samples.partners, NARROW),
    ("score-table", samples.table, SHORT),
    ("play-count", samples.play, WIDE),
    ("show", samples.show, WIDE),
    ("four-players", samples.four_players, WIDE),
    ("over-skunk", samples.over_skunk, WIDE),
]

ANNOUNCEMENTS: list[tuple[str, Callable[[], TableView], tuple[int, int], int]] = [
    ("fifteen-2", samples.play, NARROW, 6),  # the settled last frame
    ("fifteen-2-moving", samples.play, NARROW, 3),  # the peg half way
    ("31-for-2", samples.thirty_one, NARROW, 6),
    ("go", samples.go, SHORT, 6),
    ("show", samples.show, NARROW, 6),
    ("show", samples.show, SHORT, 6),
    ("fifteen-2", samples.play, WIDE, 6),
]


def check_golden(name: str, image: Image.Image) -> None:
    picture = image.convert("L")
    path = GOLDEN / f"{name}.png"
    if os.environ.get("PEGPI_UPDATE_GOLDEN") == "1":
        GOLDEN.mkdir(parents=True, exist_ok=True)
        picture.save(path, optimize=True)
        return
    if not path.exists():
        pytest.fail(f"no golden picture {path.name}: run with PEGPI_UPDATE_GOLDEN=1 and look at it")
    with Image.open(path) as stored:
        expected = stored.convert("L")
    if expected.size != picture.size or ImageChops.difference(expected, picture).getbbox() is not None:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        picture.save(ARTIFACTS / f"{name}.png")
        pytest.fail(f"{name} differs from its golden picture; see test-artifacts/golden/{name}.png")


def size_name(size: tuple[int, int]) -> str:
    return f"{size[0]}x{size[1]}"


@pytest.mark.parametrize(("name", "make", "size"), BOARDS, ids=[f"{n}-{size_name(s)}" for n, _, s in BOARDS])
def test_board_matches_golden(name: str, make: Callable[[], TableView], size: tuple[int, int]) -> None:
    device = dummy(width=size[0], height=size[1])
    with BoardDisplay(device) as board:
        board.show(make())
        assert device.image is not None
        check_golden(f"board-{name}-{size_name(size)}", device.image)


@pytest.mark.parametrize(("name", "make", "size", "frame"), ANNOUNCEMENTS,
                         ids=[f"{n}-{size_name(s)}-{f}" for n, _, s, f in ANNOUNCEMENTS])
def test_announcement_frame_matches_golden(name: str, make: Callable[[], TableView], size: tuple[int, int],
                                           frame: int) -> None:
    device = dummy(width=size[0], height=size[1])
    shown: list[Image.Image] = []

    def sleep(_: float) -> None:
        # Called after each frame is on the screen: keep what the players saw at that moment.
        assert device.image is not None
        shown.append(device.image.copy())

    with BoardDisplay(device, sleep=sleep, steps=6) as board:
        board.announce(make())
    # Six frames, then the hold (the last frame again), then the board came back.
    assert len(shown) == 7
    check_golden(f"announce-{name}-{size_name(size)}-{frame}", shown[frame - 1])


def test_pairing_code_notice_matches_golden() -> None:
    device = dummy(width=128, height=64)
    with BoardDisplay(device) as board:
        board.notice(["Pairing code"], big="4821")
        assert device.image is not None
        check_golden("notice-pairing-code-128x64", device.image)
