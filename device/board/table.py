"""A score table for games that are not pegged (Gin, Oh Hell, ...): names across, the latest rounds,
and the totals in an inverted bar at the bottom, where the eye goes first."""

from __future__ import annotations

from PIL import Image, ImageDraw

from device.board import text
from device.board.track import Ink
from device.board.view import Board
from games.view import ScoreTable

ROW = 10


def draw_table(image: Image.Image, ink: Ink, board: Board) -> None:
    table = board.table or ScoreTable(columns=("", *board.players), rows=(), totals=())
    width, height = image.size
    draw = ImageDraw.Draw(image)
    columns = list(table.columns) or [""]
    widths = _widths(table, width)
    y = 0
    lines = height // ROW
    show_title = lines >= 4 and board.title
    if show_title:
        text.draw(image, 0, y, text.fit(board.title, width), ink.fg)
        y += ROW
    _row(image, ink, columns, widths, y, ink.fg)
    draw.line((0, y + text.LINE, width - 1, y + text.LINE), fill=ink.dim)
    y += ROW + 1
    room = (height - y - (ROW + 1 if table.totals else 0)) // ROW
    rows = list(table.rows)[-room:] if room > 0 else []
    for row in rows:
        _row(image, ink, list(row), widths, y, ink.fg)
        y += ROW
    if table.totals:
        bottom = height - ROW - 1
        draw.rectangle((0, bottom, width - 1, height - 1), fill=ink.fg)
        _row(image, ink, list(table.totals), widths, bottom + 1, ink.bg)


def _widths(table: ScoreTable, width: int) -> list[int]:
    """Pixel widths per column: the figures get what their longest entry needs, the label the rest."""
    count = max(len(table.columns), 1)
    cells = [table.columns, *table.rows, table.totals]
    widths = [0] * count
    for col in range(1, count):
        longest = max((len(r[col]) for r in cells if col < len(r)), default=1)
        widths[col] = text.width("8" * max(3, min(longest, 6))) + 4
    widths[0] = max(text.width("888"), width - sum(widths[1:]))
    if sum(widths) > width:  # many players: share the width evenly
        share = width // count
        widths = [share] * count
    return widths


def _row(image: Image.Image, ink: Ink, cells: list[str], widths: list[int], y: int, fill: int) -> None:
    x = 0
    for col, cell_width in enumerate(widths):
        cell = cells[col] if col < len(cells) else ""
        cell = text.fit(cell, cell_width - 2)
        if col == 0:
            text.draw(image, x + 1, y, cell, fill)
        else:
            text.draw_right(image, x + cell_width - 2, y, cell, fill)
        x += cell_width
