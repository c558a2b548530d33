"""The layout protocol (Cribbage Patience, and games read as an arrangement of outlines): each
card laid into an outline of the grid is a move at that place.

What the camera sees, and what it means (the game says, through :class:`games.table.LayoutTable`):

- a card laid in an empty outline is the game's move there (Patience: the square's card at that
  row and column); a card the game already holds there is seen again and means nothing;
- a card laid over another (Patience: the starter laid on the square) is the move the game
  expects next; the card underneath stays in the game;
- a card read below the confidence threshold is asked about before it counts; a card the camera
  cannot read, or a move the rules refuse ("row 1, column 2 already holds 7H"), is named and
  waits: take it back, enter the move on the phone, or press OK to ignore it.

Nothing is undone by the table: a card taken away from an outline leaves the game as it is (an
undo is made on the phone), so the recorded game is never lost to a nudged card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from device.protocols import register_protocol
from device.protocols.mat import Key, QueuedMatProtocol, Seen
from device.protocols.script import register_script
from games.jsontypes import JSONObject
from games.records import Replay
from games.table import LayoutTable, Zone

if TYPE_CHECKING:
    from games.engine import Action

L = TypeVar("L", bound=LayoutTable)


class LayoutMatProtocol(QueuedMatProtocol[L]):
    """A card laid in an outline means what the game says of that outline (the layout table and
    the tables built on it, whose interface ``L`` asks more)."""

    def _meaning(self, zone: Zone, slot: int, card: str) -> list[Action] | None:
        """What ``card`` in outline ``slot`` of ``zone`` means now, checked by the engine (a move
        the rules refuse raises); None when the game already holds it."""
        actions = self._table().slot_means(zone, slot, card)
        self._check(actions or [])
        return actions


@register_protocol
class LayoutProtocol(LayoutMatProtocol[LayoutTable]):
    name = "layout"
    interface = LayoutTable


@register_script("layout")
def layout_script(result: Replay) -> list[JSONObject]:
    """The steps that play a record on a layout mat: each action's cards laid where the game says
    they lie (over what lies there already); actions the camera cannot see are said."""
    state = result.game.new_initial_state()
    LayoutProtocol.table_of(state)  # refuses a game not played on the layout table
    steps: list[JSONObject] = []
    for action in result.actions:
        laid = LayoutProtocol.table_of(state).laid_by(action)
        for zone, slot, card in laid:
            steps.append({"op": "place", "zone": zone.name, "slot": slot, "card": card})
        if not laid:
            steps.append({"op": "say", "action": action.to_json()})
        state = state.apply(action)
    return steps


__all__ = ["Key", "LayoutMatProtocol", "LayoutProtocol", "Seen", "layout_script"]
