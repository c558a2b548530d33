"""A game record replayed through the real table service, held in memory.

:class:`ReplaySession` is a :class:`device.session.Session` over an in-memory event store whose
record's actions form a *script*: :meth:`ReplaySession.step` plays the next one as the camera
would. Phones submit, undo and correct through the same methods a live table has, so the phone
page can be shown (``pegpi web --replay RECORD.json``), tested and measured without a camera.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from device.session import Session
from device.store import Store
from games.errors import IllegalActionError
from games.jsontypes import JSONObject
from games.records import game_of, load_record
from games.view import TableView

#: What a replay serves when it is given no record: a new game of cribbage.
EMPTY: JSONObject = {"game": "cribbage", "players": ["Ann", "Bob"], "actions": []}


class ReplaySession(Session):
    """A Session over an event store of its own (in memory unless a file is given), stepped
    through a record's actions.

    The script's cursor is the number of actions the game holds: an undo lets the next step play
    the undone action again, and an action entered on a phone stands for the record's next one.
    A new game ends the script."""

    def __init__(self, record: str | Path | Mapping[str, Any] | None = None, *,
                 pairing_code: str | None = None, played: int = 0, store: str | Path = ":memory:") -> None:
        data = load_record(record) if record is not None else dict(EMPTY)
        game = game_of(data)  # checks the game, players and options before anything is made
        events = Store(store)
        if pairing_code:
            events.set_meta("pairing_code", pairing_code)
        super().__init__(events, game=game.spec.name, players=list(game.players), options=dict(game.options))
        self._script: list[JSONObject] = list(data["actions"])
        self._script_game = self.game_id
        for _ in range(min(max(played, 0), self.steps_left)):
            self.step()

    @property
    def steps_left(self) -> int:
        with self._lock:
            if self.game_id != self._script_game:
                return 0
            return max(len(self._script) - len(self.entries), 0)

    def step(self) -> TableView:
        """Play the record's next action, as the camera would (straight to the one path of a
        change: the table protocol would deal unseen where the record deals known hands).
        Raises when none is left, or when the game changed so that it no longer fits."""
        with self._lock:
            if not self.steps_left:
                raise IllegalActionError("the replayed record has no more actions")
            self.apply([self._script[len(self.entries)]], source="replay")
            return self._view()

    def close(self) -> None:
        super().close()
        self.store.close()


def replayed_table(record: str | Path | Mapping[str, Any] | None = None, *, pairing_code: str | None = None,
                   played: int = 0, store: str | Path = ":memory:") -> ReplaySession:
    """The one :class:`Session <device.session.Session>` replaying ``record`` (a game record, its
    file, or None: a new game of cribbage) over ``store`` (in memory unless a file is given), for
    a page served without a table; see :mod:`device.replay`."""
    return ReplaySession(record, pairing_code=pairing_code, played=played, store=store)
