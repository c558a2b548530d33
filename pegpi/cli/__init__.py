"""The `pegpi` command line.

Every module in this package that defines ``register(commands, benches)`` adds its own
sub-commands (and ``pegpi bench`` targets), so each part of the product owns its commands.
Command modules import heavy libraries (OpenCV, onnxruntime, Flask, Pillow, and the parts of
pegpi built on them) inside their handlers, never at module level, so that `pegpi score` starts
in a blink.

A handler takes the parsed ``argparse.Namespace`` and returns the process exit code. Every error
pegpi raises on purpose is a ``PegpiError``: it prints as one line, ``pegpi: error: ...``, and
exits with 2; so does a file the command cannot read or write.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from collections.abc import Sequence

from device.memory import map_big_blocks
from games.errors import PegpiError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pegpi",
        description="pegpi: a table companion that reads real cards and keeps the score.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
    bench = commands.add_parser("bench", help="measure speed and memory (prints figures)")
    benches = bench.add_subparsers(dest="bench", metavar="TARGET")
    benches.required = True
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(commands, benches)
    return parser


def os_error_text(exc: OSError) -> str:
    """``cannot open 'x.json': No such file or directory`` rather than Python's repr of the error."""
    if exc.filename is None:
        return exc.strerror or str(exc)
    name = exc.filename if exc.filename2 is None else f"{exc.filename} -> {exc.filename2}"
    return f"{name!r}: {exc.strerror or exc}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    seed = getattr(args, "seed", None)
    if seed is not None and seed < 0:  # every --seed feeds a random generator that takes none below 0
        print(f"pegpi: error: --seed must be 0 or more, got {seed}", file=sys.stderr)
        return 2
    if not getattr(args, "photo_heap", False):
        map_big_blocks()  # frames and tensors in and out of memory leave no holes behind
    try:
        code = args.func(args)
        sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's exit
    except BrokenPipeError:  # the reader went away (`pegpi export | head`): stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so the interpreter's final flush does not complain
        return 1
    except PegpiError as exc:
        print(f"pegpi: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # a file named on the command line, missing, unreadable or unwritable
        print(f"pegpi: error: {os_error_text(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return int(code or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
