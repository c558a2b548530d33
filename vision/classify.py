"""The ONNX card classifier (implements :class:`vision.api.CardClassifier`).

Input: upright card crops (BGR ``uint8``, any size, long side vertical, about 2 px/mm; loose or
tight by a few mm, blurred, or turned 180 degrees). Output: one :class:`~vision.api.Prediction`
per crop, a label of :data:`LABELS` (or an enrolled card's name) with a calibrated confidence.

Three networks ship in ``models/``: the card network (``cards.onnx``), an index network that
reads a card from its corner index alone (``cards_index.onnx``, loaded only when
:func:`vision.recognize.recognize` asks for it), and a suit network that tells clubs from spades
on black cards the card network reads unsurely (``cards_suit.onnx``, :func:`weigh_suits`).
"""

from __future__ import annotations

import copy
import functools
import hashlib
import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar, cast

import cv2
import numpy as np
import onnxruntime as ort
from numpy.typing import NDArray

from games.jsontypes import JSONObject
from vision.api import ASK_BELOW, BACK, UNKNOWN, CardClassifier, Prediction
from vision.doubt import (
    INDEX_SAYS,
    blank_or_unsure,
    held,
    index_confirms,
    index_over_blank,
    readers_agree,
    suit_gainsays,
    suit_outvoted,
    suited,
    sure_black,
)
from vision.enroll import EnrolledDeck, load_decks, negative_embeddings
from vision.errors import ModelFileError
from vision.model_input import SHIFTS, Image, half_turned, preprocess_batch, shifted, suit_rows, to_tensor

Floats = NDArray[np.float32]
Indices = NDArray[np.intp]

_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
#: The model's labels, in output order: 52 cards (spades, hearts, diamonds, clubs), jokers, back, unknown.
LABELS: tuple[str, ...] = tuple(r + s for s in "SHDC" for r in _RANKS) + ("RJ", "BJ", BACK, UNKNOWN)

#: Where the shipped model lives: ``models/`` at the repository root (beside ``vision/``).
MODELS_DIR = Path(__file__).resolve().parent.parent / "models"
MODEL_FILE = "cards.onnx"

#: How far the best enrolled match must beat the nearest other card for a sure match (the
#: confidence of an enrolled reading grows with that margin).
MARGIN_SCALE = 0.02

#: A corner read zoomed out by this factor (the card's top-left 60 x 47 mm shrunk to the index
#: network's 36 x 28 mm) shows a jumbo index, as poker decks print it, at a common index's size.
ZOOMED_OUT = 0.6


def rank_groups(labels: Sequence[str]) -> Indices:
    """The indices in ``labels`` of each rank's four suits, ``(ranks, 4)`` (spades, hearts,
    diamonds, clubs)."""
    return np.array([[labels.index(r + s) for s in "SHDC"] for r in _RANKS])


def black_pairs(labels: Sequence[str]) -> tuple[Indices, Indices]:
    """The indices in ``labels`` of the spades and of the clubs, rank by rank (the pairs the suit
    network weighs, :func:`weigh_suits`)."""
    groups = rank_groups(labels)
    return groups[:, 0], groups[:, 3]


#: :func:`black_pairs` of :data:`LABELS`
SPADES, CLUBS = black_pairs(LABELS)


def side_session(path: Path, what: str, threads: int = 1) -> ort.InferenceSession:
    """An onnxruntime session of ``what`` (a network that ships beside the card model, e.g. "a
    grey suit network") from ``path``, on ``threads`` threads without a memory arena; a
    :class:`ModelFileError` naming the file when it is missing or unreadable."""
    if not path.exists():
        raise ModelFileError(f"no file at {path} for {what}")
    return _loaded(path, session_options(threads))


def session_options(threads: int) -> ort.SessionOptions:
    """Options for every network pegpi runs: ``threads`` threads and no memory arena
    (onnxruntime's grows by doubling and never gives back, so a long-running companion's memory
    climbed with each larger batch of crops; malloc serves the tensors)."""
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    options.enable_cpu_mem_arena = False
    return options


def _loaded(path: Path, options: ort.SessionOptions) -> ort.InferenceSession:
    """A CPU session of the network at ``path``; a :class:`ModelFileError` naming the file when
    onnxruntime cannot read it."""
    try:
        return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except Exception as e:  # onnxruntime raises its own types for a corrupt file
        raise ModelFileError(f"{path} is not a readable ONNX network ({e.__class__.__name__})") from e


def side_file(classifier: object, key: str, what: str) -> Path | None:
    """The file of ``what``, the network ``cards.json`` names under ``key`` beside
    ``classifier``'s model; None for a classifier without a model file or a model without one."""
    if not isinstance(classifier, OnnxCardClassifier):
        return None
    meta = classifier.meta.get(key)
    if not isinstance(meta, dict) or not isinstance(meta.get("file"), str):
        return None
    path: Path = classifier.model_path.parent / str(meta["file"])
    if not path.exists():
        raise ModelFileError(f"{classifier.model_path.name} names {what}, {path} is missing")
    return path


_Side = TypeVar("_Side")


@functools.lru_cache(maxsize=8)
def _side_loaded(make: Callable[[Path], object], path: Path) -> object:
    return make(path)


def side_network(classifier: object, key: str, what: str, make: Callable[[Path], _Side]) -> _Side | None:
    """The network of ``what`` that ``cards.json`` names under ``key`` beside ``classifier``'s
    model (see :func:`side_file`), made from its file by ``make`` once and kept (a few such
    networks at most); None for a classifier without a model file or a model without one."""
    path = side_file(classifier, key, what)
    return None if path is None else cast(_Side, _side_loaded(make, path))


def model_id(path: Path) -> str:
    """A short hash of a model file: enrolled descriptors belong to the model that made them."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def by_rank(probs: Floats, groups: Indices) -> Floats:
    """``probs`` (any leading shape, labels last) with each rank's four suits pooled into the suit
    read most surely (``groups`` from :func:`rank_groups`): what a reading says of the rank when
    its suit cannot be told by colour (a grey diamond reads as a spade)."""
    flat = probs.reshape(-1, probs.shape[-1])
    four = flat[:, groups]  # (rows, ranks, 4)
    surest = groups[np.arange(len(groups)), four.argmax(axis=-1)]  # (rows, ranks): each rank's surest suit
    out = flat.copy()
    out[:, groups] = 0.0
    np.put_along_axis(out, surest, four.sum(axis=-1), axis=-1)
    return out.reshape(probs.shape)


def best_way(corner: Floats, unknown: int) -> Floats:
    """Of the corner readings of each crop, ``(N, ways, labels)``, the way round that shows a card
    or back most surely, ``(N, labels)`` (the first way on a tie); ``unknown``: that label's index."""
    seen = np.delete(corner, unknown, axis=2).max(axis=2)  # (N, ways)
    picked: Floats = corner[np.arange(len(corner)), seen.argmax(axis=1)]
    return picked


def weigh_suits(probs: Floats, clubs: Floats, spades_idx: Indices, clubs_idx: Indices) -> Floats:
    """``probs`` with each rank's clubs/spades pair weighed again by ``clubs`` (another reading's
    probability that the card is a club): within a pair the two readings are multiplied and made
    whole again, and the pair keeps its share. Card network 0.56 QC / 0.42 QS and suit network
    0.96 clubs give QC 0.95; where they disagree, each holds the other back."""
    out = probs.copy()
    s, c = probs[:, spades_idx], probs[:, clubs_idx]
    q = clubs[:, None].astype(np.float32)
    a, b = c * q, s * (1 - q)
    whole = np.maximum(a + b, 1e-12)
    out[:, clubs_idx] = (s + c) * a / whole
    out[:, spades_idx] = (s + c) * b / whole
    return out


class _Session(Protocol):
    """The part of an ``onnxruntime.InferenceSession`` the classifier uses."""

    def run(self, output_names: None, input_feed: dict[str, Floats]) -> list[Floats]: ...

    def get_inputs(self) -> list[Any]: ...

    def get_outputs(self) -> list[Any]: ...


#: the most crops one model call takes: a larger batch is run in parts, so that the memory a call
#: needs stays the same however many cards are read at once (one thread gains little from more)
MOST_PER_RUN = 4


class InParts:
    """An ``onnxruntime.InferenceSession`` whose ``run`` takes a batch of any size in parts of at
    most :data:`MOST_PER_RUN` rows, the outputs joined again."""

    def __init__(self, session: _Session) -> None:
        self.session = session

    def run(self, output_names: None, input_feed: dict[str, Floats]) -> list[Floats]:
        rows = min((len(v) for v in input_feed.values()), default=0)
        if rows <= MOST_PER_RUN:
            return self.session.run(output_names, input_feed)
        parts = [self.session.run(output_names, {k: v[i:i + MOST_PER_RUN] for k, v in input_feed.items()})
                 for i in range(0, rows, MOST_PER_RUN)]
        return [np.concatenate(outputs) for outputs in zip(*parts, strict=True)]

    def get_inputs(self) -> list[Any]:
        return self.session.get_inputs()

    def get_outputs(self) -> list[Any]:
        return self.session.get_outputs()


def _session(path: Path, options: ort.SessionOptions) -> _Session:
    return InParts(_loaded(path, options))


@dataclass(frozen=True)
class FirstLook:
    """Crops read as they are, before any is read moved or weighed by the suit network: each
    row of ``probs`` the mean of ``readings`` readings (one or both ways round), the unit
    embeddings, the index network's readings ``(N, ways, labels)`` (None if not read), and the
    crops turned round if they were (to be read so again)."""

    probs: Floats
    readings: Floats
    emb: Floats
    corner: Floats | None
    back: Image | None = None

    def row(self, i: int) -> FirstLook:
        """Crop ``i``'s look alone, copied (the batch's arrays are weighed further in place)."""
        return FirstLook(self.probs[i:i + 1].copy(), self.readings[i:i + 1].copy(), self.emb[i:i + 1].copy(),
                         None if self.corner is None else self.corner[i:i + 1].copy())

    @staticmethod
    def joined(looks: Sequence[FirstLook]) -> FirstLook:
        """One batch's look from its crops' looks, in order (all read the same way)."""
        return FirstLook(np.concatenate([k.probs for k in looks]), np.concatenate([k.readings for k in looks]),
                         np.concatenate([k.emb for k in looks]),
                         None if looks[0].corner is None else np.concatenate([k.corner for k in looks
                                                                              if k.corner is not None]))


#: how a crop was read at a first look: with decks enrolled, with its index, with embeddings
Way = tuple[bool, bool, bool]


class Looks:
    """The first looks at one photo's crops, each kept by a key its caller gives it (the crop's
    outline) and the way it was read, so that a crop read again moved is not read again as it
    is. Lives as long as the photo (one per :class:`vision.recognize.Pyramid`): a photo reads a
    few dozen outlines."""

    def __init__(self) -> None:
        self.kept: dict[tuple[Way, bytes], FirstLook] = {}

    def at(self, keys: Sequence[bytes]) -> LooksAt:
        """This book's looks at the crops keyed ``keys``, in order."""
        return LooksAt(self, list(keys))


class LooksAt:
    """:class:`Looks` at one batch of crops, a key for each."""

    def __init__(self, book: Looks, keys: list[bytes]) -> None:
        self.book, self.keys = book, keys

    def __getitem__(self, part: slice) -> LooksAt:
        return LooksAt(self.book, self.keys[part])

    def known(self, way: Way) -> list[FirstLook | None]:
        """Each crop's kept first look read ``way``, or None."""
        return [self.book.kept.get((way, k)) for k in self.keys]

    def keep(self, way: Way, rows: Sequence[int], look: FirstLook) -> None:
        """Keeps ``look``, the first look at the crops ``rows`` of this batch, row by row."""
        for j, i in enumerate(rows):
            self.book.kept[(way, self.keys[i])] = look.row(j)


class OnnxCardClassifier:
    """The shipped card model, loaded once. ``classify`` and ``embed`` take a list of crops and
    run them in batched calls.

    With enrolled decks (:class:`vision.enroll.EnrolledDeck`) a crop whose embedding is close
    enough to an enrolled view (cosine similarity at least the deck's threshold) gets that
    card's label (e.g. ``"the Author"``) instead of the model's own reading."""

    def __init__(self, model_path: str | os.PathLike[str] | None = None, *, threads: int = 1,
                 decks: Sequence[EnrolledDeck] = (), both_ways: bool = True,
                 sure_one_way: float | None = 0.999, shifts: Sequence[tuple[int, int]] = SHIFTS,
                 sure_two_ways: float = 0.99, sure_nothing: float = 0.5, suits: bool = True) -> None:
        path = Path(model_path) if model_path is not None else MODELS_DIR / MODEL_FILE
        if path.is_dir():  # a model's folder names its card network
            path = path / MODEL_FILE
        if not path.exists():
            raise ModelFileError(f"no card model at {path}")
        self.model_path = path
        self._model_id: str | None = None
        #: read each crop as given and turned 180 degrees (both indices), averaging the two
        self.both_ways = both_ways
        #: a crop read at least this surely as given (and no deck enrolled) is not read turned
        #: round too (None: every crop both ways); at 0.999 this changes no bench figure
        self.sure_one_way: float | None = sure_one_way
        #: a crop read both ways less surely than :attr:`sure_two_ways` is read again moved by
        #: each of :attr:`shifts` (both ways round) and all its readings averaged
        self.shifts: tuple[tuple[int, int], ...] = tuple(shifts) if both_ways else ()
        self.sure_two_ways = sure_two_ways
        #: a crop read as no card at least this surely is not read moved: a patch of table moved
        #: is still no card, and a photo's outlines of no card were a third of reading it
        self.sure_nothing = sure_nothing
        meta_path = path.with_suffix(".json")
        self.meta: JSONObject = json.loads(meta_path.read_text(encoding="utf-8")) if meta_path.exists() else {}
        labels_path = path.parent / self.meta.get("labels", "cards.labels.txt")
        self.model_labels: tuple[str, ...] = (
            tuple(line.strip() for line in labels_path.read_text(encoding="utf-8").splitlines() if line.strip())
            if labels_path.exists() else LABELS
        )
        options = session_options(threads)
        self._options = options
        self.session = _session(path, options)
        dim = self.session.get_outputs()[1].shape[-1]
        #: length of the enrolment descriptor (the model's ``embedding`` output)
        self.embedding_dim = int(dim) if isinstance(dim, int) else 0
        #: the index network's file, if ``cards.json`` names one; its session is made on first
        #: use (:attr:`index_session`), so the table pipeline, which never reads an index, never pays
        self.index_path: Path | None = side_file(self, "index_model", "an index network")
        self._index_session: _Session | None = None
        #: the suit network's session, or None (``suits=False``, or a model without one)
        self.suit_path: Path | None = side_file(self, "suit_model", "a suit network") if suits else None
        self.suit_session: _Session | None = None if self.suit_path is None else _session(self.suit_path, options)
        #: a second suit network read beside it on cards' tops (not aces' pips), or None: two
        #: networks taught apart are seldom surely wrong together (HISTORY, session 67)
        tops_path = None if self.suit_session is None else side_file(self, "suit_tops_model", "a second suit network")
        self.suit_tops_session: _Session | None = None if tops_path is None else _session(tops_path, options)
        #: a black card read at least this surely keeps the card network's reading of its suit
        self.sure_suit = 0.99
        self._spades, self._clubs = black_pairs(self.model_labels)
        self._black = np.concatenate([self._spades, self._clubs])
        self._aces = np.array([i for i, label in enumerate(self.model_labels) if label in ("AS", "AC")], np.int64)
        self._ranks = rank_groups(self.model_labels)
        #: where "no card" is among the labels (-1 for a model without it)
        self._none = self.model_labels.index(UNKNOWN) if UNKNOWN in self.model_labels else -1
        self._back = self.model_labels.index(BACK) if BACK in self.model_labels else -1
        #: rows of a crop's top the suit network reads (its input's height)
        self._suit_rows = int(self.suit_session.get_inputs()[0].shape[2]) if self.suit_session is not None else 0
        #: the model can read a card from its corner index alone (it has an index network)
        self.reads_index = self.index_path is not None
        self._no_decks()
        #: the model's own reading of a card or back at this confidence beats an unsure match
        self.model_sure = 0.99
        for deck in decks:
            self.add_deck(deck)

    def _no_decks(self) -> None:
        """No deck enrolled: an empty gallery, the model's own labels."""
        self.decks: list[EnrolledDeck] = []
        self._enrolled: Floats = np.zeros((0, 1), np.float32)
        self._enrolled_labels: list[str] = []
        self._thresholds: Floats = np.zeros(0, np.float32)
        self._label_ids: NDArray[np.int64] = np.zeros(0, np.int64)
        self.labels: tuple[str, ...] = self.model_labels
        self._alone: OnnxCardClassifier | None = None  # made by model_alone

    @property
    def index_session(self) -> _Session | None:
        """The index network's session (None without one), made on first use."""
        if self._index_session is None and self.index_path is not None:
            self._index_session = _session(self.index_path, self._options)
        return self._index_session

    @property
    def model_id(self) -> str:
        """A short hash of the model file (read once): enrolled descriptors belong to it."""
        if self._model_id is None:
            self._model_id = model_id(self.model_path)
        return self._model_id

    # -- enrolment -------------------------------------------------------------------------
    def add_deck(self, deck: EnrolledDeck) -> None:
        """Use an enrolled deck (re-embedding its stored views if they came from another model).

        The first deck also brings a fixed set of non-card views into the gallery as
        ``unknown``: a crop closer to one of them than to any enrolled card keeps the model's
        own reading."""
        if not self.decks:
            neg = negative_embeddings(self)
            self._add_gallery(neg, [UNKNOWN] * len(neg), 1.0)
        emb = deck.embeddings_for(self)
        self.decks.append(deck)
        self._alone = None
        self._add_gallery(emb, list(deck.all_labels), deck.threshold_for(self))
        extra = [lbl for lbl in dict.fromkeys(self._enrolled_labels) if lbl not in self.model_labels]
        self.labels = self.model_labels + tuple(extra)

    @property
    def enrolled_unknown(self) -> bool:
        """Whether an enrolled deck names cards the model itself does not know (the Decktet's):
        readers that know only the model's cards (the index network, the index finder) cannot
        tell where such a card is, so a photo search that needs them is not made."""
        return len(self.labels) > len(self.model_labels)

    def model_alone(self) -> OnnxCardClassifier:
        """This classifier without its enrolled decks, sharing its networks: the reader of the
        cards the model knows, with every check it has for them."""
        if not self.decks:
            return self
        if self._alone is None:
            _ = self.index_session  # made on first use: made now, so that both share it
            alone = copy.copy(self)
            alone._no_decks()
            self._alone = alone
        return self._alone

    def _add_gallery(self, emb: Floats, labels: list[str], threshold: float) -> None:
        self._enrolled = emb if self._enrolled.shape[0] == 0 else np.concatenate([self._enrolled, emb])
        self._enrolled_labels += labels
        self._thresholds = np.concatenate([self._thresholds, np.full(len(labels), threshold, np.float32)])
        names = {lb: i for i, lb in enumerate(dict.fromkeys(self._enrolled_labels))}
        self._label_ids = np.array([names[lb] for lb in self._enrolled_labels])

    # -- inference -------------------------------------------------------------------------
    def outputs(self, crops: Sequence[Image], *, index: bool = True, embeddings: bool = True,
                moved: bool = True, looks: LooksAt | None = None) -> tuple[Floats, Floats, Floats | None]:
        """Calibrated probabilities over :attr:`model_labels`, unit embeddings, and the index
        network's reading for each way the crop was read, ``(N, ways, labels)`` (None without an
        index network or with ``index=False``).

        Both ways round are averaged; a crop still unsure is read again moved (:attr:`shifts`),
        and one then read as a black card under :attr:`sure_suit` has its clubs and spades
        weighed by the suit network. With ``embeddings=False`` and no enrolled deck, a crop read
        at :attr:`sure_one_way` or more as given is not read turned round (its embedding is then
        one way's). One batched model call per step, for at most :data:`MOST_PER_RUN` crops at a
        time (each crop's reading is its own: more crops are read part by part, which bounds the
        memory their copies, moved views and tensors take). ``moved=False``: no crop is read
        moved (a first look over many outlines, of which the one kept is read again moved).
        ``looks``: where each crop's first look is kept (``moved=False``) and found again (a crop
        read again moved is not read again as it is)."""
        if len(crops) > MOST_PER_RUN:
            parts = [self.outputs(crops[i:i + MOST_PER_RUN], index=index, embeddings=embeddings, moved=moved,
                                  looks=None if looks is None else looks[i:i + MOST_PER_RUN])
                     for i in range(0, len(crops), MOST_PER_RUN)]
            corners = [corner for _, _, corner in parts if corner is not None]
            return (np.concatenate([probs for probs, _, _ in parts]), np.concatenate([emb for _, emb, _ in parts]),
                    np.concatenate(corners) if corners else None)
        n_labels = len(self.model_labels)
        index = index and self.reads_index
        ways = 1 + self.both_ways
        if len(crops) == 0:
            return (np.zeros((0, n_labels), np.float32), np.zeros((0, self.embedding_dim), np.float32),
                    np.zeros((0, ways, n_labels), np.float32) if index else None)
        pre = preprocess_batch(crops)
        way = (bool(self.decks), index, embeddings)  # a first look is kept for the way it was read
        known = looks.known(way) if looks is not None else [None] * len(pre)
        new = [i for i, look in enumerate(known) if look is None]
        fresh = self._first_look(pre if len(new) == len(pre) else pre[new], index=index, embeddings=embeddings) \
            if new else None
        if fresh is not None and len(new) == len(pre):
            look, back = fresh, fresh.back
        else:  # each network reads a row the same in any batch: a kept row is the row read now
            read_now = iter([] if fresh is None else [fresh.row(j) for j in range(len(new))])
            look, back = FirstLook.joined([k if k is not None else next(read_now) for k in known]), None
        if looks is not None and fresh is not None and not moved:
            looks.keep(way, new, fresh)
        probs = look.probs.copy()  # weighed further below; the kept look stays as it was read
        if moved:
            probs = self._read_shifted(pre, probs, look.readings)
        probs = self._read_suits(pre, probs, back)
        return probs, look.emb, look.corner

    def _first_look(self, pre: Image, *, index: bool, embeddings: bool) -> FirstLook:
        """The readings of preprocessed crops as they are, both ways round averaged (see
        :meth:`outputs`), before any is read moved or weighed by the suit network."""
        out = self.session.run(None, {"image": to_tensor(pre)})
        probs, emb = out[0], out[1]
        readings = np.ones(len(pre), np.float32)  # how many readings each row of probs averages
        # the index network reads every crop both ways round: turn them all once for it
        back = half_turned(pre) if self.both_ways and index else None
        if self.both_ways:
            every = embeddings or bool(self.decks) or self.sure_one_way is None
            second = np.arange(len(pre)) if every else np.flatnonzero(probs.max(axis=1) < self.sure_one_way)
            readings[second] = 2
            if len(second):
                again = back[second] if back is not None else half_turned(pre[second])
                out2 = self.session.run(None, {"image": to_tensor(again)})
                probs[second] = 0.5 * (probs[second] + out2[0])
                both = emb[second] + out2[1]
                emb[second] = both / np.maximum(np.linalg.norm(both, axis=1, keepdims=True), 1e-6)
        corner = None
        if index:
            ways = 1 + self.both_ways
            corner = self._read_corners(pre if back is None else np.concatenate([pre, back]))
            corner = corner.reshape(ways, len(pre), -1).transpose(1, 0, 2)
        return FirstLook(probs, readings, emb, corner, back)

    def _read_shifted(self, pre: Image, probs: Floats, readings: Floats) -> Floats:
        """``probs`` (each row the mean of ``readings`` readings) with the unsure crops' rows
        averaged with their readings moved by each of :attr:`shifts`, both ways round (not those
        read as no card at :attr:`sure_nothing` or more)."""
        if not self.shifts:
            return probs
        best = probs.max(axis=1)
        nothing = (probs.argmax(axis=1) == self._none) & (best >= self.sure_nothing)
        unsure = np.flatnonzero((best < self.sure_two_ways) & ~nothing)
        if len(unsure) == 0:
            return probs
        views = shifted(pre[unsure], self.shifts)
        views += [half_turned(v) for v in views]
        # at most MOST_PER_RUN rows a call: all eight views of four crops at once took 8.7 MB of
        # float32, the companion's largest passing block; one crop's views go four to a call
        # (a call's own cost is most of one row's, and a photo mostly reads one crop moved)
        rows = [view[k] for view in views for k in range(len(unsure))]  # view by view, no copies
        read = np.concatenate([self.session.run(None, {"image": to_tensor(np.stack(rows[i:i + MOST_PER_RUN]))})[0]
                               for i in range(0, len(rows), MOST_PER_RUN)])
        extra = read.reshape(len(views), len(unsure), -1).sum(axis=0)
        had = readings[unsure, None]
        probs[unsure] = (had * probs[unsure] + extra) / (had + len(views))
        return probs

    def _read_suits(self, pre: Image, probs: Floats, back: Image | None = None) -> Floats:
        """``probs`` with the crops read as a black card less surely than :attr:`sure_suit` weighed
        again by the suit network (both ways round if :attr:`both_ways`; ``back``: ``pre``
        turned round, if the caller has it)."""
        if self.suit_session is None or len(probs) == 0:
            return probs
        unsure = np.flatnonzero(np.isin(probs.argmax(axis=1), self._black) & (probs.max(axis=1) < self.sure_suit))
        if len(unsure) == 0:
            return probs
        aces = np.isin(probs[unsure].argmax(axis=1), self._aces)
        turned = None if back is None else back[unsure]
        clubs = self._suit_odds(pre[unsure], aces, turned)
        probs[unsure] = weigh_suits(probs[unsure], clubs, self._spades, self._clubs)
        return probs

    def _suit_odds(self, pre: Image, middle: NDArray[np.bool_], turned: Image | None = None) -> Floats:
        """The suit network's odds of a club for preprocessed black crops ``pre``, read from each
        crop's top, or from its middle rows where ``middle`` (an ace's one large pip: many aces
        print no suit in their corners), both ways round averaged if :attr:`both_ways`
        (``turned``: ``pre`` turned round, if the caller has it). A top is read by the second
        suit network too, if there is one (:attr:`suit_tops_session`), and the two averaged."""
        assert self.suit_session is not None
        views = suit_rows(pre, middle, self._suit_rows)
        if self.both_ways:
            views = np.concatenate([views, suit_rows(half_turned(pre) if turned is None else turned, middle,
                                                     self._suit_rows)])
        tensor = to_tensor(views)
        clubs = self.suit_session.run(None, {"top": tensor})[0][:, 1]
        tops = np.flatnonzero(~np.tile(middle, len(views) // len(pre)))
        if self.suit_tops_session is not None and len(tops):
            clubs[tops] = 0.5 * (clubs[tops] + self.suit_tops_session.run(None, {"top": tensor[tops]})[0][:, 1])
        odds: Floats = clubs.reshape(-1, len(pre)).mean(axis=0)
        return odds

    def clubs_odds(self, crops: Sequence[Image], *, aces: Sequence[bool] | None = None) -> Floats | None:
        """The suit network's probability that each crop (a black card, upright) is a club rather
        than a spade, both ways round averaged; None without a suit network. ``aces``: the crops
        that are aces, read at their large pip (the crop's middle rows) instead of their top."""
        if self.suit_session is None:
            return None
        if len(crops) == 0:
            return np.zeros(0, np.float32)
        middle = np.zeros(len(crops), bool) if aces is None else np.asarray(aces, bool)
        return self._suit_odds(preprocess_batch(crops), middle)

    def run(self, crops: Sequence[Image], *, embeddings: bool = True, moved: bool = True) -> tuple[Floats, Floats]:
        """Calibrated probabilities over :attr:`model_labels` and unit embeddings, one row per
        crop (``embeddings=False``, ``moved=False``: see :meth:`outputs`)."""
        probs, emb, _ = self.outputs(crops, index=False, embeddings=embeddings, moved=moved)
        return probs, emb

    def index_predictions(self, corner: Floats, *, ranks_only: bool = False) -> list[Prediction]:
        """The index network's readings (``corner`` from :meth:`outputs`): for each crop, the way
        round whose corner shows a card or back most surely (a partly covered card shows one index);
        ``ranks_only``: each rank's suits pooled (:func:`by_rank`), for a photo with no colour."""
        if ranks_only:
            corner = by_rank(corner, self._ranks)
        picked = best_way(corner, self.model_labels.index(UNKNOWN))
        best = picked.argmax(axis=1)
        return [Prediction(self.model_labels[b], float(picked[i, b])) for i, b in enumerate(best)]

    def read_indices(self, crops: Sequence[Image]) -> list[Prediction]:
        """Each crop read from its corner index alone by the index network (cheap enough to try
        many outlines of one card). Empty without an index network."""
        if not self.reads_index or len(crops) == 0:
            return []
        return self._indices_of(preprocess_batch(crops))

    def _indices_of(self, pre: Image, zoom: float = 1.0) -> list[Prediction]:
        """The index network's readings of preprocessed crops' corners; ``zoom`` under 1 shows it
        more of the card, shrunk to its input (:data:`ZOOMED_OUT`: a jumbo index seen whole)."""
        both = np.concatenate([pre, half_turned(pre)]) if self.both_ways else pre
        if zoom != 1.0:
            ch, cw = self.index_shape
            h, w = round(ch / zoom), round(cw / zoom)
            both = np.stack([cv2.resize(c[:h, :w], (cw, ch), interpolation=cv2.INTER_AREA) for c in both])
        probs = self._read_corners(both)
        return self.index_predictions(probs.reshape(1 + self.both_ways, len(pre), -1).transpose(1, 0, 2))

    @property
    def index_shape(self) -> tuple[int, int]:
        """The (height, width) of the top-left corner of a preprocessed crop that the index network
        reads ((0, 0) without an index network)."""
        session = self.index_session
        if session is None:
            return (0, 0)
        h, w = session.get_inputs()[0].shape[2:]
        return int(h), int(w)

    def read_corner_patches(self, patches: Image, read: NDArray[np.bool_] | None = None, *,
                            ranks_only: bool = False) -> list[Prediction]:
        """The index network's readings of corner patches cut straight from a photo, ``(N, ways,
        h, w, 3)`` uint8 (:attr:`index_shape`; each way a corner of one card as the top-left of
        its upright crop): for each card, the way that shows a card or back most surely. Cheaper
        than :meth:`read_indices`, which needs whole crops. ``read`` (``(N, ways)``): only the
        patches it marks are read, the others taken for no index; ``ranks_only``: each rank's
        suits pooled (:func:`by_rank`), for a photo with no colour."""
        if not self.reads_index or len(patches) == 0:
            return []
        return self.index_predictions(self._corner_probs(patches, read), ranks_only=ranks_only)

    def _corner_probs(self, patches: Image, read: NDArray[np.bool_] | None = None) -> Floats:
        """The index network's probabilities for corner patches ``(N, ways, h, w, 3)``, ``(N, ways,
        labels)``; with ``read``, the patches it does not mark are taken for no index."""
        n, ways = patches.shape[:2]
        session = self.index_session
        assert session is not None
        probs = np.zeros((n, ways, len(self.model_labels)), np.float32)
        probs[:, :, self._none] = 1.0
        pick = np.ones((n, ways), bool) if read is None else read
        if pick.any():
            probs[pick] = session.run(None, {"corner": to_tensor(patches[pick])})[0]
        return probs

    def _read_corners(self, pre: Image) -> Floats:
        """The index network's probabilities for the top-left corners of preprocessed crops."""
        session = self.index_session
        assert session is not None, "only a model with an index network reads corners"
        h, w = session.get_inputs()[0].shape[2:]
        return session.run(None, {"corner": to_tensor(pre[:, :h, :w])})[0]

    def embed(self, crops: Sequence[Image]) -> Floats:
        """Unit-norm enrolment descriptors (N, :attr:`embedding_dim`) for nearest-neighbour look-up:
        the embeddings :meth:`run` gives, without the shifted and suit readings, which change only
        the probabilities (enrolment embeds 25 views a card)."""
        if len(crops) == 0:
            return np.zeros((0, self.embedding_dim), np.float32)
        pre = preprocess_batch(crops)
        emb = self.session.run(None, {"image": to_tensor(pre)})[1]
        if self.both_ways:
            both = emb + self.session.run(None, {"image": to_tensor(half_turned(pre))})[1]
            emb = both / np.maximum(np.linalg.norm(both, axis=1, keepdims=True), 1e-6)
        return emb

    def predict(self, probs: Floats, emb: Floats) -> list[Prediction]:
        """Predictions from the outputs of :meth:`run` (enrolled decks first).

        A crop takes an enrolled card's name when its nearest enrolled view is that card's and at
        least as similar as the deck's threshold, unless the model itself reads a card or back at
        :attr:`model_sure` or more and the match is less sure (< 0.9). A match's confidence grows
        with its margin over the nearest view of any other card (a wrong match rarely has one)."""
        out = []
        best = probs.argmax(axis=1)
        sims = emb @ self._enrolled.T if self._enrolled.shape[0] else None
        for i in range(len(probs)):
            label, conf = self.model_labels[best[i]], float(probs[i, best[i]])
            if sims is not None:
                j = int(sims[i].argmax())
                s = float(sims[i, j])
                name = self._enrolled_labels[j]
                if name != UNKNOWN and s >= float(self._thresholds[j]):
                    others = sims[i][self._label_ids != self._label_ids[j]]
                    margin = s - (float(others.max()) if others.size else -1.0)
                    enrolled_conf = float(np.clip(0.5 + 0.45 * margin / MARGIN_SCALE, 0.5, 0.97))
                    model_sure = label != UNKNOWN and conf >= self.model_sure
                    if not (model_sure and enrolled_conf < 0.9):
                        label, conf = name, enrolled_conf
            out.append(Prediction(label, conf))
        return out

    def classify(self, crops: Sequence[Image], *, moved: bool = True, by_corner: bool = True) -> list[Prediction]:
        """Read each upright crop: a card id (``"10H"``, ``"RJ"``, an enrolled name), ``"back"``
        or ``"unknown"``, with a calibrated confidence; a club or spade the suit network reads in
        the other suit (:func:`vision.doubt.suit_gainsays`; an ace by its large pip), or
        whose corner index and suit network both do, is held at :data:`vision.doubt.DOUBT`, so
        the table asks. ``by_corner`` (off for a photo search, which weighs each outline's corner
        itself): a back, joker or unsure reading whose corner index surely shows a card is that
        card, held (:func:`vision.doubt.index_over_blank`), and a card read under
        :data:`vision.api.ASK_BELOW` is sure when its corner index and its signs' shapes agree
        with it (:func:`vision.doubt.readers_agree`). ``moved=False``: a first look, no unsure
        crop read again moved (see :meth:`outputs`)."""
        probs, emb = self.run(crops, embeddings=False, moved=moved)
        whole = self.predict(probs, emb)
        if not self.reads_index:
            return whole
        index: dict[int, Prediction] = {}  # each crop's corner, read at most once
        if by_corner and not self.enrolled_unknown:  # the index network knows French cards only
            # a court whose picture reads as a back (or a card read unsurely) shows its index
            blank = [i for i, p in enumerate(whole) if p.label in self.model_labels and blank_or_unsure(p)]
            index.update(zip(blank, self.read_indices([crops[i] for i in blank]), strict=True))
            for i in blank:
                # the crop is the card's own outline: a back shows no index at its corner
                whole[i] = index_over_blank(whole[i], index[i], back_at=INDEX_SAYS)
            self._agreed(crops, whole, index)
        if self.suit_session is None:
            return whole
        # a club or spade the suit network reads in the other suit, or its corner index and the
        # suit network both do, is held (one read under DOUBT is held already)
        unread = [i for i, p in enumerate(whole) if sure_black(p.label, p.confidence) and i not in index]
        index.update(zip(unread, self.read_indices([crops[i] for i in unread]), strict=True))
        return self.black_suits_held(crops, whole, index)

    def black_suits_held(self, crops: Sequence[Image], readings: Sequence[Prediction],
                         index: Mapping[int, Prediction] | None = None) -> list[Prediction]:
        """``readings`` of upright ``crops``, each club or spade read surely held where the suit
        network reads it in the other suit (:func:`vision.doubt.suit_gainsays`; an ace at its large
        pip, its suit being that one pip), or where its corner index (``index``, by crop; a
        photo's search weighs the index itself) and the suit network both do."""
        whole = list(readings)
        black = [i for i, p in enumerate(whole) if sure_black(p.label, p.confidence)]
        clubs = self.clubs_odds([crops[i] for i in black], aces=[whole[i].label[:-1] == "A" for i in black]) \
            if black else None
        for i, odds in zip(black, clubs if clubs is not None else (), strict=True):
            if suit_gainsays(whole[i], float(odds)) or (index is not None and suit_outvoted(whole[i], index[i], float(odds))):
                whole[i] = held(whole[i])
        return whole

    def _agreed(self, crops: Sequence[Image], whole: list[Prediction], index: dict[int, Prediction]) -> None:
        """Make sure, in ``whole``, each suited card read under the asking threshold whose corner
        index and grey suit network agree with it (:func:`vision.doubt.readers_agree`); ``index``
        gains the corners read. A corner that reads another card or none may hold a jumbo index
        larger than the corner: it is read again zoomed out by :data:`ZOOMED_OUT`, and that
        reading may agree instead (one that read the card, unsurely, had its look already)."""
        unsure = [i for i, p in enumerate(whole)
                  if i not in index and p.label in self.model_labels and suited(p.label) and p.confidence < ASK_BELOW]
        if not unsure:
            return
        pre = preprocess_batch([crops[i] for i in unsure])
        index.update(zip(unsure, self._indices_of(pre), strict=True))
        other = [k for k, i in enumerate(unsure) if index[i].label != whole[i].label]
        seen = {i: index[i] for i in unsure}
        if other:
            seen.update(zip([unsure[k] for k in other], self._indices_of(pre[other], ZOOMED_OUT), strict=True))
        agreeing = [i for i in unsure if index_confirms(whole[i], seen[i])]
        shapes = grey_suits_for(self) if agreeing else None
        if shapes is None:
            return
        for i, odds in zip(agreeing, shapes.odds([crops[i] for i in agreeing]), strict=True):
            if readers_agree(whole[i], seen[i], float(odds[SUITS.index(whole[i].label[-1])])):
                whole[i] = Prediction(whole[i].label, seen[i].confidence)

    def classify_with_index(self, crops: Sequence[Image], *, ranks_only: bool = False, moved: bool = True,
                            looks: LooksAt | None = None) -> list[tuple[Prediction, Prediction | None]]:
        """:meth:`classify`, and beside each reading the index network's alone (None without an
        index network, or for a card of an enrolled deck: it knows the model's cards only). ``ranks_only``
        (a photo with no colour, whose suits another reader tells by shape): both readings with
        each rank's suits pooled into the surest (:func:`by_rank`), so that a grey jack of
        diamonds read half as a spade and half as a club reads as a jack surely. ``moved``,
        ``looks``: see :meth:`outputs`."""
        probs, emb, corner = self.outputs(crops, embeddings=False, moved=moved, looks=looks)
        if ranks_only:
            probs = by_rank(probs, self._ranks)
        whole = self.predict(probs, emb)
        if corner is None:
            return [(p, None) for p in whole]
        if ranks_only:
            corner = by_rank(corner, self._ranks)
        # an enrolled deck's card (the Decktet's) is no card the index network knows: it is silent there
        return [(p, None) if p.label not in self.model_labels else (held(p) if self._gainsaid(p, ways) else p, index)
                for p, index, ways in zip(whole, self.index_predictions(corner), corner, strict=True)]

    def gainsaid_by_corners(self, patches: Image, whole: Sequence[Prediction]) -> list[bool]:
        """For each card, whether its two index corners (``patches``, ``(N, 2, h, w, 3)`` as
        :meth:`read_corner_patches` takes them) gainsay its ``whole`` reading (:meth:`_gainsaid`);
        never for an enrolled deck's own cards (the index network knows the model's cards only)."""
        if not self.reads_index or len(patches) == 0:
            return [False] * len(whole)
        return [self._gainsaid(p, w) for p, w in zip(whole, self._corner_probs(patches), strict=True)]

    def _gainsaid(self, p: Prediction, ways: Floats) -> bool:
        """Whether a card's two index corners (``ways``, a row of probabilities each) read two
        different cards at :data:`INDEX_SAYS` or more, one of them ``p``: a card shows one card at
        both, so one corner is misread, and ``p`` may be too (a small jack of spades read as a club
        whole and at one corner, as a spade at the other)."""
        read = {self.model_labels[k] for w in ways
                if (k := int(w.argmax())) not in (self._none, self._back) and w[k] >= INDEX_SAYS}
        return len(read) > 1 and p.label in read


#: the grey suit network's answers, in its order
SUITS = ("S", "H", "D", "C")


def _grey_copies(pre: Image) -> Image:
    """Preprocessed crops (uint8 NHWC) in grey: each pixel's mean in all three channels."""
    grey = pre.mean(axis=3, keepdims=True, dtype=np.float32).round().astype(np.uint8)
    return np.ascontiguousarray(np.broadcast_to(grey, pre.shape))


class GreySuits:
    """The grey suit network (:mod:`vision.grey`), loaded from ``path``: an ONNX file taking crop
    tops ``[N, 3, rows, 128]`` and giving each suit's probability in :data:`SUITS` order."""

    def __init__(self, path: Path, threads: int = 1) -> None:
        # in parts, as the card network runs: a call's memory stays the same however many cards
        self.session = InParts(side_session(path, "a grey suit network", threads))
        self.rows = int(self.session.get_inputs()[0].shape[2])

    def odds(self, crops: Sequence[Image]) -> NDArray[np.float32]:
        """Each suit's probability for every crop (an upright card, any size, colour or grey), read
        both ways round and averaged: ``(N, 4)``."""
        if not crops:
            return np.zeros((0, len(SUITS)), np.float32)
        pre = _grey_copies(preprocess_batch(crops))  # a colour crop is read grey too
        tops = np.concatenate([pre[:, :self.rows], half_turned(pre)[:, :self.rows]])
        probs = np.asarray(self.session.run(None, {"top": to_tensor(tops)})[0], np.float32)
        both: NDArray[np.float32] = probs.reshape(2, len(pre), len(SUITS)).mean(axis=0)
        return both


def grey_suits_for(classifier: CardClassifier) -> GreySuits | None:
    """The grey suit network beside ``classifier``'s model (named by ``grey_model`` in its
    ``cards.json``), loaded once; None for a classifier without a model file or a model without one."""
    return side_network(classifier, "grey_model", "a grey suit network", GreySuits)


class GreyCorners:
    """The grey corner suit network (:mod:`vision.train.grey_corner`), loaded from ``path``: an
    ONNX file taking index corners ``[N, 3, rows, columns]`` (the top-left of the model's input)
    and giving each suit's probability in :data:`SUITS` order, told by the sign's shape alone."""

    def __init__(self, path: Path, threads: int = 1) -> None:
        self.session = InParts(side_session(path, "a grey corner suit network", threads))
        self.rows, self.columns = (int(v) for v in self.session.get_inputs()[0].shape[2:4])

    def odds(self, crops: Sequence[Image], turned: Sequence[bool] | None = None) -> NDArray[np.float32]:
        """Each suit's probability for the index corner of every crop (an upright card, any size,
        colour or grey), read grey: ``(N, 4)``. The corner is the top-left, or the bottom-right
        turned up where ``turned`` says (the index the card was read by)."""
        if not crops:
            return np.zeros((0, len(SUITS)), np.float32)
        pre = preprocess_batch(crops)
        if turned is not None and any(turned):
            flip = np.asarray(turned, bool)
            pre[flip] = half_turned(pre[flip])
        corners = _grey_copies(pre[:, :self.rows, :self.columns])
        return np.asarray(self.session.run(None, {"corner": to_tensor(corners)})[0], np.float32)


def grey_corners_for(classifier: CardClassifier) -> GreyCorners | None:
    """The grey corner suit network beside ``classifier``'s model (named by ``grey_corner_model``
    in its ``cards.json``), loaded once; None for a classifier without a model file or a model
    without one."""
    return side_network(classifier, "grey_corner_model", "a grey corner suit network", GreyCorners)


def load_default_classifier(decks: Sequence[str] | bool | None = None, *, threads: int = 1,
                            data_dir: str | os.PathLike[str] | None = None) -> OnnxCardClassifier:
    """The shipped model (``models/cards.onnx`` beside the package). ``decks``: names of
    enrolled decks to use, ``True`` for all that are enrolled, ``None``/``False`` for none.
    Decks live in ``$PEGPI_DATA/decks`` or ``~/.local/share/pegpi/decks``."""
    clf = OnnxCardClassifier(threads=threads)
    if decks:
        for deck in load_decks(None if decks is True else list(decks), data_dir=data_dir):
            clf.add_deck(deck)
    return clf
