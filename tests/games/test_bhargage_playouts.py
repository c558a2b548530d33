"""Random whole games of Bhargage with invariants checked at every step (Hypothesis picks the
shuffles), and their records replayed by ``pegpi replay``'s path."""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.bhargage import combos
from games.bhargage.autoplay import autoplay
from games.bhargage.scoring import LIMIT
from games.decktet import DECKTET
from games.records import replay

MELDS = ("bharg", "meld")


def check_common(state, memory):
    """Invariants every Decktet pegging game keeps; ``memory`` carries the previous scores."""
    game = state.game
    assert len(DECKTET) == 45
    # Cards are conserved: every card of the deal is in exactly one place.
    if state.deals:
        zones = [c for row in state.played for c in row] + [c for row in state.laid_away for c in row]
        zones += [c for hand in state.known if hand for c in hand]
        if state.starter is not None:
            zones.append(state.starter)
        assert len(set(zones)) == len(zones) and set(zones) <= set(DECKTET)
        for seat in range(game.num_players):
            laid = game.lay_away - state.to_discard[seat]
            assert state.held[seat] + len(state.played[seat]) + laid == game.hand_size
            if state.known[seat] is not None:
                assert len(state.known[seat]) == state.held[seat]
    # Scores only go up, and are exactly the sum of the events.
    previous = memory.get("scores", [0] * len(state.scores))
    assert all(a >= b for a, b in zip(state.scores, previous, strict=True))
    memory["scores"] = list(state.scores)
    for side in range(len(state.scores)):
        assert state.scores[side] == sum(e.points for e in state.events if e.side == side)
    # Every bharg (meld) holds each suit exactly once.
    for event in state.last_events:
        for item in event.items:
            if item.kind in MELDS:
                assert combos.is_meld(item.cards), item
    # The game ends exactly when a side reaches the target.
    target = game.target
    if state.is_over:
        assert state.scores[state.winner] >= target
    else:
        assert max(state.scores) < target
    # A view never shows a card the other player still holds.
    for seat in range(game.num_players):
        text = json.dumps(state.view_for(seat).to_json())
        other = state.known[1 - seat]
        for card in other or ():
            assert f'"{card}"' not in text, (seat, card)


def bhargage_step(memory):
    def check(state):
        check_common(state, memory)
        assert 0 <= state.count <= LIMIT
    return check


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), known=st.booleans(),
       options=st.sampled_from([{}, {"sequences": True}, {"start_at_10": False, "target": 61}]))
def test_random_games_keep_the_invariants(seed, known, options):
    record = autoplay("bhargage", seed=seed, known_hands=known, options=options, each=bhargage_step({}))
    result = replay(json.loads(json.dumps(record)))  # through JSON, as pegpi replay reads it
    assert result.state.is_over
    assert result.state.scores[result.state.winner] >= result.game.target
