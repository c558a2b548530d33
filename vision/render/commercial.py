"""Commercial-style reference decks: a bench of real card art that training never sees.

The card model learns only from procedurally rendered decks (:mod:`vision.render.cards`), and
its held-out designs come from that same generator, so they flatter it. Until there are enough
real photos of real decks, these freely licensed decks, drawn by people the way commercial
decks are drawn (traditional court figures, printed pips and indices), are the honest proxy:
``pegpi bench recognition`` reads them clean, through the table pipeline's crops and as loose
photos. **They must never be used in training** (nor to pick training settings): a figure
measured on them is only worth anything while the model has never seen them.

- ``"bellot"``: David Bellot's SVG-cards, npm ``svg-cards@4.0.2``, LGPL-2.1. The package's own
  PNG renders (``png/2x``, 338x489 px, transparent rounded corners); both jokers (they differ
  only in the colour of the word JOKER: the figure is the same red jester) and a blue back.
- ``"cardsjs"``: npm ``cardsJS@1.1.1`` (MIT for the code; the card art is Chris Aguilar's
  Vectorized Playing Cards 1.3, LGPL-3.0, as its ``cards/readme.txt`` says). SVGs with rounded
  corners; ``T?.svg`` are byte-for-byte copies of ``10?.svg`` and are not used; the red back
  (``Red_Back.svg``); no jokers.
- ``"aguilar"``: npm ``@younestouati/playing-cards-standard-deck@3.0.0``, LGPL-3.0, hand-
  optimised SVGs after Chris Aguilar's cards (the ace of spades after Byron Knoll's public-domain
  one). The same court art as ``cardsjs`` and nearly the same pips and layouts, without the
  border line; its ``4s.svg`` leaves a small-size layout (a big 4 and spade) drawn under the
  pips, which is taken out here. Square opaque corners
  (a full-card background rectangle), so the standard 3.2 mm rounded corner is cut here; a
  square back pattern stretched to the card; one joker, a full-colour jester with red stars in
  the corners (an embedded JPEG), which is the red joker (``RJ``) by the convention the
  renderer follows too (the red joker coloured, the black one black).
- ``"kennard"``, ``"kennard-jumbo"``, ``"kennard-four-colour"``: Adrian Kennard's SVG cards
  (CC0), as packed in npm ``@heruka_urgyen/react-playing-cards@0.5.0`` (MIT code). Their own
  court art (the English pattern), serif indices and one joker, a black outline jester
  (``BJ``), and a back of small black diamonds. ``kennard-jumbo`` is its big-face variant: a
  jumbo index (ranks about 15 mm tall over suits nearly as tall, to 38 mm down the card) with
  small pips and courts, as poker decks print; ``kennard-four-colour`` prints clubs green and
  diamonds blue. Their SVGs give their size in inches, which resvg refuses, so it is rewritten
  in pixels (at 96 to the inch) before they are rasterised.

The packages are fetched once with ``npm pack`` (the only network use) into the cache
(``$PEGPI_DATA/commercial-decks`` or ``~/.cache/pegpi/commercial-decks``), extracted there, and
each face is rasterised once per resolution and kept as a PNG beside them, so later loads are
offline and fast; the Kennard decks share one package and keep their faces apart. SVGs are
rasterised with resvg (``resvg-py``, in the ``dev`` extra): it renders every deck right, including the size-less ``back.svg`` and the embedded JPEG that cairosvg
gets wrong or refuses.

Public API: :data:`COMMERCIAL_DECKS`, :func:`load_deck`, and the steps it is made of,
:func:`package_dir` / :func:`fetch_package` (npm) and :func:`deck_files` (file name -> card).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.api import CARD_MM
from vision.errors import DeckError
from vision.render import npm
from vision.render.cards import CARD_IDS, RANKS, SUITS, card_alpha

#: The reference decks, in the order the bench reads them.
COMMERCIAL_DECKS: tuple[str, ...] = ("bellot", "cardsjs", "aguilar", "kennard", "kennard-jumbo", "kennard-four-colour")
#: corner radius (mm) cut from a face whose corners the artwork leaves square and opaque
CORNER_MM = 3.2
#: bumped when the processing of a face changes, so cached rasters are made again
FACE_VERSION = 1


@dataclass(frozen=True)
class _Deck:
    package: str  # npm name
    version: str
    licence: str
    files: tuple[tuple[str, str], ...]  # (card id or "back", path inside the package)


def _bellot_files() -> tuple[tuple[str, str], ...]:
    suit = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}
    rank = {"A": "1", "J": "jack", "Q": "queen", "K": "king"}
    out = [(r + s, f"package/png/2x/{suit[s]}_{rank.get(r, r)}.png") for s in SUITS for r in RANKS]
    return (*out, ("RJ", "package/png/2x/joker_red.png"), ("BJ", "package/png/2x/joker_black.png"),
            ("back", "package/png/2x/back.png"))


def _cardsjs_files() -> tuple[tuple[str, str], ...]:
    # T?.svg duplicate 10?.svg byte for byte; no jokers in this deck
    out = [(r + s, f"package/cards/{r}{s}.svg") for s in SUITS for r in RANKS]
    return (*out, ("back", "package/cards/Red_Back.svg"))


def _aguilar_files() -> tuple[tuple[str, str], ...]:
    number = {"A": "1", "J": "11", "Q": "12", "K": "13"}
    out = [(r + s, f"package/cards/{number.get(r, r)}{s.lower()}.svg") for s in SUITS for r in RANKS]
    # one joker: a full-colour jester with red corner stars, i.e. the red joker
    return (*out, ("RJ", "package/cards/joker.svg"), ("back", "package/cards/back.svg"))


def _kennard_files(variant: str) -> tuple[tuple[str, str], ...]:
    images = "package/src/images"
    out = [(r + s, f"{images}/{variant}/{'T' if r == '10' else r}{s}.svg") for s in SUITS for r in RANKS]
    # one joker, drawn in black outline only, i.e. the black joker
    return (*out, ("BJ", f"{images}/{variant}/2J.svg"), ("back", f"{images}/back.svg"))


_KENNARD = ("@heruka_urgyen/react-playing-cards", "0.5.0", "MIT (card art CC0, Adrian Kennard)")

_DECKS: dict[str, _Deck] = {
    "bellot": _Deck("svg-cards", "4.0.2", "LGPL-2.1", _bellot_files()),
    "cardsjs": _Deck("cardsJS", "1.1.1", "MIT (card art LGPL-3.0, Chris Aguilar)", _cardsjs_files()),
    "aguilar": _Deck("@younestouati/playing-cards-standard-deck", "3.0.0", "LGPL-3.0", _aguilar_files()),
    "kennard": _Deck(*_KENNARD, _kennard_files("2color")),
    "kennard-jumbo": _Deck(*_KENNARD, _kennard_files("2color-bf")),
    "kennard-four-colour": _Deck(*_KENNARD, _kennard_files("4color")),
}
assert tuple(_DECKS) == COMMERCIAL_DECKS
assert all(c in CARD_IDS + ("back",) for d in _DECKS.values() for c, _ in d.files)


def _deck(name: str) -> _Deck:
    try:
        return _DECKS[name]
    except KeyError:
        raise DeckError(f"unknown commercial deck {name!r}: the decks are {', '.join(COMMERCIAL_DECKS)}") from None


def default_cache() -> Path:
    """``$PEGPI_DATA/commercial-decks`` if ``PEGPI_DATA`` is set, else ``~/.cache/pegpi/commercial-decks``."""
    return npm.data_dir("commercial-decks")


def deck_files(name: str) -> dict[str, str]:
    """Which file of the npm package (a path under its ``package/``) is which card of deck ``name``."""
    return dict(_deck(name).files)


def package_dir(name: str, cache: Path | None = None) -> Path:
    """Where deck ``name``'s package is (or will be) extracted: the folder holding ``package/``."""
    d = _deck(name)
    return (cache if cache is not None else default_cache()) / npm.slug(d.package, d.version)


def fetch_package(name: str, cache: Path | None = None) -> Path:
    """Deck ``name``'s package extracted in the cache (:func:`package_dir`): done already, or
    fetched now with ``npm pack`` (the only step that uses the network) and extracted."""
    d = _deck(name)
    return npm.fetch(f"{d.package}@{d.version}", package_dir(name, cache), f"the {name!r} deck", error=DeckError)


#: a small-size ("mini") layout group left visible under the full one: ``aguilar``'s ``4s.svg``
#: draws a big 4 and a big spade under its pips (its other cards have no such group)
_MINI_LEFT_OVER = re.compile(r'<g>(?:(?!</g>).)*</g>(?=<g class="maxi-card">)', re.S)


#: a length in physical units (``2.5in``) as the root element's width or height
_PHYSICAL_SIZE = re.compile(r'\b(width|height)="([0-9.]+)(in|mm|cm|pt|pc)"')
_PX_PER_UNIT = {"in": 96.0, "mm": 96.0 / 25.4, "cm": 96.0 / 2.54, "pt": 96.0 / 72.0, "pc": 16.0}


def _pixel_size(svg: str) -> str:
    """``svg`` with its root element's width and height in pixels where they are given in
    physical units (resvg_py refuses those as an invalid size)."""
    start = svg.find("<svg")
    end = svg.find(">", start)
    if start < 0 or end < 0:
        return svg
    root = _PHYSICAL_SIZE.sub(lambda m: f'{m[1]}="{float(m[2]) * _PX_PER_UNIT[m[3]]:g}"', svg[start:end])
    return svg[:start] + root + svg[end:]


def _read_rgba(path: Path, width: int) -> np.ndarray:
    """A PNG (as it is) or an SVG (rasterised about ``width`` px wide) as BGRA uint8."""
    if path.suffix.lower() == ".svg":
        try:
            import resvg_py
        except ImportError:
            raise DeckError("rasterising SVG decks needs resvg-py (pip install resvg-py, or the dev extra: "
                            "pip install -e '.[dev]')") from None
        try:
            text = _pixel_size(_MINI_LEFT_OVER.sub("", path.read_text(encoding="utf-8")))
            png = resvg_py.svg_to_bytes(svg_string=text, width=width, resources_dir=str(path.parent))
        except (ValueError, OSError, UnicodeDecodeError) as exc:
            raise DeckError(f"resvg cannot render {path}: {exc}") from exc
        img = cv2.imdecode(np.frombuffer(bytes(png), np.uint8), cv2.IMREAD_UNCHANGED)
    else:
        img = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if img is None:
        raise DeckError(f"cannot read an image from {path}")
    if img.ndim == 2:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGRA)
    elif img.shape[2] == 3:
        img = cv2.cvtColor(img, cv2.COLOR_BGR2BGRA)
    if img.dtype != np.uint8:  # 16-bit PNG
        img = (img // 257).astype(np.uint8)
    return img


def card_face(img: np.ndarray, px_per_mm: float) -> np.ndarray:
    """BGRA artwork of one card (any size, maybe with transparent margins) as a 63x88 mm face at
    ``px_per_mm``: trimmed to what is drawn, resized (alpha premultiplied, so transparent pixels
    do not bleed into the edge), and, when its corners are opaque (a square card or a background
    rectangle), cut to :data:`CORNER_MM` rounded corners, so alpha is 0 outside the card."""
    W, H = int(round(CARD_MM[0] * px_per_mm)), int(round(CARD_MM[1] * px_per_mm))
    ys, xs = np.nonzero(img[..., 3])
    if len(xs) == 0:
        raise DeckError("an empty (fully transparent) card image")
    img = img[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    a = img[..., 3:].astype(np.float32) / 255.0
    pre = np.dstack([img[..., :3].astype(np.float32) * a, a[..., 0]])
    interp = cv2.INTER_AREA if img.shape[1] > W or img.shape[0] > H else cv2.INTER_CUBIC
    pre = cv2.resize(pre, (W, H), interpolation=interp)
    alpha = np.clip(pre[..., 3], 0.0, 1.0)
    bgr = pre[..., :3] / np.maximum(alpha, 1e-6)[..., None]
    out = np.dstack([np.clip(bgr, 0, 255), alpha * 255.0]).round().astype(np.uint8)
    out[..., :3][out[..., 3] == 0] = 0
    if max(img[0, 0, 3], img[0, -1, 3], img[-1, 0, 3], img[-1, -1, 3]) > 0:
        out[..., 3] = np.minimum(out[..., 3], card_alpha(H, W, CORNER_MM * px_per_mm))
        out[..., :3][out[..., 3] == 0] = 0
    return out


def load_deck(name: str, *, px_per_mm: float = 3.0, cache: Path | None = None) -> dict[str, np.ndarray]:
    """Every face of commercial deck ``name`` (:data:`COMMERCIAL_DECKS`), keyed by card id as the
    engine writes it (``"AS"``, ``"10H"``, ``"RJ"``; ``"back"``; jokers only where the deck has
    them): BGRA uint8, exactly ``round(63 * px_per_mm)`` x ``round(88 * px_per_mm)`` px, alpha 0
    outside the card's rounded outline.

    The package comes from the cache (``cache`` or :func:`default_cache`) if it is there
    (fetched once with npm otherwise, :func:`fetch_package`), and the faces from the PNGs kept
    there at this resolution (made on the first load). Raises :class:`DeckError` naming the
    problem: an unknown deck, npm missing or failing, a file the package lacks."""
    files = deck_files(name)
    root = package_dir(name, cache)
    faces_dir = root / f"faces-{name}-v{FACE_VERSION}-{px_per_mm:g}px"
    want = {card: faces_dir / f"{card}.png" for card in files}
    if all(p.is_file() for p in want.values()):
        faces = {card: cv2.imread(str(p), cv2.IMREAD_UNCHANGED) for card, p in want.items()}
        if all(f is not None and f.ndim == 3 and f.shape[2] == 4 for f in faces.values()):
            return {card: f for card, f in faces.items() if f is not None}
    root = fetch_package(name, cache)
    missing = [rel for rel in files.values() if not (root / rel).is_file()]
    if missing:
        raise DeckError(f"the {name!r} deck's package in {root} lacks {len(missing)} of its "
                        f"{len(files)} card files (first: {', '.join(missing[:3])}): has its layout changed?")
    W = int(round(CARD_MM[0] * px_per_mm))
    faces_dir.mkdir(parents=True, exist_ok=True)
    out: dict[str, np.ndarray] = {}
    for card, rel in files.items():
        face = card_face(_read_rgba(root / rel, 2 * W), px_per_mm)
        tmp = want[card].with_suffix(".tmp.png")
        cv2.imwrite(str(tmp), face)
        os.replace(tmp, want[card])
        out[card] = face
    return out
