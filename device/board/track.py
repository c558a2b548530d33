"""One street of a cribbage board: holes (or tick marks), skunk lines, the game hole, two pegs.

Hole ``n`` is where a peg stands with ``n`` points; 0 is the start, left of the first hole.
The front peg is solid, the rear peg hollow, and the stretch between them (the last score) is
filled, so the size of the last peg move reads at a glance, as on a wooden board.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from device.board.view import Board


@dataclass(frozen=True)
class Ink:
    """The colours of one image mode: full, dim (holes, skunk lines) and background."""

    mode: str
    fg: int
    dim: int
    bg: int = 0

    @classmethod
    def for_mode(cls, mode: str) -> Ink:
        return cls(mode="1", fg=1, dim=1) if mode == "1" else cls(mode="L", fg=255, dim=110)

    @property
    def grey(self) -> bool:
        return self.mode != "1"


@dataclass(frozen=True)
class Box:
    x0: int
    y0: int
    x1: int  # inclusive
    y1: int  # inclusive

    @property
    def height(self) -> int:
        return self.y1 - self.y0 + 1

    @property
    def width(self) -> int:
        return self.x1 - self.x0 + 1


def hole_x(box: Box, board: Board, points: int) -> int:
    """The column of the peg that stands at ``points`` (clamped to the board)."""
    points = max(0, min(points, board.holes))
    return box.x0 + 1 + round(points * (box.width - 3) / board.holes)


def draw_track(image: Image.Image, ink: Ink, box: Box, board: Board, score: int, rear: int,
               *, lit: bool = True) -> None:
    """Draw one street in ``box`` with the front peg at ``score`` and the rear peg at ``rear``.

    ``lit`` False draws the pegs hollow-only (a side that is out of the game, or a ghost)."""
    draw = ImageDraw.Draw(image)
    mid = box.y0 + box.height // 2
    pitch = (box.width - 3) / board.holes
    end = hole_x(box, board, board.target)
    last = hole_x(box, board, board.holes)
    first = hole_x(box, board, 0)
    if pitch >= 1.8:
        # Room for every hole: a dot per hole, every fifth brighter, as the groups on a board.
        for n in range(1, board.holes + 1):
            x = hole_x(box, board, n)
            colour = ink.fg if n % 5 == 0 and ink.grey else ink.dim
            if n > board.target:
                colour = ink.dim if ink.grey else (ink.fg if n % 2 else ink.bg)
            draw.point((x, mid), fill=colour)
            if n % 5 == 0:
                draw.point((x, mid - 1), fill=ink.dim)
                draw.point((x, mid + 1), fill=ink.dim)
    else:
        draw.line((first, mid, end, mid), fill=ink.dim)
        for x in range(end + 2, last + 1, 2):  # holes past the game hole (Bhargage's 111 of 121)
            draw.point((x, mid), fill=ink.dim)
        step = 5 if pitch * 5 >= 3.5 else 10
        for n in range(step, board.target, step):
            x = hole_x(box, board, n)
            draw.line((x, mid - 1, x, mid + 1), fill=ink.dim)
    if board.start > 0:  # a start other than 0: the holes before it are not played
        x = hole_x(box, board, board.start)
        draw.line((x, mid - 1, x, mid + 1), fill=ink.fg)
    for line in board.skunk_lines:
        x = hole_x(box, board, line.at)
        for y in range(box.y0, box.y1 + 1, 2):
            draw.point((x, y), fill=ink.dim)
            if "double" in line.label:
                draw.point((x - 1, y + 1 if y < box.y1 else y), fill=ink.dim)
    # The game hole: a solid post across the street.
    draw.line((end, box.y0, end, box.y1), fill=ink.fg)
    draw.line((end + 1, box.y0, end + 1, box.y1), fill=ink.fg)
    draw_pegs(draw, ink, box, board, score, rear, lit=lit)


def draw_pegs(draw: ImageDraw.ImageDraw, ink: Ink, box: Box, board: Board, score: int, rear: int,
              *, lit: bool = True) -> None:
    mid = box.y0 + box.height // 2
    front_x = hole_x(box, board, score)
    rear_x = hole_x(box, board, rear)
    half = 1
    top, bottom = box.y0, box.y1
    if rear_x + half < front_x - half:
        # The last score: a bar from the rear peg to the front peg.
        draw.rectangle((rear_x, mid - 1, front_x, mid + 1), fill=ink.fg)
        draw.rectangle((rear_x - half, top, rear_x + half, bottom), fill=ink.bg, outline=ink.fg)
    if lit:
        draw.rectangle((front_x - half - 1, top, front_x + half, bottom), fill=ink.fg)
    else:
        draw.rectangle((front_x - half - 1, top, front_x + half, bottom), fill=ink.bg, outline=ink.fg)
