"""Suits told by shape in photos that show no colour.

In a grayscale photo (or one from a NoIR camera, or under dim warm light) a heart is a grey heart:
the card network, which learned red from colour, reads it as a spade. The grey suit network
(``cards_grey.onnx``, trained by :mod:`vision.train.grey` on rendered cards turned grey by random
mixes of their channels) reads the shapes of a card's signs alone: spades, hearts, diamonds or
clubs. :func:`vision.recognize.read_card` and :func:`vision.recognize.recognize` ask it for the
suit of every suited card found in a photo :func:`vision.doubt.colour_strength` calls colourless;
the rank stays the card network's. The reading stays below sure (:data:`vision.doubt.DOUBT`), as
any suit read without colour does. The top of a card under the next one shows the card over it:
``recognize`` reads such a card's suit at its index alone, with the grey corner suit network
(``cards_grey_corner.onnx``, :mod:`vision.train.grey_corner`, :class:`vision.classify.GreyCorners`).
The network is loaded beside the card network's other side networks
(:class:`vision.classify.GreySuits`, :func:`vision.classify.grey_suits_for`): the table's
``classify`` asks it too, when the corner index agrees with an unsure reading.

Colour can also mislead: noise or a cast gives a grey photo (a NoIR camera's, a dim webcam's)
colour enough to pass for one, and the card network then reads its grey hearts as spades
surely. So the photo commands hold a suited card read surely whose signs this network reads as
another suit's (:func:`shape_denies`). The table pipeline asks it of every card only once its camera has shown
no colour in any frame (:class:`vision.doubt.CameraColour`), and then holds every suited card
whose suit or colour the shapes deny, proposing theirs (:func:`suits_by_shape`): asked on every card of a
colour camera too, it took the companion's 10,000-frame soak from +2-3 MB to +8-10 MB
(models/HISTORY.md, session 43), and a colour camera's red cards show red. There, a card read
unsurely is sure when the card network and the corner index read its rank surely and the shapes
its suit (:func:`suits_by_shape` given the classifier): without it the table asked about half
the cards. A joker has no shape to tell: the red and the black one differ in their ink alone, so
without colour both the photo commands and the table hold it (:func:`vision.doubt.jokers_held`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from vision.api import ASK_BELOW, CardClassifier, Prediction
from vision.classify import SUITS, GreySuits, OnnxCardClassifier
from vision.doubt import DOUBT, INDEX_SURE, suited
from vision.model_input import Image

#: a suited card read surely stays sure unless this network gives another suit at least these
#: odds (the development singles noised or cast warm: in all 25 of their confident mistakes the
#: shapes gave the true suit at 0.98 or more; no right sure reading's other suits reached 0.33,
#: and 5 of 3,253 rendered table crops' reached 0.8; see models/HISTORY.md, session 43)
SHAPE_DENIES = 0.8

#: through a camera that shows no colour, a suited card's reading is also denied when this
#: network gives its colour (hearts and diamonds, or spades and clubs) less than these odds: a red
#: card half under a hand read 6S at 0.93 through a grey camera, its shapes at S 0.03, H 0.40,
#: D 0.55; a KD of a held-out design read KC at 0.97, its shapes at D 0.43, C 0.53. Over 1,614
#: suited table crops of 80 simulated games through grey and warm-cast cameras, black cards gave
#: black 0.98 or more (models/HISTORY.md, sessions 45 and 58). Photos that show colour are not
#: checked so: an index read at a photo's edge, its crop mostly beyond it, gives the shapes too
#: little to back either colour.
SAME_COLOUR = 0.8


def shape_denies(odds: NDArray[np.float32], cards: Sequence[str], *, colourless: bool = False) -> list[bool]:
    """For each suited card read as ``cards[i]`` whose crop this network gave ``odds[i]``
    (:meth:`GreySuits.odds`): whether the shapes deny its suit, surely reading another
    (:data:`SHAPE_DENIES`), or, ``colourless`` (nothing else tells red from black), not backing
    its colour (:data:`SAME_COLOUR`)."""
    out = []
    for o, card in zip(odds, cards, strict=True):
        mine = SUITS.index(card[-1])
        other = max(float(p) for i, p in enumerate(o) if i != mine)
        colour = sum(float(o[i]) for i, suit in enumerate(SUITS) if (suit in "HD") == (card[-1] in "HD"))
        out.append(other >= SHAPE_DENIES or (colourless and colour < SAME_COLOUR))
    return out


#: through a camera that shows no colour, the card network spreads a red card over the suits of
#: both colours and the table asked about half the cards it read right: a suited card read unsurely
#: is sure when the card network's reading of its rank (its four suits pooled) is sure, its corner
#: index reads the same rank at :data:`~vision.doubt.INDEX_SURE`, and this network gives one suit
#: at least these odds. Table crops through a grey camera: of the 64 held-out designs' 3,328, 757
#: made sure, none wrongly; of 96 selection designs' 4,992, 1,254, none wrongly (at 0.95, a jack
#: of clubs taken for diamonds at 0.97; models/HISTORY.md, session 58)
SHAPES_SURE = 0.98


def suits_by_shape(reader: GreySuits, crops: Sequence[Image], predictions: Sequence[Prediction],
                   classifier: CardClassifier | None = None) -> list[Prediction]:
    """``predictions`` of upright ``crops`` from a camera that shows no colour, where only the
    signs' shapes tell a heart from a spade. Each suited card whose suit the shapes deny
    (:func:`shape_denies`) is held at :data:`~vision.doubt.DOUBT` and takes the suit the shapes
    favour, so the table asks ("Is that 7H?") instead of scoring the grey heart the card network
    took for a spade; the others keep their readings, sure ones too (a grey spade is a spade).
    With the table's ``classifier``, a suited card then read unsurely is made sure where its rank's
    readers and the shapes agree (:func:`_sure_by_rank`)."""
    picked = [i for i, p in enumerate(predictions) if suited(p.label)]
    if not picked:
        return list(predictions)
    odds = reader.odds([crops[i] for i in picked])
    out = list(predictions)
    for i, o, no in zip(picked, odds, shape_denies(odds, [predictions[i].label for i in picked], colourless=True),
                         strict=True):
        if no:
            p = predictions[i]
            out[i] = Prediction(p.label[:-1] + SUITS[int(o.argmax())], min(p.confidence, DOUBT))
    if classifier is not None:
        _sure_by_rank(classifier, crops, out, dict(zip(picked, odds, strict=True)))
    return out


def _sure_by_rank(classifier: CardClassifier, crops: Sequence[Image], out: list[Prediction],
                  odds: dict[int, NDArray[np.float32]]) -> None:
    """Make sure, in ``out``, each suited card read under :data:`~vision.api.ASK_BELOW` when
    three readers agree (:data:`SHAPES_SURE`): the card network on its rank, its corner index on
    the same rank, the signs' shapes (``odds``, by crop) on its suit. Nothing for a classifier
    without a corner index network."""
    if not isinstance(classifier, OnnxCardClassifier) or not classifier.reads_index:
        return
    picked = [i for i in odds if out[i].confidence < ASK_BELOW and out[i].label in classifier.model_labels]
    if not picked:
        return
    ranked = classifier.classify_with_index([crops[i] for i in picked], ranks_only=True)
    for i, (whole, index) in zip(picked, ranked, strict=True):
        rank, suit, shapes = whole.label[:-1], SUITS[int(odds[i].argmax())], float(odds[i].max())
        # a black suit the corner gives the other of is no agreement (its shape shows there)
        if (suited(whole.label) and whole.confidence >= ASK_BELOW and index is not None and suited(index.label)
                and index.label[:-1] == rank and index.confidence >= INDEX_SURE and shapes >= SHAPES_SURE
                and {index.label[-1], suit} != {"S", "C"}):
            out[i] = Prediction(rank + suit, min(whole.confidence, index.confidence, shapes))
