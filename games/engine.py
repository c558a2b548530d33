"""The engine contract every game follows.

A :class:`Game` is a rules object: its :class:`Spec` (name, players, deck, target, options) and
the actions it understands. A :class:`State` changes only through :meth:`State.apply`, which
returns a *new* state, so a refused action can never leave a half-changed game behind. The base
class does the checks every game shares (is the game over, is the action one of this game's, is
it this player's turn); a game implements ``_apply`` for the happy path and raises
:class:`IllegalActionError` with a reason a player can read.

Scores are kept per *side* (a player, or a partnership) and every change of score is a
:class:`ScoreEvent` with a breakdown of :class:`Item`s, which the board and the phone read aloud.
"""

from __future__ import annotations

import copy
import dataclasses
import typing
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from games.errors import IllegalActionError, NoScoreError, OptionError, RecordError, UnknownGameError
from games.scores import CardLike, Item, Score, ScoreEvent, say_item, spoken, spoken_items
from games.spec import Option, Spec
from games.view import Common, LastScore, Said, Side, TableView, counted

__all__ = [
    "Action", "CardLike", "Game", "Item", "Option", "Score", "ScoreEvent", "ScoreRequest", "Spec", "State", "get_game",
    "new_game", "register", "registered_games", "say_item", "spoken", "spoken_items",
]


# --------------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class Action:
    """Base of every action. Subclasses are frozen dataclasses with a class-level ``act`` name,
    the word used in game records. Fields named ``card``, ``cards`` and ``hands`` hold cards."""

    act: ClassVar[str] = ""

    def __deepcopy__(self, memo: dict[int, Any]) -> Action:
        return self  # frozen: sharing is safe

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"act": self.act}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value is None or (f.name in ("cards", "hands") and value == () and f.default is None):
                continue
            out[f.name] = _card_json(value)
        return out

    def __str__(self) -> str:
        parts = [f"{k}={v}" for k, v in self.to_json().items() if k != "act"]
        return f"{self.act}({', '.join(parts)})"


def _card_json(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_card_json(v) for v in value]
    if isinstance(value, bool | int | str | float) or value is None:
        return value
    return str(value)


# --------------------------------------------------------------------------------- games


S = TypeVar("S", bound="State")


@dataclass(frozen=True)
class ScoreRequest:
    """What `pegpi score GAME ...` was given: the words after the game's name (cards of a hand,
    stacks of a deal) and the options of the command (``lowest``: each word is a hand, and the
    question is which of them is lowest, for Ricochet Poker)."""

    words: tuple[str, ...]
    starter: str | None = None
    crib: bool = False
    as_json: bool = False
    lowest: bool = False


class Game(ABC):
    """A rules object: a game with its players and options fixed. Create states from it."""

    spec: ClassVar[Spec]
    actions: ClassVar[tuple[type[Action], ...]] = ()

    def __init__(self, players: int | Sequence[str] = 2, options: Mapping[str, Any] | None = None):
        if isinstance(players, int):
            names = [f"Player {i + 1}" for i in range(players)]
        else:
            names = [str(p) for p in players]
        if len(names) not in self.spec.players:
            allowed = " or ".join(map(str, self.spec.players))
            raise OptionError(f"{self.spec.title} is played by {allowed} players, not {len(names)}")
        self.players: tuple[str, ...] = tuple(names)
        known = {o.name: o for o in self.spec.options}
        given = dict(options or {})
        for key in given:
            if key not in known:
                raise OptionError(
                    f"{self.spec.title} has no option {key!r}"
                    + (f" (options: {', '.join(sorted(known))})" if known else "")
                )
        self.options: dict[str, Any] = {
            name: opt.check(given[name]) if name in given else opt.default for name, opt in known.items()
        }
        self._actions = {a.act: a for a in self.actions}
        self.validate()

    def validate(self) -> None:
        """Check option combinations; raise OptionError. Override where options interact."""

    @classmethod
    def score_command(cls, request: ScoreRequest) -> str:
        """`pegpi score`: what to print for ``request`` (text, or JSON when asked). A game with
        something to count away from a table (a hand and starter, a known deal) overrides this."""
        raise NoScoreError(f"{cls.spec.title} has no hand to count")

    @property
    def num_players(self) -> int:
        return len(self.players)

    @property
    def target(self) -> int | None:
        target = self.options.get("target", self.spec.target)
        return int(target) if target is not None else None

    def sides(self) -> tuple[tuple[int, ...], ...]:
        """Which seats score together. Default: everyone for themselves."""
        return tuple((i,) for i in range(self.num_players))

    def side_names(self) -> list[str]:
        return [" & ".join(self.players[s] for s in side) for side in self.sides()]

    @abstractmethod
    def parse_card(self, text: str) -> CardLike:
        """Read one card of this game's deck, or raise CardError naming the text."""

    @abstractmethod
    def new_initial_state(self) -> State: ...

    def action_from_json(self, data: Mapping[str, Any]) -> Action:
        """Build an action from its record form, checking every field."""
        if not isinstance(data, Mapping):
            raise RecordError(f"an action is an object like {{'act': 'play', ...}}, not {data!r}")
        act = data.get("act")
        cls = self._actions.get(act) if isinstance(act, str) else None
        if cls is None:
            words = ", ".join(sorted(self._actions))
            raise RecordError(f"{self.spec.title} has no action {act!r} (its actions: {words})")
        hints = typing.get_type_hints(cls)
        kwargs: dict[str, Any] = {}
        names = {f.name for f in dataclasses.fields(cls)}
        for key in data:
            if key != "act" and key not in names:
                raise RecordError(f"action {act!r} has no field {key!r}")
        for f in dataclasses.fields(cls):
            if f.name not in data:
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                    raise RecordError(f"action {act!r} needs {f.name!r}")
                continue
            kwargs[f.name] = self._field_value(str(act), f.name, hints[f.name], data[f.name])
        return cls(**kwargs)

    def _field_value(self, act: str, name: str, hint: Any, value: Any) -> Any:
        if value is None:
            return None
        if name == "card":
            return self.parse_card(value)
        if name == "cards":
            if not isinstance(value, list | tuple):
                raise RecordError(f"{act}.{name} is a list of cards, not {value!r}")
            return tuple(self.parse_card(v) for v in value)
        if name == "hands":
            if not isinstance(value, list | tuple) or not all(
                h is None or isinstance(h, list | tuple) for h in value
            ):
                raise RecordError(f"{act}.hands is a list of hands (lists of cards), not {value!r}")
            return tuple(None if h is None else tuple(self.parse_card(c) for c in h) for h in value)
        base = [t for t in typing.get_args(hint) if t is not type(None)] or [hint]
        want = base[0]
        if want is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise RecordError(f"{act}.{name} is a whole number, not {value!r}")
        if want is bool and not isinstance(value, bool):
            raise RecordError(f"{act}.{name} is true or false, not {value!r}")
        if want is str and not isinstance(value, str):
            raise RecordError(f"{act}.{name} is text, not {value!r}")
        return value


# --------------------------------------------------------------------------------- states


class State(ABC):
    """One moment of a game. Never mutated once handed out: :meth:`apply` returns a new one."""

    def __init__(self, game: Game) -> None:
        self.game = game
        n = len(game.sides())
        self.scores: list[int] = [0] * n
        self.rear: list[int] = [0] * n
        self.events: list[ScoreEvent] = []
        self.last_events: list[ScoreEvent] = []
        self.history: list[Action] = []
        self.winner: int | None = None  # side index
        self.loser: int | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        # The rules object is shared by every state of a game; everything else is copied.
        new = object.__new__(type(self))
        memo[id(self)] = new
        for key, value in self.__dict__.items():
            if key == "game":
                setattr(new, key, value)
            elif key in self._append_only:
                setattr(new, key, list(value))  # lists of frozen values: a shallow copy suffices
            else:
                setattr(new, key, copy.deepcopy(value, memo))
        return new

    _append_only: ClassVar[frozenset[str]] = frozenset({"history", "events", "last_events"})

    # -- what subclasses implement ------------------------------------------------------

    @abstractmethod
    def _apply(self, action: Action) -> None:
        """Change this (private, fresh) copy for ``action``, or raise IllegalActionError."""

    def to_move(self, action: Action) -> Sequence[int] | None:
        """Seats allowed to take ``action`` now; None when the action names no player."""
        return None

    @property
    @abstractmethod
    def phase(self) -> str:
        """Where the game is: "deal", "play", "show", "over", ... in the game's own words."""

    def prompt(self) -> str:
        """What the table is waiting for, in a player's words."""
        return ""

    # -- what the base does for every game ------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.winner is not None or self.loser is not None

    def apply(self: S, action: Action) -> S:
        """Return the state after ``action``; ``self`` is left unchanged.

        >>> from games import new_game
        >>> s = new_game("cribbage", ["Ann", "Bob"]).new_initial_state()
        >>> s = s.apply_json({"act": "deal", "dealer": 0})
        >>> s.phase
        'discard'
        """
        if not isinstance(action, Action):
            raise IllegalActionError(f"{action!r} is not an action")
        if self.is_over:
            raise IllegalActionError(f"the game is over: {self.result_text()}")
        if type(action) not in self.game.actions:
            raise IllegalActionError(f"{self.game.spec.title} has no action {action.act!r}")
        player = getattr(action, "player", None)
        if player is not None and not (0 <= player < self.game.num_players):
            raise IllegalActionError(f"there is no player {player} at this table")
        allowed = self.to_move(action)
        if allowed is not None and player is not None and player not in allowed:
            names = " or ".join(self.game.players[p] for p in allowed) or "nobody"
            raise IllegalActionError(
                f"it is not {self.game.players[player]}'s turn to {action.act}: waiting for {names}"
            )
        new = copy.deepcopy(self)
        new.last_events = []
        new._apply(action)
        new.history.append(action)
        return new

    def apply_json(self: S, data: Mapping[str, Any]) -> S:
        """:meth:`apply` for an action in game-record form: ``{"act": "go", "player": 0}``."""
        return self.apply(self.game.action_from_json(data))

    def side_of(self, seat: int) -> int:
        for i, side in enumerate(self.game.sides()):
            if seat in side:
                return i
        raise IllegalActionError(f"there is no player {seat} at this table")

    def peg(self, seat: int | None, points: int, kind: str, items: Sequence[Item] = (),
            *, side: int | None = None, shown: Sequence[CardLike] = ()) -> None:
        """Score ``points`` for the side of ``seat``; ends the game the instant a target is met."""
        if points == 0 or self.is_over:
            return
        if side is None:
            assert seat is not None
            side = self.side_of(seat)
        event = ScoreEvent(side, points, kind, tuple(items), seat, len(self.history), tuple(shown))
        self.rear[side] = self.scores[side]
        self.scores[side] += points
        self.events.append(event)
        self.last_events.append(event)
        self.check_target(side)

    def check_target(self, side: int) -> None:
        target = self.game.target
        if target is not None and self.scores[side] >= target:
            self.on_target(side)

    def on_target(self, side: int) -> None:
        """The side reached the target: by default it wins, at once."""
        self.winner = side

    def result_text(self) -> str:
        names = self.game.side_names()
        if self.winner is not None:
            return f"{names[self.winner]} won"
        if self.loser is not None:
            return f"{names[self.loser]} lost"
        return "in progress"

    # -- views ------------------------------------------------------------------------------

    def view_for(self, seat: int | None = None) -> TableView:
        """What ``seat`` may see (None: a spectator). A game gives its own view in :meth:`_view`."""
        return self._view(self._common_view(seat), seat)

    def _common_view(self, seat: int | None) -> Common:
        """The fields every game's view has, filled from what the base state keeps."""
        sides = self.game.sides()
        names = self.game.side_names()
        last = self.events[-1] if self.events else None
        return Common(
            game=self.game.spec.name,
            title=self.game.spec.title,
            players=tuple(self.game.players),
            options=dict(self.game.options),
            pegged=self.game.spec.pegged,
            sides=tuple(Side(names[i], tuple(sides[i]), self.scores[i], self.rear[i]) for i in range(len(sides))),
            target=self.game.target,
            phase=self.phase,
            prompt=self.prompt(),
            last=None if last is None else LastScore(
                side=last.side, seat=last.seat, points=last.points, kind=last.kind, say=last.say(),
                items=tuple(Said(c.kind, c.points, c.say) for c in counted(last.items))),
            winner=self.winner,
            loser=self.loser,
            seat=seat,
            actions=len(self.history),
        )

    def _view(self, common: Common, seat: int | None) -> TableView:
        """The game's view: its family's (or its own) view class filled from ``common`` and the
        state. Never put a hidden card of another seat in it."""
        return TableView(**common)


# --------------------------------------------------------------------------------- registry


_REGISTRY: dict[str, type[Game]] = {}
_ALIASES: dict[str, str] = {}
G = TypeVar("G", bound=type[Game])


def register(cls: G) -> G:
    """Class decorator: make a game findable by its name and aliases."""
    name = cls.spec.name
    for key in (name, *cls.spec.aliases):
        owner = _ALIASES.get(key.lower())
        if owner is not None and owner != name:
            raise ValueError(f"game name {key!r} is taken by {owner!r}")
        _ALIASES[key.lower()] = name
    _REGISTRY[name] = cls
    return cls


def _load_games() -> None:
    import games.catalog  # noqa: F401  (registers every game)


def get_game(name: str) -> type[Game]:
    """Find a game by name or alias, case-insensitively."""
    _load_games()
    key = _ALIASES.get(str(name).strip().lower())
    if key is None:
        raise UnknownGameError(f"no game called {name!r}; known games: {', '.join(sorted(_REGISTRY))}")
    return _REGISTRY[key]


def registered_games() -> list[Spec]:
    _load_games()
    return [cls.spec for _, cls in sorted(_REGISTRY.items())]


def new_game(name: str, players: int | Sequence[str] = 2,
             options: Mapping[str, Any] | None = None) -> Game:
    return get_game(name)(players, options)
