"""Oh Hell: bid the exact number of tricks you will take (seed 002, "Oh Hell").

A trick game with bids and trumps, scored in a table rather than pegged: the proof that the
engine contract serves more than cribbage. Hands shrink by one card a deal down to one and grow
back again; the card turned after the deal names trumps (no trumps when every card is dealt).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from games.cards import FRENCH_52, SUIT_SYMBOLS, Card
from games.cribbage.actions import Deal, Play
from games.engine import Action, Game, Item, Option, Spec, register
from games.errors import IllegalActionError, OptionError
from games.tricks import (
    ACE_HIGH,
    Accept,
    Dismiss,
    Hand,
    Pending,
    RevokeClaim,
    TrickState,
    Trump,
    french_card,
    last_trick_view,
    proofs,
    trick_cards,
    trick_winner,
)
from games.view import Common, TableView, TricksView

#: Ace is high in trick play.
TRICK_RANK = ACE_HIGH
#: The orders of deal sizes (cards each, from ``most``): down and up again (the seed's), up and
#: down, down only, up only.
SEQUENCES = ("down-up", "up-down", "down", "up")
#: What a revoke costs when the players accept the referee's claim (the seed names no penalty).
REVOKE_POINTS = 10


@dataclass(frozen=True)
class Bid(Action):
    act: ClassVar[str] = "bid"
    player: int
    tricks: int


def deal_sizes(players: int, most: int, sequence: str = "down-up") -> list[int]:
    """Cards per player for each deal: most, most-1, ..., 1, 2, ..., most (``down-up``, the
    seed's); 1 ... most ... 1 (``up-down``); most ... 1 (``down``); 1 ... most (``up``).

    >>> deal_sizes(4, 3), deal_sizes(4, 3, "up-down"), deal_sizes(4, 3, "up")
    ([3, 2, 1, 2, 3], [1, 2, 3, 2, 1], [1, 2, 3])
    """
    down = list(range(most, 0, -1))
    up = list(range(1, most + 1))
    return {"down-up": down + up[1:], "up-down": up + down[1:], "down": down, "up": up}[sequence]


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
            Option("sequence", "down-up", "deal sizes: down-up (most to 1 and back), up-down (1 to most "
                   "and back), down (most to 1), up (1 to most)", choices=SEQUENCES),
        ),
        summary="Bid the exact number of tricks; the dealer's bid may not make the bids add up.",
    )
    actions = (Deal, Trump, Bid, Hand, Play, Accept, Dismiss)

    def parse_card(self, text: str) -> Card:
        return french_card(self, text)

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
            raise OptionError(f"option 'most' must be 1 to {52 // self.num_players} for {self.num_players} players")

    def new_initial_state(self) -> OhHellState:
        return OhHellState(self)


class OhHellState(TrickState):
    game: OhHell

    def __init__(self, game: OhHell) -> None:
        super().__init__(game, "deal")
        n = game.num_players
        self.sizes = deal_sizes(n, game.most, str(game.options["sequence"]))
        self.round = 0  # deals completed
        self.trump_card: Card | None = None
        self.bids: list[int | None] = [None] * n
        self.held = [0] * n

    @property
    def hand_size(self) -> int:
        return self.sizes[min(self.round, len(self.sizes) - 1)]

    def turned_up(self) -> Card | None:
        return self.trump_card

    def to_move(self, action: Action) -> Sequence[int] | None:
        if isinstance(action, Bid | Play):
            return [self.turn] if self.turn is not None else []
        return None

    def prompt(self) -> str:
        names = self.game.players
        if self.is_over:
            return self.result_text()
        if self._phase == "deal":
            if self.round >= len(self.sizes):
                return "decide the open revoke claims: accept or dismiss them"
            return f"deal {self.hand_size} card{'s' * (self.hand_size != 1)} each"
        if self._phase == "trump":
            return "turn up the trump card"
        if self.turn is not None:
            verb = "bid" if self._phase == "bid" else "play"
            return f"{names[self.turn]} to {verb}"
        return ""

    def _apply(self, action: Action) -> None:
        if isinstance(action, Deal):
            self._deal(action)
        elif isinstance(action, Trump):
            self._trump(action)
        elif isinstance(action, Bid):
            self._bid(action)
        elif isinstance(action, Hand):
            self._hand(action)
        elif isinstance(action, Play):
            self._play(action)
        elif isinstance(action, Accept | Dismiss):
            claim = self._decide(action)
            if isinstance(action, Accept):
                self.peg(claim.player, -claim.amount, "revoke",
                         [Item("revoke", (), -claim.amount, f"revoke in trick {claim.trick}")])
            self._maybe_end()

    def _deal(self, action: Deal) -> None:
        self._need(action, "deal")
        if self.round >= len(self.sizes):
            raise IllegalActionError(f"every deal has been played: {self.prompt()}")
        n = self.game.num_players
        dealer = self._dealer_of(action.dealer, None if self.dealer is None else (self.dealer + 1) % n)
        size = self.hand_size
        if action.hands is not None:
            self._check_hands(action.hands, size)
        self._new_deal(dealer, action.hands)
        self.held = [size] * n
        self.bids = [None] * n
        self.trump_card = None
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

    def _hand(self, action: Hand) -> None:
        self._need(action, "trump", "bid", "play")
        self._enter_hand(action.player, action.cards, self.held[action.player], seen="seen")

    def _play(self, action: Play) -> None:
        self._need(action, "play")
        seat, card = action.player, action.card
        name = self.game.players[seat]
        hand = self.known[seat]
        led = self.trick[0][1].suit if self.trick else None
        if card in self.seen:
            raise IllegalActionError(f"{card} has already been played this deal")
        if hand is not None:
            if card not in hand:
                raise IllegalActionError(f"{name} does not hold {card}")
            if led is not None and card.suit != led and any(c.suit == led for c in hand):
                raise IllegalActionError(f"{name} must follow suit ({SUIT_SYMBOLS[led]})")
            hand.remove(card)
        elif any(h is not None and card in h for h in self.known):
            raise IllegalActionError(f"{card} is in another player's hand")
        self._referee(seat, card, led, watch=hand is None)
        self.seen.add(card)
        self.held[seat] -= 1
        self.trick.append((seat, card))
        n = self.game.num_players
        if len(self.trick) < n:
            self.turn = (seat + 1) % n
            return
        self._take_trick(trick_winner(self.trick, self.trump, ACE_HIGH))
        if not any(self.held):
            self._score_deal()

    def _referee(self, seat: int, card: Card, led: str | None, *, watch: bool) -> None:
        """File a claim for every earlier play of ``seat`` that ``card`` proves a revoke, then
        (``watch``: the hand is unknown) watch this play when it did not follow suit: any card of
        the suit led that the player shows later in the deal was held then."""
        for watched in proofs(self.pending, seat, card):
            self.pending.remove(watched)
            self.claims.append(RevokeClaim(
                deal=self.round + 1, trick=watched.trick, player=seat, card=watched.card,
                rule="failed to follow suit", proof=card,
                penalty=f"lose {REVOKE_POINTS} points", amount=REVOKE_POINTS))
        if watch and led is not None and card.suit != led:
            unseen = frozenset(c for c in FRENCH_52 if c.suit == led and c not in self.seen)
            self.pending.append(Pending(sum(self.tricks) + 1, seat, card, led, unseen))

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
        self.pending = []
        self._phase = "deal"
        self.turn = None
        self._maybe_end()

    def _maybe_end(self) -> None:
        if self.round >= len(self.sizes) and self._phase == "deal" and not self.open_claims():
            self.winner = self.scores.index(max(self.scores))

    def _view(self, common: Common, seat: int | None) -> TableView:
        rows = []
        for i, row in enumerate(self.sheet):
            suit = SUIT_SYMBOLS.get(row["trump"] or "", "NT")
            cells = [f"{b}/{t}: {p}" for b, t, p in zip(row["bids"], row["tricks"], row["points"], strict=True)]
            rows.append((f"{i + 1}. {row['cards']} {suit}", *cells))
        if self._phase in ("trump", "bid", "play"):  # the deal in progress: bids and tricks so far
            suit = SUIT_SYMBOLS.get(self.trump or "", "?" if self._phase == "trump" else "NT")
            rows.append((f"{self.round + 1}. {self.hand_size} {suit} now",
                         *[f"{'-' if b is None else b}/{t}" for b, t in zip(self.bids, self.tricks, strict=True)]))
        self._sheet_view(common, seat, rows, ("Total", *[str(s) for s in self.scores]))
        legal = None
        if seat is not None and 0 <= seat < self.game.num_players:
            hand = self.known[seat]
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
            trick=trick_cards(self.trick),
            cards_this_deal=self.hand_size,
            trick_number=sum(self.tricks) + 1 if self._phase == "play" else None,
            last_trick=last_trick_view(self.last_trick),
            active=self._order() if self._phase in ("bid", "play") else (),
            legal=legal,
            claims=tuple(c.as_view(self.game.players) for c in self.claims),
        )


__all__ = ["SEQUENCES", "Bid", "OhHell", "OhHellState", "Trump", "deal_sizes"]
