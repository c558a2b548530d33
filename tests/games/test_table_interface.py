"""The declared seam between table protocols and games (games/table.py): zones as values, and
every game played on the pegging table answering the pegging table's questions in step with
what its own records do."""

from __future__ import annotations

from typing import Any

import pytest

from games import get_game, new_game, registered_games
from games.engine import State
from games.errors import PegpiError
from games.table import CRIB, STARTER, PeggingTable, TableState, Zone, ZoneError

PEGGING = [spec.name for spec in registered_games() if spec.table == "pegging"]


# ------------------------------------------------------------------ zones


@pytest.mark.parametrize(("table", "seats"), [("pegging", 2), ("pegging", 3), ("pegging", 4), ("tricks", 4),
                                               ("pile", 3), ("layout", 1), ("rummy", 4)])
def test_every_zone_a_mat_prints_is_read_once_into_a_value_and_printed_back(table: str, seats: int) -> None:
    from vision.events import TableEvent
    from vision.mat import layout_for

    for printed in layout_for(table, seats).zones:
        zone = Zone.parse(printed.name)
        assert (zone.kind, zone.seat) == (printed.kind, printed.seat)
        assert zone.name == str(zone) == printed.name
        assert TableEvent(printed.name, "AS", "placed", 0.0, 1.0, 0).place == zone


def test_zones_are_values() -> None:
    assert Zone.parse("seat3") == Zone.row(3) == Zone("seat", 3)
    assert Zone.parse("crib") == CRIB and Zone.parse("starter") == STARTER
    assert len({Zone.row(0), Zone.parse("seat0"), CRIB, Zone("crib")}) == 2
    assert sorted([STARTER, Zone.row(1), CRIB, Zone.row(0)]) == [CRIB, Zone.row(0), Zone.row(1), STARTER]
    # a mat with two of a kind (four-hand Gin's two tables): the first is named by its kind alone
    assert Zone.parse("pile1") == Zone("pile", index=1) != Zone.parse("pile") == Zone("pile")
    assert Zone("stock", index=1).name == "stock1" and Zone("pile").name == "pile"


@pytest.mark.parametrize("name", ["seat", "seatX", "seat-1", "table", "", "Seat0", " crib", "pile0", "pile-1"])
def test_a_name_no_mat_has_is_refused_naming_it(name: str) -> None:
    with pytest.raises(ZoneError, match="no mat has a zone") as caught:
        Zone.parse(name)
    assert isinstance(caught.value, PegpiError) and repr(name) in str(caught.value)


def test_a_zone_is_built_with_a_seat_exactly_where_it_takes_one() -> None:
    for bad in (lambda: Zone("seat"), lambda: Zone("crib", 0), lambda: Zone("seat", -1),
                lambda: Zone("hand", None), lambda: Zone("seat", 0, 1), lambda: Zone("pile", index=-1)):  # type: ignore[arg-type]
        with pytest.raises(ZoneError):
            bad()


# ------------------------------------------------------------------ each pegging game answers


def _record(name: str, seed: int) -> dict[str, Any]:
    if get_game(name).spec.deck.startswith("decktet"):
        from games.bhargage.autoplay import autoplay as decktet_autoplay

        return decktet_autoplay(name, seed=seed, known_hands=False)
    from games.cribbage.autoplay import autoplay

    return autoplay(name, seed=seed, known_hands=False)


def _fields(action: Any) -> dict[str, Any]:
    data: dict[str, Any] = action.to_json()
    return {k: data[k] for k in ("act", "player", "card", "dealer") if k in data}


def test_the_games_played_on_the_pegging_table_are_the_ones_expected() -> None:
    assert {"cribbage", "cribbage5", "noddy", "costly", "revised", "bhargage", "suitcases"} <= set(PEGGING)


@pytest.mark.parametrize("name", PEGGING)
def test_each_pegging_game_answers_the_table_in_step_with_its_record(name: str) -> None:
    from games.records import replay

    record = _record(name, seed=3)
    result = replay(record)
    state: State = result.game.new_initial_state()
    assert isinstance(state, PeggingTable) and isinstance(state, TableState)
    checked: set[str] = set()
    for action in result.actions:
        assert isinstance(state, PeggingTable)
        data = action.to_json()
        act, seat = data["act"], data.get("player")
        view = state.view_for(None)
        assert state.whose_turn() == (view.turn if state.phase == "play" else None)
        if act == "cut":
            assert [_fields(a) for a in state.card_means(Zone.row(seat), data["card"]) or []] == [_fields(action)]
        elif act == "deal":
            due = state.deal_due()
            assert state.phase == "cut" or (due is not None and _fields(due)["act"] == "deal")
        elif act == "discard":
            assert state.to_lay_away(seat) > 0
        elif act == "starter":
            means = state.card_means(STARTER, data["card"]) or []
            assert [_fields(a) for a in means][-1:] == [_fields(action)]
            assert [a.to_json()["player"] for a in means[:-1]] == [
                s for s in range(result.game.num_players) if state.to_lay_away(s) > 0]
        elif act == "play":
            assert [_fields(a) for a in state.card_means(Zone.row(seat), data["card"]) or []] == [_fields(action)]
            assert state.zone_owner(Zone.row(seat)) == seat
        elif act in ("go", "pass"):
            went = state.inferred_pass()  # a go in a record is one the order of plays can show
            assert went is not None and went.to_json()["player"] == seat
        elif act == "show":
            zone = state.show_waits_for()
            if zone is not None:
                assert zone == Zone.row(seat)
                faces = data.get("cards") or state.zone_cards(zone)
                shown = state.show_from(zone, faces)
                assert shown is not None and _fields(shown) == _fields(action)
        elif act == "crib":
            assert state.show_waits_for() == CRIB
            assert state.zone_owner(CRIB) == state.view_for(None).dealer
            if data.get("cards"):
                counted = state.show_from(CRIB, data["cards"])
                assert counted is not None and counted.to_json()["cards"] == data["cards"]
        checked.add(act)
        state = state.apply(action)
        if act == "play":
            assert data["card"] in state.zone_cards(Zone.row(seat))  # it lies in the row now
            assert state.card_means(Zone.row(seat), data["card"]) is None  # seen again: nothing
    assert {"deal", "starter", "play"} <= checked


def test_a_go_shows_only_where_a_card_may_not_fit() -> None:
    state = new_game("cribbage", ["Ann", "Bob"]).new_initial_state()
    for action in ({"act": "deal", "dealer": 0}, {"act": "discard", "player": 0},
                   {"act": "discard", "player": 1}, {"act": "starter", "card": "2C"}):
        state = state.apply_json(action)
    assert isinstance(state, PeggingTable)
    assert state.whose_turn() == 1 and state.inferred_pass() is None  # a lead: any card goes
    for seat, card in ((1, "KH"), (0, "5H"), (1, "6S")):  # count 21: every card still fits
        state = state.apply_json({"act": "play", "player": seat, "card": card})
    assert isinstance(state, PeggingTable) and state.inferred_pass() is None
    state = state.apply_json({"act": "play", "player": 0, "card": "AC"})  # 22: a ten would not fit
    assert isinstance(state, PeggingTable)
    went = state.inferred_pass()
    assert went is not None and went.to_json() == {"act": "go", "player": 1}


def test_a_suit_attempt_shows_a_pass_once_a_card_is_down() -> None:
    state = new_game("suitcases", ["Ann", "Bob"]).new_initial_state()
    for action in ({"act": "deal", "dealer": 0}, {"act": "discard", "player": 0},
                   {"act": "discard", "player": 1}, {"act": "starter", "card": "the Excuse"}):
        state = state.apply_json(action)
    assert isinstance(state, PeggingTable)
    assert state.whose_turn() == 1 and state.inferred_pass() is None
    state = state.apply_json({"act": "play", "player": 1, "card": "Ace of Moons"})
    assert isinstance(state, PeggingTable)
    went = state.inferred_pass()
    assert went is not None and went.to_json() == {"act": "pass", "player": 0}


def test_zones_are_named_in_the_game_s_own_words() -> None:
    for name, crib, starter in (("cribbage", "the crib", "the starter"), ("bhargage", "the bhargage", "the top card"),
                                ("suitcases", "the crib", "the top card")):
        state = new_game(name, ["Ann", "Bob"]).new_initial_state()
        assert isinstance(state, PeggingTable)
        assert (state.zone_label(Zone.row(1)), state.zone_label(CRIB), state.zone_label(STARTER)) == (
            "Bob's row", crib, starter)
        assert state.zone_owner(Zone.row(5)) is None  # no such seat at this table


def test_a_card_name_the_deck_does_not_have_is_refused_where_it_is_laid() -> None:
    state = new_game("bhargage", ["Ann", "Bob"]).new_initial_state()
    assert isinstance(state, PeggingTable)
    with pytest.raises(PegpiError, match="French card"):
        state.card_means(Zone.row(0), "7H")  # a cut with a French card at a Decktet table
