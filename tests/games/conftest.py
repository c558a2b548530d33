"""Helpers shared by the rules tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


def _texts(view: Any) -> Iterator[str]:
    if isinstance(view, dict):
        for v in view.values():
            yield from _texts(v)
    elif isinstance(view, list):
        for v in view:
            yield from _texts(v)
    elif isinstance(view, str):
        yield view


@pytest.fixture
def view_texts():
    """Every piece of text in a view as a phone gets it: a card hidden from a seat must not be among them."""
    return lambda view: set(_texts(view.to_json()))
