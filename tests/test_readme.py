"""The README's console examples are run exactly as printed."""

import contextlib
import io
import re
import shlex
from pathlib import Path

import pytest

from pegpi.cli import main

ROOT = Path(__file__).resolve().parents[1]


def examples():
    text = (ROOT / "README.md").read_text()
    for block in re.findall(r"```console\n(.*?)```", text, re.S):
        command, expected = None, []
        for line in block.splitlines():
            if line.startswith("$ "):
                if command:
                    yield command, "\n".join(expected)
                command, expected = line[2:], []
            else:
                expected.append(line)
        if command:
            yield command, "\n".join(expected)


CASES = list(examples())


def test_games_table_names_every_registered_game():
    from games import registered_games

    text = (ROOT / "README.md").read_text()
    table = text.split("<!-- games-table -->")[1].split("<!-- /games-table -->")[0]
    named = set(re.findall(r"^\|[^|]*\| `([^`]+)`", table, re.M))
    assert named == {spec.name for spec in registered_games()}


def test_readme_has_examples():
    assert len(CASES) >= 4


@pytest.mark.parametrize("command, expected", CASES, ids=[c for c, _ in CASES])
def test_readme_example(command, expected, monkeypatch):
    monkeypatch.chdir(ROOT)
    argv = shlex.split(command)
    assert argv[0] == "pegpi"
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        main(argv[1:])
    got = (out.getvalue() + err.getvalue()).rstrip("\n")
    assert got == expected.rstrip("\n")
