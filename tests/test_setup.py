"""The set-up's promises: `make run` runs as the service does."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def recipe(target: str) -> list[str]:
    lines = (ROOT / "Makefile").read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"{target}:"))
    body = []
    for line in lines[start + 1:]:
        if not line.startswith("\t"):
            break
        body.append(line.strip())
    return body


def test_make_run_sets_the_service_s_malloc_arenas() -> None:
    unit = (ROOT / "systemd" / "pegpi.service").read_text()
    arenas = re.search(r"^Environment=MALLOC_ARENA_MAX=(\d+)$", unit, re.M)
    assert arenas is not None
    run = [line for line in recipe("run") if "pegpi run" in line]
    assert run and all(line.startswith(f"MALLOC_ARENA_MAX={arenas.group(1)} ") for line in run)
