"""What the peg board draws, taken from a typed game view.

The engine's view says what the game is; :class:`Board` is the little the screen needs of it, with
the board's own limits applied once (a game without a target is drawn to 121, a skunk line off
the board is not drawn, a rear peg never stands ahead of the front one).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from games.cribbage.game import CribbageView
from games.cribbage.revised import RevisedView
from games.view import LastScore, PeggingView, PileView, ScoreTable, ShowCount, Side, SkunkLine, TableView

HOLES = 121  # the board drawn for a game that has no target of its own


@dataclass(frozen=True)
class Board:
    """Everything the peg board draws."""

    title: str
    players: tuple[str, ...]
    pegged: bool
    sides: tuple[Side, ...]
    target: int
    holes: int
    start: int
    skunk_lines: tuple[SkunkLine, ...]
    phase: str
    dealer: int | None
    turn: int | None
    count: int | None
    pile: tuple[str, ...]
    starter: str | None
    show: ShowCount | None
    last: LastScore | None
    winner: int | None
    result: str | None
    message: str | None
    prompt: str
    table: ScoreTable | None
    stacks: tuple[int, ...] = ()  # cards left in each seat's stack or hand (the pile games)
    alert: str | None = None  # to act on at once: a pile to slap
    #: cards faced since the shuffle, when one shuffle serves several deals (Revised Cribbage)
    seen: tuple[str, ...] = ()
    #: (this deal's place in the shuffle, deals a shuffle), when a shuffle serves several deals
    shuffle: tuple[int, int] | None = None

    @property
    def problem(self) -> bool:
        """A message is a question or a problem: it lights the problem light until answered."""
        return self.message is not None

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


def board_of(view: TableView) -> Board:
    """The board to draw for ``view``.

    >>> from games import new_game
    >>> board_of(new_game("ohhell", 3).new_initial_state().view_for(None)).pegged
    False
    """
    target = view.target if view.target is not None and view.target > 0 else HOLES
    pegging = view if isinstance(view, PeggingView) else None
    holes = max(pegging.board or target, target) if pegging is not None else target
    skunks = tuple(line for line in pegging.skunk_lines if 0 < line.at < holes) if pegging is not None else ()
    return Board(
        title=view.title or view.game.capitalize(),
        players=view.players or tuple(side.name for side in view.sides),
        pegged=view.pegged,
        sides=tuple(replace(side, rear=min(side.rear, side.score)) for side in view.sides),
        target=target,
        holes=holes,
        start=max(0, pegging.start) if pegging is not None else 0,
        skunk_lines=skunks,
        phase=view.phase,
        dealer=view.dealer,
        turn=view.turn,
        count=pegging.count if pegging is not None else None,
        pile=pegging.pile if pegging is not None else view.pile if isinstance(view, PileView) else (),
        starter=pegging.starter if pegging is not None else None,
        show=pegging.show if pegging is not None else None,
        last=view.last,
        winner=view.winner,
        result=view.result,
        message=view.message or None,
        prompt=view.prompt,
        table=view.table,
        stacks=view.stacks if isinstance(view, PileView) else (),
        alert=view.alert if isinstance(view, PileView) else None,
        seen=view.seen_since_shuffle if isinstance(view, CribbageView) else (),
        shuffle=(view.deal_in_shuffle, view.deals_per_shuffle) if isinstance(view, RevisedView) else None,
    )
