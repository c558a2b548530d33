"""The small networks' training data (:mod:`vision.train.heads`): rendered once in chunks, each
split from its own designs, and read back whole by the next run."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.train.data import TRAIN_DESIGNS, VAL_DESIGNS
from vision.train.heads import build


def _numbered(seed: int, n: int, designs: range) -> dict[str, np.ndarray]:
    """``n`` rows telling the chunk's seed and whether its designs were the training ones."""
    return {"x": np.full((n, 2), seed, np.int64), "y": np.full(n, designs == TRAIN_DESIGNS, bool)}


def _never(seed: int, n: int, designs: range) -> dict[str, np.ndarray]:
    raise AssertionError("rendered again")


def test_the_data_is_rendered_once_by_chunks_and_read_back_whole(tmp_path: Path) -> None:
    assert TRAIN_DESIGNS != VAL_DESIGNS
    tr, va = build(_numbered, "toy", tmp_path, 30, 10, 1, first_seeds=(100, 900), chunk=10)
    assert sorted(set(tr["x"][:, 0].tolist())) == [100, 101, 102] and len(tr["x"]) == 30
    assert va["x"][:, 0].tolist() == [900] * 10
    assert tr["y"].all() and not va["y"].any()  # each split rendered from its own designs
    again_tr, again_va = build(_never, "toy", tmp_path, 30, 10, 1, first_seeds=(100, 900), chunk=10)
    assert (again_tr["x"] == tr["x"]).all() and (again_va["x"] == va["x"]).all()
    with pytest.raises(AssertionError, match="rendered again"):  # a chunk not made before is made
        build(_never, "toy", tmp_path, 40, 10, 1, first_seeds=(100, 900), chunk=10)
