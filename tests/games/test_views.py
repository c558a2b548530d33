"""Typed views: every game gives its family's view, its JSON reads back to the same view, and a
view that is not one is refused with a reason."""

import dataclasses
import json

import pytest

from games import registered_games
from games.bhargage.autoplay import autoplay as decktet_autoplay
from games.bourre import BourreView
from games.briscola import BriscolaView
from games.cribbage.autoplay import autoplay
from games.eleusis import EleusisView
from games.errors import ViewError
from games.faceplay import autoplay as face_autoplay
from games.layoutplay import autoplay as layout_autoplay
from games.pileplay import autoplay as pile_autoplay
from games.ratscrew import RatscrewView
from games.records import steps
from games.trickplay import autoplay as trick_autoplay
from games.view import LayoutView, PeggingView, PileView, Question, TricksView, view_from_json

RECORDS = [("cribbage", None), ("cribbage4", None), ("noddy", None), ("costly", None), ("revised", None),
           ("auction", None), ("patience", None)]
MORE = ["cribbage3", "cribbage3-solo", "cribbage5", "cribbage7", "losing"]
# Bourré with known hands (legal cards shown) and with reneges (claims); Briscola col Monte with
# known hands (the bidder's laid-away cards) and the basic game with hidden hands
TRICKS = [("bourre", {"known_hands": True}), ("bourre", {"renege": 0.35}),
          ("briscola", {"known_hands": True, "options": {"variant": "monte"}}), ("briscola", {})]


def trick_states():
    for name, kwargs in TRICKS:
        yield from (s for _, _, s in steps(trick_autoplay(name, seed=5, deals=2, **kwargs)))


def states():
    for name, options in RECORDS:
        for _, _, state in steps(autoplay(name, seed=5, options=options, max_deals=2)):
            yield state
    for name in ("bhargage", "suitcases"):
        for state in [s for _, _, s in steps(decktet_autoplay(name, seed=5, max_deals=2))]:
            yield state
    deals: list = []  # Oh Hell with known hands: the state after each of its five deals
    trick_autoplay("ohhell", ["Ann", "Bob", "Cy"], seed=1, known_hands=True, deals=0, options={"most": 3},
                   each=lambda s: deals.append(s) if s.phase in ("deal", "over") else None)
    yield from deals
    for name in MORE:  # after the others: the tests below pick states by index
        yield from (s for _, _, s in steps(autoplay(name, seed=5, max_deals=1)))
    yield from trick_states()
    for name in ("beggar", "ratscrew", "eleusis"):
        yield from [s for _, _, s in steps(pile_autoplay(name, seed=5, known_hands=True, max_actions=400))]
    for name, players in (("gin", 2), ("gin", 4), ("landlord", 3)):
        yield from [s for _, _, s in steps(layout_autoplay(name, [f"P{i}" for i in range(players)], seed=5,
                                                           known_hands=True, deals=1))]
    for name in ("ricochet", "skull"):
        yield from [s for _, _, s in steps(face_autoplay(name, seed=5, known_hands=True, deals=2))]


@pytest.fixture(scope="module")
def every_state():
    return list(states())


def test_json_reads_back_to_the_same_view(every_state):
    for state in every_state[::3]:
        for seat in (None, 0):
            view = state.view_for(seat)
            wire = json.loads(json.dumps(view.to_json()))  # as a phone gets it
            assert view_from_json(wire) == view
            assert wire["style"] == view.style


def test_every_registered_game_is_read_back(every_state):
    covered = {s.game.spec.name for s in every_state}
    assert {spec.name for spec in registered_games()} <= covered


def test_trick_games_read_back_in_every_seat():
    seen: dict[str, set[str]] = {"claims": set(), "legal": set(), "last_trick": set(), "partner": set(),
                                 "laid_away": set(), "auction": set()}
    for state in trick_states():
        for seat in (None, *range(state.game.num_players)):
            view = state.view_for(seat)
            assert isinstance(view, BourreView | BriscolaView)
            assert view_from_json(json.loads(json.dumps(view.to_json()))) == view
            for name in seen:
                if getattr(view, name, None):
                    seen[name].add(view.style)
    # every part of the trick views was filled somewhere, so the round trip read it back
    assert seen == {"claims": {"tricks.bourre"}, "legal": {"tricks.bourre"},
                    "last_trick": {"tricks.bourre", "tricks.briscola"}, "partner": {"tricks.briscola"},
                    "laid_away": {"tricks.briscola"}, "auction": {"tricks.briscola"}}


def test_each_game_gives_its_familys_view(every_state):
    families = {s.game.spec.name: s.view_for(None) for s in every_state}
    for name, view in families.items():
        family = {"pegging": PeggingView, "tricks": TricksView, "layout": LayoutView, "pile": PileView}[view.family]
        assert isinstance(view, family), name
    # The base fills no family's fields: a trick game has no count, starter or skunk lines.
    tricks = families["ohhell"].to_json()
    assert not {"count", "pile", "starter", "show", "skunk_lines", "board", "start"} & set(tricks)
    assert {"trump", "bids", "tricks", "trick", "table"} <= set(tricks)


def test_the_pile_games_give_their_own_views(every_state):
    views = {s.game.spec.name: s.view_for(None) for s in every_state if s.view_for(None).family == "pile"}
    assert (type(views["beggar"]), type(views["ratscrew"]), type(views["eleusis"])) == (
        PileView, RatscrewView, EleusisView)
    assert (views["beggar"].style, views["ratscrew"].style, views["eleusis"].style) == (
        "pile", "pile.ratscrew", "pile.eleusis")


def test_a_pile_view_holds_no_card_of_a_stack(every_state, view_texts):
    """The stacks are dealt known (the engine holds their cards): a view has only their sizes,
    and the cards face up on the pile."""
    for state in every_state:
        if state.game.spec.name not in ("beggar", "ratscrew") or state.table is None:
            continue
        in_stacks = {str(c) for stack in state.table.stacks for c in stack}
        for seat in (None, 0, 1):
            view = state.view_for(seat)
            assert view.stacks == tuple(state.table.sizes)
            assert not (view_texts(view) & in_stacks)


def test_the_tables_own_fields_read_back(every_state):
    view = every_state[40].view_for(None)
    wire = {**view.to_json(), "ask": {"kind": "confirm", "text": "Is this the 5H?", "zone": "seat0", "slot": 1},
            "game_id": 3, "can_undo": True, "message": "Is this the 5H?", "unknown": 1}
    assert view_from_json(wire) == dataclasses.replace(
        view, message="Is this the 5H?", game_id=3, can_undo=True,
        ask=Question("confirm", "Is this the 5H?", "seat0", 1))


@pytest.mark.parametrize(("data", "error"), [
    ([1, 2], "a view is a JSON object, not list"),
    ({"style": "poker"}, "no view has the style 'poker'"),
    ({"style": 3}, "a view's style is text"),
    ({"style": "table", "game": "x"}, "a table view needs 'title'"),
])
def test_what_is_not_a_view_is_refused(data, error):
    with pytest.raises(ViewError, match=error):
        view_from_json(data)


def test_a_field_of_the_wrong_kind_is_named(every_state):
    wire = every_state[10].view_for(None).to_json()
    for key, value, error in [("sides", [{"name": "Ann"}], "sides needs 'seats'"),
                              ("count", "nine", "count cannot be 'nine'"),
                              ("cuts", {"Ann": "5H"}, "cuts is keyed by seat numbers"),
                              ("pegged", 1, "pegged is true or false")]:
        with pytest.raises(ViewError, match=error):
            view_from_json({**wire, key: value})
