"""The actions of the cribbage family, as written in game records (see seeds/cribbage.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from games.cards import Card
from games.engine import Action


@dataclass(frozen=True)
class Cut(Action):
    """A player cuts the pack to decide the first dealer: the lowest card deals."""

    act: ClassVar[str] = "cut"
    player: int
    card: Card


@dataclass(frozen=True)
class Deal(Action):
    """A deal. ``hands`` (one list per seat, or null) when the cards are known; usually unknown."""

    act: ClassVar[str] = "deal"
    dealer: int | None = None
    hands: tuple[tuple[Card, ...] | None, ...] | None = None


@dataclass(frozen=True)
class Discard(Action):
    """A player lays cards away to the crib; ``cards`` may be omitted (the crib is face down)."""

    act: ClassVar[str] = "discard"
    player: int
    cards: tuple[Card, ...] | None = None


@dataclass(frozen=True)
class Bid(Action):
    """Auction cribbage: points a player offers to pay for the crib (0 passes)."""

    act: ClassVar[str] = "bid"
    player: int
    points: int


@dataclass(frozen=True)
class Starter(Action):
    """The starter (the cut card) is turned up."""

    act: ClassVar[str] = "starter"
    card: Card


@dataclass(frozen=True)
class Play(Action):
    act: ClassVar[str] = "play"
    player: int
    card: Card


@dataclass(frozen=True)
class Go(Action):
    """The player cannot play without passing the limit of the count."""

    act: ClassVar[str] = "go"
    player: int


@dataclass(frozen=True)
class Show(Action):
    """A player shows their hand. ``cards`` are needed only for cards not yet seen; ``claim``
    is the points the player claims (with muggins)."""

    act: ClassVar[str] = "show"
    player: int
    cards: tuple[Card, ...] | None = None
    claim: int | None = None


@dataclass(frozen=True)
class Crib(Action):
    """The dealer turns up the crib and counts it."""

    act: ClassVar[str] = "crib"
    cards: tuple[Card, ...] | None = None
    claim: int | None = None


@dataclass(frozen=True)
class Muggins(Action):
    """An opponent takes the points the last show missed (when playing muggins)."""

    act: ClassVar[str] = "muggins"
    player: int


@dataclass(frozen=True)
class Give(Action):
    """Solo three-hand: a partner passes one card face down to the dealer (``card`` if known)."""

    act: ClassVar[str] = "give"
    player: int
    card: Card | None = None


@dataclass(frozen=True)
class Nob(Action):
    """Revised: the player who has just played the jack of the starter's suit takes 1 for his nob
    now instead of in the count."""

    act: ClassVar[str] = "nob"
    player: int


@dataclass(frozen=True)
class Back(Action):
    """Revised: the points the player's side has just pegged are taken off the opponents instead."""

    act: ClassVar[str] = "back"
    player: int


CRIBBAGE_ACTIONS: tuple[type[Action], ...] = (Cut, Deal, Discard, Starter, Play, Go, Show, Crib, Muggins)
