"""The deal, play and show machinery of the Decktet pegging games (Bhargage, Suitcases).

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
from typing import Any

from games.bhargage.actions import Crib, Cut, Deal, Discard, Hand, Muggins, Pass, Play, Show, Starter
from games.cards import Card
from games.decktet import DECKTET, DecktetCard
from games.engine import Action, Game, Item, Score, State, spoken_items
from games.errors import CardCountError, CardError, IllegalActionError


class DecktetPeggingGame(Game):
    """What the two Decktet pegging games share: two players, the 45-card extended Decktet,
    two cards each to the crib."""

    #: cards dealt to each player
    hand_size = 5
    #: cards each player lays away
    lay_away = 2
    #: what the crib is called at the table
    crib_name = "crib"

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

    @property
    def kept(self) -> int:
        return self.hand_size - self.lay_away

    # The cribbage family's sizing, which the pegging table protocol asks every pegging game.

    def discards(self, seat: int, dealer: int | None = None) -> int:
        return self.lay_away

    def kept_size(self, seat: int, dealer: int | None = None) -> int:
        return self.kept

    def crib_size(self, dealer: int | None = None) -> int:
        return self.lay_away * self.num_players

    def skunk_lines(self) -> list[tuple[str, int]]:
        return []

    @abstractmethod
    def score_hand(self, hand: Sequence[DecktetCard], starter: DecktetCard | None,
                   crib: bool = False) -> Score:
        """The count of a hand (or of the crib) with the top card."""

    def score_cards(self, cards: Sequence[str], starter: str | None,
                    crib: bool = False) -> list[tuple[str, Score]]:
        """`pegpi score`: count one hand (or the crib) with the top card."""
        from games.cards import check_cards

        hand = [self.parse_card(c) for c in cards]
        start = self.parse_card(starter) if starter else None
        texts = list(cards) + ([starter] if starter else [])
        check_cards(hand + ([start] if start else []), texts=texts, what="the hand and top card")
        size = self.crib_size() if crib else self.kept
        if len(hand) != size:
            raise CardCountError(
                f"a {self.crib_name if crib else 'hand'} in {self.spec.title} has {size} cards "
                f"(the top card given with --starter), got {len(hand)}: " + "; ".join(cards)
            )
        return self.score_lines(hand, start, crib)

    def score_lines(self, hand: Sequence[DecktetCard], starter: DecktetCard | None,
                    crib: bool) -> list[tuple[str, Score]]:
        return [(self.crib_name if crib else "hand", self.score_hand(hand, starter, crib))]


class DecktetPeggingState(State):
    game: DecktetPeggingGame

    def __init__(self, game: DecktetPeggingGame) -> None:
        super().__init__(game)
        n = game.num_players
        self._phase = "cut"
        self.cuts: dict[int, DecktetCard] = {}
        self.dealer: int | None = None
        self.deals = 0
        self.starter: DecktetCard | None = None
        self.starters: list[DecktetCard] = []  # every deal's top card, in order
        self.known: list[list[DecktetCard] | None] = [None] * n  # the rest of a hand, when known
        self.held = [0] * n  # cards still in hand
        self.played: list[list[DecktetCard]] = [[] for _ in range(n)]  # this deal, per seat
        self.to_discard = [0] * n
        self.laid_away: list[list[DecktetCard]] = [[] for _ in range(n)]
        self.crib_cards: list[DecktetCard] | None = None
        self.pile: list[DecktetCard] = []  # the current sequence (count, suit attempt)
        self.passed: set[int] = set()
        self.last_player: int | None = None
        self.turn: int | None = None
        self.show_queue: list[int | str] = []
        self.shown: dict[str, Any] | None = None
        self.missed: tuple[int, int] | None = None  # (side that missed, points) for muggins

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

    def _count_show(self, seat: int, what: str, cards: list[DecktetCard], claim: int | None) -> None:
        score = self.game.score_hand(cards, self.starter, crib=(what == "crib"))
        self._peg_show(seat, what, cards, score, claim)

    # ------------------------------------------------------------------ turn and phase

    @property
    def phase(self) -> str:
        return "over" if self.is_over else self._phase

    @property
    def other(self) -> dict[int, int]:
        return {0: 1, 1: 0}

    def to_move(self, action: Action) -> Sequence[int] | None:
        if isinstance(action, Cut):
            return [s for s in range(self.game.num_players) if s not in self.cuts]
        if isinstance(action, Discard):
            return [s for s, n in enumerate(self.to_discard) if n > 0]
        if isinstance(action, Play | Pass):
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
            return f"{names[self.dealer] if self.dealer is not None else 'the dealer'} to deal"
        if self._phase == "discard":
            waiting = [names[s] for s, n in enumerate(self.to_discard) if n > 0]
            return f"waiting for {', '.join(waiting)} to lay away to the {self.game.crib_name}"
        if self._phase == "starter":
            return "turn up the top card"
        if self._phase == "play" and self.turn is not None:
            return f"{names[self.turn]} to play"
        if self._phase == "show" and self.show_queue:
            nxt = self.show_queue[0]
            return f"dealer to count the {self.game.crib_name}" if nxt == "crib" else f"{names[int(nxt)]} to show"
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
        if isinstance(action, Cut):
            self._on_cut(action)
        elif isinstance(action, Deal):
            self._on_deal(action)
        elif isinstance(action, Discard):
            self._on_discard(action)
        elif isinstance(action, Starter):
            self._on_starter(action)
        elif isinstance(action, Play):
            self._on_play(action)
        elif isinstance(action, Pass):
            self._on_pass(action)
        elif isinstance(action, Show):
            self._on_show(action)
        elif isinstance(action, Crib):
            self._on_crib(action)
        else:  # pragma: no cover - the base refuses actions the game does not list
            raise IllegalActionError(f"{self.game.spec.title} has no action {action.act!r}")

    def _on_cut(self, action: Cut) -> None:
        self._need_phase(action, "cut")
        if action.card in self.cuts.values():
            raise IllegalActionError(f"{action.card} has already been cut")
        self.cuts[action.player] = action.card
        if len(self.cuts) < self.game.num_players:
            return
        low = min(c.order for c in self.cuts.values())
        lowest = [s for s, c in self.cuts.items() if c.order == low]
        self.cuts = {}
        if len(lowest) == 1:  # equal lowest ranks: cut again
            self.dealer = lowest[0]
            self._phase = "deal"

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
        game = self.game
        n = game.num_players
        hands = action.hands
        if hands is not None and len(hands) != n:
            raise IllegalActionError(f"the deal gives {len(hands)} hands for {n} players")
        seen: set[DecktetCard] = set()
        for seat, hand in enumerate(hands or ()):
            if hand is None:
                continue
            if len(hand) != game.hand_size:
                raise IllegalActionError(
                    f"{game.players[seat]} is dealt {game.hand_size} cards, not {len(hand)}: "
                    + "; ".join(map(str, hand))
                )
            for card in hand:
                if card in seen:
                    raise IllegalActionError(f"{card} is dealt twice")
                seen.add(card)
        self.dealer = dealer
        self.deals += 1
        self.starter = None
        given: list[Hand | None] = list(hands) if hands is not None else [None] * n
        self.known = [list(h) if h is not None else None for h in given]
        self.held = [game.hand_size] * n
        self.played = [[] for _ in range(n)]
        self.laid_away = [[] for _ in range(n)]
        self.to_discard = [game.lay_away] * n
        self.crib_cards = None
        self.pile, self.passed, self.last_player, self.turn = [], set(), None, None
        self.show_queue = []
        self.shown = None
        self._phase = "discard"

    def _on_discard(self, action: Discard) -> None:
        self._need_phase(action, "discard")
        seat = action.player
        need = self.to_discard[seat]
        if action.cards is not None:
            if len(action.cards) != need:
                raise IllegalActionError(f"{self.game.players[seat]} lays away {need} cards, not {len(action.cards)}")
            for card in action.cards:
                self._take_from_hand(seat, card, "lay away")
            self.laid_away[seat] = list(action.cards)
        else:
            if self.known[seat] is not None:
                raise IllegalActionError(f"say which cards {self.game.players[seat]} lays away")
            self.held[seat] -= need
        self.to_discard[seat] = 0
        if not any(self.to_discard):
            self._phase = "starter"

    def _seen_this_deal(self) -> set[DecktetCard]:
        seen = {c for row in self.played for c in row}
        seen.update(c for row in self.laid_away for c in row)
        if self.starter is not None:
            seen.add(self.starter)
        if self.crib_cards is not None:
            seen.update(self.crib_cards)
        return seen

    def _take_from_hand(self, seat: int, card: DecktetCard, verb: str) -> None:
        """Remove ``card`` from ``seat``'s hand, checking what can be checked."""
        name = self.game.players[seat]
        known = self.known[seat]
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
        if card in self._seen_this_deal() or any(h is not None and card in h for h in self.known):
            raise IllegalActionError(f"{card} is already in play this deal; it cannot be the top card")
        assert self.dealer is not None
        self.starter = card
        self.starters.append(card)
        self._phase = "play"
        self.turn = self.other[self.dealer]
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

    def _advance(self, after: int) -> None:
        """Give the turn to the next player still able to play, or end the sequence."""
        n = self.game.num_players
        for i in range(1, n + 1):
            s = (after + i) % n
            if self.held[s] > 0 and s not in self.passed:
                self.turn = s
                return
        self.turn = None
        self._end_sequence()

    def _new_sequence(self, leader: int) -> None:
        self.pile, self.passed = [], set()
        self.turn = leader

    # ------------------------------------------------------------------ the show

    def _start_show(self) -> None:
        assert self.dealer is not None
        self._phase = "show"
        self.turn = None
        self.show_queue = [self.other[self.dealer], self.dealer, "crib"]

    def _hand_for_show(self, seat: int, cards: Hand | None) -> list[DecktetCard]:
        name = self.game.players[seat]
        size = self.game.kept
        played = self.played[seat]
        rest = self.known[seat]
        if cards is None:
            if rest is None and self.held[seat] > 0:
                raise IllegalActionError(f"{name}'s hand has not been seen: show its cards")
            hand = played + list(rest or [])
        else:
            hand = list(cards)
            if len(hand) != size or len(set(hand)) != len(hand):
                raise IllegalActionError(f"{name}'s hand has {size} different cards, not {len(hand)}")
            missing = [c for c in played if c not in hand]
            if missing:
                raise IllegalActionError(f"{name} played {'; '.join(map(str, missing))}: it belongs in the hand shown")
            extra = [c for c in hand if c not in played]
            if rest is not None and sorted(extra) != sorted(rest):
                raise IllegalActionError(
                    f"{name} holds {'; '.join(map(str, rest))}, not {'; '.join(map(str, extra))}"
                )
            seen = self._seen_this_deal()
            for c in extra:
                if c in seen:
                    raise IllegalActionError(f"{c} has already been seen elsewhere this deal")
                for other, other_hand in enumerate(self.known):
                    if other != seat and other_hand is not None and c in other_hand:
                        raise IllegalActionError(f"{c} is in {self.game.players[other]}'s hand")
        self.held[seat] = 0
        self.known[seat] = []
        self.played[seat] = hand  # the whole hand is on the table now
        return hand

    def _peg_show(self, seat: int, what: str, cards: list[DecktetCard], score: Score,
                  claim: int | None) -> None:
        points = score.total
        if self.game.options.get("muggins"):
            if claim is None:
                raise IllegalActionError("playing muggins: say how many points you claim")
            if claim > score.total:
                raise IllegalActionError(
                    f"{self.game.players[seat]} claims {claim} but the {self._what_name(what)} counts "
                    f"{score.total}: {score.spoken()}"
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
        self.peg(seat, points, self._what_name(what), items)
        if points < score.total:
            self.missed = (self.side_of(seat), score.total - points)

    def _what_name(self, what: str) -> str:
        return self.game.crib_name if what == "crib" else what

    def _on_show(self, action: Show) -> None:
        self._need_phase(action, "show")
        hand = self._hand_for_show(action.player, action.cards)
        self.show_queue.pop(0)
        self._count_show(action.player, "hand", hand, action.claim)

    def _on_crib(self, action: Crib) -> None:
        self._need_phase(action, "show")
        if self.show_queue != ["crib"]:
            raise IllegalActionError(f"the {self.game.crib_name} is counted last: {self.prompt()}")
        assert self.dealer is not None
        size = self.game.crib_size()
        known = [c for row in self.laid_away for c in row]
        if action.cards is None:
            if len(known) != size:
                raise IllegalActionError(f"the {self.game.crib_name} has not been seen: give its cards")
            crib = known
        else:
            crib = list(action.cards)
            if len(crib) != size or len(set(crib)) != size:
                raise IllegalActionError(f"the {self.game.crib_name} has {size} different cards, not {len(crib)}")
            missing = [c for c in known if c not in crib]
            if missing:
                raise IllegalActionError(
                    f"{'; '.join(map(str, missing))} was laid away: it is in the {self.game.crib_name}"
                )
            others = self._seen_this_deal() - set(known)
            clash = [c for c in crib if c in others]
            if clash:
                raise IllegalActionError(f"{'; '.join(map(str, clash))} has already been seen this deal")
        self.crib_cards = crib
        self.show_queue = []
        self._count_show(self.dealer, "crib", crib, action.claim)
        if not self.is_over:
            self.dealer = self.other[self.dealer]
            self._phase = "deal"

    def _muggins(self, action: Muggins) -> None:
        assert self.missed is not None
        _, points = self.missed
        self.missed = None
        self.peg(action.player, points, "muggins", [Item("muggins", (), points, "muggins")])

    # ------------------------------------------------------------------ the end and views

    def on_target(self, side: int) -> None:
        super().on_target(side)
        self._phase = "over"

    def skunk(self) -> str | None:
        if self.winner is None:
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
        view["pile"] = [str(c) for c in self.pile]
        view["starter"] = str(self.starter) if self.starter else None
        view["show"] = self.shown
        view["skunk_lines"] = [{"label": label, "at": at} for label, at in game.skunk_lines()]
        view["result"] = (self.skunk() or "win") if self.winner is not None else None
        view["rows"] = [[str(c) for c in row] for row in self.played]
        view["held"] = list(self.held)
        view["crib"] = [str(c) for c in self.crib_cards] if self.crib_cards is not None else None
        view["crib_name"] = game.crib_name
        view["cuts"] = {str(k): str(v) for k, v in self.cuts.items()}
        view["deal"] = self.deals
        view["passed"] = sorted(self.passed)
        view["muggins_open"] = self.missed is not None
        if seat is not None and 0 <= seat < game.num_players:
            hand = self.known[seat]
            view["hand"] = [str(c) for c in hand] if hand is not None else None
            view["laid_away"] = [str(c) for c in self.laid_away[seat]]
