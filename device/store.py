"""The event store: every game and every action, in SQLite (WAL), written before anything is shown.

One row per action. Undo and corrections are rows too (``kind`` ``undo``/``correct``), never
edits of an earlier row, so the whole history of a table can be read back. The effective list of
actions of a game is the fold of its rows (:func:`effective_actions`); start-up replays it through
the engine to the exact state.

Durability: WAL with ``synchronous=FULL`` syncs the log on every commit, so an action that
:meth:`Store.append` returned for survives a power cut. Several actions inferred from one table
event (a "go" and the play that shows it) are committed in one transaction: all or none.

A full disk (or the configured size limit) is refused cleanly: :class:`StoreFullError`, nothing
is changed, and the caller shows the error instead of the new score.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from games.errors import PegpiError
from games.jsontypes import JSONObject

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id       INTEGER PRIMARY KEY,
    game     TEXT NOT NULL,
    players  TEXT NOT NULL,
    options  TEXT NOT NULL,
    started  REAL NOT NULL,
    ended    REAL,
    result   TEXT
);
CREATE TABLE IF NOT EXISTS meta (
    key      TEXT PRIMARY KEY,
    value    TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS actions (
    id       INTEGER PRIMARY KEY,
    game_id  INTEGER NOT NULL REFERENCES games(id),
    seq      INTEGER NOT NULL,
    kind     TEXT NOT NULL CHECK (kind IN ('action', 'undo', 'correct')),
    action   TEXT,
    target   INTEGER,
    source   TEXT NOT NULL,
    input    TEXT,
    t        REAL NOT NULL,
    UNIQUE (game_id, seq)
);
"""


class StoreError(PegpiError, OSError):
    """The event store cannot be opened, read or written (names the file and the reason)."""


class StoreFullError(StoreError):
    """The disk (or the configured limit) is full: the action was not recorded, nothing changed."""


@dataclass(frozen=True, slots=True)
class Row:
    """One stored row: an ``action`` (its record form), an ``undo``, or a ``correct`` of action
    number ``target`` by ``action``. ``input`` tags what produced it (e.g. a table script step)."""

    seq: int
    kind: str
    action: JSONObject | None
    target: int | None
    source: str
    input: str | None
    t: float


@dataclass(frozen=True, slots=True)
class GameInfo:
    id: int
    game: str
    players: list[str]
    options: JSONObject
    started: float
    ended: float | None
    result: str | None
    rows: int = 0

    def to_json(self) -> JSONObject:
        return {"id": self.id, "game": self.game, "players": self.players, "options": self.options,
                "started": self.started, "ended": self.ended, "result": self.result, "rows": self.rows}


@dataclass(frozen=True, slots=True)
class Entry:
    """One action of the effective list, with where it came from (``seq`` of its row)."""

    action: JSONObject
    source: str
    seq: int
    t: float
    corrected: bool = False


def effective_actions(rows: Sequence[Row]) -> list[Entry]:
    """The game's actions after every undo and correction, in order."""
    out: list[Entry] = []
    for row in rows:
        if row.kind == "action" and row.action is not None:
            out.append(Entry(row.action, row.source, row.seq, row.t))
        elif row.kind == "undo":
            if out:
                out.pop()
        elif row.kind == "correct" and row.action is not None and row.target is not None:
            if 0 <= row.target < len(out):
                out[row.target] = Entry(row.action, row.source, row.seq, row.t, corrected=True)
    return out


def _is_full(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    return code == 13 or "full" in str(exc).lower()  # SQLITE_FULL


class Store:
    """The SQLite event store of one table. Not thread-safe by itself: the session's lock guards it.

    ``max_bytes`` caps the database size (0: only the disk limits it)."""

    def __init__(self, path: str | Path, *, max_bytes: int = 0) -> None:
        self.path = Path(path)
        try:
            if str(path) != ":memory:":
                self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None, timeout=5.0)
            mode = self._db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if str(path) != ":memory:" and mode.lower() != "wal":
                raise StoreError(f"{self.path}: cannot use write-ahead logging (journal mode {mode})")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(SCHEMA)
            if max_bytes:
                page = self._db.execute("PRAGMA page_size").fetchone()[0]
                self._db.execute(f"PRAGMA max_page_count={max(8, int(max_bytes) // int(page))}")
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot open the event store {str(self.path)!r}: {exc}") from exc
        except OSError as exc:
            raise StoreError(f"cannot create the event store {str(self.path)!r}: {exc.strerror}") from exc

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One transaction, committed (and synced) on exit; rolled back on any error."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
            yield self._db
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            self._rollback()
            if _is_full(exc):
                raise StoreFullError(
                    f"the disk holding {self.path.name} is full: the last action was NOT recorded "
                    f"(free some space, then play it again)") from exc
            raise StoreError(f"cannot write the event store {self.path.name}: {exc}") from exc
        except BaseException:
            self._rollback()
            raise

    def _rollback(self) -> None:
        if self._db.in_transaction:  # SQLite may have rolled back already (a full disk does)
            try:
                self._db.execute("ROLLBACK")
            except sqlite3.Error:
                pass

    # ------------------------------------------------------------------ settings

    def meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        with self._write() as db:
            db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    # ------------------------------------------------------------------ games

    def new_game(self, game: str, players: Sequence[str], options: JSONObject) -> int:
        with self._write() as db:
            db.execute("UPDATE games SET ended = ?, result = COALESCE(result, 'abandoned') WHERE ended IS NULL",
                       (time.time(),))
            cur = db.execute("INSERT INTO games (game, players, options, started) VALUES (?, ?, ?, ?)",
                             (game, json.dumps(list(players)), json.dumps(options), time.time()))
            return int(cur.lastrowid or 0)

    def finish_game(self, game_id: int, result: str) -> None:
        """The game is over with ``result``; a correction of a finished game may change the result."""
        with self._write() as db:
            db.execute("UPDATE games SET ended = COALESCE(ended, ?), result = ? WHERE id = ?",
                       (time.time(), result, game_id))

    def reopen_game(self, game_id: int) -> None:
        """An undo or a correction took back the game's end: it is being played again."""
        with self._write() as db:
            db.execute("UPDATE games SET ended = NULL, result = NULL WHERE id = ?", (game_id,))

    def games(self) -> list[GameInfo]:
        rows = self._db.execute(
            "SELECT g.id, g.game, g.players, g.options, g.started, g.ended, g.result, "
            "(SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id) FROM games g ORDER BY g.id").fetchall()
        return [GameInfo(r[0], r[1], json.loads(r[2]), json.loads(r[3]), r[4], r[5], r[6], r[7]) for r in rows]

    def game(self, game_id: int) -> GameInfo:
        for info in self.games():
            if info.id == game_id:
                return info
        raise StoreError(f"the event store has no game {game_id}")

    def current(self) -> GameInfo | None:
        """The most recent game (finished or not), or None for an empty store."""
        games = self.games()
        return games[-1] if games else None

    # ------------------------------------------------------------------ actions

    def rows(self, game_id: int) -> list[Row]:
        try:
            found = self._db.execute(
                "SELECT seq, kind, action, target, source, input, t FROM actions WHERE game_id = ? ORDER BY seq",
                (game_id,)).fetchall()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot read the event store {self.path.name}: {exc}") from exc
        return [Row(r[0], r[1], json.loads(r[2]) if r[2] else None, r[3], r[4], r[5], r[6]) for r in found]

    def append(self, game_id: int, rows: Sequence[tuple[str, JSONObject | None, int | None]], *,
               source: str, input: str | None = None, t: float | None = None) -> list[int]:
        """Record ``rows`` (``(kind, action, target)``) in one transaction, at time ``t`` (now when
        None); returns their seqs. Returns only once they are committed and synced."""
        now = time.time() if t is None else t
        with self._write() as db:
            last = db.execute("SELECT COALESCE(MAX(seq), -1) FROM actions WHERE game_id = ?",
                              (game_id,)).fetchone()[0]
            seqs = []
            for offset, (kind, action, target) in enumerate(rows):
                seq = int(last) + 1 + offset
                db.execute(
                    "INSERT INTO actions (game_id, seq, kind, action, target, source, input, t) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (game_id, seq, kind, json.dumps(action) if action is not None else None, target,
                     source, input, now))
                seqs.append(seq)
            return seqs

    def last_input(self, game_id: int, prefix: str) -> str | None:
        """The ``input`` tag of the last row whose tag starts with ``prefix`` (where a script got to)."""
        row = self._db.execute(
            "SELECT input FROM actions WHERE game_id = ? AND input LIKE ? ORDER BY seq DESC LIMIT 1",
            (game_id, prefix.replace("%", "") + "%")).fetchone()
        return None if row is None else str(row[0])

    def export(self, game_id: int) -> JSONObject:
        """A game as a game record (its effective actions), with its stored history alongside."""
        info = self.game(game_id)
        rows = self.rows(game_id)
        return {
            "game": info.game,
            "options": info.options,
            "players": info.players,
            "actions": [e.action for e in effective_actions(rows)],
            "pegpi": {"id": info.id, "started": info.started, "ended": info.ended, "result": info.result,
                      "rows": len(rows)},
        }
