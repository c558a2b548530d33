"""Fight the Landlord (seed 002; rule card seeds/landlord.md): three players, 54 cards, a bid of 1
to 3 for the landlord's seat and its three extra cards, then combinations beaten by higher ones
of the same kind until two pass; the first to play every card wins the deal for their side.

The landlord plays alone against the two peasants. Each bomb or rocket played doubles the deal's
stake; a landlord who wins scores the stake from each peasant, and when the landlord loses each
peasant scores it. The combinations are read by :mod:`games.landlordcombos`.

At the table (``spec.table == "combos"``) each seat lays its plays in its own zone and the middle
cards lie in the kitty; the state answers :class:`games.table.CombosTable`'s questions.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from games.cards import Card, split_card_text
from games.engine import Action, Game, Item, Option, ScoreRequest, Spec, State, register
from games.errors import CardError, IllegalActionError, OptionError
from games.landlordcombos import Combo, classify, power, score_json, why_not
from games.table import KITTY as MIDDLE
from games.table import Zone
from games.view import Common, Group, LayoutView, ScoreTable, TableView

HAND, KITTY = 17, 3


@dataclass(frozen=True)
class Deal(Action):
    """17 cards each and three face down in the middle; ``first`` is the seat dealt the face-up
    card, who bids first (by default the seat after the last deal's). ``hands`` by seat, and the
    three middle ``cards``, where known."""

    act: ClassVar[str] = "deal"
    first: int | None = None
    hands: tuple[tuple[Card, ...] | None, ...] | None = None
    cards: tuple[Card, ...] | None = None


@dataclass(frozen=True)
class Bid(Action):
    act: ClassVar[str] = "bid"
    player: int
    points: int


@dataclass(frozen=True)
class Pass(Action):
    """No bid, or no play on the combination to beat."""

    act: ClassVar[str] = "pass"
    player: int


@dataclass(frozen=True)
class Kitty(Action):
    """The landlord turns up the three middle cards and takes them."""

    act: ClassVar[str] = "kitty"
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class Play(Action):
    act: ClassVar[str] = "play"
    player: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, kw_only=True)
class LandlordView(LayoutView):
    """Fight the Landlord's table: the bids, the landlord and the extra cards, the combination to
    beat, the stake and the cards each seat holds. ``groups`` are the plays since the last clear."""

    style: ClassVar[str] = "layout.landlord"

    bids: tuple[int | None, ...] = ()  # per seat: None before its turn, 0 a pass
    landlord: int | None = None
    kitty: tuple[str, ...] = ()  # once the landlord has taken them
    held: tuple[int, ...] = ()
    beat: Group | None = None  # the combination to beat (None: the turn's player leads)
    passes: int = 0
    bid: int = 0
    multiplier: int = 1  # doubled by each bomb and rocket
    played: tuple[str, ...] = ()  # every card played this deal, in order


@register
class Landlord(Game):
    spec = Spec(
        name="landlord",
        title="Fight the Landlord",
        players=(3,),
        deck="french54",
        table="combos",
        target=20,
        aliases=("fight the landlord", "dou dizhu", "doudizhu"),
        pegged=False,
        options=(Option("target", 20, "points to win", low=1, high=361),),
        summary="Bid to be the landlord; beat each combination with a higher one, bombs double the stake.",
    )
    actions = (Deal, Bid, Pass, Kitty, Play)

    def parse_card(self, text: str) -> Card:
        return Card.parse(text)

    @classmethod
    def score_command(cls, request: ScoreRequest) -> str:
        """`pegpi score landlord CARDS... [--json]`: what one play is."""
        if request.starter is not None or request.crib:
            raise OptionError("pegpi score landlord takes the cards of one play only")
        texts = split_card_text(list(request.words))
        if not texts:
            raise CardError("give the cards of a play, like: pegpi score landlord 5S 5H 5D 5C")
        cards = [Card.parse(t) for t in texts]
        if len(set(cards)) != len(cards):
            raise CardError("a card is given twice: the pack has one of each")
        out = score_json(cards)
        if request.as_json:
            return json.dumps(out)
        readings = classify(cards)
        if not readings:
            return f"no combination: {out['reason']}"
        return "\n".join(str(r) for r in readings)

    def new_initial_state(self) -> LandlordState:
        return LandlordState(self)


class LandlordState(State):
    game: Landlord

    def __init__(self, game: Landlord) -> None:
        super().__init__(game)
        self._phase = "deal"
        self.first: int | None = None
        self.known: list[list[Card] | None] = [None] * 3
        self.middle: list[Card] | None = None  # the three cards, when dealt known
        self.kitty: list[Card] = []
        self.held = [0, 0, 0]
        self.bids: list[int | None] = [None] * 3
        self.turn: int | None = None
        self.landlord: int | None = None
        self.bid = 0
        self.doublings = 0
        self.beat: tuple[int, tuple[Card, ...], Combo] | None = None
        self.passes = 0
        self.trick: list[tuple[int, tuple[Card, ...], str]] = []
        self.played: list[Card] = []
        self.laid: list[list[Card]] = [[], [], []]  # each seat's cards played this deal, in order
        self.deals = 0
        self.reached: list[int] = []
        self.sheet: list[tuple[str, ...]] = []

    @property
    def phase(self) -> str:
        return "over" if self.is_over else self._phase

    def to_move(self, action: Action) -> Sequence[int] | None:
        if isinstance(action, Bid | Pass | Play):
            return [self.turn] if self.turn is not None and self._phase in ("bid", "play") else []
        return None

    def prompt(self) -> str:
        names = self.game.players
        if self.is_over:
            return self.result_text()
        if self._phase == "deal":
            return "deal 17 cards each, three face down in the middle"
        if self._phase == "kitty":
            assert self.landlord is not None
            return f"{names[self.landlord]} turns up the three middle cards"
        assert self.turn is not None
        if self._phase == "bid":
            return f"{names[self.turn]} bids or passes"
        assert self.landlord is not None
        stake = f"landlord {names[self.landlord]}, bid {self.bid} x{2 ** self.doublings}"
        if self.beat is None:
            return f"{names[self.turn]} leads any combination ({stake})"
        cards = " ".join(map(str, self.beat[1]))
        return f"{names[self.turn]} beats the {self.beat[2]} ({cards}) or passes ({stake})"

    def _need(self, action: Action, phase: str) -> None:
        if self._phase != phase:
            raise IllegalActionError(f"cannot {action.act} now: {self.prompt()}")

    def _apply(self, action: Action) -> None:
        if isinstance(action, Deal):
            self._deal(action)
        elif isinstance(action, Bid):
            self._need(action, "bid")
            if not 1 <= action.points <= 3:
                raise IllegalActionError(f"a bid is 1, 2 or 3, not {action.points}")
            self._bid(action.player, action.points)
        elif isinstance(action, Pass):
            if self._phase == "bid":
                self._bid(action.player, 0)
            else:
                self._need(action, "play")
                self._pass(action.player)
        elif isinstance(action, Kitty):
            self._kitty(action)
        elif isinstance(action, Play):
            self._need(action, "play")
            self._play(action.player, action.cards)

    def _deal(self, action: Deal) -> None:
        self._need(action, "deal")
        names = self.game.players
        first = action.first if action.first is not None else None if self.first is None else (self.first + 1) % 3
        if first is None:
            raise IllegalActionError("say who was dealt the face-up card: that player bids first")
        if not 0 <= first < 3:
            raise IllegalActionError(f"there is no player {first}")
        known: list[list[Card] | None] = [None] * 3
        if action.hands is not None:
            if len(action.hands) != 3:
                raise IllegalActionError("give a hand (or null) for each of the 3 seats")
            for seat, hand in enumerate(action.hands):
                if hand is not None:
                    if len(hand) != HAND:
                        raise IllegalActionError(f"{names[seat]} is dealt {HAND} cards, not {len(hand)}")
                    known[seat] = list(hand)
        if action.cards is not None and len(action.cards) != KITTY:
            raise IllegalActionError(f"the middle holds {KITTY} cards, not {len(action.cards)}")
        flat = [c for h in known if h is not None for c in h] + list(action.cards or ())
        if len(set(flat)) != len(flat):
            raise IllegalActionError("a card is dealt twice")
        self.first = first
        self.known = known
        self.middle = list(action.cards) if action.cards is not None else None
        self.kitty = []
        self.held = [HAND] * 3
        self.bids = [None] * 3
        self.turn = first
        self.landlord = None
        self.bid = 0
        self.doublings = 0
        self.beat = None
        self.passes = 0
        self.trick = []
        self.played = []
        self.laid = [[], [], []]
        self._phase = "bid"

    def _bid(self, seat: int, points: int) -> None:
        names = self.game.players
        if points:
            if points <= self.bid:
                raise IllegalActionError(f"{names[seat]} must bid more than {self.bid}, or pass")
            self.bid = points
            self.landlord = seat
        self.bids[seat] = points
        assert self.first is not None
        if points == 3 or all(b is not None for b in self.bids):
            if self.landlord is None:
                self.sheet.append((f"{len(self.sheet) + 1}.", "all passed: dealt again", "", "", ""))
                self._phase = "deal"
                self.turn = None
                return
            self._phase = "kitty"
            self.turn = None
            return
        self.turn = (seat + 1) % 3

    def _kitty(self, action: Kitty) -> None:
        self._need(action, "kitty")
        assert self.landlord is not None
        cards = list(action.cards)
        if len(cards) != KITTY or len(set(cards)) != KITTY:
            raise IllegalActionError(f"the middle holds {KITTY} different cards")
        if self.middle is not None and sorted(self.middle) != sorted(cards):
            raise IllegalActionError(f"the middle cards are {' '.join(map(str, self.middle))}")
        for hand in self.known:
            if hand is not None and any(c in hand for c in cards):
                raise IllegalActionError("a middle card was dealt to a player")
        self.kitty = cards
        self.held[self.landlord] += KITTY
        hand = self.known[self.landlord]
        if hand is not None:
            hand.extend(cards)
        self._phase = "play"
        self.turn = self.landlord

    def _holds(self, seat: int, cards: Sequence[Card]) -> None:
        names = self.game.players
        hand = self.known[seat]
        if len(cards) > self.held[seat]:
            raise IllegalActionError(f"{names[seat]} holds {self.held[seat]} cards, not {len(cards)}")
        for card in cards:
            if hand is not None:
                if card not in hand:
                    raise IllegalActionError(f"{names[seat]} does not hold {card}")
                continue
            if card in self.played:
                raise IllegalActionError(f"{card} has been played already")
            if card in self.kitty and seat != self.landlord:
                raise IllegalActionError(f"{card} is one of the landlord's middle cards")
            if any(h is not None and card in h for s, h in enumerate(self.known) if s != seat):
                raise IllegalActionError(f"{card} was dealt to another player")

    def _play(self, seat: int, cards: tuple[Card, ...]) -> None:
        if not cards:
            raise IllegalActionError("play one or more cards, or pass")
        if len(set(cards)) != len(cards):
            raise IllegalActionError("a card is given twice")
        readings = classify(cards)
        if not readings:
            raise IllegalActionError(f"{' '.join(map(str, cards))} is no combination: {why_not(cards)}")
        self._holds(seat, cards)
        combo = readings[0]
        if self.beat is not None:
            to_beat = self.beat[2]
            fitting = [r for r in readings if r.beats(to_beat)]
            if not fitting:
                raise IllegalActionError(f"the {readings[0]} does not beat the {to_beat}")
            combo = fitting[0]
        hand = self.known[seat]
        if hand is not None:
            for card in cards:
                hand.remove(card)
        self.held[seat] -= len(cards)
        self.played.extend(cards)
        self.laid[seat].extend(cards)
        self.beat = (seat, cards, combo)
        self.trick.append((seat, cards, str(combo)))
        self.passes = 0
        if combo.doubles:
            self.doublings += 1
        if self.held[seat] == 0:
            self._score(seat)
            return
        self.turn = (seat + 1) % 3

    def _pass(self, seat: int) -> None:
        if self.beat is None:
            raise IllegalActionError(f"{self.game.players[seat]} leads: play a combination")
        self.passes += 1
        self.trick.append((seat, (), "pass"))
        if self.passes == 2:
            leader = self.beat[0]
            self.beat = None
            self.passes = 0
            self.trick = []
            self.turn = leader
            return
        self.turn = (seat + 1) % 3

    def _score(self, out: int) -> None:
        landlord = self.landlord
        assert landlord is not None
        names = self.game.players
        stake = self.bid * 2 ** self.doublings
        items = [Item("bid", (), self.bid, f"bid {self.bid}")]
        if self.doublings:
            items.append(Item("doubled", (), stake - self.bid, f"doubled {self.doublings}x"))
        row = ["", "", ""]
        if out == landlord:
            self.peg(landlord, 2 * stake, "landlord",
                     [*items, Item("second peasant", (), stake, "from each peasant")])
            row[landlord] = str(2 * stake)
            what = f"{names[landlord]} (landlord) wins"
        else:
            for k in (1, 2):
                peasant = (landlord + k) % 3
                self.peg(peasant, stake, "peasants", items)
                row[peasant] = str(stake)
            what = f"the peasants beat {names[landlord]}"
        self.sheet.append((f"{len(self.sheet) + 1}.", f"{what} (bid {self.bid}, x{2 ** self.doublings})", *row))
        self.deals += 1
        self._phase = "deal"
        self.turn = None
        if self.reached:
            best = max(self.scores[s] for s in self.reached)
            self.winner = next(s for s in self.reached if self.scores[s] == best)

    def on_target(self, side: int) -> None:
        if side not in self.reached:
            self.reached.append(side)  # the winner is named once every peasant has scored

    # -- the combinations table's questions (games.table.CombosTable) ------------------------

    def whose_turn(self) -> int | None:
        return self.turn if self._phase == "play" and not self.is_over else None

    def zone_owner(self, zone: Zone) -> int | None:
        if zone == MIDDLE:
            return self.landlord
        return zone.seated(self.game.num_players)

    def zone_label(self, zone: Zone) -> str:
        if zone == MIDDLE:
            return "the middle cards"
        seat = self.zone_owner(zone)
        return f"{self.game.players[seat]}'s zone" if seat is not None else zone.name

    def zone_cards(self, zone: Zone) -> list[str]:
        if zone == MIDDLE:
            return [str(c) for c in self.kitty]
        seat = self.zone_owner(zone)
        return [str(c) for c in self.laid[seat]] if seat is not None else []

    def card_means(self, zone: Zone, card: str) -> list[Action] | None:
        """A card alone means nothing here: it belongs to the group laid with it."""
        face = self.game.parse_card(card)
        if zone == MIDDLE:
            return [] if self._phase in ("bid", "kitty") else None
        seat = self.zone_owner(zone)
        if seat is None or self._phase != "play" or face in self.played:
            return None
        return []

    def group_means(self, zone: Zone, cards: Sequence[str]) -> list[Action] | None:
        faces = tuple(self.game.parse_card(c) for c in cards)
        if zone == MIDDLE:
            return self._kitty_means(faces)
        seat = self.zone_owner(zone)
        if seat is None or not faces:
            return None
        if all(c in self.laid[seat] for c in faces):
            return None  # the game's already: seen again
        names = self.game.players
        if self._phase != "play" or self.turn is None:
            raise IllegalActionError(f"nobody plays now: {self.prompt()}")
        actions: list[Action] = []
        turn, beat, passes = self.turn, self.beat, self.passes
        while turn != seat:
            if beat is None:
                raise IllegalActionError(f"{names[turn]} leads: {names[seat]} plays out of turn")
            actions.append(Pass(player=turn))
            passes += 1
            if passes == 2:
                turn, beat, passes = beat[0], None, 0
            else:
                turn = (turn + 1) % 3
        readings = classify(faces)
        if not readings:
            raise IllegalActionError(f"no combination: {why_not(faces)}")
        if beat is not None and not any(r.beats(beat[2]) for r in readings):
            raise IllegalActionError(f"it does not beat {' '.join(map(str, beat[1]))} (the {beat[2]})")
        return [*actions, Play(player=seat, cards=faces)]

    def _kitty_means(self, faces: tuple[Card, ...]) -> list[Action] | None:
        if self.kitty and sorted(faces) == sorted(self.kitty):
            return None
        if self._phase in ("deal", "bid") or (self._phase == "kitty" and len(faces) < KITTY):
            return []
        if self._phase != "kitty":
            return None
        return [Kitty(cards=faces)]

    def group_size(self, zone: Zone) -> int:
        if zone == MIDDLE:
            return KITTY
        seat = self.zone_owner(zone)
        return self.held[seat] if seat is not None else 0

    def to_beat(self) -> tuple[int, tuple[str, ...]] | None:
        if self.beat is None or self._phase != "play":
            return None
        return self.beat[0], tuple(map(str, self.beat[1]))

    def cleared(self) -> list[Action]:
        if self.beat is None or self._phase != "play" or self.turn is None:
            return []
        return [Pass(player=(self.turn + k) % 3) for k in range(2 - self.passes)]

    def _view(self, common: Common, seat: int | None) -> TableView:
        names = self.game.players
        common["table"] = ScoreTable(columns=("", "deal", *names), rows=(*self.sheet, *self._live()),
                                     totals=("Total", "", *map(str, self.scores)))
        common["turn"] = self.turn
        common["dealer"] = None
        common["result"] = "win" if self.winner is not None else None
        if seat is not None and 0 <= seat < 3:
            hand = self.known[seat]
            common["hand"] = None if hand is None else tuple(str(c) for c in sorted(hand, key=_order))
        groups = tuple(Group(s, what, tuple(map(str, cards))) for s, cards, what in self.trick)
        beat = None
        if self.beat is not None:
            s, cards, combo = self.beat
            beat = Group(s, str(combo), tuple(map(str, cards)))
        return LandlordView(
            **common, groups=groups, discard=None, deadwood=(),
            bids=tuple(self.bids), landlord=self.landlord, kitty=tuple(map(str, self.kitty)),
            held=tuple(self.held), beat=beat, passes=self.passes, bid=self.bid,
            multiplier=2 ** self.doublings, played=tuple(map(str, self.played)),
        )


    def _live(self) -> tuple[tuple[str, ...], ...]:
        """The deal in play as a last row of the score table (what the board shows): the bids, or
        the combination to beat and the stake's multiplier, the landlord (L) and the cards held."""
        if self.is_over or self._phase == "deal":
            return ()
        if self._phase == "bid":
            return (("bids", "", *("" if b is None else str(b) if b else "-" for b in self.bids)),)
        what = "kitty" if self._phase == "kitty" else str(self.beat[2]) if self.beat is not None else "lead"
        held = (("L" if s == self.landlord else "") + str(n) for s, n in enumerate(self.held))
        return ((f"x{2 ** self.doublings} {what}", "", *held),)


def _order(card: Card) -> tuple[int, str]:
    return power(card), card.suit


__all__ = ["Bid", "Deal", "Kitty", "Landlord", "LandlordState", "LandlordView", "Pass", "Play"]
