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

from collections.abc import Sequence
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from vision.api import CardClassifier
from vision.classify import side_network, side_session
from vision.model_input import Image, half_turned, preprocess_batch, to_tensor

#: the network's answers, in its order
SUITS = ("S", "H", "D", "C")


class GreySuits:
    """The grey suit network, loaded from ``path`` (an ONNX file taking crop tops ``[N, 3, rows,
    128]`` and giving each suit's probability in :data:`SUITS` order)."""

    def __init__(self, path: Path, threads: int = 1) -> None:
        self.session = side_session(path, "a grey suit network", threads)
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


def grey_suits_for(classifier: CardClassifier) -> GreySuits | None:
    """The grey suit network beside ``classifier``'s model (named by ``grey_model`` in its
    ``cards.json``), loaded once; None for a classifier without a model file or a model without one."""
    return side_network(classifier, "grey_model", "a grey suit network", GreySuits)
