"""docs/adding-a-game.md's example game runs as written (in a fresh interpreter, so the game it
registers never reaches the catalogue the other tests see)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

GUIDE = Path(__file__).resolve().parents[1] / "docs" / "adding-a-game.md"


def test_the_guides_example_game_plays_and_scores() -> None:
    blocks = re.findall(r"```python\n(.*?)```", GUIDE.read_text(), flags=re.S)
    assert blocks, "the guide has no runnable example"
    code = "\n".join(blocks) + "\nprint('played')\n"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         cwd=GUIDE.parents[1])
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "played"
