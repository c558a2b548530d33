"""The event store: WAL, one row per action, undo/corrections as rows, several games, export,
and a full disk refused cleanly."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from device.store import Row, Store, StoreError, StoreFullError, effective_actions
from games.cribbage.autoplay import autoplay
from games.records import replay


def _row(seq: int, kind: str, action: dict | None = None, target: int | None = None) -> Row:
    return Row(seq, kind, action, target, "test", None, 0.0)


def test_the_store_is_in_wal_mode_with_full_sync(tmp_path: Path) -> None:
    with Store(tmp_path / "t.db"):
        pass
    con = sqlite3.connect(tmp_path / "t.db")
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


@pytest.mark.parametrize(
    ("rows", "want"),
    [
        ([_row(0, "action", {"n": 0}), _row(1, "action", {"n": 1}), _row(2, "undo")], [0]),
        ([_row(0, "action", {"n": 0}), _row(1, "undo"), _row(2, "undo"), _row(3, "action", {"n": 3})], [3]),
        ([_row(0, "action", {"n": 0}), _row(1, "action", {"n": 1}), _row(2, "correct", {"n": 9}, 0)], [9, 1]),
        ([_row(0, "action", {"n": 0}), _row(1, "correct", {"n": 9}, 5)], [0]),  # out of range: no effect
    ],
)
def test_effective_actions_fold_undos_and_corrections(rows: list[Row], want: list[int]) -> None:
    assert [e.action["n"] for e in effective_actions(rows)] == want


def test_rows_survive_reopening_and_every_game_is_kept(tmp_path: Path) -> None:
    record = autoplay("cribbage", seed=2, known_hands=False)
    path = tmp_path / "t.db"
    with Store(path) as store:
        first = store.new_game("cribbage", record["players"], record["options"])
        for action in record["actions"]:
            store.append(first, [("action", action, None)], source="table")
        second = store.new_game("cribbage5", ["Cy", "Di"], {})
        store.append(second, [("action", {"act": "deal", "dealer": 0}, None)], source="phone")
    with Store(path) as store:
        games = store.games()
        assert [g.id for g in games] == [first, second]
        assert games[0].result == "abandoned" and games[1].ended is None  # a new game ends the last
        exported = store.export(first)
        assert exported["actions"] == record["actions"]
        assert replay(exported).state.scores == replay(record).state.scores
        assert store.export(second)["players"] == ["Cy", "Di"]


def test_several_rows_commit_together_or_not_at_all(tmp_path: Path) -> None:
    with Store(tmp_path / "t.db") as store:
        game = store.new_game("cribbage", ["A", "B"], {})
        store.append(game, [("action", {"act": "go", "player": 0}, None),
                            ("action", {"act": "play", "player": 1, "card": "5H"}, None)],
                     source="table", input="script:7")
        assert [r.seq for r in store.rows(game)] == [0, 1]
        assert store.last_input(game, "script:") == "script:7"
        with pytest.raises(StoreError):  # the second row breaks a constraint: neither is kept
            store.append(game, [("action", {"act": "x"}, None), ("bogus", None, None)], source="table")
        assert len(store.rows(game)) == 2


def test_a_full_disk_is_refused_cleanly_and_nothing_is_half_written(tmp_path: Path) -> None:
    big = {"act": "show", "player": 0, "cards": ["5H"] * 400}
    with Store(tmp_path / "t.db", max_bytes=64 * 1024) as store:
        game = store.new_game("cribbage", ["A", "B"], {})
        kept = 0
        with pytest.raises(StoreFullError, match="full.*NOT recorded"):
            for _ in range(1000):
                store.append(game, [("action", big, None)], source="table")
                kept += 1
        assert 0 < kept < 1000
        assert len(store.rows(game)) == kept  # every row that was accepted is there, no more
    with Store(tmp_path / "t.db") as store:  # and the store still opens and reads after it
        assert len(store.rows(store.current().id)) == kept  # type: ignore[union-attr]


def test_a_file_that_is_not_a_database_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="cannot open the event store"):
        Store(path)


def test_pegpi_export_prints_a_stored_game_as_a_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from pegpi.cli import main

    record = autoplay("cribbage5", seed=1, known_hands=False)
    db = tmp_path / "t.db"
    with Store(db) as store:
        game = store.new_game("cribbage5", record["players"], record["options"])
        store.append(game, [("action", a, None) for a in record["actions"]], source="table")
        store.append(game, [("undo", None, None)], source="phone")
    assert main(["export", "--db", str(db), "-o", str(tmp_path / "out.json")]) == 0
    exported = json.loads((tmp_path / "out.json").read_text())
    assert exported["actions"] == record["actions"][:-1]  # the undo took the last one back
    assert replay(exported).state.scores == replay(record, upto=len(record["actions"]) - 1).state.scores
    assert main(["export", "--db", str(db), "--list"]) == 0
    assert "cribbage5" in capsys.readouterr().out


def test_an_in_memory_store_holds_games_like_a_file() -> None:
    with Store(":memory:") as store:
        game = store.new_game("cribbage", ["Ann", "Bob"], {})
        seqs = store.append(game, [("action", {"act": "cut", "player": 0, "card": "5H"}, None)], source="test", t=7.0)
        assert seqs == [0] and store.rows(game)[0].t == 7.0
        store.finish_game(game, "Ann won")
        store.finish_game(game, "Bob won")  # a correction changed the winner
        assert store.game(game).result == "Bob won"
    assert not Path(":memory:").exists()  # no file of that name was made
