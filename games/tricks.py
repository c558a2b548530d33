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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from games.cards import Card
from games.engine import Action, Game, State
from games.errors import CardError, IllegalActionError
from games.table import TRUMP, Zone
from games.view import Claim, Common, LastTrick, ScoreTable, TrickCard

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
    """The card turned face up that names trumps (Oh Hell: omitted for a no-trump deal)."""

    act: ClassVar[str] = "trump"
    card: Card | None = None


@dataclass(frozen=True)
class Pass(Action):
    """The player passes: out of the auction (Briscola), or out of this deal (Bourré)."""

    act: ClassVar[str] = "pass"
    player: int


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


def french_card(game: Game, text: str) -> Card:
    """A card of the 52-card pack (the trick games played with it have no jokers)."""
    card = Card.parse(text)
    if card.is_joker:
        raise CardError(f"{text!r}: {game.spec.title} is played without jokers")
    return card


class TrickState(State):
    """What the trick games' states share: the deal's dealer and turn, the trick in progress and
    the trick taken last, the cards seen this deal, each seat's hand where it is known, the
    referee's claims, and the answers to the trick table's questions (:class:`games.table.TricksTable`).
    A game gives the seats' order of play (:meth:`trick_order`) and its turned-up card."""

    def __init__(self, game: Game, phase: str) -> None:
        super().__init__(game)
        n = game.num_players
        self._phase = phase
        self.dealer: int | None = None
        self.turn: int | None = None
        self.trump: str | None = None
        self.trick: list[tuple[int, Card]] = []
        self.last_trick: tuple[list[tuple[int, Card]], int] | None = None
        self.tricks = [0] * n
        self.seen: set[Card] = set()
        self.known: list[list[Card] | None] = [None] * n
        self.pending: list[Pending] = []
        self.claims: list[RevokeClaim] = []
        self.sheet: list[dict[str, Any]] = []

    @property
    def phase(self) -> str:
        return "over" if self.is_over else self._phase

    def _need(self, action: Action, *phases: str) -> None:
        if self._phase not in phases:
            raise IllegalActionError(f"cannot {action.act} now: {self.prompt()}")

    def _dealer_of(self, dealer: int | None, expected: int | None) -> int:
        """The dealer of a deal: the one said (the first deal), else the one whose turn it is."""
        chosen = dealer if dealer is not None else expected
        if chosen is None:
            raise IllegalActionError("say who deals first")
        if not 0 <= chosen < self.game.num_players:
            raise IllegalActionError(f"there is no player {chosen} to deal")
        if expected is not None and chosen != expected:
            raise IllegalActionError(f"it is {self.game.players[expected]}'s deal")
        return chosen

    def _check_hands(self, hands: Sequence[Sequence[Card] | None], size: int) -> None:
        """Hands dealt face down but known: no card twice, ``size`` cards each."""
        flat = [c for h in hands if h is not None for c in h]
        if len(flat) != len(set(flat)):
            raise IllegalActionError("a card is dealt twice")
        for seat, hand in enumerate(hands[:self.game.num_players]):
            if hand is not None and len(hand) != size:
                raise IllegalActionError(f"{self.game.players[seat]} is dealt {size} cards, not {len(hand)}")

    def _new_deal(self, dealer: int, hands: Sequence[Sequence[Card] | None] | None) -> None:
        """What every deal starts afresh."""
        n = self.game.num_players
        self.dealer = dealer
        self.known = [list(h) if h is not None else None for h in (hands or [None] * n)][:n]
        self.turn = None
        self.trump = None
        self.trick = []
        self.last_trick = None
        self.tricks = [0] * n
        self.seen = set()
        self.pending = []

    def _enter_hand(self, seat: int, cards: Sequence[Card], held: int, *, seen: str = "played",
                    kept: Callable[[Card], str | None] | None = None) -> None:
        """A hand entered on the phone (:class:`Hand`) becomes ``seat``'s known hand: ``held``
        different cards, none seen this deal (the refusal says it was ``seen``), none in another
        known hand; ``kept`` words why the game knows a card to lie elsewhere (None when not)."""
        if len(cards) != held or len(set(cards)) != len(cards):
            raise IllegalActionError(f"{self.game.players[seat]} holds {held} different cards, not {len(cards)}")
        for card in cards:
            if card in self.seen:
                raise IllegalActionError(f"{card} has already been {seen} this deal")
            if any(h is not None and card in h for s, h in enumerate(self.known) if s != seat):
                raise IllegalActionError(f"{card} is in another player's hand")
            why = kept(card) if kept is not None else None
            if why is not None:
                raise IllegalActionError(f"{card} {why}")
        self.known[seat] = list(cards)

    def _take_trick(self, winner: int) -> None:
        """The trick on the table goes to ``winner``, who leads next."""
        self.tricks[winner] += 1
        self.last_trick = (list(self.trick), winner)
        self.trick = []
        self.turn = winner

    # -- the referee --------------------------------------------------------------------------

    def open_claims(self) -> list[int]:
        """The numbers of the claims the players have not decided yet."""
        return [i for i, c in enumerate(self.claims) if c.status == "open"]

    def _decide(self, action: Accept | Dismiss) -> RevokeClaim:
        """Mark a claim accepted or dismissed; returns it as it was filed."""
        if not 0 <= action.claim < len(self.claims):
            raise IllegalActionError(f"there is no revoke claim {action.claim}")
        claim = self.claims[action.claim]
        if claim.status != "open":
            raise IllegalActionError(f"revoke claim {action.claim} is already {claim.status}")
        self.claims[action.claim] = replace(claim, status="accepted" if isinstance(action, Accept) else "dismissed")
        return claim

    # -- the view -------------------------------------------------------------------------------

    def _order(self) -> tuple[int, ...]:
        """Every seat in the order of the deal, from the one after the dealer."""
        if self.dealer is None:
            return ()
        order = self.trick_order()
        start = (order.index(self.dealer) + 1) % len(order) if self.dealer in order else 0
        return order[start:] + order[:start]

    def _sheet_view(self, common: Common, seat: int | None, rows: Sequence[tuple[str, ...]],
                    totals: tuple[str, ...]) -> None:
        """The score sheet, the dealer, the turn, the result and the seat's own known hand."""
        common["table"] = ScoreTable(columns=("", *self.game.players), rows=tuple(rows), totals=totals)
        common["dealer"] = self.dealer
        common["turn"] = self.turn
        common["result"] = "win" if self.winner is not None else None
        if seat is not None and 0 <= seat < self.game.num_players:
            hand = self.known[seat]
            common["hand"] = tuple(str(c) for c in hand) if hand is not None else None

    # -- the trick table's questions (games.table.TricksTable) ---------------------------------

    def trick_order(self) -> tuple[int, ...]:
        """The seats that play to every trick this deal, in their order of play round the table."""
        return tuple(range(self.game.num_players))

    def turned_up(self) -> Card | None:
        """The card lying face up in the trump zone, when the game has one this deal."""
        return None

    def trump_due(self) -> bool:
        """Whether the card turned up for trumps is awaited now."""
        return self._phase == "trump"

    def whose_turn(self) -> int | None:
        return self.turn if self._phase == "play" and not self.is_over else None

    def zone_owner(self, zone: Zone) -> int | None:
        return zone.seated(self.game.num_players)

    def zone_label(self, zone: Zone) -> str:
        seat = self.zone_owner(zone)
        if seat is not None:
            return f"{self.game.players[seat]}'s place"
        return "the trump card" if zone == TRUMP else f"the {zone.name}"

    def zone_cards(self, zone: Zone) -> list[str]:
        seat = self.zone_owner(zone)
        if seat is not None:
            lying = self.trick if self.trick or self.last_trick is None else self.last_trick[0]
            return [str(c) for s, c in lying if s == seat]
        if zone == TRUMP:
            card = self.turned_up()
            return [str(card)] if card is not None else []
        return []

    def card_means(self, zone: Zone, card: str) -> list[Action] | None:
        parsed = self.game.parse_card(card)
        if self.is_over or card in self.zone_cards(zone):
            return None
        if zone == TRUMP:
            return [self.game.action_from_json({"act": "trump", "card": card})] if self.trump_due() else None
        seat = self.zone_owner(zone)
        if seat is None or self.dealer is None or self._phase in ("deal", "ante") or parsed in self.seen:
            return None  # between deals nothing in a seat's place counts; a card seen is the game's
        return [self.game.action_from_json({"act": "play", "player": seat, "card": card})]

    def to_play(self) -> tuple[int, ...]:
        if self.whose_turn() is None:
            return ()
        order = self.trick_order()
        leader = self.trick[0][0] if self.trick else self.turn
        if leader not in order:
            return ()
        at = order.index(leader)
        return (order[at:] + order[:at])[len(self.trick):]

    def trick_in_play(self) -> tuple[tuple[int, str], ...]:
        return tuple((s, str(c)) for s, c in self.trick)

    def referee_says(self) -> str | None:
        open_ = self.open_claims()
        return self.claims[open_[0]].say(self.game.players) if open_ else None

    def trick_taken(self) -> tuple[int, tuple[tuple[int, str], ...]] | None:
        if self.trick or self.last_trick is None:
            return None
        cards, winner = self.last_trick
        return winner, tuple((s, str(c)) for s, c in cards)


__all__ = [
    "ACE_HIGH", "Accept", "Dismiss", "End", "Hand", "Pass", "Pending", "RevokeClaim", "Trick", "TrickState", "Trump",
    "beats", "french_card", "last_trick_view", "proofs", "trick_cards", "trick_winner",
]
