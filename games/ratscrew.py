"""Egyptian Ratscrew (seed 002; rule card seeds/ratscrew.md): Beggar My Neighbour's pay-card
pile, plus slaps. Anyone may slap a slappable pile to take it; the engine names the pattern the
instant it appears, rules each slap right or wrong and applies the seed's penalties.

>>> from games.cards import parse_cards
>>> pattern(parse_cards("4H 9S 9D"), DEFAULTS)
'pair'
>>> pattern(parse_cards("QS KD AH 2C"), DEFAULTS)
'round the corner'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from games.cards import FRENCH_52, FRENCH_54, Card
from games.engine import Action, Game, Option, Spec, register
from games.errors import CardError, IllegalActionError, OptionError
from games.pile import Deal, PayPileState, Play, Slap, Take, pile_parts
from games.view import Common, PileView, TableView

#: The slappable patterns, most important first, each with the option that turns it on.
PATTERNS: tuple[tuple[str, str], ...] = (
    ("triple sixes", "triple_sixes"),
    ("triple", "triples"),
    ("joker", "jokers"),
    ("pair", "pairs"),
    ("sandwich", "sandwiches"),
    ("four in a row", "four_in_a_row"),
    ("round the corner", "round_the_corner"),
)

OPTIONS = (
    Option("pairs", True, "two cards of a rank on top may be slapped"),
    Option("triples", True, "slapping three of a rank on top wins the game at once"),
    Option("triple_sixes", True, "slapping three sixes on top: everyone loses"),
    Option("four_in_a_row", True, "four cards in sequence on top (up or down) may be slapped"),
    Option("round_the_corner", True, "sequences may turn the corner from king through ace to two"),
    Option("jokers", False, "play with two jokers; a joker on top may always be slapped"),
    Option("sandwiches", False, "a card between two of a rank may be slapped (not in the seed)"),
    Option("false_slap_limit", 5, "a player slapping wrongly more times than this in a row is out (0: never)",
           low=0, high=52),
)
DEFAULTS: dict[str, Any] = {o.name: o.default for o in OPTIONS}


def _run(cards: Sequence[Card], corner: bool) -> bool:
    ranks = [c.rank for c in cards]
    for high_ace in (False, True):
        values = [14 if high_ace and r == 1 else r for r in ranks]
        steps = {b - a for a, b in zip(values, values[1:], strict=False)}
        if steps in ({1}, {-1}):
            return True
    if corner:
        steps = {(b - a) % 13 for a, b in zip(ranks, ranks[1:], strict=False)}
        return steps in ({1}, {12})
    return False


def pattern(pile: Sequence[Card], options: Mapping[str, Any]) -> str | None:
    """The slappable pattern on top of ``pile`` (bottom card first) under ``options``, or None."""
    top = list(pile[-4:])
    if not top:
        return None
    found: set[str] = set()
    if top[-1].is_joker:
        found.add("joker")
    plain = not any(c.is_joker for c in top)
    last3 = top[-3:]
    if len(last3) == 3 and not any(c.is_joker for c in last3) and len({c.rank for c in last3}) == 1:
        found.add("triple sixes" if last3[0].rank == 6 else "triple")
        found.add("triple")
    if len(top) >= 2 and not top[-1].is_joker and top[-1].rank == top[-2].rank:
        found.add("pair")
    if len(top) >= 3 and not top[-1].is_joker and top[-1].rank == top[-3].rank:
        found.add("sandwich")
    if len(top) == 4 and plain:
        if _run(top, False):
            found.add("four in a row")
        elif _run(top, True):
            found.add("round the corner")
    for name, option in PATTERNS:
        if name in found and options.get(option):
            if name == "round the corner" and not options.get("four_in_a_row"):
                continue
            return name
    return None


@dataclass(frozen=True)
class SlapRuling:
    """The judgement of the last slap: ``right`` None when the slap did not count (an empty
    table, a player out), ``to`` the seat that took the pile, ``say`` the ruling in words."""

    slap: int
    right: bool | None
    pattern: str | None
    to: int | None
    say: str


@dataclass(frozen=True, kw_only=True)
class RatscrewView(PileView):
    """The pile with what can be slapped on it now and the ruling of the last slap."""

    style: ClassVar[str] = "pile.ratscrew"

    slappable: str | None  # the pattern on top of the pile, or None
    ruling: SlapRuling | None
    false_slaps: tuple[int, ...]  # wrong slaps in a row, per seat
    banned: tuple[int, ...]  # seats put out for slapping wrongly too often


@register
class Ratscrew(Game):
    spec = Spec(
        name="ratscrew",
        title="Egyptian Ratscrew",
        players=(2, 3, 4, 5, 6, 7, 8),
        deck="french52",
        table="pile",
        target=None,
        aliases=("egyptian ratscrew", "egyptian-ratscrew", "egyptian war"),
        pegged=False,
        options=OPTIONS,
        summary="Beggar My Neighbour with slaps: pairs, runs and more take the pile.",
    )
    actions = (Deal, Play, Take, Slap)

    @property
    def deck(self) -> tuple[Card, ...]:
        return FRENCH_54 if self.options["jokers"] else FRENCH_52

    def parse_card(self, text: str) -> Card:
        card = Card.parse(text)
        if card.is_joker and not self.options["jokers"]:
            raise CardError(f"{text!r}: this game is played without jokers (option 'jokers')")
        return card

    def validate(self) -> None:
        if self.options["false_slap_limit"] < 0:
            raise OptionError("option 'false_slap_limit' cannot be negative")

    def new_initial_state(self) -> RatscrewState:
        return RatscrewState(self)


class RatscrewState(PayPileState):
    game: Ratscrew
    all_cards = True

    def __init__(self, game: Ratscrew) -> None:
        super().__init__(game)
        n = game.num_players
        self.false_slaps = [0] * n  # wrong slaps in a row
        self.banned: set[int] = set()
        self.burned = False
        self.ruling: SlapRuling | None = None

    @property
    def is_over(self) -> bool:
        return self.burned or super().is_over

    def result_text(self) -> str:
        if self.burned:
            return "triple sixes slapped: everyone lost (burn the deck)"
        return super().result_text()

    @property
    def pack(self) -> tuple[Card, ...]:
        return self.game.deck

    def slappable(self) -> str | None:
        if self.table is None or self.is_over:
            return None
        return pattern([c for _, c in self.table.pile], self.game.options)

    def alert_words(self) -> str:
        slap = self.slappable()
        return f"Slappable: {slap}! " if slap else ""

    def owing_words(self, name: str, owed: int) -> str:
        return f"{name}: {owed} chance{'s' if owed > 1 else ''} to play a face card or ace"

    def _apply(self, action: Action) -> None:
        if isinstance(action, Deal):
            self._deal(action)
            return
        t = self.table
        if t is None:
            raise IllegalActionError("deal the stacks first")
        self.ruling = None
        if isinstance(action, Play):
            if action.player in self.banned:
                raise IllegalActionError(f"{self.game.players[action.player]} is out of the game")
            t.play(action.player, action.card)
        elif isinstance(action, Take):
            t.take(action.player)
        elif isinstance(action, Slap):
            self._slap(action.player)
        if t.winner is not None and not self.burned:
            self.winner = t.winner

    def _slap(self, seat: int) -> None:
        t = self.table
        assert t is not None
        names = self.game.players
        if not t.pile:
            self.ruling = SlapRuling(seat, None, None, None, f"{names[seat]} slapped an empty table: nothing happens")
            return
        found = self.slappable()
        if seat in self.banned:
            self.ruling = SlapRuling(seat, None, found, None, f"{names[seat]} is out of the game: the slap is ignored")
            return
        if found is not None:
            self.false_slaps[seat] = 0
            ruling = SlapRuling(seat, True, found, seat, "")
            if found == "triple sixes":
                self.burned = True
                ruling = replace(ruling, say=f"{names[seat]} slapped triple sixes: everyone loses")
            elif found == "triple":
                t.give(seat)
                self.winner = self.side_of(seat)
                ruling = replace(ruling, say=f"{names[seat]} slapped a triple and wins the game")
            else:
                t.give(seat)
                ruling = replace(ruling, say=f"{names[seat]} slapped {found} and takes the pile")
            self.ruling = ruling
            return
        if t.out[seat]:
            self.ruling = SlapRuling(seat, False, None, None,
                                     f"{names[seat]} is not in the game: the wrong slap is ignored")
            return
        to = self._penalty_taker(seat)
        self.false_slaps[seat] += 1
        t.give(to)
        say = f"wrong slap by {names[seat]}: {names[to]} takes the pile"
        limit = self.game.options["false_slap_limit"]
        if limit and self.false_slaps[seat] > limit:
            self.banned.add(seat)
            t.remove(seat)
            say += f"; {names[seat]} slapped wrongly {self.false_slaps[seat]} times in a row and is out"
        self.ruling = SlapRuling(seat, False, None, to, say)

    def _penalty_taker(self, seat: int) -> int:
        """The seed's penalty: the last player to play takes the pile, unless the slap was on
        their own card; then the player who played before them does."""
        t = self.table
        assert t is not None
        for player, _ in reversed(t.pile):
            if player != seat and player not in self.banned:
                return player
        for step in range(1, t.n):
            other = (seat - step) % t.n
            if other not in self.banned and t.sizes[other] > 0:
                return other
        return seat

    def _view(self, common: Common, seat: int | None) -> TableView:
        common["result"] = "everyone lost" if self.burned else "win" if self.winner is not None else None
        parts = pile_parts(common, self.table, self.dealer)
        slap = self.slappable()
        return RatscrewView(**common, **parts, slappable=slap, alert=None if slap is None else f"slap: {slap}",
                            ruling=self.ruling,
                            false_slaps=tuple(self.false_slaps), banned=tuple(sorted(self.banned)))


__all__ = ["DEFAULTS", "PATTERNS", "Ratscrew", "RatscrewState", "RatscrewView", "SlapRuling", "pattern"]
