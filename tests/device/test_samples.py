"""The sample boards (README pictures, demo, tests) state only what the engine scores."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

from device.board import samples
from games.cards import Card
from games.cribbage.scoring import score_play, score_show, value
from games.view import PeggingView

DOCS = Path(__file__).parents[2] / "docs" / "board"
SAMPLES = sorted(samples.ALL.items())


@pytest.mark.parametrize(("name", "make"), SAMPLES, ids=[n for n, _ in SAMPLES])
def test_a_shown_hand_is_counted_as_the_engine_counts_it(name: str, make: Any) -> None:
    view = make()
    show = view.show if isinstance(view, PeggingView) else None
    if show is None:
        return
    assert show.cards is not None and show.starter is not None and show.items is not None
    score = score_show([Card.parse(c) for c in show.cards], Card.parse(show.starter), show.what == "crib")
    assert show.total == score.total == sum(item.points for item in show.items)
    assert [item.points for item in show.items] == [item.points for item in score.items]
    assert show.items[-1].say.endswith(f" {score.total}")  # the running total ends at the total


@pytest.mark.parametrize(("name", "make"), SAMPLES, ids=[n for n, _ in SAMPLES])
def test_the_last_points_are_what_the_pegs_moved(name: str, make: Any) -> None:
    view = make()
    pile = view.pile if isinstance(view, PeggingView) else ()
    if pile:
        assert view.count == sum(value(Card.parse(c)) for c in pile)
    last = view.last
    if last is None:
        return
    side = view.sides[last.side]
    assert side.score - side.rear == last.points
    if last.kind == "play" and pile:
        assert sum(i.points for i in score_play([Card.parse(c) for c in pile])) == last.points


def test_the_readme_show_picture_is_bob_s_real_fifteen() -> None:
    show = samples.show().show
    assert show is not None and show.items is not None
    assert show.cards == ("5H", "5S", "JD", "4C") and show.starter == "5D"
    assert show.total == 15 and show.items[-1].kind == "nob"


@pytest.fixture(scope="module")
def drawn(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from pegpi.cli.board import demo

    out = tmp_path_factory.mktemp("board")
    demo(out, [(128, 64), (128, 32), (256, 64)], 4)
    return out


@pytest.mark.parametrize("name", sorted(samples.ALL))
def test_the_docs_pictures_are_the_samples_as_drawn_now(name: str, drawn: Path) -> None:
    """docs/board is made by `pegpi board --demo -o docs/board`: a stale picture fails here."""
    fresh = sorted(drawn.glob(f"{name}-*.png"))
    assert fresh
    for path in fresh:
        with Image.open(path) as new, Image.open(DOCS / path.name) as kept:
            assert ImageChops.difference(new.convert("L"), kept.convert("L")).getbbox() is None, path.name
