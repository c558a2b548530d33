"""The Decktet pegging games (Bhargage, Suitcases) on the pegging core (games/pegging/table.py).

A deal runs like cribbage's: (cut for the first deal) -> deal -> two cards each laid away to the
dealer's crib (Bhargage's "bhargage") -> the top card turned up -> the play -> the show
(non-dealer's hand, dealer's hand, the crib) -> the next deal, the deal alternating.

The play is a *sequence* of cards both players add to in turn: a card that may not go on
(Bhargage: the total would pass 23; Suitcases: a suit already used) means a ``pass``, and the
other player then plays on alone while able. When neither can play the sequence is over; each
game says what that scores and what follows (:meth:`DecktetPeggingState._end_sequence`).

Hands may be unknown (the companion sees cards only when played or shown): the engine then
checks what it can and trusts a ``pass``; with known hands it also refuses a pass while a
card could be played, and a card not held.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, TypedDict

from games.bhargage.actions import Pass, Play
from games.cards import Card
from games.decktet import DECKTET, DecktetCard
from games.engine import Action
from games.errors import CardError, IllegalActionError
from games.pegging.game import PeggingGame
from games.pegging.table import PeggingFields, PeggingState
from games.view import Common, PeggingView


class DecktetPeggingGame(PeggingGame[DecktetCard]):
    """What the two Decktet pegging games share: two players, the 45-card extended Decktet,
    two cards each to the crib."""

    #: cards dealt to each player
    hand_size = 5
    #: cards each player lays away
    lay_away = 2
    #: what the crib is called at the table
    crib_name = "crib"
    starter_name = "top card"
    crib_unseen_hint = "give its cards"
    size_hint = " (the top card given with --starter)"
    # Decktet card names have spaces: lists of cards are joined with semicolons
    list_sep = hand_sep = "; "

    def parse_card(self, text: str) -> DecktetCard:
        try:
            return DecktetCard.parse(text)
        except CardError:
            if isinstance(text, str):
                try:
                    Card.parse(text)
                except CardError:
                    pass
                else:
                    raise CardError(
                        f"{text!r} is a French card: {self.spec.title} is played with the Decktet "
                        "(name cards like 'the Author', 'Ace of Moons', 'Excuse')"
                    ) from None
            raise

    @property
    def deck(self) -> tuple[DecktetCard, ...]:
        return DECKTET

    def cut_order(self, card: DecktetCard) -> int:
        return card.order  # equal lowest ranks cut again; the Excuse is lowest

    @property
    def kept(self) -> int:
        return self.hand_size - self.lay_away

    # The pegging core's sizes (the pegging table protocol asks them too): the same every deal.

    def dealt(self, seat: int, dealer: int | None = None) -> int:
        return self.hand_size

    def discards(self, seat: int, dealer: int | None = None) -> int:
        return self.lay_away

    def kept_size(self, seat: int, dealer: int | None = None) -> int:
        return self.kept

    def crib_size(self, dealer: int | None = None) -> int:
        return self.lay_away * self.num_players

    def skunk_lines(self) -> list[tuple[str, int]]:
        return []


class DecktetPeggingState(PeggingState[DecktetCard]):
    game: DecktetPeggingGame

    def __init__(self, game: DecktetPeggingGame) -> None:
        super().__init__(game)
        self.starters: list[DecktetCard] = []  # every deal's top card, in order

    # ------------------------------------------------------------------ what each game says

    @abstractmethod
    def _misfit(self, card: DecktetCard) -> str | None:
        """Why ``card`` may not be added to the sequence now (a player's words), or None."""

    @abstractmethod
    def _score_play(self, seat: int) -> None:
        """Peg what the card just played (the end of the pile) scores."""

    @abstractmethod
    def _end_sequence(self) -> None:
        """Neither player can play on: peg for the last card, then go on."""

    def _on_top_card(self, card: DecktetCard) -> None:
        """The top card is turned up: peg what it gives the dealer."""

    # ------------------------------------------------------------------ turn and phase

    @property
    def other(self) -> dict[int, int]:
        return {0: 1, 1: 0}

    def to_move(self, action: Action) -> Sequence[int] | None:
        if isinstance(action, Play | Pass):
            return [self.turn] if self.turn is not None else []
        return super().to_move(action)

    def _starter_turned(self, card: DecktetCard) -> None:
        self.starters.append(card)
        self._on_top_card(card)

    # ------------------------------------------------------------------ the play

    def _on_play(self, action: Play) -> None:
        self._need_phase(action, "play")
        seat, card = action.player, action.card
        reason = self._misfit(card)
        if reason is not None:
            raise IllegalActionError(f"{self.game.players[seat]} cannot play {card}: {reason}")
        self._take_from_hand(seat, card, "play")
        self.played[seat].append(card)
        self.pile.append(card)
        self.last_player = seat
        self._score_play(seat)
        if not self.is_over:
            self._advance(seat)

    def _on_pass(self, action: Pass) -> None:
        self._need_phase(action, "play")
        seat = action.player
        name = self.game.players[seat]
        if not self.pile and self.held[seat] > 0:
            raise IllegalActionError(f"{name} leads: any card may be led, so there is no pass")
        hand = self.known[seat]
        if hand is not None:
            playable = [c for c in hand if self._misfit(c) is None]
            if playable:
                raise IllegalActionError(f"{name} must play: {'; '.join(map(str, playable))} can go on")
        self.passed.add(seat)
        self._advance(seat)

    def inferred_pass(self) -> Action | None:
        """The pass of the player to move, unless any card they could hold would go on."""
        turn = self.whose_turn()
        if turn is None or (self.held[turn] > 0 and self._every_card_goes_on()):
            return None
        return self._table_action(act="pass", player=turn)

    def _every_card_goes_on(self) -> bool:
        """Whatever card the player to move holds, it may be added to the sequence now (a lead)."""
        return not self.pile

    def _nobody_can_play(self) -> None:
        self.turn = None
        self._end_sequence()

    def _new_sequence(self, leader: int) -> None:
        self.pile, self.passed = [], set()
        self.turn = leader

    # ------------------------------------------------------------------ the show

    def _check_shown(self, seat: int, card: DecktetCard, seen: set[DecktetCard]) -> None:
        super()._check_shown(seat, card, seen)
        for other, other_hand in enumerate(self.known):
            if other != seat and other_hand is not None and card in other_hand:
                raise IllegalActionError(f"{card} is in {self.game.players[other]}'s hand")

    # ------------------------------------------------------------------ views

    def _decktet_fields(self) -> DecktetFields:
        return DecktetFields(crib_name=self.game.crib_name, passed=tuple(sorted(self.passed)))

    def _pegging_view(self, common: Common, fields: PeggingFields, seat: int | None) -> PeggingView:
        return DecktetPeggingView(**common, **fields, **self._decktet_fields())


@dataclass(frozen=True, kw_only=True)
class DecktetPeggingView(PeggingView):
    """The Decktet pegging games' table (Bhargage, Suitcases)."""

    style: ClassVar[str] = "pegging.decktet"

    crib_name: str  # what this game calls the crib
    passed: tuple[int, ...]  # seats that cannot play in this sequence


class DecktetFields(TypedDict):
    crib_name: str
    passed: tuple[int, ...]
