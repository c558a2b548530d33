"""The application's own error, under ``games.errors.PegpiError`` like every error of pegpi."""

from __future__ import annotations

from games.errors import PegpiError


class CommandError(PegpiError, ValueError):
    """A command-line value that cannot be right, or a file a command cannot use (names which)."""
