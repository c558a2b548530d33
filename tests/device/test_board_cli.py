"""`pegpi board`: the README pictures, a record's frames, one view, and its errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from device.board import samples
from games.cribbage.autoplay import autoplay
from pegpi.cli import main


def test_demo_writes_every_state_at_every_size(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["board", "--demo", "-o", str(tmp_path), "--scale", "2"]) == 0
    for name in samples.ALL:
        for size in ("128x64", "128x32", "256x64"):
            with Image.open(tmp_path / f"{name}-{size}.png") as picture:
                width, height = map(int, size.split("x"))
                assert picture.size == (2 * width, 2 * height)
    with Image.open(tmp_path / "announce-play-128x64.gif") as movie:
        assert movie.n_frames > 3
    assert "wrote" in capsys.readouterr().out


def test_record_writes_a_picture_per_step_and_a_gif(tmp_path: Path) -> None:
    record = autoplay("cribbage", ["Ann", "Bob"], seed=5)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    out = tmp_path / "frames"
    assert main(["board", "--record", str(path), "-o", str(out), "--scale", "1"]) == 0
    assert len(list(out.glob("step-*.png"))) == len(record["actions"]) + 1
    assert (out / "game.gif").exists()


def test_one_view(tmp_path: Path) -> None:
    path = tmp_path / "view.json"
    path.write_text(json.dumps(samples.show().to_json()), encoding="utf-8")
    assert main(["board", "--view", str(path), "-o", str(tmp_path / "show.png"), "--size", "256x64",
                 "--scale", "1"]) == 0
    with Image.open(tmp_path / "show.png") as picture:
        assert picture.size == (256, 64)


def test_errors_are_pegpi_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["board", "--demo"]) == 2
    assert "-o FOLDER" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("{nope", encoding="utf-8")
    assert main(["board", "--view", str(bad), "-o", str(tmp_path)]) == 2
    assert "not valid JSON" in capsys.readouterr().err


def test_the_readme_pictures_are_up_to_date(tmp_path: Path) -> None:
    """docs/board holds what `pegpi board --demo -o docs/board` draws now (run it after a change)."""
    docs = Path(__file__).parents[2] / "docs" / "board"
    assert main(["board", "--demo", "-o", str(tmp_path)]) == 0
    pictures = sorted(p.name for p in tmp_path.glob("*.png"))
    assert pictures == sorted(p.name for p in docs.glob("*.png"))
    for name in pictures:
        with Image.open(tmp_path / name) as new, Image.open(docs / name) as old:
            assert new.convert("L").tobytes() == old.convert("L").tobytes(), f"docs/board/{name} is stale"


def test_check_runs_through_the_hardware(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    config = tmp_path / "pegpi.toml"
    config.write_text('[display]\ndriver = "dummy"\nframe_time = 0\nhold_time = 0\n\n'
                      '[buttons]\nbounce_time = 0.01\n', encoding="utf-8")
    previous = Device.pin_factory
    Device.pin_factory = MockFactory(pin_class=MockPWMPin)
    try:
        assert main(["board", "--check", "--config", str(config), "--seconds", "0", "--pace", "0"]) == 0
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = previous
    out = capsys.readouterr().out
    assert "display: yes; LEDs: yes; strip: none; buttons: go, menu, ok, undo" in out
    assert "board: show" in out and "LED on GPIO26" in out
