"""What the small suit networks' training stages (:mod:`vision.train.grey`,
:mod:`vision.train.blacks`) share: a data set rendered in chunks by worker processes and kept
for the next run, one command line, and how the network and its facts are written."""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import cv2
import numpy as np

from vision.model_input import INPUT_W
from vision.train.data import TRAIN_DESIGNS, VAL_DESIGNS

if TYPE_CHECKING:
    from vision.train.model import SuitNet

#: named arrays of one chunk or a whole set: ``x`` the crops, ``y`` their answers, and any more
Chunk = dict[str, np.ndarray]
#: renders ``n`` crops from seed ``seed`` of the designs given
MakeChunk = Callable[[int, int, range], Chunk]


def _job(args: tuple[MakeChunk, str, int, int, str, Path]) -> Path:
    make, name, seed, n, split, folder = args
    path = folder / f"{name}-{split}-{seed}.npz"
    if not path.exists():
        cv2.setNumThreads(1)
        chunk = make(seed, n, VAL_DESIGNS if split == "val" else TRAIN_DESIGNS)
        tmp = path.with_suffix(".tmp.npz")
        np.savez(tmp, **cast(dict[str, Any], chunk))
        os.replace(tmp, path)  # a chunk cut short by a stopped run is never taken as made
    return path


def build(make: MakeChunk, name: str, folder: Path, n_train: int, n_val: int, workers: int, *,
          first_seeds: tuple[int, int], chunk: int = 500) -> tuple[Chunk, Chunk]:
    """The training set (of training designs) and validation set (of validation designs), each
    rendered by ``make`` in chunks of ``chunk`` crops, or read back from ``folder`` where an
    earlier run made them; chunk seeds count up from ``first_seeds`` (training, validation).
    ``workers`` processes render (one: this process alone)."""
    folder.mkdir(parents=True, exist_ok=True)
    jobs = [(make, name, first_seeds[0] + j, chunk, "train", folder) for j in range(n_train // chunk)]
    jobs += [(make, name, first_seeds[1] + j, chunk, "val", folder) for j in range(max(1, n_val // chunk))]
    if workers > 1:  # forked before the stage starts torch's threads
        with mp.get_context("fork").Pool(workers) as pool:
            paths = pool.map(_job, jobs, chunksize=1)
    else:
        paths = [_job(job) for job in jobs]

    def load(split: str) -> Chunk:
        parts = [np.load(p) for p in paths if f"-{split}-" in p.name]
        return {k: np.concatenate([p[k] for p in parts]) for k in parts[0].files}

    return load("train"), load("val")


def arguments(prog: str, doc: str, file: str, *, cache: str, instances: int, val_instances: int,
              steps: int) -> argparse.ArgumentParser:
    """The command line of a stage that writes ``file``: where to, its data and its training."""
    ap = argparse.ArgumentParser(prog=prog, description=doc.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True, help=f"folder for {file} and its facts")
    ap.add_argument("--cache", type=Path, default=Path(cache), help="rendered data (reused)")
    ap.add_argument("--instances", type=int, default=instances, help="training crops to render")
    ap.add_argument("--val-instances", type=int, default=val_instances)
    ap.add_argument("--steps", type=int, default=steps)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=2)
    return ap


def write_network(net: SuitNet, temperature: float, out: Path, file: str, output_name: str) -> Path:
    """``file`` (the ONNX network the product reads, its input named ``top``) and its checkpoint
    (``.pt``) into ``out``; returns the ONNX file's path."""
    import torch

    from vision.train.export import export_head
    from vision.train.model import SUIT_H

    out.mkdir(parents=True, exist_ok=True)
    path = out / file
    torch.save({"state_dict": net.state_dict(), "temperature": temperature}, path.with_suffix(".pt"))
    export_head(net, temperature, path, height=SUIT_H, width=INPUT_W, input_name="top", output_name=output_name)
    return path


def run(args: argparse.Namespace, module: str, make: MakeChunk, *, first_seeds: tuple[int, int],
        train: Callable[..., tuple[SuitNet, float, dict[str, float]]], write: Callable[[SuitNet, float, Path], Path],
        facts: Mapping[str, object], argv: list[str] | None = None, data: str | None = None) -> None:
    """A stage from its command line (:func:`arguments`): render or reuse its data, train, write
    the network and, beside it, a ``.json`` of ``facts``, the command, the validation figures and
    the minutes taken. ``data``: the name its rendered chunks are kept under (``module``'s last
    part unless given: two stages that take the same crops share them)."""
    import torch

    torch.set_num_threads(args.threads)
    t0 = time.time()
    tr, va = build(make, data or module.rsplit(".", 1)[-1], args.cache, args.instances, args.val_instances, args.threads,
                   first_seeds=first_seeds)
    print(f"data: {len(tr['y'])} training, {len(va['y'])} validation crops ({(time.time() - t0) / 60:.1f} min)", flush=True)
    net, temperature, stats = train(tr, va, steps=args.steps, seed=args.seed)
    path = write(net, temperature, args.out)
    full = {"file": path.name, "temperature": round(temperature, 4), **facts,
            "command": f"python -m {module} " + " ".join(argv if argv is not None else sys.argv[1:]),
            "steps": args.steps, "seed": args.seed, "instances": args.instances, **stats,
            "minutes": round((time.time() - t0) / 60, 1)}
    path.with_suffix(".json").write_text(json.dumps(full, indent=2) + "\n")
    print(json.dumps(full), flush=True)


def teach(net: SuitNet, y: np.ndarray, views: Callable[[np.ndarray], np.ndarray], gen: np.random.Generator, *,
          steps: int, batch: int, lr: float, name: str) -> SuitNet:
    """``net`` trained for ``steps`` batches of ``batch`` crops drawn by ``gen``: ``views(picked)``
    gives the crops of the picked rows as trained on, ``y`` their answers (AdamW, one cycle,
    label smoothing); left in evaluation mode."""
    import torch
    from torch.nn import functional as F

    from vision.train.model import nhwc_tensor, take_step

    net = net.to(memory_format=torch.channels_last)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.15)
    y_all = y.astype(np.int64)
    t0 = time.time()
    for step in range(steps):
        net.train()
        pick = gen.integers(0, len(y_all), batch)
        loss = F.cross_entropy(net(nhwc_tensor(views(pick))), torch.from_numpy(y_all[pick]), label_smoothing=0.05)
        take_step(opt, sched, loss, step, steps)
        if (step + 1) % 100 == 0:
            print(f"  {name} step {step + 1}/{steps} loss {loss.item():.3f} ({(time.time() - t0) / 60:.1f} min)", flush=True)
    trained: SuitNet = net.to(memory_format=torch.contiguous_format).eval()
    return trained


def net_logits(net: SuitNet, rows: np.ndarray) -> np.ndarray:
    """``net``'s logits (evaluation mode, no gradients) for uint8 NHWC ``rows``, 512 at a time."""
    import torch

    from vision.train.model import nhwc_tensor

    net.eval()
    with torch.no_grad():
        out: np.ndarray = torch.cat([net(nhwc_tensor(rows[i:i + 512])) for i in range(0, len(rows), 512)]).numpy()
    return out
