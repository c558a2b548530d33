"""The ONNX card classifier (implements :class:`vision.api.CardClassifier`).

Input: upright card crops (BGR ``uint8``, any size, long side vertical, about 2 px/mm; a crop
may be loose or tight by a few mm, blurred, or turned 180 degrees). Output: one
:class:`~vision.api.Prediction` per crop with a label of :data:`LABELS` (or an enrolled card's
name) and a calibrated confidence. Models from v11 also read each crop from its corner index
alone (:meth:`OnnxCardClassifier.classify_with_index`), for cards of which little else shows:
from v13 with an index network in a file of its own (``cards_index.onnx``), which only
:func:`vision.recognize.recognize` runs, so the table pipeline's reading costs what it did.
From v43 a third network (``cards_suit.onnx``) tells clubs from spades on the black cards the
card network reads unsurely (:func:`weigh_suits`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.api import BACK, UNKNOWN, Prediction

#: Model input: the whole crop resized to 128 x 176 (2 px/mm for a 63 x 88 mm card).
INPUT_W, INPUT_H = 128, 176
_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
#: The model's labels, in output order: 52 cards (spades, hearts, diamonds, clubs), jokers, back, unknown.
LABELS: tuple[str, ...] = tuple(r + s for s in "SHDC" for r in _RANKS) + ("RJ", "BJ", BACK, UNKNOWN)


def black_pairs(labels: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """The indices in ``labels`` of the spades and of the clubs, rank by rank (the pairs the suit
    network weighs, :func:`weigh_suits`)."""
    return (np.array([labels.index(r + "S") for r in _RANKS]), np.array([labels.index(r + "C") for r in _RANKS]))


#: :func:`black_pairs` of :data:`LABELS`
SPADES, CLUBS = black_pairs(LABELS)

#: Where the shipped model lives: ``models/`` at the repository root (beside ``vision/``).
MODELS_DIR = Path(__file__).resolve().parent.parent / "models"
MODEL_FILE = "cards.onnx"


def preprocess(crop: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """A crop as the model sees it: BGR uint8 ``(176, 128, 3)`` (written into ``out`` if given)."""
    if crop.ndim == 2:
        crop = cv2.cvtColor(crop, cv2.COLOR_GRAY2BGR)
    elif crop.shape[2] == 4:
        crop = crop[..., :3]
    h, w = crop.shape[:2]
    interp = cv2.INTER_AREA if (h > INPUT_H or w > INPUT_W) else cv2.INTER_LINEAR
    if (h, w) == (INPUT_H, INPUT_W) and crop.flags.c_contiguous:
        if out is None:
            return crop
        out[...] = crop
        return out
    return cv2.resize(crop, (INPUT_W, INPUT_H), dst=out, interpolation=interp)


def preprocess_batch(crops: Sequence[np.ndarray]) -> np.ndarray:
    """Crops as the model sees them, ``(N, 176, 128, 3)`` uint8, in one array made once."""
    batch = np.empty((len(crops), INPUT_H, INPUT_W, 3), np.uint8)
    for i, c in enumerate(crops):
        preprocess(c, batch[i])
    return batch


def half_turned(batch: np.ndarray) -> np.ndarray:
    """Preprocessed crops turned 180 degrees (the other corner index on top)."""
    out = np.empty_like(batch)
    for i in range(len(batch)):
        cv2.flip(batch[i], -1, dst=out[i])
    return out


#: the moves of a crop (dx, dy in model pixels, 3 px = 1.5 mm) read besides it when it is
#: unsure (:attr:`OnnxCardClassifier.sure_two_ways`): the reading of a blurred or oddly drawn
#: card shifts with where its index and suit signs fall on the network's grid
SHIFTS: tuple[tuple[int, int], ...] = ((3, 0), (-3, 0), (0, 3), (0, -3))


def shifted(batch: np.ndarray, moves: Sequence[tuple[int, int]]) -> list[np.ndarray]:
    """Preprocessed crops moved by each ``(dx, dy)`` of ``moves`` (right and down), the edge
    pixels carried into the gap: views of one edge-padded copy of the batch."""
    pad = max((max(abs(dx), abs(dy)) for dx, dy in moves), default=0)
    padded = np.pad(batch, ((0, 0), (pad, pad), (pad, pad), (0, 0)), mode="edge")
    return [padded[:, pad - dy:pad - dy + INPUT_H, pad - dx:pad - dx + INPUT_W] for dx, dy in moves]


def to_tensor(batch: np.ndarray) -> np.ndarray:
    """uint8 NHWC -> float32 NCHW in 0..1."""
    return np.ascontiguousarray(batch.transpose(0, 3, 1, 2), dtype=np.float32) * np.float32(1 / 255)


def best_way(corner: np.ndarray, unknown: int) -> np.ndarray:
    """Of the corner readings of each crop, ``(N, ways, labels)``, the way round that shows a card
    or back most surely, ``(N, labels)`` (the first way on a tie); ``unknown``: that label's index."""
    seen = np.delete(corner, unknown, axis=2).max(axis=2)  # (N, ways)
    return corner[np.arange(len(corner)), seen.argmax(axis=1)]


def weigh_suits(probs: np.ndarray, clubs: np.ndarray, spades_idx: np.ndarray, clubs_idx: np.ndarray) -> np.ndarray:
    """``probs`` (rows of label probabilities) with each rank's clubs/spades pair weighed again by
    ``clubs``, another reading's probability that the card is a club: within each pair the two
    readings are multiplied (and made whole again), the pair keeps its share. A card network unsure
    between ``QC`` and ``QS`` (0.56 against 0.42) and a suit network sure of clubs (0.96) give
    ``QC`` 0.95; where the two disagree, each holds the other back. ``spades_idx`` and
    ``clubs_idx``: the labels' indices, rank by rank."""
    out = probs.copy()
    s, c = probs[:, spades_idx], probs[:, clubs_idx]
    q = clubs[:, None].astype(np.float32)
    a, b = c * q, s * (1 - q)
    whole = np.maximum(a + b, 1e-12)
    out[:, clubs_idx] = (s + c) * a / whole
    out[:, spades_idx] = (s + c) * b / whole
    return out


class OnnxCardClassifier:
    """The shipped card model, loaded once. ``classify`` and ``embed`` take a list of crops and
    run them in batched calls (one a way round).

    With enrolled decks (:class:`vision.enroll.EnrolledDeck`) a crop whose embedding is close
    enough to an enrolled view (cosine similarity at least the deck's threshold) gets that
    card's label (e.g. ``"the Author"``) instead of the model's own reading."""

    def __init__(self, model_path: str | os.PathLike[str] | None = None, *, threads: int = 1,
                 decks: Sequence[Any] = (), both_ways: bool = True,
                 sure_one_way: float | None = 0.999, shifts: Sequence[tuple[int, int]] = SHIFTS,
                 sure_two_ways: float = 0.99, suits: bool = True) -> None:
        import onnxruntime as ort

        path = Path(model_path) if model_path is not None else MODELS_DIR / MODEL_FILE
        if not path.exists():
            raise FileNotFoundError(f"no card model at {path}")
        self.model_path = path
        self._model_id: str | None = None
        #: read each crop as given and turned 180 degrees (both indices), averaging the two
        self.both_ways = both_ways
        #: a crop read as given at least this surely (and no deck enrolled) is not read turned
        #: round too (None: every crop is read both ways). With 0.999 the held-out bench's top-1
        #: and confident mistakes are what reading every crop both ways gives (v17 and v18), and
        #: v17 read 56 % of its crops only once
        self.sure_one_way: float | None = sure_one_way
        #: a crop read both ways round less surely than :attr:`sure_two_ways` is read again moved
        #: by each of :attr:`shifts` (both ways round), and all its readings are averaged. On the
        #: selection designs (v42) this re-read 9.8 % of the crops and took mistakes from 75 to
        #: 52, confident ones from 7 to 3 (models/MODEL_CARD.md, "Session 22: unsure crops read again")
        self.shifts: tuple[tuple[int, int], ...] = tuple(shifts) if both_ways else ()
        self.sure_two_ways = sure_two_ways
        meta_path = path.with_suffix(".json")
        self.meta: dict[str, Any] = json.loads(meta_path.read_text(encoding="utf-8")) if meta_path.exists() else {}
        labels_path = path.parent / self.meta.get("labels", "cards.labels.txt")
        self.model_labels: tuple[str, ...] = (
            tuple(line.strip() for line in labels_path.read_text(encoding="utf-8").splitlines() if line.strip())
            if labels_path.exists() else LABELS
        )
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        self.session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        outputs = self.session.get_outputs()
        dim = outputs[1].shape[-1]
        #: length of the enrolment descriptor (the model's ``embedding`` output)
        self.embedding_dim = int(dim) if isinstance(dim, int) else 0
        #: the index network's file (``cards_index.onnx``, models from v13): a network of its own
        #: that reads a card from its corner index alone. It is loaded the first time an index
        #: is read (:attr:`index_session`): the table pipeline never reads one, and never pays for it
        self.index_path: Path | None = None
        self._index_session: Any = None
        self._options = options
        index_meta = self.meta.get("index_model")
        if index_meta:
            self.index_path = path.parent / index_meta["file"]
            if not self.index_path.exists():
                raise FileNotFoundError(f"{path.name} names an index network, {self.index_path} is missing")
        #: the suit network's session (``cards_suit.onnx``, models from v43), or None: a small
        #: network that tells clubs from spades, from the top of a crop (``suits=False``: not
        #: loaded, the card network's reading alone). A crop the card network
        #: reads as a black card less surely than :attr:`sure_suit` has that reading's clubs and
        #: spades weighed again by the suit network's (:func:`weigh_suits`)
        self.suit_session: Any = None
        self.suit_path: Path | None = None
        suit_meta = self.meta.get("suit_model")
        if suit_meta and suits:
            self.suit_path = path.parent / suit_meta["file"]
            if not self.suit_path.exists():
                raise FileNotFoundError(f"{path.name} names a suit network, {self.suit_path} is missing")
            self.suit_session = ort.InferenceSession(str(self.suit_path), options, providers=["CPUExecutionProvider"])
        #: a black card read at least this surely keeps the card network's reading of its suit
        self.sure_suit = 0.99
        self._spades, self._clubs = black_pairs(self.model_labels)
        self._black = np.concatenate([self._spades, self._clubs])
        #: rows of a crop's top the suit network reads (its input's height)
        self._suit_rows = int(self.suit_session.get_inputs()[0].shape[2]) if self.suit_session is not None else 0
        #: the model reads a card from its corner index alone: with its index network, or else
        #: its corner head (output ``corner``, models v11-v12)
        self.reads_index = self.index_path is not None or (len(outputs) > 2 and outputs[2].name == "corner")
        self.decks: list[Any] = []
        self._enrolled = np.zeros((0, 1), np.float32)
        self._enrolled_labels: list[str] = []
        self._thresholds = np.zeros(0, np.float32)
        self._label_ids = np.zeros(0, np.int64)
        #: the model's own reading of a card or back at this confidence beats an unsure match
        self.model_sure = 0.99
        self.labels: tuple[str, ...] = self.model_labels
        for deck in decks:
            self.add_deck(deck)

    @property
    def index_session(self) -> Any:
        """The index network's onnxruntime session (None without one), loaded on first use."""
        if self._index_session is None and self.index_path is not None:
            import onnxruntime as ort

            self._index_session = ort.InferenceSession(str(self.index_path), self._options,
                                                       providers=["CPUExecutionProvider"])
        return self._index_session

    @property
    def model_id(self) -> str:
        """A short hash of the model file (read once): enrolled descriptors belong to it."""
        if self._model_id is None:
            from vision.enroll import model_id

            self._model_id = model_id(self.model_path)
        return self._model_id

    # -- enrolment -------------------------------------------------------------------------
    def add_deck(self, deck: Any) -> None:
        """Use an enrolled deck (re-embedding its stored views if they came from another model).

        The first deck also brings a fixed set of non-card views into the gallery as
        ``unknown``: a crop closer to one of them than to any enrolled card keeps the model's
        own reading."""
        from vision.enroll import negative_embeddings

        if not self.decks:
            neg = negative_embeddings(self)
            self._add_gallery(neg, [UNKNOWN] * len(neg), 1.0)
        emb = deck.embeddings_for(self)
        self.decks.append(deck)
        self._add_gallery(emb, list(deck.all_labels), deck.threshold_for(self))
        extra = [lbl for lbl in dict.fromkeys(self._enrolled_labels) if lbl not in self.model_labels]
        self.labels = self.model_labels + tuple(extra)

    def _add_gallery(self, emb: np.ndarray, labels: list[str], threshold: float) -> None:
        self._enrolled = emb if self._enrolled.shape[0] == 0 else np.concatenate([self._enrolled, emb])
        self._enrolled_labels += labels
        self._thresholds = np.concatenate([self._thresholds, np.full(len(labels), threshold, np.float32)])
        names = {lb: i for i, lb in enumerate(dict.fromkeys(self._enrolled_labels))}
        self._label_ids = np.array([names[lb] for lb in self._enrolled_labels])

    # -- inference -------------------------------------------------------------------------
    def outputs(self, crops: Sequence[np.ndarray], *, index: bool = True, embeddings: bool = True
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """Calibrated probabilities over :attr:`model_labels`, unit embeddings, and the corner
        index's reading for each way the crop was read, ``(N, ways, labels)`` (None without a
        corner head or index network, or with ``index=False``). One batched call of the model
        for the crops as given, one for them turned round (and one of the index network).

        Reading both ways round averages the two; a crop still unsure is read again moved
        (:attr:`shifts`, one more batched call for all such crops; its embedding stays the two
        ways'). A crop then read as a black card under :attr:`sure_suit` has its clubs and
        spades weighed by the suit network (models from v43; one more batched call). With
        ``embeddings=False`` and no enrolled deck (nothing then looks at the embeddings), a crop
        read at :attr:`sure_one_way` or more as given is not read turned round: its embedding is
        then one way's."""
        n_labels = len(self.model_labels)
        index = index and self.reads_index
        ways = 1 + self.both_ways
        if len(crops) == 0:
            return (np.zeros((0, n_labels), np.float32), np.zeros((0, self.embedding_dim), np.float32),
                    np.zeros((0, ways, n_labels), np.float32) if index else None)
        pre = preprocess_batch(crops)
        out = self.session.run(None, {"image": to_tensor(pre)})
        probs, emb = out[0], out[1]
        corner = out[2] if index and self.index_path is None else None
        # the index network reads every crop both ways round: turn them all once for it
        back = half_turned(pre) if self.both_ways and index and self.index_path is not None else None
        if self.both_ways:
            every = embeddings or bool(self.decks) or self.sure_one_way is None or corner is not None
            second = np.arange(len(pre)) if every else np.flatnonzero(probs.max(axis=1) < self.sure_one_way)
            readings = np.ones(len(pre), np.float32)  # how many readings each row of probs averages
            readings[second] = 2
            if len(second):
                again = back[second] if back is not None else half_turned(pre[second])
                out2 = self.session.run(None, {"image": to_tensor(again)})
                probs[second] = 0.5 * (probs[second] + out2[0])
                both = emb[second] + out2[1]
                emb[second] = both / np.maximum(np.linalg.norm(both, axis=1, keepdims=True), 1e-6)
                if corner is not None:
                    corner = np.concatenate([corner, out2[2]])
            probs = self._read_shifted(pre, probs, readings)
        probs = self._read_suits(pre, probs, back)
        if index:
            if self.index_path is not None:
                corner = self._read_corners(pre if back is None else np.concatenate([pre, back]))
            assert corner is not None
            corner = corner.reshape(ways, len(pre), -1).transpose(1, 0, 2)
        return probs, emb, corner

    def _read_shifted(self, pre: np.ndarray, probs: np.ndarray, readings: np.ndarray) -> np.ndarray:
        """``probs`` (each row the mean of ``readings`` readings) with the unsure crops' rows
        averaged with their readings moved by each of :attr:`shifts`, both ways round (one
        batched call)."""
        if not self.shifts:
            return probs
        unsure = np.flatnonzero(probs.max(axis=1) < self.sure_two_ways)
        if len(unsure) == 0:
            return probs
        views = shifted(pre[unsure], self.shifts)
        views += [half_turned(v) for v in views]
        extra = self.session.run(None, {"image": to_tensor(np.concatenate(views))})[0]
        extra = extra.reshape(len(views), len(unsure), -1).sum(axis=0)
        had = readings[unsure, None]
        probs[unsure] = (had * probs[unsure] + extra) / (had + len(views))
        return probs

    def _read_suits(self, pre: np.ndarray, probs: np.ndarray, back: np.ndarray | None = None) -> np.ndarray:
        """``probs`` with the crops read as a black card less surely than :attr:`sure_suit` weighed
        again by the suit network (one batched call, both ways round if :attr:`both_ways`;
        ``back``: ``pre`` turned round, if the caller has it)."""
        if self.suit_session is None or len(probs) == 0:
            return probs
        unsure = np.flatnonzero(np.isin(probs.argmax(axis=1), self._black) & (probs.max(axis=1) < self.sure_suit))
        if len(unsure) == 0:
            return probs
        h = self._suit_rows
        tops = pre[unsure, :h]
        if self.both_ways:
            turned = back[unsure] if back is not None else half_turned(pre[unsure])
            tops = np.concatenate([tops, turned[:, :h]])
        clubs = self.suit_session.run(None, {"top": to_tensor(tops)})[0][:, 1]
        probs[unsure] = weigh_suits(probs[unsure], clubs.reshape(-1, len(unsure)).mean(axis=0), self._spades, self._clubs)
        return probs

    def run(self, crops: Sequence[np.ndarray], *, embeddings: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """Calibrated probabilities over :attr:`model_labels` and unit embeddings, one row per
        crop (``embeddings=False``: see :meth:`outputs`)."""
        probs, emb, _ = self.outputs(crops, index=False, embeddings=embeddings)
        return probs, emb

    def index_predictions(self, corner: np.ndarray) -> list[Prediction]:
        """The corner index's readings (``corner`` from :meth:`outputs`): for each crop, the way
        round whose corner shows a card or back most surely (a partly covered card shows one index)."""
        picked = best_way(corner, self.model_labels.index(UNKNOWN))
        best = picked.argmax(axis=1)
        return [Prediction(self.model_labels[b], float(picked[i, b])) for i, b in enumerate(best)]

    def read_indices(self, crops: Sequence[np.ndarray]) -> list[Prediction]:
        """Each crop read from its corner index alone (the index network only, if the model has
        one: cheap enough to try many outlines of one card). Empty without a way to read an index."""
        if not self.reads_index or len(crops) == 0:
            return []
        if self.index_path is None:
            corner = self.outputs(crops)[2]
            assert corner is not None
            return self.index_predictions(corner)
        pre = preprocess_batch(crops)
        probs = self._read_corners(np.concatenate([pre, half_turned(pre)]) if self.both_ways else pre)
        return self.index_predictions(probs.reshape(1 + self.both_ways, len(pre), -1).transpose(1, 0, 2))

    def _read_corners(self, pre: np.ndarray) -> np.ndarray:
        """The index network's probabilities for the top-left corners of preprocessed crops."""
        session = self.index_session
        h, w = session.get_inputs()[0].shape[2:]
        return session.run(None, {"corner": to_tensor(pre[:, :h, :w])})[0]

    def embed(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """Unit-norm enrolment descriptors (N, :attr:`embedding_dim`) for nearest-neighbour look-up."""
        return self.run(crops)[1]

    def predict(self, probs: np.ndarray, emb: np.ndarray) -> list[Prediction]:
        """Predictions from the outputs of :meth:`run` (enrolled decks first).

        A crop takes an enrolled card's name when its nearest enrolled view is that card's and
        at least as similar as the deck's threshold, unless the model itself reads a card or a
        back at :attr:`model_sure` or more and the match is not as sure (< 0.9). The match's confidence grows with its margin
        over the nearest view of any other card (a wrong match almost never has one)."""
        from vision.enroll import MARGIN_SCALE

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

    def classify(self, crops: Sequence[np.ndarray]) -> list[Prediction]:
        """Read each upright crop: a card id (``"10H"``, ``"RJ"``, an enrolled name), ``"back"``
        or ``"unknown"``, with a calibrated confidence. Batched model calls (see :meth:`outputs`)."""
        probs, emb = self.run(crops, embeddings=False)
        return self.predict(probs, emb)

    def classify_with_index(self, crops: Sequence[np.ndarray]) -> list[tuple[Prediction, Prediction | None]]:
        """:meth:`classify`, and beside each reading the corner index's alone (None when the model
        has neither index network nor corner head, or when decks are enrolled: they know French
        cards only). Batched calls as in :meth:`outputs`."""
        probs, emb, corner = self.outputs(crops, embeddings=False)
        whole = self.predict(probs, emb)
        if corner is None or self.decks:
            return [(p, None) for p in whole]
        return list(zip(whole, self.index_predictions(corner), strict=True))


def load_default_classifier(decks: Sequence[str] | bool | None = None, *, threads: int = 1,
                            data_dir: str | os.PathLike[str] | None = None) -> OnnxCardClassifier:
    """The shipped model (``models/cards.onnx`` beside the package). ``decks``: names of
    enrolled decks to use, ``True`` for all that are enrolled, ``None``/``False`` for none.
    Decks live in ``$PEGPI_DATA/decks`` or ``~/.local/share/pegpi/decks``."""
    clf = OnnxCardClassifier(threads=threads)
    if decks:
        from vision.enroll import load_decks

        for deck in load_decks(None if decks is True else list(decks), data_dir=data_dir):
            clf.add_deck(deck)
    return clf
