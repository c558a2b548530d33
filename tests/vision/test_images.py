"""Image files named on the command line: each one that cannot be read is named with its reason,
and the others are still read (pegpi classify, recognize); enrolment stores nothing until every
image reads."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from pegpi.cli import main
from vision.classify import load_default_classifier
from vision.errors import ImageFileError
from vision.images import DECODE_LONG_SIDE, high_percentile, image_files, jpeg_size, read_image, whole_median
from vision.locate import PHOTO_LONG_SIDE
from vision.recognize import read_card
from vision.render import HELDOUT_DESIGN_SEEDS, render_card


@pytest.fixture
def photos(tmp_path: Path) -> Path:
    cv2.imwrite(str(tmp_path / "8S.png"), render_card("8S", HELDOUT_DESIGN_SEEDS[5], px_per_mm=2.0))
    (tmp_path / "broken.jpg").write_bytes(b"\xff\xd8\xff\xe0 not really a jpeg")
    (tmp_path / "empty.png").write_bytes(b"")
    cv2.imwrite(str(tmp_path / "speck.png"), np.zeros((4, 30, 3), np.uint8))
    return tmp_path


@pytest.mark.parametrize("name, reason", [
    ("nothere.jpg", "no such file"),
    ("broken.jpg", "not an image OpenCV can read"),
    ("empty.png", "the file is empty"),
    ("speck.png", r"too small to hold a card \(30x4 pixels\)"),
    (".", "a folder, not an image"),
])
def test_an_image_that_cannot_be_read_is_named_with_the_reason(photos: Path, name: str, reason: str) -> None:
    with pytest.raises(ImageFileError, match=reason) as info:
        read_image(photos / name)
    assert info.value.path == str(photos / name)
    assert str(info.value).startswith(str(photos / name) + ": ")


def test_a_file_opencv_cannot_read_is_named_without_its_own_warnings(tmp_path: Path,
                                                                     capfd: pytest.CaptureFixture[str]) -> None:
    """A TIFF of float samples (a scanner's, an editor's): OpenCV's decoder prints its own warning
    to the terminal; the player sees pegpi's error alone."""
    cv2.imwrite(str(tmp_path / "scan.tiff"), np.full((60, 40, 3), 0.5, np.float32))
    capfd.readouterr()
    assert main(["classify", str(tmp_path / "scan.tiff"), "--decks", "none"]) == 2
    _out, err = capfd.readouterr()
    assert err.strip().splitlines() == [f"pegpi: error: {tmp_path / 'scan.tiff'}: not an image OpenCV can read "
                                        "(a broken file, or another kind of file; images are .png, .jpg, .jpeg, "
                                        ".bmp, .webp, .tif, .tiff)"]


def test_a_card_image_reads_as_opencv_reads_it(photos: Path) -> None:
    img = read_image(photos / "8S.png")
    assert img.dtype == np.uint8 and img.shape[2] == 3
    assert np.array_equal(img, cv2.imread(str(photos / "8S.png"), cv2.IMREAD_COLOR))


def test_a_folder_gives_the_images_under_it_in_order(photos: Path) -> None:
    sub = photos / "more"
    sub.mkdir()
    cv2.imwrite(str(sub / "a.jpg"), np.full((20, 20, 3), 200, np.uint8))
    (photos / "notes.txt").write_text("not an image")
    files = image_files([photos, photos / "notes.txt"])
    assert [f.name for f in files] == ["8S.png", "broken.jpg", "empty.png", "a.jpg", "speck.png", "notes.txt"]
    (photos / "none").mkdir()
    with pytest.raises(ImageFileError, match="a folder with no image in it"):
        image_files([photos / "none"])


def test_classify_reads_the_good_images_and_names_each_bad_one(photos: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["classify", str(photos / "8S.png"), str(photos / "broken.jpg"), str(photos / "nothere.jpg"),
                 "--decks", "none"]) == 1
    out, err = capsys.readouterr()
    [line] = out.splitlines()  # the card read, and nothing for the others on stdout
    assert line.startswith(f"{photos / '8S.png'}: 8S (")
    assert f"{photos / 'broken.jpg'}: not an image OpenCV can read" in err
    assert f"{photos / 'nothere.jpg'}: no such file" in err
    # a folder, as JSON: one row per file, the unreadable ones with their reason
    assert main(["classify", str(photos), "--json", "--decks", "none"]) == 1
    rows = {Path(r["image"]).name: r for r in json.loads(capsys.readouterr().out)}
    assert rows["8S.png"]["card"] == "8S"
    assert rows["empty.png"]["error"].endswith("the file is empty")
    assert "too small" in rows["speck.png"]["error"]


def test_nothing_readable_is_one_error_that_names_every_file(photos: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["recognize", str(photos / "broken.jpg"), str(photos / "empty.png"), "--decks", "none"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "broken.jpg: not an image" in err and "empty.png: the file is empty" in err
    assert main(["recognize", str(photos / "nothere"), "--decks", "none"]) == 2
    assert "nothere: no such file" in capsys.readouterr().err


def test_enrolment_stores_nothing_while_an_image_is_unreadable(photos: Path, tmp_path_factory: pytest.TempPathFactory,
                                                               monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    store = tmp_path_factory.mktemp("store")
    monkeypatch.setenv("PEGPI_DATA", str(store))
    assert main(["enroll", "house", str(photos / "8S.png"), str(photos / "broken.jpg"), str(photos / "empty.png"),
                 "--labels", "a,b,c"]) == 2
    err = capsys.readouterr().err
    assert "nothing enrolled" in err and "broken.jpg" in err and "empty.png" in err
    assert not (store / "decks" / "house.npz").exists()
    assert main(["enroll", "--list"]) == 0
    assert "no deck enrolled" in capsys.readouterr().out


@pytest.mark.parametrize("top", [255, 3 * 255])
def test_a_counted_median_is_the_sorted_one(top: int) -> None:
    """The locators' medians of grey levels and channel sums are counted, not sorted: the same
    figure for odd and even counts, a flat image and one of two levels."""
    rng = np.random.default_rng(7)
    samples = [rng.integers(0, top + 1, n) for n in (1, 2, 5, 6, 999, 1000)]
    samples += [np.full(40, top // 2), np.repeat([0, top], 50), rng.integers(0, top + 1, (64, 48))]
    samples += [rng.integers(0, top + 1, (301, 3))[:, 1]]  # one channel of a photo's border: strided
    for values in samples:
        values = values.astype(np.uint8 if top == 255 else np.float32)
        assert whole_median(values, top) == float(np.median(values))
    with pytest.raises(ValueError, match="no values"):
        whole_median(np.zeros(0, np.uint8))


def test_a_high_percentile_is_numpys_to_the_bit() -> None:
    """The locators' 99.5th percentiles of colour distances are picked from a sample's top, not
    from a partition of every pixel: each equals ``np.percentile`` exactly, for float32 and
    float64, any size, values repeated or spread, and any ``q`` (a low one takes the long way)."""
    rng = np.random.default_rng(11)
    for trial in range(400):
        n = int(rng.integers(1, 6000)) if trial % 4 else int(rng.integers(20_000, 80_000))
        kind = np.float32 if trial % 2 else np.float64
        values = (rng.random(n) * [1.0, 100.0, 1e6][trial % 3]).astype(kind)
        if trial % 5 == 0:
            values = np.round(values)  # many equal values
        if trial % 7 == 0:
            values = values[:n - n % 4].reshape(-1, 4)[:, :2] if n >= 8 else values  # not one block
        for q in (99.5, 99.0, 100.0, 0.0, 50.0, float(rng.random() * 100)):
            assert high_percentile(values, q) == float(np.percentile(values, q)), (trial, q)
    with pytest.raises(ValueError, match="no values"):
        high_percentile(np.zeros(0, np.float32), 99.5)


def _jpeg(path: Path, width: int, height: int, **params: int) -> Path:
    """A JPEG of a card on grey, ``width`` x ``height``, written with OpenCV's ``params``."""
    img = np.full((height, width, 3), 90, np.uint8)
    card = render_card("QS", HELDOUT_DESIGN_SEEDS[3], px_per_mm=2.0)
    h = height // 2
    card = cv2.resize(card, (h * card.shape[1] // card.shape[0], h), interpolation=cv2.INTER_LINEAR)
    img[height // 4:height // 4 + card.shape[0], width // 3:width // 3 + card.shape[1]] = card
    assert cv2.imwrite(str(path), img, [k for kv in params.items() for k in (getattr(cv2, kv[0]), kv[1])])
    return path


def test_a_jpeg_tells_its_size_before_it_is_decoded(tmp_path: Path) -> None:
    plain = _jpeg(tmp_path / "plain.jpg", 640, 480)
    progressive = _jpeg(tmp_path / "progressive.jpg", 300, 500, IMWRITE_JPEG_PROGRESSIVE=1)
    # a phone's JPEG: an EXIF block (here its turn) before the photo's own header
    phone = tmp_path / "phone.jpg"
    with Image.open(plain) as im:
        exif = im.getexif()
        exif[0x0112] = 6  # shown turned a quarter
        im.save(phone, exif=exif.tobytes())
    assert jpeg_size(np.fromfile(plain, np.uint8)) == (640, 480)
    assert jpeg_size(np.fromfile(progressive, np.uint8)) == (300, 500)
    assert jpeg_size(np.fromfile(phone, np.uint8)) == (640, 480)
    cv2.imwrite(str(tmp_path / "card.png"), np.zeros((20, 30, 3), np.uint8))
    data = np.fromfile(plain, np.uint8)
    for other in (np.fromfile(tmp_path / "card.png", np.uint8), data[:40], np.frombuffer(b"\xff\xd8\xff\xe0 not really a jpeg", np.uint8),
                  np.zeros(0, np.uint8)):
        assert jpeg_size(other) is None


def test_a_phone_photo_far_larger_than_any_reading_needs_is_decoded_smaller(tmp_path: Path) -> None:
    """A 50-200 megapixel phone photo decoded whole takes 150-600 MB before it is read; halved (or
    quartered, or an eighth) it still has DECODE_LONG_SIDE pixels or more, all a reading uses."""
    assert DECODE_LONG_SIDE >= 2 * PHOTO_LONG_SIDE  # recognize cuts cards from a copy this long
    big = read_image(_jpeg(tmp_path / "big.jpg", 2 * DECODE_LONG_SIDE + 80, 3 * DECODE_LONG_SIDE // 2))
    assert big.shape[:2] == (3 * DECODE_LONG_SIDE // 4, DECODE_LONG_SIDE + 40)
    # just under twice: decoded whole, as every smaller photo is, and as OpenCV reads it
    under = _jpeg(tmp_path / "under.jpg", 2 * DECODE_LONG_SIDE - 8, DECODE_LONG_SIDE)
    assert np.array_equal(read_image(under), cv2.imread(str(under), cv2.IMREAD_COLOR))
    # a turned phone photo is decoded smaller the way round it is shown
    turned = tmp_path / "turned.jpg"
    with Image.open(tmp_path / "big.jpg") as im:
        exif = im.getexif()
        exif[0x0112] = 6
        im.save(turned, exif=exif.tobytes(), quality=90)
    assert read_image(turned).shape[:2] == (DECODE_LONG_SIDE + 40, 3 * DECODE_LONG_SIDE // 4)
    # the card in it is read the same as from the photo decoded whole
    clf = load_default_classifier()
    assert read_card(big, clf).card == read_card(cv2.imread(str(tmp_path / "big.jpg")), clf).card == "QS"


#: the first bytes of an iPhone's HEIC photo: an ISO media ``ftyp`` box of brand ``heic``
HEIC_HEAD = b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + bytes(64)


def test_an_iphone_s_heic_photo_is_named_with_the_way_to_a_jpeg(photos: Path, tmp_path_factory: pytest.TempPathFactory,
                                                                monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """OpenCV reads no HEIC, an iPhone's own format: such a photo, alone or in a folder, is named
    with what to do, not called broken, and not passed over in a folder (a deck's photos would
    be read short without a word)."""
    (photos / "IMG_0001.HEIC").write_bytes(HEIC_HEAD)
    with pytest.raises(ImageFileError, match=r"an HEIC photo \(an iPhone's own format\).*Most Compatible"):
        read_image(photos / "IMG_0001.HEIC")
    # named .heic but a JPEG inside (saved so by a tool): read as the JPEG it is
    cv2.imwrite(str(photos / "saved.jpg"), render_card("4C", HELDOUT_DESIGN_SEEDS[1], px_per_mm=2.0))
    (photos / "saved.heic").write_bytes((photos / "saved.jpg").read_bytes())
    assert read_image(photos / "saved.heic").shape == read_image(photos / "saved.jpg").shape
    folder = photos / "phone"
    folder.mkdir()
    (folder / "IMG_0001.HEIC").write_bytes(HEIC_HEAD)
    cv2.imwrite(str(folder / "IMG_0002.jpg"), render_card("8S", HELDOUT_DESIGN_SEEDS[5], px_per_mm=2.0))
    assert [f.name for f in image_files([folder])] == ["IMG_0001.HEIC", "IMG_0002.jpg"]
    assert main(["classify", str(folder), "--decks", "none"]) == 1
    out, err = capsys.readouterr()
    assert out.startswith(f"{folder / 'IMG_0002.jpg'}: 8S (")
    assert f"{folder / 'IMG_0001.HEIC'}: an HEIC photo" in err and "Traceback" not in err
    # a deck's folder photographed on an iPhone: nothing enrolled, the HEIC named
    store = tmp_path_factory.mktemp("store")
    monkeypatch.setenv("PEGPI_DATA", str(store))
    deck = photos / "deck"
    deck.mkdir()
    (deck / "8S.heic").write_bytes(HEIC_HEAD)
    cv2.imwrite(str(deck / "9S.jpg"), render_card("9S", HELDOUT_DESIGN_SEEDS[5], px_per_mm=2.0))
    assert main(["enroll", "house", str(deck)]) == 2
    err = capsys.readouterr().err
    assert "nothing enrolled" in err and "8S.heic: an HEIC photo" in err
    assert not (store / "decks" / "house.npz").exists()
