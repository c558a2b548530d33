"""The drawing as a pure function: sizes, modes, pegs where the score says, and no view breaks it."""

from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from device.board import render_board, samples
from device.board.announce import announcement_frames
from device.board.notice import render_notice
from device.board.render import Columns, layout
from device.board.track import Box, hole_x
from device.board.view import board_of
from device.strip import strip_image
from games import new_game
from games.view import Counted, LastScore, ScoreTable, ShowCount, Side, SkunkLine, TableView

SIZES = [(128, 64), (128, 32), (256, 64)]


def lit(image: Image.Image, box: tuple[int, int, int, int]) -> int:
    """How many pixels are on inside ``box`` (x0, y0, x1, y1 inclusive)."""
    region = image.convert("L").crop((box[0], box[1], box[2] + 1, box[3] + 1))
    return sum(region.histogram()[1:])


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", sorted(samples.ALL))
def test_every_sample_draws_at_every_size(name: str, size: tuple[int, int]) -> None:
    view = samples.ALL[name]()
    before = copy.deepcopy(view)
    image = render_board(view, size)
    assert image.size == size
    assert image.mode == ("L" if size[0] >= 256 else "1")
    assert image.getbbox() is not None  # something is drawn
    assert view == before  # drawing never changes the view


def test_drawing_is_a_pure_function_of_the_view() -> None:
    first = render_board(samples.play(), (128, 64))
    second = render_board(samples.play(), (128, 64))
    assert first.tobytes() == second.tobytes()
    assert render_board(samples.play(), (128, 64), mode="L").mode == "L"


def test_the_front_peg_stands_in_the_hole_of_the_score() -> None:
    view = samples.base(phase="deal", sides=samples.sides(("Ann", 60, 60), ("Bob", 0, 0)))
    board = board_of(view)
    image = render_board(view, (128, 64))
    plan = layout(board, (128, 64))
    assert plan.two_line
    # Ann's street is at the bottom of her row; the peg is a solid column at hole 60.
    track = Box(0, plan.panel + 2 * 7 + 3, 127, plan.panel + plan.row - 2)
    x = hole_x(track, board, 60)
    assert lit(image, (x - 1, track.y0, x, track.y1)) == 2 * track.height
    # Moving the peg moves the column.
    moved = render_board(samples.base(phase="deal", sides=samples.sides(("Ann", 90, 60), ("Bob", 0, 0))),
                         (128, 64))
    x90 = hole_x(track, board, 90)
    assert lit(moved, (x90 - 1, track.y0, x90, track.y1)) == 2 * track.height
    assert lit(moved, (x - 1, track.y0, x, track.y1)) < 2 * track.height  # the rear peg is hollow


def test_four_sides_share_aligned_streets() -> None:
    board = board_of(samples.four_players())
    plan = layout(board, (128, 64))
    assert not plan.two_line and plan.row * 4 + plan.panel <= 64
    columns = Columns.for_board(board, 128, plan)
    assert columns.track[1] - columns.track[0] > 60


def test_odd_values_stay_on_the_board() -> None:
    for view in (samples.base(sides=()), samples.base(target=None, board=None),
                 samples.base(pegged=False), samples.base(pegged=False, table=ScoreTable(("",), (("1", "2"),), ())),
                 samples.base(sides=(Side("", (), 500, 900),),
                              skunk_lines=(SkunkLine("x", 999), SkunkLine("skunk", 0))),
                 samples.base(phase="show", show=ShowCount(seat=7, what="hand", cards=None, starter=None,
                                                           total=2, claimed=2, items=None)),
                 samples.base(phase="over", winner=7, result="double skunk"),
                 samples.base(message="The mat is out of view", last=LastScore(9, None, 0, "", ""))):
        for size in SIZES:
            assert render_board(view, size).size == size
    board = board_of(samples.base(sides=(Side("Ann", (0,), 50, 60),), skunk_lines=(SkunkLine("x", 999),)))
    assert board.sides[0].rear == 50 and board.skunk_lines == ()
    assert board_of(samples.base(target=None)).target == 121


def test_a_message_lights_the_problem_light() -> None:
    assert board_of(samples.question()).problem
    assert board_of(samples.base(message=None)).problem is False


def test_games_of_every_family_draw() -> None:
    for name, players in (("cribbage", 2), ("ohhell", 3), ("patience", 1), ("bhargage", 2)):
        view = new_game(name, players).new_initial_state().view_for(None)
        board = board_of(view)
        assert board.pegged is (name != "ohhell")
        for size in SIZES:
            assert render_board(view, size).size == size


@pytest.mark.parametrize("name", ["bourre", "briscola"])
def test_trick_games_draw_through_a_game(name: str) -> None:
    from games.records import steps
    from games.trickplay import autoplay as trick_autoplay

    record = trick_autoplay(name, seed=3, deals=2, renege=0.3 if name == "bourre" else 0.0)
    states = [state for _, _, state in steps(record)]
    for state in states[::7] + states[-1:]:
        for seat in (None, 0):
            view = state.view_for(seat)
            assert not board_of(view).pegged and board_of(view).table is not None
            for size in SIZES:
                assert render_board(view, size).size == size
    last = states[-1].view_for(None)
    assert last.table is not None and len(last.table.rows) == 2  # the sheet has a row per deal
    for frame in announcement_frames(last, SIZES[0], steps=2):
        assert frame.size == SIZES[0]
    assert strip_image(last, 121).size[1] == 1


def test_the_pile_games_draw_through_a_game() -> None:
    from games.pileplay import autoplay
    from games.records import steps

    for name in ("beggar", "ratscrew", "eleusis"):
        states = [state for _, _, state in steps(autoplay(name, seed=2, max_actions=300))]
        for state in states[::25] + states[-1:]:
            for seat in (None, 0):
                view = state.view_for(seat)
                assert board_of(view).pile == view.pile
                for size in SIZES:
                    assert render_board(view, size).size == size


def test_bhargage_shows_its_target_and_start() -> None:
    board = board_of(samples.bhargage())
    assert (board.target, board.holes) == (111, 121)
    start10 = board_of(samples.bhargage_start10())
    assert (start10.start, start10.target) == (10, 121)


def test_announcement_slides_the_peg_from_rear_to_front() -> None:
    frames = announcement_frames(samples.play(), (128, 64), steps=4)
    assert len(frames) == 4
    assert all(frame.size == (128, 64) for frame in frames)
    assert frames[0].tobytes() != frames[-1].tobytes()
    assert announcement_frames(samples.start(), (128, 64)) == []  # nothing scored yet


@pytest.mark.parametrize("size", SIZES)
def test_announcements_fit_every_size(size: tuple[int, int]) -> None:
    for name in ("play", "go", "thirty-one", "show"):
        for frame in announcement_frames(samples.ALL[name](), size):
            assert frame.size == size


def test_notice_shows_a_code_large() -> None:
    image = render_notice(["Pairing code"], (128, 64), big="4821")
    assert image.getbbox() is not None
    assert render_notice(["A very long line that must wrap onto the next one"], (128, 32)).size == (128, 32)


def test_strip_lights_the_pegs_in_their_holes() -> None:
    image = strip_image(samples.play(), 121)
    assert image.size == (121, 1)
    assert image.getpixel((37 - 1, 0)) == (255, 0, 0)  # Ann's front peg, red
    assert image.getpixel((52 - 1, 0)) == (0, 64, 255)  # Bob's front peg, blue
    assert image.getpixel((33 - 1, 0)) != image.getpixel((34 - 1, 0))  # Ann's rear peg glows
    per_side = strip_image(samples.play(), 121, streets="per_side")
    assert per_side.size == (242, 1)
    assert per_side.getpixel((121 + 52 - 1, 0)) == (0, 64, 255)


names = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=14)
scores = st.integers(min_value=-5, max_value=200)
seats = st.one_of(st.none(), st.integers(-1, 5))
side = st.builds(Side, name=names, seats=st.lists(st.integers(0, 3), max_size=2).map(tuple), score=scores,
                 rear=scores)
cards = st.lists(st.sampled_from(["5H", "10S", "JD", "AC", "KH", "RJ", "??", "the Savage"]), max_size=8).map(tuple)
said = st.builds(lambda say, points: Counted("fifteen", (), points, say), names, st.integers(0, 29))
views = st.builds(
    samples.base,
    players=st.lists(names, max_size=4).map(tuple),
    sides=st.lists(side, max_size=4).map(tuple),
    target=st.one_of(st.none(), st.integers(-5, 200)),
    board=st.one_of(st.none(), st.integers(-5, 200)),
    start=st.integers(-5, 30),
    phase=st.sampled_from(["cut", "deal", "discard", "starter", "play", "show", "over", "", "bid"]),
    dealer=seats,
    turn=seats,
    count=st.one_of(st.none(), st.integers(0, 31)),
    pile=cards,
    starter=st.one_of(st.none(), st.sampled_from(["5D", "10C"])),
    show=st.one_of(st.none(), st.builds(ShowCount, seat=st.integers(0, 3), what=st.just("hand"),
                                        cards=st.one_of(st.none(), cards), starter=st.none(),
                                        total=st.integers(0, 29), claimed=st.integers(0, 29),
                                        items=st.one_of(st.none(), st.lists(said).map(tuple)))),
    last=st.one_of(st.none(), st.builds(LastScore, side=st.integers(-1, 4), seat=seats,
                                        points=st.integers(0, 29), kind=names, say=names)),
    winner=st.one_of(st.none(), st.integers(-1, 4)),
    result=st.one_of(st.none(), st.sampled_from(["win", "skunk", "double skunk"])),
    message=st.one_of(st.none(), names),
    skunk_lines=st.lists(st.builds(SkunkLine, label=names, at=st.integers(-5, 200)), max_size=3).map(tuple),
)


@settings(max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(view=views, size=st.sampled_from(SIZES))
def test_no_view_breaks_the_board(view: TableView, size: tuple[int, int]) -> None:
    assert render_board(view, size).size == size
    for frame in announcement_frames(view, size, steps=2):
        assert frame.size == size
    assert strip_image(view, 121).size[1] == 1
