"""Card recognition commands: ``pegpi classify``, ``pegpi recognize``, ``pegpi enroll`` and
``pegpi bench recognition``."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Collection, Iterable, Iterator
from itertools import islice
from pathlib import Path
from typing import Any

from games.errors import PegpiError


def register(commands: Any, benches: Any) -> None:
    p = commands.add_parser("classify", help="read images of one card each (upright crops, or loose photos of one card)")
    p.add_argument("images", nargs="+", type=Path, help="images, or folders of them")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--decks", default=None,
                   help="enrolled decks to use, comma-separated (default: all enrolled; 'none' for none)")
    p.set_defaults(func=cmd_classify)

    p = commands.add_parser("recognize", help="find and read every card in photos")
    p.add_argument("images", nargs="+", type=Path, help="photos, or folders of them")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--decks", default=None, help="enrolled decks to use (default: all; 'none')")
    p.add_argument("--min-confidence", type=float, default=0.5)
    p.add_argument("--draw", type=Path, default=None, help="folder to write the images with the cards drawn")
    p.set_defaults(func=cmd_recognize)

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
    b.add_argument("--model", type=Path, default=None, help="another ONNX card model (default: the shipped one)")
    b.add_argument("--decks", default="none",
                   help="enrolled decks to use, comma-separated, or 'all' (default: none; their cards' names "
                        "are then labels too)")
    b.add_argument("--json", action="store_true")
    b.set_defaults(func=cmd_bench_photos)

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


def _each_image(files: list[Path]) -> Iterator[tuple[Path, Any]]:
    """Each file read as it comes (one photo in memory at a time), or the
    :class:`ImageFileError` that says why it cannot be."""
    from vision.errors import ImageFileError
    from vision.images import read_image

    for path in files:
        try:
            yield path, read_image(path)
        except ImageFileError as exc:
            yield path, exc


def _unread(rows: list[dict[str, Any]]) -> int:
    """Why each image that could not be read was not, printed to stderr: 1 if there was one. When
    none could be read there is nothing else to show: a :class:`PegpiError` naming each."""
    bad = [row for row in rows if "error" in row]
    if bad and len(bad) == len(rows):
        raise PegpiError("; ".join(row["error"] for row in bad))
    for row in bad:
        print(f"pegpi: error: {row['error']}", file=sys.stderr)
    return 1 if bad else 0


def _classifier(decks: str | None, model: Path | None = None) -> Any:
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


def _rows(args: argparse.Namespace, read: Any) -> list[dict[str, Any]]:
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

    def read(clf: Any, path: Path, img: Any) -> dict[str, Any]:
        d = read_card(img, clf)
        return {"card": d.card, "confidence": round(d.confidence, 4), "corners": d.as_dict()["corners"]}

    rows = _rows(args, read)
    code = _unread(rows)
    if args.json:
        print(json.dumps(rows if len(rows) > 1 else rows[0], indent=2))
    else:
        for row in rows:
            if "error" not in row:
                print(f"{row['image']}: {row['card']} ({row['confidence']:.3f})")
    return code


def cmd_recognize(args: argparse.Namespace) -> int:
    from vision.recognize import recognize

    def read(clf: Any, path: Path, img: Any) -> dict[str, Any]:
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
                cards = ", ".join(f"{c['card']} ({c['confidence']:.2f})" for c in item["cards"]) or "no card"
                print(f"{item['image']}: {cards}")
    return code


def _draw(img: Any, found: list[Any], path: Path) -> None:
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
    from vision.api import IMAGE_EXT

    files: list[Path] = []
    names: list[str] = []
    explicit = [x.strip() for x in labels.replace(";", ",").split(",") if x.strip()] if labels else None
    for item in images:
        if item.is_dir():
            for sub in sorted(item.iterdir()):
                if sub.is_dir():
                    for f in sorted(sub.iterdir()):
                        if f.suffix.lower() in IMAGE_EXT:
                            files.append(f)
                            names.append(sub.name)
                elif sub.suffix.lower() in IMAGE_EXT:
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
            crops.append(card_crop(img))
    if unreadable:
        raise PegpiError("nothing enrolled: " + "; ".join(unreadable))
    deck = en.enroll(clf, args.deck, crops, labels, merge=not args.replace,
                     threshold=args.threshold)
    summary = {"deck": deck.name, "views": len(deck.labels), "cards": len(set(deck.labels)),
               "stored": str(en.data_dir() / f"{deck.name}.npz")}
    print(json.dumps(summary, indent=2) if args.json else
          f"enrolled {summary['cards']} cards ({summary['views']} views) as {deck.name!r} in {summary['stored']}")
    return 0


# -- bench -------------------------------------------------------------------------------------

#: Decktet-like designs enrolled by the bench (each alone, one view per card).
ENROL_DESIGNS = (7, 11, 13, 17, 19, 23, 29, 31)
#: How the composed photos lay the cards out: apart, a straight overlapping row, a held fan.
LAYOUTS = ("scatter", "fan", "arc")
#: a card's corner index "shows" when no card lies over this share of it or more
INDEX_SHOWN = 0.98
#: the bench's sections, in the order they run (framing, latency and enrolment use the held-out
#: crops, so they run the held-out section too)
SECTIONS = ("heldout", "framing", "loose", "index_only", "latency", "enrolment", "recognize", "commercial")
#: the framing section reads the held-out crops again this much closer (> 1) or further (< 1):
#: an outline found a little off in a photo frames its card so
FRAMINGS = (0.9, 0.95, 1.05, 1.1)


#: the bench's designs by pool (``--pool``), as the names of their :mod:`vision.render` tuples:
#: the held-out bench's (reported), those kept for choosing between trained models (never
#: reported), or those kept for confirming a choice once; all in the held-out fonts
DESIGN_POOLS = {"bench": "BENCH_DESIGN_SEEDS", "selection": "SELECTION_DESIGN_SEEDS", "confirm": "CONFIRM_DESIGN_SEEDS"}


def design_seeds(pool: str, designs: int) -> tuple[int, ...]:
    """The first ``designs`` design seeds of ``pool``; ``ValueError`` naming what is allowed."""
    from vision import render

    if pool not in DESIGN_POOLS:
        raise ValueError(f"unknown design pool {pool!r}: the pools are {', '.join(DESIGN_POOLS)}")
    seeds: tuple[int, ...] = getattr(render, DESIGN_POOLS[pool])
    if not 1 <= designs <= len(seeds):
        raise ValueError(f"the {pool} pool has {len(seeds)} designs: ask for 1 to {len(seeds)}, not {designs}")
    return seeds[:designs]


def run_bench(designs: int = 64, scenes: int = 30, seed: int = 0, progress: Any = None,
              model: Path | None = None, loose: int = 256, hidden: int = 512, commercial: int = 4,
              sections: Collection[str] | None = None, commercial_scenes: int = 6,
              pool: str = "bench") -> dict[str, Any]:
    """Measure the shipped model (see models/MODEL_CARD.md for what each figure means).

    ``sections`` (default: all of :data:`SECTIONS`) runs only some of them; the figures of a
    section do not depend on which others run, except that latency and enrolment need the
    held-out crops (and so run that section too) and share its random stream. ``designs`` of
    ``pool`` (:data:`DESIGN_POOLS`) make the held-out crops, the loose photos and the index-only
    views; the first 64 of the bench's pool are those it always used."""
    import numpy as np

    from vision.classify import LABELS, MODEL_FILE, MODELS_DIR, OnnxCardClassifier

    seeds = design_seeds(pool, designs)

    def say(msg: str) -> None:
        if progress:
            progress(msg)

    model_path = model if model is not None else MODELS_DIR / MODEL_FILE
    clf = OnnxCardClassifier(model_path)
    rng = np.random.default_rng([seed, 31337])
    result: dict[str, Any] = {"model": str(model) if model is not None else str(Path("models") / MODEL_FILE),
                              "model_bytes": model_path.stat().st_size, "pool": pool}
    if clf.index_path is not None:
        result["index_model_bytes"] = clf.index_path.stat().st_size
    if clf.suit_path is not None:
        result["suit_model_bytes"] = clf.suit_path.stat().st_size
    chosen = set(SECTIONS if sections is None else sections)
    unknown = chosen - set(SECTIONS)
    if unknown:
        raise ValueError(f"unknown bench sections {sorted(unknown)}: the sections are {', '.join(SECTIONS)}")
    if chosen & {"framing", "latency", "enrolment"}:
        chosen.add("heldout")
    # 1. held-out designs
    if "heldout" in chosen:
        crops, truth, kinds = _heldout(result, clf, seeds, rng, say)
    if "framing" in chosen:
        _framing(result, clf, crops, truth, say)
    if "loose" in chosen:
        _loose(result, clf, seeds, loose, seed, say)
    if "index_only" in chosen:
        _index_only(result, clf, seeds, hidden, seed, say)
    if "latency" in chosen:
        _latency(result, clf, crops, rng, say)
    if "enrolment" in chosen:
        _enrolment(result, clf, model_path, crops, truth, kinds, rng, say)
    if "recognize" in chosen:
        _recognize(result, clf, scenes, rng, say)
    if "commercial" in chosen and commercial:
        _commercial(result, clf, commercial, seed, say, commercial_scenes)
    result["labels"] = len(LABELS)
    return result


def _confusions(truth: Any, labels: Any, n: int = 10) -> dict[str, int]:
    """The ``n`` most frequent mistakes, ``"truth->read"``: count."""
    counts: dict[str, int] = {}
    for t, p in zip(truth, labels, strict=True):
        if t != p:
            counts[f"{t}->{p}"] = counts.get(f"{t}->{p}", 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: -kv[1])[:n])


def _read_all(clf: Any, crops: Iterable[Any], truth: list[str]) -> tuple[Any, Any, Any]:
    """Each crop classified, 256 at a time (a generator of crops is made a batch at a time): the
    labels, the confidences, and whether each label is its ``truth``."""
    import numpy as np

    preds: list[Any] = []
    it = iter(crops)
    while batch := list(islice(it, 256)):
        preds += clf.classify(batch)
    labels = np.array([p.label for p in preds])
    return labels, np.array([p.confidence for p in preds]), labels == np.array(truth)


def _twins(truth: Any, labels: Any) -> int:
    """Mistakes that read a card as its clubs/spades twin (the same rank in the other black suit)."""
    twin = {"C": "S", "S": "C"}
    return sum(1 for t, p in zip(truth, labels, strict=True)
               if t != p and t[-1:] in twin and p == t[:-1] + twin[t[-1]])


def _sure_mistakes(ok: Any, conf: Any) -> Any:
    """Which readings are wrong at :data:`~vision.api.CONFIDENT` or more."""
    from vision.api import CONFIDENT

    return (~ok) & (conf >= CONFIDENT)


def _scores(ok: Any, conf: Any) -> dict[str, float]:
    """Top-1 and the share of confident mistakes."""
    return {"top1": round(float(ok.mean()), 5), "confident_mistakes": round(float(_sure_mistakes(ok, conf).mean()), 5)}


def _commercial(result: dict[str, Any], clf: Any, per_card: int, seed: int, say: Any, scenes: int = 6) -> None:
    """Commercial-style reference decks (never trained on, :mod:`vision.render.commercial`): each
    face read clean (upright on white), ``per_card`` table-pipeline crops per card, two loose
    photos per card (not the back) read by ``read_card``, and ``scenes`` composed photos read by
    ``recognize`` (cards laid apart, a row, a held fan in turn). Each deck has random streams of
    its own."""
    import numpy as np

    from vision.errors import DeckError
    from vision.recognize import read_card, recognize
    from vision.render import CARD_IDS
    from vision.render.commercial import COMMERCIAL_DECKS, load_deck
    from vision.render.photo import compose_scene, loose_crop, table_crop

    out: dict[str, Any] = {}
    for di, name in enumerate(COMMERCIAL_DECKS):
        say(f"commercial deck {name} ...")
        try:
            faces = load_deck(name, px_per_mm=3.0)
        except (DeckError, OSError) as exc:
            out[name] = {"error": str(exc)}
            continue
        ids = [c for c in CARD_IDS + ("back",) if c in faces]
        deck: dict[str, Any] = {"faces": len(ids)}
        # clean: each face upright on white paper
        clean = []
        for c in ids:
            a = faces[c][..., 3:].astype(np.float32) / 255.0
            clean.append((faces[c][..., :3] * a + 255.0 * (1.0 - a)).round().astype(np.uint8))
        got = [p.label for p in clf.classify(clean)]
        deck["clean"] = {"faces": len(ids), "top1": round(float(np.mean([g == t for g, t in zip(got, ids, strict=True)])), 5),
                         "mistakes": _confusions(ids, got)}
        # table: the table pipeline's crops, camera model and all
        trng = np.random.default_rng([seed, 1618, di])
        crops, truth = [], []
        for c in ids:
            for _ in range(per_card):
                crops.append(table_crop(faces[c], trng))
                truth.append(c)
        labels, conf, ok = _read_all(clf, crops, truth)
        courts = np.array([t[:-1] in ("J", "Q", "K") for t in truth])
        deck["table"] = {"crops": len(crops), **_scores(ok, conf),
                         "top1_courts": round(float(ok[courts].mean()), 5),
                         "top1_not_courts": round(float(ok[~courts].mean()), 5),
                         "worst_confusions": _confusions(truth, labels)}
        # loose: two photos of each card (background round it, any angle) read by `pegpi classify`
        lrng = np.random.default_rng([seed, 1619, di])
        l_truth, l_read, l_conf = [], [], []
        for c in ids:
            if c == "back":
                continue
            for _ in range(2):
                img, _ = loose_crop(faces[c], lrng)
                d = read_card(img, clf)
                l_truth.append(c)
                l_read.append(d.card)
                l_conf.append(d.confidence)
        l_ok = np.array(l_read) == np.array(l_truth)
        deck["loose"] = {"photos": len(l_truth), **_scores(l_ok, np.array(l_conf)),
                         "worst_confusions": _confusions(l_truth, l_read)}
        if scenes:
            srng = np.random.default_rng([seed, 1620, di])
            counts = {lay: [0, 0, 0] for lay in LAYOUTS}
            cards = [c for c in ids if c != "back"]
            for s in range(scenes):
                chosen = [cards[int(i)] for i in srng.choice(len(cards), int(srng.integers(3, 7)), replace=False)]
                layout = LAYOUTS[s % len(LAYOUTS)]
                img, _corners = compose_scene([faces[c] for c in chosen], srng, layout=layout)
                _score_scene(counts[layout], chosen, [f.card for f in recognize(img, clf)])
            deck["recognize"] = _recall_precision(counts, scenes)
        out[name] = deck
    result["commercial"] = {"note": "commercial-style decks never used in training (vision/render/commercial.py)",
                            "table_crops_per_card": per_card, "decks": out}


def _heldout(result: dict[str, Any], clf: Any, seeds: tuple[int, ...], rng: Any, say: Any
             ) -> tuple[list[Any], list[str], list[str]]:
    import numpy as np

    from vision.classify import preprocess
    from vision.render import CARD_IDS, render_card
    from vision.render.photo import non_card_crop, table_crop

    say(f"rendering {len(seeds)} held-out designs ...")
    crops, truth, kinds = [], [], []
    for d in seeds:
        for label in CARD_IDS + ("back",):
            face = render_card(label, d, px_per_mm=3.0, rng=rng, alpha=True)
            crops.append(preprocess(table_crop(face, rng)))
            truth.append(label)
            kinds.append("card" if label != "back" else "back")
        for _ in range(6):
            crops.append(preprocess(non_card_crop(rng)))
            truth.append("unknown")
            kinds.append("unknown")
    say(f"classifying {len(crops)} crops ...")
    labels, conf, ok = _read_all(clf, crops, truth)
    kinds_a = np.array(kinds)
    held: dict[str, Any] = {"designs": len(seeds), "crops": len(crops), **_scores(ok, conf),
                            "mistakes": int((~ok).sum()), "confident": int(_sure_mistakes(ok, conf).sum()),
                            "mean_confidence": round(float(conf.mean()), 4)}
    for k in ("card", "back", "unknown"):
        held[f"top1_{k}"] = round(float(ok[kinds_a == k].mean()), 5)
    held["clubs_spades_twins"] = _twins(truth, labels)
    held["worst_confusions"] = _confusions(truth, labels)
    result["heldout"] = held
    return crops, truth, kinds


def framed(crop: Any, scale: float) -> Any:
    """A preprocessed crop seen ``scale`` times closer about its centre (further below 1), the
    edge pixels carried into what a zoom out uncovers."""
    import cv2

    h, w = crop.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), 0, scale)
    return cv2.warpAffine(crop, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _framing(result: dict[str, Any], clf: Any, crops: list[Any], truth: list[str], say: Any) -> None:
    """The held-out crops read again, each framed a few per cent closer or further."""
    say("held-out crops framed closer and further ...")
    out: dict[str, Any] = {}
    for scale in FRAMINGS:
        _, conf, ok = _read_all(clf, (framed(c, scale) for c in crops), truth)
        out[f"{scale:g}"] = {**_scores(ok, conf), "mistakes": int((~ok).sum())}
    result["framing"] = {"crops": len(crops), "scales": out}


def _loose(result: dict[str, Any], clf: Any, seeds: tuple[int, ...], loose: int, seed: int, say: Any) -> None:
    import numpy as np

    from vision.recognize import read_card
    from vision.render import CARD_IDS, render_card
    from vision.render.photo import loose_crop

    # 1b. loose photos of one card (background round it, any angle) read by `pegpi classify`
    say("loose photos of one card ...")
    l_right = l_conf_wrong = 0
    l_times = []
    lrng = np.random.default_rng([seed, 4242])  # its own stream: the other figures stay comparable
    for i in range(loose):
        label = CARD_IDS[int(lrng.integers(len(CARD_IDS)))]
        face = render_card(label, seeds[i % len(seeds)], px_per_mm=3.0, rng=lrng, alpha=True)
        img, _ = loose_crop(face, lrng)
        t = time.perf_counter()
        d = read_card(img, clf)
        l_times.append(time.perf_counter() - t)
        l_right += d.card == label
        l_conf_wrong += d.card != label and d.confidence >= 0.9
    if loose:
        result["loose"] = {"photos": loose, "top1": round(l_right / loose, 5),
                           "confident_mistakes": round(l_conf_wrong / loose, 5),
                           "median_ms_per_photo": round(float(np.median(l_times)) * 1e3, 1)}


def _index_only(result: dict[str, Any], clf: Any, seeds: tuple[int, ...], hidden: int, seed: int, say: Any) -> None:
    import numpy as np

    from vision.render import CARD_IDS, render_card
    from vision.render.photo import held_crop

    # 1c. cards of which only the index shows (the next cards of a row or of a held fan over
    # them), read from the corner index alone
    if hidden and clf.reads_index:
        say("cards of which only the index shows ...")
        hrng = np.random.default_rng([seed, 2718])  # its own stream, as the loose photos'
        h_crops, h_truth, h_row = [], [], []
        for i in range(hidden):
            d = seeds[i % len(seeds)]
            label = CARD_IDS[int(hrng.integers(len(CARD_IDS)))]
            covers = [render_card(CARD_IDS[int(hrng.integers(54))], d, px_per_mm=2.5, alpha=True)
                      for _ in range(int(hrng.integers(1, 4)))]
            h_crops.append(held_crop(render_card(label, d, px_per_mm=3.0, rng=hrng, alpha=True), covers, hrng,
                                     row=i % 2 == 0))
            h_truth.append(label)
            h_row.append(i % 2 == 0)
        pairs = []
        for i in range(0, hidden, 256):
            pairs += clf.classify_with_index(h_crops[i:i + 256])
        idx_ok = np.array([ix is not None and ix.label == t for (_, ix), t in zip(pairs, h_truth, strict=True)])
        idx_conf = np.array([ix.confidence if ix is not None else 0.0 for _, ix in pairs])
        whole_ok = np.array([p.label == t for (p, _), t in zip(pairs, h_truth, strict=True)])
        rows = np.array(h_row)
        result["index_only"] = {"crops": hidden, "top1": round(float(idx_ok.mean()), 5),
                                "confident_mistakes": round(float(((~idx_ok) & (idx_conf >= 0.9)).mean()), 5),
                                "read_at_0.9": round(float((idx_ok & (idx_conf >= 0.9)).mean()), 5),
                                "top1_row": round(float(idx_ok[rows].mean()), 5),
                                "top1_held_fan": round(float(idx_ok[~rows].mean()), 5),
                                "whole_card_top1": round(float(whole_ok.mean()), 5)}


def _latency(result: dict[str, Any], clf: Any, crops: list[Any], rng: Any, say: Any) -> None:
    import cv2
    import numpy as np

    from vision.classify import to_tensor
    from vision.locate import CARD_MM
    from vision.render import HELDOUT_DESIGN_SEEDS, render_card
    from vision.render.photo import table_crop

    # 2. latency (model only, 1 intra-op thread) and with preprocessing
    say("timing ...")
    x1 = to_tensor(np.stack(crops[:1]))
    xb = to_tensor(np.stack(crops[:64]))
    for _ in range(20):
        clf.session.run(None, {"image": x1})
    t1 = []
    for _ in range(300):
        t = time.perf_counter()
        clf.session.run(None, {"image": x1})
        t1.append(time.perf_counter() - t)
    tb = []
    for _ in range(30):
        t = time.perf_counter()
        clf.session.run(None, {"image": xb})
        tb.append((time.perf_counter() - t) / 64)
    raw = [table_crop(render_card("7H", HELDOUT_DESIGN_SEEDS[0], px_per_mm=3.0, alpha=True), rng, px_per_mm=2.0)
           for _ in range(16)]
    tc = []
    for _ in range(20):
        t = time.perf_counter()
        clf.classify(raw)
        tc.append((time.perf_counter() - t) / len(raw))
    # the same crops at the size the table pipeline cuts cards out of a frame (vision.locate.crop_card:
    # 2 px/mm, 126 x 176), which the classifier stretches 2 px wider instead of averaging down
    w, h = round(CARD_MM[0] * 2), round(CARD_MM[1] * 2)
    cut = [cv2.resize(r, (w, h), interpolation=cv2.INTER_AREA) for r in raw]
    tt = []
    for _ in range(20):
        t = time.perf_counter()
        clf.classify(cut)
        tt.append((time.perf_counter() - t) / len(cut))
    result["latency_ms"] = {"batch1_median": round(float(np.median(t1)) * 1e3, 4),
                            "batched64_median_per_card": round(float(np.median(tb)) * 1e3, 4),
                            "classify_16_crops_with_preprocessing_per_card": round(float(np.median(tc)) * 1e3, 4),
                            "classify_16_table_pipeline_crops_per_card": round(float(np.median(tt)) * 1e3, 4),
                            "threads": 1}
    if clf.index_path is not None:  # recognize's reading of a card's corner index alone
        ti = []
        for _ in range(20):
            t = time.perf_counter()
            clf.read_indices(raw)
            ti.append((time.perf_counter() - t) / len(raw))
        result["latency_ms"]["read_indices_16_crops_with_preprocessing_per_card"] = round(float(np.median(ti)) * 1e3, 4)


def _enrolment(result: dict[str, Any], clf: Any, model_path: Path, crops: list[Any], truth: list[str],
               kinds: list[str], rng: Any, say: Any) -> None:
    from vision.classify import OnnxCardClassifier
    from vision.enroll import enroll
    from vision.render.decktet import DECKTET_NAMES, render_decktet
    from vision.render.photo import table_crop

    # 3. enrolment on Decktet-like decks never seen in training: each deck enrolled alone, one
    # view per card, then read on new views through the full camera model
    say("enrolment ...")
    e_right = e_conf_wrong = e_total = 0
    e_confusions: dict[str, int] = {}
    stolen_n = fr_right = fr_total = 0
    fr = [crops[i] for i in range(0, len(crops), 7) if kinds[i] == "card"][:200]
    fr_truth = [truth[i] for i in range(0, len(crops), 7) if kinds[i] == "card"][:200]
    for design in ENROL_DESIGNS:
        faces = {n: render_decktet(n, design, px_per_mm=3.0, alpha=True) for n in DECKTET_NAMES}
        enrol_views = [table_crop(faces[n], rng, strength=0.5, turn=False) for n in DECKTET_NAMES]
        deck = enroll(clf, f"bench-decktet-{design}", enrol_views, list(DECKTET_NAMES), save=False)
        clf_e = OnnxCardClassifier(model_path, decks=[deck])
        test_crops, test_truth = [], []
        for n in DECKTET_NAMES:
            for _ in range(5):
                test_crops.append(table_crop(faces[n], rng))
                test_truth.append(n)
        for p, t in zip(clf_e.classify(test_crops), test_truth, strict=True):
            e_total += 1
            e_right += p.label == t
            e_conf_wrong += p.label != t and p.confidence >= 0.9
            if p.label != t:
                e_confusions[f"{t}->{p.label}"] = e_confusions.get(f"{t}->{p.label}", 0) + 1
        # French cards must not be taken for enrolled Decktet cards
        for p, t in zip(clf_e.classify(fr), fr_truth, strict=True):
            fr_total += 1
            stolen_n += p.label in DECKTET_NAMES
            fr_right += p.label == t
    result["enrolment"] = {"deck": f"procedural Decktet-like, {len(ENROL_DESIGNS)} designs x 45 cards",
                           "views_enrolled_per_card": 1, "test_views": e_total,
                           "top1": round(e_right / e_total, 5),
                           "confident_mistakes": round(e_conf_wrong / e_total, 5),
                           "french_cards_taken_for_enrolled": round(stolen_n / fr_total, 5),
                           "french_top1_with_deck_enrolled": round(fr_right / fr_total, 5),
                           "mistakes": dict(sorted(e_confusions.items(), key=lambda kv: -kv[1])[:8])}


def _recognize(result: dict[str, Any], clf: Any, scenes: int, rng: Any, say: Any) -> None:
    import numpy as np

    from vision.recognize import recognize
    from vision.render import CARD_IDS, HELDOUT_DESIGN_SEEDS, design_from_seed, index_box, render_card
    from vision.render.photo import compose_scene, index_shown

    # 4. recognize on composed photos
    if scenes:
        say(f"recognize on {scenes} composed photos ...")
        per_layout = {lay: [0, 0, 0] for lay in LAYOUTS}  # found, missed, false
        # the cards of rows and held fans by what shows of their corner index: found, in all
        by_index = {k: [0, 0] for k in ("shows", "partly_covered", "rank_only")}
        t_scene = []
        for s in range(scenes):
            n = int(rng.integers(3, 7))
            d = HELDOUT_DESIGN_SEEDS[int(rng.integers(len(HELDOUT_DESIGN_SEEDS)))]
            ids = [CARD_IDS[int(i)] for i in rng.choice(54, n, replace=False)]
            layout = LAYOUTS[s % len(LAYOUTS)]
            img, corners = compose_scene([render_card(c, d, px_per_mm=3.0, alpha=True) for c in ids], rng,
                                         layout=layout)
            t = time.perf_counter()
            found = recognize(img, clf)
            t_scene.append(time.perf_counter() - t)
            got = [f.card for f in found]
            _score_scene(per_layout[layout], ids, got)
            if layout != "scatter":
                rank_only = design_from_seed(d).index_layout == 2
                for c, shown in zip(ids, index_shown(corners, [index_box(c, d) for c in ids]), strict=True):
                    key = "rank_only" if rank_only and c not in ("RJ", "BJ") else \
                        "shows" if shown >= INDEX_SHOWN else "partly_covered"
                    by_index[key][0] += c in got
                    by_index[key][1] += 1
        result["recognize"] = {**_recall_precision(per_layout, scenes),
                               "median_seconds_per_photo": round(float(np.median(t_scene)), 3),
                               "rows_and_held_fans_by_index": {k: {"cards": n, "recall": round(f / max(1, n), 4)}
                                                               for k, (f, n) in by_index.items()}}


def _score_scene(counts: list[int], cards: list[str], got: list[str]) -> None:
    """Add a photo's found, missed and false readings to ``counts`` (a card read twice counts
    once found and once false)."""
    want = set(cards)
    counts[0] += len(want & set(got))
    counts[1] += len(want - set(got))
    counts[2] += sum(1 for g in got if g not in want) + max(0, len(got) - len(set(got)))


def _recall_precision(per_layout: dict[str, list[int]], photos: int) -> dict[str, Any]:
    """Recall and precision over all photos and by layout, from :func:`_score_scene`'s counts."""
    tp, fn, fp_n = (sum(c[i] for c in per_layout.values()) for i in range(3))
    return {"photos": photos, "cards": tp + fn, "found": tp, "missed": fn, "false": fp_n,
            "recall": round(tp / max(1, tp + fn), 4), "precision": round(tp / max(1, tp + fp_n), 4),
            "by_layout": {lay: {"recall": round(c[0] / max(1, c[0] + c[1]), 4),
                                "precision": round(c[0] / max(1, c[0] + c[2]), 4)}
                          for lay, c in per_layout.items()}}


def cmd_bench_photos(args: argparse.Namespace) -> int:
    from vision.api import CONFIDENT, IMAGE_EXT
    from vision.errors import PhotoLabelError
    from vision.photo_bench import collect, measure

    clf = _classifier(args.decks, args.model)
    extra = sorted({label for deck in clf.decks for label in deck.labels})
    try:
        items = collect(args.paths, extra)
    except (PhotoLabelError, FileNotFoundError) as exc:
        raise PegpiError(str(exc)) from None
    if not items:
        raise PegpiError(f"no photos ({', '.join(IMAGE_EXT)}) in {', '.join(map(str, args.paths))}")

    def progress(done: int, total: int) -> None:
        if done % 25 == 0 or done == total:
            print(f"  read {done} of {total}", file=sys.stderr, flush=True)

    res = measure(items, clf, crops=args.crops, progress=None if args.json else progress).as_dict()
    res["model"] = str(clf.model_path)
    if args.json:
        print(json.dumps(res, indent=2))
        return 0
    what = "upright crops" if args.crops else "photos"
    print(f"{res['photos']} {what} of real cards read by {clf.model_path.name}"
          + (f" ({len(res['skipped'])} skipped)" if res["skipped"] else ""))
    if res["photos"]:
        print(f"  top-1 {res['top1']:.2%} ({res['right']} of {res['photos']}); confident mistakes (read at "
              f"{CONFIDENT} or more) {res['confident_mistake_rate']:.2%} ({res['confident_mistakes']}); "
              f"read as no card {res['read_as_unknown']}; {res['median_ms_per_photo']:.0f} ms a photo "
              f"(median; {res['median_cpu_ms_per_photo']:.0f} ms of CPU); peak memory {res['peak_mb']:.0f} MB")
        for part in ("by_kind", "by_group"):
            print(f"  {part.replace('_', ' ')}: " + "; ".join(
                f"{k} {v['right']}/{v['photos']} ({v['confident_mistakes']} confident mistakes)"
                for k, v in res[part].items()))
        black = res["black_suit_confusions"]
        print(f"  clubs and spades swapped: {black['count']} ({black['confident']} confident)")
    for m in res["mistakes"]:
        print(f"  wrong: {m['photo']}: {m['truth']} read as {m['read']} ({m['confidence']:.2f})")
    for sk in res["skipped"]:
        print(f"  skipped: {sk['photo']}: {sk['reason']}")
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    t0 = time.time()
    sections = None
    if args.only is not None:
        sections = [x.strip() for x in args.only.split(",") if x.strip()]
        unknown = [x for x in sections if x not in SECTIONS]
        if unknown or not sections:
            raise PegpiError(f"--only wants sections among {', '.join(SECTIONS)} (got {args.only!r})")
    try:
        design_seeds(args.pool, args.designs)
    except ValueError as exc:
        raise PegpiError(f"--designs: {exc}") from exc
    res = run_bench(args.designs, args.scenes, args.seed,
                    progress=None if args.json else (lambda m: print(m, file=sys.stderr, flush=True)), model=args.model,
                    loose=args.loose, hidden=args.hidden, commercial=args.commercial, sections=sections,
                    commercial_scenes=args.commercial_scenes, pool=args.pool)
    res["bench_seconds"] = round(time.time() - t0, 1)
    if args.json:
        print(json.dumps(res, indent=2))
        return 0
    print(f"model {res['model']}: {res['model_bytes'] / 1e6:.2f} MB"
          + (f", index network {res['index_model_bytes'] / 1e6:.2f} MB" if "index_model_bytes" in res else "")
          + (f", suit network {res['suit_model_bytes'] / 1e6:.2f} MB" if "suit_model_bytes" in res else ""))
    h = res.get("heldout")
    if h is not None:
        of_pool = "" if res["pool"] == "bench" else f" of the {res['pool']} pool"
        print(f"held-out designs ({h['designs']} decks{of_pool}, "
              f"{h['crops']} crops): top-1 {h['top1']:.2%} ({h['mistakes']} wrong, {h['clubs_spades_twins']} of them "
              f"clubs/spades twins; cards {h['top1_card']:.2%}, backs {h['top1_back']:.2%}, non-cards "
              f"{h['top1_unknown']:.2%}); confident mistakes {h['confident_mistakes']:.3%} ({h['confident']})")
    if "framing" in res:
        fr = res["framing"]
        print(f"held-out crops framed closer or further ({fr['crops']} at each): "
              + ", ".join(f"x{k} {v['top1']:.2%} ({v['mistakes']} wrong, {v['confident_mistakes']:.3%} confident)"
                          for k, v in fr["scales"].items()))
    if "loose" in res:
        lo = res["loose"]
        print(f"loose photos of one card, any angle ({lo['photos']}): top-1 {lo['top1']:.2%}; "
              f"confident mistakes {lo['confident_mistakes']:.2%}; {lo['median_ms_per_photo']:.0f} ms per photo")
    if "index_only" in res:
        io = res["index_only"]
        print(f"cards of which only the index shows ({io['crops']}), read from the index alone: top-1 {io['top1']:.2%} "
              f"(row {io['top1_row']:.2%}, held fan {io['top1_held_fan']:.2%}), read at >= 0.9 {io['read_at_0.9']:.2%}; "
              f"confident mistakes {io['confident_mistakes']:.2%}; whole-card reading {io['whole_card_top1']:.2%}")
    if "latency_ms" in res:
        lat = res["latency_ms"]
        print(f"latency per card (1 thread): batch 1 {lat['batch1_median']:.3f} ms, batched {lat['batched64_median_per_card']:.3f} ms, "
              f"classify() as the table pipeline crops {lat['classify_16_table_pipeline_crops_per_card']:.3f} ms, "
              f"crops with table round them {lat['classify_16_crops_with_preprocessing_per_card']:.3f} ms"
              + (f"; index alone (recognize) {lat['read_indices_16_crops_with_preprocessing_per_card']:.3f} ms"
                 if "read_indices_16_crops_with_preprocessing_per_card" in lat else ""))
    if "enrolment" in res:
        e = res["enrolment"]
        print(f"enrolment ({e['deck']}, 1 view per card): top-1 {e['top1']:.2%} on {e['test_views']} new views; "
              f"confident mistakes {e['confident_mistakes']:.2%}; "
              f"French cards taken for enrolled {e['french_cards_taken_for_enrolled']:.2%}")
    if "recognize" in res:
        r = res["recognize"]
        print(f"recognize ({r['photos']} photos, {r['cards']} cards): recall {r['recall']:.2%}, precision "
              f"{r['precision']:.2%}, {r['median_seconds_per_photo']:.2f} s per photo; "
              + ", ".join(f"{lay} {v['recall']:.0%}/{v['precision']:.0%}" for lay, v in r["by_layout"].items()))
        bi = r["rows_and_held_fans_by_index"]
        print("  rows and held fans, recall by what shows of each card's corner index: "
              + ", ".join(f"{k.replace('_', ' ')} {v['recall']:.1%} of {v['cards']}" for k, v in bi.items()))
    if h is not None:
        print(f"worst confusions: {h['worst_confusions']}")
    if "commercial" in res:
        for name, d in res["commercial"]["decks"].items():
            if "error" in d:
                print(f"commercial deck {name}: not read: {d['error']}")
                continue
            c, t, lo = d["clean"], d["table"], d["loose"]
            print(f"commercial deck {name} ({d['faces']} faces, never trained on): clean {c['top1']:.2%}; "
                  f"table crops ({t['crops']}) top-1 {t['top1']:.2%} (courts {t['top1_courts']:.2%}), confident "
                  f"mistakes {t['confident_mistakes']:.2%}; loose photos ({lo['photos']}) top-1 {lo['top1']:.2%}, "
                  f"confident mistakes {lo['confident_mistakes']:.2%}")
            print(f"  worst table confusions: {t['worst_confusions']}")
            if "recognize" in d:
                r = d["recognize"]
                lay = ", ".join(f"{k} {v['recall']:.0%}/{v['precision']:.0%}" for k, v in r["by_layout"].items())
                print(f"  recognize on {r['photos']} photos ({r['cards']} cards): recall {r['recall']:.1%}, "
                      f"precision {r['precision']:.1%} ({lay})")
    return 0
