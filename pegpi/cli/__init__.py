"""The `pegpi` command line.

Every module in this package that defines ``register(commands, benches)`` adds its own
sub-commands (and ``pegpi bench`` targets), so each part of the product owns its commands.
Command modules import heavy libraries (OpenCV, onnxruntime, Flask) inside their handlers,
never at module level, so that `pegpi score` starts in a blink.

A handler takes the parsed ``argparse.Namespace`` and returns the process exit code.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

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


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code = args.func(args)
    except PegpiError as exc:
        print(f"pegpi: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return int(code or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
