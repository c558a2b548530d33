"""The cribbage rules core: six-card Cribbage and the machinery every variant shares.

A deal runs: (cut for the first deal) -> deal -> discards to the crib -> starter (2 for his
heels) -> the play (counts to 31, "go", 1 for last) -> the show (hands from the dealer's left,
then the crib) -> the next deal. The game ends the instant a side reaches the target.

Hands are usually unknown: the companion sees cards only when they are played, shown or turned.
The engine then checks what it can (a card seen twice in a deal, a count over 31, the turn) and
scores from what is revealed. When hands are known (a recorded deal with ``hands``), it also
checks that every card played or shown is really held.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.cards import FRENCH_52, Card
from games.cribbage.actions import (
    CRIBBAGE_ACTIONS,
    Bid,
    Crib,
    Cut,
    Deal,
    Discard,
    Give,
    Go,
    Muggins,
    Play,
    Show,
    Starter,
)
from games.cribbage.scoring import (
    STANDARD,
    STANDARD_PLAY,
    PlayRules,
    ShowRules,
    score_play,
    score_show,
    value,
)
from games.engine import Action, Game, Item, Option, Score, Spec, State, register, spoken_items
from games.errors import CardError, IllegalActionError


class Cribbage(Game):
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
            Option("target", 121, "points to win"),
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
    #: the dealer counts a crib after the hands
    has_crib = True
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

    def show_order(self, dealer: int) -> list[int]:
        """Seats in the order their hands are shown: from the dealer's left round to the dealer."""
        n = self.num_players
        return [(dealer + i) % n for i in range(1, n + 1)]

    def next_dealer(self, dealer: int) -> int:
        return (dealer + 1) % self.num_players

    def score_hand(self, hand: Sequence[Card], starter: Card | None, crib: bool = False) -> Score:
        return score_show(hand, starter, crib, self.show_rules)

    def score_cards(self, cards: Sequence[str], starter: str | None, crib: bool = False) -> list[tuple[str, Score]]:
        """`pegpi score`: count one hand (the kept cards) with the starter."""
        from games.cards import check_cards

        hand = [self.parse_card(c) for c in cards]
        start = self.parse_card(starter) if starter else None
        size = self.crib_size(0) if crib else self.kept_size(1, 0)
        check_cards(hand + ([start] if start else []), texts=list(cards) + ([starter] if starter else []),
                    what="the hand and starter")
        if len(hand) != size:
            from games.errors import CardCountError

            raise CardCountError(
                f"a {'crib' if crib else 'hand'} in {self.spec.title} has {size} cards, got {len(hand)}: "
                + " ".join(cards)
            )
        return [("crib" if crib else "hand", self.score_hand(hand, start, crib))]

    def new_initial_state(self) -> CribbageState:
        return CribbageState(self)


class CribbageState(State):
    game: Cribbage

    def __init__(self, game: Cribbage) -> None:
        super().__init__(game)
        n = game.num_players
        self._phase = "cut"
        self.cuts: dict[int, Card] = {}
        self.dealer: int | None = None
        self.deals = 0
        self.starter: Card | None = None
        self.known: list[list[Card] | None] = [None] * n  # whole remaining hand, when known
        self.held = [0] * n  # cards still in hand
        self.played: list[list[Card]] = [[] for _ in range(n)]  # this deal, per seat
        self.to_discard = [0] * n
        self.laid_away: list[list[Card]] = [[] for _ in range(n)]  # known discards
        self.crib_cards: list[Card] | None = None  # once the crib is turned up
        self.count = 0
        self.pile: list[Card] = []
        self.passed: set[int] = set()
        self.last_player: int | None = None
        self.turn: int | None = None
        self.show_queue: list[int | str] = []
        self.shown: dict[str, Any] | None = None
        self.missed: tuple[int, int] | None = None  # (side that missed, points) for muggins
        self.dealt_by: int | None = None  # who dealt: the deal passes on from them
        self.to_give = [0] * n
        self.bids: dict[int, int] = {}
        self.bid_queue: list[int] = []
        self.shuffle_seen: set[Card] = set()  # faced in earlier deals from the same shuffle

    # ------------------------------------------------------------------ turn and phase

    @property
    def phase(self) -> str:
        return "over" if self.is_over else self._phase

    def to_move(self, action: Action) -> Sequence[int] | None:
        if isinstance(action, Cut):
            return [s for s in range(self.game.num_players) if s not in self.cuts]
        if isinstance(action, Discard):
            return [s for s, n in enumerate(self.to_discard) if n > 0]
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
        if isinstance(action, Show):
            nxt = self.show_queue[0] if self.show_queue else None
            return [nxt] if isinstance(nxt, int) else []
        if isinstance(action, Muggins):
            if self.missed is None:
                return []
            return [s for s in range(self.game.num_players) if self.side_of(s) != self.missed[0]]
        return None

    def prompt(self) -> str:
        names = self.game.players
        if self.is_over:
            return self.result_text()
        if self._phase == "cut":
            return "cut for deal: lowest card deals"
        if self._phase == "deal":
            who = names[self.dealer] if self.dealer is not None else "the dealer"
            return f"{who} to deal"
        if self._phase == "give":
            waiting = [names[s] for s, n in enumerate(self.to_give) if n > 0]
            return f"waiting for {', '.join(waiting)} to give a card to the dealer"
        if self._phase == "discard":
            waiting = [names[s] for s, n in enumerate(self.to_discard) if n > 0]
            return f"waiting for {', '.join(waiting)} to lay away to the crib"
        if self._phase == "bid" and self.bid_queue:
            return f"{names[self.bid_queue[0]]} to bid for the crib"
        if self._phase == "starter":
            return "turn up the starter"
        if self._phase == "play" and self.turn is not None:
            return f"{names[self.turn]} to play (count {self.count})"
        if self._phase == "show" and self.show_queue:
            nxt = self.show_queue[0]
            return "dealer to count the crib" if nxt == "crib" else f"{names[int(nxt)]} to show"
        return ""

    def _need_phase(self, action: Action, *phases: str) -> None:
        if self._phase not in phases:
            raise IllegalActionError(f"cannot {action.act} now: {self.prompt()}")

    # ------------------------------------------------------------------ apply

    def _apply(self, action: Action) -> None:
        if isinstance(action, Muggins):
            self._muggins(action)
            return
        self.missed = None
        handler = getattr(self, f"_on_{action.act}")
        handler(action)

    def _on_cut(self, action: Cut) -> None:
        self._need_phase(action, "cut")
        if action.card in self.cuts.values():
            raise IllegalActionError(f"{action.card} has already been cut")
        self.cuts[action.player] = action.card
        if len(self.cuts) < self.game.num_players:
            return
        low = min(c.rank for c in self.cuts.values())
        lowest = [s for s, c in self.cuts.items() if c.rank == low]
        self.cuts = {}
        if len(lowest) == 1:
            self.dealer = lowest[0]
            self._phase = "deal"
        # a tie for lowest: everybody cuts again

    def _on_deal(self, action: Deal) -> None:
        self._need_phase(action, "cut", "deal")
        if self._phase == "cut" and self.cuts:
            raise IllegalActionError("finish cutting for deal first")
        dealer = action.dealer if action.dealer is not None else self.dealer
        if dealer is None:
            raise IllegalActionError("say who deals: cut for deal, or give the dealer")
        if not 0 <= dealer < self.game.num_players:
            raise IllegalActionError(f"there is no player {dealer} to deal")
        if self.dealer is not None and dealer != self.dealer:
            raise IllegalActionError(
                f"it is {self.game.players[self.dealer]}'s deal, not {self.game.players[dealer]}'s"
            )
        self._start_deal(dealer, action.hands)

    def _start_deal(self, dealer: int, hands: tuple[tuple[Card, ...] | None, ...] | None) -> None:
        game = self.game
        n = game.num_players
        if hands is not None and len(hands) != n:
            raise IllegalActionError(f"the deal gives {len(hands)} hands for {n} players")
        if self.deals % game.deals_per_shuffle == 0:
            self.shuffle_seen = set()
        seen: set[Card] = set()
        for seat in range(n):
            hand = hands[seat] if hands is not None else None
            if hand is None:
                continue
            for card in hand:
                self._check_fresh(card)
            size = game.dealt(seat, dealer)
            if len(hand) != size:
                raise IllegalActionError(
                    f"{game.players[seat]} is dealt {size} cards, not {len(hand)}: {' '.join(map(str, hand))}"
                )
            for card in hand:
                if card in seen:
                    raise IllegalActionError(f"{card} is dealt twice")
                seen.add(card)
        self.dealer = dealer
        self.dealt_by = dealer
        self.deals += 1
        self.bids, self.bid_queue = {}, []
        self.starter = None
        given = list(hands) if hands is not None else [None] * n
        self.known = [list(h) if h is not None else None for h in given]
        self.held = [game.dealt(s, dealer) for s in range(n)]
        self.played = [[] for _ in range(n)]
        self.laid_away = [[] for _ in range(n)]
        self.to_discard = [game.discards(s, dealer) for s in range(n)]
        self.to_give = [game.passes(s, dealer) for s in range(n)]
        self.crib_cards = None
        self.count, self.pile, self.passed, self.last_player, self.turn = 0, [], set(), None, None
        self.show_queue = []
        self.shown = None
        self._phase = "give" if any(self.to_give) else "discard"
        if self.deals == 1 and game.pone_start:
            pone = (dealer + 1) % n
            self.peg(pone, game.pone_start, "start", [Item("start", (), game.pone_start, "3 for last")])
        self._after_discards()

    def _after_discards(self) -> None:
        if self._phase == "discard" and not any(self.to_discard):
            if self.game.auction:
                assert self.dealer is not None
                self._phase = "bid"
                self.bid_queue = [self.dealer, (self.dealer + 1) % self.game.num_players]
            else:
                self._phase = "starter"

    def _check_fresh(self, card: Card) -> None:
        """Refuse a card already faced in an earlier deal from the same shuffle (Revised)."""
        if card in self.shuffle_seen:
            raise IllegalActionError(
                f"{card} was used in an earlier deal from this shuffle: it cannot come up again"
            )

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

    def _on_discard(self, action: Discard) -> None:
        self._need_phase(action, "discard")
        seat = action.player
        need = self.to_discard[seat]
        cards = list(action.cards) if action.cards is not None else None
        if cards is not None:
            if len(cards) != need:
                raise IllegalActionError(
                    f"{self.game.players[seat]} lays away {need} card{'s' * (need != 1)}, not {len(cards)}"
                )
            for card in cards:
                self._take_from_hand(seat, card, "lay away")
        else:
            if self.known[seat] is not None:
                raise IllegalActionError(f"say which cards {self.game.players[seat]} lays away")
            self.held[seat] -= need
        if cards is not None:
            self.laid_away[seat] = cards
        self.to_discard[seat] = 0
        self._after_discards()

    def _seen_this_deal(self) -> set[Card]:
        seen = {c for row in self.played for c in row}
        seen.update(c for row in self.laid_away for c in row)
        if self.starter is not None:
            seen.add(self.starter)
        if self.crib_cards is not None:
            seen.update(self.crib_cards)
        return seen

    def _take_from_hand(self, seat: int, card: Card, verb: str) -> None:
        """Remove ``card`` from ``seat``'s hand, checking what can be checked."""
        name = self.game.players[seat]
        known = self.known[seat]
        self._check_fresh(card)
        if known is not None:
            if card not in known:
                raise IllegalActionError(f"{name} does not hold {card}")
            known.remove(card)
        else:
            if card in self._seen_this_deal():
                raise IllegalActionError(f"{card} has already been seen this deal: it cannot be played again")
            for other, hand in enumerate(self.known):
                if other != seat and hand is not None and card in hand:
                    raise IllegalActionError(f"{card} is in {self.game.players[other]}'s hand")
            if self.held[seat] <= 0:
                raise IllegalActionError(f"{name} has no cards left to {verb}")
        self.held[seat] -= 1

    def _on_starter(self, action: Starter) -> None:
        self._need_phase(action, "starter")
        card = action.card
        self._check_fresh(card)
        if card in self._seen_this_deal() or any(h is not None and card in h for h in self.known):
            raise IllegalActionError(f"{card} is already in play this deal; it cannot be the starter")
        self.starter = card
        assert self.dealer is not None
        self._phase = "play"
        if card.rank == 11:
            self.peg(self.dealer, 2, "heels", [Item("heels", (card,), 2, "his heels")])
        self.turn = (self.dealer + 1) % self.game.num_players
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

    def _advance(self, after: int) -> None:
        """Pass the turn to the next player still in the count, or end the count."""
        n = self.game.num_players
        for i in range(1, n + 1):
            s = (after + i) % n
            if self.held[s] > 0 and s not in self.passed:
                self.turn = s
                return
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

    def _start_show(self) -> None:
        assert self.dealer is not None
        self._phase = "show"
        self.turn = None
        self.last_player = None
        self.show_queue = [*self.game.show_order(self.dealer), *(["crib"] if self.game.has_crib else [])]

    def _hand_for_show(self, seat: int, cards: tuple[Card, ...] | None) -> list[Card]:
        assert self.dealer is not None
        name = self.game.players[seat]
        size = self.game.kept_size(seat, self.dealer)
        played = self.played[seat]
        rest = self.known[seat]
        if cards is None:
            if rest is None and self.held[seat] > 0:
                raise IllegalActionError(f"{name}'s hand has not been seen: show its cards")
            hand = played + list(rest or [])
            self.held[seat] = 0
            self.known[seat] = []
            self.played[seat] = hand
            return hand
        hand = list(cards)
        if len(hand) != size or len(set(hand)) != len(hand):
            raise IllegalActionError(f"{name}'s hand has {size} different cards, not {len(hand)}")
        missing = [c for c in played if c not in hand]
        if missing:
            raise IllegalActionError(f"{name} played {', '.join(map(str, missing))}: it belongs in the hand shown")
        extra = [c for c in hand if c not in played]
        if rest is not None and sorted(extra) != sorted(rest):
            raise IllegalActionError(f"{name} holds {' '.join(map(str, rest))}, not {' '.join(map(str, extra))}")
        seen = self._seen_this_deal()
        for c in extra:
            self._check_fresh(c)
            if c in seen:
                raise IllegalActionError(f"{c} has already been seen elsewhere this deal")
        self.held[seat] = 0
        self.known[seat] = []
        self.played[seat] = hand  # the whole hand is on the table now
        return hand

    def _count_show(self, seat: int, what: str, cards: list[Card], claim: int | None) -> None:
        score = self._show_score(cards, what)
        points = score.total
        if self.game.options.get("muggins"):
            if claim is None:
                raise IllegalActionError("playing muggins: say how many points you claim")
            if claim > score.total:
                raise IllegalActionError(
                    f"{self.game.players[seat]} claims {claim} but the {what} counts {score.total}: "
                    f"{score.spoken()}"
                )
            points = claim
        self.shown = {
            "seat": seat,
            "what": what,
            "cards": [str(c) for c in cards],
            "starter": str(self.starter) if self.starter else None,
            "total": score.total,
            "claimed": points,
            "items": spoken_items(score.items),
        }
        items = score.items if points == score.total else (Item("claim", (), points, "claimed"),)
        self.peg(seat, points, what, items)
        if points < score.total:
            self.missed = (self.side_of(seat), score.total - points)

    def _show_score(self, cards: list[Card], what: str) -> Score:
        return self.game.score_hand(cards, self.starter, crib=(what == "crib"))

    def _on_show(self, action: Show) -> None:
        self._need_phase(action, "show")
        hand = self._hand_for_show(action.player, action.cards)
        self.show_queue.pop(0)
        self._count_show(action.player, "hand", hand, action.claim)
        if not self.show_queue:
            self._end_deal()

    def _on_crib(self, action: Crib) -> None:
        self._need_phase(action, "show")
        if self.show_queue != ["crib"]:
            raise IllegalActionError(f"the crib is counted last: {self.prompt()}")
        assert self.dealer is not None
        size = self.game.crib_size(self.dealer)
        known = [c for row in self.laid_away for c in row]
        if action.cards is None:
            if len(known) != size:
                raise IllegalActionError("the crib has not been seen: turn it up and give its cards")
            crib = known
        else:
            crib = list(action.cards)
            if len(crib) != size or len(set(crib)) != size:
                raise IllegalActionError(f"the crib has {size} different cards, not {len(crib)}")
            missing = [c for c in known if c not in crib]
            if missing:
                raise IllegalActionError(f"{', '.join(map(str, missing))} was laid away: it is in the crib")
            others = self._seen_this_deal() - set(known)
            for c in crib:
                self._check_fresh(c)
            clash = [c for c in crib if c in others]
            if clash:
                raise IllegalActionError(f"{', '.join(map(str, clash))} has already been seen this deal")
        self.crib_cards = crib
        self.show_queue = []
        self._count_show(self.dealer, "crib", crib, action.claim)
        self._end_deal()

    def _end_deal(self) -> None:
        """The deal is over: its faced cards stay out until the next shuffle; the deal passes on."""
        self.shuffle_seen |= self._seen_this_deal()
        if not self.is_over:
            assert self.dealt_by is not None
            self.dealer = self.game.next_dealer(self.dealt_by)
            self._phase = "deal"

    def _muggins(self, action: Muggins) -> None:
        assert self.missed is not None
        side, points = self.missed
        self.missed = None
        self.peg(action.player, points, "muggins", [Item("muggins", (), points, "muggins")])

    # ------------------------------------------------------------------ the end and views

    def peg(self, seat: int | None, points: int, kind: str, items: Sequence[Item] = (),
            *, side: int | None = None) -> None:
        """Peg as the base does; in solo three-hand the partners of ``seat`` peg the same points."""
        super().peg(seat, points, kind, items, side=side)
        if seat is None or side is not None or self.dealer is None:
            return
        for partner in self.game.partners(seat, self.dealer):
            super().peg(partner, points, kind, items)

    def on_target(self, side: int) -> None:
        if self.game.losing:
            self.loser = side
            others = [i for i in range(len(self.scores)) if i != side]
            if len(others) == 1:
                self.winner = others[0]
        else:
            super().on_target(side)
        self._phase = "over"

    def skunk(self) -> str | None:
        """How badly the losers lost: "skunk", "double skunk", or None."""
        if self.winner is None or self.game.losing:
            return None
        worst = None
        losers = [s for i, s in enumerate(self.scores) if i != self.winner]
        for label, line in self.game.skunk_lines():
            if losers and min(losers) < line:
                worst = label
        return worst

    def _view(self, view: dict[str, Any], seat: int | None) -> None:
        game = self.game
        view["dealer"] = self.dealer
        view["turn"] = self.turn if self._phase == "play" and not self.is_over else None
        if self._phase == "show" and self.show_queue and not self.is_over:
            nxt = self.show_queue[0]
            view["turn"] = self.dealer if nxt == "crib" else nxt
        view["count"] = self.count if self._phase == "play" else None
        view["pile"] = [str(c) for c in self.pile]
        view["starter"] = str(self.starter) if self.starter else None
        view["show"] = self.shown
        view["skunk_lines"] = [{"label": label, "at": at} for label, at in game.skunk_lines()]
        view["result"] = (self.skunk() or "win") if self.winner is not None else None
        view["rows"] = [[str(c) for c in row] for row in self.played]
        view["held"] = list(self.held)
        view["crib"] = [str(c) for c in self.crib_cards] if self.crib_cards is not None else None
        view["crib_count"] = game.crib_size(self.dealer) if self.dealer is not None else 0
        view["cuts"] = {str(k): str(v) for k, v in self.cuts.items()}
        view["deal"] = self.deals
        view["muggins_open"] = self.missed is not None
        view["bids"] = {str(k): v for k, v in self.bids.items()}
        view["dealt_by"] = self.dealt_by
        view["seen_since_shuffle"] = sorted(str(c) for c in self.shuffle_seen)
        if seat is not None and 0 <= seat < game.num_players:
            hand = self.known[seat]
            view["hand"] = [str(c) for c in hand] if hand is not None else None
            view["laid_away"] = [str(c) for c in self.laid_away[seat]]


register(Cribbage)
