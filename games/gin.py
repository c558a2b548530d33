"""Gin Rummy (seed 002; rule card seeds/gin.md): draw from the stock or the discard pile, discard,
knock with ten or less deadwood (or go gin with none), the defender lays off, deadwood decides.

Two play, or three (the dealer sits the hand out; the loser deals the next), or four as two
partnerships playing two hands at once, each against an opponent of the other team. Oklahoma
Gin takes the knock limit from the turned-up card and doubles a deal when that card is a spade.

The companion scores from what is revealed: hands dealt unseen stay unknown until the knock
spreads them (a card taken from the discard pile is known to everyone). Melds are laid as the
players lay them; the best arrangement (:func:`games.ginmelds.best_melds`) tells the knocker how
much less deadwood the hand could have left.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from games.cards import FRENCH_52, Card, split_card_text
from games.engine import Action, Game, Item, Option, ScoreRequest, Spec, State, register
from games.errors import CardError, IllegalActionError, OptionError, RecordError
from games.ginmelds import Melding, best_defence, best_melds, deadwood, meld_kind, order, value
from games.table import PILE, Zone
from games.view import Common, Group, LayoutView, ScoreTable, TableView

HAND = 10
#: with four players, the seat that plays every hand at each of the mat's two tables (the other
#: two seats, 0 and 2, change tables as they change opponents)
TABLE_SEATS = (1, 3)
STOCK_LEFT = 2  # the hand is void when a discard leaves this many cards in the stock

# --------------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class Deal(Action):
    """A hand is dealt: ten cards each and ``card`` turned up. ``dealer`` names the table with four
    players (and the first dealer); ``hands`` by seat, where known (None for a seat not seen)."""

    act: ClassVar[str] = "deal"
    card: Card
    dealer: int | None = None
    hands: tuple[tuple[Card, ...] | None, ...] | None = None


@dataclass(frozen=True)
class Draw(Action):
    """Take the top card of the stock (``card`` when it is known) or of the discard pile."""

    act: ClassVar[str] = "draw"
    player: int
    source: str = "stock"
    card: Card | None = None


@dataclass(frozen=True)
class Pass(Action):
    """Refuse the turned-up card on the first turn."""

    act: ClassVar[str] = "pass"
    player: int


@dataclass(frozen=True)
class Discard(Action):
    act: ClassVar[str] = "discard"
    player: int
    card: Card


@dataclass(frozen=True)
class Knock(Action):
    """Discard ``card`` face down and lay the hand: ``melds``, and the deadwood ``cards`` (which
    may be left out when the hand is known)."""

    act: ClassVar[str] = "knock"
    player: int
    card: Card
    melds: tuple[tuple[Card, ...], ...] = ()
    cards: tuple[Card, ...] | None = None


@dataclass(frozen=True)
class Gin(Action):
    """Knock with every card in ``melds``."""

    act: ClassVar[str] = "gin"
    player: int
    card: Card
    melds: tuple[tuple[Card, ...], ...] = ()


@dataclass(frozen=True)
class Layoff(Action):
    """The defender lays ``cards`` off on the knocker's meld number ``meld`` (from 0)."""

    act: ClassVar[str] = "layoff"
    player: int
    meld: int
    cards: tuple[Card, ...] = ()


@dataclass(frozen=True)
class Spread(Action):
    """The defender lays the rest of the hand: ``melds`` and the deadwood ``cards``. The hand is
    then scored."""

    act: ClassVar[str] = "spread"
    player: int
    melds: tuple[tuple[Card, ...], ...] = ()
    cards: tuple[Card, ...] | None = None


# --------------------------------------------------------------------------------- views


@dataclass(frozen=True)
class GinTable:
    """One hand in play: its two seats (the first is offered the turned-up card first), the
    stock, the discard pile's top, what each holds and the knock once laid."""

    seats: tuple[int, ...]
    dealer: int
    turn: int | None
    step: str  # offer | draw | discard | layoff | done | void
    stock: int
    upcard: str
    discard: str | None
    held: tuple[int, ...]  # cards in each seat's hand, in the order of ``seats``
    taken: tuple[tuple[str, ...], ...]  # cards each took from the discard pile and still holds
    limit: int  # the most deadwood one may knock with
    knocker: int | None = None
    gin: bool = False
    groups: tuple[Group, ...] = ()  # the knocker's melds (with the cards laid off), the defender's
    deadwood: tuple[int | None, ...] = ()  # per seat of ``seats`` once laid
    better: tuple[int | None, ...] = ()  # how much less deadwood the best arrangement would leave
    result: str | None = None  # "Ann knocks: 12 to 3", "Bob undercuts", "void: the stock ran out"


@dataclass(frozen=True, kw_only=True)
class GinView(LayoutView):
    """Gin Rummy's table: the hands in play (two for four players) and the boxes won."""

    style: ClassVar[str] = "layout.gin"

    tables: tuple[GinTable, ...] = ()
    boxes: tuple[int, ...] = ()  # hands won, per seat
    hands_played: int = 0
    stock: int | None = None  # cards left in the stock of the seat's hand (the first hand's for a spectator)


# --------------------------------------------------------------------------------- the game


@register
class GinRummy(Game):
    spec = Spec(
        name="gin",
        title="Gin Rummy",
        players=(2, 3, 4),
        deck="french52",
        table="rummy",
        target=100,
        aliases=("gin rummy", "gin-rummy", "oklahoma", "oklahoma gin"),
        pegged=False,
        options=(
            Option("variant", "standard", "standard: knock with 10 or less; oklahoma: the turned-up card sets the "
                   "limit and a spade doubles", choices=("standard", "oklahoma")),
            Option("target", 0, "points to win (0: 100, 150 for Oklahoma, 125 for four players)", low=0, high=361),
            Option("gin_bonus", 20, "bonus for going gin", low=0, high=100),
            Option("undercut_bonus", 10, "bonus for an undercut", low=0, high=100),
            Option("box_bonus", 20, "points for each hand won, added at the end", low=0, high=100),
            Option("game_bonus", 100, "bonus for reaching the target (doubled for a shutout)", low=0, high=500),
            Option("ace_gin", False, "Oklahoma: an ace turned up allows gin only"),
        ),
        summary="Draw, discard, knock with 10 or less deadwood; gin, undercuts, boxes (Oklahoma option).",
    )
    actions = (Deal, Draw, Pass, Discard, Knock, Gin, Layoff, Spread)

    @property
    def target(self) -> int | None:
        chosen = int(self.options["target"])
        if chosen:
            return chosen
        if self.num_players == 4:
            return 125
        return 150 if self.options["variant"] == "oklahoma" else 100

    def validate(self) -> None:
        if 0 < int(self.options["target"]) < 5:
            raise OptionError("option 'target' is 0 (the variant's) or 5 to 361")

    def sides(self) -> tuple[tuple[int, ...], ...]:
        if self.num_players == 4:
            return ((0, 2), (1, 3))
        return super().sides()

    def parse_card(self, text: str) -> Card:
        card = Card.parse(text)
        if card.is_joker:
            raise CardError(f"{text!r}: Gin Rummy is played without jokers")
        return card

    def _field_value(self, act: str, name: str, hint: Any, value: Any) -> Any:
        if name == "melds":
            if not isinstance(value, list | tuple) or not all(isinstance(m, list | tuple) for m in value):
                raise RecordError(f"{act}.melds is a list of melds (lists of cards), not {value!r}")
            return tuple(tuple(self.parse_card(c) for c in m) for m in value)
        return super()._field_value(act, name, hint, value)

    @classmethod
    def score_command(cls, request: ScoreRequest) -> str:
        """`pegpi score gin CARDS... [--json]`: the melds that leave the least deadwood."""
        if request.starter is not None or request.crib:
            raise OptionError("pegpi score gin takes the cards of a hand only, without --starter or --crib")
        texts = split_card_text(list(request.words))
        if not texts:
            raise CardError("give the cards of a hand, like: pegpi score gin 7D 7S 7H 8H 9H")
        cards = [Card.parse(t) for t in texts]
        best = best_melds(cards)
        if request.as_json:
            return json.dumps({"deadwood": best.deadwood, "melds": [[str(c) for c in m] for m in best.melds]})
        melds = "  ".join(" ".join(map(str, m)) for m in best.melds) or "(none)"
        rest = " ".join(map(str, best.unmatched)) or "(none)"
        return f"melds: {melds}\ndeadwood: {rest} = {best.deadwood}"

    def new_initial_state(self) -> GinState:
        return GinState(self)


def pairings(players: int, round_no: int) -> list[tuple[int, int]]:
    """Who plays whom with four players: partners 0 & 2 against 1 & 3, changing opponents each hand."""
    if round_no % 2 == 0:
        return [(0, 1), (2, 3)]
    return [(0, 3), (2, 1)]


class GinHand:
    """One hand between two seats, from the deal to the score."""

    def __init__(self, seats: tuple[int, int], dealer: int, upcard: Card, limit: int,
                 hands: Mapping[int, Sequence[Card] | None]) -> None:
        self.seats = seats
        self.dealer = dealer
        self.upcard = upcard
        self.limit = limit
        self.stock = len(FRENCH_52) - 2 * HAND - 1
        self.pile: list[Card] = [upcard]
        self.known: dict[int, list[Card] | None] = {s: (list(h) if (h := hands.get(s)) is not None else None)
                                                    for s in seats}
        self.taken: dict[int, list[Card]] = {s: [] for s in seats}
        self.private: dict[int, list[Card]] = {s: [] for s in seats}  # drawn cards told by their holder only
        self.count: dict[int, int] = dict.fromkeys(seats, HAND)
        self.step = "offer"
        self.turn: int = seats[0]
        self.passed: list[int] = []
        self.stock_only = False
        self.took: Card | None = None
        self.knocker: int | None = None
        self.gin = False
        self.melds: list[list[Card]] = []  # the knocker's, growing with the cards laid off
        self.laid: list[list[Card]] = []  # the cards laid off on each
        self.dead: dict[int, list[Card]] = {}
        self.own: list[list[Card]] = []  # the defender's melds
        self.better: dict[int, int] = {}
        self.shown: dict[int, list[Card]] = {}  # every card of a hand once laid
        self.result: str | None = None
        self.winner: int | None = None
        self.points = 0
        self.items: list[Item] = []

    # -- who and what ------------------------------------------------------------------

    def other(self, seat: int) -> int:
        return self.seats[1] if seat == self.seats[0] else self.seats[0]

    @property
    def defender(self) -> int | None:
        return None if self.knocker is None else self.other(self.knocker)

    def to_move(self, action: Action) -> list[int]:
        step = self.step
        if isinstance(action, Pass):
            return [self.turn] if step == "offer" else []
        if isinstance(action, Draw):
            return [self.turn] if step in ("offer", "draw") else []
        if isinstance(action, Discard | Knock | Gin):
            return [self.turn] if step == "discard" else []
        if isinstance(action, Layoff | Spread):
            return [self.defender] if step == "layoff" and self.defender is not None else []
        return []

    def located(self, seat: int) -> set[Card]:
        """Cards pegpi knows are not in ``seat``'s hand (on the pile, melded, or known to be the other's)."""
        out = set(self.pile)
        other = self.other(seat)
        out.update(self.taken[other])
        hand = self.known[other]
        if hand is not None:
            out.update(hand)
        out.update(self.private[other])
        for meld in self.melds:
            out.update(meld)
        return out

    def check_holds(self, seat: int, cards: Sequence[Card], names: Sequence[str]) -> None:
        hand = self.known[seat]
        name = names[seat]
        for card in cards:
            if hand is not None:
                if card not in hand:
                    raise IllegalActionError(f"{name} does not hold {card}")
            elif card in self.located(seat):
                raise IllegalActionError(f"{card} is not in {name}'s hand: it is elsewhere on the table")

    def remove(self, seat: int, card: Card) -> None:
        hand = self.known[seat]
        if hand is not None:
            hand.remove(card)
        for kept in (self.taken[seat], self.private[seat]):
            if card in kept:
                kept.remove(card)
        self.count[seat] -= 1

    # -- the play ----------------------------------------------------------------------

    def draw(self, action: Draw, names: Sequence[str]) -> None:
        seat = action.player
        if action.source == "discard":
            if self.stock_only:
                raise IllegalActionError("both refused the turned-up card: draw from the stock")
            top = self.pile[-1]
            if action.card is not None and action.card != top:
                raise IllegalActionError(f"the top of the discard pile is {top}, not {action.card}")
            self.pile.pop()
            self.taken[seat].append(top)
            hand = self.known[seat]
            if hand is not None:
                hand.append(top)
            self.took = top
        elif action.source == "stock":
            if self.step == "offer":
                raise IllegalActionError(f"{names[seat]} takes the turned-up card or passes first")
            card = action.card
            hand = self.known[seat]
            if hand is not None and card is None:
                raise IllegalActionError(f"{names[seat]}'s hand is known: say which card was drawn")
            if card is not None:
                if card in self.located(seat) or card in (hand or []) or card in self.taken[seat]:
                    raise IllegalActionError(f"{card} cannot come from the stock: it is already placed")
                (hand if hand is not None else self.private[seat]).append(card)
            self.stock -= 1
            self.took = None
        else:
            raise IllegalActionError(f"draw from the 'stock' or the 'discard' pile, not {action.source!r}")
        self.count[seat] += 1
        self.step = "discard"

    def pass_(self, action: Pass) -> None:
        self.passed.append(action.player)
        if len(self.passed) == 1:
            self.turn = self.other(action.player)
        else:
            self.turn = self.seats[0]
            self.step = "draw"
            self.stock_only = True

    def discard(self, action: Discard, names: Sequence[str]) -> None:
        seat = action.player
        self._discard(seat, action.card, names)
        self.pile.append(action.card)
        if self.stock <= STOCK_LEFT:
            self.step = "void"
            self.result = f"void: {names[seat]} discarded with {self.stock} cards left in the stock"
            return
        self.turn = self.other(seat)
        self.step = "draw"
        self.stock_only = False

    def _discard(self, seat: int, card: Card, names: Sequence[str]) -> None:
        if card == self.took:
            raise IllegalActionError(f"{names[seat]} took {card} from the discard pile this turn: "
                                     "discard another card")
        self.check_holds(seat, [card], names)
        self.remove(seat, card)

    def lay(self, seat: int, melds: Sequence[Sequence[Card]], dead: Sequence[Card] | None,
            names: Sequence[str]) -> tuple[list[list[Card]], list[Card]]:
        """Check a laid hand (its melds and deadwood) against what is known of it, and return it;
        the deadwood is the rest of a known hand when not given."""
        name = names[seat]
        for meld in melds:
            if meld_kind(meld) is None:
                raise IllegalActionError(f"{' '.join(map(str, meld))} is no set or run")
        flat = [c for m in melds for c in m]
        hand = self.known[seat]
        if dead is None:  # the rest of a known hand; nothing when the melds hold every card
            if hand is None and len(flat) != self.count[seat]:
                raise IllegalActionError(f"{name}'s hand is not known: give the unmatched cards too")
            dead = [c for c in hand if c not in flat] if hand is not None else []
        every = flat + list(dead)
        if len(set(every)) != len(every):
            raise IllegalActionError("a card is laid twice")
        if hand is not None:
            if sorted(every) != sorted(hand):
                missing = [str(c) for c in hand if c not in every]
                raise IllegalActionError(f"{name} holds {' '.join(map(str, order(hand)))}"
                                         + (f": lay {' '.join(missing)} too" if missing else ""))
        else:
            if len(every) != self.count[seat]:
                raise IllegalActionError(f"{name} holds {self.count[seat]} cards, not {len(every)}")
            self.check_holds(seat, every, names)
            missing = [str(c) for c in self.taken[seat] + self.private[seat] if c not in every]
            if missing:
                raise IllegalActionError(f"{name} holds {' '.join(missing)}: lay it too")
        return [list(order(m)) for m in melds], list(order(dead))

    def knock(self, seat: int, card: Card, melds: Sequence[Sequence[Card]], dead: Sequence[Card] | None,
              gin: bool, names: Sequence[str], ace_gin: bool) -> None:
        self._discard(seat, card, names)
        if gin:
            flat = [c for m in melds for c in m]
            hand = self.known[seat]
            left = [c for c in hand if c not in flat] if hand is not None else []
            if left or len(flat) != self.count[seat]:
                shown = " ".join(map(str, order(left))) if left else f"{self.count[seat] - len(flat)} cards"
                raise IllegalActionError(f"gin lays every card in melds: {shown} left")
        laid, rest = self.lay(seat, melds, dead, names)
        count = deadwood(rest)
        limit = 0 if ace_gin and self.upcard.rank == 1 else self.limit
        if gin and rest:
            raise IllegalActionError(f"gin lays every card in melds: {' '.join(map(str, rest))} left")
        if count > limit:
            best = best_melds([c for m in laid for c in m] + rest).deadwood
            hint = f" (laid best, {best})" if best < count else ""
            raise IllegalActionError(f"{names[seat]} has {count} deadwood{hint}: the limit is {limit}")
        self.pile.append(card)
        self.knocker = seat
        self.gin = not rest
        self.melds = laid
        self.laid = [[] for _ in laid]
        self.dead[seat] = rest
        self.shown[seat] = [c for m in laid for c in m] + rest
        best = best_melds(self.shown[seat]).deadwood
        self.better[seat] = count - best
        self.step = "layoff"
        self.turn = self.other(seat)

    def layoff(self, action: Layoff, names: Sequence[str]) -> None:
        if self.gin:
            raise IllegalActionError("nothing is laid off on gin")
        if not 0 <= action.meld < len(self.melds):
            raise IllegalActionError(f"the knocker laid {len(self.melds)} melds: number 0 to {len(self.melds) - 1}")
        if not action.cards:
            raise IllegalActionError("say which cards are laid off")
        grown = self.melds[action.meld] + list(action.cards)
        if meld_kind(grown) is None:
            raise IllegalActionError(f"{' '.join(map(str, action.cards))} do not go on "
                                     f"{' '.join(map(str, self.melds[action.meld]))}")
        self.check_holds(action.player, action.cards, names)
        for card in action.cards:
            self.remove(action.player, card)
        self.melds[action.meld] = list(order(grown))
        self.laid[action.meld].extend(action.cards)

    def spread(self, action: Spread, names: Sequence[str], options: Mapping[str, Any]) -> None:
        seat = action.player
        extra = [c for cards in self.laid for c in cards]
        own, rest = self.lay(seat, action.melds, action.cards, names)
        self.own = own
        self.dead[seat] = rest
        self.shown[seat] = [c for m in own for c in m] + rest + extra
        knocker = self.knocker
        assert knocker is not None
        knocker_melds = [[c for c in m if c not in extra] for m in self.melds]
        self.better[seat] = deadwood(rest) - best_defence(self.shown[seat], knocker_melds).deadwood
        self.step = "done"
        self.settle(options, names)

    def settle(self, options: Mapping[str, Any], names: Sequence[str]) -> None:
        knocker = self.knocker
        assert knocker is not None
        defender = self.other(knocker)
        k = deadwood(self.dead[knocker])
        d = deadwood(self.dead[defender])
        items: list[Item] = []
        if self.gin:
            self.winner = knocker
            items.append(Item("gin", (), int(options["gin_bonus"]), "gin"))
            if d:
                items.append(Item("deadwood", (), d, "deadwood"))
            self.result = f"{names[knocker]} goes gin against {d}"
        elif k < d:
            self.winner = knocker
            items.append(Item("knock", (), d - k, f"knock {d} to {k}"))
            self.result = f"{names[knocker]} knocks: {k} against {d}"
        else:
            self.winner = defender
            if d < k:
                items.append(Item("undercut", (), k - d, f"undercut {k} to {d}"))
            items.append(Item("undercut bonus", (), int(options["undercut_bonus"]), "undercut bonus"))
            self.result = f"{names[defender]} undercuts {names[knocker]}: {d} against {k}"
        if options["variant"] == "oklahoma" and self.upcard.suit == "S":
            items.append(Item("spade", (), sum(i.points for i in items), "spade doubles"))
        self.items = [i for i in items if i.points]
        self.points = sum(i.points for i in self.items)
        if self.better.get(knocker):
            self.result += f"; {names[knocker]} could have had {self.better[knocker]} less"

    # -- the view ----------------------------------------------------------------------

    def view(self, seat: int | None, names: Sequence[str]) -> GinTable:
        groups: list[Group] = []
        knocker = self.knocker
        if knocker is not None:
            for meld, laid in zip(self.melds, self.laid, strict=True):
                kind = meld_kind(meld) or "meld"
                groups.append(Group(knocker, kind + (" +" + " ".join(map(str, laid)) if laid else ""),
                                    tuple(map(str, meld)), sum(map(value, meld))))
            groups.append(Group(knocker, "deadwood", tuple(map(str, self.dead[knocker])),
                                deadwood(self.dead[knocker])))
            defender = self.other(knocker)
            if defender in self.dead:
                for meld in self.own:
                    groups.append(Group(defender, meld_kind(meld) or "meld", tuple(map(str, meld)),
                                        sum(map(value, meld))))
                groups.append(Group(defender, "deadwood", tuple(map(str, self.dead[defender])),
                                    deadwood(self.dead[defender])))
        return GinTable(
            seats=self.seats, dealer=self.dealer,
            turn=None if self.step in ("done", "void") else (self.defender if self.step == "layoff" else self.turn),
            step=self.step, stock=self.stock, upcard=str(self.upcard),
            discard=str(self.pile[-1]) if self.pile else None,
            held=tuple(self.count[s] for s in self.seats),
            taken=tuple(tuple(map(str, self.taken[s])) for s in self.seats),
            limit=self.limit, knocker=knocker, gin=self.gin, groups=tuple(groups),
            deadwood=tuple(deadwood(self.dead[s]) if s in self.dead else None for s in self.seats),
            better=tuple(self.better.get(s) for s in self.seats),
            result=self.result,
        )

    def hand_of(self, seat: int) -> tuple[str, ...] | None:
        hand = self.known.get(seat)
        if seat in self.shown:
            return tuple(map(str, order(self.shown[seat])))
        return None if hand is None else tuple(map(str, order(hand)))


class GinState(State):
    game: GinRummy

    def __init__(self, game: GinRummy) -> None:
        super().__init__(game)
        n = game.num_players
        self.hands: list[GinHand] = []  # this round's (two with four players)
        self.round = 0  # hands (rounds) scored
        self.next_dealer: int | None = None
        self.boxes = [0] * n
        self.reached: int | None = None  # the side that reached the target
        self.settled = False  # the hands on the table are scored: the next deal starts a round
        self.sheet: list[tuple[str, ...]] = []

    # -- where the game is ---------------------------------------------------------------

    @property
    def tables_due(self) -> int:
        """Hands still to be dealt this round."""
        want = 2 if self.game.num_players == 4 else 1
        if self.settled:
            return want
        return want - len([h for h in self.hands if h.step != "void"])

    @property
    def phase(self) -> str:
        if self.is_over:
            return "over"
        if self.tables_due:
            return "deal"
        steps = {h.step for h in self.hands if h.step not in ("done",)}
        if "layoff" in steps:
            return "layoff"
        return "play"

    def hand_of_seat(self, seat: int) -> GinHand | None:
        for hand in self.hands:
            if seat in hand.seats and hand.step != "void" and not self.settled:
                return hand
        return None

    def to_move(self, action: Action) -> Sequence[int] | None:
        if isinstance(action, Deal):
            return None
        out: list[int] = []
        for hand in self.hands:
            if hand.step != "void":
                out.extend(hand.to_move(action))
        return out

    def prompt(self) -> str:
        names = self.game.players
        if self.is_over:
            return self.result_text()
        if self.tables_due:
            if self.game.num_players == 4:
                return "deal a hand at each table"
            dealer = self.next_dealer
            return "deal ten cards each and turn one up" if dealer is None else f"{names[dealer]} deals"
        parts = []
        for hand in self.hands:
            if hand.step == "offer":
                parts.append(f"{names[hand.turn]} takes the {hand.upcard} or passes")
            elif hand.step == "draw":
                parts.append(f"{names[hand.turn]} draws")
            elif hand.step == "discard":
                parts.append(f"{names[hand.turn]} discards or knocks")
            elif hand.step == "layoff":
                defender = hand.defender
                assert defender is not None
                parts.append(f"{names[defender]} lays off and spreads" if not hand.gin else f"{names[defender]} spreads")
        return "; ".join(parts)

    # -- actions --------------------------------------------------------------------------

    def _apply(self, action: Action) -> None:
        names = self.game.players
        if isinstance(action, Deal):
            self._deal(action)
            return
        assert isinstance(action, Draw | Pass | Discard | Knock | Gin | Layoff | Spread)
        player = action.player
        hand = self.hand_of_seat(player)
        if hand is None or self.tables_due:
            raise IllegalActionError(f"{names[player]} is not in a hand now: {self.prompt()}")
        options = self.game.options
        if isinstance(action, Draw):
            hand.draw(action, names)
        elif isinstance(action, Pass):
            hand.pass_(action)
        elif isinstance(action, Discard):
            hand.discard(action, names)
        elif isinstance(action, Knock | Gin):
            dead = action.cards if isinstance(action, Knock) else None
            hand.knock(player, action.card, action.melds, dead, isinstance(action, Gin), names,
                       bool(options["ace_gin"]) and options["variant"] == "oklahoma")
        elif isinstance(action, Layoff):
            hand.layoff(action, names)
        elif isinstance(action, Spread):
            hand.spread(action, names, options)
        self._after(hand)

    def _deal(self, action: Deal) -> None:
        names = self.game.players
        n = self.game.num_players
        if not self.tables_due:
            raise IllegalActionError(f"the hand is in play: {self.prompt()}")
        if n == 4:
            if action.dealer is None:
                raise IllegalActionError("with four players, say who deals (it names the table)")
            dealt = [set(h.seats) for h in self.hands if h.step != "void" and not self.settled]
            pairs = [p for p in pairings(n, self.round) if set(p) not in dealt]
            pair = next((p for p in pairs if action.dealer in p), None)
            if pair is None:
                raise IllegalActionError(f"{names[action.dealer]}'s table is already dealt")
            dealer = action.dealer
            seats = (pair[0] if pair[1] == dealer else pair[1], dealer)
        else:
            chosen = action.dealer if action.dealer is not None else self.next_dealer
            if chosen is None:
                raise IllegalActionError("say who deals first (the lower card cut deals)")
            dealer = chosen
            if not 0 <= dealer < n:
                raise IllegalActionError(f"there is no player {dealer} to deal")
            if self.next_dealer is not None and dealer != self.next_dealer:
                raise IllegalActionError(f"it is {names[self.next_dealer]}'s deal")
            if n == 3:
                seats = ((dealer + 1) % 3, (dealer + 2) % 3)
            else:
                seats = ((dealer + 1) % 2, dealer)
        given: dict[int, Sequence[Card] | None] = {}
        if action.hands is not None:
            if len(action.hands) != n:
                raise IllegalActionError(f"give a hand (or null) for each of the {n} seats")
            for seat, cards in enumerate(action.hands):
                if cards is None:
                    continue
                if seat not in seats:
                    raise IllegalActionError(f"{names[seat]} is not dealt a hand at this table")
                if len(cards) != HAND:
                    raise IllegalActionError(f"{names[seat]} is dealt {HAND} cards, not {len(cards)}")
                given[seat] = cards
            flat = [c for h in given.values() if h is not None for c in h] + [action.card]
            if len(set(flat)) != len(flat):
                raise IllegalActionError("a card is dealt twice (or is also the turned-up card)")
        limit = 10
        if self.game.options["variant"] == "oklahoma":
            limit = value(action.card)
        if self.settled:
            self.hands, self.settled = [], False
        self.hands = [h for h in self.hands if h.step != "void" and h.seats != seats]
        self.hands.append(GinHand(seats, dealer, action.card, limit, given))
        self.hands.sort(key=lambda h: min(h.seats))
        if n != 4:
            self.next_dealer = dealer

    def _after(self, hand: GinHand) -> None:
        """Score what is finished: a hand (two or three players) or both hands (four)."""
        names = self.game.players
        if hand.step == "void":
            self.sheet.append((f"{len(self.sheet) + 1}.", "void", *("" for _ in names)))
            return
        if any(h.step != "done" for h in self.hands) or self.tables_due:
            return
        n = self.game.num_players
        for h in self.hands:
            assert h.winner is not None
            self.boxes[h.winner] += 1
        if n == 4:
            self._score_teams()
        else:
            winner = hand.winner
            assert winner is not None
            self.peg(winner, hand.points, "hand", hand.items)
            row = [""] * n
            row[winner] = str(hand.points)
            self.sheet.append((f"{len(self.sheet) + 1}.", hand.result or "", *row))
            self.next_dealer = hand.other(winner)
        self.round += 1
        self.settled = True
        if self.reached is not None:
            self._game_over()

    def _score_teams(self) -> None:
        per_side = [0, 0]
        for h in self.hands:
            assert h.winner is not None
            per_side[self.side_of(h.winner)] += h.points
        won = {self.side_of(h.winner) for h in self.hands if h.winner is not None}
        results = "; ".join(h.result or "" for h in self.hands)
        row = ["", "", "", ""]
        if len(won) == 1:
            side = won.pop()
            items = [Item("hands", (), per_side[side], "both hands")]
            self.peg(None, per_side[side], "round", items, side=side)
            row[self.game.sides()[side][0]] = str(per_side[side])
        elif per_side[0] != per_side[1]:
            side = 0 if per_side[0] > per_side[1] else 1
            diff = abs(per_side[0] - per_side[1])
            self.peg(None, diff, "round", [Item("difference", (), diff, "difference")], side=side)
            row[self.game.sides()[side][0]] = str(diff)
        self.sheet.append((f"{len(self.sheet) + 1}.", results, *row))

    def on_target(self, side: int) -> None:
        if self.reached is None:
            self.reached = side  # the bonuses are added once the hand is scored

    def _game_over(self) -> None:
        side = self.reached
        assert side is not None
        if self.game.num_players != 4:
            seat = self.game.sides()[side][0]
            bonus = int(self.game.options["game_bonus"])
            shutout = all(self.scores[s] == 0 for s in range(len(self.scores)) if s != side)
            items = [Item("game", (), bonus, "game")]
            if shutout:
                items.append(Item("shutout", (), bonus, "shutout"))
            self.peg(seat, sum(i.points for i in items), "game", items)
            box = int(self.game.options["box_bonus"])
            for s, won in enumerate(self.boxes):
                if won and box:
                    self.peg(s, won * box, "boxes", [Item("boxes", (), won * box, f"{won} boxes")])
        self.winner = side

    # -- the rummy table (games.table.RummyTable) --------------------------------------------
    # Two or three players use one table: a stock, a pile and a spread zone per seat. Four play
    # two hands at once on a mat with two tables; each seat keeps its spread zone, and plays at
    # the table of the seat it faces this hand: seats 1 and 3 keep theirs (TABLE_SEATS).

    def _seated(self) -> int:
        """The round whose hands lie on the mat (the one just scored until the next deal)."""
        return self.round - 1 if self.settled else self.round

    def _table_of(self, zone: Zone) -> int:
        """The table (0, or 1 on a four-hand mat) where ``zone`` is, or where its seat plays."""
        if self.game.num_players != 4:
            return 0
        if zone.kind != "seat" or zone.seat is None:
            return zone.index
        pair = next(p for p in pairings(4, self._seated()) if zone.seat in p)
        return next(t for t, seat in enumerate(TABLE_SEATS) if seat in pair)

    def _at(self, zone: Zone) -> GinHand | None:
        """The hand played at ``zone``'s table (None before its first deal)."""
        if not self.hands:
            return None
        if self.game.num_players != 4:
            return self.hands[-1]
        seat = TABLE_SEATS[self._table_of(zone)]
        return next((h for h in self.hands if seat in h.seats), None)

    def _due(self, hand: GinHand | None) -> bool:
        """A deal is due at the table of ``hand`` (its hand over and scored, void, or not dealt)."""
        return hand is None or self.settled or hand.step == "void"

    def whose_turn(self) -> int | None:
        if self.game.num_players == 4:
            return None  # two hands at once: ask a table (turn_at)
        return self.turn_at(PILE)

    def turn_at(self, zone: Zone) -> int | None:
        hand = self._at(zone)
        if self._due(hand) or hand is None or hand.step == "done":
            return None
        return hand.defender if hand.step == "layoff" else hand.turn

    def pile_of(self, zone: Zone) -> Zone:
        return Zone("pile", index=self._table_of(zone))

    def zone_owner(self, zone: Zone) -> int | None:
        return zone.seat if zone.kind == "seat" else None

    def zone_label(self, zone: Zone) -> str:
        names = self.game.players
        if zone.kind == "seat" and zone.seat is not None and zone.seat < len(names):
            return f"{names[zone.seat]}'s spread"
        label = {"pile": "the discard pile", "stock": "the stock"}.get(zone.kind, zone.name)
        if self.game.num_players == 4 and zone.kind in ("pile", "stock") and zone.index < len(TABLE_SEATS):
            return f"{label} at {names[TABLE_SEATS[zone.index]]}'s table"
        return label

    def zone_cards(self, zone: Zone) -> list[str]:
        hand = self._at(zone)
        if hand is None:
            return []
        if zone.kind == "pile":
            return [str(c) for c in hand.pile]
        if zone.kind == "seat" and zone.seat is not None:
            return [str(c) for c in hand.shown.get(zone.seat, [])]
        return []

    def lies_face_down(self, zone: Zone) -> bool:
        return zone.kind == "stock"

    def _unseen(self, hand: GinHand) -> tuple[int, list[Action]]:
        """Who discards next, and the moves before it the camera cannot see: the refused upcard
        (both pass, the first seat then draws) and a draw from the stock."""
        if hand.step == "offer":
            passes: list[Action] = [Pass(s) for s in (hand.turn, hand.other(hand.turn))]
            passes = passes[:2 - len(hand.passed)]
            first = hand.seats[0]
            return first, [*passes, Draw(first)]
        if hand.step == "draw":
            return hand.turn, [Draw(hand.turn)]
        return hand.turn, []

    def card_means(self, zone: Zone, card: str) -> list[Action] | None:
        """A card laid on a pile is the discard of the player to move at its table (or, while a
        deal is due there, the upcard of the next deal); the card under the top seen again is the
        top taken (a draw from the pile); a card laid in a spread zone belongs there at a knock."""
        names = self.game.players
        laid = self.game.parse_card(card)
        hand = self._at(zone)
        if zone.kind == "stock":
            return None
        if zone.kind == "pile":
            if self._due(hand):
                if hand is not None and not self.settled and hand.pile and hand.pile[-1] == laid:
                    return None
                return [Deal(laid)]  # with four, the engine asks who deals (it names the table)
            assert hand is not None
            if hand.pile and hand.pile[-1] == laid:
                return None
            if len(hand.pile) > 1 and hand.pile[-2] == laid:
                return self.lifted(zone, str(hand.pile[-1]))
            if hand.step == "done":
                return None
            if hand.step == "layoff":
                defender = hand.defender
                assert defender is not None
                raise IllegalActionError(f"the hand is knocked: {names[defender]} lays the hand in the spread zone")
            seat, before = self._unseen(hand)
            other = hand.other(seat)
            if laid in hand.taken[other] or laid in (hand.known[other] or []) or laid in hand.private[other]:
                raise IllegalActionError(f"it is {names[seat]}'s turn to discard")
            return [*before, Discard(seat, laid)]
        if zone.kind == "seat" and zone.seat is not None:
            if hand is None or self._due(hand) or hand.step == "done":
                return None
            if laid in hand.shown.get(zone.seat, []):
                return None
            if hand.step == "layoff":
                if zone.seat in hand.seats:
                    return []  # the defender's hand and layoffs (or a layoff laid by the knocker's melds)
            elif zone.seat == self._unseen(hand)[0]:
                return []  # a knock being laid
            mover = self.turn_at(zone)
            who = names[mover] if mover is not None else "nobody"
            raise IllegalActionError(f"it is {who}'s turn: {names[zone.seat]} lays the hand only at a knock")
        return None

    def lifted(self, zone: Zone, card: str) -> list[Action] | None:
        hand = self._at(zone)
        if zone.kind != "pile" or hand is None or self._due(hand) or hand.step not in ("offer", "draw"):
            return None
        if not hand.pile or str(hand.pile[-1]) != card:
            return None
        return [Draw(hand.turn, "discard")]

    def knocks_with(self, seat: int, faces: Sequence[str], card: str) -> list[Action] | None:
        hand = self._at(Zone.row(seat))
        if hand is None or self._due(hand) or hand.step not in ("offer", "draw", "discard"):
            return None
        mover, before = self._unseen(hand)
        if seat != mover:
            return None
        cards = [self.game.parse_card(f) for f in faces]
        keep = hand.count[seat] - (1 if hand.step == "discard" else 0)
        if len(cards) < keep:
            return None
        if len(cards) > keep:
            raise IllegalActionError(f"{self.game.players[seat]} keeps {keep} cards at a knock, not {len(cards)}")
        best = best_melds(cards)
        melds = tuple(tuple(m) for m in best.melds)
        laid = self.game.parse_card(card)
        knock: Action = (Gin(seat, laid, melds) if not best.unmatched
                         else Knock(seat, laid, melds, tuple(best.unmatched)))
        return [*before, knock]

    def spread_from(self, seat: int, faces: Sequence[str]) -> list[Action] | None:
        hand = self._at(Zone.row(seat))
        if hand is None or hand.step != "layoff" or seat != hand.defender:
            return None
        cards = [self.game.parse_card(f) for f in faces]
        if len(cards) < hand.count[seat]:
            return None
        if len(cards) > hand.count[seat]:
            raise IllegalActionError(f"{self.game.players[seat]} holds {hand.count[seat]} cards, not {len(cards)}")
        plan: Melding = best_melds(cards) if hand.gin else best_defence(cards, hand.melds)
        out: list[Action] = [Layoff(seat, index, tuple(laid)) for index, laid in plan.layoffs]
        out.append(Spread(seat, tuple(tuple(m) for m in plan.melds), tuple(plan.unmatched)))
        return out

    # -- views ------------------------------------------------------------------------------

    def _view(self, common: Common, seat: int | None) -> TableView:
        names = self.game.players
        mine = self.hand_of_seat(seat) if seat is not None else None
        live = [h for h in self.hands if h.step != "void"] or self.hands
        shown = mine or (live[0] if live else None)
        tables = tuple(h.view(seat, names) for h in live)
        common["table"] = ScoreTable(columns=("", "hand", *names), rows=tuple(self.sheet),
                                     totals=("Total", "", *[str(self.scores[self.side_of(s)]) for s in range(len(names))]))
        common["dealer"] = shown.dealer if shown is not None else self.next_dealer
        table = shown.view(seat, names) if shown is not None else None
        common["turn"] = table.turn if table is not None and not self.settled else None
        common["result"] = "win" if self.winner is not None else None
        if seat is not None and 0 <= seat < len(names):
            hand = next((h for h in live if seat in h.seats), None)
            common["hand"] = hand.hand_of(seat) if hand is not None else None
        deadwood_by_seat: list[int | None] = [None] * len(names)
        for t in tables:
            for s, d in zip(t.seats, t.deadwood, strict=True):
                deadwood_by_seat[s] = d
        return GinView(
            **common,
            groups=table.groups if table is not None else (),
            deadwood=tuple(deadwood_by_seat),
            discard=table.discard if table is not None else None,
            tables=tables,
            boxes=tuple(self.boxes),
            hands_played=self.round,
            stock=table.stock if table is not None else None,
        )


__all__ = ["Deal", "Discard", "Draw", "Gin", "GinHand", "GinRummy", "GinState", "GinTable", "GinView", "Knock",
           "Layoff", "Pass", "Spread", "pairings"]
