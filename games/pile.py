"""What Beggar My Neighbour and Egyptian Ratscrew share: the pay-card pile (seed 002).

Each player turns the top card of a face-down stack onto a central pile. A pay card (ace 4,
king 3, queen 2, jack 1) makes the next player pay that many cards; a pay card turned while
paying cancels the debt and the next player pays for it instead; when a debt is paid in full the
player of the last pay card takes the pile under their stack. :class:`PayPile` keeps that order
of play with stack *sizes* (the camera sees cards only as they land) and, when the deal is known,
the stacks themselves; it serves the engine states and the fast play-out of a known deal alike.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Generic, TypedDict, TypeVar

from games.cards import FRENCH_52, Card
from games.engine import Action, Game, State
from games.errors import IllegalActionError
from games.table import Zone
from games.view import Common

T = TypeVar("T")

#: Cards owed for each pay card, by rank (ace, jack, queen, king).
PAY_RANKS = {1: 4, 11: 1, 12: 2, 13: 3}


def pay_value(card: Card) -> int:
    """How many cards the next player owes for ``card`` (0: an ordinary card).

    >>> pay_value(Card.parse("KS")), pay_value(Card.parse("10H"))
    (3, 0)
    """
    return PAY_RANKS.get(card.rank, 0)


# --------------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class Deal(Action):
    """The stacks are dealt; ``hands`` (each seat's stack, top card first) when known."""

    act: ClassVar[str] = "deal"
    dealer: int | None = None
    hands: tuple[tuple[Card, ...] | None, ...] | None = None


@dataclass(frozen=True)
class Play(Action):
    """A player turns their top card onto the pile."""

    act: ClassVar[str] = "play"
    player: int
    card: Card


@dataclass(frozen=True)
class Take(Action):
    """A player lifts the pile won and puts it under their stack."""

    act: ClassVar[str] = "take"
    player: int


@dataclass(frozen=True)
class Slap(Action):
    """A player slaps the pile (a button or a tap on the phone; the first slap is the one judged)."""

    act: ClassVar[str] = "slap"
    player: int


# --------------------------------------------------------------------------------- the pile


def deal_sizes(total: int, players: int, first: int) -> list[int]:
    """Share ``total`` cards as evenly as possible, the extra ones from seat ``first`` on.

    >>> deal_sizes(52, 3, 1)
    [17, 18, 17]
    """
    sizes = [total // players] * players
    for k in range(total % players):
        sizes[(first + k) % players] += 1
    return sizes


class PayPile(Generic[T]):
    """The order of play of a pay-card pile over cards of any kind (``pay`` values them).

    A player who must play with an empty stack is out; a debt they cannot pay passes to the next
    player still in (the player owed it takes the pile when the debt comes round to them). After a
    pile is taken, every empty stack is out. The last player with cards wins."""

    def __init__(self, sizes: Sequence[int], first: int, pay: Callable[[T], int],
                 stacks: Sequence[Sequence[T]] | None = None, *, all_cards: bool = False) -> None:
        self.all_cards = all_cards  # the winner must hold every card (Ratscrew), not just be last in
        self.n = len(sizes)
        self.sizes = list(sizes)
        self.pay = pay
        self.stacks: list[deque[T]] | None = None if stacks is None else [deque(s) for s in stacks]
        self.pile: list[tuple[int, T]] = []
        self.out = [False] * self.n
        self.turn: int | None = first
        self.owed = 0
        self.payee: int | None = None
        self.taker: int | None = None
        self.winner: int | None = None
        self.tricks = 0
        self.played = 0
        self._settle()

    @property
    def active(self) -> list[int]:
        return [s for s in range(self.n) if not self.out[s]]

    def next_in(self, seat: int) -> int:
        """The next seat after ``seat`` still in the game."""
        for step in range(1, self.n + 1):
            other = (seat + step) % self.n
            if not self.out[other]:
                return other
        return seat

    def top(self, seat: int) -> T | None:
        """The known top card of a stack, or None."""
        if self.stacks is None or not self.stacks[seat]:
            return None
        return self.stacks[seat][0]

    def play(self, seat: int, card: T) -> None:
        if self.winner is not None:
            raise IllegalActionError("the game is over")
        if self.taker is not None:
            raise IllegalActionError(f"the pile must be taken first, by player {self.taker + 1}")
        if seat != self.turn:
            raise IllegalActionError("it is not this player's turn")
        if self.stacks is not None:
            want = self.stacks[seat][0]
            if want != card:
                raise IllegalActionError(f"the top card of this stack is {want}, not {card}")
            self.stacks[seat].popleft()
        self.sizes[seat] -= 1
        self.played += 1
        self.pile.append((seat, card))
        value = self.pay(card)
        if value:
            self.payee, self.owed = seat, value
            self.turn = self.next_in(seat)
        elif self.owed:
            self.owed -= 1
            if self.owed == 0:
                self.taker, self.turn = self.payee, None
        else:
            self.turn = self.next_in(seat)
        self._settle()

    def take(self, seat: int) -> list[tuple[int, T]]:
        """The winner of the pile takes it; returns the pile taken (in play order)."""
        if self.taker is None:
            raise IllegalActionError("nobody has won the pile yet")
        if seat != self.taker:
            raise IllegalActionError(f"the pile belongs to player {self.taker + 1}")
        return self.give(seat)

    def give(self, seat: int) -> list[tuple[int, T]]:
        """Put the pile under ``seat``'s stack (a win, a slap, a penalty); they play next."""
        pile, self.pile = self.pile, []
        self.sizes[seat] += len(pile)
        if self.stacks is not None:
            self.stacks[seat].extend(c for _, c in pile)
        self.tricks += 1
        self.out[seat] = False
        self.owed, self.payee, self.taker, self.turn = 0, None, None, seat
        for other in range(self.n):
            if self.sizes[other] == 0:
                self.out[other] = True
        self._settle()
        return pile

    def remove(self, seat: int) -> None:
        """Put a player out of the game (their stack stays counted but is not played)."""
        self.out[seat] = True
        if self.turn == seat:
            self.turn = self.next_in(seat) if self.active else None
            if self.owed and self.turn == self.payee:
                self.taker, self.turn = self.payee, None
        self._settle()

    def _settle(self) -> None:
        while self.turn is not None and self.sizes[self.turn] == 0 and self.winner is None:
            seat = self.turn
            self.out[seat] = True
            nxt = self.next_in(seat)
            if nxt == seat:
                self.turn = None
                break
            if self.owed and nxt == self.payee:
                self.taker, self.turn = self.payee, None
            else:
                self.turn = nxt
        alive = self.active
        if len(alive) == 1 and self.taker is None and not (self.all_cards and self.pile):
            self.winner = alive[0]
            self.turn = None


# --------------------------------------------------------------------------------- the state


class PayPileState(State):
    """A game of turning cards from face-down stacks onto a pay-card pile (Beggar My Neighbour,
    Egyptian Ratscrew): the deal, whose turn, and the pile table's questions
    (:class:`games.table.PileTable`): a face card laid on the pile is the play of the seat to
    play, lifting a won pile is its taking, the stacks lie face down in the seats' zones."""

    #: the winner must hold every card, the pile included (Ratscrew), not just be last in
    all_cards: ClassVar[bool] = False

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.table: PayPile[Card] | None = None
        self.dealer: int | None = None

    @property
    def pack(self) -> tuple[Card, ...]:
        """The cards dealt into the stacks."""
        return FRENCH_52

    @property
    def phase(self) -> str:
        if self.is_over:
            return "over"
        if self.table is None:
            return "deal"
        return "take" if self.table.taker is not None else "play"

    def to_move(self, action: Action) -> Sequence[int] | None:
        t = self.table
        if t is None:
            return None
        if isinstance(action, Play):
            return [] if t.turn is None else [t.turn]
        if isinstance(action, Take):
            return [] if t.taker is None else [t.taker]
        return None

    def prompt(self) -> str:
        names = self.game.players
        t = self.table
        if self.is_over:
            return self.result_text()
        if t is None:
            return "Deal the pack into stacks"
        lead = self.alert_words()
        if t.taker is not None:
            return f"{lead}{names[t.taker]} takes the pile"
        assert t.turn is not None
        if t.owed:
            return f"{lead}{self.owing_words(names[t.turn], t.owed)}"
        return f"{lead}{names[t.turn]} to play"

    def alert_words(self) -> str:
        """Said before the prompt when the players must act at once ("Slappable: pair! ")."""
        return ""

    def owing_words(self, name: str, owed: int) -> str:
        """The prompt while ``name`` pays ``owed`` more cards for a pay card."""
        return f"{name} pays: {owed} more card{'s' if owed > 1 else ''}"

    def _deal(self, action: Deal) -> None:
        if self.table is not None:
            raise IllegalActionError("the stacks are already dealt")
        n = self.game.num_players
        dealer = n - 1 if action.dealer is None else action.dealer
        if not 0 <= dealer < n:
            raise IllegalActionError(f"there is no player {dealer} to deal")
        first = (dealer + 1) % n
        pack = self.pack
        stacks: list[tuple[Card, ...]] | None = None
        if action.hands is not None:
            if len(action.hands) != n or any(h is None for h in action.hands):
                raise IllegalActionError(f"give all {n} stacks, or none")
            stacks = [h for h in action.hands if h is not None]
            every = [c for h in stacks for c in h]
            if len(set(every)) != len(every) or set(every) != set(pack):
                raise IllegalActionError(f"the stacks must hold the {len(pack)} cards of the pack, each once")
            sizes = [len(h) for h in stacks]
        else:
            sizes = deal_sizes(len(pack), n, first)
        self.dealer = dealer
        self.table = PayPile(sizes, first, pay_value, stacks, all_cards=self.all_cards)
        if self.all_cards:
            for seat in range(n):
                if sizes[seat] == 0:
                    self.table.out[seat] = True

    # -- the pile table's questions (games.table.PileTable) ------------------------------------

    def whose_turn(self) -> int | None:
        return None if self.table is None or self.is_over else self.table.turn

    def zone_owner(self, zone: Zone) -> int | None:
        return zone.seat if zone.kind == "seat" else None

    def zone_label(self, zone: Zone) -> str:
        if zone.kind == "seat" and zone.seat is not None and zone.seat < self.game.num_players:
            return f"{self.game.players[zone.seat]}'s stack"
        return "the pile" if zone.kind == "pile" else zone.name

    def zone_cards(self, zone: Zone) -> list[str]:
        if zone.kind != "pile" or self.table is None:
            return []
        return [str(c) for _, c in self.table.pile]

    def card_means(self, zone: Zone, card: str) -> list[Action] | None:
        face = self.game.parse_card(card)  # a card this deck has not raises CardError
        if zone.kind != "pile":
            raise IllegalActionError("cards are turned face up onto the pile")
        t = self.table
        if t is None:
            raise IllegalActionError("deal the stacks first")
        if self.is_over:
            raise IllegalActionError(f"the game is over: {self.result_text()}")
        if t.taker is not None:
            raise IllegalActionError(f"{self.game.players[t.taker]} takes the pile first")
        if t.turn is None:
            raise IllegalActionError("nobody is to play now")
        return [Play(t.turn, face)]

    def lies_face_down(self, zone: Zone) -> bool:
        return zone.kind == "seat"

    def lifted(self, zone: Zone) -> Action | None:
        t = self.table
        if zone.kind != "pile" or t is None or t.taker is None or self.is_over:
            return None
        return Take(t.taker)


# --------------------------------------------------------------------------------- views


class PileParts(TypedDict):
    """The fields of :class:`games.view.PileView` a pay-card pile fills."""

    pile: tuple[str, ...]
    pile_seats: tuple[int, ...]
    stacks: tuple[int, ...]
    out: tuple[int, ...]
    owing: int | None
    owed: int
    payee: int | None
    takes: int | None
    tricks: int
    cards_played: int


def pile_parts(common: Common, table: PayPile[Card] | None, dealer: int | None) -> PileParts:
    """The pile view's fields for ``table`` (None: not dealt yet); sets the common turn and dealer.
    Only sizes of the stacks are given: a stack's cards are face down."""
    common["dealer"] = dealer
    if table is None:
        return PileParts(pile=(), pile_seats=(), stacks=(), out=(), owing=None, owed=0, payee=None,
                         takes=None, tricks=0, cards_played=0)
    common["turn"] = table.turn
    return PileParts(
        pile=tuple(str(c) for _, c in table.pile),  # bottom card first
        pile_seats=tuple(s for s, _ in table.pile),
        stacks=tuple(table.sizes),
        out=tuple(s for s in range(table.n) if table.out[s]),
        owing=table.turn if table.owed else None,
        owed=table.owed,
        payee=table.payee,
        takes=table.taker,
        tricks=table.tricks,
        cards_played=table.played,
    )


__all__ = ["PAY_RANKS", "Deal", "PayPile", "PayPileState", "PileParts", "Play", "Slap", "Take", "deal_sizes", "pay_value",
           "pile_parts"]
