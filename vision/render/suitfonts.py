"""Suit symbols drawn by type designers, for the pips of some training designs.

The renderer's own pips (:mod:`vision.render.glyphs`) are a few parametric shapes; printed
decks draw each suit in many more ways (a spade with a trumpet stem or a flat foot, a club of
three touching balls or of three lobes on a waist). The filled suit glyphs of a few freely
licensed symbol fonts (U+2660 spade, U+2663 club, U+2665 heart, U+2666 diamond) are other
people's drawings of the same four shapes, so a training design may print its pips with one of
them instead.

Only training designs do: held-out designs keep the parametric pips, so that the held-out bench
measures what it always did, and the simulated table (which draws held-out designs) needs none
of these files on the device.

The faces, by family (a design picks a family, all equally likely, then one of its cuts):

- DejaVu Sans, Serif and Sans Mono, and STIX (shipped inside matplotlib, in the ``train`` and
  ``dev`` extras);
- Noto Sans Symbols 2, Noto Sans Math and Noto Emoji (OFL-1.1), from the npm packages
  ``@expo-google-fonts/...``, fetched once by :func:`fetch_all` (``make fonts``, which ``make``
  runs when it installs the project) into ``$PEGPI_DATA/fonts`` or ``~/.cache/pegpi/fonts``.
"""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path

from vision.errors import FontError, UnknownFontError
from vision.render import npm

#: suit -> the code point of its filled symbol
SUIT_CHARS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}

#: family -> (source, files): source "matplotlib" (files under mpl-data/fonts/ttf) or an npm
#: ``package@version`` (files under its package/ folder)
FAMILIES: dict[str, tuple[str, tuple[str, ...]]] = {
    "dejavu": ("matplotlib", ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf", "DejaVuSansMono.ttf")),
    "stix": ("matplotlib", ("STIXGeneral.ttf",)),
    "noto-symbols-2": ("@expo-google-fonts/noto-sans-symbols-2@0.4.1",
                       ("400Regular/NotoSansSymbols2_400Regular.ttf",)),
    "noto-math": ("@expo-google-fonts/noto-sans-math@0.4.2", ("400Regular/NotoSansMath_400Regular.ttf",)),
    "noto-emoji": ("@expo-google-fonts/noto-emoji@0.4.7",
                   ("400Regular/NotoEmoji_400Regular.ttf", "700Bold/NotoEmoji_700Bold.ttf")),
}


def _npm_root(spec: str) -> Path:
    package, version = spec.rsplit("@", 1)
    return npm.data_dir("fonts") / npm.slug(package, version)


def _matplotlib_ttf() -> Path:
    spec = importlib.util.find_spec("matplotlib")
    if spec is None or not spec.submodule_search_locations:
        raise FontError("the suit fonts of the training designs need matplotlib: install pegpi with its "
                           "train or dev extra")
    return Path(next(iter(spec.submodule_search_locations))) / "mpl-data" / "fonts" / "ttf"


def face_names() -> tuple[str, ...]:
    """Every face, as ``family/file`` names (what a design records: no path of any machine)."""
    return tuple(f"{fam}/{Path(f).name}" for fam, (_, files) in FAMILIES.items() for f in files)


@functools.lru_cache(maxsize=64)
def face_path(name: str) -> str:
    """The file of face ``name`` (see :func:`face_names`); raises ``RuntimeError`` naming what to do
    when it is not on this machine."""
    family, _, file = name.partition("/")
    if family not in FAMILIES:
        raise UnknownFontError(f"unknown suit font {name!r}: the faces are {', '.join(face_names())}")
    source, files = FAMILIES[family]
    rel = next((f for f in files if Path(f).name == file), None)
    if rel is None:
        raise UnknownFontError(f"unknown suit font {name!r}: the faces are {', '.join(face_names())}")
    path = _matplotlib_ttf() / rel if source == "matplotlib" else _npm_root(source) / "package" / rel
    if not path.is_file():
        raise FontError(f"suit font {name!r} is missing ({path}): run `make fonts` once (it fetches the "
                           "symbol fonts with npm; `make` does it when it installs the project)")
    return str(path)


def fetch_all() -> list[str]:
    """Fetch every npm family not yet in the cache; the files of all faces."""
    for source, _ in FAMILIES.values():
        if source != "matplotlib":
            npm.fetch(source, _npm_root(source), "the symbol fonts of the training designs' pips")
    return [face_path(n) for n in face_names()]


def pick_face(rng: object) -> str:
    """A face name: a family first (all equally likely), then one of its cuts."""
    import numpy as np

    assert isinstance(rng, np.random.Generator)
    families = list(FAMILIES)
    family = families[int(rng.integers(len(families)))]
    files = FAMILIES[family][1]
    return f"{family}/{Path(files[int(rng.integers(len(files)))]).name}"

