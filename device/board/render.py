"""The peg board as a picture: ``render_board(view, size) -> PIL.Image``, a pure function of the view.

Layout, top to bottom: a panel saying what is happening (whose deal, the count and the cards of
the play, the hand being counted in the show, the winner), then one street per side with its
name, its score in figures and its two pegs. Whose turn it is has an arrow; the dealer a boxed D.
Games that are not pegged draw their score table instead (:mod:`device.board.table`).
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from device.board import text
from device.board.panel import LINE_GAP, Panel, draw_panel, panel_size
from device.board.table import draw_table
from device.board.track import Box, Ink, draw_track
from device.board.view import Board, board_of
from games.view import Side, TableView

Size = tuple[int, int]

TWO_LINE = 24  # a side row at least this tall has its name and big score above the street
ONE_LINE = 10  # the shortest comfortable one-line row
TIGHT = 8  # the shortest row at all (capital letters and digits only just fit)


def pick_mode(size: Size, mode: str | None = None) -> str:
    """``"1"`` for the small monochrome panels, ``"L"`` (16 greys) for a 256-wide SSD1322."""
    if mode in ("1", "L"):
        return mode
    if mode is not None:
        return "1" if mode == "1" else "L"
    return "L" if size[0] >= 256 else "1"


def render_board(view: TableView, size: Size = (128, 64), *, mode: str | None = None) -> Image.Image:
    """Draw the board for ``view`` on a ``size`` screen. Mode ``"1"`` or ``"L"`` (default by size).

    >>> from games import new_game
    >>> render_board(new_game("cribbage", ["Ann", "Bob"]).new_initial_state().view_for(None), (128, 32)).size
    (128, 32)
    """
    board = board_of(view)
    ink = Ink.for_mode(pick_mode(size, mode))
    image = Image.new(ink.mode, size, ink.bg)
    if not board.pegged and board.table is not None:
        draw_table(image, ink, board)
    else:
        draw_pegboard(image, ink, board)
        return image
    if board.message:
        draw_message(image, ink, board.message, height=min(size[1], 3 * LINE_GAP + 3))
    return image


@dataclass(frozen=True)
class Layout:
    panel: int  # rows given to the panel at the top
    row: int  # rows per side
    two_line: bool


def layout(board: Board, size: Size) -> Layout:
    width, height = size
    sides = max(1, len(board.sides))
    wanted = panel_size(board, width)
    if board.message:
        lines = len(text.wrap(board.message, width - 6))
        wanted = Panel(want=min(3, lines) * LINE_GAP + 3, least=min(3, lines) * LINE_GAP + 3)
        if height - wanted.least < sides * ONE_LINE:
            return Layout(height, 0, False)  # a question that needs an answer gets the whole screen
    if height - wanted.want >= sides * TWO_LINE:
        return Layout(wanted.want, (height - wanted.want) // sides, True)
    if height - wanted.want >= sides * ONE_LINE:
        return Layout(wanted.want, min((height - wanted.want) // sides, TWO_LINE - 1), False)
    if height - wanted.least >= sides * ONE_LINE:
        panel = height - sides * ONE_LINE
        return Layout(panel, ONE_LINE, False)
    if height - sides * TIGHT >= TIGHT and not board.message:
        # Tight rows leave a line for the count: capitals and figures only just fit.
        return Layout(height - sides * TIGHT, TIGHT, False)
    return Layout(0, max(TIGHT, height // sides), False)


def draw_pegboard(image: Image.Image, ink: Ink, board: Board, *, pegs: dict[int, int] | None = None) -> None:
    """The panel and every side's street. ``pegs`` moves front pegs (side -> points) for animation."""
    width, height = image.size
    plan = layout(board, image.size)
    if board.message:
        draw_message(image, ink, board.message, height=plan.panel)
    elif plan.panel:
        draw_panel(image, ink, Box(0, 0, width - 1, plan.panel - 2), board)
    columns = Columns.for_board(board, width, plan)
    for index, side in enumerate(board.sides if plan.row else ()):
        y0 = plan.panel + index * plan.row
        if y0 + min(plan.row, TIGHT) > height:
            break
        score = (pegs or {}).get(index, side.score)
        draw_side(image, ink, board, index, Box(0, y0, width - 1, min(height, y0 + plan.row) - 1),
                  columns, plan.two_line, score)


@dataclass(frozen=True)
class Columns:
    """Where the name, dealer box, street and score go in a one-line row (the same for every row,
    so the streets line up and the pegs compare at a glance)."""

    name: int
    dealer: int
    track: tuple[int, int]
    score_scale: int

    @classmethod
    def for_board(cls, board: Board, width: int, plan: Layout) -> Columns:
        scale = 2 if plan.row >= 16 and width >= 200 else 1
        name_chars = 6 if width >= 200 else 3
        name = 6
        dealer = name + text.width("M" * name_chars) + 3
        left = dealer + (10 if board.dealer is not None else 0)
        digits = max(3, len(str(board.target)))
        right = width - 1 - text.width("8" * digits, scale) - 5
        return cls(name=name, dealer=dealer, track=(left, right), score_scale=scale)


def draw_side(image: Image.Image, ink: Ink, board: Board, index: int, box: Box, columns: Columns,
              two_line: bool, score: int) -> None:
    side = board.sides[index]
    turn = board.turn is not None and board.turn in side.seats and board.phase not in ("over",)
    dealer = board.dealer is not None and board.dealer in side.seats
    won = board.phase == "over" and board.winner == index
    rear = min(side.rear, score)
    if two_line:
        _two_line(image, ink, board, side, box, turn=turn, dealer=dealer, won=won, score=score, rear=rear)
    else:
        _one_line(image, ink, board, side, box, columns, turn=turn, dealer=dealer, won=won,
                  score=score, rear=rear)


def _two_line(image: Image.Image, ink: Ink, board: Board, side: Side, box: Box, *, turn: bool,
              dealer: bool, won: bool, score: int, rear: int) -> None:
    top = box.y0
    score_text = str(score)
    score_x = text.draw_right(image, box.x1, top + 1, score_text, ink.fg, 2)
    name_y = top + 1 + 2 * text.DIGIT - text.DIGIT - 1  # bottom of the name on the score's baseline
    if turn:
        _arrow(image, ink, box.x0, name_y)
    x = box.x0 + 7
    room = score_x - x - 4 - (12 if dealer else 0)
    name = text.fit(side.name, room)
    if won:
        _inverted(image, ink, x, name_y, name)
        x = x + text.width(name) + 4
    else:
        x = text.draw(image, x, name_y, name, ink.fg) + 2
    if dealer:
        _inverted(image, ink, x + 1, name_y, "D")
    track_top = top + 2 * text.DIGIT + 3
    track = Box(box.x0, track_top, box.x1, min(box.y1 - 1, track_top + 8))  # a tall row keeps a 9-pixel street
    draw_track(image, ink, track, board, score, rear)


def _one_line(image: Image.Image, ink: Ink, board: Board, side: Side, box: Box, columns: Columns, *,
              turn: bool, dealer: bool, won: bool, score: int, rear: int) -> None:
    tight = box.height < ONE_LINE
    y = box.y0 + max(0, (box.height - text.DIGIT) // 2) - (1 if not tight else 0)
    name = short_name(side.name, (columns.dealer - columns.name) // text.CELL)
    name = name.upper() if tight else name
    if turn:
        _arrow(image, ink, box.x0, y)
    if won:
        _inverted(image, ink, columns.name, y, name)
    else:
        text.draw(image, columns.name, y, name, ink.fg)
    if dealer:
        _inverted(image, ink, columns.dealer + 1, y, "D")
    scale = columns.score_scale
    score_y = box.y0 + max(0, (box.height - text.DIGIT * scale) // 2)
    text.draw_right(image, box.x1, score_y, str(score), ink.fg, scale)
    left, right = columns.track
    track_h = min(box.height - 2, 9)
    ty = box.y0 + (box.height - track_h) // 2
    draw_track(image, ink, Box(left, ty, right, ty + track_h - 1), board, score, rear)


def short_name(name: str, chars: int) -> str:
    """A name in ``chars`` letters: "Ann & Cy" -> "A&C" for a team, else the first letters."""
    if len(name) <= chars:
        return name
    members = [part.strip() for part in name.split("&") if part.strip()]
    if len(members) > 1:
        initials = "&".join(member[0] for member in members)
        if len(initials) <= chars:
            return initials
    return name[:chars]


def _arrow(image: Image.Image, ink: Ink, x: int, y: int) -> None:
    """The turn marker: a solid triangle pointing at the name, as tall as a capital."""
    ImageDraw.Draw(image).polygon([(x, y), (x + 3, y + 3), (x, y + 6)], fill=ink.fg)


def _inverted(image: Image.Image, ink: Ink, x: int, y: int, words: str) -> None:
    ImageDraw.Draw(image).rectangle((x - 1, y - 1, x + text.width(words), y + text.DIGIT), fill=ink.fg)
    text.draw(image, x, y, words, ink.bg)


def draw_message(image: Image.Image, ink: Ink, message: str, *, height: int) -> None:
    """A question or a problem, inverted at the top of the screen until it is answered."""
    width = image.width
    most = max(1, min(3, (height - 3) // LINE_GAP))
    lines = text.wrap(message, width - 6)
    if len(lines) > most:
        lines = lines[: most - 1] + [text.fit(" ".join(lines[most - 1:]), width - 6)]
    box_h = min(height, max(len(lines) * LINE_GAP + 3, height if height >= image.height else 0))
    ImageDraw.Draw(image).rectangle((0, 0, width - 1, box_h - 2), fill=ink.fg)
    top = max(2, (box_h - 1 - len(lines) * LINE_GAP) // 2 + 1)
    for i, line in enumerate(lines):
        text.draw_centred(image, top + i * LINE_GAP, line, ink.bg)
