"""Game records: the one currency of pegpi (format in ARCHITECTURE.md).

``{"game": "cribbage", "options": {...}, "players": ["Ann", "Bob"], "actions": [...]}``

>>> record = {"game": "cribbage", "players": ["Ann", "Bob"], "actions": [
...     {"act": "deal", "dealer": 0}, {"act": "discard", "player": 0},
...     {"act": "discard", "player": 1}, {"act": "starter", "card": "JD"}]}
>>> result = replay(record)
>>> result.state.scores, [e.kind for e in result.events]
([2, 0], ['heels'])
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.engine import Action, Game, ScoreEvent, State, new_game
from games.errors import PegpiError, RecordError


@dataclass
class Replay:
    game: Game
    actions: list[Action]
    state: State

    @property
    def events(self) -> list[ScoreEvent]:
        return self.state.events

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game.spec.name,
            "players": list(self.game.players),
            "scores": list(self.state.scores),
            "winner": self.state.winner,
            "loser": self.state.loser,
            "phase": self.state.phase,
            "events": [e.to_json() for e in self.state.events],
        }


def load_record(source: str | Path | Mapping[str, Any]) -> dict[str, Any]:
    """Read a record from a file path, a JSON string or a dict, checking its outline."""
    if isinstance(source, Mapping):
        data: Any = dict(source)
    else:
        path = Path(source)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"cannot read the record {str(source)!r}: {exc.strerror}") from exc
        except UnicodeDecodeError as exc:
            raise RecordError(f"{path.name} is not UTF-8 text (byte {exc.start}): a record is a JSON file") from exc
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{path.name} is not valid JSON: {exc.msg} at line {exc.lineno}") from exc
        except RecursionError as exc:  # the parser recurses once per level of nesting
            raise RecordError(f"{path.name} is nested too deeply to be a game record") from exc
    if not isinstance(data, dict):
        raise RecordError("a game record is a JSON object with 'game', 'players' and 'actions'")
    for key in ("game", "actions"):
        if key not in data:
            raise RecordError(f"the record has no {key!r}")
    if not isinstance(data["actions"], list):
        raise RecordError("the record's 'actions' must be a list")
    return data


def game_of(record: Mapping[str, Any]) -> Game:
    players = record.get("players", 2)
    if not isinstance(players, int | list):
        raise RecordError("'players' is a list of names or a number of players")
    options = record.get("options") or {}
    if not isinstance(options, dict):
        raise RecordError("'options' is an object of option names and values")
    return new_game(str(record["game"]), players, options)


def steps(source: str | Path | Mapping[str, Any], *, upto: int | None = None,
          game: Game | None = None) -> Iterator[tuple[State, Action, State]]:
    """Each action of a record with the states before and after it (for invariant checks); an
    illegal action raises RecordError naming its index and the reason."""
    record = load_record(source)
    game = game or game_of(record)
    state = game.new_initial_state()
    raws: Sequence[Any] = record["actions"] if upto is None else record["actions"][:upto]
    for index, raw in enumerate(raws):
        try:
            action = game.action_from_json(raw)
            after = state.apply(action)
        except PegpiError as exc:
            raise RecordError(f"action {index} {json.dumps(raw)}: {exc}", index) from exc
        yield state, action, after
        state = after


def replay(source: str | Path | Mapping[str, Any], *, upto: int | None = None) -> Replay:
    """Run every action of a record (or the first ``upto``); an illegal one raises RecordError
    naming its index and the reason."""
    record = load_record(source)
    game = game_of(record)
    state = game.new_initial_state()
    actions: list[Action] = []
    for _, action, after in steps(record, upto=upto, game=game):
        actions.append(action)
        state = after
    return Replay(game, actions, state)


def to_record(game: Game, actions: Sequence[Action]) -> dict[str, Any]:
    return {
        "game": game.spec.name,
        "options": dict(game.options),
        "players": list(game.players),
        "actions": [a.to_json() for a in actions],
    }
