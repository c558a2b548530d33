"""Bhargage scoring (Kerry Handscomb's rules, seed 000) as pure functions with breakdowns.

>>> from games.decktet import DecktetCard, parse_decktet
>>> hand = parse_decktet("the Huntress, the Bard, Ace of Waves")
>>> score_show(hand, DecktetCard.parse("the Harvest")).spoken()
'11 for 2, 11 is 4, 11 is 6, 11 is 8, pair 10'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.bhargage import combos
from games.decktet import DecktetCard
from games.engine import Item, Score

#: the play's running total may not pass this
LIMIT = 23
SET_NAMES = {2: "pair", 3: "three", 4: "four", 5: "five", 6: "six"}
#: points the opponent takes for one, two, three or four suits missing from a hand
SHORTAGE = {0: 0, 1: 1, 2: 3, 3: 6, 4: 10}


def value(card: DecktetCard) -> int:
    """Play value: Ace 1, 2 to 9 their number, Crown 10; Pawn, Court and Excuse 0."""
    if card.rank == "Ace":
        return 1
    if card.rank == "Crown":
        return 10
    return int(card.rank) if card.rank.isdigit() else 0


def rank_kind(card: DecktetCard) -> str:
    """Cards of one rank make sets: every Pawn with every Pawn, Court with Court."""
    return card.rank


def sequence_rank(card: DecktetCard) -> int:
    """Place in the rank order for the sequences option: Excuse 0, Ace 1, ... Crown 12."""
    return card.order


def is_character(card: DecktetCard) -> bool:
    """A Character card is a Personality."""
    return card.is_personality


@dataclass(frozen=True, slots=True)
class Rules:
    """How a deal is scored; ``sequences`` adds cribbage's runs (the seed's optional rule)."""

    sequences: bool = False


STANDARD = Rules()


def set_item(cards: Sequence[DecktetCard]) -> Item:
    n = len(cards)
    return Item(SET_NAMES[n], tuple(cards), combos.set_points(n), SET_NAMES[n])


def elevens(cards: Sequence[DecktetCard]) -> list[Item]:
    """Every distinct combination making 11, 2 each; a zero-value card doubles them."""
    return [Item("eleven", combo, 2, "11") for combo in combos.sums_to(cards, 11, value)]


def bhargs(cards: Sequence[DecktetCard]) -> list[Item]:
    """Every distinct bharg (each suit exactly once), 6 each; the Excuse doubles them."""
    return [Item("bharg", combo, 6, "bharg") for combo in combos.exact_melds(cards)]


def sequences(cards: Sequence[DecktetCard]) -> list[Item]:
    return [Item("run", combo, len(combo), f"run of {len(combo)}")
            for combo in combos.runs(cards, sequence_rank)]


def score_show(hand: Sequence[DecktetCard], upcard: DecktetCard | None, bhargage: bool = False,
               rules: Rules = STANDARD) -> Score:
    """Count a hand (three cards) or the bhargage (four) with the up-card, in the players'
    order: 11s, sets, bhargs, (runs), Friends of the Chief. Shortage is the opponent's: see
    :func:`shortage`."""
    cards = list(hand) + ([upcard] if upcard is not None else [])
    items = elevens(cards)
    items += [set_item(group) for group in combos.of_a_kind(cards, rank_kind)]
    items += bhargs(cards)
    if rules.sequences:
        items += sequences(cards)
    if not bhargage and upcard is not None and is_character(upcard):
        items += [Item("friend", (c,), 1, "friend of the Chief") for c in hand if is_character(c)]
    return Score.of(items)


def shortage(hand: Sequence[DecktetCard], upcard: DecktetCard | None) -> Score:
    """What the opponent takes for the suits a hand (with the up-card) lacks: 1, 3, 6 or 10."""
    cards = list(hand) + ([upcard] if upcard is not None else [])
    missing = combos.missing_suits(cards)
    points = SHORTAGE[min(len(missing), 4)]
    return Score.of([Item("shortage", tuple(cards), points, "shortage")] if points else [])


def score_play(pile: Sequence[DecktetCard], rules: Rules = STANDARD) -> list[Item]:
    """What the card just played (the last of ``pile``) scores: 11 for 2, 23 for 3 (again
    for each zero-value card played on them), a set, a bharg, (a run). Six Aces is the game,
    paid by :class:`~games.bhargage.game.BhargageState`."""
    if not pile:
        return []
    total = sum(value(c) for c in pile)
    last = pile[-1]
    items: list[Item] = []
    if total == 11:
        items.append(Item("eleven", (last,), 2, "11"))
    elif total == LIMIT:
        items.append(Item("twenty-three", (last,), 3, "23"))
    same = combos.play_set(pile, rank_kind)
    if same and len(same) < 6:
        items.append(set_item(same))
    meld = combos.play_meld(pile)
    if meld:
        items.append(Item("bharg", meld, 6, "bharg"))
    if rules.sequences:
        run = combos.play_run(pile, sequence_rank)
        if run:
            items.append(Item("run", run, len(run), f"run of {len(run)}"))
    return items
