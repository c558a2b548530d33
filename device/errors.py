"""Errors of the companion itself (the game and card errors live in ``games.errors``)."""

from __future__ import annotations

from games.errors import PegpiError


class CompanionError(PegpiError, RuntimeError):
    """The companion cannot start (a bad source, a port in use, a store it cannot open)."""
