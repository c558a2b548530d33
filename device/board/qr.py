"""QR codes of the page's address for the OLED and the terminal (made with segno, pure Python).

A phone scans the code on the device (or in the service's log) and opens the phone page; the
code with the pairing code in it pairs the phone as it opens.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from device.board import text
from device.board.render import Size, pick_mode
from device.board.track import Ink

QUIET = 2  # modules of blank margin around the code (scanners want some)


def qr_matrix(data: str) -> list[list[bool]]:
    """The code's modules, row by row (True: dark), without the quiet margin."""
    import segno

    code = segno.make(data, error="l", micro=False)
    return [[bool(module) for module in row] for row in code.matrix]


def qr_text(data: str) -> str:
    """The code as text for a terminal: two rows of modules per line in half blocks, dark modules
    drawn as blanks on light blocks so that it reads on a dark terminal."""
    rows = qr_matrix(data)
    side = len(rows) + 2 * QUIET
    padded = [[False] * side for _ in range(QUIET)]
    padded += [[False] * QUIET + row + [False] * QUIET for row in rows]
    padded += [[False] * side for _ in range(QUIET + 1)]  # an even number of rows
    glyph = {(False, False): "\u2588", (True, False): "\u2584", (False, True): "\u2580", (True, True): " "}
    return "\n".join("".join(glyph[(top[x], bottom[x])] for x in range(side))
                     for top, bottom in zip(padded[0::2], padded[1::2], strict=True))


def render_qr(data: str, size: Size = (128, 64), *, lines: Sequence[str] = (), mode: str | None = None) -> Image.Image:
    """The code as large as the screen's height allows, at the left, with ``lines`` of text to
    its right. Lit pixels are the code's light modules: it scans as printed black on white."""
    ink = Ink.for_mode(pick_mode(size, mode))
    image = Image.new(ink.mode, size, ink.bg)
    rows = qr_matrix(data)
    width, height = size
    scale = max(1, height // (len(rows) + 2 * QUIET))
    side = (len(rows) + 2 * QUIET) * scale
    top = max(0, (height - side) // 2)
    image.paste(ink.fg, (0, top, min(side, width), min(top + side, height)))
    for y, row in enumerate(rows):
        for x, dark in enumerate(row):
            if dark:
                left, upper = (x + QUIET) * scale, top + (y + QUIET) * scale
                image.paste(ink.bg, (left, upper, left + scale, upper + scale))
    room = width - side - 4
    if room > 8:
        wrapped = [part for line in lines for part in (text.wrap(line, room) or [""])]
        y = max(0, (height - len(wrapped) * (text.LINE + 1)) // 2)
        for line in wrapped[: height // (text.LINE + 1)]:
            text.draw(image, side + 3, y, line, ink.fg)
            y += text.LINE + 1
    return image
