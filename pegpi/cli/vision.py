"""`pegpi mat` (print a play mat), `pegpi table-sim` (a simulated deal read by the camera
pipeline) and `pegpi bench vision` (frame time and placement latency)."""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import TYPE_CHECKING, Any

from games import get_game
from pegpi.errors import CommandError
from vision.errors import VisionError

if TYPE_CHECKING:  # the types alone: the modules load OpenCV and Pillow, which `pegpi score` does without
    from games.spec import Spec
    from vision.api import CardClassifier
    from vision.mat import MatLayout
    from vision.simtable import Step
    from vision.template_classifier import TemplateClassifier


def register(commands: Any, benches: Any) -> None:
    mat = commands.add_parser("mat", help="print the play mat for a game (PDF or PNG at true scale)")
    mat.add_argument("--game", required=True, help="game name, e.g. cribbage")
    mat.add_argument("--seats", type=int, default=2, help="number of seats (default 2)")
    mat.add_argument("--paper", choices=("A4", "A3", "A2", "A1"), default=None,
                     help="paper size (default A3, or A2 where the mat needs it)")
    mat.add_argument("--px-per-mm", type=float, default=8.0, help="resolution (8 px/mm is about 200 dpi)")
    mat.add_argument("-o", "--output", required=True, help="FILE.pdf or FILE.png")
    mat.set_defaults(func=_mat)

    sim = commands.add_parser("table-sim", help="play a random deal (or game) of any game on the simulated table, "
                                                "read by the camera pipeline, and compare it with what was played")
    sim.add_argument("--game", default="cribbage", help="game name (default cribbage); see `pegpi games`")
    sim.add_argument("--seats", type=int, default=None, help="number of players (default: the game's fewest)")
    sim.add_argument("--seed", type=int, default=0, help="which random game, camera pose and card jitter")
    sim.add_argument("--game-to-end", action="store_true", help="play the whole game, not one deal")
    sim.add_argument("--events", action="store_true",
                     help="no frames: the script's table events go straight to the table protocol")
    sim.add_argument("--fps", type=float, default=30.0)
    sim.add_argument("--json", action="store_true", help="print the comparison as JSON")
    sim.set_defaults(func=_table_sim)

    bench = benches.add_parser("vision", help="ms per camera frame (1280x720) with 0/6/12 cards; placement latency")
    bench.add_argument("--json", action="store_true", help="print figures as JSON")
    bench.add_argument("--camera", default="1280x720", help="the camera's frame, WIDTHxHEIGHT (default 1280x720)")
    bench.add_argument("--frames", type=int, default=90, help="frames measured per card count")
    bench.add_argument("--grey-camera", action="store_true",
                       help="through a camera that shows no colour and more noise (as a NoIR module): suits by shape too")
    bench.set_defaults(func=_bench)


def frame_size(text: str, flag: str = "--camera") -> tuple[int, int]:
    """A camera frame's ``WIDTHxHEIGHT`` as given on the command line, at least 160 a side;
    :class:`CommandError` naming ``flag`` otherwise."""
    import re

    size = re.fullmatch(r"(\d{1,5})x(\d{1,5})", text.strip())
    if size is None or min(int(size[1]), int(size[2])) < 160:
        raise CommandError(f"{flag}: give the frame as WIDTHxHEIGHT, at least 160 a side (1280x720), not {text!r}")
    return int(size[1]), int(size[2])


def _layout_for_game(game: str, seats: int, paper: str | None) -> tuple[Spec, MatLayout]:
    from vision.mat import layout_for, mat_paper

    spec = get_game(game).spec
    if seats not in spec.players:
        raise CommandError(f"{spec.name} is played by {', '.join(map(str, spec.players))} players, "
                           f"not {seats}")
    try:
        return spec, layout_for(spec.table, seats, paper or mat_paper(spec.table, seats))
    except VisionError as exc:
        raise CommandError(f"{spec.name}: {exc}") from exc


def _mat(args: argparse.Namespace) -> int:
    from vision.mat_print import save_mat

    spec, layout = _layout_for_game(args.game, args.seats, args.paper)
    try:
        path = save_mat(layout, spec.title or spec.name, args.output, args.px_per_mm)
    except VisionError as exc:
        raise CommandError(str(exc)) from exc
    zones = ", ".join(f"{z.name} ({len(z.slots)})" for z in layout.zones)
    print(f"{path}: {spec.title or spec.name}, {layout.table} mat for {layout.seats} seats on {layout.paper}; "
          f"zones (outlines): {zones}")
    return 0


def _stand_in(px_per_mm: float = 3.0) -> TemplateClassifier:
    from vision.render import CARD_IDS
    from vision.simtable import default_card_art
    from vision.template_classifier import TemplateClassifier

    return TemplateClassifier.from_art([*CARD_IDS, "back"], default_card_art(px_per_mm=px_per_mm))


def _classifier() -> tuple[CardClassifier, str]:
    """The shipped model if it loads; otherwise the template stand-in taught the simulator's deck."""
    try:
        from vision.classify import load_default_classifier

        return load_default_classifier(threads=1), "onnx model (vision.classify)"
    except Exception as exc:  # no model yet, or onnxruntime missing: measure the rest of the pipeline
        return _stand_in(), f"template stand-in ({type(exc).__name__}: no model loaded)"


def _table_sim(args: argparse.Namespace) -> int:
    from games.errors import PegpiError
    from pegpi.tablesim import table_sim

    if args.seed < 0:
        raise CommandError(f"--seed must be 0 or more, got {args.seed}")
    if args.fps <= 0:
        raise CommandError(f"--fps must be more than 0, got {args.fps}")
    try:
        report = table_sim(args.game, seats=args.seats, seed=args.seed, whole_game=args.game_to_end,
                           frames=not args.events, fps=args.fps)
    except PegpiError as exc:
        raise CommandError(str(exc)) from exc
    if args.json:
        print(json.dumps(report.to_json()))
        return 0 if report.same else 1
    what = "whole game" if report.whole_game else "deal"
    seats = f"{report.seats} seat{'s' if report.seats != 1 else ''}"
    print(f"simulated {report.game} {what}, {seats}, seed {report.seed}; classifier: {report.classifier}")
    if report.frames:
        print(f"  table events: {report.events_read} read, {report.events_played} played "
              f"({'the same' if report.events_same else 'DIFFERENT'}); {report.frames_rendered} frames")
    print(f"  actions: {report.actions_recorded} recorded, {report.actions_played} played; "
          f"questions answered: {report.asked}")
    print(f"  scores: {list(report.scores)} (played {list(report.scores_played)}); winner "
          f"{report.winner} (played {report.winner_played})")
    for problem in report.problems:
        print(f"  problem: {problem}")
    for misread in report.corrected:
        print(f"  corrected when asked: {misread}")
    if report.first_difference:
        print(f"  first difference: {report.first_difference}")
    print(f"{'the same as played' if report.same else 'DIFFERENT from what was played'} "
          f"({report.seconds:.1f} s)")
    return 0 if report.same else 1


def _percentile(values: list[float], q: float) -> float:
    import numpy as np

    return float(np.percentile(np.asarray(values), q)) if values else float("nan")


_TWELVE = [("seat0", c) for c in ("AS", "4H", "7C", "10D", "KS")] + [("seat1", c) for c in ("2D", "5S", "8H", "JC", "QH")]
_TWELVE += [("starter", "5D"), ("crib", "back")]
_SIX = [("seat0", "AS"), ("seat0", "4H"), ("seat0", "7C"), ("seat1", "2D"), ("seat1", "5S"), ("seat1", "8H")]


def _bench(args: argparse.Namespace) -> int:
    import cv2
    import numpy as np

    from vision.mat import layout_for
    from vision.pipeline import STAGES, TablePipeline
    from vision.simtable import CameraPose, Idle, Place, Shake, SimTable

    size = frame_size(args.camera)
    cv2.setNumThreads(1)
    layout = layout_for("pegging", 2)
    pose = CameraPose(fill=0.86, tilt=0.08, roll=1.5, offset=(10.0, 0.0))
    classifier, name = _classifier()
    fps = 30.0
    report: dict[str, Any] = {"classifier": name, "frame": f"{size[0]}x{size[1]}", "threads": 1, "frame_ms": {},
                              "camera": "grey" if args.grey_camera else "colour"}
    grey = bool(args.grey_camera)
    for cards in ([], _SIX, _TWELVE):
        script: list[Step] = [Idle(0.15), *(Place(card, zone, hand=False) for zone, card in cards)]
        script += [Idle(0.2), Shake(1.0), Idle(args.frames / fps)]
        sim = SimTable(layout, script, title="cribbage", fps=fps, pose=pose, seed=len(cards), grey=grey, size=size)
        frames = list(sim.frames())
        pipeline = TablePipeline(layout, classifier)
        measured = frames[-args.frames:]
        for frame in frames[: len(frames) - len(measured)]:
            pipeline.process(frame.image, frame.t)  # learn the mat and settle the cards
        totals: list[float] = []
        cpu: list[float] = []
        stages: dict[str, list[float]] = {s: [] for s in STAGES}
        for frame in measured:
            start, start_cpu = time.perf_counter(), time.thread_time()
            result = pipeline.process(frame.image, frame.t)
            totals.append((time.perf_counter() - start) * 1e3)
            cpu.append((time.thread_time() - start_cpu) * 1e3)
            for s in STAGES:
                stages[s].append(result.timings[s])
        seen = len(result.sighting.cards) if result.sighting else 0
        report["frame_ms"][str(len(cards))] = {
            "median": round(float(np.median(totals)), 2), "p95": round(_percentile(totals, 95), 2),
            "cpu_median": round(float(np.median(cpu)), 2),
            "cards_seen": seen, "stages_median": {s: round(float(np.median(v)), 2) for s, v in stages.items()},
        }
    # placement -> event: cards dropped one at a time, 30 fps, processing time included
    script = [Idle(0.2)]
    for zone, card in _TWELVE:
        script += [Place(card, zone, hand=False), Idle(0.5)]
    sim = SimTable(layout, script, title="cribbage", fps=fps, pose=pose, seed=99, grey=grey, size=size)
    pipeline = TablePipeline(layout, classifier)
    latencies, right = [], 0
    truth = {(e.zone, e.slot): e for e in sim.truth}
    for frame in sim.frames():
        start = time.perf_counter()
        result = pipeline.process(frame.image, frame.t)
        spent = time.perf_counter() - start
        for event in result.events:
            placed = truth.get((event.zone, event.slot))
            if placed is not None and event.kind == "placed":
                latencies.append((event.t - placed.t + spent) * 1e3)
                right += event.card == placed.card
    report["latency_ms"] = {"fps": fps, "median": round(float(np.median(latencies)), 1) if latencies else None,
                            "max": round(max(latencies), 1) if latencies else None,
                            "events": len(latencies), "placed": len(truth), "read_right": right}
    report["budget"] = {"frame_ms_12_cards_median": 15.0, "latency_ms": 300.0}
    report["load_average"] = round(os.getloadavg()[0], 2)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"vision bench: {report['frame']} frames from a {report['camera']} camera, single thread, classifier: {name}")
    for cards, fig in report["frame_ms"].items():
        stage_text = " ".join(f"{s} {v:.2f}" for s, v in fig["stages_median"].items())
        print(f"  {cards:>2} cards: median {fig['median']:6.2f} ms  p95 {fig['p95']:6.2f} ms  "
              f"cpu {fig['cpu_median']:6.2f} ms  (seen {fig['cards_seen']}; stages: {stage_text})")
    lat = report["latency_ms"]
    print(f"  placement -> event at {fps:.0f} fps: median {lat['median']} ms, max {lat['max']} ms "
          f"({lat['events']}/{lat['placed']} placements, {lat['read_right']} read right)")
    print("  budget: <= 15 ms median with 12 cards; <= 300 ms placement -> event")
    print(f"  machine load average while measuring: {report['load_average']} (wall times grow with it; "
          "cpu is this thread's own time)")
    return 0
