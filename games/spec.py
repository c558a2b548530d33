"""What a game is: its spec and options, checked where they are given."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.errors import OptionError

TARGET_LOW, TARGET_HIGH = 5, 361  # the points to win any game may be set to (two 181 boards)


@dataclass(frozen=True, slots=True)
class Option:
    """A game option with its default; ``choices`` limits the values where given, and ``low`` and
    ``high`` (both included) limit a whole number. Every whole-number option has one or the
    other: an unbounded number (a target of 10**9) would be stored and drawn as it is."""

    name: str
    default: Any
    help: str = ""
    choices: tuple[Any, ...] | None = None
    low: int | None = None
    high: int | None = None

    def check(self, value: Any) -> Any:
        kind = type(self.default)
        if kind is bool and not isinstance(value, bool):
            raise OptionError(f"option {self.name!r} is true or false, not {value!r}")
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise OptionError(f"option {self.name!r} is a whole number, not {value!r}")
        if kind is str and not isinstance(value, str):
            raise OptionError(f"option {self.name!r} is text, not {value!r}")
        if kind is int and not ((self.low is None or self.low <= value)
                                and (self.high is None or value <= self.high)):
            raise OptionError(f"option {self.name!r} is a whole number {self.range_text()}, not {value!r}")
        if self.choices is not None and value not in self.choices:
            raise OptionError(
                f"option {self.name!r} must be one of {', '.join(map(str, self.choices))}, not {value!r}"
            )
        return value


    def range_text(self) -> str:
        """"from 5 to 361", "from 0", "up to 9" or "" for the limits of a whole number."""
        if self.low is not None and self.high is not None:
            return f"from {self.low} to {self.high}"
        if self.low is not None:
            return f"from {self.low}"
        return f"up to {self.high}" if self.high is not None else ""


@dataclass(frozen=True, slots=True)
class Spec:
    """What a game is: its registry name and aliases, player counts, deck, target and options.

    ``table`` names the table protocol that plays it on the mat (``"pegging"``, ``"tricks"``,
    ``"pile"``, ``"layout"``); ``pegged`` says whether its score is kept on a peg board."""

    name: str
    title: str
    players: tuple[int, ...]
    deck: str
    table: str
    target: int | None = None
    aliases: tuple[str, ...] = ()
    options: tuple[Option, ...] = ()
    pegged: bool = True
    summary: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "players": list(self.players),
            "deck": self.deck,
            "table": self.table,
            "target": self.target,
            "aliases": list(self.aliases),
            "pegged": self.pegged,
            "summary": self.summary,
            "options": [
                {"name": o.name, "default": o.default, "help": o.help,
                 "choices": list(o.choices) if o.choices is not None else None,
                 "min": o.low, "max": o.high}
                for o in self.options
            ],
        }
