"""Every cribbage show against the published distribution of all 12,994,800."""

import csv
import random
from pathlib import Path

from games.cards import FRENCH_52
from games.cribbage.census import TOTAL_SHOWS, census, group_keys
from games.cribbage.scoring import score_show

PUBLISHED = Path(__file__).parent / "data" / "cribbage_show_distribution.csv"


def published():
    with PUBLISHED.open() as f:
        return {int(r["score"]): (int(r["hand_count"]), int(r["crib_count"])) for r in csv.DictReader(f)}


def test_grouping_claim_on_random_deals():
    """Deals with the same group key always score the same, as hand and as crib."""
    import numpy as np

    rng = random.Random(3)
    deals = [rng.sample(range(52), 5) for _ in range(4000)]
    # force many collisions: same ranks, shuffled suits
    hands = np.array([d[:4] for d in deals])
    starters = np.array([d[4] for d in deals])
    keys = group_keys(hands, starters)
    by_key: dict[int, tuple[int, int]] = {}
    for key, deal in zip(keys.tolist(), deals, strict=True):
        hand = [FRENCH_52[i] for i in deal[:4]]
        starter = FRENCH_52[deal[4]]
        scores = (score_show(hand, starter).total, score_show(hand, starter, crib=True).total)
        assert by_key.setdefault(key, scores) == scores


def test_all_shows_match_the_published_distribution():
    result = census()
    table = published()
    assert sum(result.hand.values()) == sum(result.crib.values()) == TOTAL_SHOWS
    for score, (hand, crib) in table.items():
        assert result.hand.get(score, 0) == hand, score
        assert result.crib.get(score, 0) == crib, score
    assert 19 not in result.hand and result.hand[29] == 4
