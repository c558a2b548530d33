"""Enrolment: teach the classifier a deck it was not trained on by showing each card once or a
few times (the Decktet, a fancy joker, a worn house deck).

A deck is stored on the device as ``<data>/decks/<name>.npz`` where ``<data>`` is
``$PEGPI_DATA`` or ``~/.local/share/pegpi``. It keeps the preprocessed views (so a new model can
re-embed them), their labels, their embeddings and the model they came from. Recognition then
takes the label of the nearest enrolled view when its cosine similarity reaches the threshold.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np
from numpy.typing import NDArray

from games.jsontypes import JSONObject
from vision.errors import EnrolError
from vision.model_input import Image, preprocess

Floats = NDArray[np.float32]

#: Cosine similarity an enrolled view must reach to be recognised, for a model whose
#: ``cards.json`` records none.
DEFAULT_THRESHOLD = 0.94
#: Non-card views (table, clutter, hands, blank paper) every gallery holds as ``unknown``.
NEGATIVE_VIEWS = 160
#: Synthetic variants made of each enrolled view (see :func:`augment_views`).
DEFAULT_AUGMENT = 24
_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.-]{0,63}$")


class Embedder(Protocol):
    """What enrolment needs of a classifier: its model's id and facts, and its descriptors."""

    @property
    def model_id(self) -> str: ...

    @property
    def meta(self) -> JSONObject: ...

    def embed(self, crops: Sequence[Image]) -> Floats: ...


def data_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """Where enrolled decks live: ``override``, ``$PEGPI_DATA/decks`` or ``~/.local/share/pegpi/decks``."""
    if override is not None:
        return Path(override)
    root = os.environ.get("PEGPI_DATA")
    return (Path(root) if root else Path.home() / ".local" / "share" / "pegpi") / "decks"


def model_threshold(classifier: Embedder) -> float:
    """The similarity an enrolled view must reach under ``classifier``'s model: the threshold its
    ``cards.json`` records (calibrated by :mod:`vision.train.enrol_calib`: each model's
    descriptors lie at similarities of their own), else :data:`DEFAULT_THRESHOLD`."""
    return float(classifier.meta.get("enrolment", {}).get("threshold", DEFAULT_THRESHOLD))


def augment_views(view: np.ndarray, n: int, seed: int) -> list[np.ndarray]:
    """``view`` (preprocessed 176x128 BGR) and ``n`` variants of it, deterministic per seed: what
    the camera could make of the same card another time. Each variant moves the card in its
    crop (shift, scale, tilt and a residual perspective, as a crop from the table is) and then
    goes through the renderer's camera model (light, white balance, shadow, glare, blur, noise,
    JPEG) at a random severity; every other one is turned 180 degrees."""
    from vision.render.photo import camera  # the renderer loads fonts: only when enrolling

    rng = np.random.default_rng([seed, 99])
    h, w = view.shape[:2]
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    out = [view]
    for i in range(n):
        scale = rng.uniform(0.94, 1.06)
        dst = (src - [w / 2, h / 2]) * [scale * rng.uniform(0.97, 1.03), scale] + [w / 2, h / 2]
        dst += rng.normal(0, 0.012 * w, (4, 2)) + rng.normal(0, 0.025 * w, 2)
        ang = np.radians(rng.normal(0, 1.5))
        c = dst.mean(axis=0)
        rot = np.array([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]])
        dst = ((dst - c) @ rot.T + c).astype(np.float32)
        v = cv2.warpPerspective(view, cv2.getPerspectiveTransform(src, dst), (w, h), borderMode=cv2.BORDER_REPLICATE)
        v = camera(v, rng, float(rng.uniform(0.3, 1.0)))
        out.append(np.ascontiguousarray(v[::-1, ::-1] if i % 2 else v))
    return out


@functools.lru_cache(maxsize=1)
def negative_views(n: int = NEGATIVE_VIEWS, seed: int = 2718) -> tuple[np.ndarray, ...]:
    """Crops with no card in them, the same every time (the renderer's non-card generator)."""
    from vision.render.photo import non_card_crop  # the renderer loads fonts: only when enrolling

    rng = np.random.default_rng([seed, 7])
    return tuple(preprocess(non_card_crop(rng)) for _ in range(n))


_NEGATIVES: dict[str, np.ndarray] = {}


def negative_embeddings(classifier: Embedder) -> np.ndarray:
    """:func:`negative_views` embedded by ``classifier``'s model (once per model)."""
    mid = classifier.model_id
    if mid not in _NEGATIVES:
        _NEGATIVES[mid] = classifier.embed(list(negative_views()))
    return _NEGATIVES[mid]


@dataclass
class EnrolledDeck:
    """Enrolled views of a deck: ``labels[i]`` is the card shown in ``views[i]`` (preprocessed,
    uint8 176x128x3). Each view is expanded into ``1 + augment`` variants; ``embeddings`` (under
    model ``model``) has one row per variant, labelled by :attr:`all_labels`."""

    name: str
    labels: list[str]
    views: np.ndarray
    embeddings: np.ndarray
    model: str
    threshold: float = DEFAULT_THRESHOLD
    augment: int = DEFAULT_AUGMENT
    _cache: dict[str, np.ndarray] = field(default_factory=dict, repr=False)

    @property
    def all_labels(self) -> list[str]:
        return [lb for lb in self.labels for _ in range(1 + self.augment)]

    def expanded_views(self) -> list[np.ndarray]:
        return [v for i, view in enumerate(self.views) for v in augment_views(view, self.augment, i)]

    def embeddings_for(self, classifier: Embedder) -> np.ndarray:
        """Embeddings under ``classifier``'s model (re-computed from the views if it differs)."""
        mid = classifier.model_id
        if mid == self.model and len(self.embeddings) == len(self.all_labels):
            return self.embeddings
        if mid not in self._cache:
            self._cache[mid] = classifier.embed(self.expanded_views())
        return self._cache[mid]

    def threshold_for(self, classifier: Embedder) -> float:
        """The deck's threshold if it was set under ``classifier``'s model, else that model's
        (thresholds belong to a model's descriptor)."""
        return self.threshold if classifier.model_id == self.model else model_threshold(classifier)

    def save(self, folder: str | os.PathLike[str] | None = None) -> Path:
        path = data_dir(folder) / f"{self.name}.npz"
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp.npz")
        np.savez_compressed(tmp, labels=np.array(self.labels), views=self.views, embeddings=self.embeddings,
                            model=np.array(self.model), threshold=np.array(self.threshold),
                            augment=np.array(self.augment))
        os.replace(tmp, path)
        return path

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> EnrolledDeck:
        with np.load(path) as z:
            return cls(name=Path(path).stem, labels=[str(x) for x in z["labels"]], views=z["views"],
                       embeddings=z["embeddings"].astype(np.float32), model=str(z["model"]),
                       threshold=float(z["threshold"]), augment=int(z["augment"]) if "augment" in z else 0)


def enroll(classifier: Embedder, name: str, crops: Sequence[np.ndarray], labels: Sequence[str], *,
           threshold: float | None = None, folder: str | os.PathLike[str] | None = None,
           save: bool = True, merge: bool = True, augment: int = DEFAULT_AUGMENT) -> EnrolledDeck:
    """Enrol ``crops`` (upright card images, one or a few per card) as deck ``name``; a view is
    recognised from a similarity of ``threshold`` (None: the model's, :func:`model_threshold`).

    With ``merge`` the views are added to an already enrolled deck of that name. The deck is
    saved unless ``save`` is false; it is returned either way (``classifier.add_deck`` uses it)."""
    if not _NAME_RE.match(name):
        raise EnrolError(f"a deck name is letters, digits, spaces, '-', '_' or '.', not {name!r}")
    if len(crops) != len(labels) or not crops:
        raise EnrolError(f"{len(crops)} images but {len(labels)} labels: give one label per image")
    views = np.stack([preprocess(c) for c in crops])
    path = data_dir(folder) / f"{name}.npz"
    all_labels, all_views = [str(lb) for lb in labels], views
    if merge and path.exists():
        old = EnrolledDeck.load(path)
        all_labels, all_views = old.labels + all_labels, np.concatenate([old.views, views])
    deck = EnrolledDeck(name, all_labels, all_views, np.zeros((0, 1), np.float32), classifier.model_id,
                        model_threshold(classifier) if threshold is None else threshold, augment)
    deck.embeddings = classifier.embed(deck.expanded_views())
    if save:
        deck.save(folder)
    return deck


def list_decks(folder: str | os.PathLike[str] | None = None) -> list[str]:
    d = data_dir(folder)
    return sorted(p.stem for p in d.glob("*.npz") if not p.name.endswith(".tmp.npz")) if d.exists() else []


def load_decks(names: Sequence[str] | None = None, *, data_dir: str | os.PathLike[str] | None = None) -> list[EnrolledDeck]:
    """The enrolled decks called ``names`` (all of them when ``None``)."""
    folder = globals()["data_dir"](data_dir)
    wanted = list_decks(folder) if names is None else list(names)
    decks = []
    for n in wanted:
        path = folder / f"{n}.npz"
        if not path.exists():
            raise EnrolError(f"no enrolled deck {n!r} in {folder} (enrolled: {', '.join(list_decks(folder)) or 'none'})")
        decks.append(EnrolledDeck.load(path))
    return decks


def remove_deck(name: str, folder: str | os.PathLike[str] | None = None) -> bool:
    path = data_dir(folder) / f"{name}.npz"
    if path.exists():
        path.unlink()
        return True
    return False
