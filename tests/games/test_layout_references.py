"""Gin Rummy's meld search and Fight the Landlord's combinations against a published engine:
RLCard's gin rummy meld finder and its Dou Dizhu move table (the ``rlcard`` package, a dev
extra, installed by CI with ``.[dev]``), which were written apart from pegpi."""

from __future__ import annotations

import random
import re

import rlcard.games.doudizhu.utils as doudizhu
from rlcard.games.gin_rummy.utils import melding
from rlcard.games.gin_rummy.utils import utils as gin_utils

from games.cards import FRENCH_52, FRENCH_54, Card
from games.ginmelds import best_melds
from games.landlordcombos import all_plays, power, read_powers

# ------------------------------------------------------------------ Gin Rummy


def rl_deadwood(hand: list[Card]) -> int:
    cards = [gin_utils.card_from_text(str(c).replace("10", "T")) for c in hand]
    clusters = melding.get_best_meld_clusters(cards)
    if not clusters:
        return sum(gin_utils.get_deadwood_value(c) for c in cards)
    return int(gin_utils.get_deadwood_count(cards, clusters[0]))


def gin_hands() -> list[list[Card]]:
    rng = random.Random(38)
    hands = [rng.sample(FRENCH_52, 10) for _ in range(600)]
    # hands from a narrow pool: many sets and runs overlap, where the search has choices to make
    for low in range(1, 11):
        pool = [c for c in FRENCH_52 if low <= c.rank < low + 4]
        hands += [rng.sample(pool, 10) for _ in range(60)]
    return hands


def test_minimum_deadwood_agrees_with_rlcard_on_1200_hands():
    hands = gin_hands()
    differ = [(h, best_melds(h).deadwood, rl_deadwood(h)) for h in hands if best_melds(h).deadwood != rl_deadwood(h)]
    assert differ == []
    assert len(hands) == 1200 and sum(best_melds(h).deadwood == 0 for h in hands) > 0  # gin hands are among them


# ------------------------------------------------------------------ Fight the Landlord

RANKS = {"3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10, "J": 11, "Q": 12, "K": 13, "A": 14,
         "2": 15, "B": 16, "R": 17}
LETTER = {v: k for k, v in RANKS.items()}
PLAIN = {"solo": "solo", "pair": "pair", "trio": "trio", "trio_solo": "trio_solo", "trio_pair": "trio_pair",
         "bomb": "bomb", "rocket": "rocket", "four_two_solo": "four_two", "four_two_pair": "four_two_pairs"}
CHAINS = {"solo_chain": "chain", "pair_chain": "pair_chain", "trio_chain": "airplane",
          "trio_solo_chain": "airplane_solo", "trio_pair_chain": "airplane_pair"}
# RLCard numbers the kinds with kickers from 1 and the others from 0, both from the rank 3
WITH_KICKERS = {"trio_solo", "trio_pair", "four_two", "four_two_pairs", "airplane_solo", "airplane_pair"}


def reference(kind: str, rank: str) -> tuple[str, int, int]:
    """RLCard's (type, rank) as pegpi's (kind, length, rank)."""
    chain = re.fullmatch(r"(\w+_chain)_(\d+)", kind)
    ours, length = (CHAINS[chain.group(1)], int(chain.group(2))) if chain else (PLAIN[kind], 1)
    if ours == "rocket":
        return ours, 1, 17
    return ours, length, int(rank) + (2 if ours in WITH_KICKERS else 3)


def test_every_play_of_the_rlcard_move_table_reads_the_same():
    table = doudizhu.CARD_TYPE[0]
    assert len(table) == 27471
    seen_kinds = set()
    wrong = []
    for key, readings in table.items():
        (kind, rank), = readings
        want = reference(kind, rank)
        got = [(c.kind, c.length, c.rank) for c in read_powers([RANKS[ch] for ch in key])]
        if got != [want]:
            wrong.append((key, want, got))
        seen_kinds.add(want[0])
    assert wrong == []
    assert len(seen_kinds) == 14  # every kind of the rule card is in the table


def test_every_play_pegpi_finds_in_random_hands_is_in_the_rlcard_move_table():
    table = doudizhu.CARD_TYPE[0]
    rng = random.Random(54)
    found = 0
    for _ in range(150):
        hand = rng.sample(FRENCH_54, 20)
        for play in all_plays(hand):
            key = "".join(LETTER[p] for p in sorted(power(c) for c in play))
            assert key in table, key
            found += 1
    assert found > 5000
