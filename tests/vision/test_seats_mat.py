"""The seats mat (Ricochet Poker, Skull): a row of outlines per seat, on the smallest paper that
holds every seat's five cards, and printed by `pegpi mat`."""

from __future__ import annotations

import cv2
import pytest

from pegpi.cli import main
from vision.errors import LayoutError
from vision.mat import PAPERS, SEAT_HAND, layout_for, mat_paper


@pytest.mark.parametrize(("seats", "paper"), [(2, "A3"), (3, "A3"), (4, "A2"), (5, "A2"), (6, "A2"), (7, "A1"),
                                              (8, "A1")])
def test_each_seat_has_a_hand_of_outlines_on_the_smallest_paper(seats: int, paper: str) -> None:
    assert mat_paper("seats", seats) == paper
    layout = layout_for("seats", seats, paper)
    assert layout.zone_names == tuple(f"seat{i}" for i in range(seats))
    counts = {len(z.slots) for z in layout.zones}
    assert len(counts) == 1 and SEAT_HAND[0] <= counts.pop() <= SEAT_HAND[1]
    assert all(z.seat == i and not z.stack for i, z in enumerate(layout.zones))
    w, h = PAPERS[paper]
    rects = [s.rect for z in layout.zones for s in z.slots]
    assert all(5.0 <= x0 < x1 <= w - 5.0 and 5.0 <= y0 < y1 <= h - 5.0 for x0, y0, x1, y1 in rects)
    for zone in layout.zones:  # each outline is found in its own seat's zone
        assert all(layout.zone_at(*slot.center) is zone for slot in zone.slots)


def test_a_smaller_paper_is_refused_by_name() -> None:
    with pytest.raises(LayoutError, match="larger paper"):
        layout_for("seats", 8, "A2")
    assert len(layout_for("seats", 2).zone("seat0").slots) == 6  # room for a six-card hand


@pytest.mark.parametrize(("game", "seats", "said"), [("ricochet", 8, "seats mat for 8 seats on A1"),
                                                     ("skull", 3, "seats mat for 3 seats on A3")])
def test_pegpi_mat_prints_the_games_seats_mat(tmp_path, capsys, game: str, seats: int, said: str) -> None:
    out = tmp_path / "mat.png"
    assert main(["mat", "--game", game, "--seats", str(seats), "--px-per-mm", "1", "-o", str(out)]) == 0
    w, h = PAPERS[mat_paper("seats", seats)]
    assert cv2.imread(str(out)).shape[:2] == (round(h), round(w))
    assert said in capsys.readouterr().out


def test_a_mat_swept_after_a_card_was_turned_up_is_reported_in_slot_order() -> None:
    from vision.simtable import Clear, Place, Remove, SimTable

    layout = layout_for("seats", 3)
    script = [Place("back", "seat2", 0), Place("back", "seat2", 1), Remove("seat2", 1), Place("10S", "seat2", 1),
              Remove("seat2", 0), Place("7D", "seat2", 0), Clear()]
    sim = SimTable(layout, script, fps=5)
    removed = [(e.card, e.slot) for e in sim.truth if e.kind == "removed"][2:]
    assert removed == [("7D", 0), ("10S", 1)]  # as the tracker reports cards gone in one frame
