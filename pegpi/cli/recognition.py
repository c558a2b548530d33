"""Card recognition commands: ``pegpi classify``, ``pegpi recognize``, ``pegpi enroll``,
``pegpi bench photos`` and ``pegpi bench recognition`` (whose bench is :mod:`vision.bench`)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from games.errors import PegpiError
from vision.bench import DESIGN_POOLS, SECTIONS

if TYPE_CHECKING:  # the model and OpenCV load only when a command reads images
    import numpy as np

    from vision.classify import OnnxCardClassifier
    from vision.errors import ImageFileError
    from vision.recognize import Detection

    #: how a photo command reads one image: its row of output
    ReadImage = Callable[[OnnxCardClassifier, Path, np.ndarray], dict[str, Any]]


def register(commands: Any, benches: Any) -> None:
    p = commands.add_parser("classify", help="read images of one card each (upright crops, or loose photos of one card)")
    p.add_argument("images", nargs="+", type=Path, help="images, or folders of them")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--decks", default=None,
                   help="enrolled decks to use, comma-separated (default: all enrolled; 'none' for none)")
    p.set_defaults(func=cmd_classify, **PHOTO_HEAP)

    p = commands.add_parser("recognize", help="find and read every card in photos")
    p.add_argument("images", nargs="+", type=Path, help="photos, or folders of them")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--decks", default=None, help="enrolled decks to use (default: all; 'none')")
    p.add_argument("--min-confidence", type=float, default=0.5)
    p.add_argument("--draw", type=Path, default=None, help="folder to write the images with the cards drawn")
    p.set_defaults(func=cmd_recognize, **PHOTO_HEAP)

    p = commands.add_parser("enroll", help="teach the recogniser a new deck (one or a few images per card)")
    p.add_argument("deck", nargs="?", help="deck name, e.g. decktet")
    p.add_argument("images", nargs="*", type=Path,
                   help="card images, or folders holding LABEL/*.jpg or LABEL.jpg (the label is the card's name)")
    p.add_argument("--labels", default=None,
                   help="one label per image, separated by commas (e.g. 'the Author, Ace of Moons')")
    p.add_argument("--replace", action="store_true", help="forget earlier views of this deck")
    p.add_argument("--threshold", type=float, default=None, help="descriptor similarity needed to recognise an enrolled card (default: the model's, "
                        "from its cards.json)")
    p.add_argument("--list", action="store_true", help="list the enrolled decks")
    p.add_argument("--remove", action="store_true", help="remove the deck")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_enroll)

    b = benches.add_parser("photos", help="card model on photos of real cards, each named after its card "
                                              "(QS.jpg, QS_2.jpg or QS/any.jpg): top-1, confident mistakes, confusions")
    b.add_argument("paths", nargs="+", type=Path, help="photos, or folders of them")
    b.add_argument("--crops", action="store_true",
                   help="the photos are upright crops of one card (as the table cuts them), not photos with "
                        "background round a card at any angle")
    b.add_argument("--recognize", action="store_true",
                   help="read each photo as `pegpi recognize` does (its surest card), not as `pegpi classify`")
    b.add_argument("--every", type=int, default=1, metavar="N",
                   help="read every Nth photo only, in name order (a quicker sample)")
    _photo_options(b)
    b.add_argument("--model", type=Path, default=None, help="another ONNX card model (default: the shipped one)")
    b.add_argument("--decks", default="none",
                   help="enrolled decks to use, comma-separated, or 'all' (default: none; their cards' names "
                        "are then labels too)")
    b.add_argument("--json", action="store_true")
    b.set_defaults(func=cmd_bench_photos, **PHOTO_HEAP)

    b = benches.add_parser("scenes", help="recognize on photos of several real cards listed in the folder's "
                                          "labels.csv: cards found, wrong readings, confident mistakes")
    b.add_argument("folder", type=Path, help="a folder of photos with a labels.csv (columns file, cards)")
    b.add_argument("--every", type=int, default=1, metavar="N", help="read every Nth listed photo only")
    _photo_options(b)
    b.add_argument("--model", type=Path, default=None, help="another ONNX card model (default: the shipped one)")
    b.add_argument("--json", action="store_true")
    b.set_defaults(func=cmd_bench_scenes, **PHOTO_HEAP)

    b = benches.add_parser("composed", help="recognize on photos composed of real cards cut from labelled photos "
                                            "of single cards: apart, in a row, in a held fan, in colour and grey")
    b.add_argument("paths", nargs="+", type=Path, help="labelled photos of one card each, or folders of them "
                                                       "(named as for `pegpi bench photos`)")
    b.add_argument("--photos", type=int, default=90, help="photos to compose (90: 15 of each layout and colour)")
    b.add_argument("--seed", type=int, default=0, help="which photos are composed")
    b.add_argument("--keep", type=Path, default=None, metavar="DIR",
                   help="write the composed photos here with a labels.csv, for `pegpi bench scenes DIR`")
    b.add_argument("--model", type=Path, default=None, help="another ONNX card model (default: the shipped one)")
    b.add_argument("--json", action="store_true")
    b.set_defaults(func=cmd_bench_composed, **PHOTO_HEAP)

    b = benches.add_parser("finder", help="the index finder on photos whose CSV lists the boxes round their printed "
                                          "corner indices: boxes found, marks right, time a photo")
    b.add_argument("folders", nargs="+", type=Path, help="folders of photos with a labels.csv or index.csv "
                                                          "(columns file and boxes)")
    b.add_argument("--threshold", type=float, default=None, help="the heat a mark needs (default: the product's)")
    b.add_argument("--json", action="store_true")
    b.set_defaults(func=cmd_bench_finder, **PHOTO_HEAP)

    b = benches.add_parser("enrolment", help="a deck taught at the simulated table through the phone's enrolment "
                                             "wizard, then read from table frames before and after")
    b.add_argument("--deck", default="decktet",
                   help="decktet (Decktet-like, the model reads none of it) or a commercial-style French deck: "
                        "bellot, cardsjs, aguilar, kennard, kennard-jumbo, kennard-four-colour (fetched once with npm)")
    b.add_argument("--deals", type=int, default=63, help="tables of 16 cards read before and after (63: 1008 cards)")
    b.add_argument("--hands", action="store_true", help="lay each card by hand (slower to render)")
    b.add_argument("--seed", type=int, default=0)
    b.add_argument("--json", action="store_true")
    b.set_defaults(func=cmd_bench_enrolment)

    b = benches.add_parser("mat", help="cards of designs never trained on, dealt on a mat of any paper and read "
                                       "through a camera of any size: read right, asked about, recorded wrong")
    b.add_argument("--paper", default="A3", help="the mat's paper: A4, A3, A2 or A1 (default A3)")
    b.add_argument("--camera", default="1280x720", help="the camera's frame, WIDTHxHEIGHT (default 1280x720)")
    b.add_argument("--designs", type=int, default=64, help="deals of 16 cards, one held-out design each (64)")
    b.add_argument("--pool", default="bench", help="the designs' pool: bench (default), selection or confirm")
    b.add_argument("--seed", type=int, default=0)
    b.add_argument("--json", action="store_true")
    b.set_defaults(func=cmd_bench_mat)

    b = benches.add_parser("recognition", help="card model: held-out accuracy, latency, size, enrolment")
    b.add_argument("--json", action="store_true")
    b.add_argument("--model", type=Path, default=None, help="another ONNX card model (default: the shipped one)")
    b.add_argument("--designs", type=int, default=64,
                   help="held-out designs to test (64 by default, up to 256: more crops, a figure with less luck in it)")
    b.add_argument("--pool", default="bench", choices=tuple(DESIGN_POOLS),
                   help="the designs: the bench's (default), those kept for choosing between trained models, whose "
                        "figures are never reported, or those kept for confirming a choice once (see models/MODEL_CARD.md)")
    b.add_argument("--scenes", type=int, default=30, help="composed photos for recognize (scatter, row, held fan in turn)")
    b.add_argument("--loose", type=int, default=256,
                   help="loose photos of one card (background round it, any angle) for `pegpi classify`")
    b.add_argument("--loose-changes", default="", metavar="NAMES",
                   help="read each loose photo again changed so, comma-separated names as `pegpi bench photos "
                        "--change` takes (shaken, webcam, small, ...): decks never trained on under a phone's "
                        "blur or a webcam's noise")
    b.add_argument("--hidden", type=int, default=512,
                   help="cards of which only the index shows (in a row or a held fan), read from the index alone")
    b.add_argument("--commercial", type=int, default=4, metavar="N",
                   help="table crops per card of each commercial-style reference deck (0 skips them; "
                        "the decks are fetched once with npm)")
    b.add_argument("--commercial-scenes", type=int, default=6, metavar="N",
                   help="composed photos per commercial-style deck for recognize (laid apart, a row, a held fan in turn)")
    b.add_argument("--only", default=None, metavar="SECTIONS",
                   help=f"run only these sections, comma-separated: {', '.join(SECTIONS)}")
    b.add_argument("--seed", type=int, default=0)
    b.set_defaults(func=cmd_bench)


def _image_files(paths: list[Path]) -> list[Path]:
    """The image files the arguments name (folders give the images under them)."""
    from vision.errors import ImageFileError
    from vision.images import image_files

    try:
        return image_files(paths)
    except ImageFileError as exc:
        raise PegpiError(str(exc)) from None


def _each_image(files: list[Path]) -> Iterator[tuple[Path, np.ndarray | ImageFileError]]:
    """Each file read as it comes (one photo in memory at a time), or the
    :class:`ImageFileError` that says why it cannot be; the heap's free pages are handed back
    after each when many lie free (see :data:`PHOTO_SLACK_MB`)."""
    from device.memory import release_free_memory
    from vision.errors import ImageFileError
    from vision.images import read_image

    for path in files:
        try:
            yield path, read_image(path)
        except ImageFileError as exc:
            yield path, exc
        release_free_memory(above_mb=PHOTO_SLACK_MB)


#: the commands that read photos one at a time keep glibc's own heap (``photo_heap``: the
#: command line does not map every big block apart, :func:`device.memory.map_big_blocks`): a
#: photo's reading makes and frees hundreds of arrays of a megabyte or so, and mapping each apart
#: (and faulting its pages in afresh) made `classify` half as slow again (76 -> 124 ms a photo),
#: at the same peak memory
PHOTO_HEAP = {"photo_heap": True}
#: after a photo the heap's free pages are handed back only past this many megabytes: a photo
#: of one card leaves about 70 MB free (93 at most), which the next one takes again; handed
#: back past 64 MB, 211 of the 381 singles paid 8 ms each in faults
PHOTO_SLACK_MB = 96.0


def _unread(rows: list[dict[str, Any]]) -> int:
    """Why each image that could not be read was not, printed to stderr: 1 if there was one. When
    none could be read there is nothing else to show: a :class:`PegpiError` naming each."""
    bad = [row for row in rows if "error" in row]
    if bad and len(bad) == len(rows):
        raise PegpiError("; ".join(row["error"] for row in bad))
    for row in bad:
        print(f"pegpi: error: {row['error']}", file=sys.stderr)
    return 1 if bad else 0


def _classifier(decks: str | None, model: Path | None = None) -> OnnxCardClassifier:
    """The card model (``model``, or the shipped one) with the enrolled decks ``decks`` names:
    comma-separated, ``"none"``, or ``"all"`` (``None`` too)."""
    from vision.classify import OnnxCardClassifier
    from vision.enroll import load_decks

    choice = (decks or "all").strip().lower()
    names = None if choice == "all" else [d.strip() for d in (decks or "").split(",") if d.strip()]
    try:
        return OnnxCardClassifier(model, decks=[] if choice == "none" else load_decks(names))
    except FileNotFoundError as exc:
        raise PegpiError(str(exc)) from None


def _rows(args: argparse.Namespace, read: ReadImage) -> list[dict[str, Any]]:
    """One row per image the arguments name: ``{"image", **read(classifier, path, image)}``, or
    ``{"image", "error"}`` for a file that cannot be read. The file list (and a folder with no
    image) is checked before the model loads."""
    files = _image_files(args.images)
    clf = _classifier(args.decks)
    return [{"image": str(path), "error": str(img)} if isinstance(img, Exception)
            else {"image": str(path), **read(clf, path, img)}
            for path, img in _each_image(files)]


def cmd_classify(args: argparse.Namespace) -> int:
    from vision.recognize import read_card

    def read(clf: OnnxCardClassifier, path: Path, img: np.ndarray) -> dict[str, Any]:
        d = read_card(img, clf)
        return {"card": d.card, "confidence": round(d.confidence, 4), "corners": d.as_dict()["corners"]}

    rows = _rows(args, read)
    code = _unread(rows)
    if args.json:
        print(json.dumps(rows if len(rows) > 1 else rows[0], indent=2))
    else:
        for row in rows:
            if "error" not in row:
                print(f"{row['image']}: {row['card']} ({row['confidence']:.3f}{_unsure(row['confidence'])})")
    return code


def cmd_recognize(args: argparse.Namespace) -> int:
    from vision.recognize import recognize

    def read(clf: OnnxCardClassifier, path: Path, img: np.ndarray) -> dict[str, Any]:
        found = recognize(img, clf, min_confidence=args.min_confidence)
        if args.draw is not None:
            _draw(img, found, args.draw / (path.stem + ".recognized.png"))
        return {"cards": [d.as_dict() for d in found]}

    out = _rows(args, read)
    code = _unread(out)
    if args.json:
        print(json.dumps(out[0]["cards"] if len(out) == 1 else out, indent=2))
    else:
        for item in out:
            if "error" not in item:
                cards = ", ".join(f"{c['card']} ({c['confidence']:.2f}{_unsure(c['confidence'])})"
                                  for c in item["cards"]) or "no card"
                print(f"{item['image']}: {cards}")
    return code


def _unsure(confidence: float) -> str:
    """What follows a reading's confidence in the commands' text: ", unsure" for one held below
    sure (:data:`vision.doubt.DOUBT` or under, where every doubt of the photo commands leaves a
    reading), so a reader sees which to check. The table asks about more: anything under its
    ``[table] confidence`` (:data:`vision.api.ASK_BELOW`)."""
    from vision.doubt import DOUBT

    return ", unsure" if confidence <= DOUBT else ""


def _draw(img: np.ndarray, found: list[Detection], path: Path) -> None:
    import cv2
    import numpy as np

    canvas = img.copy()
    for d in found:
        q = d.corners.astype(np.int32)
        cv2.polylines(canvas, [q], True, (0, 200, 0), 2, cv2.LINE_AA)
        cv2.circle(canvas, tuple(int(v) for v in q[0]), 5, (0, 0, 255), -1)
        cv2.putText(canvas, f"{d.card} {d.confidence:.2f}", (int(q[0][0]), int(q[0][1]) - 6),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.7, (0, 0, 255), 2, cv2.LINE_AA)
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), canvas)


def _collect(images: list[Path], labels: str | None) -> tuple[list[Path], list[str]]:
    from vision.api import LISTED_EXT

    files: list[Path] = []
    names: list[str] = []
    explicit = [x.strip() for x in labels.replace(";", ",").split(",") if x.strip()] if labels else None
    for item in images:
        if item.is_dir():
            for sub in sorted(item.iterdir()):
                if sub.is_dir():
                    for f in sorted(sub.iterdir()):
                        if f.suffix.lower() in LISTED_EXT:
                            files.append(f)
                            names.append(sub.name)
                elif sub.suffix.lower() in LISTED_EXT:
                    files.append(sub)
                    names.append(sub.stem.rsplit("_", 1)[0] if sub.stem.rsplit("_", 1)[-1].isdigit() else sub.stem)
        else:
            files.append(item)
            names.append(item.stem)
    if explicit is not None:
        if len(explicit) != len(files):
            raise PegpiError(f"{len(files)} images but {len(explicit)} labels: give one label per image")
        names = explicit
    return files, names


def cmd_enroll(args: argparse.Namespace) -> int:
    from vision import enroll as en

    if args.list:
        decks = en.load_decks()
        rows = [{"deck": d.name, "views": len(d.labels), "cards": len(set(d.labels))} for d in decks]
        if args.json:
            print(json.dumps(rows, indent=2))
        else:
            for r in rows:
                print(f"{r['deck']}: {r['cards']} cards, {r['views']} views")
            if not rows:
                print(f"no deck enrolled (in {en.data_dir()})")
        return 0
    if not args.deck:
        raise PegpiError("name the deck to enrol, e.g. `pegpi enroll decktet photos/`")
    if args.remove:
        ok = en.remove_deck(args.deck)
        print(f"removed {args.deck}" if ok else f"no deck {args.deck!r}")
        return 0 if ok else 1
    if not args.images:
        raise PegpiError("give the card images (or a folder of them) to enrol")
    from vision.classify import load_default_classifier
    from vision.recognize import card_crop

    clf = load_default_classifier(None)
    files, labels = _collect(args.images, args.labels)
    crops, unreadable = [], []
    for _, img in _each_image(files):  # every file read (and cropped) before anything is enrolled
        if isinstance(img, Exception):
            unreadable.append(str(img))
        else:
            crops.append(card_crop(img, clf))
    if unreadable:
        raise PegpiError("nothing enrolled: " + "; ".join(unreadable))
    deck = en.enroll(clf, args.deck, crops, labels, merge=not args.replace,
                     threshold=args.threshold)
    summary = {"deck": deck.name, "views": len(deck.labels), "cards": len(set(deck.labels)),
               "stored": str(en.data_dir() / f"{deck.name}.npz")}
    print(json.dumps(summary, indent=2) if args.json else
          f"enrolled {summary['cards']} cards ({summary['views']} views) as {deck.name!r} in {summary['stored']}")
    return 0


def _after_each_photo(every: int, quiet: bool = False) -> Callable[[int, int], None]:
    """What a photo bench does after each photo: hands the heap's free pages back when many
    lie free (see :data:`PHOTO_SLACK_MB`) and, unless ``quiet``, tells its progress on stderr
    every ``every`` photos and at the last."""
    from device.memory import release_free_memory

    def say(done: int, total: int) -> None:
        release_free_memory(above_mb=PHOTO_SLACK_MB)
        if not quiet and (done % every == 0 or done == total):
            print(f"  read {done} of {total}", file=sys.stderr, flush=True)
    return say


def _json_printed(res: dict[str, Any], clf: OnnxCardClassifier, as_json: bool) -> bool:
    """Names the model in a bench's figures, and prints them as JSON if asked (then True)."""
    res["model"] = str(clf.model_path)
    if as_json:
        print(json.dumps(res, indent=2))
    return as_json


def _skipped(res: dict[str, Any]) -> str:
    return f" ({len(res['skipped'])} skipped)" if res["skipped"] else ""


def _cost(res: dict[str, Any]) -> str:
    return (f"{res['median_ms_per_photo']:.0f} ms a photo (median, one thread; "
            f"{res['median_cpu_ms_per_photo']:.0f} ms of CPU; 90th percentile {res['p90_cpu_ms_per_photo']:.0f} ms, "
            f"mean {res['mean_cpu_ms_per_photo']:.0f} ms); peak memory {res['peak_mb']:.0f} MB")


def _photo_options(b: argparse.ArgumentParser) -> None:
    """The photo benches' options for how each photo is made before it is read."""
    b.add_argument("--megapixels", type=float, default=None, metavar="MP",
                   help="resize each photo to this many megapixels first, untimed (12: a phone's photo)")
    b.add_argument("--change", default=None, metavar="NAME",
                   help="change each photo first, untimed, as other photos may differ from these (shaken, "
                        "webcam, turned, slanted, ...; an unknown NAME lists them all)")


def _megapixels(value: float | None) -> float | None:
    """``--megapixels`` checked: a positive number of megapixels, or None."""
    if value is not None and not 0 < value <= 100:
        raise PegpiError(f"--megapixels wants a size between 0 and 100 megapixels (got {value})")
    return value


def _sized(res: dict[str, Any]) -> str:
    """How the photos were sized and changed, for a bench's first line."""
    from vision.photo_changes import CHANGES

    sized = f", each resized to {res['megapixels']:g} megapixels" if res["megapixels"] is not None else ""
    return sized + (f", each {CHANGES[res['change']][0]}" if res["change"] is not None else "")


def _one_thread() -> None:
    """The photo benches' speed targets are for one thread: OpenCV's own worker threads would
    otherwise add their time to a photo's CPU and take the second core from its wall clock."""
    import cv2

    cv2.setNumThreads(1)


_Labelled = TypeVar("_Labelled")


def _labelled(folder: Path, read: Callable[[Path], list[_Labelled]]) -> list[_Labelled]:
    """``read(folder)``, the labelled photos of a bench's folder; what is wrong with the folder or
    its labels as a :class:`PegpiError` that names it."""
    from vision.errors import PhotoLabelError

    if not folder.is_dir():
        raise PegpiError(f"no folder at {folder}")
    try:
        return read(folder)
    except PhotoLabelError as exc:
        raise PegpiError(str(exc)) from None


def _print_skipped(res: dict[str, Any]) -> None:
    for sk in res["skipped"]:
        print(f"  skipped: {sk['photo']}: {sk['reason']}")


def _labelled_photos(paths: list[Path], extra: Sequence[str] = ()) -> list[tuple[Path, str]]:
    """The photos under ``paths`` with the card each one's name gives (``extra``: enrolled cards'
    names too); what is wrong with them, or that there are none, as a :class:`PegpiError`."""
    from vision.api import IMAGE_EXT
    from vision.errors import PhotoLabelError
    from vision.photo_bench import collect

    try:
        items = collect(paths, extra)
    except (PhotoLabelError, FileNotFoundError) as exc:
        raise PegpiError(str(exc)) from None
    if not items:
        raise PegpiError(f"no photos ({', '.join(IMAGE_EXT)}) in {', '.join(map(str, paths))}")
    return items


def cmd_bench_photos(args: argparse.Namespace) -> int:
    from vision.api import CONFIDENT
    from vision.photo_bench import measure

    _one_thread()
    clf = _classifier(args.decks, args.model)
    items = _labelled_photos(args.paths, sorted({label for deck in clf.decks for label in deck.labels}))
    if args.every < 1:
        raise PegpiError(f"--every wants a whole number of 1 or more (got {args.every})")
    items = items[::args.every]
    megapixels = _megapixels(args.megapixels)
    res = measure(items, clf, crops=args.crops, whole_photo=args.recognize, megapixels=megapixels, change=args.change,
                  progress=_after_each_photo(25, args.json)).as_dict()
    if _json_printed(res, clf, args.json):
        return 0
    what = "upright crops" if args.crops else "photos read as recognize does" if args.recognize else "photos"
    print(f"{res['photos']} {what} of real cards read by {clf.model_path.name}{_sized(res)}{_skipped(res)}")
    if res["photos"]:
        print(f"  top-1 {res['top1']:.2%} ({res['right']} of {res['photos']}{_within(res['top1_interval'])}); "
              f"confident mistakes (read at "
              f"{CONFIDENT} or more) {res['confident_mistake_rate']:.2%} ({res['confident_mistakes']}); "
              f"read as no card {res['read_as_unknown']}; {_cost(res)}")
        for part in ("by_kind", "by_group", "by_colour"):
            print(f"  {part.replace('_', ' ')}: " + "; ".join(
                f"{k} {v['right']}/{v['photos']} ({v['confident_mistakes']} confident mistakes)"
                for k, v in res[part].items()))
        black = res["black_suit_confusions"]
        print(f"  clubs and spades swapped: {black['count']} ({black['confident']} confident)")
        red = res["red_black_confusions"]
        print(f"  red and black swapped: {red['count']} ({red['confident']} confident)")
    for m in res["mistakes"]:
        print(f"  wrong: {m['photo']}: {m['truth']} read as {m['read']} ({m['confidence']:.2f})")
    _print_skipped(res)
    return 0


def _within(bounds: tuple[float, float] | None) -> str:
    """A share's 95 % interval (:func:`vision.bench.scoring.interval`) as the bench prints it."""
    return "" if bounds is None else f"; 95 % interval {bounds[0]:.1%}-{bounds[1]:.1%}"


def _found_line(res: dict[str, Any], cards: str) -> str:
    """A scenes bench's line of cards found (``cards``: what they are called), sure and wrong."""
    from vision.api import CONFIDENT

    return (f"  found {res['found']} of {res['cards_listed']} {cards} ({res['recall']:.1%}"
            f"{_within(res['recall_interval'])}), {res['found_surely']} of them surely; wrong readings "
            f"{res['wrong_readings']}, confident mistakes (read at {CONFIDENT} or more) {res['confident_mistakes']}; "
            f"{_cost(res)}")


def _print_why(res: dict[str, Any], which: str) -> None:
    """A scenes bench's line of why its missed cards were missed (``which``: the cards told)."""
    from vision.scene_bench import WHY

    told = res["misses_by_why"]
    if any(told.values()):
        print(f"  missed, why ({which}): " + "; ".join(f"{WHY[k]} {n}" for k, n in told.items()))


def cmd_bench_scenes(args: argparse.Namespace) -> int:
    from vision.scene_bench import measure_scenes, read_labels

    _one_thread()
    if args.every < 1:
        raise PegpiError(f"--every wants a whole number of 1 or more (got {args.every})")
    scenes = _labelled(args.folder, read_labels)[::args.every]
    megapixels = _megapixels(args.megapixels)
    clf = _classifier("none", args.model)
    res = measure_scenes(scenes, clf, megapixels=megapixels, change=args.change, progress=_after_each_photo(10, args.json)).as_dict()
    if _json_printed(res, clf, args.json):
        return 0
    print(f"{res['photos']} photos of several real cards read as recognize does, by {clf.model_path.name}"
          f"{_sized(res)}{_skipped(res)}")
    if res["photos"]:
        print(_found_line(res, "cards listed"))
        print("  by group: " + "; ".join(f"{g} {v['found']}/{v['cards']} ({v['confident_mistakes']} confident "
                                         f"mistakes)" for g, v in res["by_group"].items()))
        _print_why(res, "cards whose index is boxed, photos as taken")
    for m in res["photos_with_misses"]:
        wrong = ", ".join(f"{w['card']} ({w['confidence']:.2f})" for w in m["wrong"])
        said = {w["card"]: w["said"] for w in m["why"]}
        missed = ", ".join(said.get(c, c) for c in m["missed"]) or "none"
        print(f"  {m['photo']}: missed {missed}" + (f"; wrong {wrong}" if wrong else ""))
    _print_skipped(res)
    return 0


def cmd_bench_composed(args: argparse.Namespace) -> int:
    from vision.api import CONFIDENT
    from vision.composed_bench import CARDS_PER_PHOTO, cut_faces, index_boxes, measure_composed

    _one_thread()
    if args.photos < 1:
        raise PegpiError(f"--photos wants a whole number of 1 or more (got {args.photos})")
    items = _labelled_photos(args.paths)
    clf = _classifier("none", args.model)
    if not args.json:
        print(f"cutting the cards out of {len(items)} photos ...", file=sys.stderr)
    cut = cut_faces(items, clf, progress=_after_each_photo(50, args.json), boxes=index_boxes([p for p, _c in items]))
    if len({f.card for f in cut.faces}) < CARDS_PER_PHOTO[0]:
        raise PegpiError(f"only {len(cut.faces)} of the {len(items)} photos gave a card to cut out (read right and "
                         f"surely, no table in its outline): too few different cards to compose photos of")
    try:
        report = measure_composed(cut.faces, clf, args.photos, seed=args.seed, keep=args.keep,
                                  progress=_after_each_photo(10, args.json))
    except OSError as exc:
        raise PegpiError(f"cannot write the composed photos to {args.keep}: {exc.strerror or exc}") from None
    res = report.as_dict()
    res |= {"mode": "composed", "seed": args.seed, "photos_of_singles": len(items), "cards_cut": len(cut.faces),
            "not_cut": {"misread": cut.misread, "unsure": cut.unsure, "table_in_outline": cut.table_in_outline,
                        "unreadable": len(cut.unreadable)}}
    if _json_printed(res, clf, args.json):
        return 0
    left = res["not_cut"]
    print(f"{res['photos']} photos composed of {res['cards_cut']} real cards cut from {len(items)} photos (not cut: "
          f"{left['misread']} misread, {left['unsure']} unsure, {left['table_in_outline']} with table in the "
          f"outline, {left['unreadable']} unreadable), read as recognize does by {clf.model_path.name}")
    print(_found_line(res, "cards"))
    print("  by layout: " + "; ".join(f"{g} {v['found']}/{v['cards']} ({v['confident_mistakes']} confident "
                                      f"mistakes)" for g, v in res["by_group"].items()))
    _print_why(res, "cards whose single's index is boxed")
    for m in res["photos_with_misses"]:
        sure = [w for w in m["wrong"] if w["confidence"] >= CONFIDENT]
        if sure:
            print(f"  confident mistake: {m['photo']} ({' '.join(m['cards'])}): " + ", ".join(
                f"{w['card']} at {w['confidence']:.2f}" for w in sure))
    for path, why in cut.unreadable:
        print(f"  skipped: {path}: {why}")
    return 0


def cmd_bench_finder(args: argparse.Namespace) -> int:
    from vision.finder import MARK_FROM, finder_for
    from vision.finder_bench import measure_finder, read_boxes

    _one_thread()
    threshold = MARK_FROM if args.threshold is None else args.threshold
    if not 0 < threshold < 1:
        raise PegpiError(f"--threshold wants a heat between 0 and 1 (got {threshold})")
    photos = [photo for folder in args.folders for photo in _labelled(folder, read_boxes)]
    clf = _classifier("none")
    finder = finder_for(clf)
    if finder is None:
        raise PegpiError(f"{clf.model_path.name} names no index finder in its cards.json")
    res = measure_finder(photos, finder, threshold, progress=_after_each_photo(50, args.json)).as_dict()
    if _json_printed(res, clf, args.json):
        return 0
    print(f"{res['photos']} photos, {res['boxes']} printed indices boxed, marked by the index finder beside "
          f"{clf.model_path.name} at {threshold}{_skipped(res)}")
    if res["photos"]:
        print(f"  found {res['found']} of {res['boxes']} ({res['found_share']:.1%}); {res['marks_per_photo']} marks a "
              f"photo, {res['marks_right']:.1%} of them in a box; {_cost(res)}")
        print("  by group: " + "; ".join(f"{g} {v['found']}/{v['boxes']} ({v['marks_per_photo']} marks a photo)"
                                         for g, v in res["by_group"].items()))
    _print_skipped(res)
    return 0


def cmd_bench_enrolment(args: argparse.Namespace) -> int:
    import tempfile

    from vision.bench.enrol_table import bench_deck, run_bench
    from vision.classify import load_default_classifier
    from vision.enrol_session import EnrolmentWizard
    from vision.errors import BenchError, DeckError

    if args.deals < 1:
        raise PegpiError(f"--deals: deal at least one table, not {args.deals}")
    try:
        cards, art = bench_deck(args.deck)
    except (BenchError, DeckError) as exc:  # an unknown deck, or one npm cannot fetch
        raise PegpiError(f"--deck: {exc}") from exc
    with tempfile.TemporaryDirectory() as folder:  # the bench's deck is not kept
        wizard = EnrolmentWizard(load_default_classifier(None), args.deck, cards=cards, folder=folder)
        res = run_bench(lambda: load_default_classifier(None), wizard, art, deals=args.deals, seed=args.seed,
                        hands=args.hands, say=None if args.json else (lambda m: print(m, file=sys.stderr, flush=True)))
    res.pop("stored", None)
    if args.json:
        print(json.dumps(res, indent=2))
        return 0
    kind = "a Decktet-like deck" if args.deck == "decktet" else f"the French deck {args.deck!r}"
    print(f"enrolled {res['cards']} cards of {kind} in {len(res['batches'])} batches "
          f"({res['players_s']:.0f} s of the players' time at the simulated table)")
    for i, b in enumerate(res["batches"], 1):
        print(f"  batch {i}: {b['cards']} cards, {b['frames']} frames at {b['feed_ms']:.0f} ms a frame "
              f"({b['feed_cpu_ms']:.0f} ms of CPU), confirmed (embedded) in {b['confirm_s']:.2f} s "
              f"({b['confirm_cpu_s']:.2f} s of CPU)")
    for when in ("before", "after"):
        r = res[when]
        print(f"  read from the table {when} enrolment: {r['right']}/{r['cards']} ({r['rate']:.2%}; "
              f"{r['asked']} of them asked about); wrong {r['wrong']} ({r['wrong_unasked']} recorded without "
              f"asking; {r['wrong_foreign']} read as cards of another deck, which the game asks about), "
              f"never placed {r['missed']}")
        if r["confusions"]:
            print("    read as another card: " + ", ".join(f"{k} ({n})" for k, n in r["confusions"].items()))
    return 0


def cmd_bench_mat(args: argparse.Namespace) -> int:
    from pegpi.cli.vision import frame_size
    from vision.bench.mat_read import run_bench
    from vision.bench.recognition import design_seeds
    from vision.errors import BenchError, LayoutError

    size = frame_size(args.camera)
    try:
        seeds = design_seeds(args.pool, args.designs)
        res = run_bench(seeds, args.paper, size, args.seed)
    except (BenchError, LayoutError) as exc:
        raise PegpiError(str(exc)) from exc
    if args.json:
        print(json.dumps(res, indent=2))
        return 0
    px = res["card_px"]
    assert isinstance(px, dict)
    designs = f"{res['designs']} design" + ("s" if res["designs"] != 1 else "")
    print(f"{res['cards']} cards of {designs} never trained on, on an {res['paper']} mat through a "
          f"{res['camera']} camera (cards {px['least']}-{px['most']} px high, median {px['median']})")
    print(f"  read right {res['right']} ({res['rate']:.2%}; {res['asked']} of them asked about); wrong {res['wrong']} "
          f"({res['wrong_unasked']} recorded without asking); never placed {res['missed']}")
    if res["confusions"]:
        confusions = res["confusions"]
        assert isinstance(confusions, dict)
        print("  read as another card: " + ", ".join(f"{k} ({n})" for k, n in confusions.items()))
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from vision.bench.recognition import design_seeds, run_bench
    from vision.bench.report import report_lines
    from vision.errors import BenchError, PhotoChangeError
    from vision.photo_changes import change_named

    t0 = time.time()
    sections = None
    if args.only is not None:
        sections = [x.strip() for x in args.only.split(",") if x.strip()]
        unknown = [x for x in sections if x not in SECTIONS]
        if unknown or not sections:
            raise PegpiError(f"--only wants sections among {', '.join(SECTIONS)} (got {args.only!r})")
    try:
        design_seeds(args.pool, args.designs)
    except BenchError as exc:
        raise PegpiError(f"--designs: {exc}") from exc
    changes = [x.strip() for x in args.loose_changes.split(",") if x.strip()]
    try:
        for name in changes:
            change_named(name)
    except PhotoChangeError as exc:
        raise PegpiError(f"--loose-changes: {exc}") from None
    res = run_bench(args.designs, args.scenes, args.seed,
                    progress=None if args.json else (lambda m: print(m, file=sys.stderr, flush=True)), model=args.model,
                    loose=args.loose, hidden=args.hidden, commercial=args.commercial, sections=sections,
                    commercial_scenes=args.commercial_scenes, pool=args.pool, loose_changes=changes)
    res["bench_seconds"] = round(time.time() - t0, 1)
    print(json.dumps(res, indent=2) if args.json else "\n".join(report_lines(res)))
    return 0
