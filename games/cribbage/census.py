"""Every cribbage show: all 12,994,800 (four cards + starter) deals, as hand and as crib.

Each deal is still counted by :func:`score_show`. What makes it fast is grouping: a show's
score depends only on (the five ranks, whether the four hand cards share a suit, whether the
starter has that suit too, whether the hand holds the jack of the starter's suit). Deals are
grouped by that key with numpy, one real deal of each group is scored, and its score is
counted as many times as the group is large. ``tests/games/test_census.py`` checks the grouping
claim on random deals.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from games.cards import FRENCH_52
from games.cribbage.scoring import score_show

TOTAL_SHOWS = 12_994_800


@dataclass
class Census:
    hand: dict[int, int]
    crib: dict[int, int]
    seconds: float
    groups: int

    @property
    def shows(self) -> int:
        return sum(self.hand.values())


def group_keys(hands: Any, starters: Any) -> Any:
    """The grouping key of each (hand, starter) deal; cards are indexes into FRENCH_52."""
    import numpy as np

    ranks = np.array([c.rank for c in FRENCH_52], dtype=np.int64)
    suits = np.array(["SHDC".index(c.suit) for c in FRENCH_52], dtype=np.int64)
    hand_ranks = ranks[hands]
    five = np.sort(np.concatenate([hand_ranks, ranks[starters][:, None]], axis=1), axis=1)
    key = np.zeros(len(starters), dtype=np.int64)
    for col in range(5):
        key = key * 14 + five[:, col]
    hand_suits = suits[hands]
    one_suit = (hand_suits == hand_suits[:, :1]).all(axis=1)
    starter_suit = suits[starters]
    with_starter = one_suit & (hand_suits[:, 0] == starter_suit)
    nob = ((hand_ranks == 11) & (hand_suits == starter_suit[:, None])).any(axis=1)
    return key * 8 + one_suit * 4 + with_starter * 2 + nob


def all_deals() -> tuple[Any, Any]:
    """Every four-card hand with every one of the 48 other cards as starter."""
    import numpy as np

    hands4 = np.array(list(combinations(range(52), 4)), dtype=np.int8)
    hands = np.repeat(hands4, 48, axis=0)
    in_hand = np.zeros((len(hands4), 52), dtype=bool)
    np.put_along_axis(in_hand, hands4.astype(np.int64), True, axis=1)
    deck = np.broadcast_to(np.arange(52, dtype=np.int64), in_hand.shape)
    starters = deck[~in_hand]  # row-major: each hand's 48 other cards, in order
    return hands.astype(np.int64), starters


def census() -> Census:
    import numpy as np

    start = time.perf_counter()
    hands, starters = all_deals()
    keys = group_keys(hands, starters)
    _, first, counts = np.unique(keys, return_index=True, return_counts=True)
    hand_hist: dict[int, int] = {}
    crib_hist: dict[int, int] = {}
    for row, count in zip(first.tolist(), counts.tolist(), strict=True):
        hand = [FRENCH_52[i] for i in hands[row]]
        starter = FRENCH_52[int(starters[row])]
        h = score_show(hand, starter).total
        c = score_show(hand, starter, crib=True).total
        hand_hist[h] = hand_hist.get(h, 0) + count
        crib_hist[c] = crib_hist.get(c, 0) + count
    return Census(hand_hist, crib_hist, time.perf_counter() - start, len(first))
