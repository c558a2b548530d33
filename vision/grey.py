"""Suits told by shape in photos that show no colour.

In a grayscale photo (or one from a NoIR camera, or under dim warm light) a heart is a grey heart:
the card network, which learned red from colour, reads it as a spade. The grey suit network
(``cards_grey.onnx``, trained by :mod:`vision.train.grey` on rendered cards turned grey by random
mixes of their channels) reads the shapes of a card's signs alone: spades, hearts, diamonds or
clubs. :func:`vision.recognize.read_card` and :func:`vision.recognize.recognize` ask it for the
suit of every suited card found in a photo :func:`vision.doubt.colour_strength` calls colourless;
the rank stays the card network's. The reading stays below sure (:data:`vision.doubt.DOUBT`), as
any suit read without colour does.

The table pipeline never loads it: the mat's camera sees colour.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import onnxruntime as ort
from numpy.typing import NDArray

from vision.api import CardClassifier
from vision.classify import OnnxCardClassifier
from vision.errors import ModelFileError
from vision.model_input import Image, half_turned, preprocess_batch, to_tensor

#: the network's answers, in its order
SUITS = ("S", "H", "D", "C")


class GreySuits:
    """The grey suit network, loaded from ``path`` (an ONNX file taking crop tops ``[N, 3, rows,
    128]`` and giving each suit's probability in :data:`SUITS` order)."""

    def __init__(self, path: Path, threads: int = 1) -> None:
        if not path.exists():
            raise ModelFileError(f"no grey suit network at {path}")
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        options.enable_cpu_mem_arena = False
        try:
            self.session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        except Exception as e:  # onnxruntime raises its own types for a corrupt file
            raise ModelFileError(f"{path} is not a readable ONNX network ({e.__class__.__name__})") from e
        self.rows = int(self.session.get_inputs()[0].shape[2])

    def odds(self, crops: Sequence[Image]) -> NDArray[np.float32]:
        """Each suit's probability for every crop (an upright card, any size, colour or grey), read
        both ways round and averaged: ``(N, 4)``."""
        if not crops:
            return np.zeros((0, len(SUITS)), np.float32)
        pre = preprocess_batch(crops)
        grey = pre.mean(axis=3, keepdims=True, dtype=np.float32).round().astype(np.uint8)
        pre = np.ascontiguousarray(np.broadcast_to(grey, pre.shape))  # a colour crop is read grey too
        tops = np.concatenate([pre[:, :self.rows], half_turned(pre)[:, :self.rows]])
        probs = np.asarray(self.session.run(None, {"top": to_tensor(tops)})[0], np.float32)
        both: NDArray[np.float32] = probs.reshape(2, len(pre), len(SUITS)).mean(axis=0)
        return both


@functools.lru_cache(maxsize=2)
def _load(path: Path) -> GreySuits:
    return GreySuits(path)


def grey_suits_for(classifier: CardClassifier) -> GreySuits | None:
    """The grey suit network beside ``classifier``'s model (named by ``grey_model`` in its
    ``cards.json``), loaded once; None for a classifier without a model file or a model without one."""
    if not isinstance(classifier, OnnxCardClassifier):
        return None
    grey = classifier.meta.get("grey_model")
    if not isinstance(grey, dict) or not isinstance(grey.get("file"), str):
        return None
    path = classifier.model_path.parent / grey["file"]
    if not path.exists():
        raise ModelFileError(f"{classifier.model_path.name} names a grey suit network, {path} is missing")
    return _load(path)
