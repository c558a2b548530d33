"""``pegpi bench mat``: cards of designs the model never trained on, dealt on the sixteen outlines
of a mat of any paper and read by the table pipeline through a camera of any size.

A large mat seen whole by a 720p camera shows each card small: an A3 mat's cards are 110-150 px
high, an A2's 80-105 and an A1's 60-72. Each deal is a mat of its own design, seen by a camera
of its own (pose, light, noise, blur), as :func:`vision.bench.enrol_table.dealt_table` lays it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from games.jsontypes import JSONObject
from vision.bench.enrol_table import dealt_table, read_rate
from vision.classify import load_default_classifier
from vision.locate import seen_height
from vision.mat import layout_for
from vision.render import CARD_IDS
from vision.simtable import SimTable, default_card_art

#: the cards dealt: the French deck's 52 (its jokers are no part of most games)
FRENCH = tuple(c for c in CARD_IDS if c not in ("RJ", "BJ"))


def mat_deals(designs: Sequence[int], paper: str, size: tuple[int, int], seed: int
              ) -> Iterator[tuple[SimTable, list[str]]]:
    """One deal for each design: the ``layout`` mat on ``paper``, its outlines dealt from the
    design's shuffled deck, seen through a ``size`` camera while the light changes, then left
    lying long enough for a card the table asks about to be looked at again (three seconds)."""
    layout = layout_for("layout", 1, paper)
    outlines = len(layout.zones[0].slots)
    rng = np.random.default_rng([seed, 41])
    for design in designs:
        dealt = [str(c) for c in rng.permutation(FRENCH)[:outlines]]
        yield dealt_table(layout, dealt, rng, default_card_art(design=design), size=size, before_s=1.5,
                          after_s=3.0), dealt


def run_bench(designs: Sequence[int], paper: str, size: tuple[int, int], seed: int = 0) -> JSONObject:
    """The cards read right (and of those asked about), read wrong (and of those recorded without
    asking) and never placed (:func:`vision.bench.enrol_table.read_rate`), with how many pixels
    high the camera shows the cards."""
    tables = list(mat_deals(designs, paper, size, seed))
    heights = [seen_height(sim.to_frame(), slot.corners()) for sim, _ in tables for slot in sim.layout.zones[0].slots]
    out = read_rate(tables, {"stock": load_default_classifier()})["stock"]
    assert isinstance(out, dict)
    return {"paper": paper, "camera": f"{size[0]}x{size[1]}", "designs": len(designs), **out,
            "card_px": {"least": round(min(heights), 1), "median": round(float(np.median(heights)), 1),
                        "most": round(max(heights), 1)}}
