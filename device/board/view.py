"""Reading a game view defensively: whatever keys are missing or odd, the board still draws.

The engine's ``view_for(state, seat)`` is a JSON-ready dict. The drawing code works on the small
frozen values below, so every default lives in one place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Side:
    """One row of pegs: a player, or a team in a partnership game."""

    name: str
    seats: tuple[int, ...]
    score: int
    rear: int


@dataclass(frozen=True)
class SkunkLine:
    label: str
    at: int


@dataclass(frozen=True)
class Moment:
    """The last scoring moment: who scored, how much, and what to say."""

    side: int | None
    seat: int | None
    points: int
    kind: str
    say: str


@dataclass(frozen=True)
class ShowCount:
    """The hand (or crib) being counted in the show."""

    seat: int | None
    what: str
    cards: tuple[str, ...]
    starter: str | None
    total: int
    says: tuple[str, ...]


@dataclass(frozen=True)
class ScoreTable:
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    totals: tuple[str, ...]


@dataclass(frozen=True)
class Board:
    """Everything the peg board draws, with sensible defaults."""

    title: str = ""
    players: tuple[str, ...] = ()
    pegged: bool = True
    sides: tuple[Side, ...] = ()
    target: int = 121
    holes: int = 121
    start: int = 0
    skunk_lines: tuple[SkunkLine, ...] = ()
    phase: str = ""
    dealer: int | None = None
    turn: int | None = None
    count: int | None = None
    pile: tuple[str, ...] = ()
    starter: str | None = None
    show: ShowCount | None = None
    last: Moment | None = None
    winner: int | None = None
    result: str | None = None
    message: str | None = None
    problem: bool = False
    prompt: str = ""
    table: ScoreTable | None = None

    def seat_name(self, seat: int | None) -> str:
        if seat is not None and 0 <= seat < len(self.players):
            return self.players[seat]
        for side in self.sides:
            if seat in side.seats:
                return side.name
        return "" if seat is None else f"P{seat + 1}"

    def side_of(self, seat: int | None) -> int | None:
        for index, side in enumerate(self.sides):
            if seat in side.seats:
                return index
        return None


def _int(value: Any, default: int = 0) -> int:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value)
    if isinstance(value, str):
        try:
            return int(value.strip())
        except ValueError:
            return default
    return default


def _opt_int(value: Any) -> int | None:
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return int(value)
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    return None


def _str(value: Any, default: str = "") -> str:
    return default if value is None else str(value)


def _strs(value: Any) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, Sequence):
        return ()
    return tuple(str(v) for v in value if v is not None)


def _ints(value: Any) -> tuple[int, ...]:
    if isinstance(value, str) or not isinstance(value, Sequence):
        return ()
    return tuple(_int(v) for v in value)


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _sides(view: Mapping[str, Any], players: tuple[str, ...]) -> tuple[Side, ...]:
    raw = view.get("sides")
    sides: list[Side] = []
    if isinstance(raw, Sequence) and not isinstance(raw, str):
        for index, item in enumerate(raw):
            entry = _mapping(item)
            raw_seats = entry.get("seats")
            seats = _ints(raw_seats) or (index,)
            score = _int(entry.get("score"))
            rear = _int(entry.get("rear"), score)
            name = _str(entry.get("name")) or " & ".join(
                players[s] for s in seats if 0 <= s < len(players)) or f"P{index + 1}"
            sides.append(Side(name=name, seats=seats, score=score, rear=min(rear, score)))
    if not sides:
        sides = [Side(name=p, seats=(i,), score=0, rear=0) for i, p in enumerate(players)]
    return tuple(sides)


def _show(value: Any) -> ShowCount | None:
    raw = _mapping(value)
    if not raw:
        return None
    items = raw.get("items") or ()
    says: list[str] = []
    if isinstance(items, Sequence) and not isinstance(items, str):
        for item in items:
            entry = _mapping(item)
            say = _str(entry.get("say")) or f"{_str(entry.get('kind'), 'points')} {_int(entry.get('points'))}"
            says.append(say)
    return ShowCount(
        seat=_opt_int(raw.get("seat")),
        what=_str(raw.get("what"), "hand"),
        cards=_strs(raw.get("cards")),
        starter=_str(raw.get("starter")) or None,
        total=_int(raw.get("total")),
        says=tuple(says),
    )


def moment(value: Any) -> Moment | None:
    """A scoring moment (``view["last"]``), or None when there is none."""
    raw = _mapping(value)
    if not raw:
        return None
    points = _int(raw.get("points"))
    kind = _str(raw.get("kind"))
    say = _str(raw.get("say")) or (f"{kind} {points}".strip() if kind else f"{points} points")
    return Moment(side=_opt_int(raw.get("side")), seat=_opt_int(raw.get("seat")), points=points,
                  kind=kind, say=say)


def _table(value: Any) -> ScoreTable | None:
    raw = _mapping(value)
    if not raw:
        return None
    rows = raw.get("rows") or ()
    return ScoreTable(
        columns=_strs(raw.get("columns")),
        rows=tuple(_strs(r) for r in rows) if isinstance(rows, Sequence) else (),
        totals=_strs(raw.get("totals")),
    )


def _message(value: Any) -> tuple[str | None, bool]:
    """The text to show and whether it is a problem (a red light), from a string or a dict."""
    if isinstance(value, Mapping):
        text = _str(value.get("text")) or None
        return text, text is not None and _str(value.get("level"), "problem") != "info"
    text = _str(value) or None
    return text, text is not None


def read(view: Mapping[str, Any] | None) -> Board:
    """The board to draw for ``view``; missing or malformed keys get defaults, never an error."""
    view = view or {}
    players = _strs(view.get("players"))
    sides = _sides(view, players)
    target = _int(view.get("target"), 121)
    target = target if target > 0 else 121
    holes = max(_int(view.get("board"), target), target)
    lines = view.get("skunk_lines") or ()
    skunks: list[SkunkLine] = []
    if isinstance(lines, Sequence) and not isinstance(lines, str):
        for line in lines:
            entry = _mapping(line)
            at = _opt_int(entry.get("at"))
            if at is not None and 0 < at < holes:
                skunks.append(SkunkLine(label=_str(entry.get("label"), "skunk"), at=at))
    message, problem = _message(view.get("message"))
    count = _opt_int(view.get("count"))
    return Board(
        title=_str(view.get("title")) or _str(view.get("game")).capitalize(),
        players=players or tuple(s.name for s in sides),
        pegged=view.get("pegged", True) is not False,
        sides=sides,
        target=target,
        holes=holes,
        start=max(0, _int(view.get("start"))),
        skunk_lines=tuple(skunks),
        phase=_str(view.get("phase")),
        dealer=_opt_int(view.get("dealer")),
        turn=_opt_int(view.get("turn")),
        count=count,
        pile=_strs(view.get("pile")),
        starter=_str(view.get("starter")) or None,
        show=_show(view.get("show")),
        last=moment(view.get("last")),
        winner=_opt_int(view.get("winner")),
        result=_str(view.get("result")) or None,
        message=message,
        problem=problem,
        table=_table(view.get("table")),
        prompt=_str(view.get("prompt")),
    )
