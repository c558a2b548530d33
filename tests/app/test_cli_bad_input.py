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


def stored_game(db: Path, actions: int = 40) -> int:
    record = autoplay("cribbage", seed=1, known_hands=False)
    with Store(db) as store:
        game = store.new_game("cribbage", record["players"], record["options"])
        store.append(game, [("action", a, None) for a in record["actions"][:actions]], source="table")
    return game


RUN = ["--no-web", "--display", "none", "--config", "/dev/null", "--source", "demo"]


@pytest.mark.parametrize("command", [["export"], ["run", *RUN]])
def test_a_store_of_random_bytes(tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    db = tmp_path / "t.db"
    db.write_bytes(bytes(range(256)) * 16)
    before = db.read_bytes()
    assert "t.db" in one_error(capsys, [*command, "--db", str(db)])
    assert db.read_bytes() == before


@pytest.mark.parametrize("command", [["export"], ["run", *RUN]])
def test_an_action_row_that_is_not_json(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        command: list[str]) -> None:
    db = tmp_path / "t.db"
    game = stored_game(db)
    with sqlite3.connect(db) as con:
        con.execute("UPDATE actions SET action = '{not json' WHERE game_id = ? AND seq = 5", (game,))
    line = one_error(capsys, [*command, "--db", str(db)])
    assert "damaged" in line and "row 5" in line
    with sqlite3.connect(db) as con:  # nothing recorded was abandoned or added
        assert con.execute("SELECT COUNT(*), MAX(ended) FROM games").fetchone() == (1, None)
        assert con.execute("SELECT COUNT(*) FROM actions").fetchone()[0] == 40


@pytest.mark.parametrize("command", [["export"], ["run", *RUN]])
def test_a_foreign_sqlite_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          command: list[str]) -> None:
    db = tmp_path / "notes.db"
    with sqlite3.connect(db) as con:
        con.execute("CREATE TABLE notes (body TEXT)")
        con.execute("INSERT INTO notes VALUES ('keep me')")
    con.close()
    line = one_error(capsys, [*command, "--db", str(db)])
    assert "notes.db" in line and "not a pegpi event store" in line
    with sqlite3.connect(db) as con:
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables == {"notes"}


def test_a_negative_seed(capsys: pytest.CaptureFixture[str]) -> None:
    assert "--seed must be 0 or more, got -1" in one_error(capsys, ["table-sim", "--seed", "-1"])


def test_export_into_a_closed_pipe_is_quiet(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    stored_game(db, actions=300)
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(f"{sys.executable} -m pegpi export --db {db} | head -c 10", shell=True, cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.stdout.startswith("{") and len(done.stdout) == 10
    assert done.stderr == ""


def test_an_empty_starter_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    line = one_error(capsys, ["score", "cribbage", "5H", "5S", "JD", "4C", "--starter", ""])
    assert "--starter" in line and "empty" in line


def test_a_show_without_a_starter_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "cribbage", "5H", "5S", "JD", "4C"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("6  (fifteen 2")
    assert "without a starter" in out
