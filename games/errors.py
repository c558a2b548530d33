"""One error tree for the whole product.

Every error pegpi raises on purpose is a :class:`PegpiError`; the ones caused by bad input are
also the matching built-in (``ValueError``, ``LookupError``) so callers may catch either.
"""

from __future__ import annotations


class PegpiError(Exception):
    """Base of every error pegpi raises on purpose."""


class CardError(PegpiError, ValueError):
    """Card notation that does not name a card, or a card that does not belong to the deck."""


class DuplicateCardError(CardError):
    """The same card given twice where each card can appear only once."""


class CardCountError(CardError):
    """The wrong number of cards for what was asked."""


class UnknownGameError(PegpiError, LookupError):
    """No registered game has that name."""


class OptionError(PegpiError, ValueError):
    """A game option that does not exist or has a bad value."""


class IllegalActionError(PegpiError, ValueError):
    """An action the rules do not allow now; the message says why, in a player's words."""


class RecordError(PegpiError, ValueError):
    """A game record that cannot be read or run; names the action's index where it has one."""

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.index = index


class ViewError(PegpiError, ValueError):
    """A view (as JSON) that does not have the shape of a view."""


class NoScoreError(PegpiError, LookupError):
    """`pegpi score` was asked for a game that has nothing to count away from a table."""
