"""The layout protocol (Cribbage Patience): each card laid into the square's outlines is placed
there in the game; the starter laid on the square counts every row and column; doubtful,
unreadable and refused cards are asked about and nothing recorded is lost."""

from __future__ import annotations

from pathlib import Path

from device.protocols.layout import LayoutProtocol
from device.protocols.script import ScriptTable, play_script, record_to_script
from device.session import Session
from device.store import Store
from games.playouts import playout
from games.records import replay
from pegpi.tablesim import table_sim
from vision.events import TableEvent


def _session(tmp_path: Path, record: dict) -> Session:
    return Session(Store(tmp_path / "t.db"), game=record["game"], players=record["players"],
                   options=record.get("options"), ping_s=0.01)


def _placed(card: str, slot: int, confidence: float = 1.0) -> TableEvent:
    return TableEvent("grid", card, "placed", 0.0, confidence, slot)


def test_a_square_laid_card_by_card_and_its_starter_score_as_the_record(tmp_path: Path) -> None:
    record = playout("patience", seed=4)
    steps = record_to_script(record)
    assert [s["op"] for s in steps] == ["place"] * 17  # every move is seen; nothing typed in
    session = _session(tmp_path, record)
    assert isinstance(session.protocol, LayoutProtocol)
    problems: list[object] = []
    play_script(session, steps, on_step=lambda i, step, error: error and problems.append((i, error)))
    want = replay(record).state
    assert problems == [] and session.protocol.ask is None
    assert session.state.scores == want.scores and session.state.is_over
    lines = session.view().to_json()["lines"]
    assert len(lines) == 8 and sum(line["total"] for line in lines) == want.scores[0]
    assert {e.source for e in session.entries} == {"table"}


def test_a_doubtful_card_is_asked_about_and_counts_only_after_ok(tmp_path: Path) -> None:
    session = _session(tmp_path, playout("patience", seed=1))
    session.table_events([_placed("7H", 5, confidence=0.4)])
    ask = session.view().to_json()["ask"]
    assert ask["kind"] == "confirm" and ask["card"] == "7H" and "the square" in ask["text"]
    assert len(session.entries) == 0
    session.table_events([_placed("8C", 6)])  # waits behind the question
    assert len(session.entries) == 0
    session.confirm(source="button")
    assert session.view().to_json()["grid"][1][1:3] == ["7H", "8C"]


def test_a_move_the_rules_refuse_is_named_and_ok_ignores_it(tmp_path: Path) -> None:
    session = _session(tmp_path, playout("patience", seed=1))
    session.table_events([_placed("7H", 0)])
    session.table_events([_placed("9S", 15)])  # does not touch the 7H
    ask = session.view().to_json()["ask"]
    assert ask["kind"] == "illegal" and "9S" in ask["text"] and "touch" in ask["text"]
    assert len(session.entries) == 1  # the 7H stays recorded
    session.confirm(source="button")
    session.table_events([_placed("9S", 1)])
    assert session.view().to_json()["grid"][0][:2] == ["7H", "9S"]


def test_a_misread_card_is_named_on_the_phone_and_a_nudged_card_changes_nothing(tmp_path: Path) -> None:
    session = _session(tmp_path, playout("patience", seed=1))
    session.table_events([_placed("unknown", 0, confidence=0.1)])
    assert session.view().to_json()["ask"]["kind"] == "unreadable"
    session.resolve("QD", source="phone")
    session.table_events([TableEvent("grid", "QD", "removed", 1.0, 1.0, 0), _placed("QD", 0)])
    assert session.view().to_json()["grid"][0][0] == "QD" and len(session.entries) == 1


def test_patience_read_from_frames_is_the_square_played() -> None:
    report = table_sim("patience", seed=2, fps=15)
    assert report.same, report.to_json()
    assert report.events_read == report.events_played >= 17


def test_script_table_events_replay_a_whole_square_after_a_restart(tmp_path: Path) -> None:
    record = playout("patience", seed=3)
    steps = record_to_script(record)
    first = _session(tmp_path, record)
    table = ScriptTable(steps)
    for index, _, events in table.events():
        first.table_events(events, input=f"script:{index}")
        if index == 8:
            break
    first.close()
    again = _session(tmp_path, record)  # the tracker starts afresh and sees every card again
    play_script(again, steps)
    assert again.state.scores == replay(record).state.scores
    assert len(again.entries) == 17
