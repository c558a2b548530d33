"""Beggar My Neighbour (seed 002; rule card seeds/beggar.md): turn cards onto a pile, pay for
aces, kings, queens and jacks, take the pile you are owed; whoever runs out of cards loses.

No choice is ever made, so a known deal can be played out: :func:`play_out` reads the
record-deal notation (``-`` an ordinary card, ``J Q K A`` the pay cards, top card first, player 1
leads) and finds the winner, or the cycle of a deal that never ends.

>>> out = play_out(["-Q--", "-J--"])
>>> out.winner, out.cards, out.tricks, out.trick_list[0].cards
(1, 8, 1, '--QJ-')
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from games.cards import Card
from games.engine import Action, Game, ScoreRequest, Spec, register
from games.errors import CardError, IllegalActionError, OptionError
from games.jsontypes import JSONObject
from games.pile import Deal, PayPile, PayPileState, Play, Take, pile_parts
from games.view import Common, PileView, TableView

NOTATION_PAY = {"-": 0, "J": 1, "Q": 2, "K": 3, "A": 4}


# ------------------------------------------------------------------------- known deals


@dataclass(frozen=True)
class Trick:
    """One pile won: who took it and its cards in the notation, in play order."""

    winner: int
    cards: str

    def to_json(self) -> JSONObject:
        return {"winner": self.winner + 1, "cards": self.cards}


@dataclass(frozen=True)
class Cycle:
    """A deal that never ends: the play from trick ``start`` repeats every ``tricks`` tricks."""

    start: int
    tricks: int
    cards: int

    def to_json(self) -> JSONObject:
        return {"start_trick": self.start, "tricks": self.tricks, "cards": self.cards}


@dataclass(frozen=True)
class Outcome:
    """The play-out of a known deal: the winner (seat, 0-based) or the cycle found."""

    stacks: tuple[str, ...]
    winner: int | None
    cards: int
    tricks: int
    trick_list: tuple[Trick, ...]
    cycle: Cycle | None

    def to_json(self) -> JSONObject:
        return {
            "stacks": list(self.stacks),
            "winner": None if self.winner is None else self.winner + 1,
            "cards": self.cards,
            "tricks": self.tricks,
            "cycle": None if self.cycle is None else self.cycle.to_json(),
            "trick_list": [t.to_json() for t in self.trick_list],
        }

    def text(self, *, listing: bool = False) -> str:
        lines = [f"Player {i + 1}: {s}" for i, s in enumerate(self.stacks)]
        if self.cycle is not None:
            c = self.cycle
            lines.append(
                f"Never ends: from trick {c.start + 1} the play repeats every {c.tricks} tricks "
                f"({c.cards} cards)."
            )
        else:
            assert self.winner is not None
            tricks = f"{self.tricks} trick{'' if self.tricks == 1 else 's'}"
            lines.append(f"Player {self.winner + 1} wins after {self.cards} cards and {tricks}.")
        if listing:
            lines += [f"{i + 1:5d}. player {t.winner + 1} takes {t.cards}" for i, t in enumerate(self.trick_list)]
        return "\n".join(lines)


def parse_stack(text: str, seat: int) -> str:
    """Read one stack of the notation; digits and ``T``/``X`` also stand for ordinary cards."""
    out = []
    for ch in text.strip().upper():
        if ch in NOTATION_PAY:
            out.append(ch)
        elif ch in "23456789TX0":
            out.append("-")
        else:
            raise CardError(
                f"stack {seat + 1} has {ch!r}: write '-' for an ordinary card and J, Q, K, A for pay cards"
            )
    if not out:
        raise CardError(f"stack {seat + 1} is empty")
    return "".join(out)


def parse_deal(stacks: Sequence[str]) -> tuple[str, ...]:
    """Check a deal in the notation: 2 to 4 stacks, at most a pack's worth of each card."""
    if not 2 <= len(stacks) <= 4:
        raise CardError(f"Beggar My Neighbour needs 2 to 4 stacks, not {len(stacks)}")
    deal = tuple(parse_stack(s, i) for i, s in enumerate(stacks))
    joined = "".join(deal)
    for court in "JQKA":
        if joined.count(court) > 4:
            raise CardError(f"the deal has {joined.count(court)} {court}s; a pack has four")
    if len(joined) > 52:
        raise CardError(f"the deal has {len(joined)} cards; a pack has 52")
    return deal


def play_out(stacks: Sequence[str], *, max_tricks: int = 1_000_000) -> Outcome:
    """Play a known deal to its end, or to the first repeated position (a cycle).

    A position is the stacks and who leads, taken each time a pile is won; seeing one again
    proves the deal never ends. ``max_tricks`` only bounds the work on a malformed input."""
    deal = parse_deal(stacks)
    table: PayPile[str] = PayPile([len(s) for s in deal], 0, NOTATION_PAY.__getitem__, deal)
    assert table.stacks is not None
    seen: dict[tuple[str, ...], tuple[int, int]] = {}
    tricks: list[Trick] = []
    cycle = None
    while table.winner is None:
        if table.taker is not None:
            taker = table.taker
            pile = table.take(taker)
            tricks.append(Trick(taker, "".join(c for _, c in pile)))
            if table.winner is not None:
                break
            key = (*("".join(s) for s in table.stacks), str(taker))
            if key in seen:
                first, cards = seen[key]
                cycle = Cycle(first, table.tricks - first, table.played - cards)
                break
            seen[key] = (table.tricks, table.played)
            if table.tricks >= max_tricks:
                raise CardError(f"no end nor cycle within {max_tricks} tricks")
            continue
        seat = table.turn
        if seat is None:  # every stack ran out onto a pile nobody can take
            raise CardError("the deal has no pay card (J, Q, K, A): nobody ever takes the pile")
        table.play(seat, table.stacks[seat][0])
    return Outcome(deal, table.winner, table.played, table.tricks, tuple(tricks), cycle)


def score_command(argv: Sequence[str], *, as_json: bool) -> str:
    """``pegpi score beggar STACK1 STACK2 [STACK3 STACK4]``: the play-out as text or JSON."""
    outcome = play_out(list(argv))
    if as_json:
        return json.dumps(outcome.to_json(), indent=2)
    return outcome.text(listing=True)


# ------------------------------------------------------------------------- the engine


@register
class Beggar(Game):
    spec = Spec(
        name="beggar",
        title="Beggar My Neighbour",
        players=(2, 3, 4),
        deck="french52",
        table="pile",
        target=None,
        aliases=("beggar-my-neighbour", "beggar my neighbour", "strip jack naked", "beat your neighbour"),
        pegged=False,
        summary="Turn cards onto a pile, pay for court cards and aces; the last with cards wins.",
    )
    actions = (Deal, Play, Take)

    @classmethod
    def score_command(cls, request: ScoreRequest) -> str:
        """`pegpi score beggar STACK1 STACK2 [STACK3 STACK4] [--json]`: play a known deal out."""
        if request.starter is not None or request.crib:
            raise OptionError("pegpi score beggar takes the stacks only, without --starter or --crib")
        return score_command(request.words, as_json=request.as_json)

    def parse_card(self, text: str) -> Card:
        card = Card.parse(text)
        if card.is_joker:
            raise CardError(f"{text!r}: Beggar My Neighbour is played without jokers")
        return card

    def new_initial_state(self) -> BeggarState:
        return BeggarState(self)


class BeggarState(PayPileState):
    game: Beggar

    def _apply(self, action: Action) -> None:
        if isinstance(action, Deal):
            self._deal(action)
            return
        t = self.table
        if t is None:
            raise IllegalActionError("deal the stacks first")
        if isinstance(action, Play):
            t.play(action.player, action.card)
        elif isinstance(action, Take):
            t.take(action.player)
        if t.winner is not None:
            self.winner = t.winner

    def _view(self, common: Common, seat: int | None) -> TableView:
        common["result"] = "win" if self.winner is not None else None
        parts = pile_parts(common, self.table, self.dealer)
        return PileView(**common, **parts)


__all__ = ["Beggar", "BeggarState", "Cycle", "Outcome", "Trick", "parse_deal", "play_out", "score_command"]
