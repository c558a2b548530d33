"""Bad input to the command line (issue 39, item 6): each is one line, ``pegpi: error: ...``, exit
2, never a traceback, and nothing recorded is lost or added."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from device.store import Store
from games.cribbage.autoplay import autoplay
from pegpi.cli import main

ROOT = Path(__file__).resolve().parents[2]


def one_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2, err
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("pegpi: error: "), err
    return lines[0]


def test_replay_of_a_file_that_is_not_utf8(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff\xfe\x00{}")
    assert "bad.json is not UTF-8" in one_error(capsys, ["replay", str(bad)])


def test_replay_of_a_very_deep_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    assert "nested too deeply" in one_error(capsys, ["replay", str(deep)])
