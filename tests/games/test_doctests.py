"""Every `>>>` example in the rules engine runs."""

import doctest
import importlib
import pkgutil

import pytest

import games

MODULES = sorted(m.name for m in pkgutil.walk_packages(games.__path__, prefix="games."))


@pytest.mark.parametrize("name", ["games", *MODULES])
def test_examples_in_docstrings(name):
    module = importlib.import_module(name)
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0
