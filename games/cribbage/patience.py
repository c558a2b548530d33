"""Cribbage Patience (seed 003): sixteen cards laid out one at a time into a four-by-four square,
each touching one already placed, then a starter. Every row and every column is counted as a
cribbage hand of four with the starter; 61 or more wins.

On the mat this is a *layout* game: the camera reads the whole square at once (action
``layout``, sixteen cards in row order), or follows it card by card (action ``place``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from games.cards import FRENCH_52, Card, check_cards
from games.cribbage.actions import Starter
from games.cribbage.scoring import STANDARD, score_show
from games.engine import Action, Game, Option, Score, Spec, State, register
from games.errors import CardCountError, CardError, IllegalActionError
from games.jsontypes import JSONObject
from games.playouts import PlayoutRequest, register_playout
from games.spec import TARGET_HIGH, TARGET_LOW
from games.table import GRID, Zone
from games.view import Common, Counted, LayoutView, TableView, counted

SIZE = 4
WIN = 61


@dataclass(frozen=True)
class Place(Action):
    """One card put into the square at ``row``, ``col`` (0-3 each)."""

    act: ClassVar[str] = "place"
    card: Card
    row: int
    col: int


@dataclass(frozen=True)
class Layout(Action):
    """The whole square read at once: sixteen cards, row by row."""

    act: ClassVar[str] = "layout"
    cards: tuple[Card, ...]


def line_names() -> list[str]:
    return [f"row {r + 1}" for r in range(SIZE)] + [f"column {c + 1}" for c in range(SIZE)]


def lines(grid: Sequence[Card]) -> list[list[Card]]:
    """The four rows then the four columns of a square given in row order."""
    rows = [list(grid[r * SIZE:(r + 1) * SIZE]) for r in range(SIZE)]
    cols = [[grid[r * SIZE + c] for r in range(SIZE)] for c in range(SIZE)]
    return rows + cols


def score_square(grid: Sequence[Card], starter: Card) -> list[tuple[str, Score]]:
    """Each row and column counted as a hand (not a crib) with the starter.

    >>> from games.cards import parse_cards
    >>> grid = parse_cards("5H 5C 5S JD AS 2S 3S 4S 6H 7H 8H 9H KC QC 10C 9C")
    >>> [s.total for _, s in score_square(grid, Card.parse("5D"))][:1]
    [29]
    """
    return [(name, score_show(line, starter, False, STANDARD)) for name, line in zip(line_names(), lines(grid),
                                                                                      strict=True)]


@register
class CribbagePatience(Game):
    spec = Spec(
        name="patience",
        title="Cribbage Patience",
        players=(1,),
        deck="french52",
        table="layout",
        target=WIN,
        aliases=("cribbage patience", "cribbage square", "cribbage solitaire"),
        options=(Option("target", WIN, "points needed to win", low=TARGET_LOW, high=TARGET_HIGH),),
        summary="A 4x4 square and a starter; every row and column scored as a hand; 61 wins.",
    )
    actions = (Place, Layout, Starter)

    def parse_card(self, text: str) -> Card:
        card = Card.parse(text)
        if card.is_joker:
            raise CardError(f"{text!r}: Cribbage Patience is played without jokers")
        return card

    @property
    def deck(self) -> tuple[Card, ...]:
        return FRENCH_52

    def score_cards(self, cards: Sequence[str], starter: str | None, crib: bool = False) -> list[tuple[str, Score]]:
        """`pegpi score patience`: sixteen cards in row order and the starter; one line per row
        and column."""
        grid = [self.parse_card(c) for c in cards]
        if len(grid) != SIZE * SIZE:
            raise CardCountError(
                f"Cribbage Patience needs the {SIZE * SIZE} cards of the square in row order, got {len(grid)}: "
                + " ".join(cards)
            )
        if not starter:
            raise CardCountError("Cribbage Patience needs the starter: --starter CARD")
        start = self.parse_card(starter)
        check_cards(grid + [start], texts=list(cards) + [starter], what="the square and starter")
        return score_square(grid, start)

    def new_initial_state(self) -> PatienceState:
        return PatienceState(self)


class PatienceState(State):
    game: CribbagePatience

    def __init__(self, game: CribbagePatience) -> None:
        super().__init__(game)
        self.grid: dict[tuple[int, int], Card] = {}
        self.starter: Card | None = None
        self.lines: list[tuple[str, Score]] = []

    @property
    def phase(self) -> str:
        if self.is_over:
            return "over"
        return "layout" if len(self.grid) < SIZE * SIZE else "starter"

    def prompt(self) -> str:
        if self.is_over:
            return self.result_text()
        if self.phase == "layout":
            return f"lay out the square: {SIZE * SIZE - len(self.grid)} cards to go"
        return "turn up the starter"

    def _apply(self, action: Action) -> None:
        if isinstance(action, Place):
            self._place(action.card, action.row, action.col)
        elif isinstance(action, Layout):
            if self.grid:
                raise IllegalActionError("the square is already being laid out card by card")
            if len(action.cards) != SIZE * SIZE:
                raise IllegalActionError(
                    f"the square has {SIZE * SIZE} cards, not {len(action.cards)}"
                )
            for i, card in enumerate(action.cards):
                self._check_new(card)
                self.grid[divmod(i, SIZE)] = card
        elif isinstance(action, Starter):
            self._turn_starter(action.card)

    def _check_new(self, card: Card) -> None:
        if card in self.grid.values():
            raise IllegalActionError(f"{card} is already in the square")

    def _place(self, card: Card, row: int, col: int) -> None:
        if self.phase != "layout":
            raise IllegalActionError("the square is complete: turn up the starter")
        if not (0 <= row < SIZE and 0 <= col < SIZE):
            raise IllegalActionError(f"the square is {SIZE} by {SIZE}: there is no place at row {row}, column {col}")
        if (row, col) in self.grid:
            raise IllegalActionError(f"row {row + 1}, column {col + 1} already holds {self.grid[(row, col)]}")
        self._check_new(card)
        if self.grid and not any(abs(r - row) <= 1 and abs(c - col) <= 1 for r, c in self.grid):
            raise IllegalActionError(f"{card} must touch a card already laid (side or corner)")
        self.grid[(row, col)] = card

    def _turn_starter(self, card: Card) -> None:
        if self.phase != "starter":
            raise IllegalActionError(f"cannot turn the starter yet: {self.prompt()}")
        self._check_new(card)
        self.starter = card
        grid = [self.grid[divmod(i, SIZE)] for i in range(SIZE * SIZE)]
        self.lines = score_square(grid, card)
        for name, score in self.lines:
            self.peg(0, score.total, name, score.items)
        target = self.game.target or WIN
        if self.scores[0] >= target:
            self.winner = 0
        else:
            self.loser = 0  # every line is counted and the square fell short

    def check_target(self, side: int) -> None:
        """The square is judged once every line is counted, not as the target is passed."""

    # -- the layout table: the square is the mat's grid, row by row; the starter is laid on it

    def whose_turn(self) -> int | None:
        return None if self.is_over else 0

    def zone_owner(self, zone: Zone) -> int | None:
        return 0 if zone == GRID else None

    def zone_label(self, zone: Zone) -> str:
        return "the square" if zone == GRID else zone.name

    def zone_cards(self, zone: Zone) -> list[str]:
        if zone != GRID:
            return []
        cards = [str(self.grid[place]) for place in sorted(self.grid)]
        return cards + ([str(self.starter)] if self.starter else [])

    def card_means(self, zone: Zone, card: str) -> list[Action] | None:
        if zone != GRID or self.is_over:
            return None
        known = self.game.parse_card(card)
        if known in self.grid.values() or known == self.starter:
            return None
        return [Starter(known)] if self.phase == "starter" else []

    def slot_means(self, zone: Zone, slot: int, card: str) -> list[Action] | None:
        means = self.card_means(zone, card)
        if means == [] and 0 <= slot < SIZE * SIZE:
            row, col = divmod(slot, SIZE)
            return [Place(self.game.parse_card(card), row, col)]
        return means

    def laid_by(self, action: Action) -> list[tuple[Zone, int, str]]:
        if isinstance(action, Place):
            return [(GRID, action.row * SIZE + action.col, str(action.card))]
        if isinstance(action, Layout):
            return [(GRID, i, str(card)) for i, card in enumerate(action.cards)]
        if isinstance(action, Starter):
            return [(GRID, 0, str(action.card))]  # turned up and laid on the square's first card
        return []

    def _view(self, common: Common, seat: int | None) -> TableView:
        common["result"] = "win" if self.winner is not None else "lost" if self.loser is not None else None
        return PatienceView(
            **common,
            grid=tuple(tuple(str(self.grid[(r, c)]) if (r, c) in self.grid else None for c in range(SIZE))
                       for r in range(SIZE)),
            starter=str(self.starter) if self.starter else None,
            lines=tuple(LineCount(name, score.total, counted(score.items)) for name, score in self.lines),
        )


@dataclass(frozen=True)
class LineCount:
    """One row or column of the square, counted with the starter."""

    line: str
    total: int
    items: tuple[Counted, ...]


@dataclass(frozen=True, kw_only=True)
class PatienceView(LayoutView):
    style: ClassVar[str] = "layout.patience"

    grid: tuple[tuple[str | None, ...], ...]  # the square, row by row; None where no card lies yet
    starter: str | None
    lines: tuple[LineCount, ...]  # once the starter is turned


@register_playout("patience")
def _playout(request: PlayoutRequest) -> JSONObject:
    """At the table the square grows card by card, each into a free place touching the others."""
    record: JSONObject = random_square(request.seed, card_by_card=True)
    return record


def random_square(seed: int = 0, *, card_by_card: bool = True) -> dict[str, Any]:
    """A whole game of Cribbage Patience with random cards and places, as a record."""
    import random

    from games.records import to_record

    rng = random.Random(seed)
    game = CribbagePatience(["Solo"])
    pack = list(FRENCH_52)
    rng.shuffle(pack)
    actions: list[Action] = []
    if card_by_card:
        filled: set[tuple[int, int]] = set()
        for card in pack[:SIZE * SIZE]:
            free = [(r, c) for r in range(SIZE) for c in range(SIZE) if (r, c) not in filled
                    and (not filled or any(abs(r - a) <= 1 and abs(c - b) <= 1 for a, b in filled))]
            row, col = rng.choice(free)
            filled.add((row, col))
            actions.append(Place(card, row, col))
    else:
        actions.append(Layout(tuple(pack[:SIZE * SIZE])))
    actions.append(Starter(pack[SIZE * SIZE]))
    state: State = game.new_initial_state()
    for action in actions:
        state = state.apply(action)
    return to_record(game, actions)
