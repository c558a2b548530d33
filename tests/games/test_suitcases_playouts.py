"""Random whole games of Suitcases with invariants checked at every step (Hypothesis picks the
shuffles), and their records replayed by ``pegpi replay``'s path."""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.bhargage.autoplay import autoplay
from games.records import replay
from tests.games.test_bhargage_playouts import check_common

OPTIONS = [
    {},
    {"muggins": True, "starter_events": True},
    {"face_ranks": "unranked", "excuse_melds": True},
    {"target": 61},
]


def suitcases_step(memory):
    def check(state):
        check_common(state, memory)
        suits = [s for c in state.pile for s in c.suits]
        assert len(suits) == len(set(suits)), "a suit used twice in one suit attempt"
        if state.is_over:
            loser = min(state.scores)
            result = state.view_for(None).result
            expected = "double skunk" if loser < 61 else "skunk" if loser < 91 else "win"
            if state.game.target == 121:
                assert result == expected
    return check


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), known=st.booleans(), options=st.sampled_from(OPTIONS))
def test_random_games_keep_the_invariants(seed, known, options):
    record = autoplay("suitcases", seed=seed, known_hands=known, options=options, each=suitcases_step({}))
    result = replay(json.loads(json.dumps(record)))  # through JSON, as pegpi replay reads it
    assert result.state.is_over
    assert result.state.scores[result.state.winner] >= result.game.target
