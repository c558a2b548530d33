"""The commercial-style reference decks: file names to card ids, face size and alpha, errors.

No network: each test lays a fake extracted npm package in ``tmp_path`` (small PNGs or SVGs,
each card's colour encoding which card it is), which ``load_deck`` finds and never calls npm.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.errors import DeckError
from vision.render import CARD_IDS, card_alpha
from vision.render import commercial as cm

KEYS = CARD_IDS + ("back",)


def colour(card: str) -> tuple[int, int, int]:
    """A BGR colour of its own for each card (and the back)."""
    i = KEYS.index(card)
    return (30 + 4 * i, 250 - 3 * i, (97 * i) % 200 + 20)


def fake_package(name: str, cache: Path, shade: int = 0) -> Path:
    """Deck ``name``'s package as npm would extract it, each file drawn in its card's colour
    (less ``shade``): PNGs with transparent rounded corners, or SVGs on a square opaque
    background, sized in pixels or, as Kennard's are, in inches."""
    root = cm.package_dir(name, cache)
    size = 'width="0.47in" height="0.66in"' if name.startswith("kennard") else 'width="45" height="63"'
    for card, rel in cm.deck_files(name).items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        b, g, r = (c - shade for c in colour(card))
        if path.suffix == ".png":
            img = np.zeros((245, 169, 4), np.uint8)  # half Bellot's 338x489, transparent corners
            img[..., :3] = (b, g, r)
            img[..., 3] = card_alpha(245, 169, 10)
            cv2.imwrite(str(path), img)
        else:
            path.write_text(
                f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 45 63" {size}>'
                f'<rect width="100%" height="100%" fill="rgb({r},{g},{b})"/>'
                '<circle cx="22" cy="31" r="5" fill="#000"/></svg>', encoding="utf-8")
    return root


@pytest.fixture
def no_npm(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any call to npm fails the test: the package must come from the cache."""
    def boom(*args: object, **kwargs: object) -> None:
        raise AssertionError("npm called")

    monkeypatch.setattr(cm.npm.subprocess, "run", boom)


def test_the_decks_map_their_files() -> None:
    assert cm.COMMERCIAL_DECKS == ("bellot", "cardsjs", "aguilar", "kennard", "kennard-jumbo", "kennard-four-colour")
    bellot, cardsjs, aguilar, kennard, jumbo, four = (cm.deck_files(n) for n in cm.COMMERCIAL_DECKS)
    assert set(bellot) == set(KEYS)
    assert bellot["AS"] == "package/png/2x/spade_1.png"
    assert bellot["10H"] == "package/png/2x/heart_10.png"
    assert bellot["QD"] == "package/png/2x/diamond_queen.png"
    assert bellot["RJ"] == "package/png/2x/joker_red.png" and bellot["BJ"] == "package/png/2x/joker_black.png"
    assert set(cardsjs) == set(KEYS) - {"RJ", "BJ"}
    assert cardsjs["10C"] == "package/cards/10C.svg" and cardsjs["JS"] == "package/cards/JS.svg"
    assert cardsjs["back"] == "package/cards/Red_Back.svg"
    assert set(aguilar) == set(KEYS) - {"BJ"}
    assert aguilar["AS"] == "package/cards/1s.svg" and aguilar["KH"] == "package/cards/13h.svg"
    assert aguilar["JD"] == "package/cards/11d.svg" and aguilar["7C"] == "package/cards/7c.svg"
    assert aguilar["RJ"] == "package/cards/joker.svg"
    assert set(kennard) == set(jumbo) == set(four) == set(KEYS) - {"RJ"}
    assert kennard["10D"] == "package/src/images/2color/TD.svg" and kennard["QS"] == "package/src/images/2color/QS.svg"
    assert jumbo["AH"] == "package/src/images/2color-bf/AH.svg" and four["7C"] == "package/src/images/4color/7C.svg"
    assert kennard["BJ"] == "package/src/images/2color/2J.svg" and four["back"] == "package/src/images/back.svg"
    # one npm package holds all three Kennard decks
    assert cm.package_dir("kennard", Path("c")) == cm.package_dir("kennard-jumbo", Path("c"))


@pytest.mark.parametrize("name", ["bellot", "aguilar", "kennard"])
def test_load_deck_from_an_extracted_package(name: str, tmp_path: Path, no_npm: None) -> None:
    fake_package(name, tmp_path)
    faces = cm.load_deck(name, px_per_mm=2.0, cache=tmp_path)
    assert set(faces) == set(cm.deck_files(name))
    for card, face in faces.items():
        assert face.shape == (176, 126, 4) and face.dtype == np.uint8  # round(88 * 2), round(63 * 2)
        assert (face[0, 0, 3], face[0, -1, 3], face[-1, 0, 3], face[-1, -1, 3]) == (0, 0, 0, 0)
        assert (face[60:70, 20:30, 3] == 255).all()
        # the right file went to the right card: its colour, away from the SVGs' black spot
        assert np.abs(face[40, 30, :3].astype(int) - colour(card)).max() <= 2, card
    # the second load reads the cached rasters, and an odd resolution gives the exact size
    assert all(np.array_equal(faces[c], f) for c, f in cm.load_deck(name, px_per_mm=2.0, cache=tmp_path).items())
    assert cm.load_deck(name, px_per_mm=2.7, cache=tmp_path)["AS"].shape == (238, 170, 4)


def test_decks_sharing_a_package_keep_their_own_faces(tmp_path: Path, no_npm: None) -> None:
    fake_package("kennard", tmp_path)
    fake_package("kennard-jumbo", tmp_path, shade=20)
    plain = cm.load_deck("kennard", px_per_mm=2.0, cache=tmp_path)
    jumbo = cm.load_deck("kennard-jumbo", px_per_mm=2.0, cache=tmp_path)
    for card in ("AS", "10D", "BJ"):
        assert np.abs(plain[card][40, 30, :3].astype(int) - colour(card)).max() <= 2
        assert np.abs(jumbo[card][40, 30, :3].astype(int) - np.subtract(colour(card), 20)).max() <= 2
    # and from the cache, each its own again
    assert np.array_equal(cm.load_deck("kennard-jumbo", px_per_mm=2.0, cache=tmp_path)["AS"], jumbo["AS"])


def test_a_missing_file_is_named(tmp_path: Path, no_npm: None) -> None:
    root = fake_package("cardsjs", tmp_path)
    (root / "package" / "cards" / "QH.svg").unlink()
    with pytest.raises(DeckError, match="QH.svg"):
        cm.load_deck("cardsjs", cache=tmp_path)


def test_unknown_deck_is_named() -> None:
    with pytest.raises(DeckError, match=r"unknown commercial deck 'bicycle'.*bellot, cardsjs, aguilar"):
        cm.load_deck("bicycle")


def test_without_npm_the_error_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.setenv("npm_config_registry", "http://127.0.0.1:9")  # no registry either
    with pytest.raises(DeckError, match=r"npm is not installed.*svg-cards@4\.0\.2"):
        cm.load_deck("bellot", cache=tmp_path)


def test_a_failing_npm_shows_its_stderr(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    npm = bin_dir / "npm"
    npm.write_text("#!/bin/sh\necho 'npm error code E404' >&2\necho 'npm error 404 Not Found' >&2\nexit 1\n")
    npm.chmod(0o755)
    monkeypatch.setenv("PATH", str(bin_dir))
    with pytest.raises(DeckError, match=r"(?s)npm pack cardsJS@1\.1\.1.*exit code 1.*404 Not Found"):
        cm.load_deck("cardsjs", cache=tmp_path / "cache")
    assert not (cm.package_dir("cardsjs", tmp_path / "cache") / "package").exists()


def test_default_cache_follows_pegpi_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PEGPI_DATA", str(tmp_path))
    assert cm.default_cache() == tmp_path / "commercial-decks"
    monkeypatch.delenv("PEGPI_DATA")
    assert cm.default_cache() == Path.home() / ".cache" / "pegpi" / "commercial-decks"


def test_square_opaque_artwork_gets_rounded_corners() -> None:
    art = np.full((63, 45, 4), 255, np.uint8)
    face = cm.card_face(art, 3.0)
    assert face.shape == (264, 189, 4)
    assert face[0, 0, 3] == 0 and face[1, 2, 3] == 0 and face[-1, -1, 3] == 0
    assert face[0, 94, 3] == 255 and face[132, 0, 3] == 255
