"""Every game pegpi knows: importing this module imports every module of the ``games`` package,
and each game registers itself with ``@register``. A new game needs no line here."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

_SKIP = ("games.catalog",)


def load_all() -> None:
    # the package's folder, not ``games`` itself: the engine imports this module from a call
    for info in pkgutil.walk_packages([str(Path(__file__).parent)], prefix="games."):
        if info.name not in _SKIP:
            importlib.import_module(info.name)


load_all()
