"""Every game pegpi knows. Importing this module registers them all."""

from games.cribbage import five, game  # noqa: F401
