"""A table service over a replayed game, held in memory: no camera, no store, no hardware.

It implements :class:`device.service.TableService` directly over the ``games`` engine, so the
phone page can be built, tested, demonstrated (``pegpi web --replay RECORD.json``) and measured
(``pegpi bench web``) without a running table. A record's actions form a *script*: :meth:`step`
plays the next one, as if the camera had just read it. Phones submit, undo and correct through
the same methods a real session has; a correction re-runs the whole action list, and when the
change makes a later action illegal nothing is changed and the reason is raised.
"""

from __future__ import annotations

import queue
import secrets
import threading
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from games.engine import Action, Game, State, new_game, registered_games
from games.errors import IllegalActionError, PegpiError
from games.records import game_of, load_record, to_record

JSON = dict[str, Any]

_CLOSED = object()


class ReplayService:
    """A :class:`~device.service.TableService` for one in-memory game, optionally scripted."""

    def __init__(self, record: Mapping[str, Any] | None = None, *, pairing_code: str | None = None,
                 played: int = 0, frame: Callable[[], bytes | None] | None = None) -> None:
        record = load_record(record) if record is not None else {
            "game": "cribbage", "players": ["Ann", "Bob"], "actions": []}
        self._lock = threading.RLock()
        self._subscribers: list[queue.SimpleQueue[Any]] = []
        self._code = pairing_code or f"{secrets.randbelow(10_000):04d}"
        self._frame = frame
        self._start(game_of(record), list(record["actions"]))
        for _ in range(played):
            self.step()

    # -- the script -------------------------------------------------------------------------

    def _start(self, game: Game, script: list[Any]) -> None:
        self._game = game
        self._state: State = game.new_initial_state()
        self._actions: list[Action] = []
        self._sources: list[str] = []
        self._script = script

    @property
    def steps_left(self) -> int:
        return len(self._script)

    def step(self) -> JSON:
        """Play the next action of the record, as the camera would; IndexError when none is left."""
        with self._lock:
            if not self._script:
                raise IndexError("the replayed record has no more actions")
            raw = self._script[0]
            view = self._apply(raw, "replay")
            self._script.pop(0)
        self._publish()
        return view

    # -- TableService ----------------------------------------------------------------------

    def view(self, seat: int | None = None) -> JSON:
        with self._lock:
            return self._view(seat)

    def _view(self, seat: int | None) -> JSON:
        if seat is not None and not 0 <= seat < self._game.num_players:
            seat = None
        return self._state.view_for(seat)

    def _apply(self, raw: Mapping[str, Any], source: str) -> JSON:
        action = self._game.action_from_json(raw)
        self._state = self._state.apply(action)
        self._actions.append(action)
        self._sources.append(source)
        return self._view(None)

    def submit(self, action: JSON, *, source: str = "phone") -> JSON:
        with self._lock:
            view = self._apply(action, source)
        self._publish()
        return view

    def undo(self, *, source: str = "phone") -> JSON:
        with self._lock:
            if not self._actions:
                raise IllegalActionError("there is nothing to undo: no card has been played yet")
            action = self._actions.pop()
            if self._sources.pop() == "replay":
                self._script.insert(0, action.to_json())  # the replay can play it again
            self._state = self._rerun(self._actions)
            view = self._view(None)
        self._publish()
        return view

    def correct(self, index: int, action: JSON, *, source: str = "phone") -> JSON:
        with self._lock:
            if not 0 <= index < len(self._actions):
                raise IllegalActionError(f"there is no action {index} in this game to correct")
            new = self._game.action_from_json(action)
            actions = [*self._actions[:index], new, *self._actions[index + 1:]]
            self._state = self._rerun(actions)
            self._actions = actions
            self._sources[index] = source
            view = self._view(None)
        self._publish()
        return view

    def _rerun(self, actions: list[Action]) -> State:
        state = self._game.new_initial_state()
        for i, action in enumerate(actions):
            try:
                state = state.apply(action)
            except PegpiError as exc:
                raise IllegalActionError(
                    f"that change makes action {i + 1} ({action}) impossible: {exc}") from exc
        return state

    def confirm(self, *, source: str = "button") -> JSON:
        raise IllegalActionError("there is nothing to confirm: no card read is in doubt")

    def resolve(self, card: str, *, source: str = "phone") -> JSON:
        raise IllegalActionError("the device is not asking about any card")

    def new_game(self, game: str, players: list[str], options: JSON | None = None) -> JSON:
        rules = new_game(game, players, options)
        with self._lock:
            self._start(rules, [])
            view = self._view(None)
        self._publish()
        return view

    def history(self) -> list[JSON]:
        with self._lock:
            points: dict[int, list[JSON]] = {}
            for event in self._state.events:
                if event.action_index is not None:
                    points.setdefault(event.action_index, []).append(
                        {"side": event.side, "seat": event.seat, "points": event.points,
                         "kind": event.kind, "say": event.say(), "cards": [str(c) for c in event.cards]})
            return [
                {"index": i, "action": a.to_json(), "source": s,
                 "points": sum(e["points"] for e in points.get(i, [])), "scores": points.get(i, [])}
                for i, (a, s) in enumerate(zip(self._actions, self._sources, strict=True))
            ]

    def export(self) -> JSON:
        with self._lock:
            return to_record(self._game, self._actions)

    def subscribe(self) -> Iterator[JSON]:
        inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
        with self._lock:
            self._subscribers.append(inbox)
        return self._drain(inbox)

    def _drain(self, inbox: queue.SimpleQueue[Any]) -> Iterator[JSON]:
        try:
            while True:
                update = inbox.get()
                if update is _CLOSED:
                    return
                yield update
        finally:
            with self._lock:
                if inbox in self._subscribers:
                    self._subscribers.remove(inbox)

    def close(self) -> None:
        """End every subscription (their iterators stop)."""
        with self._lock:
            for inbox in self._subscribers:
                inbox.put(_CLOSED)
            self._subscribers.clear()

    def _publish(self) -> None:
        with self._lock:
            update = {"type": "view", "view": self._view(None)}
            for inbox in self._subscribers:
                inbox.put(update)

    def games(self) -> list[JSON]:
        return [spec.to_json() for spec in registered_games()]

    @property
    def pairing_code(self) -> str:
        return self._code

    def new_pairing_code(self) -> str:
        """Another code (never the same one): every phone must pair again."""
        old = self._code
        while self._code == old:
            self._code = f"{secrets.randbelow(10_000):04d}"
        return self._code

    def camera_frame(self) -> bytes | None:
        return self._frame() if self._frame is not None else None

    def set_frame_provider(self, provider: Callable[[], bytes | None] | None) -> None:
        self._frame = provider
