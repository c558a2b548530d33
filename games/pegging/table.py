"""The deal and show machinery every pegging game shares, whatever its deck and its play.

A deal runs: (cut for the first deal) -> deal -> discards to the crib -> the starter (the top
card) -> the play -> the show (hands from the dealer's left, then the crib) -> the next deal.
The game ends the instant a side reaches the target.

Hands are usually unknown: the companion sees cards only when they are played, shown or turned.
The engine then checks what it can (a card seen twice in a deal, the turn) and scores from what
is revealed. When hands are known (a recorded deal with ``hands``), it also checks that every
card played or shown is really held.

What differs between games are hooks: the deck and its cut order
(:class:`games.pegging.game.PeggingGame`); the play (a count to a limit in cribbage, suit
attempts in Suitcases), what the starter gives the dealer and the scores (:class:`PeggingState`).
"""

from __future__ import annotations

import dataclasses
from abc import abstractmethod
from collections.abc import Sequence
from typing import Any, Generic, TypedDict

from games.engine import Action, Item, Score, State
from games.errors import IllegalActionError
from games.pegging.actions import Crib, Cut, Deal, Discard, Hand, Muggins, Show, Starter
from games.pegging.game import C, PeggingGame
from games.table import CRIB, Zone
from games.view import Common, PeggingView, ShowCount, SkunkLine, TableView, counted


class PeggingState(State, Generic[C]):
    """A pegging game's deal, discards, starter and show; the play is the game's own."""

    game: PeggingGame[C]

    def __init__(self, game: PeggingGame[C]) -> None:
        super().__init__(game)
        n = game.num_players
        self._phase = "cut"
        self.cuts: dict[int, C] = {}
        self.dealer: int | None = None
        self.dealt_by: int | None = None  # who dealt: the deal passes on from them
        self.deals = 0
        self.deal_at = 0  # the index of this deal's deal action (scores before it are earlier deals')
        self.starter: C | None = None
        self.known: list[list[C] | None] = [None] * n  # whole remaining hand, when known
        self.held = [0] * n  # cards still in hand
        self.played: list[list[C]] = [[] for _ in range(n)]  # this deal, per seat
        self.to_discard = [0] * n
        self.laid_away: list[list[C]] = [[] for _ in range(n)]  # known discards
        self.crib_cards: list[C] | None = None  # once the crib is turned up
        self.pile: list[C] = []  # the cards of the current count (or suit attempt)
        self.passed: set[int] = set()
        self.last_player: int | None = None
        self.turn: int | None = None
        self.show_queue: list[int | str] = []
        self.shown: ShowCount | None = None  # the hand (or crib) counted last
        self.missed: tuple[int, int] | None = None  # (side that missed, points) for muggins

    # ------------------------------------------------------------------ what each game says

    def _new_deal(self, dealer: int) -> None:
        """The cards are dealt: set up what else the game keeps for a deal."""

    def _starter_turned(self, card: C) -> None:
        """The starter is turned up and the play begins: peg what it gives the dealer."""

    @abstractmethod
    def _nobody_can_play(self) -> None:
        """Every player still in has passed: end the count (or the sequence)."""

    def _starter_waits(self) -> bool:
        """The starter waits for something said between the discards and its turning (Auction's
        bids): a starter laid early is held until then."""
        return False

    def _check_fresh(self, card: C) -> None:
        """Refuse a card already faced in an earlier deal from the same shuffle (Revised)."""

    def _check_shown(self, seat: int, card: C, seen: set[C]) -> None:
        """Refuse a card shown from ``seat``'s hand that is already elsewhere this deal."""
        self._check_fresh(card)
        if card in seen:
            raise IllegalActionError(f"{card} has already been seen elsewhere this deal")

    def _show_score(self, cards: list[C], what: str) -> Score:
        return self.game.score_hand(cards, self.starter, crib=(what == "crib"))

    # ------------------------------------------------------------------ turn and phase

    @property
    def phase(self) -> str:
        return "over" if self.is_over else self._phase

    def to_move(self, action: Action) -> Sequence[int] | None:
        if isinstance(action, Cut):
            return [s for s in range(self.game.num_players) if s not in self.cuts]
        if isinstance(action, Discard):
            return [s for s, n in enumerate(self.to_discard) if n > 0]
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
        crib = self.game.crib_name
        if self.is_over:
            return self.result_text()
        if self._phase == "cut":
            return "cut for deal: lowest card deals"
        if self._phase == "deal":
            who = names[self.dealer] if self.dealer is not None else "the dealer"
            return f"{who} to deal"
        if self._phase == "discard":
            waiting = [names[s] for s, n in enumerate(self.to_discard) if n > 0]
            return f"waiting for {', '.join(waiting)} to lay away to the {crib}"
        if self._phase == "starter":
            return f"turn up the {self.game.starter_name}"
        if self._phase == "play" and self.turn is not None:
            return f"{names[self.turn]} to play"
        if self._phase == "show" and self.show_queue:
            nxt = self.show_queue[0]
            return f"dealer to count the {crib}" if nxt == "crib" else f"{names[int(nxt)]} to show"
        return ""

    def _need_phase(self, action: Action, *phases: str) -> None:
        if self._phase not in phases:
            raise IllegalActionError(f"cannot {action.act} now: {self.prompt()}")

    # ------------------------------------------------------------------ what the table asks
    # (games.table.PeggingTable: the pegging table protocol's questions, answered from this state)

    def whose_turn(self) -> int | None:
        return self.turn if self._phase == "play" and not self.is_over else None

    def zone_owner(self, zone: Zone) -> int | None:
        if zone.kind == "seat":
            return zone.seat if zone.seat is not None and zone.seat < self.game.num_players else None
        return self.dealer if zone.kind == "crib" else None

    def zone_label(self, zone: Zone) -> str:
        seat = self.zone_owner(zone) if zone.kind == "seat" else None
        if seat is not None:
            return f"{self.game.players[seat]}'s row"
        if zone.kind == "crib":
            return f"the {self.game.crib_name}"
        if zone.kind == "starter":
            return f"the {self.game.starter_name}"
        return f"the {zone.name}"

    def zone_cards(self, zone: Zone) -> list[str]:
        seat = self.zone_owner(zone) if zone.kind == "seat" else None
        if seat is not None:
            if self._phase == "cut":
                cut = self.cuts.get(seat)
                return [str(cut)] if cut is not None else []
            return [str(c) for c in self.played[seat]]
        if zone.kind == "starter":
            return [str(self.starter)] if self.starter is not None else []
        if zone.kind == "crib":
            return [str(c) for c in self.crib_cards or []]
        return []

    def card_means(self, zone: Zone, card: str) -> list[Action] | None:
        phase = self.phase
        seat = self.zone_owner(zone) if zone.kind == "seat" else None
        if phase == "cut":
            if seat is None or card in self.zone_cards(zone):
                return None
            return [self._table_action(act="cut", player=seat, card=card)]
        if zone.kind == "starter":
            waits = self._starter_waits()
            if card in self.zone_cards(zone) or (phase not in ("discard", "starter") and not waits):
                return None
            # the crib lies face down: the discards are recorded as the starter is turned up
            laid = [self._table_action(act="discard", player=s) for s, n in enumerate(self.to_discard) if n > 0]
            return laid if waits else [*laid, self._table_action(act="starter", card=card)]
        if seat is not None and card in self.zone_cards(zone):
            return None  # seen again: the game already holds it
        if phase == "play" and seat is not None:
            return [self._table_action(act="play", player=seat, card=card)]
        if phase == "show" and (seat is not None or zone.kind == "crib"):
            self.game.parse_card(card)  # an unknown card name is refused now, not at the show
            return []
        return None

    def lies_face_down(self, zone: Zone) -> bool:
        return zone.kind == "crib" or self.phase in ("over", "deal", "cut", "discard", "starter")

    def inferred_pass(self) -> Action | None:
        """None: the play of each game says when a pass shows in the order of plays."""
        return None

    def to_lay_away(self, seat: int) -> int:
        return self.to_discard[seat] if 0 <= seat < len(self.to_discard) else 0

    def claim_open(self) -> bool:
        return False

    def discard_seen(self, face_down: int) -> Action | None:
        if self.phase != "discard" or self.dealer is None or face_down < self.game.crib_size(self.dealer):
            return None
        seat = next((s for s, n in enumerate(self.to_discard) if n > 0), None)
        return None if seat is None else self._table_action(act="discard", player=seat)

    def deal_due(self) -> Action | None:
        return self._table_action(act="deal", dealer=self.dealer) if self.phase == "deal" else None

    def show_waits_for(self) -> Zone | None:
        if self.phase != "show" or not self.show_queue or self.game.options.get("muggins"):
            return None  # with muggins players claim their own counts, on the phone
        nxt = self.show_queue[0]
        return CRIB if nxt == "crib" else Zone.row(int(nxt))

    def show_from(self, zone: Zone, faces: Sequence[str]) -> Action | None:
        if zone != self.show_waits_for() or self.dealer is None:
            return None
        if zone.kind == "crib":
            size = self.game.crib_size(self.dealer)
            return self._table_action(act="crib", cards=list(faces[:size])) if len(faces) >= size else None
        seat = zone.seat
        assert seat is not None
        if self.held[seat] == 0:
            return self._table_action(act="show", player=seat)  # every card was played: seen in full
        played = self.zone_cards(zone)
        extra = [c for c in faces if c not in played]
        if len(played) + len(extra) >= self.game.kept_size(seat, self.dealer):
            return self._table_action(act="show", player=seat, cards=played + extra)
        return None

    def _table_action(self, **fields: Any) -> Action:
        """One of this game's actions from its record form (cards by name, checked)."""
        return self.game.action_from_json(fields)

    # ------------------------------------------------------------------ apply

    def _apply(self, action: Action) -> None:
        if isinstance(action, Muggins):
            self._muggins(action)
            return
        self.missed = None
        # ``_on_<act>``; an action that is another word for one (``go`` for ``pass``) subclasses it
        for cls in type(action).__mro__:
            handler = getattr(self, f"_on_{getattr(cls, 'act', '')}", None)
            if handler is not None:
                handler(action)
                return
        raise IllegalActionError(f"{self.game.spec.title} has no action {action.act!r}")  # pragma: no cover

    def _on_cut(self, action: Cut) -> None:
        self._need_phase(action, "cut")
        if action.card in self.cuts.values():
            raise IllegalActionError(f"{action.card} has already been cut")
        self.cuts[action.player] = action.card
        if len(self.cuts) < self.game.num_players:
            return
        low = min(self.game.cut_order(c) for c in self.cuts.values())
        lowest = [s for s, c in self.cuts.items() if self.game.cut_order(c) == low]
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

    def _start_deal(self, dealer: int, hands: tuple[Hand | None, ...] | None) -> None:
        game = self.game
        n = game.num_players
        if hands is not None and len(hands) != n:
            raise IllegalActionError(f"the deal gives {len(hands)} hands for {n} players")
        seen: set[C] = set()
        for seat in range(n):
            hand = hands[seat] if hands is not None else None
            if hand is None:
                continue
            for card in hand:
                self._check_fresh(card)
            size = game.dealt(seat, dealer)
            if len(hand) != size:
                raise IllegalActionError(
                    f"{game.players[seat]} is dealt {size} cards, not {len(hand)}: {game.hand_sep.join(map(str, hand))}"
                )
            for card in hand:
                if card in seen:
                    raise IllegalActionError(f"{card} is dealt twice")
                seen.add(card)
        self.dealer = dealer
        self.dealt_by = dealer
        self.deals += 1
        self.deal_at = len(self.history)
        self.starter = None
        given = list(hands) if hands is not None else [None] * n
        self.known = [list(h) if h is not None else None for h in given]
        self.held = [game.dealt(s, dealer) for s in range(n)]
        self.played = [[] for _ in range(n)]
        self.laid_away = [[] for _ in range(n)]
        self.to_discard = [game.discards(s, dealer) for s in range(n)]
        self.crib_cards = None
        self.pile, self.passed, self.last_player, self.turn = [], set(), None, None
        self.show_queue = []
        self.shown = None
        self._phase = "discard"
        self._new_deal(dealer)
        self._after_discards()

    def _after_discards(self) -> None:
        if self._phase == "discard" and not any(self.to_discard):
            self._phase = "starter"

    def _on_discard(self, action: Discard) -> None:
        self._need_phase(action, "discard")
        seat = action.player
        need = self.to_discard[seat]
        cards: list[C] | None = list(action.cards) if action.cards is not None else None
        if cards is not None:
            if len(cards) != need:
                raise IllegalActionError(
                    f"{self.game.players[seat]} lays away {need} card{'s' * (need != 1)}, not {len(cards)}"
                )
            for card in cards:
                self._take_from_hand(seat, card, "lay away")
            self.laid_away[seat] = cards
        else:
            if self.known[seat] is not None:
                raise IllegalActionError(f"say which cards {self.game.players[seat]} lays away")
            self.held[seat] -= need
        self.to_discard[seat] = 0
        self._after_discards()

    def _seen_this_deal(self) -> set[C]:
        seen = {c for row in self.played for c in row}
        seen.update(c for row in self.laid_away for c in row)
        if self.starter is not None:
            seen.add(self.starter)
        if self.crib_cards is not None:
            seen.update(self.crib_cards)
        return seen

    def _take_from_hand(self, seat: int, card: C, verb: str) -> None:
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
        card: C = action.card
        self._check_fresh(card)
        if card in self._seen_this_deal() or any(h is not None and card in h for h in self.known):
            raise IllegalActionError(
                f"{card} is already in play this deal; it cannot be the {self.game.starter_name}"
            )
        assert self.dealer is not None
        self.starter = card
        self._phase = "play"
        self.turn = (self.dealer + 1) % self.game.num_players
        self._starter_turned(card)

    # ------------------------------------------------------------------ the play

    def _advance(self, after: int) -> None:
        """Pass the turn to the next player still in the count, or end the count."""
        n = self.game.num_players
        for i in range(1, n + 1):
            s = (after + i) % n
            if self.held[s] > 0 and s not in self.passed:
                self.turn = s
                return
        self._nobody_can_play()

    # ------------------------------------------------------------------ the show

    def _start_show(self) -> None:
        assert self.dealer is not None
        self._phase = "show"
        self.turn = None
        self.last_player = None
        self.show_queue = [*self.game.show_order(self.dealer), *(["crib"] if self.game.has_crib else [])]

    def _hand_for_show(self, seat: int, cards: Hand | None) -> list[C]:
        assert self.dealer is not None
        game = self.game
        name = game.players[seat]
        size = game.kept_size(seat, self.dealer)
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
                raise IllegalActionError(
                    f"{name} played {game.list_sep.join(map(str, missing))}: it belongs in the hand shown"
                )
            extra = [c for c in hand if c not in played]
            if rest is not None and sorted(extra) != sorted(rest):
                raise IllegalActionError(
                    f"{name} holds {game.hand_sep.join(map(str, rest))}, not {game.hand_sep.join(map(str, extra))}"
                )
            seen = self._seen_this_deal()
            for c in extra:
                self._check_shown(seat, c, seen)
        self.held[seat] = 0
        self.known[seat] = []
        self.played[seat] = hand  # the whole hand is on the table now
        return hand

    def _count_show(self, seat: int, what: str, cards: list[C], claim: int | None) -> None:
        self._peg_show(seat, what, cards, self._show_score(cards, what), claim)

    def _peg_show(self, seat: int, what: str, cards: list[C], score: Score, claim: int | None) -> None:
        """Peg a shown hand (or crib): its count, or with muggins what its owner claims."""
        what_name = self.game.crib_name if what == "crib" else what
        points = score.total
        if self.game.options.get("muggins"):
            if claim is None:
                raise IllegalActionError("playing muggins: say how many points you claim")
            if claim > score.total:
                raise IllegalActionError(
                    f"{self.game.players[seat]} claims {claim} but the {what_name} counts {score.total}: "
                    f"{score.spoken()}"
                )
            points = claim
        self.shown = ShowCount(
            seat=seat, what=what, cards=tuple(str(c) for c in cards),
            starter=str(self.starter) if self.starter else None, total=score.total, claimed=points,
            items=counted(score.items),
        )
        items = score.items if points == score.total else (Item("claim", (), points, "claimed"),)
        self.peg(seat, points, what_name, items, shown=(*cards, *([self.starter] if self.starter else [])))
        if points < score.total:
            self.missed = (self.side_of(seat), score.total - points)

    def _on_show(self, action: Show) -> None:
        self._need_phase(action, "show")
        hand = self._hand_for_show(action.player, action.cards)
        self.show_queue.pop(0)
        self._count_show(action.player, "hand", hand, action.claim)
        if not self.show_queue:
            self._end_deal()

    def _on_crib(self, action: Crib) -> None:
        self._need_phase(action, "show")
        game = self.game
        if self.show_queue != ["crib"]:
            raise IllegalActionError(f"the {game.crib_name} is counted last: {self.prompt()}")
        assert self.dealer is not None
        size = game.crib_size(self.dealer)
        known = [c for row in self.laid_away for c in row]
        if action.cards is None:
            if len(known) != size:
                raise IllegalActionError(f"the {game.crib_name} has not been seen: {game.crib_unseen_hint}")
            crib = known
        else:
            crib = list(action.cards)
            if len(crib) != size or len(set(crib)) != size:
                raise IllegalActionError(f"the {game.crib_name} has {size} different cards, not {len(crib)}")
            missing = [c for c in known if c not in crib]
            if missing:
                raise IllegalActionError(
                    f"{game.list_sep.join(map(str, missing))} was laid away: it is in the {game.crib_name}"
                )
            others = self._seen_this_deal() - set(known)
            for c in crib:
                self._check_fresh(c)
            clash = [c for c in crib if c in others]
            if clash:
                raise IllegalActionError(f"{game.list_sep.join(map(str, clash))} has already been seen this deal")
        self.crib_cards = crib
        self.show_queue = []
        self._count_show(self.dealer, "crib", crib, action.claim)
        self._end_deal()

    def _end_deal(self) -> None:
        """The deal is over: the deal passes on from whoever dealt it."""
        if not self.is_over:
            assert self.dealt_by is not None
            self.dealer = self.game.next_dealer(self.dealt_by)
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
        """How badly the losers lost: "skunk", "double skunk", or None."""
        if self.winner is None:
            return None
        worst = None
        losers = [s for i, s in enumerate(self.scores) if i != self.winner]
        for label, line in self.game.skunk_lines():
            if losers and min(losers) < line:
                worst = label
        return worst

    def _view(self, common: Common, seat: int | None) -> TableView:
        if self.winner is not None:
            common["result"] = self.skunk() or "win"
        common["dealer"] = self.dealer
        common["turn"] = self.turn if self._phase == "play" and not self.is_over else None
        if self._phase == "show" and self.show_queue and not self.is_over:
            nxt = self.show_queue[0]
            common["turn"] = self.dealer if nxt == "crib" else int(nxt)
        last = common["last"]
        if last is not None and self.events:  # a page shows only this deal's last score
            this_deal = (self.events[-1].action_index or 0) >= self.deal_at
            common["last"] = dataclasses.replace(last, this_deal=this_deal)
        if seat is not None and 0 <= seat < self.game.num_players:
            hand = self.known[seat]
            common["hand"] = tuple(str(c) for c in hand) if hand is not None else None
        return self._pegging_view(common, self._pegging_fields(seat), seat)

    def _pegging_fields(self, seat: int | None) -> PeggingFields:
        """The family's own fields of the view."""
        game = self.game
        own = seat is not None and 0 <= seat < game.num_players
        return PeggingFields(
            board=game.target,
            start=0,
            skunk_lines=tuple(SkunkLine(label, at) for label, at in game.skunk_lines()),
            count=None,
            pile=tuple(str(c) for c in self.pile),
            starter=str(self.starter) if self.starter else None,
            show=self.shown,
            rows=tuple(tuple(str(c) for c in row) for row in self.played),
            held=tuple(self.held),
            crib=tuple(str(c) for c in self.crib_cards) if self.crib_cards is not None else None,
            cuts={k: str(v) for k, v in self.cuts.items()},
            deal=self.deals,
            muggins_open=self.missed is not None,
            laid_away=tuple(str(c) for c in self.laid_away[seat]) if own and seat is not None else None,
        )

    def _pegging_view(self, common: Common, fields: PeggingFields, seat: int | None) -> PeggingView:
        """The view of this game: its own view class, from the common and the family's fields."""
        return PeggingView(**common, **fields)


class PeggingFields(TypedDict):
    """The fields :class:`PeggingView` adds to :class:`games.view.TableView`."""

    board: int | None
    start: int
    skunk_lines: tuple[SkunkLine, ...]
    count: int | None
    pile: tuple[str, ...]
    starter: str | None
    show: ShowCount | None
    rows: tuple[tuple[str, ...], ...]
    held: tuple[int, ...]
    crib: tuple[str, ...] | None
    cuts: dict[int, str]
    deal: int
    muggins_open: bool
    laid_away: tuple[str, ...] | None
