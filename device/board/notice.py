"""Whole-screen notices: the pairing screen, the pairing code, "New game: Cribbage, 3 players"."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from device.board import text
from device.board.render import Size, pick_mode
from device.board.track import Ink


def render_notice(lines: Sequence[str], size: Size = (128, 64), *, big: str | None = None,
                  mode: str | None = None) -> Image.Image:
    """Small centred lines of text, then ``big`` (a code, a number) as large as fits.

    >>> render_notice(["Pairing code"], (128, 32), big="4821").size
    (128, 32)
    """
    ink = Ink.for_mode(pick_mode(size, mode))
    image = Image.new(ink.mode, size, ink.bg)
    width, height = size
    scale = 1
    if big:
        for candidate in (4, 3, 2, 1):
            if text.width(big, candidate) <= width - 4 and text.DIGIT * candidate + 2 <= height - 10:
                scale = candidate
                break
    big_h = text.DIGIT * scale + 2 if big else 0
    room = max(0, (height - big_h) // (text.LINE + 1))
    wrapped: list[str] = []
    for line in lines:
        wrapped.extend(text.wrap(line, width - 4) or [""])
    wrapped = wrapped[:room]
    total = len(wrapped) * (text.LINE + 1) + big_h
    y = max(0, (height - total) // 2)
    for line in wrapped:
        text.draw_centred(image, y, line, ink.fg)
        y += text.LINE + 1
    if big:
        text.draw_centred(image, y + 1, text.fit(big, width - 4, scale), ink.fg, scale)
    return image
