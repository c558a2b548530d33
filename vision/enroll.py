"""Enrolment: teach the classifier a deck it was not trained on by showing each card once or a
few times (the Decktet, a fancy joker, a worn house deck).

A deck is stored on the device as ``<data>/decks/<name>.npz`` where ``<data>`` is
``$PEGPI_DATA`` or ``~/.local/share/pegpi``. It keeps the preprocessed views (so a new model can
re-embed them), their labels, their embeddings and the model they came from. Recognition then
takes the label of the nearest enrolled view when its cosine similarity reaches the threshold.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from games.errors import PegpiError
from vision.classify import preprocess

#: Cosine similarity an enrolled view must reach to be recognised (see models/MODEL_CARD.md).
DEFAULT_THRESHOLD = 0.8
_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.-]{0,63}$")


class EnrolError(PegpiError):
    """A deck cannot be enrolled or loaded."""


def data_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """Where enrolled decks live: ``override``, ``$PEGPI_DATA/decks`` or ``~/.local/share/pegpi/decks``."""
    if override is not None:
        return Path(override)
    root = os.environ.get("PEGPI_DATA")
    return (Path(root) if root else Path.home() / ".local" / "share" / "pegpi") / "decks"


def model_id(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


@dataclass
class EnrolledDeck:
    """Enrolled views of a deck: ``labels[i]`` is the card shown in ``views[i]`` (preprocessed,
    uint8 176x128x3) whose embedding under model ``model`` is ``embeddings[i]``."""

    name: str
    labels: list[str]
    views: np.ndarray
    embeddings: np.ndarray
    model: str
    threshold: float = DEFAULT_THRESHOLD
    _cache: dict[str, np.ndarray] = field(default_factory=dict, repr=False)

    def embeddings_for(self, classifier: Any) -> np.ndarray:
        """Embeddings under ``classifier``'s model (re-computed from the views if it differs)."""
        mid = model_id(classifier.model_path)
        if mid == self.model:
            return self.embeddings
        if mid not in self._cache:
            self._cache[mid] = classifier.embed(list(self.views))
        return self._cache[mid]

    def save(self, folder: str | os.PathLike[str] | None = None) -> Path:
        path = data_dir(folder) / f"{self.name}.npz"
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp.npz")
        np.savez_compressed(tmp, labels=np.array(self.labels), views=self.views, embeddings=self.embeddings,
                            model=np.array(self.model), threshold=np.array(self.threshold))
        os.replace(tmp, path)
        return path

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> EnrolledDeck:
        with np.load(path) as z:
            return cls(name=Path(path).stem, labels=[str(x) for x in z["labels"]], views=z["views"],
                       embeddings=z["embeddings"].astype(np.float32), model=str(z["model"]),
                       threshold=float(z["threshold"]))


def enroll(classifier: Any, name: str, crops: Sequence[np.ndarray], labels: Sequence[str], *,
           threshold: float = DEFAULT_THRESHOLD, folder: str | os.PathLike[str] | None = None,
           save: bool = True, merge: bool = True) -> EnrolledDeck:
    """Enrol ``crops`` (upright card images, one or a few per card) as deck ``name``.

    With ``merge`` the views are added to an already enrolled deck of that name. The deck is
    saved unless ``save`` is false; it is returned either way (``classifier.add_deck`` uses it)."""
    if not _NAME_RE.match(name):
        raise EnrolError(f"a deck name is letters, digits, spaces, '-', '_' or '.', not {name!r}")
    if len(crops) != len(labels) or not crops:
        raise EnrolError(f"{len(crops)} images but {len(labels)} labels: give one label per image")
    views = np.stack([preprocess(c) for c in crops])
    emb = classifier.embed(list(crops))
    deck = EnrolledDeck(name, [str(lb) for lb in labels], views, emb, model_id(classifier.model_path), threshold)
    path = data_dir(folder) / f"{name}.npz"
    if merge and path.exists():
        old = EnrolledDeck.load(path)
        deck = EnrolledDeck(name, old.labels + deck.labels, np.concatenate([old.views, views]),
                            np.concatenate([old.embeddings_for(classifier), emb]), deck.model, threshold)
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
