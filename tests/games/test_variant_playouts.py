"""Random whole games of every cribbage variant, checked at every step: cards are conserved
(no card twice in a deal, none again within a shuffle in Revised), scores go down only where
the variant allows it (a bid paid in Auction, pegging back in Revised), every point is an
event, views never show a card still hidden in another seat's hand, and the game ends at its
target (or, in Losing, with the first to reach it losing)."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.cribbage.autoplay import autoplay
from games.records import steps

# (game, options, players): every variant, the based ones over a few bases
VARIANTS = [
    ("cribbage7", None, None),
    ("losing", None, None),
    ("losing", {"base": "cribbage3"}, None),
    ("losing", {"base": "cribbage5"}, None),
    ("auction", None, None),
    ("auction", {"base": "cribbage5"}, None),
    ("cribbage3", None, None),
    ("cribbage3-solo", None, None),
    ("cribbage4", None, None),
    ("patience", None, None),
    ("noddy", None, None),
    ("noddy", {"hand_runs": "per-card"}, None),
    ("costly", None, None),
    ("revised", None, ["Ann", "Bob"]),
    ("revised", {"play_flushes": False}, ["Ann", "Bob"]),
    ("revised", None, ["Ann", "Bob", "Cat"]),
    ("revised", None, ["Ann", "Bob", "Cat", "Dan"]),
]
MAY_GO_DOWN = {"bid", "back", "pegged back"}


def walk(record):
    for before, _, after in steps(record):
        yield before, after


def check_cribbage_step(before, state, view_texts):
    n = len(state.scores)
    for side in range(n):
        if state.scores[side] < before.scores[side]:
            assert {e.kind for e in state.last_events if e.side == side} <= MAY_GO_DOWN
    assert [sum(e.points for e in state.events if e.side == i) for i in range(n)] == state.scores
    assert state.count <= 31
    seen = [c for row in state.played for c in row] + [c for row in state.laid_away for c in row]
    seen += [state.starter] if state.starter else []
    seen += [c for c in state.crib_cards or [] if c not in seen]
    assert len(seen) == len(set(seen)), "a card was seen twice in one deal"
    if state.phase not in ("deal", "over"):
        assert not set(seen) & state.shuffle_seen, "a card came up again within one shuffle"
    players = state.game.num_players
    for seat in range(players):
        hidden = set()
        for other in range(players):
            if other != seat:
                hidden |= {str(c) for c in state.known[other] or []} - {str(c) for c in state.played[other]}
        assert not hidden & view_texts(state.view_for(seat)), "a view shows another seat's hidden card"


@pytest.mark.parametrize("name,options,players", VARIANTS,
                         ids=[f"{n}-{o}-{len(p) if p else ''}" for n, o, p in VARIANTS])
@settings(max_examples=2, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), known=st.booleans())
def test_random_games_keep_the_invariants(view_texts, name, options, players, seed, known):
    record = autoplay(name, players, seed=seed, known_hands=known, options=options)
    state = None
    for before, state in walk(record):
        if name != "patience":
            check_cribbage_step(before, state, view_texts)
    assert state is not None and state.is_over
    target = state.game.target
    if name == "patience":
        assert (state.winner == 0) == (state.scores[0] >= target)
        assert len(state.grid) == 16
    elif state.game.losing:
        assert state.scores[state.loser] >= target
        assert all(s < target for i, s in enumerate(state.scores) if i != state.loser)
    else:
        assert state.scores[state.winner] >= target
        if name != "cribbage3-solo":  # partners peg together and may pass the target together
            assert all(s < target for i, s in enumerate(state.scores) if i != state.winner)
