"""Typed views: what one seat may see of a game, produced by the engine.

``State.view_for(seat)`` returns a :class:`TableView` (or the view of the game's table family);
the board, the phone page and the records read its fields, and ``to_json()`` is what a phone gets.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from games.jsontypes import JSONObject


@dataclass(frozen=True)
class TableView:
    """The fields every game's view has."""

    game: str
    title: str

    def to_json(self) -> JSONObject:
        return dataclasses.asdict(self)
