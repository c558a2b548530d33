"""The rules object every pegging game shares: its deck and cut order, the sizes of hands and
crib, the show order and how the deal passes on. The table itself is :mod:`games.pegging.table`.
"""

from __future__ import annotations

import json
from abc import abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from games.cards import check_cards
from games.engine import Game, Score, ScoreRequest
from games.errors import CardCountError, CardError
from games.jsontypes import JSONObject


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
    #: what `pegpi score` adds to the size of a hand when it has the wrong number of cards
    size_hint: ClassVar[str] = ""

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

    @classmethod
    def score_command(cls, request: ScoreRequest) -> str:
        """`pegpi score GAME CARDS --starter CARD [--crib]`: the count said line by line, or JSON.

        >>> from games import get_game
        >>> print(get_game("cribbage").score_command(ScoreRequest(("5H", "5C", "5S", "JD"), "5D")))
        29  (fifteen 2, fifteen 4, fifteen 6, fifteen 8, fifteen 10, fifteen 12, fifteen 14, fifteen 16, double pair royal 28, his nob 29)
        """
        game = cls(cls.spec.players[0])
        if request.starter is not None and not request.starter.strip():
            raise CardError("--starter is empty: name the starter card, e.g. --starter 5D")
        lines = game.score_cards(request.words, request.starter, request.crib)
        own = [(label, score) for label, score in lines if not score.to_opponent]
        given = sum(score.total for _, score in lines if score.to_opponent)
        total = sum(score.total for _, score in own)
        if request.as_json:
            out: JSONObject = {
                "game": game.spec.name,
                "total": total,
                "items": [item.to_json() for _, score in own for item in score.items],
            }
            if given:
                out["to_opponent"] = given
            if request.starter is None:
                out["starter"] = None
            if len(lines) > 1:
                out["lines"] = [{"line": label, **score.to_json()} for label, score in lines]
            return json.dumps(out)
        said = []
        for label, score in lines:
            prefix = f"{label}: " if len(lines) > 1 else ""
            suffix = " to the opponent" if score.to_opponent else ""
            said.append(f"{prefix}{score.total}{suffix}  ({score.spoken()})")
        if len(own) > 1 or given:
            said.append(f"total: {total}" + (f" (and {given} to the opponent)" if given else ""))
        if request.starter is None:  # a show is counted with the starter: say that this one left it out
            said.append("(counted without a starter: give it with --starter CARD)")
        return "\n".join(said)

    def score_cards(self, cards: Sequence[str], starter: str | None, crib: bool = False) -> list[tuple[str, Score]]:
        """`pegpi score`: count one hand (the kept cards) or the crib with the starter.

        >>> from games import new_game
        >>> [(what, score.total) for what, score in new_game("cribbage").score_cards(["5H", "5C", "5S", "JD"], "5D")]
        [('hand', 29)]
        """
        hand = [self.parse_card(c) for c in cards]
        start = self.parse_card(starter) if starter else None
        texts = list(cards) + ([starter] if starter else [])
        check_cards(hand + ([start] if start else []), texts=texts, what=f"the hand and {self.starter_name}")
        size = self.crib_size(0) if crib else self.kept_size(1, 0)
        if len(hand) != size:
            raise CardCountError(
                f"a {self.crib_name if crib else 'hand'} in {self.spec.title} has {size} cards{self.size_hint}, "
                f"got {len(hand)}: " + self.hand_sep.join(cards)
            )
        return self.score_lines(hand, start, crib)

    def score_lines(self, hand: Sequence[C], starter: C | None, crib: bool) -> list[tuple[str, Score]]:
        """The lines `pegpi score` prints: the count (Bhargage adds the opponent's shortage)."""
        return [(self.crib_name if crib else "hand", self.score_hand(hand, starter, crib))]
