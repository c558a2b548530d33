"""Skull, played with cards (seed 002, "Skull"; rule card seeds/skull.md).

Each player owns four cards: three numbered cards (roses: ace to ten) and a face card (the skull:
jack, queen or king). Cards go face down onto each player's mat; a challenge opens the bidding on
how many cards the bidder will turn without meeting a skull; the highest bidder turns their own
mat first, then the top cards of other mats. A skull ends the bet and costs the challenger a card
for good; turning as many roses as bid wins the bet, and a second won bet wins the game.

The engine counts the cards on each mat. What a face-down card is stays unknown unless its owner
enters it on their own phone (``lay`` with ``card``); no other seat's view ever shows it. A card
turned up is seen by everyone and entered then.

>>> from games import new_game
>>> s = new_game("skull", ["Ann", "Bob", "Cy"]).new_initial_state()
>>> for seat in (0, 1, 2):
...     s = s.apply_json({"act": "lay", "player": seat})
>>> s = s.apply_json({"act": "challenge", "player": 0, "count": 2})
>>> s.prompt()
'Bob: raise the bid of 2 or pass'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from games.cards import Card
from games.engine import Action, Game, Item, Spec, State, register
from games.errors import CardError, IllegalActionError
from games.table import BACK, Zone
from games.view import Common, Group, LayoutView, TableView

CARDS_EACH = 4


def is_skull(card: Card) -> bool:
    """A face card (jack, queen, king) is a skull; a numbered card (ace to ten) is a rose."""
    return card.rank >= 11


@dataclass(frozen=True)
class Lay(Action):
    """A card laid face down on the player's own mat; ``card`` only from the player's own phone."""

    act: ClassVar[str] = "lay"
    player: int
    card: Card | None = None


@dataclass(frozen=True)
class Challenge(Action):
    """The player stops placing and bids to turn ``count`` cards."""

    act: ClassVar[str] = "challenge"
    player: int
    count: int


@dataclass(frozen=True)
class Bid(Action):
    """A higher bid."""

    act: ClassVar[str] = "bid"
    player: int
    count: int


@dataclass(frozen=True)
class Pass(Action):
    """The player drops out of the bidding (pushing their mat in)."""

    act: ClassVar[str] = "pass"
    player: int


@dataclass(frozen=True)
class Flip(Action):
    """The challenger turns up the top face-down card of ``mat`` (a seat); ``card`` is what it
    is, needed unless its owner entered it when placing it."""

    act: ClassVar[str] = "flip"
    player: int
    mat: int
    card: Card | None = None


@dataclass(frozen=True)
class Lose(Action):
    """The challenger (``player``) loses a card for good, picked at random by the owner of the
    skull turned up, or by the challenger who turned their own. ``card`` only from the
    challenger's own phone: nobody else sees it."""

    act: ClassVar[str] = "lose"
    player: int
    card: Card | None = None


@dataclass(frozen=True)
class First(Action):
    """A challenger eliminated by their own skull names who starts the next round."""

    act: ClassVar[str] = "first"
    player: int
    seat: int


@register
class Skull(Game):
    spec = Spec(
        name="skull",
        title="Skull",
        players=(3, 4, 5, 6),
        deck="french52",
        table="seats",
        target=2,
        aliases=("skull and roses", "skull & roses"),
        pegged=False,
        summary="Cards face down, bid on roses; a skull costs a card, two won bets win.",
    )
    actions = (Lay, Challenge, Bid, Pass, Flip, Lose, First)

    def parse_card(self, text: str) -> Card:
        card = Card.parse(text)
        if card.is_joker:
            raise CardError(f"{text!r}: Skull is played without jokers")
        return card

    def new_initial_state(self) -> SkullState:
        return SkullState(self)


class SkullState(State):
    game: Skull

    def __init__(self, game: Skull) -> None:
        super().__init__(game)
        n = game.num_players
        self.held = [CARDS_EACH] * n  # cards each seat still owns (in hand and on the mat)
        self.known: list[set[Card]] = [set() for _ in range(n)]  # cards seen or entered as a seat's
        self.lost: list[list[Card | None]] = [[] for _ in range(n)]
        self.mats: list[list[Card | None]] = [[] for _ in range(n)]  # bottom first
        self.flipped: list[list[Card]] = [[] for _ in range(n)]  # turned up this round, top first
        self._phase = "open"
        self.first = 0  # who acts first once every mat has its opening card
        self.rounds = 1
        self.turn: int | None = None
        self.bid = 0
        self.bidder: int | None = None
        self.passed: set[int] = set()
        self.skull_owner: int | None = None
        self.chooser: int | None = None

    # -- what the table sees ----------------------------------------------------------------

    @property
    def phase(self) -> str:
        return "over" if self.is_over else self._phase

    def active(self) -> list[int]:
        return [s for s in range(self.game.num_players) if self.held[s] > 0]

    def in_hand(self, seat: int) -> int:
        return self.held[seat] - len(self.mats[seat])

    @property
    def on_mats(self) -> int:
        return sum(len(m) for m in self.mats)

    @property
    def roses(self) -> int:
        """Roses turned up toward the bid this round."""
        return sum(1 for cards in self.flipped for c in cards if not is_skull(c))

    def to_move(self, action: Action) -> Sequence[int] | None:
        phase = self._phase
        if isinstance(action, Lay) and phase == "open":
            return [s for s in self.active() if not self.mats[s]]
        if (isinstance(action, Lay | Challenge) and phase == "lay") or (
                isinstance(action, Bid | Pass) and phase == "bid"):
            return [self.turn] if self.turn is not None else []
        if isinstance(action, Flip) and phase == "reveal" or isinstance(action, First) and phase == "choose":
            return [self.bidder] if self.bidder is not None else []
        if isinstance(action, Lose) and phase == "lose":
            return [self.bidder] if self.bidder is not None else []
        return None

    def prompt(self) -> str:
        names = self.game.players
        if self.is_over:
            return self.result_text()
        if self._phase == "open":
            waiting = [names[s] for s in self.active() if not self.mats[s]]
            return "each player lays a card face down: " + ", ".join(waiting)
        if self._phase == "lay" and self.turn is not None:
            if self.in_hand(self.turn) == 0:
                return f"{names[self.turn]} has no card left in hand: challenge"
            return f"{names[self.turn]}: lay a card or challenge"
        if self._phase == "bid" and self.turn is not None:
            return f"{names[self.turn]}: raise the bid of {self.bid} or pass"
        if self._phase == "reveal" and self.bidder is not None:
            where = "their own mat" if self._own_left() else "the top card of another mat"
            return f"{names[self.bidder]} turns {self.bid - self.roses} more: {where}"
        if self._phase == "lose" and self.chooser is not None and self.bidder is not None:
            if self.chooser == self.bidder:
                return f"{names[self.bidder]} met their own skull: they choose a card to lose"
            return f"{names[self.chooser]} picks one of {names[self.bidder]}'s cards at random: it is lost"
        if self._phase == "choose" and self.bidder is not None:
            return f"{names[self.bidder]} names who starts the next round"
        return ""

    def waiting_for(self) -> int | None:
        """The seat the table waits for: to lay or bid, to turn cards, to pick the challenger's
        lost card (the skull's owner), to name the next first player; None while the opening
        cards are laid (anyone may)."""
        if self._phase in ("lay", "bid"):
            return self.turn
        if self._phase in ("reveal", "choose"):
            return self.bidder
        return self.chooser if self._phase == "lose" else None

    def _own_left(self) -> bool:
        c = self.bidder
        return c is not None and len(self.flipped[c]) < len(self.mats[c])

    # -- actions ----------------------------------------------------------------------------

    def _need(self, action: Action, *phases: str) -> None:
        if self._phase not in phases:
            raise IllegalActionError(f"cannot {action.act} now: {self.prompt()}")

    def _apply(self, action: Action) -> None:
        if isinstance(action, Lay):
            self._lay(action)
        elif isinstance(action, Challenge):
            self._need(action, "lay")
            self._raise(action.player, action.count)
        elif isinstance(action, Bid):
            self._need(action, "bid")
            self._raise(action.player, action.count)
        elif isinstance(action, Pass):
            self._need(action, "bid")
            self.passed.add(action.player)
            self._next_bidder(action.player)
        elif isinstance(action, Flip):
            self._flip(action)
        elif isinstance(action, Lose):
            self._lose(action)
        elif isinstance(action, First):
            self._need(action, "choose")
            if action.seat not in self.active():
                raise IllegalActionError(f"{self.game.players[action.seat] if 0 <= action.seat < len(self.held) else action.seat}"
                                         " is not in the game")
            self._new_round(action.seat)

    def _own(self, seat: int, card: Card) -> None:
        """Take ``card`` as one of ``seat``'s four: refused when it cannot be."""
        names = self.game.players
        for other, cards in enumerate(self.known):
            if other != seat and card in cards:
                raise IllegalActionError(f"{card} is {names[other]}'s card")
        if card in self.known[seat]:
            return
        cards = self.known[seat] | {card}
        skulls = sum(1 for c in cards if is_skull(c))
        if skulls > 1:
            raise IllegalActionError(f"{names[seat]} has one skull (face card) only")
        if len(cards) - skulls > CARDS_EACH - 1:
            raise IllegalActionError(f"{names[seat]} has three roses (numbered cards) only")
        self.known[seat] = cards

    def _lay(self, action: Lay) -> None:
        self._need(action, "open", "lay")
        seat, card = action.player, action.card
        name = self.game.players[seat]
        if self.in_hand(seat) == 0:
            raise IllegalActionError(f"{name} has no card left in hand: challenge")
        if card is not None:
            if card in self.mats[seat]:
                raise IllegalActionError(f"{card} is already on {name}'s mat")
            if card in self.lost[seat]:
                raise IllegalActionError(f"{name} lost {card}")
            self._own(seat, card)
        self.mats[seat].append(card)
        if self._phase == "open":
            if all(self.mats[s] for s in self.active()):
                self._phase = "lay"
                self.turn = self.first
            return
        self.turn = self._after(seat)

    def _after(self, seat: int, skip: set[int] | None = None) -> int:
        """The next seat clockwise still in the game (and not in ``skip``)."""
        n = self.game.num_players
        for step in range(1, n + 1):
            other = (seat + step) % n
            if self.held[other] > 0 and other not in (skip or set()):
                return other
        return seat

    def _raise(self, seat: int, count: int) -> None:
        total = self.on_mats
        if not self.bid < count <= total:
            low = self.bid + 1
            raise IllegalActionError(f"a bid is {low} to {total} cards (the cards on the mats), not {count}"
                                     if low <= total else f"no bid can go above {self.bid}")
        self.bid = count
        self.bidder = seat
        if self._phase == "lay":
            self._phase = "bid"
        self._next_bidder(seat)

    def _next_bidder(self, seat: int) -> None:
        assert self.bidder is not None
        others = [s for s in self.active() if s != self.bidder and s not in self.passed]
        if not others or self.bid == self.on_mats:
            self._phase = "reveal"
            self.turn = None
            return
        self.turn = self._after(seat, self.passed | {self.bidder})

    def _flip(self, action: Flip) -> None:
        self._need(action, "reveal")
        assert self.bidder is not None
        names = self.game.players
        mat = action.mat
        if not 0 <= mat < self.game.num_players:
            raise IllegalActionError(f"there is no player {mat} at this table")
        if self._own_left() and mat != self.bidder:
            raise IllegalActionError(f"{names[self.bidder]} turns every card of their own mat first")
        stack, up = self.mats[mat], self.flipped[mat]
        if len(up) == len(stack):
            raise IllegalActionError(f"{names[mat]}'s mat has no face-down card left")
        entered = stack[len(stack) - 1 - len(up)]
        card = action.card if action.card is not None else entered
        if card is None:
            raise IllegalActionError(f"say which card {names[mat]}'s top card is")
        if entered is not None and card != entered:
            raise IllegalActionError(f"{names[mat]} laid {entered} there, not {card}")
        if entered is None:
            if card in stack or card in up or card in self.lost[mat]:
                raise IllegalActionError(f"{card} is not face down on {names[mat]}'s mat")
            self._own(mat, card)
            stack[len(stack) - 1 - len(up)] = card
        up.append(card)
        if is_skull(card):
            self.skull_owner = mat
            self.chooser = mat
            self._phase = "lose"
            return
        if self.roses == self.bid:
            self.peg(self.bidder, 1, "bet", [Item("bet", (), 1, f"{self.bid} roses")])
            if not self.is_over:
                self._new_round(self.bidder)

    def _lose(self, action: Lose) -> None:
        self._need(action, "lose")
        loser = self.bidder
        assert loser is not None and self.skull_owner is not None
        names = self.game.players
        card = action.card
        if card is not None:
            if card in self.lost[loser]:
                raise IllegalActionError(f"{names[loser]} has already lost {card}")
            self._own(loser, card)
        self.lost[loser].append(card)
        self.held[loser] -= 1
        self.mats = [[] for _ in self.mats]  # every card goes back to its owner's hand
        self.flipped = [[] for _ in self.flipped]
        active = self.active()
        if len(active) == 1:
            self.winner = self.side_of(active[0])
            return
        if self.held[loser] > 0:
            self._new_round(loser)
        elif self.skull_owner != loser:
            self._new_round(self.skull_owner)
        else:
            self._phase = "choose"

    def _new_round(self, first: int) -> None:
        n = self.game.num_players
        self.mats = [[] for _ in range(n)]
        self.flipped = [[] for _ in range(n)]
        self.bid = 0
        self.bidder = None
        self.passed = set()
        self.skull_owner = self.chooser = None
        self.turn = None
        self.first = first
        self.rounds += 1
        self._phase = "open"

    # -- the seats table (games.table.SeatsTable): each mat a row of outlines, cards face down ----

    def whose_turn(self) -> int | None:
        return None if self.is_over else self.waiting_for()

    def zone_owner(self, zone: Zone) -> int | None:
        return zone.seated(self.game.num_players)

    def zone_label(self, zone: Zone) -> str:
        seat = self.zone_owner(zone)
        return f"{self.game.players[seat]}'s mat" if seat is not None else f"the {zone.name}"

    def holds(self, zone: Zone) -> tuple[str, ...]:
        seat = self.zone_owner(zone)
        if seat is None:
            return ()
        stack = self.mats[seat]
        down = len(stack) - len(self.flipped[seat])
        return tuple(BACK if i < down or card is None else str(card) for i, card in enumerate(stack))

    def zone_cards(self, zone: Zone) -> list[str]:
        return [card for card in self.holds(zone) if card != BACK]

    def _top(self, seat: int) -> int:
        """The outline of the top face-down card of ``seat``'s mat (the last laid still down)."""
        return len(self.mats[seat]) - len(self.flipped[seat]) - 1

    def card_means(self, zone: Zone, card: str) -> list[Action] | None:
        seat = self.zone_owner(zone)
        slot = len(self.holds(zone)) if card == BACK or seat is None else self._top(seat)
        return self.slot_means(zone, slot, card)

    def slot_means(self, zone: Zone, slot: int, card: str) -> list[Action] | None:
        """A card face down in the next free outline of a seat's mat is that seat's ``lay``; a
        card turned face up in its outline is the challenger's ``flip``, the top card first."""
        seat = self.zone_owner(zone)
        if seat is None:
            raise IllegalActionError("Skull's cards lie on the players' mats")
        names = self.game.players
        stack = self.mats[seat]
        if card == BACK:
            if slot < len(stack):
                return None  # a card the mat holds already, seen again
            if slot > len(stack):
                raise IllegalActionError(f"lay the cards in order: outline {len(stack) + 1} of "
                                         f"{names[seat]}'s mat is empty")
            return [Lay(seat)]
        face = self.game.parse_card(card)
        top = self._top(seat)
        if slot > top:
            if slot < len(stack) and stack[slot] == face:
                return None  # turned up already
            raise IllegalActionError("cards are laid face down: turn it over")
        if self._phase != "reveal" or self.bidder is None:
            raise IllegalActionError(f"no card is turned now: {self.prompt()}")
        if slot != top:
            raise IllegalActionError(f"turn the top card of {names[seat]}'s mat first (outline {top + 1}, "
                                     "the last laid)")
        return [Flip(self.bidder, seat, face)]

    def laid_by(self, action: Action) -> list[tuple[Zone, int, str]]:
        if isinstance(action, Lay):
            return [(Zone.row(action.player), len(self.mats[action.player]), BACK)]
        if isinstance(action, Flip) and 0 <= action.mat < self.game.num_players:
            card = action.card or self.mats[action.mat][self._top(action.mat)]
            if card is not None and self._top(action.mat) >= 0:
                return [(Zone.row(action.mat), self._top(action.mat), str(card))]
        return []  # the challenge, bids, passes, the lost card and who starts are said

    # -- the view ---------------------------------------------------------------------------

    def _view(self, common: Common, seat: int | None) -> TableView:
        n = self.game.num_players
        common["turn"] = None if self.is_over else self.waiting_for()
        common["result"] = "win" if self.winner is not None else None
        own_mat: tuple[str | None, ...] | None = None
        lost: tuple[str | None, ...] | None = None
        if seat is not None and 0 <= seat < n:
            own_mat = tuple(None if c is None else str(c) for c in self.mats[seat])
            lost = tuple(None if c is None else str(c) for c in self.lost[seat])
            mine = self.known[seat]
            if len(mine) == CARDS_EACH and None not in self.mats[seat] and None not in self.lost[seat]:
                away = set(self.mats[seat]) | set(self.lost[seat])
                common["hand"] = tuple(str(c) for c in sorted(mine) if c not in away)
        groups = tuple(Group(s, "turned up", tuple(str(c) for c in self.flipped[s]))
                       for s in range(n) if self.flipped[s])
        return SkullView(
            **common,
            groups=groups,
            mats=tuple(len(m) for m in self.mats),
            in_hand=tuple(self.in_hand(s) for s in range(n)),
            held=tuple(self.held),
            out=tuple(s for s in range(n) if self.held[s] == 0),
            first=self.first,
            round=self.rounds,
            bid=self.bid,
            bidder=self.bidder,
            passed=tuple(sorted(self.passed)),
            roses=self.roses,
            own_first=self._phase == "reveal" and self._own_left(),
            skull_owner=self.skull_owner,
            chooser=self.chooser,
            own_mat=own_mat,
            lost=lost,
        )


@dataclass(frozen=True, kw_only=True)
class SkullView(LayoutView):
    """Skull's table: how many cards lie face down on each mat and how many each seat holds, the
    cards turned up (``groups``), the bid, and who chooses the lost card. The seat's own face-down
    cards and lost cards, when entered, are in its own view only."""

    style: ClassVar[str] = "layout.skull"

    mats: tuple[int, ...]  # per seat: cards on the mat (face down or turned up)
    in_hand: tuple[int, ...]
    held: tuple[int, ...]  # cards each seat still owns (four, less those lost)
    out: tuple[int, ...] = ()  # seats eliminated
    first: int  # who acts first this round
    round: int = 1
    bid: int = 0
    bidder: int | None = None  # the highest bidder; the challenger once the bidding is over
    passed: tuple[int, ...] = ()
    roses: int = 0  # roses turned up toward the bid
    own_first: bool = False  # the challenger still has their own mat to turn
    skull_owner: int | None = None
    chooser: int | None = None  # who picks the card the challenger loses
    own_mat: tuple[str | None, ...] | None = None  # this seat's mat, bottom first, where entered
    lost: tuple[str | None, ...] | None = None  # this seat's lost cards, where entered


__all__ = ["Bid", "Challenge", "First", "Flip", "Lose", "Pass", "Lay", "Skull", "SkullState", "SkullView",
           "is_skull"]
