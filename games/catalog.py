"""Every game pegpi knows: importing this module imports every module of the ``games`` package,
and each game registers itself with ``@register``. A new game needs no line here."""

from __future__ import annotations

import importlib
import pkgutil

import games

_SKIP = ("games.catalog",)


def load_all() -> None:
    for info in pkgutil.walk_packages(games.__path__, prefix="games."):
        if info.name not in _SKIP:
            importlib.import_module(info.name)


load_all()
