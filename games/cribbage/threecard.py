"""The three-card ancestors of Cribbage (Noddy, Costly Colours): three cards each, a turn-up,
one count to 31, no crib. They share the cribbage core (cut, deal, turn-up, the play's turn
order, the show's checks) and change what scores."""

from __future__ import annotations

from games.cribbage.game import Cribbage


class ThreeCardCribbage(Cribbage):
    hand_size = 3
    one_count = True
    has_crib = False

    def discards(self, seat: int, dealer: int) -> int:
        return 0

    def skunk_lines(self) -> list[tuple[str, int]]:
        return []
