"""Random legal games of every catalogue game, as game records: what the simulated table plays.

Each game family's random player registers itself by game name with ``@register_playout``; the
simulated table (``pegpi table-sim``) and the demo ask :func:`playout` for a record and never name
a family's module.

>>> record = playout("cribbage", seats=2, seed=3)
>>> record["game"], len(record["players"])
('cribbage', 2)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from games.engine import Action, Game, State, get_game
from games.errors import OptionError, PegpiError
from games.jsontypes import JSONObject

#: the names the simulated players sit down with, in seat order
PLAYER_NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")


class NoPlayoutError(PegpiError, LookupError):
    """A game with no random player yet."""


@dataclass(frozen=True, slots=True)
class PlayoutRequest:
    """One random game to play: ``deals`` deals of it (None: to its end, or the family's cap)."""

    game: str
    players: tuple[str, ...]
    seed: int
    deals: int | None = 1
    known_hands: bool = False
    options: JSONObject | None = None


Playout = Callable[[PlayoutRequest], JSONObject]
#: told every state a random player reaches (the playout tests check invariants there)
Step = Callable[[State], None]


class Driver:
    """A random player's hand on the game: applies actions in record form and keeps them."""

    def __init__(self, game: Game, each: Step | None = None) -> None:
        self.game = game
        self.state: State = game.new_initial_state()
        self.actions: list[Action] = []
        self.each = each

    def do(self, data: JSONObject) -> None:
        action = self.game.action_from_json(data)
        self.state = self.state.apply(action)
        self.actions.append(action)
        if self.each is not None:
            self.each(self.state)

_PLAYOUTS: dict[str, Playout] = {}


def register_playout(*names: str) -> Callable[[Playout], Playout]:
    """Decorator: ``fn`` plays random games of the games called ``names``."""

    def add(fn: Playout) -> Playout:
        for name in names:
            owner = _PLAYOUTS.get(name)
            if owner is not None and owner is not fn:
                raise ValueError(f"{name!r} already has a random player: {owner.__qualname__}")
            _PLAYOUTS[name] = fn
        return fn

    return add


def playable() -> list[str]:
    """The games that have a random player."""
    get_game("cribbage")  # loads the catalogue, and with it every registration
    return sorted(_PLAYOUTS)


def playout(game: str, *, seats: int | None = None, seed: int = 0, deals: int | None = 1,
            known_hands: bool = False, options: JSONObject | None = None) -> JSONObject:
    """A record of a random legal game of ``game`` at ``seats`` seats (default: its fewest)."""
    spec = get_game(game).spec
    count = min(spec.players) if seats is None else seats
    if count not in spec.players:
        allowed = ", ".join(map(str, spec.players))
        raise OptionError(f"{spec.title} is played by {allowed} players, not {count}")
    if count > len(PLAYER_NAMES):
        raise OptionError(f"the simulated table seats at most {len(PLAYER_NAMES)} players")
    if seed < 0:
        raise OptionError(f"the seed must be 0 or more, not {seed}")
    if deals is not None and deals < 1:
        raise OptionError(f"play at least one deal, not {deals}")
    playable()
    player = _PLAYOUTS.get(spec.name)
    if player is None:
        raise NoPlayoutError(f"{spec.title} has no random player for the simulated table yet")
    return player(PlayoutRequest(spec.name, PLAYER_NAMES[:count], seed, deals, known_hands, options))
