"""The shipped model's training command, as cards.json records it, is still accepted by
``python -m vision.train`` (checked without torch: the parser only)."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

from vision.classify import MODELS_DIR

# torch stands in as a mock in a child process, so this process's modules stay as they are
_PARSE = """
import json, shlex, sys
from unittest import mock
for name in ("torch", "torch.nn", "torch.nn.functional", "torch.optim", "torch.onnx"):
    sys.modules[name] = mock.MagicMock()
from vision.train.__main__ import build_parser
args = build_parser().parse_args(sys.argv[1:])
print(json.dumps({k: str(v) for k, v in vars(args).items()}))
"""


def _parse(argv: list[str]) -> subprocess.CompletedProcess[str]:
    root = Path(__file__).resolve().parents[2]
    return subprocess.run([sys.executable, "-c", _PARSE, *argv], capture_output=True, text=True, cwd=root,
                          env={"PYTHONPATH": str(root), "PATH": ""}, timeout=120)


def test_the_shipped_models_training_command_parses() -> None:
    command = json.loads((MODELS_DIR / "cards.json").read_text(encoding="utf-8"))["train"]["command"]
    words = shlex.split(command)
    assert words[:3] == ["python", "-m", "vision.train"]
    run = _parse(words[3:])
    assert run.returncode == 0, run.stderr
    args = json.loads(run.stdout)
    assert (args["seed"], args["steps"], args["top_right"], args["suit_steps"]) == ("2", "6300", "True", "3000")


def test_an_option_no_shipped_model_used_is_refused() -> None:
    run = _parse(["--whole-pool", "4"])
    assert run.returncode == 2 and "--whole-pool" in run.stderr


def test_a_damaged_share_of_each_batch_is_asked_for_by_damage() -> None:
    run = _parse(["--damage", "0.3"])
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["damage"] == "0.3"
    assert json.loads(_parse([]).stdout)["damage"] == "0.0"
