"""Fight the Landlord's mat (the combinations table): a zone of outlines in front of each of the
three seats, the kitty's three outlines, on the paper it fits; printed by `pegpi mat`."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.table import Zone
from pegpi.cli import main
from vision.errors import LayoutError
from vision.mat import COMBO_LEAST, PAPERS, layout_for, mat_paper
from vision.mat_find import MatFinder
from vision.simtable import Idle, Place, SimTable


def test_each_seat_has_its_own_zone_in_front_of_it_and_the_kitty_holds_three() -> None:
    mat = layout_for("combos", 3)
    assert mat.paper == mat_paper("combos", 3) == "A2"  # A3 has no room for three zones of plays
    assert mat.zone_names == ("seat0", "seat1", "seat2", "kitty")
    assert [len(mat.zone(f"seat{s}").slots) for s in range(3)] == [9, 10, 10]
    assert len(mat.zone("kitty").slots) == 3 and min(len(mat.zone(f"seat{s}").slots) for s in range(3)) >= COMBO_LEAST
    w, h = PAPERS["A2"]
    bottom, left, right = (mat.zone(f"seat{s}").rect for s in range(3))
    assert bottom[3] > h - 10 and left[0] < 10 and right[2] > w - 10  # each along its player's edge
    # seat 0's cards stand upright before it; seats 1 and 2 lay theirs sideways, as they sit
    assert {s.size for s in mat.zone("seat0").slots} == {(63.0, 88.0)}
    assert {s.size for s in mat.zone("seat1").slots} == {s.size for s in mat.zone("seat2").slots} == {(88.0, 63.0)}
    for zone in mat.zones:  # every printed name is read back into the zone value the games use
        assert (Zone.parse(zone.name).kind, Zone.parse(zone.name).seat) == (zone.kind, zone.seat)


def test_a_mat_too_small_or_for_other_seats_is_refused_saying_why() -> None:
    with pytest.raises(LayoutError, match="use A2"):
        layout_for("combos", 3, "A3")
    with pytest.raises(LayoutError, match="3 to 3 seats"):
        layout_for("combos", 4)


def test_pegpi_mat_prints_the_landlord_mat(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "landlord.png"
    assert main(["mat", "--game", "landlord", "--seats", "3", "--px-per-mm", "2", "-o", str(out)]) == 0
    said = capsys.readouterr().out
    assert "combos mat for 3 seats on A2" in said and "kitty (3)" in said and out.stat().st_size > 10_000


def test_the_simulated_camera_finds_the_mat_and_cards_lying_sideways_land_in_their_zone() -> None:
    mat = layout_for("combos", 3)
    sim = SimTable(mat, [Idle(0.2), Place("RJ", "seat1", 3), Place("BJ", "kitty", 1), Idle(0.2)], fps=10)
    assert [(e.zone, e.slot, e.card) for e in sim.truth] == [("seat1", 3, "RJ"), ("kitty", 1, "BJ")]
    found = MatFinder(mat).find(sim.render(0), 0.0)
    assert found is not None
