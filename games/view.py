"""Typed views: what one seat may see of a game, produced by the engine.

``State.view_for(seat)`` returns a :class:`TableView`, or the view of the game's table family
(:class:`PeggingView`, :class:`TricksView`, :class:`PileView`, :class:`LayoutView`) or of the game
itself, which extends its family's. The board reads the fields; ``to_json()`` is what a phone gets
and :func:`view_from_json` reads that back (the board of a running table gets its views as JSON).
Cards are given by their names (``"5H"``, ``"the Savage"``): a view never holds another seat's
hidden card.

>>> from games import new_game
>>> view = new_game("cribbage", ["Ann", "Bob"]).new_initial_state().view_for(None)
>>> type(view).__name__, view.phase, [side.name for side in view.sides]
('CribbageView', 'cut', ['Ann', 'Bob'])
>>> view_from_json(view.to_json()) == view
True
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, NotRequired, TypedDict

from games.errors import ViewError
from games.jsontypes import JSONObject
from games.scores import Item, say_item

#: The value of a game option, as the view gives it.
OptionValue = bool | int | float | str | None

__all__ = [
    "Claim", "Common", "Counted", "Group", "LastScore", "LastTrick", "LayoutView", "OptionValue",
    "PeggingView", "PileView", "Said", "ScoreTable", "ShowCount", "Shortage", "Side", "SkunkLine", "TableView", "TrickCard",
    "TricksView", "counted", "view_from_json",
]


# --------------------------------------------------------------------------------- parts


@dataclass(frozen=True)
class Side:
    """One row of pegs: a player, or a partnership scoring together."""

    name: str
    seats: tuple[int, ...]
    score: int
    rear: int  # the score before the side's last peg move


@dataclass(frozen=True)
class Counted:
    """One scoring feature of a breakdown, with its cumulative say ("fifteen 4")."""

    kind: str
    cards: tuple[str, ...]
    points: int
    say: str


def counted(items: Sequence[Item]) -> tuple[Counted, ...]:
    """Score items as the view gives them, each said with the running total.

    >>> from games.scores import Item
    >>> [c.say for c in counted([Item("fifteen", (), 2), Item("pair", (), 2)])]
    ['fifteen 2', 'pair 4']
    """
    out: list[Counted] = []
    running = 0
    for item in items:
        running += item.points
        out.append(Counted(item.kind, tuple(str(c) for c in item.cards), item.points, say_item(item, running)))
    return tuple(out)


@dataclass(frozen=True)
class Said:
    """One part of a score's breakdown as it is said; without its cards, which may be back in
    the pack (or in another seat's new hand) by the time the view is read."""

    kind: str
    points: int
    say: str


@dataclass(frozen=True)
class LastScore:
    """The last change of score: whose, how much, the moment (``kind``) and its breakdown."""

    side: int
    seat: int | None
    points: int
    kind: str
    say: str
    items: tuple[Said, ...] = ()
    # False once a new deal has begun (the page then shows no last score); games without deals
    # leave it True
    this_deal: bool = True


@dataclass(frozen=True)
class ScoreTable:
    """A score sheet for games kept on paper: a header, a row per deal, the totals."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    totals: tuple[str, ...]


@dataclass(frozen=True)
class SkunkLine:
    label: str  # "skunk", "double skunk"
    at: int  # the hole a loser must pass to escape it


@dataclass(frozen=True)
class Shortage:
    """Bhargage: the suits a shown hand lacks, and the points they give the opponent."""

    seat: int
    points: int
    missing: tuple[str, ...]


@dataclass(frozen=True)
class ShowCount:
    """The hand (or crib) being counted in the show. ``cards`` and ``items`` are None when the
    hand is announced but not shown to this seat (Noddy)."""

    seat: int
    what: str  # "hand" or "crib"
    cards: tuple[str, ...] | None
    starter: str | None
    total: int
    claimed: int  # what its owner pegged (less than the total when muggins is played)
    items: tuple[Counted, ...] | None
    shortage: Shortage | None = None


@dataclass(frozen=True)
class TrickCard:
    seat: int
    card: str


@dataclass(frozen=True)
class LastTrick:
    """The trick taken last, as it lay, and the seat that took it."""

    cards: tuple[TrickCard, ...]
    winner: int


@dataclass(frozen=True)
class Claim:
    """A revoke the referee proved (a later card showed the player could have played right): the
    deal (from 1) and trick, the player, the card played and the rule it broke, the card that
    proves it, the penalty in words and in chips or points, and the players' decision (``status``
    ``open`` | ``accepted`` | ``dismissed``), said in one sentence."""

    deal: int
    trick: int
    player: int
    card: str
    rule: str
    proof: str
    penalty: str
    amount: int
    status: str
    say: str


@dataclass(frozen=True)
class Group:
    """Cards read together on the table: a meld, a combination, a line of a layout."""

    seat: int | None  # whose group; None for one in the middle
    name: str  # "run", "set", "bomb", "row 2", ...
    cards: tuple[str, ...]
    points: int = 0


@dataclass(frozen=True)
class Question:
    """What the device is asking the table (a doubtful card, one it cannot read, a refused play):
    ``kind`` ``confirm`` | ``unreadable`` | ``illegal``, where it lies, and what OK would apply."""

    kind: str
    text: str
    zone: str | None = None
    slot: int | None = None
    card: str | None = None
    actions: tuple[Mapping[str, object], ...] = ()


# --------------------------------------------------------------------------------- views


class Common(TypedDict):
    """The fields of :class:`TableView` as the engine fills them for every game; a game adds the
    ones that are not required (``dealer``, ``turn``, ...) where it has them."""

    game: str
    title: str
    players: tuple[str, ...]
    options: Mapping[str, OptionValue]
    pegged: bool
    sides: tuple[Side, ...]
    target: int | None
    phase: str
    prompt: str
    last: LastScore | None
    winner: int | None
    loser: int | None
    seat: int | None
    actions: int
    dealer: NotRequired[int | None]
    turn: NotRequired[int | None]
    result: NotRequired[str | None]
    table: NotRequired[ScoreTable | None]
    hand: NotRequired[tuple[str, ...] | None]


_STYLES: dict[str, type[TableView]] = {}


@dataclass(frozen=True, kw_only=True)
class TableView:
    """The fields every game's view has. ``style`` names the view class in JSON: the table family
    first (``"pegging"``), then the game's own extension (``"pegging.cribbage"``)."""

    style: ClassVar[str] = "table"

    game: str
    title: str
    players: tuple[str, ...]
    options: Mapping[str, OptionValue]
    pegged: bool  # kept on a peg board; otherwise on a score sheet (``table``)
    sides: tuple[Side, ...]
    target: int | None
    phase: str
    prompt: str
    dealer: int | None = None
    turn: int | None = None  # the seat the table waits for
    last: LastScore | None
    winner: int | None  # side indices
    loser: int | None
    result: str | None = None  # "win", "skunk", "lost", ... once the game is over
    message: str | None = None  # a question or a problem the table must see (set by the session)
    table: ScoreTable | None = None
    seat: int | None  # whose view this is; None for a spectator
    hand: tuple[str, ...] | None = None  # the seat's own hand, when it is known
    actions: int  # how many actions the game has had
    # what the table adds to every game's view (the session sets them; the engine leaves them be)
    ask: Question | None = None  # the question the device is waiting on
    game_id: int | None = None  # the stored game this view is of
    can_undo: bool = False
    misread: int = 0  # cards of this game the table read as others (named again or corrected)
    asked: int = 0  # cards of this game the table asked the players about
    teach: str | None = None  # why the phones offer to teach pegpi the deck: "misread" or "asked"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        style = cls.__dict__.get("style")
        if not isinstance(style, str) or style in _STYLES:
            raise ViewError(f"the view {cls.__name__} needs a style of its own, not {style!r}")
        _STYLES[style] = cls

    @property
    def family(self) -> str:
        """The table family: ``"pegging"``, ``"tricks"``, ``"pile"``, ``"layout"`` (``"table"``)."""
        return self.style.split(".")[0]

    def to_json(self) -> JSONObject:
        """The view as a phone gets it: an object with ``style`` and a key per field."""
        out: JSONObject = {"style": self.style}
        for f in dataclasses.fields(self):
            out[f.name] = _to_json(getattr(self, f.name))
        return out


_STYLES[TableView.style] = TableView


@dataclass(frozen=True, kw_only=True)
class PeggingView(TableView):
    """The cribbage family's table: a count with its pile, a starter, a crib and the show."""

    style: ClassVar[str] = "pegging"

    board: int | None  # holes on the board (Bhargage plays to 111 on a board of 121)
    start: int = 0  # the hole the pegs start from
    skunk_lines: tuple[SkunkLine, ...] = ()
    count: int | None = None  # the count of the play, while there is one
    pile: tuple[str, ...] = ()  # the cards of the current count
    starter: str | None = None
    show: ShowCount | None = None  # the hand (or crib) counted last
    rows: tuple[tuple[str, ...], ...] = ()  # each seat's cards played this deal
    held: tuple[int, ...] = ()  # how many cards each seat still holds
    crib: tuple[str, ...] | None = None  # once turned up
    cuts: Mapping[int, str] = field(default_factory=dict)  # cards cut for the deal, by seat
    deal: int = 0  # deals so far
    muggins_open: bool = False  # an overlooked score may be claimed now
    laid_away: tuple[str, ...] | None = None  # the seat's own cards given to the crib


@dataclass(frozen=True, kw_only=True)
class TricksView(TableView):
    """A trick game's table: trumps, bids, the trick on the table and tricks taken."""

    style: ClassVar[str] = "tricks"

    trump: str | None  # the card turned for trumps
    trump_suit: str | None
    bids: tuple[int | None, ...]  # per seat; None before the seat bids
    tricks: tuple[int, ...]  # tricks taken this deal, per seat
    trick: tuple[TrickCard, ...]  # the trick on the table, in the order played
    cards_this_deal: int
    trick_number: int | None = None  # the trick being played, from 1; None outside the play
    last_trick: LastTrick | None = None
    active: tuple[int, ...] = ()  # the seats playing this deal, in order of play (Bourré's passers are out)
    legal: tuple[str, ...] | None = None  # the seat's legal cards, when its hand is known and it is to play
    claims: tuple[Claim, ...] = ()  # the referee's revoke claims, open and decided


@dataclass(frozen=True, kw_only=True)
class PileView(TableView):
    """One central pile whose top card counts, each seat's stack beside it (Beggar My Neighbour,
    Egyptian Ratscrew, the main line of Eleusis)."""

    style: ClassVar[str] = "pile"

    pile: tuple[str, ...]  # face up, the top card last
    pile_seats: tuple[int, ...] = ()  # who played each card of the pile, in order (empty: not kept)
    stacks: tuple[int, ...]  # cards left in each seat's stack (or hand); empty before the deal
    out: tuple[int, ...] = ()  # seats out of the game
    owing: int | None = None  # the seat that must pay cards onto the pile (a court card was played)
    owed: int = 0  # how many cards it still owes
    payee: int | None = None  # the seat whose pay card is being paid for
    takes: int | None = None  # the seat that must take the pile now
    tricks: int = 0  # piles taken so far
    cards_played: int = 0
    alert: str | None = None  # something to act on at once, announced by the board and lights ("slap: pair")

    @property
    def top(self) -> str | None:
        return self.pile[-1] if self.pile else None


@dataclass(frozen=True, kw_only=True)
class LayoutView(TableView):
    """Groups of cards read together (Gin melds and deadwood, Fight the Landlord combinations,
    Ricochet hands, Skull mats, the Cribbage Patience square)."""

    style: ClassVar[str] = "layout"

    groups: tuple[Group, ...] = ()  # on the table now
    deadwood: tuple[int | None, ...] = ()  # unmatched points per seat, where known
    discard: str | None = None  # the top of the discard pile


# --------------------------------------------------------------------------------- JSON


def _to_json(value: object) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [_to_json(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _to_json(v) for k, v in value.items()}
    return value


def view_from_json(data: object) -> TableView:
    """Read a view back from its JSON (``to_json()``); keys that are not the view's (a session's
    ``ask``) are left out. Raises :class:`ViewError` naming what is wrong.

    >>> view_from_json({"style": "pegging"})
    Traceback (most recent call last):
    ...
    games.errors.ViewError: a pegging view needs 'game'
    """
    if not isinstance(data, Mapping):
        raise ViewError(f"a view is a JSON object, not {type(data).__name__}")
    style = data.get("style", "table")
    if not isinstance(style, str):
        raise ViewError(f"a view's style is text, not {style!r}")
    if style not in _STYLES:
        import games.catalog  # noqa: F401  (a game's own view class is defined with the game)
    cls = _STYLES.get(style)
    if cls is None:
        raise ViewError(f"no view has the style {style!r} (known: {', '.join(sorted(_STYLES))})")
    view: TableView = _dataclass(cls, data, f"a {style} view")
    return view


def _dataclass(cls: type[Any], data: Mapping[str, Any], where: str) -> Any:
    hints = typing.get_type_hints(cls)
    kwargs: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.name not in data:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise ViewError(f"{where} needs {f.name!r}")
            continue
        kwargs[f.name] = _parse(hints[f.name], data[f.name], f"{where}: {f.name}")
    return cls(**kwargs)


def _parse(hint: Any, value: Any, where: str) -> Any:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (types.UnionType, typing.Union):
        for arg in args:  # None first, then the first kind the value is
            if arg is type(None) and value is None:
                return None
        for arg in args:
            if arg is not type(None):
                try:
                    return _parse(arg, value, where)
                except ViewError:
                    continue
        raise ViewError(f"{where} cannot be {value!r}")
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise ViewError(f"{where} is a list, not {value!r}")
        return tuple(_parse(args[0], v, where) for v in value)
    if origin in (Mapping, dict):
        if not isinstance(value, Mapping):
            raise ViewError(f"{where} is an object, not {value!r}")
        key = args[0]
        out = {}
        for k, v in value.items():
            if key is int:
                try:
                    k = int(k)
                except ValueError:
                    raise ViewError(f"{where} is keyed by seat numbers, not {k!r}") from None
            out[k] = _parse(args[1], v, where)
        return out
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if not isinstance(value, Mapping):
            raise ViewError(f"{where} is an object, not {value!r}")
        return _dataclass(hint, value, where)
    if hint is type(None):
        if value is not None:
            raise ViewError(f"{where} is null, not {value!r}")
        return None
    if hint is bool:
        if not isinstance(value, bool):
            raise ViewError(f"{where} is true or false, not {value!r}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ViewError(f"{where} is a whole number, not {value!r}")
        return value
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ViewError(f"{where} is a number, not {value!r}")
        return value
    if hint is str:
        if not isinstance(value, str):
            raise ViewError(f"{where} is text, not {value!r}")
        return value
    raise ViewError(f"{where}: a view cannot hold {hint!r}")  # pragma: no cover - a field of a new type
