"""Ricochet Poker: poker played face up, the lowest hand always to act (seed 002, "Ricochet
Poker"; rule card seeds/ricochet.md).

Everyone antes a chip and is dealt a card face up. The lowest hand (:mod:`games.poker`: partial
hands, a kicker beats no kicker, suits break ties) buys cards at a chip each, or folds. The dealer
gives the bought cards one at a time and stops as soon as the buyer's hand is no longer the lowest;
a buyer given every card paid for who is still lowest is out. The last hand standing takes the
pot; identical best hands split it.

The engine sees every card (the game is played face up), so it always knows the lowest hand and
tells the dealer whom to give a card and when to stop. Chips are kept as in Bourré: each player's
stack is the option ``chips`` plus the side's score, and every chip that moves is a score event.

>>> from games import new_game
>>> s = new_game("ricochet", ["Ann", "Bob"]).new_initial_state().apply_json({"act": "deal", "dealer": 1})
>>> s = s.apply_json({"act": "give", "to": 0, "card": "7C"}).apply_json({"act": "give", "to": 1, "card": "7D"})
>>> s.prompt()
'Ann (7 high) is lowest: buy cards or fold'
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from games.cards import FRENCH_52, FRENCH_54, Card
from games.engine import Action, Game, Item, Option, ScoreRequest, Spec, State, register
from games.errors import CardError, IllegalActionError, OptionError
from games.poker import HandValue, evaluate, hand_text, lowest
from games.table import BACK, Zone
from games.tricks import End
from games.view import Common, Group, LayoutView, ScoreTable, TableView

IN, FOLDED, OUT, WON = "in", "folded", "out", "won"


@dataclass(frozen=True)
class Deal(Action):
    """A new deal: everyone antes a chip. ``dealer`` only for the first deal (then it passes left)."""

    act: ClassVar[str] = "deal"
    dealer: int | None = None


@dataclass(frozen=True)
class Give(Action):
    """The dealer gives ``card`` face up to seat ``to``."""

    act: ClassVar[str] = "give"
    to: int
    card: Card


@dataclass(frozen=True)
class Buy(Action):
    """The lowest hand pays ``count`` chips into the pot for as many cards (it may get fewer)."""

    act: ClassVar[str] = "buy"
    player: int
    count: int


@dataclass(frozen=True)
class Fold(Action):
    """The lowest hand gives up: out of this deal."""

    act: ClassVar[str] = "fold"
    player: int


def score_command(request: ScoreRequest, *, limit: int = 7) -> str:
    """``pegpi score ricochet CARDS...`` names one hand; with ``--lowest`` each word is a hand
    ("2D,2S,9H" or quoted "2D 2S 9H") and the answer is the hand that acts next."""
    if request.starter is not None or request.crib:
        raise OptionError("pegpi score ricochet takes cards only, without --starter or --crib")
    if not request.lowest:
        value = evaluate(hand_text(list(request.words)), limit=limit)
        if request.as_json:
            return json.dumps(value.to_json())
        return f"{value.name} ({value.category})"
    hands = [hand_text(word) for word in request.words]
    if len(hands) < 2:
        raise OptionError("--lowest compares two hands or more: give each hand as one word, like 2D,2S,9H")
    every = [c for h in hands for c in h]
    if len(set(every)) != len(every):
        raise CardError("a card is in two hands")
    values = [evaluate(h, limit=limit) for h in hands]
    low = lowest(values)
    if request.as_json:
        return json.dumps({"lowest": low + 1, "hands": [v.to_json() for v in values]})
    lines = [f"{i + 1}. {' '.join(map(str, h)):20} {v.name}" for i, (h, v) in enumerate(zip(hands, values, strict=True))]
    lines.append(f"hand {low + 1} is lowest and acts next")
    return "\n".join(lines)


@register
class Ricochet(Game):
    spec = Spec(
        name="ricochet",
        title="Ricochet Poker",
        players=(2, 3, 4, 5, 6, 7, 8),
        deck="french52",
        table="seats",
        target=None,
        aliases=("ricochet poker",),
        pegged=False,
        options=(
            Option("chips", 50, "chips each player starts with", low=0, high=1000),
            Option("limit", 5, "most cards in a hand (the best five count)", low=5, high=7),
            Option("start", 1, "cards each player is dealt to start", low=1, high=3),
            Option("jokers", False, "play with the two jokers as bugs (an ace, or to complete a straight or flush)"),
            Option("five_aces", True, "a bug beside four aces makes five aces (else an ace kicker)"),
            Option("deals", 0, "deals in the game (0: until the players end it)", low=0, high=100),
        ),
        summary="Poker face up: the lowest hand buys cards or folds; the best hand takes the pot.",
    )
    actions = (Deal, Give, Buy, Fold, End)

    @classmethod
    def score_command(cls, request: ScoreRequest) -> str:
        """`pegpi score ricochet CARDS... [--json]` or `--lowest HAND HAND...`."""
        return score_command(request)

    def validate(self) -> None:
        if self.options["start"] > self.options["limit"]:
            raise OptionError("option 'start' cannot deal more cards than the hand 'limit'")

    @property
    def deck(self) -> tuple[Card, ...]:
        return FRENCH_54 if self.options["jokers"] else FRENCH_52

    def parse_card(self, text: str) -> Card:
        card = Card.parse(text)
        if card.is_joker and not self.options["jokers"]:
            raise CardError(f"{text!r}: this game is played without jokers (option 'jokers')")
        return card

    def value(self, cards: Sequence[Card]) -> HandValue:
        return evaluate(cards, limit=int(self.options["limit"]), five_aces=bool(self.options["five_aces"]))

    def new_initial_state(self) -> RicochetState:
        return RicochetState(self)


class RicochetState(State):
    game: Ricochet

    def __init__(self, game: Ricochet) -> None:
        super().__init__(game)
        n = game.num_players
        self._phase = "deal"
        self.dealer: int | None = None
        self.deals = 0  # deals settled
        self.pot = 0
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.values: list[HandValue | None] = [None] * n
        self.status: list[str] = [IN] * n
        self.seen: set[Card] = set()  # every card dealt this deal, thrown away or not
        self.to_start: list[int] = []  # the seats still to get a starting card, in order
        self.turn: int | None = None
        self.buyer: int | None = None
        self.paid = 0
        self.given = 0
        self.sheet: list[tuple[int, int, tuple[int, ...], str]] = []  # dealer, pot, winners, hand

    # -- what the table sees ----------------------------------------------------------------

    @property
    def phase(self) -> str:
        return "over" if self.is_over else self._phase

    def chips(self, seat: int) -> int:
        return int(self.game.options["chips"]) + self.scores[seat]

    @property
    def left(self) -> int:
        """Cards still in the pack this deal."""
        return len(self.game.deck) - len(self.seen)

    def room(self, seat: int) -> int:
        """How many cards ``seat`` may buy now: up to the hand limit, and no more than the pack holds."""
        return max(0, min(int(self.game.options["limit"]) - len(self.hands[seat]), self.left))

    def lowest(self) -> int | None:
        """The seat holding the lowest hand still in the deal (None before every hand has a card)."""
        live = [s for s in range(self.game.num_players) if self.status[s] == IN]
        values = [self.values[s] for s in live]
        if not live or any(v is None for v in values):
            return None
        return live[lowest([v for v in values if v is not None])]

    def give_to(self) -> int | None:
        """The seat the dealer gives the next card to, or None when no card is due."""
        if self._phase == "start":
            return self.to_start[0]
        return self.buyer if self._phase == "draw" else None

    def to_move(self, action: Action) -> Sequence[int] | None:
        if isinstance(action, Buy | Fold) and self._phase == "act":
            return [self.turn] if self.turn is not None else []
        return None

    def _name(self, seat: int) -> str:
        value = self.values[seat]
        return f"{self.game.players[seat]} ({value.name})" if value is not None else self.game.players[seat]

    def prompt(self) -> str:
        names = self.game.players
        if self.is_over:
            return self.result_text()
        if self._phase == "deal":
            return "deal: everyone antes a chip"
        if self._phase == "start":
            return f"deal a card face up to {names[self.to_start[0]]}"
        if self._phase == "act" and self.turn is not None:
            return f"{self._name(self.turn)} is lowest: buy cards or fold"
        if self._phase == "draw" and self.buyer is not None:
            more = self.paid - self.given
            return (f"give {names[self.buyer]} a card ({more} more at most; stop once "
                    f"{names[self.buyer]}'s hand is no longer the lowest)")
        return ""

    # -- actions ----------------------------------------------------------------------------

    def _need(self, action: Action, *phases: str) -> None:
        if self._phase not in phases:
            raise IllegalActionError(f"cannot {action.act} now: {self.prompt()}")

    def _apply(self, action: Action) -> None:
        if isinstance(action, Deal):
            self._deal(action)
        elif isinstance(action, Give):
            self._give(action)
        elif isinstance(action, Buy):
            self._buy(action)
        elif isinstance(action, Fold):
            self._need(action, "act")
            self._leave(action.player, FOLDED)
            self._next()
        elif isinstance(action, End):
            self._need(action, "deal")
            self._finish()

    def _chips(self, seat: int, chips: int, kind: str, label: str) -> None:
        """Move chips between a player and the pot (positive: to the player)."""
        self.peg(seat, chips, kind, [Item(kind, (), chips, label)])

    def _deal(self, action: Deal) -> None:
        self._need(action, "deal")
        n = self.game.num_players
        expected = 0 if self.dealer is None else (self.dealer + 1) % n
        dealer = expected if action.dealer is None else action.dealer
        if not 0 <= dealer < n:
            raise IllegalActionError(f"there is no player {dealer} to deal")
        if self.dealer is not None and dealer != expected:
            raise IllegalActionError(f"it is {self.game.players[expected]}'s deal")
        self.dealer = dealer
        self.hands = [[] for _ in range(n)]
        self.values = [None] * n
        self.status = [IN] * n
        self.seen = set()
        order = [(dealer + 1 + i) % n for i in range(n)]
        self.to_start = order * int(self.game.options["start"])
        for seat in order:
            self.pot += 1
            self._chips(seat, -1, "ante", "ante")
        self._phase = "start"

    def _give(self, action: Give) -> None:
        self._need(action, "start", "draw")
        seat, card = action.to, action.card
        names = self.game.players
        if not 0 <= seat < self.game.num_players:
            raise IllegalActionError(f"there is no player {seat} at this table")
        due = self.give_to()
        assert due is not None
        if seat != due:
            raise IllegalActionError(f"the next card goes to {names[due]}, not {names[seat]}")
        if card in self.seen:
            raise IllegalActionError(f"{card} has already been dealt this deal")
        self.seen.add(card)
        self.hands[seat].append(card)
        self.values[seat] = self.game.value(self.hands[seat])
        if self._phase == "start":
            self.to_start.pop(0)
            if not self.to_start:
                self._next()
            return
        self.given += 1
        if self.lowest() != seat:
            self._next()
        elif self.given == self.paid or self.left == 0:
            self._leave(seat, OUT)  # every card paid for, and still the lowest hand
            self._next()

    def _buy(self, action: Buy) -> None:
        self._need(action, "act")
        seat = action.player
        room = self.room(seat)
        if not 1 <= action.count <= room:
            raise IllegalActionError(f"{self.game.players[seat]} may buy 1 to {room} cards, not {action.count}")
        self.pot += action.count
        self._chips(seat, -action.count, "buy", f"buys {action.count}")
        self.buyer, self.paid, self.given = seat, action.count, 0
        self.turn = None
        self._phase = "draw"

    def _leave(self, seat: int, status: str) -> None:
        self.status[seat] = status
        self.hands[seat] = []  # thrown away; the cards stay out of the pack (``seen``)
        self.values[seat] = None

    def _next(self) -> None:
        """Pass the action to the lowest hand; put out a lowest hand that cannot draw; settle the
        pot once one hand is left, or when the lowest full hand is as good as the best."""
        self.buyer = None
        self.turn = None
        while True:
            live = [s for s in range(self.game.num_players) if self.status[s] == IN]
            if len(live) == 1:
                self._settle(live)
                return
            low = self.lowest()
            assert low is not None
            if self.room(low) > 0:
                self.turn = low
                self._phase = "act"
                return
            low_value = self.values[low]
            assert low_value is not None
            if all(v is not None and v.key == low_value.key for v in (self.values[s] for s in live)):
                self._settle(live)  # identical hands at the end split the pot
                return
            self._leave(low, OUT)

    def _settle(self, winners: list[int]) -> None:
        n = self.game.num_players
        dealer = self.dealer
        assert dealer is not None
        order = sorted(winners, key=lambda s: (s - dealer - 1) % n)
        share, odd = divmod(self.pot, len(order))
        first = self.values[order[0]]
        hand = first.name if first is not None else ""
        for i, seat in enumerate(order):
            chips = share + (1 if i < odd else 0)
            self.status[seat] = WON
            label = "takes the pot" if len(order) == 1 else "splits the pot"
            self._chips(seat, chips, "pot", f"{label} with {hand}" if hand else label)
        self.sheet.append((dealer, self.pot, tuple(order), hand))
        self.pot = 0
        self.deals += 1
        self._phase = "deal"
        wanted = int(self.game.options["deals"])
        if wanted and self.deals >= wanted:
            self._finish()

    def _finish(self) -> None:
        stacks = [self.chips(s) for s in range(self.game.num_players)]
        self.winner = stacks.index(max(stacks))

    # -- the seats table (games.table.SeatsTable): each hand face up in its seat's outlines ------

    def whose_turn(self) -> int | None:
        due = self.give_to()
        return due if due is not None else self.turn

    def zone_owner(self, zone: Zone) -> int | None:
        return zone.seated(self.game.num_players)

    def zone_label(self, zone: Zone) -> str:
        seat = self.zone_owner(zone)
        return f"{self.game.players[seat]}'s hand" if seat is not None else f"the {zone.name}"

    def zone_cards(self, zone: Zone) -> list[str]:
        seat = self.zone_owner(zone)
        return [str(c) for c in self.hands[seat]] if seat is not None else []

    def holds(self, zone: Zone) -> tuple[str, ...]:
        return tuple(self.zone_cards(zone))

    def card_means(self, zone: Zone, card: str) -> list[Action] | None:
        return self.slot_means(zone, len(self.zone_cards(zone)), card)

    def slot_means(self, zone: Zone, slot: int, card: str) -> list[Action] | None:
        """A card face up in a seat's hand is the dealer's give to that seat (any outline of it);
        a card dealt already this deal means nothing (seen again, or a hand thrown away)."""
        seat = self.zone_owner(zone)
        if seat is None:
            raise IllegalActionError("Ricochet Poker's cards lie in the players' hands")
        due = self.give_to()
        if card == BACK:  # a hand turned over as it folds means nothing; a card is given face up
            if due == seat:
                raise IllegalActionError("cards are given face up: turn it over")
            return None
        given = self.game.parse_card(card)
        if given in self.seen:
            return None
        if due is None:
            raise IllegalActionError(f"no card is given now: {self.prompt()}")
        if seat != due:
            raise IllegalActionError(f"the dealer gives to {self.game.players[due]} now")
        return [Give(seat, given)]

    def laid_by(self, action: Action) -> list[tuple[Zone, int, str]]:
        if isinstance(action, Give):
            return [(Zone.row(action.to), len(self.hands[action.to]), str(action.card))]
        return []  # the ante, buys and folds are said

    # -- the view ---------------------------------------------------------------------------

    def _view(self, common: Common, seat: int | None) -> TableView:
        names = self.game.players
        n = self.game.num_players
        rows = []
        for i, (dealer, pot, winners, hand) in enumerate(self.sheet):
            cells = [("won" if s in winners else "") for s in range(n)]
            rows.append((f"{i + 1}. {names[dealer]} deals, pot {pot}: {hand}", *cells))
        common["table"] = ScoreTable(columns=("", *names), rows=tuple(rows),
                                     totals=("Chips", *[str(self.chips(s)) for s in range(n)]))
        common["dealer"] = self.dealer
        common["turn"] = self.turn
        common["result"] = "win" if self.winner is not None else None
        groups = tuple(Group(s, v.name, tuple(str(c) for c in self.hands[s]))
                       for s, v in enumerate(self.values) if v is not None)
        low = self.lowest() if self._phase in ("act", "draw") else None
        return RicochetView(
            **common,
            groups=groups,
            pot=self.pot,
            chips=tuple(self.chips(s) for s in range(n)),
            status=tuple(self.status),
            categories=tuple(v.category if v is not None else None for v in self.values),
            lowest=low,
            give_to=self.give_to(),
            paid=self.paid if self._phase == "draw" else 0,
            given=self.given if self._phase == "draw" else 0,
            room=tuple(self.room(s) if self.status[s] == IN else 0 for s in range(n)),
            left=self.left,
            limit=int(self.game.options["limit"]),
        )


@dataclass(frozen=True, kw_only=True)
class RicochetView(LayoutView):
    """Ricochet Poker's table: each hand still in (a group named by its value), the pot and the
    chips, each seat's standing this deal, the lowest hand, and the card the dealer gives next."""

    style: ClassVar[str] = "layout.ricochet"

    pot: int
    chips: tuple[int, ...]
    status: tuple[str, ...]  # per seat: "in", "folded", "out" (beaten) or "won"
    categories: tuple[str | None, ...]  # per seat: "pair", "two pair", ... while the hand is in
    lowest: int | None  # the seat whose hand is lowest now
    give_to: int | None  # the seat the dealer gives the next card to
    paid: int = 0  # cards the buyer paid for (while the dealer gives them)
    given: int = 0  # of which given so far
    room: tuple[int, ...] = ()  # per seat: how many cards it could buy now
    left: int = 0  # cards still in the pack
    limit: int = 5


__all__ = ["Buy", "Deal", "Fold", "Give", "Ricochet", "RicochetState", "RicochetView", "score_command"]
