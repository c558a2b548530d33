"""`pegpi board`: draw the peg board to PNG files, or check the OLED, LEDs and buttons of a build.

    pegpi board --demo -o docs/board             # the README pictures (4x, one per state and size)
    pegpi board --record game.json -o frames/     # every step of a game record, and an animated GIF
    pegpi board --view view.json -o board.png     # one view
    pegpi board --check [--config pegpi.toml]     # on the Pi: demo on the display, LEDs in turn, buttons echoed
"""

from __future__ import annotations

import argparse
import json
import logging
import time
import tomllib
from pathlib import Path
from typing import Any

from games.records import game_of, load_record
from games.view import TableView
from pegpi.errors import CommandError

SIZES = {"128x64": (128, 64), "128x32": (128, 32), "256x64": (256, 64)}



def register(commands: Any, benches: Any) -> None:
    p = commands.add_parser(
        "board",
        help="draw the peg board to PNGs, or check the display, LEDs and buttons",
        description="Draw the OLED peg board for example states, a game record or one view, "
                    "or (with --check) exercise the display, LEDs and buttons of a build.",
    )
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--demo", action="store_true", help="example states of a cribbage game")
    what.add_argument("--record", help="a game record (JSON): one picture per action")
    what.add_argument("--view", help="a view (JSON, as a view's to_json() gives it)")
    what.add_argument("--check", action="store_true", help="exercise the hardware in the config")
    p.add_argument("-o", "--out", help="output folder (a .png file for --view)")
    p.add_argument("--size", action="append", choices=sorted(SIZES),
                   help="screen size (repeatable; default 128x64, 128x32 and 256x64 for --demo)")
    p.add_argument("--scale", type=int, default=4, help="enlarge pictures (nearest pixel), default 4")
    p.add_argument("--config", help="a TOML file with [display], [leds], [buttons], [strip] (for --check)")
    p.add_argument("--seconds", type=float, default=20.0, help="--check: how long to echo button presses")
    p.add_argument("--pace", type=float, default=1.0, help="--check: seconds per example board")
    p.set_defaults(func=cmd_board)


def _enlarge(image: Any, scale: int) -> Any:
    from PIL import Image

    picture = image.convert("L")
    if scale > 1:
        picture = picture.resize((picture.width * scale, picture.height * scale), Image.Resampling.NEAREST)
    return picture


def _sizes(args: argparse.Namespace, default: list[str]) -> list[tuple[int, int]]:
    return [SIZES[name] for name in (args.size or default)]


def cmd_board(args: argparse.Namespace) -> int:
    if args.scale < 1 or args.scale > 16:
        raise CommandError(f"--scale {args.scale} must be 1..16")
    if args.check:
        return check_hardware(args)
    if not args.out:
        raise CommandError("say where the pictures go: -o FOLDER (or -o FILE.png with --view)")
    if args.demo:
        return demo(Path(args.out), _sizes(args, list(SIZES)), args.scale)
    if args.record:
        return record_frames(Path(args.record), Path(args.out), _sizes(args, ["128x64"])[0], args.scale)
    return one_view(Path(args.view), Path(args.out), _sizes(args, ["128x64"])[0], args.scale)


def demo(out: Path, sizes: list[tuple[int, int]], scale: int) -> int:
    from device.board import render_board, samples
    from device.board.announce import announcement_frames

    out.mkdir(parents=True, exist_ok=True)
    written = 0
    for name, make in samples.ALL.items():
        for size in sizes:
            _enlarge(render_board(make(), size), scale).save(out / f"{name}-{size[0]}x{size[1]}.png", optimize=True)
            written += 1
    for name in ("play", "thirty-one", "go", "show"):
        for size in sizes[:1]:
            frames = [_enlarge(f, scale) for f in announcement_frames(samples.ALL[name](), size)]
            board = _enlarge(render_board(samples.ALL[name](), size), scale)
            _save_gif(out / f"announce-{name}-{size[0]}x{size[1]}.gif", [*frames, board],
                      [80] * (len(frames) - 1) + [1500, 2000])
            written += 1
    print(f"wrote {written} pictures to {out}")
    return 0


def _save_gif(path: Path, frames: list[Any], durations: list[int]) -> None:
    frames[0].save(path, save_all=True, append_images=frames[1:], duration=durations, loop=0, optimize=True)


def _load_json(path: Path, what: str) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CommandError(f"cannot read the {what} {str(path)!r}: {exc.strerror}") from exc
    except json.JSONDecodeError as exc:
        raise CommandError(f"{path.name} is not valid JSON: {exc.msg} at line {exc.lineno}") from exc


def one_view(path: Path, out: Path, size: tuple[int, int], scale: int) -> int:
    from device.board import render_board
    from games.errors import ViewError
    from games.view import view_from_json

    try:
        view = view_from_json(_load_json(path, "view"))
    except ViewError as exc:
        raise CommandError(f"{path.name} is not a view: {exc}") from exc
    if out.suffix.lower() != ".png":
        out.mkdir(parents=True, exist_ok=True)
        out = out / f"{path.stem}.png"
    _enlarge(render_board(view, size), scale).save(out, optimize=True)
    print(f"wrote {out}")
    return 0


def record_frames(path: Path, out: Path, size: tuple[int, int], scale: int) -> int:
    """Every step of a record through the real engine, as PNGs and one GIF with the announcements."""
    from device.board import render_board
    from device.board.announce import announcement_frames

    record = load_record(path)
    game = game_of(record)
    state = game.new_initial_state()
    out.mkdir(parents=True, exist_ok=True)
    movie: list[Any] = []
    durations: list[int] = []
    views = [state.view_for(None)]
    for action in record.get("actions", []):
        state = state.apply_json(action)
        views.append(state.view_for(None))
    previous: list[int] | None = None
    for index, view in enumerate(views):
        picture = _enlarge(render_board(view, size), scale)
        picture.save(out / f"step-{index:04d}.png", optimize=True)
        now = [side.score for side in view.sides]
        if previous is not None and now != previous:
            for frame in announcement_frames(view, size):
                movie.append(_enlarge(frame, scale))
                durations.append(80)
            durations[-1] = 900
        movie.append(picture)
        durations.append(400)
        previous = now
    durations[-1] = 4000
    _save_gif(out / "game.gif", movie, durations)
    print(f"wrote {len(views)} pictures and game.gif to {out}")
    return 0


def _config(path: str | None) -> dict[str, Any]:
    if path is None:
        return {}
    try:
        with open(path, "rb") as handle:
            data: dict[str, Any] = tomllib.load(handle)
    except OSError as exc:
        raise CommandError(f"cannot read the config {path!r}: {exc.strerror}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise CommandError(f"{path} is not valid TOML: {exc}") from exc
    return data


def check_hardware(args: argparse.Namespace) -> int:
    """Show the demo states on the display, light each LED in turn, then echo button presses."""
    from device.board import samples
    from device.buttons import ButtonPanel
    from device.display import BoardDisplay
    from device.leds import TableLights
    from device.strip import PegStrip

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
    config = _config(args.config)
    echo = _EchoTable()
    with BoardDisplay.from_config(config.get("display")) as display, \
            TableLights(config.get("leds")) as lights, PegStrip(config.get("strip")) as strip, \
            ButtonPanel(echo, config.get("buttons"), screen=display) as buttons:
        print(f"display: {'yes' if display.device is not None else 'none'}; LEDs: "
              f"{'yes' if lights.available else 'none'}; strip: {'yes' if strip.device is not None else 'none'}; "
              f"buttons: {', '.join(sorted(buttons.buttons)) or 'none'}")
        if display.device is None and not lights.available and strip.device is None and not buttons.buttons:
            raise CommandError("no hardware found: no display, LEDs, strip or buttons answered "
                               "(check the wiring, and [display]/[leds]/[buttons]/[strip] in the config)")
        for name, make in samples.ALL.items():
            print(f"board: {name}")
            view = make()
            display.announce(view) if view.last is not None else display.show(view)
            lights.show(view)
            strip.show(view)
            time.sleep(args.pace)
        for led in [*lights.seat_leds, *(list(lights.bar) if lights.bar is not None else []),
                    lights.score, lights.problem]:
            if led is not None:
                print(f"LED on {led.pin}")
                led.on()
                time.sleep(min(0.4, args.pace))
                led.off()
        display.notice(["Press the buttons"], big="OK?")
        print(f"press the buttons (for {args.seconds:.0f} s; Menu held = new game)")
        time.sleep(max(0.0, args.seconds))
    return 0


class _EchoTable:
    """Stands in for the table session during --check: prints what each button asked for."""

    pairing_code = "1234"

    def new_pairing_code(self) -> str:
        print("button: a new pairing code")
        return self.pairing_code

    def view(self, seat: int | None = None) -> TableView:
        from device.board import samples

        return samples.play()

    def _say(self, what: str) -> TableView:
        print(f"button: {what}")
        return self.view()

    def submit(self, action: dict[str, Any], *, source: str = "phone") -> TableView:
        return self._say(f"submit {action}")

    def undo(self, *, source: str = "phone") -> TableView:
        return self._say("undo")

    def confirm(self, *, source: str = "button") -> TableView:
        return self._say("confirm (OK)")

    def new_game(self, game: str, players: list[str], options: dict[str, Any] | None = None) -> TableView:
        return self._say(f"new game {game} for {players}")
