"""Teach the shipped card network photos damaged as real ones are, without training it again.

The card network was trained on rendered crops through :func:`vision.render.photo.camera`, whose
blur, noise and JPEG are mild next to a shaken phone, a dim room or a cheap webcam. This stage
takes the shipped ``cards.onnx`` back into torch (:func:`card_net_from_onnx`; the export folded
each batch norm into its convolution, so the norms come back as the identity plus the folded
bias), and teaches it a thousand steps more on fresh rendered crops of which a share is
damaged further (:func:`damaged`): a smear, a focus blur, a dim and noisy sensor, a heavy JPEG.
The batch norms stay frozen and the learning rate is a tenth of training's, so what it knew of
clean crops stays. Its two heads are recalibrated on validation designs and its enrolment
threshold measured again, and it is written as a complete model folder (the other networks
copied beside it, and the checkpoint ``cards.pt``), which ``--model`` of every bench can read.

    python -m vision.train.tune --from models/cards.onnx --out build/tuned [--distil 1] [--real PHOTOS]

With ``--distil``, each crop, damaged or not, is also taught to read as the untaught network reads
it undamaged: the damage is taught away without the steps sharpening what the network said of
clean crops (tried in session 80, see ``models/HISTORY.md``).

With ``--real``, a share of each batch are crops of real photos of one card, named as ``pegpi
bench photos`` reads them: each card cut out along the outline :func:`vision.recognize.read_card`
finds where that reading names the photo's card, several times with its corners moved a little
(:func:`real_crops`), and damaged as the rendered crops are.

Grey is not among the damages: a photo without colour has the grey suit network of its own
(:mod:`vision.train.grey`), and a card network taught grey crops loses red from black on
colour ones (tried in session 78, see ``models/HISTORY.md``).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from vision.classify import LABELS, MODEL_FILE
from vision.train import data
from vision.train.data import DAMAGES, TAUGHT, damaged

if TYPE_CHECKING:
    import torch

    from vision.api import CardClassifier
    from vision.train.model import CardNet


def card_net_from_onnx(path: Path) -> tuple[CardNet, float, float]:
    """The card network an exported ``cards.onnx`` holds, as torch, with its temperature and its
    corner head's. Each convolution's folded weights and bias come back into the convolution and
    the batch norm after it (set to pass its input through, adding the bias); the trunk and the
    heads keep their names in the file. The embedding and whole-card heads are not in the file
    (the product reads neither) and stay as initialised."""
    import onnx
    import torch
    from onnx import numpy_helper
    from torch import nn

    from vision.train.model import CardNet

    graph = onnx.load(str(path)).graph
    weights = {i.name: numpy_helper.to_array(i).copy() for i in graph.initializer}
    net = CardNet(len(LABELS), width=1, corner_head=True, whole_head=False, top_right=True)
    modules = dict(net.named_modules())
    convs = [(name, m) for name, m in net.named_modules() if isinstance(m, nn.Conv2d)]
    nodes = [n for n in graph.node if n.op_type == "Conv"]
    if len(nodes) != len(convs):
        raise ValueError(f"{path} has {len(nodes)} convolutions; the card network has {len(convs)}")
    state = net.state_dict()
    with torch.no_grad():
        for node, (name, conv) in zip(nodes, convs, strict=True):
            w, b = weights[node.input[1]], weights[node.input[2]]
            if tuple(w.shape) != tuple(conv.weight.shape):
                raise ValueError(f"{path}: {name} is {tuple(w.shape)}, the card network's {tuple(conv.weight.shape)}")
            conv.weight.copy_(torch.from_numpy(w))
            parent, at = name.rsplit(".", 1)
            norm = modules[parent][int(at) + 1]
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0 - norm.eps)
            norm.weight.fill_(1.0)
            norm.bias.copy_(torch.from_numpy(b))
        for name, value in weights.items():
            if name.startswith("net."):
                state[name[4:]].copy_(torch.from_numpy(value))
    return net, 1.0 / float(weights["inv_t"]), 1.0 / float(weights["inv_tc"])


def _seen(paths: list[Path]) -> tuple[np.ndarray, np.ndarray]:
    """The crops of ``paths`` in which the whole card shows, and their labels."""
    parts = data.load(paths)
    keep = ~parts["hidden"]
    return parts["x"][keep], parts["y"][keep].astype(np.int64)


#: cuts of each real photo taught (:func:`real_crops`)
REAL_CUTS = 8


def real_crops(paths: list[Path], classifier: CardClassifier, rng: np.random.Generator,
               per_photo: int = REAL_CUTS, move: float = 0.02) -> tuple[np.ndarray, np.ndarray, int]:
    """Crops of the labelled real photos under ``paths`` (:func:`vision.photo_bench.collect`):
    where :func:`vision.recognize.read_card` reads a photo's own card, its outline cut
    ``per_photo`` times, each corner moved up to ``move`` of the card's height (a cut as loose or
    tight as the table's). Also the number of photos left out (read as another card, or unreadable)."""
    import cv2

    from vision.model_input import INPUT_H, INPUT_W, preprocess
    from vision.photo_bench import collect
    from vision.recognize import read_card, warp

    xs: list[np.ndarray] = []
    ys: list[int] = []
    left_out = 0
    for path, label in collect(paths):
        img = cv2.imread(str(path))
        if img is None:
            left_out += 1
            continue
        found = read_card(img, classifier)
        if found.card != label:
            left_out += 1
            continue
        quad = found.corners.astype(np.float32)
        span = float(np.linalg.norm(quad[3] - quad[0]))
        for _ in range(per_photo):
            moved = quad + rng.uniform(-move, move, (4, 2)).astype(np.float32) * span
            xs.append(preprocess(warp(img, moved)))
            ys.append(LABELS.index(label))
    x = np.stack(xs) if xs else np.empty((0, INPUT_H, INPUT_W, 3), np.uint8)
    return x, np.array(ys, np.int64), left_out


def _logits(net: CardNet, x: np.ndarray, head: int = 0) -> np.ndarray:
    """The logits of ``x`` from the card head (``head`` 0) or the corner head (2)."""
    import torch

    from vision.model_input import to_tensor

    net.eval()
    with torch.no_grad():
        rows: np.ndarray = torch.cat([net(torch.from_numpy(to_tensor(x[i:i + 500])))[head]
                                      for i in range(0, len(x), 500)]).numpy()
    return rows


def _figures(logits: np.ndarray, y: np.ndarray, temperature: float) -> dict[str, float]:
    e = np.exp((logits - logits.max(1, keepdims=True)) / temperature)
    p = e / e.sum(1, keepdims=True)
    wrong = p.argmax(1) != y
    return {"accuracy": round(float((~wrong).mean()), 5),
            "confident_mistakes": round(float((wrong & (p.max(1) >= 0.9)).mean()), 5)}


def tune(net: CardNet, x: np.ndarray, y: np.ndarray, *, steps: int, share: float, kinds: tuple[str, ...],
         lr: float, seed: int, batch: int = 256, distil: float = 0.0,
         real: tuple[np.ndarray, np.ndarray] | None = None, real_share: float = 0.0) -> CardNet:
    """``net`` taught ``steps`` batches of ``x`` (a ``share`` of each batch :func:`damaged`), its
    batch norms frozen, on a one-cycle schedule up to ``lr``. ``distil``: the weight of a second
    aim, each crop (damaged or not) read as the untaught network reads it undamaged, so the steps
    teach the damage away without sharpening what the network already said (:func:`_kept`).
    ``real``: crops of real photos (:func:`real_crops`), a ``real_share`` of each batch."""
    import copy

    import torch
    from torch import nn
    from torch.nn import functional as F

    from vision.train.model import nhwc_tensor

    teacher = copy.deepcopy(net).eval() if distil > 0 else None
    net = net.to(memory_format=torch.channels_last)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.1)
    gen = np.random.default_rng([seed, 78])
    real_x, real_y = real if real is not None else (x[:0], y[:0])
    n_real = round(batch * real_share) if len(real_y) else 0
    t0 = time.time()
    for step in range(steps):
        net.train()
        for m in net.modules():  # the statistics the file was exported with stay as they were
            if isinstance(m, nn.BatchNorm2d | nn.BatchNorm1d):
                m.eval()
        pick = gen.integers(0, len(y), batch - n_real)
        xs, ys = x[pick], y[pick]
        if n_real:
            take = gen.integers(0, len(real_y), n_real)
            xs, ys = np.concatenate([xs, real_x[take]]), np.concatenate([ys, real_y[take]])
        clean = data.brighten(xs, gen)
        xb = clean.copy()
        data.damage(xb, gen, share, kinds)
        logits, _, corner, _ = net(nhwc_tensor(xb), nhwc_tensor(data.half_size(xb)))
        yb = torch.from_numpy(ys)
        loss = F.cross_entropy(logits, yb, label_smoothing=0.05)
        if corner is not None:
            loss = loss + 0.5 * F.cross_entropy(corner, yb, label_smoothing=0.05)
        if teacher is not None:
            with torch.no_grad():
                was, _, was_corner, _ = teacher(nhwc_tensor(clean), nhwc_tensor(data.half_size(clean)))
            loss = loss + distil * _kept(logits, was)
            if corner is not None and was_corner is not None:
                loss = loss + 0.5 * distil * _kept(corner, was_corner)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 50 == 0:
            print(f"  step {step}/{steps} loss {loss.item():.3f} ({(time.time() - t0) / 60:.1f} min)", flush=True)
    tuned: CardNet = net.to(memory_format=torch.contiguous_format)
    return tuned


def _kept(logits: torch.Tensor, was: torch.Tensor) -> torch.Tensor:
    """How far ``logits`` read otherwise than the untaught network's ``was`` of the same crops
    undamaged: the divergence of their softmaxes, the teacher's as the target."""
    from torch.nn import functional as F

    return F.kl_div(F.log_softmax(logits, dim=1), F.log_softmax(was, dim=1), reduction="batchmean", log_target=True)


def main(argv: list[str] | None = None) -> int:
    import torch

    from vision.train import enrol_calib
    from vision.train.calib import fit_temperature
    from vision.train.export import export

    ap = argparse.ArgumentParser(prog="python -m vision.train.tune", description=__doc__.split("\n\n")[0])
    ap.add_argument("--from", dest="source", type=Path, default=Path("models") / MODEL_FILE,
                    help="the exported card network to teach (its folder's other files are copied)")
    ap.add_argument("--out", type=Path, required=True, help="folder for the model it writes")
    ap.add_argument("--cache", type=Path, default=Path("build/train-data"))
    ap.add_argument("--data-seed", type=int, default=8, help="a seed no training run of the source used")
    ap.add_argument("--instances", type=int, default=20_000)
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--share", type=float, default=0.5, help="share of each batch damaged")
    ap.add_argument("--damages", default=",".join(TAUGHT), help=f"comma-separated, of {', '.join(DAMAGES)}")
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--distil", type=float, default=0.0,
                    help="weight of reading every crop as the source reads it undamaged (0: labels alone)")
    ap.add_argument("--real", type=Path, nargs="*", default=[],
                    help="labelled real photos of one card, or folders of them, a share of each batch cut from them")
    ap.add_argument("--real-share", type=float, default=0.25, help="share of each batch from --real")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args(argv)
    kinds = tuple(k for k in args.damages.split(",") if k)
    unknown = [k for k in kinds if k not in DAMAGES]
    if unknown or not kinds:
        ap.error(f"--damages: {', '.join(unknown) or 'none given'}; choose from {', '.join(DAMAGES)}")
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    real = None
    if args.real:  # before the rendering: a wrong folder is told at once
        from vision.classify import OnnxCardClassifier
        from vision.errors import PhotoLabelError

        try:
            rx, ry, left_out = real_crops(args.real, OnnxCardClassifier(args.source),
                                          np.random.default_rng([args.seed, 7]))
        except (FileNotFoundError, PhotoLabelError) as exc:
            ap.error(f"--real: {exc}")
        if not len(ry):
            ap.error(f"--real: no photo under {', '.join(map(str, args.real))} reads as the card it is named after")
        real = (rx, ry)
        print(f"{len(ry)} real crops of {len(ry) // REAL_CUTS} photos ({left_out} left out: read as another card "
              "or unreadable)", flush=True)
    t0 = time.time()
    held, courts = 0.1, 0.45  # as the source was trained (models/cards.json, train.command)
    train_paths, val_paths = data.build(data.cache_dir(args.cache, args.data_seed, held, courts), args.data_seed,
                                        args.instances, 2_000, workers=args.threads, held=held, courts=courts)
    x, y = _seen(train_paths)
    vx, vy = _seen(val_paths)
    vgen = np.random.default_rng([args.seed, 99])
    vdamaged = np.stack([damaged(c, vgen, kinds) for c in vx])
    net, temperature, corner_temperature = card_net_from_onnx(args.source)
    before = {"clean": _figures(_logits(net, vx), vy, temperature),
              "damaged": _figures(_logits(net, vdamaged), vy, temperature)}
    print(f"{len(y)} training crops; before: {before}", flush=True)
    net = tune(net, x, y, steps=args.steps, share=args.share, kinds=kinds, lr=args.lr, seed=args.seed,
               distil=args.distil, real=real, real_share=args.real_share)
    clean = _logits(net, vx)
    # refitted but never sharper than the source's: the likelihood fit sharpened even a 20-step
    # run (0.662 -> 0.644), its sure mistakes on clean validation crops 0.65 -> 0.73 %
    temperature = max(temperature, fit_temperature(clean, vy))
    if net.corner_cls is not None:  # the corner head was taught too: its confidence moved with it
        corner_temperature = max(corner_temperature, fit_temperature(_logits(net, vx, head=2), vy))
    after = {"clean": _figures(clean, vy, temperature), "damaged": _figures(_logits(net, vdamaged), vy, temperature)}
    print(f"temperature {temperature:.4f}, corner {corner_temperature:.4f}; after: {after}", flush=True)

    args.out.mkdir(parents=True, exist_ok=True)
    for f in args.source.parent.iterdir():  # the other networks, unchanged
        if f.is_file() and f.name != MODEL_FILE and f.suffix in (".onnx", ".txt"):
            shutil.copyfile(f, args.out / f.name)
    meta: dict[str, Any] = json.loads(args.source.with_suffix(".json").read_text(encoding="utf-8"))
    meta["tune"] = {"command": "python -m vision.train.tune " + " ".join(sys.argv[1:] if argv is None else argv),
                    "data_seed": args.data_seed, "instances": args.instances, "steps": args.steps,
                    "share": args.share, "damages": list(kinds), "lr": args.lr, "distil": args.distil,
                    "real": [p.name for p in args.real], "real_crops": 0 if real is None else int(len(real[1])),
                    "real_share": args.real_share if real is not None else 0.0,
                    "minutes": round((time.time() - t0) / 60, 1),
                    "val_before": before, "val_after": after, "val_crops": int(len(vy))}
    export(net, temperature, args.out, meta, corner_temperature=corner_temperature)
    # the descriptors moved with the weights: the enrolment threshold is measured again
    enrol_calib.main([str(args.out / MODEL_FILE)])
    print(f"wrote {args.out / MODEL_FILE} ({(time.time() - t0) / 60:.1f} min)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
