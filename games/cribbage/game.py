"""The cribbage rules core: six-card Cribbage and the machinery every variant shares.

The deal, the discards, the starter and the show are the pegging core's
(:mod:`games.pegging.table`); this module adds the count to 31 and what the variants change.

A deal runs: (cut for the first deal) -> deal -> discards to the crib -> starter (2 for his
heels) -> the play (counts to 31, "go", 1 for last) -> the show (hands from the dealer's left,
then the crib) -> the next deal. The game ends the instant a side reaches the target.

Hands are usually unknown: the companion sees cards only when they are played, shown or turned.
The engine then checks what it can (a card seen twice in a deal, a count over 31, the turn) and
scores from what is revealed. When hands are known (a recorded deal with ``hands``), it also
checks that every card played or shown is really held.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, TypedDict

from games.cards import FRENCH_52, Card
from games.cribbage.actions import CRIBBAGE_ACTIONS, Bid, Give, Go, Play
from games.cribbage.scoring import (
    STANDARD,
    STANDARD_PLAY,
    PlayRules,
    ShowRules,
    score_play,
    score_show,
    value,
)
from games.engine import Action, CardLike, Item, Option, Score, Spec, register
from games.errors import CardError, IllegalActionError
from games.pegging.game import PeggingGame
from games.pegging.table import PeggingFields, PeggingState
from games.spec import TARGET_HIGH, TARGET_LOW
from games.view import Common, PeggingView

#: the most a card adds to the count (a ten or a face)
MOST_VALUE = 10


class Cribbage(PeggingGame[Card]):
    """Six-card Cribbage for two: deal six, lay two away, game 121."""

    spec = Spec(
        name="cribbage",
        title="Cribbage",
        players=(2,),
        deck="french52",
        table="pegging",
        target=121,
        aliases=("cribbage6", "six-card cribbage", "crib"),
        options=(
            Option("target", 121, "points to win", low=TARGET_LOW, high=TARGET_HIGH),
            Option("muggins", False, "players claim their counts; an opponent may take what they miss"),
        ),
        summary="Deal six, lay two away to the crib, peg in the play, count hands and crib; game 121.",
    )
    actions = CRIBBAGE_ACTIONS

    #: cards dealt to each player
    hand_size = 6
    #: cards dealt straight from the pack to the crib (three-hand)
    crib_from_stock = 0
    #: five-card cribbage plays one count to 31 only
    one_count = False
    #: points the non-dealer pegs when the first deal is made (five-card: 3 for last)
    pone_start = 0
    show_rules: ShowRules = STANDARD
    play_rules: PlayRules = STANDARD_PLAY
    play_limit = 31
    #: the first side to reach the target loses (Losing Cribbage)
    losing = False
    #: the crib is auctioned before the starter is turned (Auction Cribbage)
    auction = False
    #: 1 for the last card of a count short of the limit ("go")
    last_point = True
    #: deals played from one shuffle of the pack (Revised: several)
    deals_per_shuffle = 1
    #: a card may take the count past the limit, which ends the play (Noddy)
    count_may_pass_limit = False

    def parse_card(self, text: str) -> Card:
        card = Card.parse(text)
        if card.is_joker:
            raise CardError(f"{text!r}: cribbage is played without jokers")
        return card

    @property
    def deck(self) -> tuple[Card, ...]:
        return FRENCH_52

    def cut_order(self, card: Card) -> int:
        return card.rank

    def discards(self, seat: int, dealer: int) -> int:
        """How many cards ``seat`` lays away to the crib."""
        return 2 if self.num_players == 2 else 1

    def passes(self, seat: int, dealer: int) -> int:
        """How many cards ``seat`` gives the dealer before the discards (solo three-hand)."""
        return 0

    def partners(self, seat: int, dealer: int) -> tuple[int, ...]:
        """Seats that peg the same points whenever ``seat`` pegs (solo three-hand's partners)."""
        return ()

    def kept_size(self, seat: int, dealer: int) -> int:
        received = sum(self.passes(s, dealer) for s in range(self.num_players)) if seat == dealer else 0
        return self.dealt(seat, dealer) + received - self.passes(seat, dealer) - self.discards(seat, dealer)

    def score_pile(self, pile: Sequence[Card]) -> list[Item]:
        """What the last card of the count's ``pile`` scores in the play."""
        return score_play(pile, self.play_rules)

    def dealt(self, seat: int, dealer: int) -> int:
        return self.hand_size

    def crib_size(self, dealer: int) -> int:
        return self.crib_from_stock + sum(self.discards(s, dealer) for s in range(self.num_players))

    def skunk_lines(self) -> list[tuple[str, int]]:
        target = self.target or 121
        return [("skunk", target - 30), ("double skunk", target - 60)]

    def score_hand(self, hand: Sequence[Card], starter: Card | None, crib: bool = False) -> Score:
        return score_show(hand, starter, crib, self.show_rules)

    def new_initial_state(self) -> CribbageState:
        return CribbageState(self)


class CribbageState(PeggingState[Card]):
    game: Cribbage

    def __init__(self, game: Cribbage) -> None:
        super().__init__(game)
        n = game.num_players
        self.count = 0
        self.to_give = [0] * n
        self.bids: dict[int, int] = {}
        self.bid_queue: list[int] = []
        self.shuffle_seen: set[Card] = set()  # faced in earlier deals from the same shuffle

    # ------------------------------------------------------------------ turn and phase

    def to_move(self, action: Action) -> Sequence[int] | None:
        if isinstance(action, Give):
            # outside the give phase nobody is waited for: the phase check gives the reason
            return [s for s, n in enumerate(self.to_give) if n > 0] or None
        if isinstance(action, Bid):
            return self.bid_queue[:1] or None
        if isinstance(action, Play):
            allowed = [self.turn] if self.turn is not None else []
            leader = self._leader_if_count_ends()
            if leader is not None and leader not in allowed:
                allowed.append(leader)
            return allowed
        if isinstance(action, Go):
            return [self.turn] if self.turn is not None else []
        return super().to_move(action)

    def prompt(self) -> str:
        names = self.game.players
        if not self.is_over:
            if self._phase == "give":
                waiting = [names[s] for s, n in enumerate(self.to_give) if n > 0]
                return f"waiting for {', '.join(waiting)} to give a card to the dealer"
            if self._phase == "bid" and self.bid_queue:
                return f"{names[self.bid_queue[0]]} to bid for the crib"
        text = super().prompt()
        if self._phase == "play" and self.turn is not None and not self.is_over:
            text += f" (count {self.count})"
        return text

    # ------------------------------------------------------------------ the deal

    def _start_deal(self, dealer: int, hands: tuple[tuple[Card, ...] | None, ...] | None) -> None:
        if self.deals % self.game.deals_per_shuffle == 0:
            self.shuffle_seen = set()
        super()._start_deal(dealer, hands)

    def _new_deal(self, dealer: int) -> None:
        game = self.game
        n = game.num_players
        self.bids, self.bid_queue = {}, []
        self.to_give = [game.passes(s, dealer) for s in range(n)]
        self.count = 0
        if any(self.to_give):
            self._phase = "give"
        if self.deals == 1 and game.pone_start:
            pone = (dealer + 1) % n
            self.peg(pone, game.pone_start, "start", [Item("start", (), game.pone_start, "3 for last")])

    def _after_discards(self) -> None:
        if self._phase == "discard" and not any(self.to_discard) and self.game.auction:
            assert self.dealer is not None
            self._phase = "bid"
            self.bid_queue = [self.dealer, (self.dealer + 1) % self.game.num_players]
            return
        super()._after_discards()

    def _starter_waits(self) -> bool:
        return self.game.auction and self._phase in ("discard", "bid")

    def _check_fresh(self, card: Card) -> None:
        if card in self.shuffle_seen:
            raise IllegalActionError(
                f"{card} was used in an earlier deal from this shuffle: it cannot come up again"
            )

    # ------------------------------------------------------------------ give and bid

    def _on_give(self, action: Give) -> None:
        self._need_phase(action, "give")
        seat = action.player
        assert self.dealer is not None
        dealer_hand = self.known[self.dealer]
        hand = self.known[seat]
        if hand is not None:
            if action.card is None:
                raise IllegalActionError(f"say which card {self.game.players[seat]} gives the dealer")
            if action.card not in hand:
                raise IllegalActionError(f"{self.game.players[seat]} does not hold {action.card}")
            hand.remove(action.card)
            if dealer_hand is not None:
                dealer_hand.append(action.card)
        self.held[seat] -= 1
        self.held[self.dealer] += 1
        self.to_give[seat] -= 1
        if not any(self.to_give):
            self._phase = "discard"
            self._after_discards()

    def _on_bid(self, action: Bid) -> None:
        self._need_phase(action, "bid")
        seat = action.player
        side = self.side_of(seat)
        if action.points < 0:
            raise IllegalActionError(f"a bid is a number of points, 0 or more, not {action.points}")
        if action.points > self.scores[side]:
            raise IllegalActionError(
                f"{self.game.players[seat]} has {self.scores[side]} points and cannot bid {action.points}"
            )
        self.bids[seat] = action.points
        self.bid_queue.pop(0)
        if self.bid_queue:
            return
        assert self.dealer is not None
        dealer, pone = self.dealer, (self.dealer + 1) % self.game.num_players
        winner = pone if self.bids[pone] > self.bids[dealer] else dealer  # a tie leaves the crib with the dealer
        price = self.bids[winner]
        self.dealer = winner
        self._phase = "starter"
        self.peg(winner, -price, "bid", [Item("bid", (), -price, "paid for the crib")])

    def _starter_turned(self, card: Card) -> None:
        assert self.dealer is not None
        if card.rank == 11:
            self.peg(self.dealer, 2, "heels", [Item("heels", (card,), 2, "his heels")])
        self._skip_empty_hands()

    # ------------------------------------------------------------------ the play

    def _leader_if_count_ends(self) -> int | None:
        """Who leads if everyone still in the count has in fact said go (inferred from a play
        by a player who had already said go)."""
        if self._phase != "play" or self.last_player is None or not self.passed:
            return None
        if self.turn != self.last_player:
            return None  # someone other than the last player may still play
        return self._seat_after(self.last_player)

    def _seat_after(self, seat: int) -> int | None:
        n = self.game.num_players
        for i in range(1, n + 1):
            s = (seat + i) % n
            if self.held[s] > 0:
                return s
        return None

    def _on_play(self, action: Play) -> None:
        self._need_phase(action, "play")
        seat, card = action.player, action.card
        if seat != self.turn:
            # The player had said go: so had everyone else still in, and the count ended.
            self._end_count()
            if self._phase != "play" or seat != self.turn:
                raise IllegalActionError(f"it is not {self.game.players[seat]}'s turn to play")
        limit = self.game.play_limit
        worth = self._play_value(action)
        if self.count + worth > limit:
            raise IllegalActionError(
                f"{card} would take the count to {self.count + worth}, over {limit}: "
                f"{self.game.players[seat]} must say go"
            )
        self._take_from_hand(seat, card, "play")
        self.played[seat].append(card)
        self.pile.append(card)
        self.count += worth
        self.last_player = seat
        items = self._score_played()
        self.peg(seat, sum(i.points for i in items), "play", items)
        if self.count == limit:
            self._reset_count(after=seat)
        else:
            self._advance(seat)

    def _play_value(self, action: Play) -> int:
        """What the played card adds to the count (Costly Colours lets an ace count 11)."""
        return value(action.card)

    def _score_played(self) -> list[Item]:
        return self.game.score_pile(self.pile)

    def inferred_pass(self) -> Action | None:
        """The go of the player to move, unless the count is so low that every card fits."""
        turn = self.whose_turn()
        if turn is None or (self.held[turn] > 0 and self.count <= self.game.play_limit - MOST_VALUE):
            return None
        return self._table_action(act="go", player=turn)

    def _on_go(self, action: Go) -> None:
        self._need_phase(action, "play")
        seat = action.player
        if self.count == 0 and self.held[seat] > 0:
            raise IllegalActionError("nobody can say go at the start of a count: any card can be led")
        hand = self.known[seat]
        if hand is not None:
            playable = [c for c in hand if self.count + value(c) <= self.game.play_limit]
            if playable:
                raise IllegalActionError(
                    f"{self.game.players[seat]} can still play {', '.join(map(str, playable))}"
                )
        self.passed.add(seat)
        self._advance(seat)

    def _nobody_can_play(self) -> None:
        self._end_count()

    def _end_count(self) -> None:
        """Nobody can play on: 1 for last (31 was already paid), then a new count or the show."""
        last = self.last_player
        if last is not None and 0 < self.count < self.game.play_limit and self.game.last_point:
            label = "go" if any(self.held) else "last card"
            self.peg(last, 1, "last", [Item("go", tuple(self.pile[-1:]), 1, label)])
        self._reset_count(after=last if last is not None else 0)

    def _reset_count(self, after: int) -> None:
        self.count, self.pile, self.passed = 0, [], set()
        leader = self._seat_after(after)
        if self.game.one_count or leader is None:
            self._start_show()
        else:
            self.turn = leader

    def _skip_empty_hands(self) -> None:
        if self.turn is not None and self.held[self.turn] == 0:
            self._advance(self.turn)

    # ------------------------------------------------------------------ the show

    def _end_deal(self) -> None:
        """Its faced cards stay out until the next shuffle; the deal passes on."""
        self.shuffle_seen |= self._seen_this_deal()
        super()._end_deal()

    # ------------------------------------------------------------------ the end and views

    def peg(self, seat: int | None, points: int, kind: str, items: Sequence[Item] = (),
            *, side: int | None = None, shown: Sequence[CardLike] = ()) -> None:
        """Peg as the base does; in solo three-hand the partners of ``seat`` peg the same points."""
        super().peg(seat, points, kind, items, side=side, shown=shown)
        if seat is None or side is not None or self.dealer is None:
            return
        for partner in self.game.partners(seat, self.dealer):
            super().peg(partner, points, kind, items, shown=shown)

    def on_target(self, side: int) -> None:
        if not self.game.losing:
            super().on_target(side)
            return
        self.loser = side
        others = [i for i in range(len(self.scores)) if i != side]
        if len(others) == 1:
            self.winner = others[0]
        self._phase = "over"

    def skunk(self) -> str | None:
        return None if self.game.losing else super().skunk()

    def _pegging_fields(self, seat: int | None) -> PeggingFields:
        fields = super()._pegging_fields(seat)
        fields["count"] = self.count if self._phase == "play" else None
        return fields

    def _cribbage_fields(self) -> CribbageFields:
        return CribbageFields(
            crib_count=self.game.crib_size(self.dealer) if self.dealer is not None else 0,
            bids=dict(self.bids),
            dealt_by=self.dealt_by,
            seen_since_shuffle=tuple(sorted(str(c) for c in self.shuffle_seen)),
        )

    def _pegging_view(self, common: Common, fields: PeggingFields, seat: int | None) -> PeggingView:
        return CribbageView(**common, **fields, **self._cribbage_fields())


@dataclass(frozen=True, kw_only=True)
class CribbageView(PeggingView):
    """Cribbage and its variants: the pegging table, and what the variants add to it."""

    style: ClassVar[str] = "pegging.cribbage"

    crib_count: int  # cards the crib will hold this deal
    bids: Mapping[int, int] = field(default_factory=dict)  # Auction: points bid for the crib, by seat
    dealt_by: int | None = None
    seen_since_shuffle: tuple[str, ...] = ()  # Revised: cards faced since the shuffle


class CribbageFields(TypedDict):
    """The fields :class:`CribbageView` adds to the pegging view."""

    crib_count: int
    bids: dict[int, int]
    dealt_by: int | None
    seen_since_shuffle: tuple[str, ...]


register(Cribbage)
