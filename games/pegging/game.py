"""The rules object every pegging game shares: its deck and cut order, the sizes of hands and
crib, the show order and how the deal passes on. The table itself is :mod:`games.pegging.table`.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from games.engine import Game, Score


class PeggingCard(Protocol):
    """A card of any pegging deck: hashable and sorted in the deck's order."""

    def __lt__(self, other: Any) -> bool: ...


C = TypeVar("C", bound=PeggingCard)


class PeggingGame(Game, Generic[C]):
    """The rules object of a pegging game: its deck, the sizes of hands and crib, the show."""

    #: what the crib is called at the table
    crib_name: ClassVar[str] = "crib"
    #: what the card turned up after the discards is called at the table
    starter_name: ClassVar[str] = "starter"
    #: how a message about a crib not yet seen ends
    crib_unseen_hint: ClassVar[str] = "turn it up and give its cards"
    #: how a message joins a list of cards, and the cards of a hand
    list_sep: ClassVar[str] = ", "
    hand_sep: ClassVar[str] = " "
    #: the dealer counts a crib after the hands
    has_crib: ClassVar[bool] = True

    @abstractmethod
    def parse_card(self, text: str) -> C: ...

    @property
    @abstractmethod
    def deck(self) -> tuple[C, ...]: ...

    @abstractmethod
    def cut_order(self, card: C) -> int:
        """Where ``card`` stands when cutting for deal: the lowest deals."""

    @abstractmethod
    def dealt(self, seat: int, dealer: int) -> int:
        """How many cards ``seat`` is dealt."""

    @abstractmethod
    def discards(self, seat: int, dealer: int) -> int:
        """How many cards ``seat`` lays away to the crib."""

    @abstractmethod
    def kept_size(self, seat: int, dealer: int) -> int:
        """How many cards ``seat`` shows."""

    @abstractmethod
    def crib_size(self, dealer: int) -> int: ...

    @abstractmethod
    def skunk_lines(self) -> list[tuple[str, int]]: ...

    @abstractmethod
    def score_hand(self, hand: Sequence[C], starter: C | None, crib: bool = False) -> Score:
        """The count of a hand (or of the crib) with the starter."""

    def show_order(self, dealer: int) -> list[int]:
        """Seats in the order their hands are shown: from the dealer's left round to the dealer."""
        n = self.num_players
        return [(dealer + i) % n for i in range(1, n + 1)]

    def next_dealer(self, dealer: int) -> int:
        return (dealer + 1) % self.num_players
