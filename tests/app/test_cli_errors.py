"""The command line's errors: every PegpiError, from any package, and every file it cannot use
print one line, ``pegpi: error: ...``, exit 2, and never a traceback."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from device.errors import HardwareConfigError
from device.store import Store
from games.cribbage.autoplay import autoplay
from games.errors import PegpiError
from pegpi.cli import main
from pegpi.errors import CommandError
from vision.errors import SourceError
from vision.render.npm import FetchError
from web.phones import WebError


def test_every_package_raises_under_one_root() -> None:
    for error in (HardwareConfigError, CommandError, SourceError, FetchError, WebError):
        assert issubclass(error, PegpiError), error


def test_a_file_it_cannot_write_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = autoplay("cribbage", seed=1, known_hands=False)
    db = tmp_path / "t.db"
    with Store(db) as store:
        game = store.new_game("cribbage", record["players"], record["options"])
        store.append(game, [("action", a, None) for a in record["actions"][:3]], source="table")
    out = tmp_path / "no such folder" / "game.json"
    assert main(["export", "--db", str(db), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err == f"pegpi: error: {str(out)!r}: No such file or directory\n"


def test_a_source_that_names_no_camera_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["run", "--source", "webcam:3", "--no-web", "--display", "none", "--db", str(tmp_path / "t.db"),
                 "--config", os.devnull])
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.splitlines()[-1].startswith("pegpi: error: unknown frame source 'webcam:3': use one of cam:, camera:")
    assert "Traceback" not in err
    assert not (tmp_path / "t.db").exists()  # stopped before the store was opened


def test_a_check_that_finds_no_hardware_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from gpiozero import Device

    saved = Device.pin_factory
    Device.pin_factory = None  # no GPIO at all, as on a desktop
    config = tmp_path / "none.toml"
    config.write_text("[display]\ndriver = \"none\"\n[leds]\n[buttons]\n[strip]\n")
    try:
        assert main(["board", "--check", "--config", str(config), "--seconds", "0", "--pace", "0"]) == 2
    finally:
        Device.pin_factory = saved
    assert "no hardware found" in capsys.readouterr().err


def test_games_lists_player_counts_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games"]) == 0
    lines = capsys.readouterr().out.splitlines()
    patience = next(line for line in lines if line.startswith("patience"))
    assert " 1 player " in patience and "1 players" not in "\n".join(lines)
    assert " 2-8 players " in next(line for line in lines if line.startswith("bourre"))
    # the player counts stand in one column
    starts = {re.search(r"  (\d[-\d, or]* players?) ", line).start(1) for line in lines}  # type: ignore[union-attr]
    assert len(starts) == 1
