"""The seats protocol (Ricochet Poker, Skull): each seat's cards lie in its own row of outlines,
face up (a poker hand) or face down (a Skull mat), and the game says what a card there means.

What the camera sees, and what it means (through :class:`games.table.SeatsTable`):

- a card face up in a seat's outline: Ricochet Poker's dealer giving it to that seat (the game's
  order says who is due; a card in the wrong seat is named), Skull's challenger turning it up
  (the challenger's own mat first, each mat from its top card; a wrong turn is named);
- a card face down: Skull's ``lay`` on that seat's mat (the backs are counted outline by outline);
  in Ricochet Poker a hand turned over means nothing, a card due face up is asked to be turned;
- a card taken away means nothing: folds, the lost card and the next round are said on the
  phone or the buttons, and a mat is picked up when the game no longer holds its cards;
- an unsure read is asked about before it counts, a card that cannot be read is named, and a
  play the rules refuse waits, named on the board and the phone, until the card is taken back,
  corrected or ignored (OK). Nothing recorded is ever undone by the table.

The mechanics (the question asked, events waiting behind it, corrections) are the layout
protocol's; this one adds what a face-down card means.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from device.protocols import Ask, register_protocol
from device.protocols.layout import LayoutMatProtocol
from device.protocols.script import register_script
from games.errors import PegpiError, RecordError
from games.jsontypes import JSONObject
from games.records import Replay
from games.table import BACK, SeatsTable, Zone
from vision.mat import layout_for

if TYPE_CHECKING:
    from games.engine import Action


@register_protocol
class SeatsProtocol(LayoutMatProtocol[SeatsTable]):
    name = "seats"
    interface = SeatsTable

    def _reads_back(self, zone: Zone, card: str) -> bool:
        return card == BACK  # a card laid face down on a seat's mat is that seat's move

    def _refused(self, zone: Zone, card: str, exc: PegpiError) -> str:
        if card == BACK:
            return f"a card face down in {self._label(zone)}: {exc}"
        return super()._refused(zone, card, exc)

    def _doubt(self, zone: Zone, slot: int, card: str, actions: Sequence[Action]) -> Ask:
        if card == BACK:
            return Ask("confirm", f"is that a card face down in {self._label(zone)}? OK, or correct it",
                       zone, slot, card, list(actions))
        return super()._doubt(zone, slot, card, actions)


@register_script("seats")
def seats_script(result: Replay) -> list[JSONObject]:
    """The steps that play a record on a seats mat: each card laid (or turned up) in the outline
    the game says, what the camera cannot see said, and the cards the game no longer holds (a
    hand thrown away, the mats at the end of a round) taken away."""
    game = result.game
    state = game.new_initial_state()
    SeatsProtocol.table_of(state)  # refuses a game not played on the seats table
    mat = layout_for(game.spec.table, game.num_players)
    zones = [Zone.row(seat) for seat in range(game.num_players)]
    lying: dict[tuple[str, int], str] = {}
    steps: list[JSONObject] = []
    for action in result.actions:
        laid = SeatsProtocol.table_of(state).laid_by(action)
        for zone, slot, card in laid:
            outlines = len(mat.zone(zone.name).slots)
            if slot >= outlines:
                raise RecordError(f"{zone.name} has {outlines} card outlines on a {game.num_players}-seat mat, "
                                  f"not room for card {slot + 1}")
            lying[(zone.name, slot)] = card
            steps.append({"op": "place", "zone": zone.name, "slot": slot, "card": card})
        if not laid:
            steps.append({"op": "say", "action": action.to_json()})
        state = state.apply(action)
        table = SeatsProtocol.table_of(state)
        for zone in zones:
            held = len(table.holds(zone))
            for key in sorted(k for k in lying if k[0] == zone.name and k[1] >= held):
                del lying[key]
                steps.append({"op": "remove", "zone": key[0], "slot": key[1]})
    return steps
