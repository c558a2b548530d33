"""Briscola Chiamata: five players, an auction, a called card that names trumps and a secret
partner, 120 card points (seed 002, "Briscola Chiamata"; rule card seeds/briscola.md).

The 40-card Italian pack is read from French cards: A 2-7 J Q K of each suit (no 8, 9, 10).
The deal and the play go to the right (option ``direction``). The holder of the called card is
the bidder's partner and is known to the table only when that card is played; the engine scores
from the cards it has seen, and in col Monte the five cards the bidder laid away are the ones
never played (40 less the 35 seen), so they are scored without being shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from games.cards import ITALIAN_40, Card
from games.engine import Action, Game, Item, Option, Spec, register
from games.errors import CardError, IllegalActionError, OptionError
from games.pegging.actions import Deal, Play
from games.tricks import End, Hand, Pass, TrickState, last_trick_view, trick_cards, trick_winner
from games.view import Common, TableView, TricksView

#: Card points: 120 in the pack.
POINTS: dict[int, int] = {1: 11, 3: 10, 13: 4, 12: 3, 11: 2, 7: 0, 6: 0, 5: 0, 4: 0, 2: 0}
#: Trick strength: A 3 K Q J 7 6 5 4 2, high to low.
STRENGTH: dict[int, int] = {2: 1, 4: 2, 5: 3, 6: 4, 7: 5, 11: 6, 12: 7, 13: 8, 3: 9, 1: 10}
#: The ranks called in the auction, from the lowest bid (the ace) to the highest (the two).
CALL_ORDER: tuple[int, ...] = (1, 3, 13, 12, 11, 7, 6, 5, 4, 2)
RANK_WORDS: dict[str, int] = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "J": 11, "Q": 12, "K": 13}
VARIANTS = ("basic", "subito", "buio", "points", "monte")


def rank_text(rank: int) -> str:
    return {1: "A", 11: "J", 12: "Q", 13: "K"}.get(rank, str(rank))


@dataclass(frozen=True)
class Bid(Action):
    """A bid: the rank to call (the basic game: lower ranks bid higher; a two may carry
    ``points`` above 61), or only ``points`` (61-120) in the other variants."""

    act: ClassVar[str] = "bid"
    player: int
    rank: str | None = None
    points: int | None = None


@dataclass(frozen=True)
class Reopen(Action):
    """Subito al Due, after five passes: this player reopens the bidding, bidding 61 calling a
    two; everyone may then bid again."""

    act: ClassVar[str] = "reopen"
    player: int


@dataclass(frozen=True)
class Redeal(Action):
    """After five passes, the cards are thrown in and the same dealer deals again."""

    act: ClassVar[str] = "redeal"


@dataclass(frozen=True)
class Monte(Action):
    """Col Monte: the bidder takes the five cards of the monte and lays five away face down;
    ``cards`` names them when they are known."""

    act: ClassVar[str] = "monte"
    player: int
    cards: tuple[Card, ...] | None = None


@dataclass(frozen=True)
class Call(Action):
    """The bidder calls a card: its suit is trumps, its holder the partner."""

    act: ClassVar[str] = "call"
    player: int
    card: Card


def units(points: int) -> int:
    """The stake of a bid: 1 up to 70, 2 for 71-80, ... 5 for 101 and more."""
    return 1 if points <= 70 else min(5, (points - 61) // 10 + 1)


def deal_scores(bidder: int, partner: int | None, points: int, team_points: int, capot: bool,
                players: int = 5) -> list[int]:
    """Game points of a deal for every seat. ``partner`` None or the bidder: alone.

    >>> deal_scores(0, 2, 61, 70, False)
    [2, -1, 1, -1, -1]
    >>> deal_scores(0, None, 81, 80, False)
    [-12, 3, 3, 3, 3]
    """
    unit = units(points) * (2 if capot else 1)
    sign = 1 if team_points >= points else -1
    alone = partner is None or partner == bidder
    out = [-sign * unit] * players
    out[bidder] = sign * unit * (4 if alone else 2)
    if not alone:
        assert partner is not None
        out[partner] = sign * unit
    return out


@register
class Briscola(Game):
    spec = Spec(
        name="briscola",
        title="Briscola Chiamata",
        players=(5,),
        deck="italian40",
        table="tricks",
        target=None,
        aliases=("briscola chiamata", "briscola bastarda", "briscolone"),
        pegged=False,
        options=(
            Option("variant", "basic", "basic: bid ranks then points; subito: Subito al Due; buio: Prima Mano "
                   "al Buio; points: Bidding for Points Only; monte: col Monte", choices=VARIANTS),
            Option("direction", "right", "the deal and the play go to the right (the Italian way) or left",
                   choices=("right", "left")),
            Option("deals", 0, "deals in the game (0: until the players end it)", low=0, high=100),
        ),
        summary="Bid to call a card: its holder is your secret partner; take 61 of the 120 points.",
    )
    actions = (Deal, Bid, Pass, Reopen, Redeal, Monte, Call, Hand, Play, End)

    def parse_card(self, text: str) -> Card:
        card = Card.parse(text)
        if card not in ITALIAN_40:
            raise CardError(f"{text!r} is not in the 40-card Italian pack (A 2-7 J Q K; no 8, 9, 10 or jokers)")
        return card

    def validate(self) -> None:
        if self.options["deals"] < 0:
            raise OptionError("option 'deals' cannot be negative")

    @property
    def variant(self) -> str:
        return str(self.options["variant"])

    @property
    def by_points(self) -> bool:
        """Bids are points only (every variant but the basic game)."""
        return self.variant != "basic"

    @property
    def hand_size(self) -> int:
        return 7 if self.variant == "monte" else 8

    def next_seat(self, seat: int, steps: int = 1) -> int:
        step = -1 if self.options["direction"] == "right" else 1
        return (seat + step * steps) % self.num_players

    def new_initial_state(self) -> BriscolaState:
        return BriscolaState(self)


class BriscolaState(TrickState):
    game: Briscola

    def __init__(self, game: Briscola) -> None:
        super().__init__(game, "deal")
        n = game.num_players
        self.same_dealer = False
        self.deals = 0
        self.monte: list[Card] | None = None
        self.discards: list[Card] | None = None
        self.auction: list[tuple[int, str]] = []  # (seat, what was said)
        self.passed: set[int] = set()
        self.bidder: int | None = None
        self.bid_rank: int | None = None
        self.bid_points = 61
        self.called: Card | None = None
        self.partner: int | None = None  # the holder of the called card, when the engine knows it
        self.revealed = False  # the called card has been played (or the table knows the holder)
        self.trick_no = 0
        self.leader: int | None = None
        self.won: list[list[Card]] = [[] for _ in range(n)]
        self.plays = [0] * n  # cards each seat has played this deal
        self.first_trick: list[tuple[int, Card]] = []  # Prima Mano al Buio: waits for the call

    def trick_order(self) -> tuple[int, ...]:
        return tuple(self.game.next_seat(0, k) for k in range(self.game.num_players))

    @property
    def tricks_per_deal(self) -> int:
        return self.game.hand_size

    def to_move(self, action: Action) -> Sequence[int] | None:
        # outside its phase an action names no turn, so the refusal says what the table waits for
        if isinstance(action, Bid | Pass | Play):
            return [self.turn] if self.turn is not None else None
        if isinstance(action, Call | Monte):
            return [self.bidder] if self.bidder is not None and self._phase in ("call", "monte") else None
        return None

    def prompt(self) -> str:
        names = self.game.players
        if self.is_over:
            return self.result_text()
        if self._phase == "deal":
            return f"deal {self.game.hand_size} cards each"
        if self._phase == "reopen":
            return "everyone passed: reopen the bidding at 61, or deal again"
        if self._phase in ("monte", "call") and self.bidder is not None:
            what = "take the monte and lay five cards away" if self._phase == "monte" else "call a card"
            return f"{names[self.bidder]} to {what}"
        if self.turn is not None:
            return f"{names[self.turn]} to {'bid or pass' if self._phase == 'bid' else 'play'}"
        return ""

    def _apply(self, action: Action) -> None:
        if isinstance(action, Deal):
            self._deal(action)
        elif isinstance(action, Bid | Pass):
            self._auction(action)
        elif isinstance(action, Reopen | Redeal):
            self._after_passes(action)
        elif isinstance(action, Monte):
            self._monte(action)
        elif isinstance(action, Call):
            self._call(action)
        elif isinstance(action, Hand):
            self._hand(action)
        elif isinstance(action, Play):
            self._play(action)
        elif isinstance(action, End):
            self._need(action, "deal")
            self.winner = self.scores.index(max(self.scores))

    # -- the deal and the auction ---------------------------------------------------------------

    def _deal(self, action: Deal) -> None:
        self._need(action, "deal")
        game, n = self.game, self.game.num_players
        if self.dealer is None:
            expected = None
        else:
            expected = self.dealer if self.same_dealer else game.next_seat(self.dealer)
        dealer = self._dealer_of(action.dealer, expected)
        hands: list[list[Card] | None] = [None] * n
        monte: list[Card] | None = None
        if action.hands is not None:
            given = list(action.hands)
            if game.variant == "monte" and len(given) == n + 1:
                last = given.pop()
                monte = list(last) if last is not None else None
            if len(given) != n:
                extra = " (and the monte)" if game.variant == "monte" else ""
                raise IllegalActionError(f"a deal gives {n} hands{extra}, not {len(action.hands)}")
            self._check_hands([*given, monte], game.hand_size)
            hands = [list(hand) if hand is not None else None for hand in given]
            if monte is not None and len(monte) != 5:
                raise IllegalActionError(f"the monte is 5 cards, not {len(monte)}")
        self._new_deal(dealer, hands)
        self.same_dealer = False
        self.monte = monte
        self.discards = None
        self._start_auction(game.next_seat(dealer))
        self.bidder = self.called = self.partner = None
        self.revealed = False
        self.trick_no = 0
        self.leader = None
        self.won = [[] for _ in range(n)]
        self.plays = [0] * n

    def _start_auction(self, first: int) -> None:
        self._phase = "bid"
        self.turn = first
        self.auction = []
        self.passed = set()
        self.bidder = None
        self.bid_rank = None
        self.bid_points = 61

    def _bid_key(self, rank: int | None, points: int) -> tuple[int, int]:
        return (CALL_ORDER.index(rank) if rank is not None else 0, points)

    def _auction(self, action: Bid | Pass) -> None:
        self._need(action, "bid")
        seat, game = action.player, self.game
        if isinstance(action, Pass):
            self.passed.add(seat)
            self.auction.append((seat, "pass"))
        else:
            rank, points = self._read_bid(action)
            if self.bidder is not None and self._bid_key(rank, points) <= self._bid_key(self.bid_rank, self.bid_points):
                raise IllegalActionError(f"a bid must be higher than {self._said_bid()}")
            self.bidder, self.bid_rank, self.bid_points = seat, rank, points
            self.auction.append((seat, self._said_bid()))
        left = [s for s in range(game.num_players) if s not in self.passed]
        if self.bidder is not None and left == [self.bidder]:
            self.turn = None
            self._phase = "monte" if game.variant == "monte" else "play" if game.variant == "buio" else "call"
            if self._phase == "play":
                self._start_play()
            return
        if not left:
            self.turn = None
            if game.variant in ("subito", "buio"):
                self._phase = "reopen"
            else:
                self._throw_in()
            return
        nxt = game.next_seat(seat)
        while nxt in self.passed:
            nxt = game.next_seat(nxt)
        self.turn = nxt

    def _read_bid(self, action: Bid) -> tuple[int | None, int]:
        points = 61 if action.points is None else action.points
        if not 61 <= points <= 120:
            raise IllegalActionError(f"a bid is for 61 to 120 points, not {points}")
        if self.game.by_points:
            if action.rank is not None:
                raise IllegalActionError("in this variant a bid is a number of points only")
            if action.points is None:
                raise IllegalActionError("say how many points the bid is for (61 to 120)")
            return None, points
        if action.rank is None or action.rank.upper() not in RANK_WORDS:
            raise IllegalActionError(f"a bid names the rank to call: A, 3, K, Q, J, 7, 6, 5, 4 or 2, "
                                     f"not {action.rank!r}")
        rank = RANK_WORDS[action.rank.upper()]
        if rank != 2 and points != 61:
            raise IllegalActionError("only a bid of two may raise the points above 61")
        return rank, points

    def _said_bid(self) -> str:
        if self.bid_rank is None:
            return f"{self.bid_points}"
        said = rank_text(self.bid_rank)
        return f"{said} for {self.bid_points}" if self.bid_points != 61 else said

    def _throw_in(self) -> None:
        self._phase = "deal"
        self.same_dealer = True

    def _after_passes(self, action: Reopen | Redeal) -> None:
        self._need(action, "reopen")
        if isinstance(action, Redeal):
            self._throw_in()
            return
        self._start_auction(action.player)
        self.bidder = action.player
        self.auction.append((action.player, "61 (reopened)"))
        self.turn = self.game.next_seat(action.player)

    def _monte(self, action: Monte) -> None:
        self._need(action, "monte")
        assert self.bidder is not None
        hand = self.known[self.bidder]
        away = list(action.cards) if action.cards is not None else None
        if hand is not None and self.monte is not None:
            hand.extend(self.monte)
            if away is None:
                raise IllegalActionError("the hand and the monte are known: name the five cards laid away")
        elif hand is not None:
            self.known[self.bidder] = hand = None  # the monte's cards are unknown, so is the hand now
        if away is not None:
            if len(away) != 5 or len(set(away)) != 5:
                raise IllegalActionError(f"lay away five different cards, not {len(away)}")
            for card in away:
                if hand is not None and card not in hand:
                    raise IllegalActionError(f"{self.game.players[self.bidder]} does not hold {card}")
                if any(h is not None and card in h for s, h in enumerate(self.known) if s != self.bidder):
                    raise IllegalActionError(f"{card} is in another player's hand")
            if hand is not None:
                for card in away:
                    hand.remove(card)
        self.discards = away
        self._phase = "call"

    def _call(self, action: Call) -> None:
        self._need(action, "call")
        assert self.bidder is not None
        game, card = self.game, action.card
        hand = self.known[self.bidder]
        if game.variant in ("subito", "buio") and card.rank != 2:
            raise IllegalActionError("in Subito al Due the bidder calls a two")
        if game.variant == "basic" and card.rank != self.bid_rank:
            if self.bid_rank != 2:
                raise IllegalActionError(f"the bid was {rank_text(self.bid_rank or 0)}: call the "
                                         f"{rank_text(self.bid_rank or 0)} of the trump suit")
            if hand is not None:
                two = Card(2, card.suit)
                lowest = next((Card(r, card.suit) for r in sorted(STRENGTH, key=STRENGTH.__getitem__)
                               if Card(r, card.suit) not in hand), None)
                if two not in hand or card != lowest:
                    raise IllegalActionError(
                        "after a bid of two, call the two, or, holding the two, the lowest trump you do not hold"
                        + (f" ({lowest})" if two in hand and lowest is not None else ""))
        if self.discards is not None and card in self.discards:
            raise IllegalActionError(f"{card} was laid away: call a card in play")
        self.called, self.trump = card, card.suit
        holder = next((s for s, h in enumerate(self.known) if h is not None and card in h), None)
        self.partner = holder
        if card in self.seen:  # Prima Mano al Buio: the called card fell in the first trick
            self.partner = next(s for s, c in self.first_trick if c == card)
            self.revealed = True
        if game.variant == "buio" and self.trick_no == 1:
            self._finish_first_trick()
            return
        self._start_play()

    # -- the play ----------------------------------------------------------------------------------

    def _start_play(self) -> None:
        assert self.dealer is not None
        self._phase = "play"
        if self.trick_no == 0:
            self.turn = self.leader = self.game.next_seat(self.dealer)

    def _hand(self, action: Hand) -> None:
        self._need(action, "bid", "reopen", "monte", "call", "play")
        seat, cards, game = action.player, action.cards, self.game
        took_monte = seat == self.bidder and self._phase in ("call", "play") and game.variant == "monte"

        def kept(card: Card) -> str | None:
            if self.monte is not None and card in self.monte and not took_monte:
                return "is in another player's hand"
            if self.discards is not None and card in self.discards:
                return "was laid away with the monte"
            return None

        self._enter_hand(seat, cards, game.hand_size - self.plays[seat], kept=kept)
        if self.called is not None and self.called in cards:
            self.partner = seat

    def _play(self, action: Play) -> None:
        self._need(action, "play")
        seat, card, game = action.player, action.card, self.game
        name = game.players[seat]
        hand = self.known[seat]
        if card in self.seen:
            raise IllegalActionError(f"{card} has already been played this deal")
        if self.discards is not None and card in self.discards:
            raise IllegalActionError(f"{card} was laid away with the monte")
        if hand is not None:
            if card not in hand:
                raise IllegalActionError(f"{name} does not hold {card}")
        elif any(h is not None and card in h for h in self.known):
            raise IllegalActionError(f"{card} is in another player's hand")
        elif self.monte is not None and card in self.monte and seat != self.bidder:
            raise IllegalActionError(f"{card} is in the monte")
        if game.variant == "buio" and self.trick_no == 0 and card.rank == 2:
            last = len(self.trick) == game.num_players - 1
            if not (seat == self.bidder and last):
                raise IllegalActionError("no two may be played to the first trick (only by the bidder, playing last)")
        if hand is not None:
            hand.remove(card)
        self.plays[seat] += 1
        self.seen.add(card)
        self.trick.append((seat, card))
        if card == self.called:
            self.partner = seat
            self.revealed = True
        if len(self.trick) < game.num_players:
            self.turn = game.next_seat(seat)
            return
        if game.variant == "buio" and self.trick_no == 0:
            self.first_trick = list(self.trick)
            self.trick_no = 1
            self.turn = None
            self._phase = "call"
            return
        self._finish_trick()

    def _finish_first_trick(self) -> None:
        self.trick = self.first_trick
        self.trick_no = 0
        self._phase = "play"
        self._finish_trick()

    def _finish_trick(self) -> None:
        winner = trick_winner(self.trick, self.trump, STRENGTH)
        self.won[winner].extend(c for _, c in self.trick)
        self.trick_no += 1
        self._take_trick(winner)
        self.leader = winner
        if self.trick_no == self.tricks_per_deal:
            self._score()

    def card_points(self, seat: int) -> int:
        return sum(POINTS[c.rank] for c in self.won[seat])

    def _score(self) -> None:
        assert self.bidder is not None and self.called is not None and self.last_trick is not None
        game, n = self.game, self.game.num_players
        bidder = self.bidder
        partner = self.partner if self.revealed else None  # not played: laid away by the bidder
        alone = partner is None or partner == bidder
        team: set[int] = {bidder} if partner is None else {bidder, partner}
        laid = [c for c in ITALIAN_40 if c not in self.seen]  # col Monte's five: never played
        last_winner = self.last_trick[1]
        laid_points = sum(POINTS[c.rank] for c in laid)
        team_points = sum(self.card_points(s) for s in team) + (laid_points if last_winner in team else 0)
        team_tricks = sum(self.tricks[s] for s in team)
        capot = team_tricks in (0, self.tricks_per_deal)
        made = team_points >= self.bid_points
        result = deal_scores(bidder, None if alone else partner, self.bid_points, team_points, capot, n)
        for seat in range(n):
            role = "bidder" if seat == bidder else "partner" if seat in team else "opponent"
            label = f"{role}: {team_points} of {self.bid_points} {'made' if made else 'lost'}"
            if capot:
                label += ", every trick: doubled"
            self.peg(seat, result[seat], "deal", [Item("deal", (), result[seat], label)])
        self.sheet.append({
            "dealer": self.dealer, "bidder": bidder, "partner": partner, "alone": alone,
            "bid": self._said_bid(), "points": self.bid_points, "called": str(self.called),
            "taken": team_points, "made": made, "capot": capot, "scores": result,
            "card_points": [self.card_points(s) for s in range(n)], "laid_away": laid_points,
        })
        self.deals += 1
        self._phase = "deal"
        self.turn = None
        self.revealed = True
        wanted = int(game.options["deals"])
        if wanted and self.deals >= wanted:
            self.winner = self.scores.index(max(self.scores))

    # -- the view -------------------------------------------------------------------------------

    def _view(self, common: Common, seat: int | None) -> TableView:
        names = self.game.players
        n = self.game.num_players
        rows: list[tuple[str, ...]] = []
        for i, row in enumerate(self.sheet):
            mark = "alone" if row["alone"] else f"+ {names[row['partner']]}"
            rows.append((f"{i + 1}. {names[row['bidder']]} {row['bid']} {row['called']} {mark}: "
                         f"{row['taken']}", *[str(p) for p in row["scores"]]))
        if self._phase in ("bid", "reopen", "monte", "call"):  # the auction: each seat's last word
            said = {s: w for s, w in self.auction}
            rows.append((f"{self.deals + 1}. auction", *[said.get(s, "-") for s in range(n)]))
        elif self._phase == "play" and self.bidder is not None:  # the play: card points taken so far
            call = f" {self.called}" if self.called is not None else ""
            rows.append((f"{self.deals + 1}. {names[self.bidder]} {self._said_bid()}{call} now",
                         *[str(self.card_points(s)) for s in range(n)]))
        self._sheet_view(common, seat, rows, ("Total", *[str(s) for s in self.scores]))
        laid_away = None
        if seat is not None and 0 <= seat < n:
            if seat == self.bidder and self.discards is not None:
                laid_away = tuple(str(c) for c in self.discards)
        # the partner is the table's to know once the called card is played; before, only its holder's
        mine = seat is not None and self.partner == seat
        called = str(self.called) if self.called is not None else None
        return BriscolaView(
            **common,
            trump=called,
            trump_suit=self.trump,
            bids=(),
            tricks=tuple(self.tricks),
            trick=trick_cards(self.trick),
            cards_this_deal=self.game.hand_size,
            trick_number=self.trick_no + 1 if self._phase == "play" else None,
            last_trick=last_trick_view(self.last_trick),
            active=self._order() if self._phase != "deal" else (),
            auction=tuple(AuctionStep(s, said) for s, said in self.auction),
            bidder=self.bidder,
            bid=self._said_bid() if self.bidder is not None else None,
            bid_points=self.bid_points if self.bidder is not None else None,
            called=called,
            partner=self.partner if (self.revealed or mine) else None,
            card_points=tuple(self.card_points(s) for s in range(n)),
            laid_away=laid_away,
        )


@dataclass(frozen=True)
class AuctionStep:
    """One call of the auction: the seat and what it said ("pass", "3", "2 for 70", "75")."""

    seat: int
    said: str


@dataclass(frozen=True, kw_only=True)
class BriscolaView(TricksView):
    """Briscola Chiamata's table: the auction, the bid and the called card (whose suit is trumps),
    the partner once the called card is played (before that only in the holder's own view), and
    the card points each seat has taken this deal."""

    style: ClassVar[str] = "tricks.briscola"

    auction: tuple[AuctionStep, ...] = ()
    bidder: int | None = None
    bid: str | None = None  # the winning bid as said
    bid_points: int | None = None  # the points the bidder's side must take
    called: str | None = None
    partner: int | None = None
    card_points: tuple[int, ...] = ()  # per seat, from the tricks taken this deal
    laid_away: tuple[str, ...] | None = None  # col Monte: the bidder's own view of the five laid away


__all__ = [
    "CALL_ORDER", "POINTS", "STRENGTH", "AuctionStep", "Bid", "Briscola", "BriscolaState", "BriscolaView",
    "Call", "Monte", "Pass", "Redeal", "Reopen", "deal_scores", "units",
]
