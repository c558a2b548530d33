"""Other tables through the whole pipeline: four-seat pegging (cards lying sideways at the sides),
tricks, and a layout grid whose cards touch."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.doubt import DOUBT
from vision.mat import layout_for
from vision.pipeline import TablePipeline
from vision.simtable import CameraPose, Clear, HandPass, Idle, Place, SimTable, Timing, default_card_art
from vision.template_classifier import TemplateClassifier

CARDS = ["AS", "2H", "3C", "4D", "5S", "6H", "7C", "8D", "9S", "10H", "JC", "QD", "KS"]


@pytest.fixture(scope="module")
def setup():
    art = default_card_art(design=21, px_per_mm=3.0)
    return art, TemplateClassifier.from_art([*CARDS, "5D", "QH", "KD", "back"], art)


def four_seat_pegging():
    script = [Idle(0.3), Place("5D", "starter")]
    script += [Place(CARDS[i * 4 + j], f"seat{j}") for i in range(3) for j in range(4)]
    return script + [Place("back", "crib"), Place("KD", "crib"), Clear(), Idle(0.2)]


def two_tricks():
    script = [Idle(0.3), Place("QH", "trump")]
    for trick in range(2):
        script += [Place(CARDS[trick * 4 + j], f"seat{j}") for j in range(4)]
        script += [Clear(f"seat{j}") for j in range(4)]
    return script + [Idle(0.2)]


def patience_grid():
    return [Idle(0.3)] + [Place(c, "grid") for c in CARDS[:10]] + [HandPass("grid", 1.0), Clear(), Idle(0.2)]


@pytest.mark.parametrize(("table", "seats", "script", "seed"), [
    ("pegging", 4, four_seat_pegging, 1),
    ("tricks", 4, two_tricks, 2),
    ("layout", 1, patience_grid, 3),
])
def test_the_events_are_the_ones_played(table, seats, script, seed, setup):
    art, classifier = setup
    layout = layout_for(table, seats)
    sim = SimTable(layout, script(), fps=15, pose=CameraPose.random(np.random.default_rng(seed)), seed=seed,
                   card_art=art, timing=Timing(0.2, 0.5))
    pipeline = TablePipeline(layout, classifier)
    events = [e for f in sim.frames() for e in pipeline.process(f.image, f.t).events]
    assert [(e.zone, e.slot, e.card, e.kind) for e in events] == [(e.zone, e.slot, e.card, e.kind) for e in sim.truth]


def _shipped_model():
    classify = pytest.importorskip("vision.classify")
    try:
        return classify.load_default_classifier(threads=1)
    except FileNotFoundError:
        pytest.skip("no card model in models/ yet")


def _laid_in_turn(cards: list[str]) -> list:
    """The cards laid in the two seats' rows in turn, then cleared away."""
    return [Idle(0.3)] + [Place(c, f"seat{i % 2}") for i, c in enumerate(cards)] + [Clear(), Idle(0.2)]


def test_the_shipped_model_reads_the_table_through_the_pipeline():
    model = _shipped_model()
    layout = layout_for("pegging", 2)
    cards = ["AS", "7H", "10C", "3D", "9S", "QH"]
    script = _laid_in_turn(cards)
    sim = SimTable(layout, script, fps=15, seed=5, timing=Timing(0.2, 0.5))
    pipeline = TablePipeline(layout, model)
    events = [e for f in sim.frames() for e in pipeline.process(f.image, f.t).events]
    # where and when come from the pipeline whatever the model; what is read depends on the model
    assert [(e.zone, e.slot, e.kind) for e in events] == [(e.zone, e.slot, e.kind) for e in sim.truth]
    placed = [e for e in events if e.kind == "placed"]
    assert sum(e.card == c for e, c in zip(placed, cards, strict=True)) >= len(cards) // 2


def _grey_camera(image: np.ndarray, rng: np.random.Generator, cast: tuple[float, float, float] = (1.0, 1.0, 1.0)
                 ) -> np.ndarray:
    """A NoIR or dim camera's frame: no colour of its own (but a cast of the light), and noise in
    each channel."""
    grey = cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR).astype(np.float32)
    return np.clip(grey * np.float32(cast) + rng.normal(0, 10, grey.shape), 0, 255).astype(np.uint8)


@pytest.mark.parametrize("cast", [(1.0, 1.0, 1.0), (0.8, 0.95, 1.15)], ids=["grey", "warm"])
def test_a_grey_camera_never_reports_a_red_card_surely_as_another_suit(cast):
    """The card network takes a grey heart for a spade: through a camera that shows no colour the
    table reads suits by the signs' shapes as well, and asks about the card it would have scored
    wrongly, proposing the suit the shapes show."""
    model = _shipped_model()
    layout = layout_for("pegging", 2)
    cards = ["7H", "3D", "QH", "AH", "8D", "2H", "9S", "4C"]
    script = _laid_in_turn(cards)
    sim = SimTable(layout, script, fps=15, seed=6, timing=Timing(0.2, 0.5))
    pipeline = TablePipeline(layout, model)
    rng = np.random.default_rng(6)
    events = [e for f in sim.frames() for e in pipeline.process(_grey_camera(f.image, rng, cast), f.t).events]
    assert pipeline.colour.colourless
    assert [(e.zone, e.slot, e.kind) for e in events] == [(e.zone, e.slot, e.kind) for e in sim.truth]
    placed = [(c, e.card, round(e.confidence, 3)) for e, c in zip([e for e in events if e.kind == "placed"], cards,
                                                                   strict=True)]
    assert all(card == read or sure <= DOUBT for card, read, sure in placed), placed
    assert sum(card == read for card, read, _sure in placed) >= len(cards) - 1, placed


#: held-out designs laid sixteen at a time (design, deal, camera). Through a grey camera 1000034
#: lost nine cards (the pieces of its courts froze the mat), and once found its KD read KC at 0.97;
#: 1000002's QS read QC at 0.855 through a colour camera, its corner index QS at 0.85
LAID_OUT = [(1000034, 34, "grey"), (1000002, 2, "colour")]


#: the 52 cards of a French deck
FRENCH = [rank + suit for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K") for suit in "SHDC"]


def _laid_out(design: int, deal: int, camera: str, deck: list[str] = FRENCH) -> tuple[list[str], dict, TablePipeline]:
    """One layout mat of sixteen cards of ``deck`` in ``design`` laid at once (deal ``deal``), seen
    through a ``"colour"`` or ``"grey"`` camera by the shipped model, the tracker set as the
    companion sets it: the cards dealt, the placed events by outline, and the pipeline."""
    from vision.api import ASK_BELOW
    from vision.bench.enrol_table import table_deals
    from vision.pipeline import PipelineConfig
    from vision.track import TrackerConfig

    model = _shipped_model()
    sim, dealt = next(iter(table_deals(deck, 1, seed=deal, art=default_card_art(design=design))))
    pipeline = TablePipeline(sim.layout, model, PipelineConfig(tracker=TrackerConfig(look_again=ASK_BELOW)))
    rng = np.random.default_rng(deal)
    placed = {}
    for f in sim.frames():
        image = f.image if camera == "colour" else _grey_camera(f.image, rng)
        placed.update((e.slot, e) for e in pipeline.process(image, f.t).events if e.kind == "placed")
    return [str(card) for card in dealt], placed, pipeline


@pytest.mark.parametrize(("design", "deal", "camera"), LAID_OUT, ids=[f"{d}-{c}" for d, _s, c in LAID_OUT])
def test_a_deck_laid_out_is_placed_and_never_surely_misread(design, deal, camera):
    """Teaching the table a deck, sixteen cards at a time: every card of the layout mat is placed,
    and a card whose readers disagree on its suit (a red card whose shapes do not clearly say red
    through a camera that shows no colour, a spade whose corner says so) is asked about, not
    scored as another."""
    from vision.api import ASK_BELOW

    dealt, placed, pipeline = _laid_out(design, deal, camera)
    assert pipeline.colour.colourless == (camera == "grey")
    assert sorted(placed) == list(range(len(dealt)))
    read = [(card, placed[slot].card, round(placed[slot].confidence, 2)) for slot, card in enumerate(dealt)]
    assert all(card == seen or sure < ASK_BELOW for card, seen, sure in read), read
    assert sum(card == seen for card, seen, _sure in read) >= len(dealt) - 1, read


def test_a_grey_camera_asks_about_few_cards_it_reads_right():
    """Through a camera that shows no colour the card network splits a card between the suits of
    both colours; where its rank, its corner and its signs' shapes agree the table does not ask
    (before: 7 of this mat's 16 cards asked about, all read right)."""
    from vision.api import ASK_BELOW

    dealt, placed, pipeline = _laid_out(1000020, 20, "grey")
    assert pipeline.colour.colourless
    read = [(card, placed[slot].card, round(placed[slot].confidence, 2)) for slot, card in enumerate(dealt)]
    assert all(card == seen for card, seen, _sure in read), read
    assert sum(sure < ASK_BELOW for _card, _seen, sure in read) <= 2, read


def test_a_colour_camera_is_told_from_a_grey_one():
    """Colour shows in the frames of a colour camera (the table's wood, the red cards), not in a
    grey camera's noise, nor in its light's cast."""
    layout = layout_for("pegging", 2)
    sim = SimTable(layout, [Idle(0.3), Place("7H", "seat0"), Idle(0.3)], fps=15, seed=7)
    art = default_card_art()
    seen = {"colour": TablePipeline(layout, TemplateClassifier.from_art(["7H", "back"], art)),
            "grey": TablePipeline(layout, TemplateClassifier.from_art(["7H", "back"], art)),
            "warm": TablePipeline(layout, TemplateClassifier.from_art(["7H", "back"], art))}
    rng = np.random.default_rng(7)
    for f in sim.frames():
        seen["colour"].process(f.image, f.t)
        seen["grey"].process(_grey_camera(f.image, rng), f.t)
        seen["warm"].process(_grey_camera(f.image, rng, (0.8, 0.95, 1.15)), f.t)
    assert {name: p.colour.colourless for name, p in seen.items()} == {"colour": False, "grey": True, "warm": True}


def test_a_grey_camera_finds_a_card_back_on_the_felt():
    """In grey a back's mid-tones are the felt's grey: the crib's face-down card is still found,
    and so are the cards of the rows beside each other."""
    layout = layout_for("pegging", 2)
    art = default_card_art()
    cards = [("seat0", "AS"), ("seat0", "4H"), ("seat0", "7C"), ("seat1", "2D"), ("seat1", "5S"), ("crib", "back")]
    script = [Idle(0.6), *(Place(card, zone, hand=False) for zone, card in cards), Idle(0.5)]
    for seed in (3, 4):
        sim = SimTable(layout, script, fps=15, pose=CameraPose.random(np.random.default_rng(seed)), seed=seed,
                       grey=True, noise=10.0)
        pipeline = TablePipeline(layout, TemplateClassifier.from_art(["AS", "4H", "7C", "2D", "5S", "back"], art))
        events = [e for f in sim.frames() for e in pipeline.process(f.image, f.t).events]
        # laid at once: the events of one frame come in the tracker's order
        assert sorted((e.zone, e.slot, e.kind) for e in events) == sorted((e.zone, e.slot, e.kind) for e in sim.truth), seed


def test_a_grey_camera_asks_which_joker_it_sees():
    """A deck prints its two jokers alike but for the ink, red or black: through a camera that
    shows no colour the card network reads the red joker as the black one (design 1000003's
    surely, at 1.0), so the table holds every joker below sure and asks; through a colour camera
    it reads them as they are."""
    deck = ["RJ", "BJ"] + [rank + suit for rank in ("2", "7", "K") for suit in "SHDC"]
    for camera in ("grey", "colour"):
        dealt, placed, pipeline = _laid_out(1000003, 3, camera, deck)
        assert pipeline.colour.colourless == (camera == "grey")
        jokers = [(card, placed[slot].card, round(placed[slot].confidence, 3)) for slot, card in enumerate(dealt)
                  if card in ("RJ", "BJ")]
        assert len(jokers) == 2
        if camera == "grey":
            assert all(sure <= DOUBT for _card, _read, sure in jokers), jokers
        else:
            assert all(card == read for card, read, _sure in jokers), jokers
