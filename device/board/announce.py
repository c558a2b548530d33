"""Frames that announce a scoring moment ("fifteen 2", "pair 6", "31 for 2", "go").

The words in big letters in a bar at the top, and below them the scorer's street with the front
peg sliding from the rear peg to its new hole while the figures count up. The last frame is the
settled picture; after it the adapter puts the board back.
Each frame is a pure function of the view and the frame number.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from device.board import text
from device.board.render import ONE_LINE, TWO_LINE, Columns, Layout, Size, draw_side, pick_mode
from device.board.track import Box, Ink
from device.board.view import Board, board_of
from games.view import LastScore, TableView

STEPS = 6  # frames of peg movement, the last one at the new hole


def announcement_frames(view: TableView, size: Size = (128, 64), *, mode: str | None = None,
                        steps: int = STEPS) -> list[Image.Image]:
    """The frames announcing ``view.last``; empty when the view has no scoring moment."""
    board = board_of(view)
    if board.last is None:
        return []
    steps = max(1, steps)
    return [announcement_frame(board, size, mode=mode, step=step, steps=steps) for step in range(1, steps + 1)]


def announcement_frame(board: Board, size: Size, *, mode: str | None = None, step: int, steps: int) -> Image.Image:
    ink = Ink.for_mode(pick_mode(size, mode))
    image = Image.new(ink.mode, size, ink.bg)
    moment = board.last
    assert moment is not None
    width, height = size
    side_index = _side_index(board, moment)
    row_least = TWO_LINE + 1 if height >= 56 else ONE_LINE + 1
    banner_h = _draw_banner(image, ink, board, moment, side_index,
                            height if side_index is None else height - row_least)
    if side_index is None:
        return image
    side = board.sides[side_index]
    rear = min(side.rear, side.score)
    score = rear + round((side.score - rear) * step / steps)
    row_h = height - banner_h - 1
    two_line = row_h >= TWO_LINE
    plan = Layout(panel=banner_h, row=row_h, two_line=two_line)
    columns = Columns.for_board(board, width, plan)
    draw_side(image, ink, board, side_index, Box(0, banner_h + 1, width - 1, height - 1), columns, two_line, score)
    return image


def _side_index(board: Board, moment: LastScore) -> int | None:
    if 0 <= moment.side < len(board.sides):
        return moment.side
    found = board.side_of(moment.seat)
    return found


def _draw_banner(image: Image.Image, ink: Ink, board: Board, moment: LastScore, side_index: int | None,
                 most: int) -> int:
    """The inverted bar with who scored and what they say; returns its height.

    Prefers the words in big letters; falls back to small lines, keeping the end of a long
    cumulative say ("... pair 6, nobs 7"), which carries the total."""
    width = image.width
    who = board.sides[side_index].name if side_index is not None else board.seat_name(moment.seat)
    points = f"+{moment.points}" if moment.points else ""
    heading = " ".join(part for part in (who, points) if part)
    say = moment.say
    row = text.LINE + 1
    big = 2 * text.DIGIT + 3
    lines: list[tuple[str, int]]
    if text.width(say, 2) <= width - 4 and 2 + row + big <= most:
        lines = [(heading, 1), (say, 2)]
    elif text.width(say, 2) <= width - 4 and 2 + big <= most:
        lines = [(say, 2)]
    else:
        wrapped = text.wrap(say, width - 4)
        room = (most - 3) // row - 1
        if room >= 1:
            lines = [(heading, 1)] + [(line, 1) for line in wrapped[-room:]]
        else:
            lines = [(text.fit(f"{heading} {say.split(', ')[-1]}", width - 4), 1)]
    lines = [(words, scale) for words, scale in lines if words]
    height = min(most, 3 + sum(row if scale == 1 else big - 1 for _, scale in lines))
    ImageDraw.Draw(image).rectangle((0, 0, width - 1, height - 1), fill=ink.fg)
    y = 2
    for words, scale in lines:
        text.draw_centred(image, y, words, ink.bg, scale)
        y += row if scale == 1 else big - 1
    return height
