"""Scores with their breakdown: what a count is made of, and how players say it aloud.

>>> items = [Item("fifteen", (), 2), Item("fifteen", (), 2), Item("pair", (), 2)]
>>> spoken(items)
'fifteen 2, fifteen 4, pair 6'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

CardLike = Any  # games.cards.Card or games.decktet.DecktetCard; each game parses its own


@dataclass(frozen=True, slots=True)
class Item:
    """One scoring feature: ``Item("fifteen", (5H, 10D), 2)``."""

    kind: str
    cards: tuple[CardLike, ...]
    points: int
    label: str = ""  # how it is said when it is not just the kind ("run of 3", "31")

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "cards": [str(c) for c in self.cards], "points": self.points}


@dataclass(frozen=True, slots=True)
class Score:
    """A counted hand: the total and every item that makes it. ``to_opponent`` marks points
    the count gives to the other side (Bhargage's shortage)."""

    total: int
    items: tuple[Item, ...] = ()
    to_opponent: bool = False

    @classmethod
    def of(cls, items: Sequence[Item]) -> Score:
        return cls(sum(i.points for i in items), tuple(items))

    def spoken(self) -> str:
        """The count as a player says it: "fifteen 2, fifteen 4, pair 6, run of 3 is 9"."""
        return spoken(self.items)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"total": self.total, "items": [i.to_json() for i in self.items]}
        if self.to_opponent:
            out["to_opponent"] = True
        return out


def say_item(item: Item, running: int) -> str:
    """Say one item with the running total, as cribbage players count aloud:
    "fifteen 2", "31 for 2", "go for 1", then "pair 6", "run of 3 is 9"."""
    name = item.label or item.kind
    if " for " in name:
        return name  # already a whole phrase: "3 for last"
    ends_in_number = name[-1].isdigit()
    if running == item.points:
        if ends_in_number or name in ("go", "last card"):
            return f"{name} for {item.points}"
        return f"{name} {item.points}"
    return f"{name} is {running}" if ends_in_number else f"{name} {running}"


def spoken(items: Sequence[Item]) -> str:
    parts: list[str] = []
    running = 0
    for item in items:
        running += item.points
        parts.append(say_item(item, running))
    if not parts:
        return "nineteen (nothing)"
    return ", ".join(parts)


def spoken_items(items: Sequence[Item]) -> list[dict[str, Any]]:
    """Items as JSON with their cumulative ``say`` text, for the board and the phone."""
    out = []
    running = 0
    for item in items:
        running += item.points
        out.append({**item.to_json(), "say": say_item(item, running)})
    return out


@dataclass(frozen=True, slots=True)
class ScoreEvent:
    """Points pegged by one side, when and why: ``kind`` is the moment ("play", "last", "hand",
    "crib", "heels", ...), ``items`` the breakdown."""

    side: int
    points: int
    kind: str
    items: tuple[Item, ...] = ()
    seat: int | None = None
    action_index: int | None = None
    shown: tuple[CardLike, ...] = ()  # a show's whole hand (or crib) and starter, scoring or not

    @property
    def cards(self) -> tuple[CardLike, ...]:
        if self.shown:
            return self.shown
        seen: dict[str, CardLike] = {}
        for item in self.items:
            for c in item.cards:
                seen.setdefault(str(c), c)
        return tuple(seen.values())

    def say(self) -> str:
        return spoken(self.items) if self.items else f"{self.kind} {self.points}"

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.side,
            "seat": self.seat,
            "points": self.points,
            "kind": self.kind,
            "cards": [str(c) for c in self.cards],
            "items": spoken_items(self.items),
            "say": self.say(),
            "action": self.action_index,
        }
