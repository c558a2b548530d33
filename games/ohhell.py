"""Oh Hell: bid the exact number of tricks you will take (seed 002, "Oh Hell").

A trick game with bids and trumps, scored in a table rather than pegged: the proof that the
engine contract serves more than cribbage. Hands shrink by one card a deal down to one and grow
back again; the card turned after the deal names trumps (no trumps when every card is dealt).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from games.cards import SUIT_SYMBOLS, Card
from games.cribbage.actions import Deal, Play
from games.engine import Action, Game, Item, Option, Spec, State, register
from games.errors import CardError, IllegalActionError
from games.tricks import last_trick_view
from games.view import Common, ScoreTable, TableView, TrickCard, TricksView

#: Ace is high in trick play.
TRICK_RANK = {r: (14 if r == 1 else r) for r in range(1, 14)}


@dataclass(frozen=True)
class Trump(Action):
    """The card turned after the deal; its suit is trumps. Omit ``card`` for a no-trump deal."""

    act: ClassVar[str] = "trump"
    card: Card | None = None


@dataclass(frozen=True)
class Bid(Action):
    act: ClassVar[str] = "bid"
    player: int
    tricks: int


def deal_sizes(players: int, most: int) -> list[int]:
    """Cards per player for each deal: most, most-1, ..., 1, 2, ..., most."""
    down = list(range(most, 0, -1))
    return down + list(range(2, most + 1))


@register
class OhHell(Game):
    spec = Spec(
        name="ohhell",
        title="Oh Hell",
        players=(3, 4, 5, 6, 7),
        deck="french52",
        table="tricks",
        target=None,
        aliases=("oh hell", "contract whist", "blob", "up and down the river"),
        pegged=False,
        options=(
            Option("scoring", "tricks", "tricks: 1 a trick + 10 for an exact bid; blob: 10 + bid if exact",
                   choices=("tricks", "blob")),
            Option("most", 0, "cards in the first deal (0: 10 for 3-5 players, 8 for 6, 7 for 7)",
                   low=0, high=17),
        ),
        summary="Bid the exact number of tricks; the dealer's bid may not make the bids add up.",
    )
    actions = (Deal, Trump, Bid, Play)

    def parse_card(self, text: str) -> Card:
        card = Card.parse(text)
        if card.is_joker:
            raise CardError(f"{text!r}: Oh Hell is played without jokers")
        return card

    @property
    def most(self) -> int:
        chosen = int(self.options["most"])
        default = {6: 8, 7: 7}.get(self.num_players, 10)
        most = chosen or default
        if most * self.num_players > 52:
            raise IllegalActionError(f"{most} cards each is more than the pack holds for {self.num_players}")
        return most

    def validate(self) -> None:
        if self.options["most"] < 0 or self.options["most"] * self.num_players > 52:
            from games.errors import OptionError

            raise OptionError(f"option 'most' must be 1 to {52 // self.num_players} for {self.num_players} players")

    def new_initial_state(self) -> OhHellState:
        return OhHellState(self)


class OhHellState(State):
    game: OhHell

    def __init__(self, game: OhHell) -> None:
        super().__init__(game)
        n = game.num_players
        self.sizes = deal_sizes(n, game.most)
        self.round = 0  # deals completed
        self.dealer: int | None = None
        self._phase = "deal"
        self.trump: str | None = None
        self.trump_card: Card | None = None
        self.bids: list[int | None] = [None] * n
        self.tricks = [0] * n
        self.trick: list[tuple[int, Card]] = []
        self.last_trick: tuple[list[tuple[int, Card]], int] | None = None
        self.turn: int | None = None
        self.known: list[list[Card] | None] = [None] * n
        self.held = [0] * n
        self.void: list[set[str]] = [set() for _ in range(n)]
        self.seen: set[Card] = set()
        self.sheet: list[dict[str, Any]] = []

    @property
    def phase(self) -> str:
        return "over" if self.is_over else self._phase

    @property
    def hand_size(self) -> int:
        return self.sizes[min(self.round, len(self.sizes) - 1)]

    def to_move(self, action: Action) -> Sequence[int] | None:
        if isinstance(action, Bid | Play):
            return [self.turn] if self.turn is not None else []
        return None

    def prompt(self) -> str:
        names = self.game.players
        if self.is_over:
            return self.result_text()
        if self._phase == "deal":
            return f"deal {self.hand_size} card{'s' * (self.hand_size != 1)} each"
        if self._phase == "trump":
            return "turn up the trump card"
        if self.turn is not None:
            verb = "bid" if self._phase == "bid" else "play"
            return f"{names[self.turn]} to {verb}"
        return ""

    def _need(self, action: Action, phase: str) -> None:
        if self._phase != phase:
            raise IllegalActionError(f"cannot {action.act} now: {self.prompt()}")

    def _apply(self, action: Action) -> None:
        if isinstance(action, Deal):
            self._deal(action)
        elif isinstance(action, Trump):
            self._trump(action)
        elif isinstance(action, Bid):
            self._bid(action)
        elif isinstance(action, Play):
            self._play(action)

    def _deal(self, action: Deal) -> None:
        self._need(action, "deal")
        n = self.game.num_players
        expected = None if self.dealer is None else (self.dealer + 1) % n
        dealer = action.dealer if action.dealer is not None else expected
        if dealer is None:
            raise IllegalActionError("say who deals first (the highest card drawn deals)")
        if expected is not None and dealer != expected:
            raise IllegalActionError(f"it is {self.game.players[expected]}'s deal")
        size = self.hand_size
        hands = action.hands
        if hands is not None:
            flat = [c for h in hands if h is not None for c in h]
            if len(flat) != len(set(flat)):
                raise IllegalActionError("a card is dealt twice")
            for seat, hand in enumerate(hands):
                if hand is not None and len(hand) != size:
                    raise IllegalActionError(f"{self.game.players[seat]} is dealt {size} cards, not {len(hand)}")
        self.dealer = dealer
        self.known = [list(h) if hands is not None and h is not None else None for h in (hands or [None] * n)]
        self.held = [size] * n
        self.bids = [None] * n
        self.tricks = [0] * n
        self.trick = []
        self.last_trick = None
        self.void = [set() for _ in range(n)]
        self.seen = set()
        self.trump = self.trump_card = None
        self._phase = "trump" if size * n < 52 else "bid"
        if self._phase == "bid":
            self.turn = (dealer + 1) % n

    def _trump(self, action: Trump) -> None:
        self._need(action, "trump")
        assert self.dealer is not None
        if action.card is not None:
            if any(h is not None and action.card in h for h in self.known):
                raise IllegalActionError(f"{action.card} was dealt to a player: it cannot be the trump card")
            self.trump_card = action.card
            self.trump = action.card.suit
            self.seen.add(action.card)
        self._phase = "bid"
        self.turn = (self.dealer + 1) % self.game.num_players

    def _bid(self, action: Bid) -> None:
        self._need(action, "bid")
        assert self.dealer is not None
        size = self.hand_size
        if not 0 <= action.tricks <= size:
            raise IllegalActionError(f"a bid is 0 to {size} tricks, not {action.tricks}")
        if action.player == self.dealer:
            others = sum(b for b in self.bids if b is not None)
            if others + action.tricks == size:
                raise IllegalActionError(
                    f"the dealer may not bid {action.tricks}: the bids would add up to the {size} tricks"
                )
        self.bids[action.player] = action.tricks
        if action.player == self.dealer:
            self._phase = "play"
            self.turn = (self.dealer + 1) % self.game.num_players
        else:
            self.turn = (action.player + 1) % self.game.num_players

    def _play(self, action: Play) -> None:
        self._need(action, "play")
        seat, card = action.player, action.card
        name = self.game.players[seat]
        hand = self.known[seat]
        led = self.trick[0][1].suit if self.trick else None
        if hand is not None:
            if card not in hand:
                raise IllegalActionError(f"{name} does not hold {card}")
            if led is not None and card.suit != led and any(c.suit == led for c in hand):
                raise IllegalActionError(f"{name} must follow suit ({SUIT_SYMBOLS[led]})")
            hand.remove(card)
        else:
            if card in self.seen:
                raise IllegalActionError(f"{card} has already been played this deal")
            if led is not None and card.suit == led and led in self.void[seat]:
                raise IllegalActionError(f"{name} showed no {SUIT_SYMBOLS[led]} earlier: a revoke?")
        if led is not None and card.suit != led:
            self.void[seat].add(led)
        self.seen.add(card)
        self.held[seat] -= 1
        self.trick.append((seat, card))
        n = self.game.num_players
        if len(self.trick) < n:
            self.turn = (seat + 1) % n
            return
        winner = self._trick_winner()
        self.tricks[winner] += 1
        self.last_trick = (self.trick, winner)
        self.trick = []
        self.turn = winner
        if not any(self.held):
            self._score_deal()

    def _trick_winner(self) -> int:
        led = self.trick[0][1].suit

        def strength(entry: tuple[int, Card]) -> tuple[int, int]:
            card = entry[1]
            suit_rank = 2 if card.suit == self.trump else 1 if card.suit == led else 0
            return suit_rank, TRICK_RANK[card.rank]

        return max(self.trick, key=strength)[0]

    def _score_deal(self) -> None:
        blob = self.game.options["scoring"] == "blob"
        row: dict[str, Any] = {"cards": self.hand_size, "trump": self.trump, "bids": list(self.bids),
                               "tricks": list(self.tricks), "points": []}
        for seat in range(self.game.num_players):
            bid, took = self.bids[seat], self.tricks[seat]
            exact = bid == took
            points = (10 + took if exact else 0) if blob else took + (10 if exact else 0)
            row["points"].append(points)
            items = [Item("tricks", (), took if not blob else 0, f"{took} trick{'s' * (took != 1)}")]
            if exact:
                items.append(Item("bid made", (), 10 if not blob else 10 + took, "bid made"))
            self.peg(seat, points, "deal", [i for i in items if i.points])
        self.sheet.append(row)
        self.round += 1
        if self.round >= len(self.sizes):
            best = max(self.scores)
            self.winner = self.scores.index(best)
        self._phase = "deal"
        self.turn = None

    def _order(self) -> tuple[int, ...]:
        """Every seat in the order of the deal, from the one after the dealer."""
        if self.dealer is None:
            return ()
        n = self.game.num_players
        return tuple((self.dealer + k) % n for k in range(1, n + 1))

    def _view(self, common: Common, seat: int | None) -> TableView:
        names = self.game.players
        rows = []
        for i, row in enumerate(self.sheet):
            suit = SUIT_SYMBOLS.get(row["trump"] or "", "NT")
            cells = [f"{b}/{t}: {p}" for b, t, p in zip(row["bids"], row["tricks"], row["points"], strict=True)]
            rows.append((f"{i + 1}. {row['cards']} {suit}", *cells))
        common["table"] = ScoreTable(columns=("", *names), rows=tuple(rows),
                                     totals=("Total", *[str(s) for s in self.scores]))
        common["dealer"] = self.dealer
        common["turn"] = self.turn
        common["result"] = "win" if self.winner is not None else None
        n = self.game.num_players
        legal = None
        if seat is not None and 0 <= seat < n:
            hand = self.known[seat]
            common["hand"] = tuple(str(c) for c in hand) if hand is not None else None
            if hand is not None and self._phase == "play" and self.turn == seat:
                led = self.trick[0][1].suit if self.trick else None
                legal = tuple(str(c) for c in hand if led is None or c.suit == led
                              or not any(h.suit == led for h in hand))
        return TricksView(
            **common,
            trump=str(self.trump_card) if self.trump_card is not None else None,
            trump_suit=self.trump,
            bids=tuple(self.bids),
            tricks=tuple(self.tricks),
            trick=tuple(TrickCard(s, str(c)) for s, c in self.trick),
            cards_this_deal=self.hand_size,
            trick_number=sum(self.tricks) + 1 if self._phase == "play" else None,
            last_trick=last_trick_view(self.last_trick),
            active=self._order() if self._phase in ("bid", "play") else (),
            legal=legal,
        )


__all__ = ["Bid", "OhHell", "OhHellState", "Trump", "deal_sizes"]
