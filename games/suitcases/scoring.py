"""Suitcases scoring (David L. Van Slyke's rules, seed 001) as pure functions with breakdowns.

The seed's worked example, a 4, a 5 and all three 6s:

>>> from games.decktet import parse_decktet
>>> hand = parse_decktet("the Lunatic, the Penitent, the Market, the Mountain")
>>> score_show(hand, parse_decktet("the Forest")[0]).total
24
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.bhargage import combos
from games.decktet import DecktetCard
from games.engine import Item, Score

#: the choices for ranking Courts and Crowns, which the seed leaves open
FACE_RANKS = ("crown10", "unranked")
SET_NAMES = {2: "pair", 3: "three of a kind", 4: "four of a kind", 5: "five of a kind", 6: "six of a kind"}


@dataclass(frozen=True, slots=True)
class Rules:
    """How cards are read. ``face_ranks``: "crown10" gives Crowns rank 10 (after the 9) and
    leaves Courts unranked like Pawns; "unranked" leaves both unranked. ``excuse_melds``: the
    suitless Excuse may be in or out of a meld, doubling it (as in Bhargage)."""

    face_ranks: str = "crown10"
    excuse_melds: bool = False

    def number(self, card: DecktetCard) -> int | None:
        """Rank for sums of 11 and runs: Excuse 0, Ace 1, 2 to 9; Pawns none; faces by option."""
        if card.rank == "Excuse":
            return 0
        if card.rank == "Ace":
            return 1
        if card.rank.isdigit():
            return int(card.rank)
        if card.rank == "Crown" and self.face_ranks == "crown10":
            return 10
        return None


STANDARD = Rules()


def kind(card: DecktetCard) -> str:
    """Pairs and of-a-kinds go by rank name: Pawns pair with Pawns, Courts with Courts."""
    return card.rank


def set_item(cards: Sequence[DecktetCard]) -> Item:
    name = SET_NAMES[len(cards)]
    return Item("pair" if len(cards) == 2 else "set", tuple(cards), combos.set_points(len(cards)), name)


def elevens(cards: Sequence[DecktetCard], rules: Rules = STANDARD) -> list[Item]:
    """Every distinct combination of ranked cards adding to 11, one point each; the Excuse
    (rank 0) may be in or out, doubling them; Pawns take no part."""
    return [Item("eleven", combo, 1, "11") for combo in combos.sums_to(cards, 11, rules.number)]


def runs(cards: Sequence[DecktetCard], rules: Rules = STANDARD) -> list[Item]:
    return [Item("run", combo, len(combo), f"run of {len(combo)}") for combo in combos.runs(cards, rules.number)]


def melds(cards: Sequence[DecktetCard], rules: Rules = STANDARD) -> list[Item]:
    """Every distinct combination holding all six suits, each once: 6 each."""
    return [Item("meld", combo, 6, "meld")
            for combo in combos.exact_melds(cards, suitless_count=rules.excuse_melds)]


def score_show(hand: Sequence[DecktetCard], top: DecktetCard | None, rules: Rules = STANDARD) -> Score:
    """Clean a hand (or the crib): four cards and the top card. Sums of 11, pairs and
    of-a-kinds, runs, complete melds."""
    cards = list(hand) + ([top] if top is not None else [])
    items = elevens(cards, rules)
    items += [set_item(group) for group in combos.of_a_kind(cards, kind)]
    items += runs(cards, rules)
    items += melds(cards, rules)
    return Score.of(items)


def attempt_sum(attempt: Sequence[DecktetCard], rules: Rules = STANDARD) -> int:
    return sum(rules.number(c) or 0 for c in attempt)


def score_play(attempt: Sequence[DecktetCard], rules: Rules = STANDARD) -> list[Item]:
    """What the card just played (the last of the suit attempt) scores: the attempt's sum
    reaching 11 (a ranked card only), a pair or of-a-kind, a run, the sixth suit (a meld)."""
    if not attempt:
        return []
    last = attempt[-1]
    items: list[Item] = []
    if rules.number(last) is not None and attempt_sum(attempt, rules) == 11:
        items.append(Item("eleven", (last,), 1, "11"))
    same = combos.play_set(attempt, kind)
    if same:
        items.append(set_item(same))
    run = combos.play_run(attempt, rules.number)
    if run:
        items.append(Item("run", run, len(run), f"run of {len(run)}"))
    if last.suits or rules.excuse_melds:
        meld = combos.play_meld(attempt)
        if meld:
            items.append(Item("meld", meld, 6, "meld"))
    return items


def used_suits(attempt: Sequence[DecktetCard]) -> set[str]:
    return {s for c in attempt for s in c.suits}
