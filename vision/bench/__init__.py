"""The card model's bench (``pegpi bench recognition``): figures on rendered designs never
trained on. Only names the command line needs at start-up live here; the bench is in
:mod:`vision.bench.recognition`."""

from __future__ import annotations

#: The bench's sections, in the order they run (framing, latency and enrolment use the held-out
#: crops, so they run the held-out section too).
SECTIONS = ("heldout", "framing", "loose", "index_only", "latency", "enrolment", "recognize", "commercial")

#: The design pools (``--pool``), as the names of their :mod:`vision.render` tuples: the bench's
#: (reported), those kept for choosing between trained models (never reported), and those kept
#: for confirming a choice once. All are drawn in the held-out fonts.
DESIGN_POOLS = {"bench": "BENCH_DESIGN_SEEDS", "selection": "SELECTION_DESIGN_SEEDS", "confirm": "CONFIRM_DESIGN_SEEDS"}
