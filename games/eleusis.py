"""New Eleusis (seed 002; rule card seeds/eleusis.md): God (the dealer) keeps a secret rule,
the scientists play cards onto a main line and learn from what is called right or wrong, a
prophet may take over the calls, and the round is scored on the cards left in hand.

The engine is God's memory: it holds the rule (built with :mod:`games.eleusis_rules`), judges
every play, approves or overthrows the prophet, counts everyone's cards, the markers and sudden
death. The rule is in God's view only, until the round ends and it is revealed to all.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import ClassVar

from games.cards import Card
from games.eleusis_rules import LIBRARY, Rule, judge, judge_sequence, read_rule
from games.engine import Action, Game, Item, Option, Spec, State, register
from games.errors import CardError, IllegalActionError, OptionError
from games.table import Zone
from games.view import Common, PileView, TableView

PENALTY_CARD = 2  # per card of a wrong play
PENALTY_NOPLAY = 5
PENALTY_PROPHET = 5
NOPLAY_FEWER = 4
OUT_BONUS = 4
EARLY_END_BONUS = 10


@dataclass(frozen=True)
class EDeal(Action):
    """A round starts: ``dealer`` is God (default: the next player in turn to deal)."""

    act: ClassVar[str] = "deal"
    dealer: int | None = None


@dataclass(frozen=True)
class SetRule(Action):
    """God enters the secret rule: JSON from the rule builder, or a library rule's name."""

    act: ClassVar[str] = "rule"
    player: int
    rule: str


@dataclass(frozen=True)
class Starter(Action):
    """The starter card is turned up: the first card of the main line."""

    act: ClassVar[str] = "starter"
    card: Card


@dataclass(frozen=True)
class PlayCards(Action):
    """A scientist plays one card, or a string of two to four."""

    act: ClassVar[str] = "play"
    player: int
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class NoPlay(Action):
    """A scientist declares "no play", showing the whole hand (``cards``)."""

    act: ClassVar[str] = "noplay"
    player: int
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class Prophet(Action):
    """The player who has just played declares themself prophet."""

    act: ClassVar[str] = "prophet"
    player: int


@dataclass(frozen=True)
class Call(Action):
    """The prophet calls the pending play right or wrong (for "no play": the claim is right)."""

    act: ClassVar[str] = "call"
    player: int
    right: bool


@dataclass(frozen=True)
class End(Action):
    """End the game early, between rounds: who has never dealt gets 10 points."""

    act: ClassVar[str] = "end"


@register
class Eleusis(Game):
    spec = Spec(
        name="eleusis",
        title="New Eleusis",
        players=(4, 5, 6, 7, 8),
        deck="french52x2",
        table="line",
        target=None,
        aliases=("new eleusis", "new-eleusis"),
        pegged=False,
        options=(
            Option("hand", 14, "cards dealt to each scientist", low=1, high=20),
            Option("rounds", 0, "rounds in the game (0: until everyone has dealt once)", low=0, high=20),
            Option("sudden_death", 40, "cards played before sudden death without a prophet", low=1, high=104),
            Option("prophet_sudden_death", 30, "cards played after a prophet starts before sudden death",
                   low=1, high=104),
        ),
        summary="God's secret rule decides which cards are right; find it, then prophesy.",
    )
    actions = (EDeal, SetRule, Starter, PlayCards, NoPlay, Prophet, Call, End)

    def parse_card(self, text: str) -> Card:
        card = Card.parse(text)
        if card.is_joker:
            raise CardError(f"{text!r}: New Eleusis is played without jokers")
        return card

    def validate(self) -> None:
        for name in ("hand", "sudden_death", "prophet_sudden_death"):
            if self.options[name] < 1:
                raise OptionError(f"option {name!r} must be at least 1")
        if self.options["rounds"] < 0:
            raise OptionError("option 'rounds' cannot be negative")

    @property
    def rounds(self) -> int:
        return int(self.options["rounds"]) or self.num_players

    def new_initial_state(self) -> EleusisState:
        return EleusisState(self)


# ----------------------------------------------------------------------------- view parts


@dataclass(frozen=True)
class LinePlace:
    """A card of the main line with the sideline of wrong cards played under it."""

    card: str
    under: tuple[str, ...]


@dataclass(frozen=True)
class PendingPlay:
    """A play awaiting the prophet's call; ``truth`` (God's verdict) is in God's view only."""

    player: int
    kind: str  # "play" or "noplay"
    cards: tuple[str, ...]
    truth: bool | None = None


@dataclass(frozen=True)
class EleusisRuling:
    """What the last play (or declaration) came to, in words and in parts."""

    say: str
    player: int | None = None
    kind: str | None = None  # "play" or "noplay"; None when a prophet is declared
    cards: tuple[str, ...] = ()
    right: bool | None = None
    expelled: bool = False
    penalty: int = 0  # cards dealt to the player as a penalty
    played: str | None = None  # the card God played from a wrong "no play" hand
    overthrown: int | None = None  # the prophet overthrown by this call
    prophet: int | None = None  # the player who has just declared themself prophet


def _rule_text(rule: Rule) -> str:
    """The rule as the builder's JSON text (what a :class:`SetRule` action takes)."""
    return json.dumps(rule.to_json(), separators=(",", ":"))


@dataclass(frozen=True)
class RuleCard:
    """A rule: its words and the builder's JSON text; ``name`` and ``level`` for a library rule,
    ``dealer`` for the rule of a round that is over (revealed to all)."""

    words: str
    rule: str
    name: str | None = None
    level: int | None = None
    dealer: int | None = None


@dataclass(frozen=True, kw_only=True)
class EleusisView(PileView):
    """The main line (``pile``: its cards) with the sidelines, hand sizes as ``stacks`` (God holds
    none), the markers, the prophet; the secret rule and the rule library only in God's view."""

    style: ClassVar[str] = "pile.eleusis"

    god: int | None
    round: int
    starter: str | None
    line: tuple[LinePlace, ...]
    prophet: int | None
    white_markers: tuple[int, ...]  # one each 10 cards played
    black_markers: tuple[int, ...]  # one each 10 cards from the prophet's start
    sudden_death: bool
    expelled: tuple[int, ...]
    pending: PendingPlay | None
    ruling: EleusisRuling | None
    revealed: RuleCard | None  # the rule of the round last ended
    rule: RuleCard | None = None  # God's own secret rule
    library: tuple[RuleCard, ...] = ()  # rules God may pick, while choosing


@dataclass(frozen=True)
class Pending:
    """A play awaiting the prophet's call; ``truth`` is God's verdict, never shown to players."""

    player: int
    kind: str  # "play" or "noplay"
    cards: tuple[Card, ...]
    truth: bool


class EleusisState(State):
    game: Eleusis

    def __init__(self, game: Eleusis) -> None:
        super().__init__(game)
        n = game.num_players
        self._phase = "deal"
        self.dealer: int | None = None
        self.dealt: list[int] = []  # God of each round, in order
        self.rule: Rule | None = None
        self.hands = [0] * n
        self.line: list[Card] = []
        self.under: list[list[Card]] = []  # the sideline of wrong cards under each main-line card
        self.played: list[tuple[int, Card, bool]] = []  # every card played: seat, card, right
        self.turn: int | None = None
        self.last_player: int | None = None
        self.prophet: int | None = None
        self.prophet_start: int | None = None  # cards played when the prophet started
        self.been_prophet: set[int] = set()
        self.expelled: set[int] = set()
        self.pending: Pending | None = None
        self.ruling: EleusisRuling | None = None
        self.revealed: RuleCard | None = None

    # -- what the table sees ----------------------------------------------------------------

    @property
    def phase(self) -> str:
        return "over" if self.is_over else self._phase

    def players_in(self) -> list[int]:
        """Scientists who may still play this round (not God, the prophet or the expelled)."""
        n = self.game.num_players
        return [s for s in range(n) if s not in (self.dealer, self.prophet) and s not in self.expelled]

    @property
    def sudden_death(self) -> bool:
        opts = self.game.options
        if self.prophet is not None and self.prophet_start is not None:
            return len(self.played) - self.prophet_start >= int(opts["prophet_sudden_death"])
        return len(self.played) >= int(opts["sudden_death"])

    def to_move(self, action: Action) -> Sequence[int] | None:
        if isinstance(action, SetRule):
            return [] if self.dealer is None else [self.dealer]
        if isinstance(action, PlayCards | NoPlay):
            return [] if self.turn is None else [self.turn]
        if isinstance(action, Call):
            return [] if self.prophet is None else [self.prophet]
        return None

    def prompt(self) -> str:
        names = self.game.players
        if self.is_over:
            return self.result_text()
        if self._phase == "deal":
            return "Deal a round: who is God?"
        assert self.dealer is not None
        if self._phase == "rule":
            return f"{names[self.dealer]} (God) enters the secret rule"
        if self._phase == "starter":
            return "Turn up the starter card"
        if self._phase == "call":
            assert self.prophet is not None
            return f"{names[self.prophet]} (prophet): right or wrong?"
        assert self.turn is not None
        return f"{names[self.turn]} to play" + (" (sudden death)" if self.sudden_death else "")

    # -- the line table's questions (games.table.PileTable) ------------------------------------

    def whose_turn(self) -> int | None:
        return self.turn if self.phase == "play" else None

    def zone_owner(self, zone: Zone) -> int | None:
        return None

    def zone_label(self, zone: Zone) -> str:
        return {"line": "the main line", "side": "the sidelines"}.get(zone.kind, zone.name)

    def zone_cards(self, zone: Zone) -> list[str]:
        if zone.kind == "line":
            return [str(c) for c in self.line]
        if zone.kind == "side":  # in the order played: each sideline is filled before the next starts
            return [str(c) for under in self.under for c in under]
        return []

    def card_means(self, zone: Zone, card: str) -> list[Action] | None:
        """A card laid in the main line (or straight into a sideline) is the starter, or a
        one-card play of the scientist to play; a string of cards is entered on the phone."""
        face = self.game.parse_card(card)
        if zone.kind not in ("line", "side"):
            raise IllegalActionError("cards are laid in the main line")
        phase = self.phase
        if phase == "starter" and zone.kind == "line":
            return [Starter(face)]
        if phase == "play" and self.turn is not None:
            return [PlayCards(self.turn, (face,))]
        raise IllegalActionError(f"no card is played now: {self.prompt()}")

    def lies_face_down(self, zone: Zone) -> bool:
        return False

    def lifted(self, zone: Zone) -> Action | None:
        return None  # the line moved along, or cleared for the next round: the game keeps it all

    # -- actions ----------------------------------------------------------------------------

    def _need(self, action: Action, *phases: str) -> None:
        if self._phase not in phases:
            raise IllegalActionError(f"cannot {action.act} now: {self.prompt() or self._phase}")

    def _apply(self, action: Action) -> None:
        if isinstance(action, EDeal):
            self._need(action, "deal")
            self._deal(action)
        elif isinstance(action, SetRule):
            self._need(action, "rule")
            self.rule = read_rule(action.rule)
            self._phase = "starter"
        elif isinstance(action, Starter):
            self._need(action, "starter")
            self._starter(action.card)
        elif isinstance(action, PlayCards):
            self._need(action, "play")
            self._play(action)
        elif isinstance(action, NoPlay):
            self._need(action, "play")
            self._noplay(action)
        elif isinstance(action, Prophet):
            self._need(action, "play")
            self._declare(action.player)
        elif isinstance(action, Call):
            self._need(action, "call")
            self._call(action)
        elif isinstance(action, End):
            self._need(action, "deal")
            self._finish(early=True)

    def _deal(self, action: EDeal) -> None:
        n = self.game.num_players
        dealer = action.dealer
        if dealer is None:
            dealer = 0 if not self.dealt else (self.dealt[-1] + 1) % n
        if not 0 <= dealer < n:
            raise IllegalActionError(f"there is no player {dealer} to deal")
        self.dealer = dealer
        self.hands = [0 if s == dealer else self.game.options["hand"] for s in range(n)]
        self.rule = None
        self.line, self.under, self.played = [], [], []
        self.turn = self.last_player = self.prophet = self.prophet_start = None
        self.been_prophet, self.expelled = set(), set()
        self.pending = self.ruling = None
        self._phase = "rule"

    def _starter(self, card: Card) -> None:
        assert self.dealer is not None
        n = self.game.num_players
        self.line, self.under = [card], [[]]
        order = [(self.dealer + k) % n for k in range(1, n)]
        self.turn = order[(card.rank - 1) % len(order)]
        self._phase = "play"

    def _play(self, action: PlayCards) -> None:
        assert self.rule is not None
        cards = action.cards
        if not 1 <= len(cards) <= 4:
            raise IllegalActionError(f"play one card or a string of two to four, not {len(cards)}")
        if len(cards) > self.hands[action.player]:
            raise IllegalActionError(
                f"{self.game.players[action.player]} holds only {self.hands[action.player]} cards")
        truth = judge_sequence(self.rule, self.line, cards)
        if self.prophet is not None:
            self.pending = Pending(action.player, "play", cards, truth)
            self.ruling = None
            self._phase = "call"
            return
        self._resolve(Pending(action.player, "play", cards, truth), penalize=True)

    def _noplay(self, action: NoPlay) -> None:
        assert self.rule is not None
        held = self.hands[action.player]
        if len(action.cards) != held:
            raise IllegalActionError(
                f"show the whole hand for no play: {held} cards, not {len(action.cards)}")
        truth = not any(judge(self.rule, self.line, c) for c in action.cards)
        if self.prophet is not None:
            self.pending = Pending(action.player, "noplay", action.cards, truth)
            self.ruling = None
            self._phase = "call"
            return
        self._resolve(Pending(action.player, "noplay", action.cards, truth), penalize=True)

    def _call(self, action: Call) -> None:
        pending = self.pending
        assert pending is not None and self.prophet is not None
        names = self.game.players
        self.pending = None
        if action.right == pending.truth:
            self._resolve(pending, penalize=True, approved=True)
            return
        prophet = self.prophet
        self.hands[prophet] += PENALTY_PROPHET
        self.prophet = self.prophet_start = None
        self._resolve(pending, penalize=False)
        assert self.ruling is not None
        self.ruling = replace(self.ruling, overthrown=prophet, say=self.ruling.say + (
            f"; God disapproves: {names[prophet]} is overthrown and takes {PENALTY_PROPHET} cards"))

    def _resolve(self, p: Pending, *, penalize: bool, approved: bool = False) -> None:
        assert self.rule is not None
        names = self.game.players
        sudden = self.sudden_death
        who = names[p.player]
        expelled, penalty, played = False, 0, None
        if p.kind == "play":
            self.hands[p.player] -= len(p.cards)
            for card in p.cards:
                self.played.append((p.player, card, p.truth))
                if p.truth:
                    self.line.append(card)
                    self.under.append([])
                else:
                    self.under[-1].append(card)
            say = f"{who}: {'right' if p.truth else 'wrong'}"
            if not p.truth and penalize:
                if sudden:
                    self.expelled.add(p.player)
                    expelled = True
                    say += " in sudden death: expelled"
                else:
                    penalty = PENALTY_CARD * len(p.cards)
                    self.hands[p.player] += penalty
                    say += f", {penalty} penalty cards"
        elif p.truth:
            self.hands[p.player] = max(0, len(p.cards) - NOPLAY_FEWER)
            say = f"{who}: no play is right; a new hand of {self.hands[p.player]}"
        elif penalize:
            good = next(c for c in p.cards if judge(self.rule, self.line, c))
            self.line.append(good)
            self.under.append([])
            self.played.append((p.player, good, True))
            played = str(good)
            self.hands[p.player] -= 1
            say = f"{who}: there was a play, {good}"
            if sudden:
                self.expelled.add(p.player)
                expelled = True
                say += "; expelled in sudden death"
            else:
                penalty = PENALTY_NOPLAY
                self.hands[p.player] += PENALTY_NOPLAY
                say += f"; {PENALTY_NOPLAY} penalty cards"
        else:
            say = f"{who}: there was a play; the hand is returned without penalty"
        if approved:
            say += " (the prophet's call, approved)"
        self.ruling = EleusisRuling(say, p.player, p.kind, tuple(str(c) for c in p.cards), p.truth, expelled,
                                    penalty, played)
        self.last_player = p.player
        self._phase = "play"
        self._next_turn(p.player)

    def _next_turn(self, after: int) -> None:
        n = self.game.num_players
        ins = self.players_in()
        out = any(self.hands[s] == 0 for s in range(n) if s not in (self.dealer, self.prophet))
        if out or not ins:
            self._end_round()
            return
        for step in range(1, n + 1):
            seat = (after + step) % n
            if seat in ins:
                self.turn = seat
                return

    def _declare(self, seat: int) -> None:
        names = self.game.players
        if seat != self.last_player:
            raise IllegalActionError("only the player who has just played may become prophet")
        if self.prophet is not None:
            raise IllegalActionError(f"{names[self.prophet]} is already prophet")
        if seat in self.been_prophet:
            raise IllegalActionError(f"{names[seat]} has already been prophet this round")
        if seat in self.expelled:
            raise IllegalActionError(f"{names[seat]} has been expelled")
        others = [s for s in self.players_in() if s != seat]
        if len(others) < 2:
            raise IllegalActionError("a prophet needs two or more other players still in")
        self.prophet = seat
        self.prophet_start = len(self.played)
        self.been_prophet.add(seat)
        if self.turn == seat:
            self._next_turn(seat)
        self.ruling = EleusisRuling(f"{names[seat]} is prophet", prophet=seat)

    # -- the end of a round and of the game ----------------------------------------------------

    def round_points(self) -> list[int]:
        """Each player's points for the round as it stands (the seed's scoring)."""
        n = self.game.num_players
        assert self.dealer is not None
        seats = [s for s in range(n) if s != self.dealer]
        high = max(self.hands[s] for s in seats)
        points = [0] * n
        for s in seats:
            points[s] = high - self.hands[s] + (OUT_BONUS if self.hands[s] == 0 else 0)
        before = len(self.played)
        if self.prophet is not None and self.prophet_start is not None:
            after = self.played[self.prophet_start:]
            points[self.prophet] += sum(1 if right else 2 for _, _, right in after)
            before = self.prophet_start
        points[self.dealer] = min(max(points[s] for s in seats), 2 * before)
        return points

    def _end_round(self) -> None:
        assert self.dealer is not None and self.rule is not None
        for seat, pts in enumerate(self.round_points()):
            label = "God" if seat == self.dealer else "true prophet" if seat == self.prophet else "hand"
            self.peg(seat, pts, "round", [Item("round", (), pts, label)])
        self.revealed = RuleCard(self.rule.words(), _rule_text(self.rule), dealer=self.dealer)
        self.dealt.append(self.dealer)
        self.turn = None
        self.pending = None
        self._phase = "deal"
        if len(self.dealt) >= self.game.rounds:
            self._finish(early=False)

    def _finish(self, *, early: bool) -> None:
        if early:
            for seat in range(self.game.num_players):
                if seat not in self.dealt:
                    self.peg(seat, EARLY_END_BONUS, "never dealt", [Item("never dealt", (), EARLY_END_BONUS)])
        best = max(self.scores)
        self.winner = self.scores.index(best)
        self._phase = "over"

    # -- views ------------------------------------------------------------------------------

    def _view(self, common: Common, seat: int | None) -> TableView:
        common["dealer"] = self.dealer
        common["turn"] = self.turn
        common["result"] = "win" if self.winner is not None else None
        played = len(self.played)
        god = seat is not None and seat == self.dealer and self._phase != "deal"
        pending = None
        if self.pending is not None:
            p = self.pending
            pending = PendingPlay(p.player, p.kind, tuple(str(c) for c in p.cards), p.truth if god else None)
        return EleusisView(
            **common,
            pile=tuple(str(c) for c in self.line),
            stacks=tuple(self.hands),
            out=tuple(sorted(self.expelled)),
            cards_played=played,
            god=self.dealer,
            round=len(self.dealt) + (0 if self._phase in ("deal", "over") else 1),
            starter=str(self.line[0]) if self.line else None,
            line=tuple(LinePlace(str(c), tuple(str(u) for u in under))
                       for c, under in zip(self.line, self.under, strict=True)),
            prophet=self.prophet,
            white_markers=tuple(range(10, played + 1, 10)),
            black_markers=(() if self.prophet_start is None or self.prophet is None
                           else tuple(range(max(self.prophet_start, 1), played + 1, 10))),
            sudden_death=self._phase in ("play", "call") and self.sudden_death,
            expelled=tuple(sorted(self.expelled)),
            pending=pending,
            ruling=self.ruling,
            revealed=self.revealed,
            rule=(RuleCard(self.rule.words(), _rule_text(self.rule))
                  if god and self.rule is not None else None),
            library=(tuple(RuleCard(e.rule.words(), _rule_text(e.rule), name=e.name, level=e.level)
                           for e in LIBRARY.values()) if god and self._phase == "rule" else ()),
        )


__all__ = [
    "Call", "EDeal", "Eleusis", "EleusisRuling", "EleusisState", "EleusisView", "End", "LinePlace", "NoPlay",
    "Pending", "PendingPlay", "PlayCards", "Prophet", "RuleCard", "SetRule", "Starter",
]
