"""The rummy protocol (Gin Rummy at the table): a discard laid on the pile with the stock draw
inferred, the pile's top taken as a draw from it, the knock and the defender's hand read as
groups from the spread zones, and doubtful or refused cards asked about with nothing lost."""

from __future__ import annotations

from pathlib import Path

import pytest

from device.protocols.rummy import RummyProtocol
from device.session import Session
from device.store import Store
from games.table import RummyTable
from pegpi.tablesim import table_sim
from vision.errors import LayoutError
from vision.events import TableEvent
from vision.mat import layout_for, mat_paper

KNOCK = ["2H", "3H", "4H", "7S", "7D", "7C", "JD", "QD", "KD", "AS"]  # deadwood: the ace, 1
DEFENCE = ["5H", "8S", "9S", "10S", "KS", "KH", "KC", "6D", "6C", "2C"]  # 5H goes on 2H 3H 4H; 14 left


def _session(tmp_path: Path) -> Session:
    session = Session(Store(tmp_path / "t.db"), game="gin", players=["Ann", "Bob"], ping_s=0.01)
    session.submit({"act": "deal", "card": "5C", "dealer": 1}, source="phone")  # Bob deals: Ann is offered 5C
    session.table_events([_put("stock", "back"), _put("pile", "5C")])
    return session


def _put(zone: str, card: str, slot: int = 0, confidence: float = 1.0) -> TableEvent:
    return TableEvent(zone, card, "placed", 0.0, confidence, slot)


def _take(zone: str, card: str, slot: int = 0) -> TableEvent:
    return TableEvent(zone, card, "removed", 0.0, 1.0, slot)


def _acts(session: Session) -> list[str]:
    return [str(e.action["act"]) for e in session.entries]


def _spread(session: Session, seat: int, cards: list[str], doubtful: int | None = None) -> None:
    session.table_events([_put(f"seat{seat}", card, slot, 0.3 if slot == doubtful else 1.0)
                          for slot, card in enumerate(cards)])


def test_gin_plays_on_its_own_table_through_the_rummy_protocol(tmp_path: Path) -> None:
    session = _session(tmp_path)
    assert isinstance(session.protocol, RummyProtocol) and isinstance(session.state, RummyTable)
    assert session.protocol.ask is None and _acts(session) == ["deal"]  # the upcard seen again, the stock unseen


def test_a_discard_after_a_refused_upcard_infers_both_passes_and_the_stock_draw(tmp_path: Path) -> None:
    session = _session(tmp_path)
    session.table_events([_put("pile", "9D")])
    assert _acts(session) == ["deal", "pass", "pass", "draw", "discard"]
    draw = session.entries[3].action
    assert draw["player"] == 0 and draw.get("source", "stock") == "stock" and "card" not in draw
    assert session.entries[4].action == {"act": "discard", "player": 0, "card": "9D"}
    session.table_events([_put("pile", "QS")])  # Bob drew from the stock, unseen, and discards
    assert session.entries[-2].action["player"] == 1 and session.entries[-1].action["card"] == "QS"
    assert {e.source for e in session.entries[1:]} == {"table"}


def test_the_top_of_the_pile_taken_is_a_draw_from_it_and_the_card_below_means_nothing(tmp_path: Path) -> None:
    session = _session(tmp_path)
    session.table_events([_put("pile", "9D")])
    session.table_events([_take("pile", "9D"), _put("pile", "5C")])  # Bob takes 9D; 5C shows again
    assert _acts(session)[-1] == "draw" and session.entries[-1].action == {
        "act": "draw", "player": 1, "source": "discard"}
    assert session.view().to_json()["discard"] == "5C"
    session.table_events([_put("pile", "JC")])
    assert session.entries[-1].action == {"act": "discard", "player": 1, "card": "JC"}
    # a stack seen by a camera: the card under the top shows without the top being seen to go
    session.table_events([_put("pile", "5C")])
    assert session.entries[-1].action == {"act": "draw", "player": 0, "source": "discard"}


def test_the_upcard_taken_empties_the_pile_and_is_the_first_players_draw(tmp_path: Path) -> None:
    session = _session(tmp_path)
    session.table_events([_take("pile", "5C")])
    assert session.entries[-1].action == {"act": "draw", "player": 0, "source": "discard"}
    session.table_events([_put("pile", "8H")])  # on the empty pile: Ann's discard
    assert session.entries[-1].action == {"act": "discard", "player": 0, "card": "8H"}


def test_a_discard_out_of_turn_is_named_and_nothing_is_lost(tmp_path: Path) -> None:
    session = _session(tmp_path)
    session.table_events([_put("pile", "9D"), _take("pile", "9D"), _put("pile", "5C"), _put("pile", "JC")])
    recorded = len(session.entries)  # Bob holds 9D (taken from the pile); now it is Ann's turn
    session.table_events([_put("pile", "9D")])
    ask = session.protocol.ask
    assert ask is not None and ask.kind == "illegal"
    assert ask.text == "9D: it is Ann's turn to discard"
    assert len(session.entries) == recorded
    session.table_events([_take("pile", "9D")])  # taken back: the question is answered
    assert session.protocol.ask is None and len(session.entries) == recorded
    session.table_events([_put("pile", "4S")])
    assert session.entries[-1].action == {"act": "discard", "player": 0, "card": "4S"}


def test_the_card_just_taken_from_the_pile_is_refused_as_the_discard(tmp_path: Path) -> None:
    session = _session(tmp_path)
    session.table_events([_put("pile", "9D"), _take("pile", "9D"), _put("pile", "5C")])
    session.table_events([_put("pile", "9D")])
    ask = session.protocol.ask
    assert ask is not None and ask.kind == "illegal" and "took 9D" in ask.text


def test_a_knock_is_read_as_one_group_and_the_defenders_hand_with_its_layoffs(tmp_path: Path) -> None:
    session = _session(tmp_path)
    _spread(session, 0, KNOCK)
    assert _acts(session) == ["deal"]  # the hand waits for the discard
    session.table_events([_put("pile", "9C")])
    knock = session.entries[-1].action
    assert _acts(session) == ["deal", "pass", "pass", "draw", "knock"]
    assert knock["card"] == "9C" and knock["cards"] == ["AS"] and len(knock["melds"]) == 3
    _spread(session, 1, DEFENCE[:9])
    assert _acts(session)[-1] == "knock"  # nine cards: the defender is still laying
    _spread(session, 1, DEFENCE)
    assert _acts(session)[-2:] == ["layoff", "spread"]
    assert session.entries[-2].action == {"act": "layoff", "player": 1, "meld": 0, "cards": ["5H"]}
    assert session.state.scores == [13, 0]  # 14 against 1
    groups = session.view().to_json()["groups"]
    assert [g["cards"] for g in groups if g["name"] == "deadwood"] == [["AS"], ["2C", "6D", "6C"]]


def test_the_next_deal_is_read_from_its_upcard_once_the_mat_is_cleared(tmp_path: Path) -> None:
    session = _session(tmp_path)
    _spread(session, 0, KNOCK)
    session.table_events([_put("pile", "9C")])
    _spread(session, 1, DEFENCE)
    assert session.state.scores == [13, 0]
    cleared = [_take(f"seat{seat}", card, slot) for seat, cards in ((0, KNOCK), (1, DEFENCE))
               for slot, card in enumerate(cards)]
    session.table_events([*cleared, _take("pile", "9C"), _take("stock", "back")])
    assert _acts(session)[-1] == "spread" and session.protocol.ask is None  # clearing means nothing
    session.table_events([_put("stock", "back"), _put("pile", "QH")])
    assert session.entries[-1].action == {"act": "deal", "card": "QH"}  # Bob lost: he deals
    assert session.entries[-1].source == "table" and session.state.prompt() == "Ann takes the QH or passes"


def test_a_knock_laid_after_its_discard_is_read_once_the_hand_is_complete(tmp_path: Path) -> None:
    session = _session(tmp_path)
    _spread(session, 0, KNOCK[:6])
    session.table_events([_put("pile", "9C")])
    assert _acts(session) == ["deal"]
    session.table_events([_put("seat0", c, 6 + i) for i, c in enumerate(KNOCK[6:])])
    assert _acts(session)[-1] == "knock" and session.entries[-1].action["card"] == "9C"


def test_a_group_with_a_doubtful_card_is_asked_about_before_it_is_judged(tmp_path: Path) -> None:
    session = _session(tmp_path)
    _spread(session, 0, KNOCK, doubtful=4)
    session.table_events([_put("pile", "9C")])
    ask = session.protocol.ask
    assert ask is not None and ask.kind == "confirm" and ask.card == "7D" and ask.zone == "seat0"
    assert "Ann's spread" in ask.text and _acts(session) == ["deal"]
    session.confirm(source="button")
    assert _acts(session)[-1] == "knock" and session.protocol.ask is None


def test_a_doubtful_card_corrected_on_the_phone_is_judged_as_corrected(tmp_path: Path) -> None:
    session = _session(tmp_path)
    misread = [*KNOCK[:9], "AH"]  # the ace of spades read, doubtfully, as the ace of hearts
    _spread(session, 0, misread, doubtful=9)
    session.table_events([_put("pile", "9C")])
    assert session.protocol.ask is not None and session.protocol.ask.card == "AH"
    session.resolve("AS", source="phone")
    knock = session.entries[-1].action
    assert knock["act"] == "knock" and knock["cards"] == ["AS"] and session.protocol.ask is None


def test_a_hand_laid_out_of_turn_is_named(tmp_path: Path) -> None:
    session = _session(tmp_path)
    session.table_events([_put("seat1", "KS")])  # Ann is to play; Bob lays a card
    ask = session.protocol.ask
    assert ask is not None and ask.kind == "illegal" and "Ann's turn" in ask.text
    assert _acts(session) == ["deal"]


# ------------------------------------------------------------------ four players, two tables


def _four(tmp_path: Path) -> Session:
    """Ann and Cy against Bob and Di: Ann plays Bob at the left table (Bob's), Cy plays Di at the
    right one (Di's); each table's deal is said on the phone."""
    session = Session(Store(tmp_path / "t.db"), game="gin", players=["Ann", "Bob", "Cy", "Di"], ping_s=0.01)
    session.submit({"act": "deal", "card": "5C", "dealer": 0}, source="phone")  # Bob is offered 5C
    session.submit({"act": "deal", "card": "5C", "dealer": 2}, source="phone")  # a pack a table: Di is offered 5C
    session.table_events([_put("stock", "back"), _put("pile", "5C"), _put("stock1", "back"), _put("pile1", "5C")])
    return session


def test_four_players_play_both_hands_at_once_each_read_at_its_own_table(tmp_path: Path) -> None:
    session = _four(tmp_path)
    assert isinstance(session.protocol, RummyProtocol) and session.protocol.ask is None
    session.table_events([_put("pile1", "9D")])  # the right table: Di discards after both passed
    assert [(e.action["act"], e.action["player"]) for e in session.entries[2:]] == [
        ("pass", 3), ("pass", 2), ("draw", 3), ("discard", 3)]
    session.table_events([_put("pile", "9D")])  # the same card from the other pack, at the left table
    assert [(e.action["act"], e.action["player"]) for e in session.entries[6:]] == [
        ("pass", 1), ("pass", 0), ("draw", 1), ("discard", 1)]
    session.table_events([_take("pile1", "9D"), _put("pile1", "5C")])  # Cy takes Di's 9D
    assert session.entries[-1].action == {"act": "draw", "player": 2, "source": "discard"}
    _spread(session, 0, KNOCK)  # Ann knocks at the left table while Cy is still to discard
    session.table_events([_put("pile", "9C")])
    assert [e.action["act"] for e in session.entries[-2:]] == ["draw", "knock"]
    assert session.entries[-1].action["player"] == 0 and session.entries[-1].action["cards"] == ["AS"]
    session.table_events([_put("pile1", "QS")])
    assert session.entries[-1].action == {"act": "discard", "player": 2, "card": "QS"}
    _spread(session, 1, DEFENCE)  # Bob's hand: 5H laid off on Ann's hearts
    assert [e.action["act"] for e in session.entries[-2:]] == ["layoff", "spread"]
    tables = session.view().to_json()["tables"]
    assert [(t["seats"], t["step"]) for t in tables] == [([1, 0], "done"), ([3, 2], "draw")]
    assert session.state.scores == [0, 0]  # a round is scored once both hands are over
    assert session.protocol.ask is None


def test_at_four_a_card_is_judged_by_the_turn_at_its_own_table(tmp_path: Path) -> None:
    session = _four(tmp_path)
    session.table_events([_put("pile1", "9D")])  # Di discards: Cy is to move at the right table
    session.table_events([_put("seat3", "KS")])
    ask = session.protocol.ask
    assert ask is not None and ask.kind == "illegal"
    assert ask.text == "KS: it is Cy's turn: Di lays the hand only at a knock"
    session.table_events([_take("seat3", "KS"), _put("seat0", "KS")])  # the left table has not begun
    ask = session.protocol.ask
    assert ask is not None and ask.text == "KS: it is Bob's turn: Ann lays the hand only at a knock"
    session.table_events([_take("seat0", "KS"), _put("pile1", "unknown")])
    ask = session.protocol.ask
    assert ask is not None and ask.kind == "unreadable" and "the discard pile at Di's table" in ask.text
    assert len(session.entries) == 6  # the two deals and Di's turn: nothing else was recorded


# ------------------------------------------------------------------ the mat


def test_the_rummy_mat_has_a_spread_zone_a_seat_a_stock_and_a_pile_on_its_paper() -> None:
    assert mat_paper("rummy", 2) == "A2"
    mat = layout_for("rummy", 2)
    assert mat.zone_names == ("seat0", "seat1", "stock", "pile")
    assert [len(mat.zone(z).slots) for z in mat.zone_names] == [10, 10, 1, 1]
    assert mat.zone("pile").stack and not mat.zone("stock").stack
    w, h = mat.size
    for zone in mat.zones:
        x0, y0, x1, y1 = zone.rect
        assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h
        for slot in zone.slots:
            assert mat.zone_at(*slot.center) is zone
    assert all(s.size[0] > s.size[1] for s in mat.zone("seat0").slots)  # the hand lies sideways
    with pytest.raises(LayoutError, match="use A2"):
        layout_for("rummy", 2, "A3")
    three = layout_for("rummy", 3)
    assert three.paper == "A2" and three.zone_names == ("seat0", "seat1", "seat2", "stock", "pile")
    assert len(three.zone("seat2").slots) == 10
    with pytest.raises(LayoutError, match="2 to 4 seats"):
        layout_for("rummy", 5)


def test_the_four_seat_rummy_mat_has_two_tables_between_four_spread_zones() -> None:
    assert mat_paper("rummy", 4) == "A1"
    mat = layout_for("rummy", 4)
    assert mat.zone_names == ("seat0", "seat1", "seat2", "seat3", "stock", "pile", "stock1", "pile1")
    assert [len(mat.zone(f"seat{s}").slots) for s in range(4)] == [10] * 4
    assert mat.zone("pile").stack and mat.zone("pile1").stack and not mat.zone("stock1").stack
    for zone in mat.zones:
        for slot in zone.slots:
            assert mat.zone_at(*slot.center) is zone
    centre = {name: ((r := mat.zone(name).rect)[0] + r[2]) / 2 for name in mat.zone_names}
    # seat 0 at the bottom, 1 left, 2 top, 3 right; the left table is seat 1's, the right seat 3's
    assert centre["seat1"] < centre["pile"] < centre["stock"] < centre["stock1"] < centre["pile1"] < centre["seat3"]
    assert mat.zone("seat0").rect[1] > mat.zone("pile").rect[3] > mat.zone("seat2").rect[1]
    # each hand lies upright to the player laying it
    assert all(s.size[0] < s.size[1] for s in mat.zone("seat0").slots + mat.zone("seat2").slots)
    assert all(s.size[0] > s.size[1] for s in mat.zone("seat1").slots + mat.zone("seat3").slots)
    with pytest.raises(LayoutError, match="use A1"):
        layout_for("rummy", 4, "A2")


# ------------------------------------------------------------------ the simulated table


@pytest.mark.parametrize("seed", [1, 3])
def test_a_deal_played_from_table_events_is_the_deal_recorded(seed: int) -> None:
    report = table_sim("gin", seats=2, seed=seed, frames=False)
    assert report.same and report.actions_same, report.to_json()
    assert report.asked == 0


@pytest.mark.parametrize(("seed", "whole_game"), [(1, True), (2, False)])
def test_four_hands_played_from_table_events_are_the_hands_recorded(seed: int, whole_game: bool) -> None:
    """Both tables at once, opponents changing every round (the whole game), voids redealt."""
    report = table_sim("gin", seats=4, seed=seed, frames=False, whole_game=whole_game)
    assert report.same and report.actions_played == report.actions_recorded, report.to_json()
    assert report.asked == 0 and (report.winner is not None or not whole_game)


def test_a_deal_read_from_frames_is_the_deal_played() -> None:
    report = table_sim("gin", seats=2, seed=4, fps=15)
    assert report.same and report.actions_same, report.to_json()
    assert report.events_read == report.events_played > 20
