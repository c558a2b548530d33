"""A record replayed through the table's one Session over an in-memory store."""

from __future__ import annotations

import pytest

from device.replay import ReplaySession, replayed_table
from device.service import TableService
from games.cribbage.autoplay import autoplay
from games.errors import IllegalActionError, RecordError
from games.records import replay

RECORD = autoplay("cribbage", seed=3, known_hands=False)


def test_steps_play_the_record_and_score_as_it_does() -> None:
    table = ReplaySession(RECORD, played=5)
    assert table.steps_left == len(RECORD["actions"]) - 5
    while table.steps_left:
        table.step()
    assert table.state.scores == replay(RECORD).state.scores
    assert table.export()["actions"] == RECORD["actions"]
    assert {e.source for e in table.history()} == {"replay"}
    with pytest.raises(IllegalActionError, match="no more actions"):
        table.step()
    table.close()


def test_an_undone_action_is_played_again_by_the_next_step() -> None:
    table = ReplaySession(RECORD, played=12)
    before = table.view()
    table.undo()
    assert table.steps_left == len(RECORD["actions"]) - 11
    assert table.step() == before
    assert [r.kind for r in table.store.rows(table.game_id)].count("undo") == 1


def test_a_new_game_ends_the_script_and_played_is_bounded() -> None:
    table = ReplaySession(RECORD, played=10_000)
    assert table.steps_left == 0 and len(table.entries) == len(RECORD["actions"])
    table = ReplaySession(RECORD, played=3)
    table.new_game("cribbage5", ["Cy", "Di"])
    assert table.steps_left == 0


def test_the_pairing_code_and_an_empty_game() -> None:
    table: TableService = replayed_table(pairing_code="1234")
    assert table.pairing_code == "1234"
    assert table.view().game == "cribbage" and table.history() == []


def test_a_bad_record_is_refused_before_anything_is_made() -> None:
    with pytest.raises(RecordError, match="no 'actions'"):
        ReplaySession({"game": "cribbage"})
    with pytest.raises(RecordError):
        ReplaySession({"game": "cribbage", "players": "Ann", "actions": []})
