"""The synthetic card renderer.

Public API (stable, used by the table simulator, training, the bench and the tests):

- :func:`render_card` ``(card_id, design, *, px_per_mm=4.0, rng=None, alpha=False) -> np.ndarray``:
  an upright BGR ``uint8`` card face (or ``"back"``) of a design.
- :data:`CARD_IDS`: the 52 cards and two jokers, ``"AS" .. "KC", "RJ", "BJ"``.
- :data:`HELDOUT_DESIGN_SEEDS`: designs (and fonts) never used in training;
  :data:`BENCH_DESIGN_SEEDS` (the held-out bench's pool, those 64 first) and
  :data:`SELECTION_DESIGN_SEEDS` (for choosing between trained models) and
  :data:`CONFIRM_DESIGN_SEEDS` (for confirming a choice once) are more of them.
- :class:`DesignSpec`, :func:`design_from_seed`, :func:`card_alpha`, :func:`index_box` (where the
  corner index is printed).
- :mod:`vision.render.photo`: backgrounds, camera effects, composed table photos.
- :mod:`vision.render.decktet`: procedural Decktet-like cards (for enrolment).
"""

from vision.render.cards import (
    BENCH_DESIGN_SEEDS,
    CARD_IDS,
    CONFIRM_DESIGN_SEEDS,
    HELDOUT_DESIGN_SEEDS,
    RANKS,
    RENDER_VERSION,
    SELECTION_DESIGN_SEEDS,
    SUITS,
    TRAIN_DESIGN_RANGE,
    DesignSpec,
    card_alpha,
    design_from_seed,
    index_box,
    is_heldout,
    render_card,
)

__all__ = [
    "BENCH_DESIGN_SEEDS",
    "CARD_IDS",
    "CONFIRM_DESIGN_SEEDS",
    "HELDOUT_DESIGN_SEEDS",
    "RANKS",
    "RENDER_VERSION",
    "SELECTION_DESIGN_SEEDS",
    "SUITS",
    "TRAIN_DESIGN_RANGE",
    "DesignSpec",
    "card_alpha",
    "design_from_seed",
    "index_box",
    "is_heldout",
    "render_card",
]
