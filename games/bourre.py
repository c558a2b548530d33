"""Bourré: five cards, pass or play, the strict rules of the play and a pot in chips (seed 002,
"Bourré"; rule card seeds/bourre.md).

The engine keeps the chips: each player's stack is the option ``chips`` plus the side's score,
and every chip that moves is a score event ("ante", "pot", "bourré", "renege"). Hands are usually
unknown: a card that breaks the strict rules cannot be refused then, but a later card of the same
player can prove it, and the engine files a :class:`~games.tricks.RevokeClaim` for the players to
accept (the offender pays the pot) or dismiss. A seat whose hand is known has an illegal card
refused outright.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from games.cards import FRENCH_52, Card
from games.engine import Action, Game, Item, Option, Spec, register
from games.errors import IllegalActionError, OptionError, RecordError
from games.pegging.actions import Deal, Play
from games.tricks import (
    ACE_HIGH,
    Accept,
    Dismiss,
    End,
    Hand,
    Pass,
    Pending,
    RevokeClaim,
    TrickState,
    Trump,
    beats,
    french_card,
    last_trick_view,
    proofs,
    trick_cards,
    trick_winner,
)
from games.view import Common, TableView, TricksView

HAND = 5


@dataclass(frozen=True)
class Ante(Action):
    """A player puts the ante in the pot; without ``player``, everyone who owes one does."""

    act: ClassVar[str] = "ante"
    player: int | None = None


@dataclass(frozen=True)
class Draw(Action):
    """The player plays, discarding ``count`` cards (0 stands pat) and drawing as many. When the
    hand is known, ``cards`` are the discards and ``drawn`` the replacements."""

    act: ClassVar[str] = "draw"
    player: int
    count: int = 0
    cards: tuple[Card, ...] | None = None
    drawn: tuple[Card, ...] | None = None


def legal_plays(hand: Sequence[Card], trick: Sequence[tuple[int, Card]], trump: str | None) -> list[Card]:
    """The cards of ``hand`` the strict rules allow on ``trick``: follow suit and beat the best
    card if able; else trump, overtrumping if able; else anything.

    >>> h = [Card.parse(c) for c in "AD 6D 3S".split()]
    >>> t = [(0, Card.parse("QD")), (1, Card.parse("4S"))]
    >>> [str(c) for c in legal_plays(h, t, "S")]
    ['AD', '6D']
    """
    if not trick:
        return list(hand)
    led = trick[0][1].suit
    best = _best(trick, trump)
    for suit in (led, trump):
        group = [c for c in hand if c.suit == suit]
        if group:
            return [c for c in group if beats(c, best, led, trump, ACE_HIGH)] or group
    return list(hand)


def forbidden_cards(card: Card, trick: Sequence[tuple[int, Card]], trump: str | None,
                    unseen: Iterable[Card]) -> frozenset[Card]:
    """The cards of ``unseen`` that, held beside ``card``, would have made its play illegal."""
    if not trick:
        return frozenset()
    led = trick[0][1].suit
    best = _best(trick, trump)
    wins = beats(card, best, led, trump, ACE_HIGH)
    out: set[Card] = set()
    for other in unseen:
        if other == card:
            continue
        if card.suit == led:
            bad = not wins and other.suit == led and beats(other, best, led, trump, ACE_HIGH)
        elif other.suit == led:
            bad = True
        elif card.suit == trump:
            bad = not wins and other.suit == trump and beats(other, best, led, trump, ACE_HIGH)
        else:
            bad = other.suit == trump
        if bad:
            out.add(other)
    return frozenset(out)


def rule_broken(card: Card, led: str, proof: Card) -> str:
    """Which strict rule ``card`` broke, as proven by ``proof`` held at the time."""
    if proof.suit == led:
        return "failed to beat the highest card" if card.suit == led else "failed to follow suit"
    return "failed to overtrump" if card.suit == proof.suit else "failed to trump"


def _best(trick: Sequence[tuple[int, Card]], trump: str | None) -> Card:
    winner = trick_winner(trick, trump, ACE_HIGH)
    return next(c for s, c in trick if s == winner)


@register
class Bourre(Game):
    spec = Spec(
        name="bourre",
        title="Bourré",
        players=(2, 3, 4, 5, 6, 7, 8),
        deck="french52",
        table="tricks",
        target=None,
        aliases=("bourré", "boure", "booray", "boo-ray"),
        pegged=False,
        options=(
            Option("chips", 50, "chips each player starts with", low=0, high=1000),
            Option("limit", 0, "most chips a winner takes and a bourré player pays (0: no limit)",
                   low=0, high=1000),
            Option("double_ante", False, "everyone antes every deal, and each player who plays adds a chip"),
            Option("deals", 0, "deals in the game (0: until the players end it)", low=0, high=100),
        ),
        summary="Five cards, pass or play; most tricks takes the pot, no trick matches it.",
    )
    actions = (Ante, Deal, Trump, Pass, Draw, Hand, Play, Accept, Dismiss, End)

    def parse_card(self, text: str) -> Card:
        return french_card(self, text)

    def validate(self) -> None:
        for name in ("chips", "limit", "deals"):
            if self.options[name] < 0:
                raise OptionError(f"option {name!r} cannot be negative")

    def _field_value(self, act: str, name: str, hint: Any, value: Any) -> Any:
        if name == "drawn" and value is not None:
            if not isinstance(value, list | tuple):
                raise RecordError(f"{act}.drawn is a list of cards, not {value!r}")
            return tuple(self.parse_card(v) for v in value)
        return super()._field_value(act, name, hint, value)

    def new_initial_state(self) -> BourreState:
        return BourreState(self)


class BourreState(TrickState):
    game: Bourre

    def __init__(self, game: Bourre) -> None:
        super().__init__(game, "ante")
        n = game.num_players
        self.pot = 0
        self.carry = 0  # penalties agreed during a deal, paid into the next pot
        self.owed: set[int] = set(range(n))
        self.deals = 0  # deals settled
        self.trump_card: Card | None = None
        self.declared: list[str | None] = [None] * n
        self.draws: list[int | None] = [None] * n
        self.active: list[int] = []
        self.trick_no = 0  # tricks completed this deal
        self.deal_pot = 0

    # -- what the table sees ----------------------------------------------------------------

    def trick_order(self) -> tuple[int, ...]:
        return tuple(self.active)

    def turned_up(self) -> Card | None:
        return self.trump_card

    def chips(self, seat: int) -> int:
        return int(self.game.options["chips"]) + self.scores[seat]

    @property
    def stake(self) -> int:
        """What the pot is worth to a winner, and what a bourré player pays: capped by the limit."""
        limit = int(self.game.options["limit"])
        return min(self.deal_pot, limit) if limit else self.deal_pot

    def to_move(self, action: Action) -> Sequence[int] | None:
        # outside its phase an action names no turn, so the refusal says what the table waits for
        if isinstance(action, Ante):
            return sorted(self.owed) if self._phase == "ante" else None
        if isinstance(action, Hand):
            return None
        if isinstance(action, Pass | Draw | Play):
            return [self.turn] if self.turn is not None else None
        return None

    def prompt(self) -> str:
        names = self.game.players
        if self.is_over:
            return self.result_text()
        if self._phase == "ante":
            return "ante: " + ", ".join(names[s] for s in sorted(self.owed))
        if self._phase == "deal":
            return "deal five cards each"
        if self._phase == "trump":
            return "turn up the dealer's last card"
        if self.turn is not None:
            verb = "pass or play" if self._phase == "declare" else "play"
            return f"{names[self.turn]} to {verb}"
        return ""

    # -- actions ----------------------------------------------------------------------------

    def _apply(self, action: Action) -> None:
        if isinstance(action, Ante):
            self._ante(action)
        elif isinstance(action, Deal):
            self._deal(action)
        elif isinstance(action, Trump):
            self._trump(action)
        elif isinstance(action, Pass | Draw):
            self._declare(action)
        elif isinstance(action, Hand):
            self._hand(action)
        elif isinstance(action, Play):
            self._play(action)
        elif isinstance(action, Accept | Dismiss):
            self._settle_claim(action)
        elif isinstance(action, End):
            self._end(action)

    def _take(self, seat: int, chips: int, kind: str, label: str) -> None:
        """Move chips between a player and the pot (positive: to the player)."""
        self.peg(seat, chips, kind, [Item(kind, (), chips, label)])

    def _ante(self, action: Ante) -> None:
        self._need(action, "ante")
        seats = sorted(self.owed) if action.player is None else [action.player]
        for seat in seats:
            self.owed.discard(seat)
            self.pot += 1
            self._take(seat, -1, "ante", "ante")
        if not self.owed:
            self._phase = "deal"

    def _deal(self, action: Deal) -> None:
        self._need(action, "deal")
        n = self.game.num_players
        dealer = self._dealer_of(action.dealer, None if self.dealer is None else (self.dealer + 1) % n)
        hands = action.hands
        if hands is not None:
            if len(hands) != n:
                raise IllegalActionError(f"a deal gives {n} hands, not {len(hands)}")
            self._check_hands(hands, HAND)
        self._new_deal(dealer, hands)
        self.declared = [None] * n
        self.draws = [None] * n
        self.active = []
        self.trick_no = 0
        self.deal_pot = self.pot
        self.trump_card = None
        self._phase = "trump"

    def _trump(self, action: Trump) -> None:
        self._need(action, "trump")
        assert self.dealer is not None
        if action.card is None:
            raise IllegalActionError("name the dealer's card turned face up: its suit is trumps")
        own = self.known[self.dealer]
        if own is not None and action.card not in own:
            raise IllegalActionError(f"the turned-up card is the dealer's last card, and {action.card} is not in "
                                     f"{self.game.players[self.dealer]}'s hand")
        if any(h is not None and action.card in h for s, h in enumerate(self.known) if s != self.dealer):
            raise IllegalActionError(f"{action.card} was dealt to another player")
        self.trump_card = action.card
        self.trump = action.card.suit
        self._phase = "declare"
        self.turn = (self.dealer + 1) % self.game.num_players

    def _declare(self, action: Pass | Draw) -> None:
        self._need(action, "declare")
        assert self.dealer is not None and self.trump_card is not None
        seat = action.player
        is_dealer = seat == self.dealer
        if isinstance(action, Pass):
            if is_dealer and self.trump_card.rank == 1:
                raise IllegalActionError("an ace is turned up: the dealer must play")
            if is_dealer and not self.active:
                raise IllegalActionError("everyone else passed: the dealer plays and takes the pot")
            self.declared[seat] = "pass"
        else:
            self._draw(action)
            self.declared[seat] = "play"
            self.draws[seat] = action.count
            self.active.append(seat)
            if self.game.options["double_ante"]:
                self.pot += 1
                self.deal_pot += 1
                self._take(seat, -1, "ante", "ante to play")
        if not is_dealer:
            self.turn = (seat + 1) % self.game.num_players
            return
        dealer, n = self.dealer, self.game.num_players
        self.active.sort(key=lambda s: (s - dealer - 1) % n)
        if len(self.active) == 1:
            self.tricks[self.active[0]] = HAND
            self._settle()
            return
        self._phase = "play"
        self.turn = self.active[0]

    def _draw(self, action: Draw) -> None:
        name = self.game.players[action.player]
        if not 0 <= action.count <= HAND:
            raise IllegalActionError(f"a player discards 0 to {HAND} cards, not {action.count}")
        hand = self.known[action.player]
        if hand is None:
            if action.cards is not None or action.drawn is not None:
                raise IllegalActionError(f"{name}'s hand is not known: give only how many cards are drawn")
            return
        away, new = action.cards or (), action.drawn or ()
        if len(away) != action.count or len(new) != action.count:
            raise IllegalActionError(
                f"{name}'s hand is known: name the {action.count} discards (cards) and the {action.count} "
                f"replacements (drawn)")
        for card in away:
            if card not in hand:
                raise IllegalActionError(f"{name} does not hold {card}")
        if len(set(away)) != len(away) or len(set(new)) != len(new):
            raise IllegalActionError("a card is named twice")
        for card in new:
            if any(h is not None and card in h for h in self.known) or card == self.trump_card:
                raise IllegalActionError(f"{card} is in another hand: it cannot be drawn")
        self.known[action.player] = [c for c in hand if c not in away] + list(new)

    def _hand(self, action: Hand) -> None:
        self._need(action, "declare", "play")
        seat, cards = action.player, action.cards
        name = self.game.players[seat]
        if self.declared[seat] == "pass":
            raise IllegalActionError(f"{name} has passed: there is no hand to enter")
        held = HAND - (self.trick_no + any(s == seat for s, _ in self.trick) if self._phase == "play" else 0)
        shown = self.trump_card if seat != self.dealer else None  # the dealer's turned-up card
        self._enter_hand(seat, cards, held, kept=lambda card: "is in another player's hand" if card == shown else None)

    def _play(self, action: Play) -> None:
        self._need(action, "play")
        assert self.dealer is not None
        seat, card = action.player, action.card
        name = self.game.players[seat]
        hand = self.known[seat]
        if card in self.seen:
            raise IllegalActionError(f"{card} has already been played this deal")
        if hand is not None:
            if card not in hand:
                raise IllegalActionError(f"{name} does not hold {card}")
            legal = legal_plays(hand, self.trick, self.trump)
            if card not in legal:
                proof = next(c for c in legal)
                led = self.trick[0][1].suit
                raise IllegalActionError(f"{name} {rule_broken(card, led, proof)}: play "
                                         f"{' or '.join(str(c) for c in legal)}")
            hand.remove(card)
            self._referee(seat, card, watch=False)
        else:
            if card == self.trump_card and seat != self.dealer:
                raise IllegalActionError(f"{card} is the dealer's turned-up card")
            if any(h is not None and card in h for h in self.known):
                raise IllegalActionError(f"{card} is in another player's hand")
            self._referee(seat, card)
        self.seen.add(card)
        self.trick.append((seat, card))
        if len(self.trick) < len(self.active):
            self.turn = self.active[(self.active.index(seat) + 1) % len(self.active)]
            return
        self.trick_no += 1
        self._take_trick(trick_winner(self.trick, self.trump, ACE_HIGH))
        if self.trick_no == HAND:
            self._settle()

    def _referee(self, seat: int, card: Card, *, watch: bool = True) -> None:
        """File a claim for every earlier play of ``seat`` that ``card`` proves illegal, then
        (``watch``: the hand is unknown) watch this play in turn. A dealer who stood pat still
        holds the turned-up card: it proves a play at once."""
        for watched in proofs(self.pending, seat, card):
            self.pending.remove(watched)
            self._claim(watched, card)
        if not self.trick or not watch:
            return
        unseen = [c for c in FRENCH_52 if c not in self.seen]
        play = Pending(self.trick_no + 1, seat, card, self.trick[0][1].suit,
                       forbidden_cards(card, self.trick, self.trump, unseen))
        shown = self.trump_card
        if seat == self.dealer and self.draws[seat] == 0 and shown is not None and shown in play.forbidden:
            self._claim(play, shown)
        elif play.forbidden:
            self.pending.append(play)

    def _claim(self, play: Pending, proof: Card) -> None:
        self.claims.append(RevokeClaim(
            deal=self.deals + 1, trick=play.trick, player=play.player, card=play.card,
            rule=rule_broken(play.card, play.led, proof), proof=proof,
            penalty=f"pay the pot ({self.stake} chips) as if bourré", amount=self.stake))

    def _settle(self) -> None:
        n = self.game.num_players
        stake = self.stake
        most = max(self.tricks[s] for s in self.active)
        top = [s for s in self.active if self.tricks[s] == most]
        winner = top[0] if len(top) == 1 else None
        bourre = [s for s in self.active if self.tricks[s] == 0]
        if winner is not None:
            self.pot -= stake
            self._take(winner, stake, "pot", f"{most} tricks take the pot")
        for seat in bourre:
            self.pot += stake
            self._take(seat, -stake, "bourré", "bourré: match the pot")
        self.pot += self.carry
        self.carry = 0
        self.sheet.append({"dealer": self.dealer, "pot": stake, "trump": self.trump,
                           "tricks": [self.tricks[s] if s in self.active else None for s in range(n)],
                           "winner": winner, "bourre": bourre})
        self.deals += 1
        if self.game.options["double_ante"]:
            self.owed = set(range(n))
        else:
            self.owed = set(range(n)) - set(bourre) - (set(top) if winner is None else set())
        self._phase = "ante" if self.owed else "deal"
        self.turn = None
        self.trick = []
        self.pending = []
        self._maybe_end()

    def _settle_claim(self, action: Accept | Dismiss) -> None:
        claim = self._decide(action)
        if isinstance(action, Accept) and claim.amount:
            if self._phase in ("trump", "declare", "play"):
                self.carry += claim.amount
            else:
                self.pot += claim.amount
            self._take(claim.player, -claim.amount, "renege", f"renege in trick {claim.trick}")
        self._maybe_end()

    def _maybe_end(self) -> None:
        wanted = int(self.game.options["deals"])
        if wanted and self.deals >= wanted and self._phase in ("ante", "deal") and not self.open_claims():
            self.winner = self.scores.index(max(self.scores))

    def _end(self, action: End) -> None:
        self._need(action, "ante", "deal")
        if self.open_claims():
            raise IllegalActionError("decide the open revoke claims first: accept or dismiss them")
        self.winner = self.scores.index(max(self.scores))

    # -- the view ---------------------------------------------------------------------------

    def _view(self, common: Common, seat: int | None) -> TableView:
        names = self.game.players
        n = self.game.num_players
        rows: list[tuple[str, ...]] = []
        for i, row in enumerate(self.sheet):
            cells = []
            for s in range(n):
                took = row["tricks"][s]
                mark = "-" if took is None else "bourré" if s in row["bourre"] else \
                    f"{took}*" if s == row["winner"] else str(took)
                cells.append(mark)
            rows.append((f"{i + 1}. pot {row['pot']} {row['trump']}", *cells))
        if self._phase in ("trump", "declare", "play"):  # the deal in progress: who plays, tricks so far
            cells = ["out" if d == "pass" else "-" if d is None else str(self.tricks[s])
                     for s, d in enumerate(self.declared)]
            rows.append((f"{self.deals + 1}. pot {self.stake} {self.trump or '?'} now", *cells))
        self._sheet_view(common, seat, rows, ("Chips", *[str(self.chips(s)) for s in range(n)]))
        legal = None
        if seat is not None and 0 <= seat < n:
            hand = self.known[seat]
            if hand is not None and self._phase == "play" and self.turn == seat:
                legal = tuple(str(c) for c in legal_plays(hand, self.trick, self.trump))
        return BourreView(
            **common,
            trump=str(self.trump_card) if self.trump_card is not None else None,
            trump_suit=self.trump,
            bids=(),
            tricks=tuple(self.tricks),
            trick=trick_cards(self.trick),
            cards_this_deal=HAND,
            trick_number=self.trick_no + 1 if self._phase == "play" else None,
            last_trick=last_trick_view(self.last_trick),
            active=tuple(self.active),
            legal=legal,
            claims=tuple(c.as_view(names) for c in self.claims),
            pot=self.pot,
            stake=self.stake,
            chips=tuple(self.chips(s) for s in range(n)),
            owed_ante=tuple(sorted(self.owed)) if self._phase == "ante" else (),
            declared=tuple(self.declared),
            draws=tuple(self.draws),
        )


@dataclass(frozen=True, kw_only=True)
class BourreView(TricksView):
    """Bourré's table: the pot and what a winner takes from it, every player's chips, who still
    owes the ante, and each player's pass or play with the cards drawn."""

    style: ClassVar[str] = "tricks.bourre"

    pot: int
    stake: int  # what the pot is worth this deal: what the winner takes, a bourré player pays
    chips: tuple[int, ...]  # per seat
    owed_ante: tuple[int, ...] = ()
    declared: tuple[str | None, ...] = ()  # per seat: "pass", "play" or None before it is said
    draws: tuple[int | None, ...] = ()  # per seat: cards drawn by a player who plays


__all__ = [
    "Ante", "Bourre", "BourreState", "BourreView", "Draw", "Pass", "forbidden_cards", "legal_plays",
    "rule_broken",
]
