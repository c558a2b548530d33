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
    with pytest.raises(LayoutError, match="2 to 3 seats"):
        layout_for("rummy", 4)


# ------------------------------------------------------------------ the simulated table


@pytest.mark.parametrize("seed", [1, 3])
def test_a_deal_played_from_table_events_is_the_deal_recorded(seed: int) -> None:
    report = table_sim("gin", seats=2, seed=seed, frames=False)
    assert report.same and report.actions_same, report.to_json()
    assert report.asked == 0


def test_four_players_play_two_hands_at_once_from_the_phone(tmp_path: Path) -> None:
    session = Session(Store(tmp_path / "t.db"), game="gin", players=["Ann", "Bob", "Cy", "Di"], ping_s=0.01)
    assert not isinstance(session.protocol, RummyProtocol)
    message = session.view().to_json()["message"]
    assert "phone" in message and "rummy" in message


def test_a_deal_read_from_frames_is_the_deal_played() -> None:
    report = table_sim("gin", seats=2, seed=4, fps=15)
    assert report.same and report.actions_same, report.to_json()
    assert report.events_read == report.events_played > 20
