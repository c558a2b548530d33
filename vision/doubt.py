"""When a card reading of a photo must not be sure, whatever the network says.

Two cases the networks cannot see for themselves:

- the corner index and the whole card read different cards (however unsurely the index reads
  its card): one of the two is wrong, so the reading is at most :data:`DOUBT` (under :data:`vision.api.CONFIDENT` and under the device's
  default asking threshold, 0.85, so that the table asks);
- a photo with no colour (grayscale, a NoIR camera): red and black then look alike, and a suit
  told by colour is a guess. A suited card read from such a photo is at most :data:`DOUBT`.

:mod:`vision.recognize` also holds at :data:`DOUBT` a card outline whose corner shows no index,
a joker seen only in part (boxes in a court's art look like jokers) and "no card" in a photo
meant to show one, where the card may be there unfound.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.api import BACK, UNKNOWN, Prediction
from vision.images import high_percentile, whole_median

#: the highest confidence a doubtful reading keeps
DOUBT = 0.8
#: a photo whose strongest colours (:data:`COLOUR_PERCENTILE` of max - min channel once the light's
#: cast and the sensor's noise are taken out) stay under this shows no colour: on the development
#: photos (singles and scenes) the grayscale ones give 0-4, and 6 at most with sensor noise of
#: sigma 14 or as a webcam saves them; those with a red card 21 or more (bar one made dim)
COLOURLESS = 8.0
#: the share of a photo's pixels its strongest colours are measured above: a red card's pips may
#: cover under 1 % of a photo of several cards (at the 99th, two photos with a 4H gave 7.7 and 8)
COLOUR_PERCENTILE = 99.5
#: sensor noise is averaged out of the measured copy by a blur of this sigma (px of the copy, at
#: most 320 long): a grey photo with noise of sigma 14 in each channel measured 13-19 without it
NOISE_BLUR = 2.0

#: a camera none of whose frames shows more colour than this (:func:`colour_strength` of an
#: 80-pixel-wide copy, where averaging takes out the sensor's noise) is taken for a colourless one
#: (a NoIR module, a grey webcam): the simulated table's colour frames give 61-65, the same turned
#: grey with a grey camera's noise 0.5-0.6, and under a warm cast 0.9-1.3 (session 67)
CAMERA_COLOUR = 30.0


class CameraColour:
    """Whether a table camera shows colour, judged on every ``every``-th frame it gives: once one
    frame has shown colour (the wood of the table, a red card, a hand) the camera is a colour one
    for good; until then it is taken for colourless, the safe side."""

    def __init__(self, every: int = 15, width: int = 80) -> None:
        self.every, self.width = every, width
        #: the most colour a frame has shown so far
        self.most = 0.0
        self._frames = 0

    @property
    def colourless(self) -> bool:
        """Whether no frame seen so far has shown colour (:data:`CAMERA_COLOUR`)."""
        return self.most < CAMERA_COLOUR

    def see(self, frame: np.ndarray) -> None:
        """Take in one BGR frame (measured only every ``every``-th, and only while colourless)."""
        self._frames += 1
        if self.colourless and (self._frames - 1) % self.every == 0:
            h, w = frame.shape[:2]
            small = cv2.resize(frame, (self.width, max(1, round(h * self.width / w))), interpolation=cv2.INTER_AREA)
            self.most = max(self.most, colour_strength(small))


#: a channel this bright is clipped (or may be): its pixel tells nothing of the light's cast
CLIPPED = 250
#: a pixel whose three channels add up to less than this (under 50 each on average) is too dark
#: to tell the light's cast: its tint is the sensor's noise (a black table's 3, 1, 1 made the
#: paper of a grey photo look coloured once taken for the cast)
DARKEST_CAST = 150.0


def _measured(image: np.ndarray) -> tuple[Sequence[np.ndarray], np.ndarray, np.ndarray]:
    """The channels of a small median-filtered copy of ``image`` (float32, at most 320 pixels
    long) blurred by :data:`NOISE_BLUR`, which of its pixels are unclipped (no channel at
    :data:`CLIPPED` within the blur's reach), and the light's cast: the mean colour of the photo's
    brighter half (the paper and the table) less what is darker than :data:`DARKEST_CAST` (all of
    that half in a photo that dark), unclipped where it can be."""
    h, w = image.shape[:2]
    s = min(1.0, 320 / max(h, w))
    small = cv2.resize(image, (max(1, int(w * s)), max(1, int(h * s))), interpolation=cv2.INTER_AREA) \
        if s < 1 else image
    small = cv2.medianBlur(small, 3).astype(np.float32)
    # channel by channel: numpy's reductions over a last axis of three are several times slower
    b, g, r = cv2.split(small)
    light = b + g + r
    seen = np.maximum(np.maximum(b, g), r) < CLIPPED
    if not seen.any():
        seen[:] = True  # a white photo: nothing is left to measure otherwise
    # the brighter half, but not what is too dark to show a cast (a card on a black table may
    # cover less than half the photo)
    middle = whole_median(light, 3 * 255)  # sums of three whole channels
    upper = light >= max(middle, DARKEST_CAST)
    if not upper.any():
        upper = light >= middle
    # the brighter half unclipped, or all of it where the whole of that half is clipped
    bright = small[upper & seen] if (upper & seen).any() else small[upper]
    cast: np.ndarray = bright.mean(axis=0) + 1.0
    # the sensor's noise averaged out; a clipped pixel's blurred neighbours tell nothing either
    b, g, r = (cv2.GaussianBlur(c, (0, 0), NOISE_BLUR) for c in (b, g, r))
    reach = 2 * int(np.ceil(2 * NOISE_BLUR)) + 1
    near = cv2.erode(seen.astype(np.uint8), np.ones((reach, reach), np.uint8), borderType=cv2.BORDER_REPLICATE) > 0
    return (b, g, r), (near if near.any() else seen), cast


def colour_strength(image: np.ndarray) -> float:
    """How much colour the photo shows: the :data:`COLOUR_PERCENTILE` over its pixels of the
    spread between their channels (0 for a grayscale image), measured on a small median-filtered
    and blurred copy (the sensor's noise averaged out) once the light's cast is taken out (each
    channel scaled so that the photo's brighter half, the paper and the table, comes out grey;
    pixels under :data:`DARKEST_CAST` left out of it): a grey photo under warm or tinted light
    shows none. Pixels with a channel at :data:`CLIPPED` or over are left out of both: a strong
    cast clips the paper's brightest channel, and measured with it the cast leaves a tint on
    every grey."""
    return colour_and_cast(image)[0]


#: a photo whose light's cast scales a channel by this share or more is read with the cast taken
#: out (:func:`balanced`)
CAST_TAKEN_OUT = 0.08


def colour_and_cast(image: np.ndarray) -> tuple[float, np.ndarray | None]:
    """:func:`colour_strength`, and the gains that take the light's cast out of the photo (each
    channel scaled so that the brighter half comes out grey), or None for a cast under
    :data:`CAST_TAKEN_OUT` (or no colour image)."""
    if image.ndim != 3 or image.shape[2] != 3:
        return 0.0, None
    channels, seen, cast = _measured(image)
    gains = cast.mean() / cast
    b, g, r = (c * k for c, k in zip(channels, gains, strict=True))
    spread = np.maximum(np.maximum(b, g), r) - np.minimum(np.minimum(b, g), r)
    return high_percentile(spread[seen], COLOUR_PERCENTILE), (gains if float(np.abs(gains - 1.0).max()) >= CAST_TAKEN_OUT else None)


def balanced(image: np.ndarray, gains: np.ndarray | None, colourless: bool) -> np.ndarray:
    """``image`` (BGR uint8) with the light's cast taken out by ``gains`` (:func:`colour_and_cast`;
    None: ``image`` itself): a NoIR camera's pink paper or a warm lamp's orange is no colour the
    outlines or the networks know. A ``colourless`` photo (asked of ``image``) is made grey
    instead: under a strong cast a channel of the paper clips, and scaled back it would show
    colour where the photo has none."""
    if gains is None:
        return image
    if colourless:
        return cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    out: np.ndarray = cv2.transform(image, np.diag(gains).astype(np.float32))
    return out


def suited(label: str) -> bool:
    """Whether ``label`` is a card of a French suit (not a back, joker, unknown or enrolled name)."""
    return label not in (BACK, UNKNOWN, "RJ", "BJ") and len(label) in (2, 3) and label[-1] in "SHDC"


#: the ranks of the court cards
COURTS = ("J", "Q", "K")


def court(label: str) -> bool:
    """Whether ``label`` is a jack, queen or king of a French suit."""
    return suited(label) and label[:-1] in COURTS


#: a court is told from the other courts of its suit by its index letter alone, and from the
#: court of the other suit of its colour by small signs: one seen under SMALL_COURT pixels high
#: is sure only read at COURT_SURE or more (decks never trained on, small or blurred: a spade
#: court read as a club, a king as a queen, at 0.94-0.96 in photos, 0.92-0.99 through a 720p
#: camera over an A1 or A2 mat; HISTORY, sessions 92 and 93)
SMALL_COURT, COURT_SURE = 140.0, 0.97


def court_unsure(label: str, confidence: float, height: float) -> bool:
    """Whether a reading of ``label`` at ``confidence``, of a card seen ``height`` pixels high in
    the photo or camera frame it was cut from, is a court too small to be sure of
    (:data:`SMALL_COURT`)."""
    return height < SMALL_COURT and confidence < COURT_SURE and court(label)


def sure_black(label: str, confidence: float) -> bool:
    """Whether a reading is a club or a spade read surely (over :data:`DOUBT`): the readings whose
    suit the suit network is asked about."""
    return confidence > DOUBT and suited(label) and label[-1] in "CS"


def held(p: Prediction) -> Prediction:
    """``p`` with its confidence at most :data:`DOUBT`."""
    return p if p.confidence <= DOUBT else Prediction(p.label, DOUBT)


#: :mod:`vision.recognize` ranks its candidates holding only indices at least this sure of
#: another card, and holds the readings it keeps at any disagreement afterwards
INDEX_SAYS = 0.5


def other_black_suit(p: Prediction, index: Prediction) -> bool:
    """Whether ``index`` (a corner index read at :data:`INDEX_SAYS` or more) gives ``p``'s rank in
    the other black suit: ``p`` a club and ``index`` a spade, or the other way round."""
    return (suited(p.label) and suited(index.label) and index.confidence >= INDEX_SAYS
            and p.label[:-1] == index.label[:-1] and {p.label[-1], index.label[-1]} == {"C", "S"})


#: a club or spade read whole under this whose corner index gives the other black suit is asked
#: about whatever the suit network says. Over 3,328 black table crops of the 64 held-out designs
#: the index gave the other suit against 65 right readings (11 of them under 0.95) and one wrong
#: at 0.90; on the layout mat a QS of design 1000002 read QC at 0.855, its index QS at 0.85, the
#: suit network 0.96 a club. A sure corner is not heard over a sure whole card: holding a black
#: card its corner gainsays at 0.93 made the table ask about cardsJS's 1,008 cards 125 -> 135 times
#: before enrolment and 2 -> 14 after (models/HISTORY.md, session 58)
BLACK_SURE = 0.95


def suit_outvoted(p: Prediction, index: Prediction, clubs: float) -> bool:
    """Whether ``p``, a club or a spade, is outvoted on its suit: its corner index gives the other
    black suit (:func:`other_black_suit`) and the suit network (``clubs``: its odds of a club)
    leans the index's way, or ``p`` is read under :data:`BLACK_SURE`. The whole card can read a
    small or ornate black court surely and wrongly; two readers against it, or one against a
    reading barely sure, make it doubtful."""
    leans = clubs < 0.5 if p.label.endswith("C") else clubs > 0.5
    return other_black_suit(p, index) and (leans or p.confidence < BLACK_SURE)


#: a club or spade the suit network reads in the other black suit at more than this is never
#: sure, whatever the index says. Over 5,927 black table crops (64 selection-pool designs and the
#: three commercial-style decks) it holds 4 of the 6 read surely in the wrong black suit (cardsJS's
#: 3S, JS and KS at 0.93-0.96: the card network outweighs a suit network at 0.72-0.86 for
#: spades) and 1 of 5,682 read surely and right (models/HISTORY.md, session 61)
SUIT_GAINSAYS = 0.7


def suit_gainsays(p: Prediction, clubs: float) -> bool:
    """Whether the suit network (``clubs``: its odds of a club) reads ``p``, a club or a spade, in
    the other black suit at more than :data:`SUIT_GAINSAYS`."""
    other = clubs if p.label.endswith("S") else 1.0 - clubs
    return other > SUIT_GAINSAYS


#: a reading the whole card is unsure of, or a back, joker or "no card", is taken from its corner
#: index alone at this confidence (chosen on composed photos of validation designs, see
#: models/MODEL_CARD.md)
INDEX_SURE = 0.93
#: a whole-card reading under this is unsure: its corner index may overrule it
WHOLE_UNSURE = 0.5
#: the two jokers: a deck prints them alike but for their ink, red or black, so only colour tells
#: them apart (through a grey camera every red joker of the 64 held-out designs read as the black
#: one, 29 of them surely in photos and 20 as the table crops them; models/HISTORY.md, session 91)
JOKERS = ("RJ", "BJ")
#: readings that show no face
BLANKS = (BACK, *JOKERS)


def jokers_held(predictions: Sequence[Prediction]) -> list[Prediction]:
    """``predictions`` from a camera or photo that shows no colour, each joker held below sure
    (:func:`held`): which of the two it is is the players' to say."""
    return [held(p) if p.label in JOKERS else p for p in predictions]


def shows_index(index: Prediction | None) -> bool:
    """Whether a corner index reading shows a card (not a back, not nothing) at :data:`INDEX_SAYS`."""
    return index is not None and index.label not in (UNKNOWN, BACK) and index.confidence >= INDEX_SAYS


def blank_or_unsure(p: Prediction) -> bool:
    """Whether a whole-card reading is a back, a joker or no card, or read under :data:`WHOLE_UNSURE`:
    the readings a corner index read surely overrules (:func:`index_over_blank`)."""
    return p.label in (UNKNOWN, *BLANKS) or p.confidence < WHOLE_UNSURE


def index_over_blank(p: Prediction, index: Prediction | None, *, back_at: float = INDEX_SURE) -> Prediction:
    """A whole card read as a back, a joker or no card, or read unsurely, whose corner index
    surely (:data:`INDEX_SURE`) shows a card is that card, not surely: the picture of a court
    can read as a back whole (a jack of diamonds at 0.4), a blurred 2 of clubs as a queen at 0.49.
    ``back_at``: how sure an index must be to overrule a back (lower for a crop cut to the card's
    own outline: a back's corner shows no index there)."""
    if index is None or not blank_or_unsure(p) or not shows_index(index):
        return p
    return held(index) if index.confidence >= (back_at if p.label == BACK else INDEX_SURE) else p


#: a card read unsurely whose corner index reads the same card at :data:`INDEX_SURE` or more is
#: sure when the grey suit network, reading its signs' shapes, gives its suit these odds or more:
#: of 26,624 table crops of the 256 selection designs, 71 unsure readings had an agreeing index and
#: one was wrong (a QH read as QD by both), its shapes giving diamonds 0.004; 60 passed, none
#: wrong (models/HISTORY.md, session 57)
SHAPES_AGREE = 0.5


def index_confirms(p: Prediction, index: Prediction) -> bool:
    """Whether ``index``, a corner index reading, reads ``p``, a suited card, surely (:data:`INDEX_SURE`)."""
    return suited(p.label) and index.label == p.label and index.confidence >= INDEX_SURE


def readers_agree(p: Prediction, index: Prediction, suit_odds: float) -> bool:
    """Whether three readers agree on ``p``, a suited card: its corner index reads it surely
    (:func:`index_confirms`) and the grey suit network gives its suit ``suit_odds`` of at least
    :data:`SHAPES_AGREE`."""
    return index_confirms(p, index) and suit_odds >= SHAPES_AGREE


def doubted(p: Prediction, index: Prediction | None = None, *, colourless: bool = False,
            index_needed: bool = False, index_says: float = 0.0) -> Prediction:
    """``p`` with its confidence held at :data:`DOUBT` when its corner index (``index``) reads
    another card or a back (at ``index_says`` or more: by default however unsurely), or
    (``index_needed``) shows no card where ``p`` says one is or reads it under :data:`INDEX_SAYS`,
    or when ``colourless`` (the photo shows no colour) and ``p`` is a suited card."""
    against = (index is not None and index.label not in (UNKNOWN, p.label) and p.label != UNKNOWN
               and index.confidence >= index_says)
    if index_needed and index is not None and p.label not in (UNKNOWN, BACK) \
            and (index.label == UNKNOWN or index_says <= index.confidence < INDEX_SAYS):
        # a card outline without an index (a box printed on a card, or no card), or whose index
        # hardly reads (a 6 of spades half in shadow reads as an 8 whole, its index 8 at 0.41),
        # unless only indices read at ``index_says`` or more count
        against = True
    return held(p) if against or (colourless and suited(p.label)) else p
