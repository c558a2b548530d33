"""The strip above the pegs: what is happening now, chosen by the phase of the hand.

Each panel says how tall it would like to be and how short it can get; the board gives it what
the pegs leave over and the panel draws the most important things first.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from device.board import text
from device.board.track import Box, Ink
from device.board.view import Board
from games.view import ShowCount

LINE_GAP = 10  # one line of small text plus a row of air


@dataclass(frozen=True)
class Panel:
    want: int
    least: int


def panel_size(board: Board, width: int) -> Panel:
    if board.phase == "play" and board.count is not None:
        return Panel(want=16, least=LINE_GAP)
    if _counting(board):
        return Panel(want=LINE_GAP * (2 + len(_show_says(board, width))), least=LINE_GAP)
    if board.phase == "over":
        return Panel(want=16 if board.result in (None, "win") else 27, least=LINE_GAP)
    if board.stacks and board.phase != "deal":
        return Panel(want=LINE_GAP * 2, least=LINE_GAP)
    return Panel(want=LINE_GAP, least=LINE_GAP)


def draw_panel(image: Image.Image, ink: Ink, box: Box, board: Board) -> None:
    if box.height < text.DIGIT:
        return
    if board.phase == "play" and board.count is not None:
        _draw_play(image, ink, box, board)
    elif _counting(board):
        _draw_show(image, ink, box, board)
    elif board.phase == "over":
        _draw_over(image, ink, box, board)
    elif board.stacks and board.phase != "deal":
        _draw_pile(image, ink, box, board)
    else:
        _draw_line(image, ink, box, phase_line(board), target=True, board=board)


def _counting(board: Board) -> bool:
    """A hand or crib is being counted: during the show, and after the crib while the next deal waits."""
    return board.show is not None and board.phase in ("show", "deal")


def phase_line(board: Board) -> str:
    """One line in the players' words for the phases without a panel of their own (and, when
    a shuffle serves several deals, how many cards it has faced: they are out)."""
    line = _phase_words(board)
    if board.shuffle is not None and board.phase in ("deal", "discard", "starter"):
        line += f", {len(board.seen)} out"
    return line


def _phase_words(board: Board) -> str:
    dealer = board.seat_name(board.dealer)
    if board.phase == "cut":
        return "Cut for deal"
    if board.phase == "deal":
        return f"{dealer} deals" if dealer else "Deal"
    if board.phase == "discard":
        return f"Discard to {dealer}'s crib" if dealer else "Discard"
    if board.phase == "starter":
        return f"Starter {board.starter}" if board.starter else "Cut the starter"
    if board.phase == "play":
        return "The play"
    if board.phase == "show":
        return board.prompt or "The show"
    return board.prompt or board.title or board.phase.capitalize()


def _draw_line(image: Image.Image, ink: Ink, box: Box, words: str, *, target: bool, board: Board) -> None:
    right = box.x1
    if target:
        goal = f"to {board.target}"
        if board.start:
            goal = f"{board.start}-{board.target}"
        if text.width(words) + text.width(goal) + 8 <= box.width:
            right = text.draw_right(image, box.x1, box.y0, goal, ink.fg) - 6
    text.draw(image, box.x0, box.y0, text.fit(words, right - box.x0), ink.fg)


def _draw_play(image: Image.Image, ink: Ink, box: Box, board: Board) -> None:
    count = str(board.count)
    big = box.height >= 15
    scale = 2 if big else 1
    x = text.draw(image, box.x0, box.y0, count, ink.fg, scale) + 5
    pile = list(board.pile)
    y_small = box.y0 + (text.DIGIT * 2 - text.DIGIT) if big else box.y0
    room = box.x1 - x + 1
    right = box.x1
    if board.starter and room > 60:
        starter = text.card_label(board.starter, room // 2)
        starter_w = text.card_width(starter)
        text.draw_card(image, box.x1 - starter_w + 1, y_small, starter, ink.fg)
        line_x = box.x1 - starter_w - 3
        for yy in range(y_small, y_small + text.DIGIT + 1, 2):
            image.putpixel((line_x, yy), ink.dim)
        room -= starter_w + 6
        right = line_x - 5
    while pile and text.cards_width(pile) > room:
        pile = pile[1:]
    end = text.draw_cards(image, x, y_small, pile, ink.fg)
    if board.target != board.holes or board.start:
        # An unusual game hole (Bhargage's 111 on a 121 board) stays in sight during the play.
        goal = f"to {board.target}"
        if end + 4 + text.width(goal) <= right:
            text.draw_right(image, right, y_small, goal, ink.dim)


def stack_line(board: Board, pixels: int) -> str:
    """Everyone's stack (or hand) as it stands, the seat to play marked: "Ann 24 >Bob 28", the
    names cut short ("A24 >B28") until the line fits ``pixels``."""
    for chars in (12, 3, 1):
        words = " ".join(f"{'>' if seat == board.turn else ''}{board.seat_name(seat)[:chars]}"
                         f"{' ' if chars > 1 else ''}{size}" for seat, size in enumerate(board.stacks))
        if text.width(words) <= pixels:
            break
    return words


def _draw_pile(image: Image.Image, ink: Ink, box: Box, board: Board) -> None:
    """The pile games: what to do now (a slap first), then everyone's stack and the top card."""
    lines = (box.height + 1) // LINE_GAP
    y = box.y0
    if lines >= 2:
        words = board.alert.upper() if board.alert else board.prompt
        text.draw(image, box.x0, y, text.fit(words, box.width), ink.fg)
        y += LINE_GAP
    right = box.x1
    if board.pile:
        top = text.card_label(board.pile[-1], box.width // 3)
        right = box.x1 - text.card_width(top) - 4
        text.draw_card(image, right + 5, y, top, ink.fg)
    words = stack_line(board, right - box.x0) if lines >= 2 or not board.alert else board.alert.upper()
    text.draw(image, box.x0, y, text.fit(words, right - box.x0), ink.fg)


def _show_title(board: Board) -> str:
    show = board.show
    assert show is not None
    name = board.seat_name(show.seat)
    owner = f"{name}'s " if name else ""
    return f"{owner}{show.what} {show.total}"


def _says(show: ShowCount) -> list[str]:
    """What is said counting the hand ("fifteen 2", "pair 4"); nothing when it is not shown."""
    return [item.say for item in show.items or ()]


def _show_says(board: Board, width: int) -> list[str]:
    says = _says(board.show) if board.show is not None else []
    return text.wrap(", ".join(says), width) if says else []


def _draw_show(image: Image.Image, ink: Ink, box: Box, board: Board) -> None:
    show = board.show
    assert show is not None
    lines = (box.height + 1) // LINE_GAP
    y = box.y0
    says = _show_says(board, box.width)
    if lines == 1:
        # One line only: who and the total, then the last thing counted if it fits.
        who = board.seat_name(show.seat)
        said = _says(show)
        words = f"{who} {show.total}" + (f": {said[-1]}" if said else "")
        text.draw(image, box.x0, y, text.fit(words, box.width), ink.fg)
        return
    title = _show_title(board)
    text.draw(image, box.x0, y, text.fit(title, box.width), ink.fg)
    y += LINE_GAP
    cards = list(show.cards or ())
    starter = [show.starter] if show.starter else []
    x = text.draw_cards(image, box.x0, y, cards, ink.fg, right=box.x1)
    if starter and x + text.CELL + 3 + text.card_width(starter[0]) - 1 <= box.x1:
        x = text.draw(image, x, y, "+", ink.dim) + 3
        text.draw_cards(image, x, y, starter, ink.fg, right=box.x1)
    y += LINE_GAP
    room = lines - 2
    for line in says[-room:] if room > 0 else []:
        text.draw(image, box.x0, y, line, ink.fg)
        y += LINE_GAP


def _draw_over(image: Image.Image, ink: Ink, box: Box, board: Board) -> None:
    if board.winner is not None and 0 <= board.winner < len(board.sides):
        words = f"{board.sides[board.winner].name} wins"
    else:
        words = "Game over"
    result = board.result if board.result not in (None, "win") else None
    scale = 2 if box.height >= 14 and text.width(words, 2) <= box.width else 1
    text.draw(image, box.x0, box.y0, text.fit(words, box.width, scale), ink.fg, scale)
    if result is None:
        return
    shout = result.upper() + "!"
    if scale == 1 or box.height < 16 + LINE_GAP:
        # Beside the words when there is no room below them.
        right_room = box.width - text.width(words, scale) - 6
        if text.width(shout) <= right_room:
            _draw_inverted(image, ink, box.x1 - text.width(shout) - 1, box.y0, shout)
        return
    _draw_inverted(image, ink, box.x0 + 1, box.y0 + 16, shout)


def _draw_inverted(image: Image.Image, ink: Ink, x: int, y: int, words: str) -> None:
    ImageDraw.Draw(image).rectangle((x - 1, y - 1, x + text.width(words), y + text.DIGIT + 1), fill=ink.fg)
    text.draw(image, x, y, words, ink.bg)
