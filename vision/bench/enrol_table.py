"""``pegpi bench enrolment``: a deck taught at the simulated table through the enrolment wizard
(:mod:`vision.enrol_session`), then read from table frames.

The deck is a Decktet-like deck (:mod:`vision.render.decktet`, 45 cards the model was never
trained on: it reads none of them), or one of the commercial-style French decks
(:mod:`vision.render.commercial`, 52 cards drawn by people, which training never sees). It is
laid on the enrolment mat twelve cards at a time, each batch confirmed under the names the
wizard expects, and saved; then the same cards are dealt on the ``layout`` mat's sixteen
outlines, seen by other cameras (pose, light, noise, blur, seed), and read by the table pipeline
with the stock model alone and with the deck enrolled.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np

from games.jsontypes import JSONObject
from vision.api import ASK_BELOW, NOT_A_FACE, CardClassifier
from vision.enrol_session import EnrolmentWizard
from vision.enroll import EnrolledDeck
from vision.errors import BenchError
from vision.events import TableEvent
from vision.mat import MatLayout, layout_for
from vision.pipeline import PipelineConfig, TablePipeline
from vision.render.commercial import COMMERCIAL_DECKS, load_deck
from vision.render.decktet import render_decktet
from vision.simtable import CameraPose, Clear, Idle, Light, Place, SimTable, Step
from vision.track import TrackerConfig

#: The Decktet-like design laid at the table.
DESIGN = 11
#: Frames a second of the simulated cameras (a slow camera: fewer frames to render).
FPS = 10.0


def decktet_art(design: int = DESIGN, px_per_mm: float = 3.0) -> Callable[[str], np.ndarray]:
    """Faces of a Decktet-like deck for the simulated table (BGRA, drawn once per card)."""
    cache: dict[str, np.ndarray] = {}

    def art(card: str) -> np.ndarray:
        if card not in cache:
            cache[card] = render_decktet(card, design, px_per_mm=px_per_mm, alpha=True)
        return cache[card]

    return art


#: The decks the bench can teach: the Decktet-like one, and the commercial-style French ones.
BENCH_DECKS: tuple[str, ...] = ("decktet", *COMMERCIAL_DECKS)


def bench_deck(name: str) -> tuple[str, Callable[[str], np.ndarray]]:
    """Deck ``name`` of :data:`BENCH_DECKS` as the wizard's card set (``"decktet"`` or
    ``"standard"``) and its faces. A commercial deck comes from its npm package (fetched once;
    :class:`~vision.errors.DeckError` if it cannot be)."""
    if name == "decktet":
        return "decktet", decktet_art()
    if name not in COMMERCIAL_DECKS:
        raise BenchError(f"unknown deck {name!r}; choose one of {', '.join(BENCH_DECKS)}")
    faces = load_deck(name)
    return "standard", faces.__getitem__


def enrolment_script(batches: Sequence[Sequence[str]], *, hands: bool = True) -> list[Step]:
    """The players at the enrolment mat: the empty mat a moment, then each batch laid on outlines
    1, 2, ... (by hand, or appearing at once with ``hands=False``), left a moment to be read,
    and swept off."""
    script: list[Step] = [Idle(0.8)]
    for batch in batches:
        script += [Place(card, "grid", i, hand=hands) for i, card in enumerate(batch)]
        script += [Idle(2.0), Clear("grid"), Idle(0.6)]
    return script


def one_batch(cards: Sequence[str], *, seed: int = 0, art: Callable[[str], np.ndarray] | None = None) -> SimTable:
    """The enrolment mat, empty a moment, then ``cards`` laid at once on outlines 1, 2, ... and
    left there (a batch as the players lay it, for the wizard's tests)."""
    script: list[Step] = [Idle(0.8), *[Place(c, "grid", i, hand=False) for i, c in enumerate(cards)], Idle(2.0)]
    return SimTable(layout_for("layout", 1), script, fps=FPS, card_art=art or decktet_art(), seed=seed)


@dataclass
class BatchTiming:
    """One batch through the wizard: frames fed while it was on the mat, their mean time (wall
    clock and this process's CPU: a busy machine stretches the first only), and the seconds the
    confirmation (embedding its views) took."""

    cards: int
    frames: int
    feed_ms: float
    feed_cpu_ms: float
    confirm_s: float
    confirm_cpu_s: float
    table_s: float  # the players' time at the simulated table, laying it and sweeping it off


@dataclass
class EnrolRun:
    deck: EnrolledDeck
    batches: list[BatchTiming] = field(default_factory=list)
    renamed: int = 0  # proposals the players had to change (none when the cards are laid as shown)


def enrol_at_table(wizard: EnrolmentWizard, art: Callable[[str], np.ndarray], *, seed: int = 0,
                   hands: bool = True, save: bool = True) -> EnrolRun:
    """Lay the wizard's deck as it asks, batch after batch, on a simulated enrolment mat; confirm
    each batch with the names it proposes once every card is read; finish (saving the deck)."""
    names = wizard.names
    if names is None:
        raise BenchError("the bench lays a deck with known names, not a deck of one's own")
    size = wizard.batch_size
    batches = [list(names[i:i + size]) for i in range(0, len(names), size)]
    sim = SimTable(wizard.layout, enrolment_script(batches, hands=hands), fps=FPS, card_art=art, seed=seed)
    frames = sim.frames()
    run = EnrolRun(deck=EnrolledDeck("", [], np.zeros((0,)), np.zeros((0,)), ""))
    clock, cpu = time.perf_counter, time.process_time
    for batch in batches:
        began_t, fed, spent, spent_cpu = None, 0, 0.0, 0.0
        for frame in frames:
            began_t = frame.t if began_t is None else began_t
            start, start_cpu = clock(), cpu()
            wizard.feed(frame.image, frame.t)
            spent, spent_cpu = spent + clock() - start, spent_cpu + cpu() - start_cpu
            fed += 1
            reads = wizard.outlines()
            if sum(o.state == "card" for o in reads) == len(batch):
                break
        else:
            raise BenchError(f"the batch {batch[0]}..{batch[-1]} was never read in full")
        wants = wizard.expected()
        start, start_cpu = clock(), cpu()
        wizard.confirm({o.outline: o.proposal or "" for o in reads if o.state == "card"})
        confirm_s, confirm_cpu = clock() - start, cpu() - start_cpu
        run.renamed += sum(o.proposal != w for o, w in zip(reads, wants, strict=False))
        end_t = frame.t
        for frame in frames:  # the rest of the batch's script: the players sweep it off
            start, start_cpu = clock(), cpu()
            wizard.feed(frame.image, frame.t)
            spent, spent_cpu = spent + clock() - start, spent_cpu + cpu() - start_cpu
            fed += 1
            end_t = frame.t
            if all(o.state == "empty" for o in wizard.outlines()):
                break
        run.batches.append(BatchTiming(len(batch), fed, 1e3 * spent / max(1, fed), 1e3 * spent_cpu / max(1, fed),
                                       confirm_s, confirm_cpu, end_t - began_t))
    run.deck = wizard.finish(save=save)
    return run


def table_deals(cards: Sequence[str], deals: int, seed: int, art: Callable[[str], np.ndarray]
                ) -> Iterator[tuple[SimTable, list[str]]]:
    """``deals`` simulated tables, each a ``layout`` mat with its sixteen outlines dealt from the
    shuffled deck, seen by a camera of its own (pose, noise, blur, light) over a moment."""
    layout = layout_for("layout", 1)
    outlines = len(layout.zones[0].slots)
    rng = np.random.default_rng([seed, 31])
    order: list[str] = []
    for index in range(deals):
        while len(order) < outlines:
            order += list(rng.permutation(cards))
        dealt, order = order[:outlines], order[outlines:]
        yield dealt_table(layout, dealt, rng, art, index=index), dealt


def dealt_table(layout: MatLayout, dealt: Sequence[str], rng: np.random.Generator, art: Callable[[str], np.ndarray],
                *, index: int = 0, size: tuple[int, int] = (1280, 720), before_s: float = 0.6,
                after_s: float = 1.6) -> SimTable:
    """``dealt`` laid on the outlines of ``layout``'s grid after ``before_s`` of the empty mat, seen
    by a ``size`` camera of its own drawn from ``rng`` (pose, noise, blur, and the light changing
    once the cards lie), then ``after_s`` more; ``index`` is added to the camera's seed."""
    script: list[Step] = [Idle(before_s), *(Place(card, "grid", i, hand=False) for i, card in enumerate(dealt)),
                          Light(float(rng.uniform(0.8, 1.15)), 0.2), Idle(after_s)]
    return SimTable(layout, script, fps=FPS, seed=int(rng.integers(1 << 30)) + index, size=size,
                    pose=CameraPose.random(rng), noise=float(rng.uniform(2.0, 5.0)),
                    blur=float(rng.uniform(0.0, 0.8)), card_art=art)


def read_rate(tables: Sequence[tuple[SimTable, list[str]]], readers: dict[str, CardClassifier],
              deck: Collection[str] | None = None) -> JSONObject:
    """Each reader's table pipeline over the same frames, set as the companion sets it: the cards
    placed and read right (and of those, the ones the table asks the players about, placed under
    :data:`~vision.api.ASK_BELOW`), the cards read as another card (and of those, the ones the table
    records as another card without asking, and those read as a card outside ``deck``), and the
    outlines never reported.

    Not recorded without asking: a card read as no face (the device asks about it, or takes it as
    face down), and one read as a card outside ``deck``, the cards of the game played with the deck
    (the game refuses a French card in a Decktet game, and the players are asked)."""
    out: JSONObject = {}
    config = PipelineConfig(tracker=TrackerConfig(look_again=ASK_BELOW))
    for name, reader in readers.items():
        right = wrong = missed = asked = unasked = foreign = 0
        confusions: dict[str, int] = {}
        for sim, dealt in tables:
            pipeline = TablePipeline(sim.layout, reader, config)
            placed: dict[int, TableEvent] = {}
            for frame in sim.frames():
                for event in pipeline.process(frame.image, frame.t).events:
                    if event.kind == "placed":
                        placed[event.slot or 0] = event
            for slot, card in enumerate(dealt):
                seen = placed.get(slot)
                if seen is None:
                    missed += 1
                elif seen.card == card:
                    right += 1
                    asked += seen.confidence < ASK_BELOW
                else:
                    wrong += 1
                    face = seen.card not in NOT_A_FACE
                    outside = face and deck is not None and seen.card not in deck
                    foreign += outside
                    unasked += face and not outside and seen.confidence >= ASK_BELOW
                    key = f"{card} as {seen.card}"
                    confusions[key] = confusions.get(key, 0) + 1
        total = right + wrong + missed
        out[name] = {"cards": total, "right": right, "asked": asked, "wrong": wrong, "wrong_unasked": unasked,
                     "wrong_foreign": foreign, "missed": missed, "rate": right / total if total else 0.0,
                     "confusions": dict(sorted(confusions.items(), key=lambda kv: -kv[1])[:8])}
    return out


def run_bench(reader_factory: Callable[[], CardClassifier], wizard: EnrolmentWizard,
              art: Callable[[str], np.ndarray], *, deals: int, seed: int = 0, hands: bool = True,
              say: Callable[[str], None] | None = None) -> JSONObject:
    """Enrol the deck drawn by ``art`` through ``wizard`` and read ``deals`` tables of it with a
    fresh reader from ``reader_factory`` before and after the deck is added (``add_deck``)."""
    if deals < 1:
        raise BenchError(f"deal at least one table, not {deals}")
    say = say or (lambda _: None)
    say(f"enrolling {wizard.total} cards, {wizard.batch_size} at a time ...")
    began = time.perf_counter()
    run = enrol_at_table(wizard, art, seed=seed, hands=hands)
    enrol_s = time.perf_counter() - began
    before = reader_factory()
    after = reader_factory()
    add = getattr(after, "add_deck", None)
    if add is None:
        raise BenchError("this reader cannot use an enrolled deck")
    add(run.deck)
    cards = list(wizard.names or ())
    say(f"reading {deals} dealt tables of {len(layout_for('layout', 1).zones[0].slots)} cards, before and after ...")
    tables = list(table_deals(cards, deals, seed + 1, art))
    rates = read_rate(tables, {"before": before, "after": after}, deck=frozenset(cards))
    return {
        "deck": wizard.name, "cards": len(run.deck.labels), "batches": [vars(b) for b in run.batches],
        "renamed": run.renamed, "enrol_compute_s": round(enrol_s, 2),
        "players_s": round(sum(b.table_s for b in run.batches), 1),
        "before": rates["before"], "after": rates["after"],
        "stored": wizard.stored_at(),
    }
