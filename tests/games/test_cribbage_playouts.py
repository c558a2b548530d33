"""Random whole games: invariants checked at every step (cards conserved, scores never go down,
the game ends at the target, views leak nothing)."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import new_game
from games.cribbage.autoplay import autoplay
from games.cribbage.scoring import count_of
from games.records import steps


def walk(record):
    for before, _, after in steps(record):
        yield before, after


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), name=st.sampled_from(["cribbage", "cribbage5"]), known=st.booleans())
def test_random_games_keep_the_invariants(view_texts, seed, name, known):
    record = autoplay(name, seed=seed, known_hands=known)
    target = new_game(name, 2).target
    state = None
    for before, state in walk(record):
        # scores never go down in these games, and every point is an event
        assert all(a >= b for a, b in zip(state.scores, before.scores, strict=True))
        assert [sum(e.points for e in state.events if e.side == i) for i in (0, 1)] == state.scores
        # the count never passes 31, the pile adds up
        assert count_of(state.pile) == state.count <= 31
        # cards are conserved: nothing seen twice in a deal
        seen = [c for row in state.played for c in row] + [c for row in state.laid_away for c in row]
        seen += [state.starter] if state.starter else []
        assert len(seen) == len(set(seen))
        # views never show a card still hidden in another seat's hand
        for seat in (0, 1):
            other = state.known[1 - seat] or []
            shown = view_texts(state.view_for(seat)) | view_texts(state.view_for(None))
            assert not {str(c) for c in other} & shown - {str(c) for row in state.played for c in row}
    assert state is not None and state.is_over
    assert max(state.scores) >= target and state.scores[state.winner] == max(state.scores)
    assert min(state.scores) < target


@pytest.mark.parametrize("name", ["cribbage", "cribbage5"])
def test_record_round_trip(name):
    record = autoplay(name, seed=7)
    again = json.loads(json.dumps(record))
    *_, (_, last) = walk(again)
    assert last.is_over
