"""Fonts for card indices, from packages the project installs (never from the machine).

Each font is a :class:`FontFace`: a TrueType/OpenType file from one of the small OFL/Apache
``font-*`` packages of the ``dev``/``train`` extras, or one of OpenCV's Hershey stroke fonts, or
the built-in stroke digits of :mod:`vision.render.strokes`. Families are split once and for all
into a *training* pool and a *held-out* pool, so the bench measures decks whose index lettering
the model has never seen.
"""

from __future__ import annotations

import functools
import importlib.util
from dataclasses import dataclass
from pathlib import Path

from vision.errors import FontError

#: Python package -> font files it ships (``files/`` folder). Training families first.
TRAIN_PACKAGES = (
    "font_lato",
    "font_source_sans_pro",
    "font_source_serif_pro",
    "font_roboto",
    "font_manrope",
    "font_hanken_grotesk",
    "font_fredoka_one",
    "font_intuitive",
    "font_amatic_sc",
)
#: Families shipped inside matplotlib (``mpl-data/fonts/ttf``), a dependency of the ``train``
#: and ``dev`` extras: DejaVu Sans, Sans Mono and Serif, STIX (a Times-like serif) and three
#: Computer Modern cuts. Family -> file names (upright cuts only).
MATPLOTLIB_FAMILIES = {
    "dejavu_sans": ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"),
    "dejavu_sans_mono": ("DejaVuSansMono.ttf", "DejaVuSansMono-Bold.ttf"),
    "dejavu_serif": ("DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf"),
    "stix": ("STIXGeneral.ttf", "STIXGeneralBol.ttf"),
    "cm_roman": ("cmr10.ttf", "cmb10.ttf"),
    "cm_sans": ("cmss10.ttf",),
    "cm_typewriter": ("cmtt10.ttf",),
}
#: Families never used in training: only held-out designs use them.
HELDOUT_PACKAGES = ("font_caladea", "font_rhd", "font_fjallaone")

#: The PyPI names of the font packages (for the ``dev`` and ``train`` extras).
PYPI_NAMES = tuple(p.replace("_", "-") for p in TRAIN_PACKAGES + HELDOUT_PACKAGES) + ("matplotlib",)

#: OpenCV Hershey fonts: (id, italic). COMPLEX is held out.
HERSHEY_TRAIN = (0, 2, 3, 4, 6, 7)  # SIMPLEX, DUPLEX, TRIPLEX, COMPLEX_SMALL, SCRIPT_SIMPLEX, SCRIPT_COMPLEX
HERSHEY_HELDOUT = (1,)  # COMPLEX


@dataclass(frozen=True, slots=True)
class FontFace:
    """One way of writing the index: ``kind`` is ``"ttf"`` (``path``), ``"hershey"`` (``hershey``
    id) or ``"stroke"`` (the stroke digits, ``stroke`` style number)."""

    kind: str
    name: str
    family: str = ""
    path: str = ""
    hershey: int = 0
    stroke: int = 0


def _package_fonts(package: str) -> list[Path]:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return []
    folder = Path(next(iter(spec.submodule_search_locations))) / "files"
    files = sorted(folder.glob("*.ttf"))
    stems = {f.stem for f in files}
    files += sorted(f for f in folder.glob("*.otf") if f.stem not in stems)
    # variable fonts render only their default instance; hairline and italic cuts are not how
    # card indices are printed
    skip = ("Variable", "Thin", "ExtraLight", "Light", "Italic", "It.")
    return [f for f in files if not any(s in f.name for s in skip)]


def _matplotlib_fonts() -> dict[str, list[Path]]:
    spec = importlib.util.find_spec("matplotlib")
    if spec is None or not spec.submodule_search_locations:
        return {}
    folder = Path(next(iter(spec.submodule_search_locations))) / "mpl-data" / "fonts" / "ttf"
    found = {fam: [folder / n for n in names if (folder / n).exists()] for fam, names in MATPLOTLIB_FAMILIES.items()}
    return {fam: files for fam, files in found.items() if files}


@functools.lru_cache(maxsize=2)
def font_pool(heldout: bool) -> tuple[FontFace, ...]:
    """All faces of the training pool (``heldout=False``) or the held-out pool.

    Raises ``RuntimeError`` when none of the pool's font packages is installed (install the
    project with its ``dev`` or ``train`` extra)."""
    packages = HELDOUT_PACKAGES if heldout else TRAIN_PACKAGES
    faces: list[FontFace] = []
    missing = []
    for package in packages:
        files = _package_fonts(package)
        if not files:
            missing.append(package)
        faces += [FontFace("ttf", f.stem, family=package, path=str(f)) for f in files]
    if not heldout:
        for fam, files in _matplotlib_fonts().items():
            faces += [FontFace("ttf", f.stem, family=fam, path=str(f)) for f in files]
    if not faces:
        raise FontError(
            "no font package found for the card renderer: install pegpi with its dev or train extra "
            f"(missing: {', '.join(p.replace('_', '-') for p in missing)})"
        )
    for h in HERSHEY_HELDOUT if heldout else HERSHEY_TRAIN:
        faces.append(FontFace("hershey", f"hershey{h}", family="hershey", hershey=h))
    if not heldout:
        faces += [FontFace("stroke", f"stroke{s}", family="stroke", stroke=s) for s in range(3)]
    return tuple(faces)


def pick_font(rng: object, heldout: bool) -> FontFace:
    """A face of the pool: a family first (all equally likely), then one of its cuts."""
    import numpy as np

    assert isinstance(rng, np.random.Generator)
    faces = font_pool(heldout)
    families = sorted({f.family for f in faces})
    family = families[int(rng.integers(len(families)))]
    cuts = [f for f in faces if f.family == family]
    return cuts[int(rng.integers(len(cuts)))]
