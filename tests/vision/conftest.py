"""Fixtures the vision tests share."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from vision.classify import MODELS_DIR


@pytest.fixture
def model_copy(tmp_path: Path) -> Path:
    """The shipped model's files copied into a temporary folder, to break or change there: the
    copy's ``cards.onnx``."""
    for f in MODELS_DIR.iterdir():
        if f.suffix in (".onnx", ".json", ".txt"):
            shutil.copy(f, tmp_path / f.name)
    return tmp_path / "cards.onnx"
