"""``recognize`` on photos composed of real cards (``pegpi bench composed``).

The development set has 62 real photos of several cards, too few to find rare sure mistakes or to
see how ``recognize`` does on layouts they seldom show (a row of cards overlapping, a held fan).
This bench makes more such photos from labelled photos of single cards: each single is read as
``pegpi classify`` reads it, the card cut out upright along the outline found, and the cards laid
several to a photo on a drawn table (:func:`vision.render.photo.compose_scene`: apart, an
overlapping row, a held fan, in turn), every second three photos turned grey.

The cards keep their own blur, noise, light and print, but only cards read right and surely alone
are cut, and only those whose outline holds no strip of the table: the bench measures finding and
reading cards among others, not reading a hard single. Its figures are counted as
``pegpi bench scenes`` counts them (:class:`vision.scene_bench.SceneReport`), grouped by layout
and colour. Where the singles' folder lists the boxes round their printed indices (``pegpi bench
finder``'s form, :data:`vision.finder_bench.BOX_TABLES`), the boxes are carried through the cut
and the composing, and each card missed is told as the scenes bench tells it
(:func:`vision.scene_bench.why_missed`).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from itertools import groupby
from pathlib import Path

import cv2
import numpy as np

from vision.api import CARD_MM, CONFIDENT, CardClassifier
from vision.errors import ImageFileError
from vision.finder_bench import read_boxes
from vision.images import read_image
from vision.photo_bench import peak_resident_mb, timed
from vision.recognize import Detection, read_card, recognize
from vision.render.cards import card_alpha
from vision.render.photo import compose_scene
from vision.scene_bench import Scene, SceneReading, SceneReport, why_missed

#: the cut cards' size: 3 px a mm, as the bench's rendered cards are composed
FACE_PX = (189, 264)
#: a side whose longest run darker than 0.8 of the paper is longer than this share holds table
MAX_DARK_RUN = 0.45
#: the depth of the side strips looked at, in pixels of the cut card
_STRIP = 6
#: how the composed photos lay the cards out, in turn
LAYOUTS = ("scatter", "fan", "arc")
#: cards in a photo, fewest and most
CARDS_PER_PHOTO = (3, 6)


def _no_boxes() -> np.ndarray:
    return np.zeros((0, 4, 2), np.float32)


@dataclass(frozen=True, slots=True)
class Face:
    """A real card cut out upright (BGRA, :data:`FACE_PX`), the photo it came from, and the boxes
    round its printed indices there, each as four corners in the cut's pixels ``(n, 4, 2)``."""

    card: str
    image: np.ndarray
    source: Path
    boxes: np.ndarray = field(default_factory=_no_boxes)


@dataclass
class Cut:
    """What :func:`cut_faces` kept and why it left the others."""

    faces: list[Face] = field(default_factory=list)
    misread: int = 0
    unsure: int = 0
    table_in_outline: int = 0
    unreadable: list[tuple[str, str]] = field(default_factory=list)


def dark_run(face: np.ndarray) -> float:
    """The longest run along any side of an upright card cut (BGR) whose edge strip is darker than
    0.8 of its paper (the 80th percentile of its grey), as a share of that side: an outline that
    missed the card's edge leaves a strip of table there. An index or a court's frame at the
    edge makes short runs."""
    grey = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY).astype(np.float32)
    dark = 0.8 * float(np.percentile(grey, 80))
    sides = (grey[:_STRIP].mean(0), grey[-_STRIP:].mean(0), grey[:, :_STRIP].mean(1), grey[:, -_STRIP:].mean(1))
    return max(max((len(list(run)) for is_dark, run in groupby(side < dark) if is_dark), default=0) / len(side)
               for side in sides)


#: the columns of a box (x0, y0, x1, y1) that give its corners, clockwise from the top-left
_BOX_CORNERS = np.array([[0, 1], [2, 1], [2, 3], [0, 3]])
#: the cut card's corners in its own pixels
_FACE_RECT = np.array([[0, 0], [FACE_PX[0], 0], [FACE_PX[0], FACE_PX[1]], [0, FACE_PX[1]]], np.float32)


def cut_face(image: np.ndarray, found: Detection) -> np.ndarray:
    """The card ``found`` in ``image`` warped upright to :data:`FACE_PX`, BGRA with its corners
    rounded (3 mm) transparent."""
    w, h = FACE_PX
    warp = cv2.getPerspectiveTransform(np.asarray(found.corners, np.float32), _FACE_RECT)
    face = cv2.warpPerspective(image, warp, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    return np.dstack([face, card_alpha(h, w, 3.0 * FACE_PX[0] / CARD_MM[0])])


def _carried(quads: np.ndarray, source: np.ndarray, to: np.ndarray) -> np.ndarray:
    """Points ``quads`` ``(n, 4, 2)`` carried by the warp taking the quad ``source`` to ``to``."""
    if not len(quads):
        return _no_boxes()
    warp = cv2.getPerspectiveTransform(np.asarray(source, np.float32), np.asarray(to, np.float32))
    out: np.ndarray = cv2.perspectiveTransform(quads.reshape(1, -1, 2).astype(np.float32), warp).reshape(-1, 4, 2)
    return out


def index_boxes(paths: Sequence[Path]) -> dict[Path, np.ndarray]:
    """The boxes round the printed indices of the photos ``paths``, ``(n, 4)`` each, where their
    folders list them (:func:`~vision.finder_bench.read_boxes`); a folder without a table of
    boxes gives none, a box that is not a box is a :class:`~vision.errors.PhotoLabelError`."""
    return {photo.path: photo.boxes for folder in sorted({p.parent for p in paths})
            for photo in read_boxes(folder, optional=True)}


def cut_faces(items: Sequence[tuple[Path, str]], classifier: CardClassifier,
              progress: Callable[[int, int], None] | None = None, boxes: Mapping[Path, np.ndarray] | None = None) -> Cut:
    """Each labelled photo of one card (``items``: path, card) read as ``classify`` reads it, and
    its card cut out when read right at :data:`~vision.api.CONFIDENT` or more with no table in its
    outline (:func:`dark_run`), with its index ``boxes`` (by photo, ``(n, 4)``) if given. One photo
    is held at a time."""
    cut = Cut()
    for i, (path, card) in enumerate(items):
        try:
            image = read_image(path)
        except ImageFileError as exc:
            cut.unreadable.append((str(path), exc.reason))
            continue
        found = read_card(image, classifier)
        if found.card != card:
            cut.misread += 1
        elif found.confidence < CONFIDENT:
            cut.unsure += 1
        else:
            face = cut_face(image, found)
            if dark_run(face[..., :3]) > MAX_DARK_RUN:
                cut.table_in_outline += 1
            else:
                # each box's four corners, clockwise from its top-left: (n, 4, 2)
                quads = np.asarray((boxes or {}).get(path, np.zeros((0, 4))), np.float32)[:, _BOX_CORNERS]
                cut.faces.append(Face(card, face, path, _carried(quads, found.corners, _FACE_RECT)))
        del image
        if progress is not None:
            progress(i + 1, len(items))
    return cut


@dataclass(frozen=True, slots=True)
class ComposedPhoto:
    """A photo :func:`composed_photos` made: BGR, its cards, their layout, whether it is grey, and
    the boxes of the indices that show in it (``(n, 4)``, x0, y0, x1, y1) with their cards."""

    image: np.ndarray
    cards: tuple[str, ...]
    layout: str
    grey: bool
    boxes: np.ndarray = field(default_factory=lambda: np.zeros((0, 4), np.float32))
    box_labels: tuple[str, ...] = ()

    @property
    def group(self) -> str:
        return f"{self.layout}, {'grey' if self.grey else 'colour'}"


def composed_photos(faces: Sequence[Face], photos: int, seed: int = 0) -> Iterator[ComposedPhoto]:
    """``photos`` composed photos of 3 to 6 different cards each, drawn from ``faces``, the
    layouts in turn (:data:`LAYOUTS`), every second three turned grey; the same ``seed`` and
    faces give the same photos."""
    cards = {f.card for f in faces}
    if len(cards) < CARDS_PER_PHOTO[0]:
        raise ValueError(f"composing photos wants cut cards of at least {CARDS_PER_PHOTO[0]} different "
                         f"cards, got {len(cards)}")
    rng = np.random.default_rng(seed)
    for s in range(photos):
        n = int(rng.integers(CARDS_PER_PHOTO[0], min(CARDS_PER_PHOTO[1], len(cards)) + 1))
        chosen: list[Face] = []
        for i in rng.permutation(len(faces)):
            if all(faces[int(i)].card != f.card for f in chosen):
                chosen.append(faces[int(i)])
            if len(chosen) == n:
                break
        layout = LAYOUTS[s % len(LAYOUTS)]
        grey = s % (2 * len(LAYOUTS)) >= len(LAYOUTS)
        image, corners = compose_scene([f.image for f in chosen], rng, layout=layout)
        if grey:
            image = cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
        boxes, labels = _shown_boxes(chosen, corners, image.shape)
        yield ComposedPhoto(image, tuple(f.card for f in chosen), layout, grey, boxes, labels)


def _shown_boxes(faces: Sequence[Face], corners: Sequence[np.ndarray], shape: tuple[int, ...]
                 ) -> tuple[np.ndarray, tuple[str, ...]]:
    """The index boxes of ``faces`` laid at ``corners`` (each over those before it) in a photo of
    ``shape``, as boxes round them, where no later card covers the box's middle and it lies in
    the photo; and their cards."""
    h, w = shape[:2]
    boxes: list[np.ndarray] = []
    labels: list[str] = []
    for k, face in enumerate(faces):
        for quad in _carried(face.boxes, _FACE_RECT, corners[k]):
            mx, my = (float(v) for v in quad.mean(axis=0))
            covered = any(cv2.pointPolygonTest(np.asarray(c, np.float32), (mx, my), False) >= 0 for c in corners[k + 1:])
            if not covered and 0 <= mx < w and 0 <= my < h:
                boxes.append(np.concatenate([quad.min(axis=0), quad.max(axis=0)]))
                labels.append(face.card)
    return np.asarray(boxes, np.float32).reshape(-1, 4), tuple(labels)


def measure_composed(faces: Sequence[Face], classifier: CardClassifier, photos: int, *, seed: int = 0,
                     keep: Path | None = None, progress: Callable[[int, int], None] | None = None) -> SceneReport:
    """``recognize`` on :func:`composed_photos`, one photo at a time, counted as the scenes bench
    counts (grouped by layout and colour), each card missed told why where its index is boxed
    (:func:`~vision.scene_bench.why_missed`, untimed). ``keep``: a folder each photo is written to
    as a PNG, with a ``labels.csv`` (cards and index boxes) that ``pegpi bench scenes`` reads."""
    report = SceneReport()
    rows: list[tuple[str, str, str, str]] = []
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
    for s, photo in enumerate(composed_photos(faces, photos, seed)):
        name = f"composed-{seed}-{s:03d}.png"
        found, ms, cpu_ms = timed(partial(recognize, photo.image, classifier))
        path = Path(name) if keep is None else keep / name
        if keep is not None:
            cv2.imwrite(str(path), photo.image)
            rows.append((name, " ".join(photo.cards), photo.group, json.dumps(
                [[c, *(round(float(v), 1) for v in b)] for c, b in zip(photo.box_labels, photo.boxes, strict=True)])))
        scene = Scene(path, photo.cards, group=photo.group, boxes=photo.boxes, box_labels=photo.box_labels)
        reading = SceneReading(scene, tuple((d.card, float(d.confidence)) for d in found), ms, cpu_ms)
        if reading.missed:
            reading = replace(reading, why=why_missed(photo.image, classifier, scene, found, reading.missed))
        report.readings.append(reading)
        report.peak_mb = peak_resident_mb()
        if progress is not None:
            progress(s + 1, photos)
    if keep is not None:
        with (keep / "labels.csv").open("w", newline="") as out:
            writer = csv.writer(out)
            writer.writerow(("file", "cards", "capture_group", "boxes"))
            writer.writerows(rows)
    return report
