"""Text for a small screen: Pillow's built-in bitmap font, crisp at 1x and blown up 2x/3x for numbers.

The bitmap font is a fixed 6-pixel cell, so widths are exact and the pictures are the same with any
FreeType build. A line of text is 9 pixels of ink (capitals and digits 7, descenders 2 more); the
functions below place that ink box at ``(x, y)``, not the font's own padded box.
Card suits are drawn as small pictures of their own, since the font has no suit symbols.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

CELL = 6  # every character advances 6 pixels
LINE = 9  # ink rows of one line: tops of capitals/digits to the bottom of descenders
DIGIT = 7  # ink rows of a digit or capital
_TOP = 2  # the font's own padding above the tallest ink

# 5 x 6 pictures of the suits, drawn in the rows of a capital letter.
_SUITS = {
    "S": ("..X..", ".XXX.", "XXXXX", "XXXXX", "..X..", ".XXX."),
    "H": (".X.X.", "XXXXX", "XXXXX", ".XXX.", "..X..", "....."),
    "D": ("..X..", ".XXX.", "XXXXX", ".XXX.", "..X..", "....."),
    "C": (".XXX.", ".XXX.", "XXXXX", "XXXXX", "..X..", ".XXX."),
}


@lru_cache(maxsize=1)
def _font() -> ImageFont.ImageFont:
    return ImageFont.load_default_imagefont()


def width(text: str, scale: int = 1) -> int:
    """Pixels from the first column of ``text`` to the last column of ink (no trailing gap)."""
    return max(0, len(text) * CELL - 1) * scale


@lru_cache(maxsize=512)
def _mask(text: str, scale: int) -> Image.Image:
    mask = Image.new("L", (max(1, len(text) * CELL), LINE + _TOP))
    ImageDraw.Draw(mask).text((0, 0), text, font=_font(), fill=255)
    mask = mask.crop((0, _TOP, mask.width, _TOP + LINE))
    if scale > 1:
        mask = mask.resize((mask.width * scale, mask.height * scale), Image.Resampling.NEAREST)
    return mask


def draw(image: Image.Image, x: int, y: int, text: str, fill: int, scale: int = 1) -> int:
    """Draw ``text`` with its ink box's top-left at ``(x, y)``; returns the x just after it."""
    if text:
        image.paste(fill, (x, y), _mask(text, scale))
    return x + len(text) * CELL * scale


def draw_right(image: Image.Image, right: int, y: int, text: str, fill: int, scale: int = 1) -> int:
    """Draw ``text`` ending at column ``right`` (inclusive); returns its left x."""
    x = right - width(text, scale) + 1
    draw(image, x, y, text, fill, scale)
    return x


def draw_centred(image: Image.Image, y: int, text: str, fill: int, scale: int = 1,
                 left: int = 0, right: int | None = None) -> None:
    right = image.width - 1 if right is None else right
    x = left + (right - left + 1 - width(text, scale)) // 2
    draw(image, max(left, x), y, text, fill, scale)


def fit(text: str, pixels: int, scale: int = 1) -> str:
    """``text`` cut to what fits in ``pixels`` columns (a trailing '.' marks a cut)."""
    most = (pixels // scale + 1) // CELL
    if len(text) <= most:
        return text
    return text[: max(0, most - 1)] + "." if most > 1 else text[:most]


def wrap(text: str, pixels: int, scale: int = 1) -> list[str]:
    """Greedy word wrap of ``text`` into lines of at most ``pixels`` columns; long words are cut."""
    most = max(1, (pixels // scale + 1) // CELL)
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if len(candidate) <= most:
            line = candidate
            continue
        if line:
            lines.append(line)
        while len(word) > most:
            lines.append(word[:most])
            word = word[most:]
        line = word
    if line:
        lines.append(line)
    return lines


def card_width(card: str) -> int:
    """Columns taken by one card drawn with :func:`draw_card` (rank then suit picture)."""
    return width(card) if _split_card(card) is None else (len(card) * CELL - 1)


def _split_card(card: str) -> tuple[str, str] | None:
    if len(card) >= 2 and card[-1] in _SUITS and card[:-1].upper() in _RANKS:
        return card[:-1], card[-1]
    return None


_RANKS = {"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "T", "J", "Q", "K"}


def draw_card(image: Image.Image, x: int, y: int, card: str, fill: int) -> int:
    """Draw a card as its rank and a suit picture ("5H" -> 5 and a heart); other names as text."""
    parts = _split_card(card)
    if parts is None:
        return draw(image, x, y, card, fill)
    rank, suit = parts
    x = draw(image, x, y, rank, fill)
    for row, bits in enumerate(_SUITS[suit]):
        for col, bit in enumerate(bits):
            if bit == "X":
                image.putpixel((x + col, y + 1 + row), fill)
    return x + CELL


def draw_cards(image: Image.Image, x: int, y: int, cards: list[str], fill: int, gap: int = 4,
               right: int | None = None) -> int:
    """Cards left to right; with ``right``, the ones that do not fit before it become "..".
    Returns the x where the next card would go."""
    for card in cards:
        if right is not None and x + card_width(card) - 1 > right:
            if x + width("..") - 1 <= right:
                draw(image, x, y, "..", fill)
            return right + 1
        x = draw_card(image, x, y, card, fill) - 1 + gap
    return x


def card_label(card: str, pixels: int) -> str:
    """A card name cut to ``pixels`` columns (long Decktet names); French cards are always short."""
    return card if card_width(card) <= pixels else fit(card, pixels)


def cards_width(cards: list[str], gap: int = 4) -> int:
    if not cards:
        return 0
    return sum(card_width(c) for c in cards) + gap * (len(cards) - 1)
