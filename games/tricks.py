"""What the trick games share: trick winners, the referee's revoke claims and their actions.

A trick game played with hidden hands cannot refuse a card that breaks a rule of the play, since
the companion does not know what else the player held. It can remember, for every card played,
which cards would have made that play illegal had the player held them (its *forbidden* set). A
card of that set played later by the same player in the same deal was in the hand all along, so
the earlier play is *proven* to break the rule: a :class:`RevokeClaim` the players accept or
dismiss.

>>> from games.cards import Card
>>> trick = [(0, Card.parse("QD")), (1, Card.parse("4S")), (2, Card.parse("AD"))]
>>> trick_winner(trick, "S", ACE_HIGH)
1
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from games.cards import Card
from games.engine import Action
from games.view import Claim, LastTrick, TrickCard

#: Trick strength of French ranks with the ace high (2 lowest).
ACE_HIGH: dict[int, int] = {r: (14 if r == 1 else r) for r in range(1, 14)}

Trick = Sequence[tuple[int, Card]]


def trick_winner(trick: Trick, trump: str | None, strength: Mapping[int, int]) -> int:
    """The seat that wins ``trick``: the highest trump, else the highest card of the suit led."""
    if not trick:
        raise ValueError("an empty trick has no winner")
    led = trick[0][1].suit

    def key(entry: tuple[int, Card]) -> tuple[int, int]:
        card = entry[1]
        suit_rank = 2 if card.suit == trump else 1 if card.suit == led else 0
        return suit_rank, strength[card.rank]

    return max(trick, key=key)[0]


def beats(card: Card, best: Card, led: str, trump: str | None, strength: Mapping[int, int]) -> bool:
    """Whether ``card`` would take the lead from ``best`` in a trick led in ``led``."""
    if card.suit == best.suit:
        return strength[card.rank] > strength[best.rank]
    if card.suit == trump:
        return True
    return False


@dataclass(frozen=True)
class RevokeClaim:
    """A play proven to break a rule: the deal (counted from 1) and trick in it, the player, the
    card played, the rule broken, the later card that proves it, the penalty in words and in
    chips (or points), and what the players decided ("open", "accepted", "dismissed")."""

    deal: int
    trick: int
    player: int
    card: Card
    rule: str
    proof: Card
    penalty: str
    amount: int = 0
    status: str = "open"

    def as_view(self, names: Sequence[str]) -> Claim:
        """The claim as every seat's view gives it: both cards have been shown to the table."""
        return Claim(deal=self.deal, trick=self.trick, player=self.player, card=str(self.card),
                     rule=self.rule, proof=str(self.proof), penalty=self.penalty, amount=self.amount, status=self.status,
                     say=self.say(names))

    def say(self, names: Sequence[str]) -> str:
        return (f"{names[self.player]} {self.rule} in trick {self.trick} of deal {self.deal} "
                f"(played {self.card}, later showed {self.proof}): {self.penalty}")


@dataclass(frozen=True)
class Pending:
    """One play the referee keeps watching: the card played to a trick led in ``led`` and the
    cards that would have made it illegal had the player held them."""

    trick: int
    player: int
    card: Card
    led: str
    forbidden: frozenset[Card]


@dataclass(frozen=True)
class Trump(Action):
    """The card turned face up that names trumps."""

    act: ClassVar[str] = "trump"
    card: Card


@dataclass(frozen=True)
class Accept(Action):
    """The players agree a revoke claim (numbered from 0 in the game): its penalty is paid."""

    act: ClassVar[str] = "accept"
    claim: int


@dataclass(frozen=True)
class Dismiss(Action):
    """The players set a revoke claim aside: nothing is paid."""

    act: ClassVar[str] = "dismiss"
    claim: int


@dataclass(frozen=True)
class Hand(Action):
    """A seated player enters the cards held now, on their own phone: from then on pegpi refuses
    that player's illegal cards and shows which may be played. No other seat's view shows them."""

    act: ClassVar[str] = "hand"
    player: int
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class End(Action):
    """The players stop playing between deals; the most points (or chips) wins."""

    act: ClassVar[str] = "end"


def trick_cards(trick: Trick) -> tuple[TrickCard, ...]:
    """A trick as a view gives it."""
    return tuple(TrickCard(seat, str(card)) for seat, card in trick)


def last_trick_view(last: tuple[Trick, int] | None) -> LastTrick | None:
    """The last trick taken (its cards and winner) as a view gives it."""
    return None if last is None else LastTrick(trick_cards(last[0]), last[1])


def proofs(pending: Sequence[Pending], player: int, card: Card) -> list[Pending]:
    """The watched plays of ``player`` that ``card``, played now, proves illegal."""
    return [p for p in pending if p.player == player and card in p.forbidden]


__all__ = [
    "ACE_HIGH", "Accept", "Dismiss", "End", "Hand", "Pending", "RevokeClaim", "Trick", "Trump", "beats",
    "last_trick_view", "proofs", "trick_cards", "trick_winner",
]
