"""Train the card model and export it to ONNX.

    python -m vision.train --seed 0 --out models/

Makes (or reuses, from ``--cache``) the rendered data set, trains :class:`CardNet` on the CPU
with 2 threads, fits the temperature on the validation designs, and writes
``cards.onnx``, ``cards.labels.txt`` and ``cards.json`` into ``--out``. With ``--index-steps``
a second stage then trains the :class:`~vision.train.model.IndexNet` on the same crops
(:mod:`vision.train.index`) and writes ``cards_index.onnx`` too; ``--stage1 cards.pt`` takes
the first stage from a checkpoint an earlier run kept, and trains only the second;
``--index-from cards.pt`` takes the second stage from such a checkpoint instead of training it.
With ``--suit-steps`` a third stage trains the :class:`~vision.train.model.SuitNet`, which tells
clubs from spades (:mod:`vision.train.suit`), and writes ``cards_suit.onnx`` too.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import torch
from torch.nn import functional as F

from games.jsontypes import JSONObject
from vision.classify import LABELS
from vision.model_input import to_tensor
from vision.render import RENDER_VERSION
from vision.train import data
from vision.train.calib import fit_temperature
from vision.train.export import card_net_from, export, index_net_from, suit_net_from
from vision.train.index import train_index
from vision.train.model import CardNet, IndexNet, SuitNet, nhwc_tensor, take_step
from vision.train.suit import train_suit


def supcon(emb: torch.Tensor, inst: torch.Tensor, tau: float = 0.1) -> torch.Tensor:
    """Supervised contrastive loss over instance ids (anchors with id -1 are skipped)."""
    sim = emb @ emb.t() / tau
    n = emb.shape[0]
    eye = torch.eye(n, dtype=torch.bool)
    sim = sim.masked_fill(eye, -1e9)
    pos = (inst[:, None] == inst[None, :]) & ~eye & (inst[:, None] >= 0)
    valid = pos.any(dim=1)
    if not valid.any():
        return emb.sum() * 0
    logprob = sim - torch.logsumexp(sim, dim=1, keepdim=True)
    loss = -(logprob * pos).sum(dim=1) / pos.sum(dim=1).clamp(min=1)
    return loss[valid].mean()


def evaluate(net: CardNet, x: np.ndarray, batch: int = 512) -> tuple[np.ndarray, np.ndarray]:
    """Class logits and corner-head logits (zeros without a corner head) of every crop."""
    net.eval()
    logits, corners = [], []
    with torch.no_grad():
        for i in range(0, len(x), batch):
            lg, _, co, _ = net(torch.from_numpy(to_tensor(x[i:i + batch])))
            logits.append(lg)
            corners.append(co if co is not None else torch.zeros_like(lg))
    return torch.cat(logits).numpy(), torch.cat(corners).numpy()


def _stage1(args: argparse.Namespace, tr: dict[str, np.ndarray], va: dict[str, np.ndarray]
            ) -> tuple[CardNet, float, float | None, JSONObject]:
    """Train the card network; its temperatures and validation figures."""
    t_stage = time.time()
    va_seen = ~va["hidden"] if "hidden" in va else np.ones(len(va["y"]), bool)
    # channels-last memory: the convolutions train about a third faster on the CPU than in NCHW
    net = CardNet(len(LABELS), width=args.width, corner_head=args.corner_weight > 0,
                  whole_head=args.whole_weight > 0, top_right=args.top_right).to(memory_format=torch.channels_last)
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=5e-4)
    n_inst = len(tr["y"]) // 2
    per_batch = args.batch // 2
    group = data.DESIGN_GROUP
    n_groups = n_inst // group
    groups_per_batch = per_batch // group
    steps_per_epoch = n_groups // groups_per_batch
    total = steps_per_epoch * args.epochs
    if args.steps:
        total = args.steps
        args.epochs = math.ceil(total / steps_per_epoch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=total, pct_start=0.15)
    gen = np.random.default_rng(args.seed)
    # a random stream of its own for the reframing: the batches are those of the same run without it
    framing = np.random.default_rng([args.seed, 1])
    # ... and one for the damage, for the same reason
    harm = np.random.default_rng([args.seed, 2])
    step = 0
    t_train = time.time()
    stop = False
    for epoch in range(args.epochs):
        net.train()
        order = gen.permutation(n_groups)
        tot_loss = tot_acc = 0.0
        for b in range(steps_per_epoch):
            # whole design groups: every card meets the other cards of its deck in the batch
            gids = order[b * groups_per_batch:(b + 1) * groups_per_batch]
            ids = (gids[:, None] * group + np.arange(group)[None, :]).reshape(-1)
            idx = np.stack([2 * ids, 2 * ids + 1], axis=1).reshape(-1)
            xb = tr["x"][idx]
            xb = data.brighten(xb, gen)
            if args.reframe:
                xb = data.reframe(xb, framing, args.reframe)
            if args.damage:  # xb is the batch's own copy (indexed out of the data)
                data.damage(xb, harm, args.damage)
            x = nhwc_tensor(xb)
            # the whole-card branch's input, averaged down in uint8 here (faster than in the network)
            half = nhwc_tensor(data.half_size(xb))
            y = torch.from_numpy(tr["y"][idx].astype(np.int64))
            inst = torch.from_numpy(tr["inst"][idx])
            # crops in which only the index shows train the corner head alone
            seen = torch.from_numpy(~tr["hidden"][idx]) if "hidden" in tr else torch.ones(len(idx), dtype=torch.bool)
            logits, emb, corner, whole = net(x, half)
            n_seen = seen.sum().clamp(min=1)
            loss = (F.cross_entropy(logits, y, label_smoothing=0.05, reduction="none") * seen).sum() / n_seen \
                + 0.5 * supcon(emb, torch.where(seen, inst, -1))
            if whole is not None:
                loss = loss + args.whole_weight * (
                    F.cross_entropy(whole, y, label_smoothing=0.05, reduction="none") * seen).sum() / n_seen
            if corner is not None:
                loss = loss + args.corner_weight * F.cross_entropy(corner, y, label_smoothing=0.05)
            take_step(opt, sched, loss, step, total)
            step += 1
            tot_loss += loss.item()
            tot_acc += (logits.argmax(1) == y)[seen].float().mean().item()
            if step % 25 == 0:
                print(f"  step {step}/{total} loss {loss.item():.3f} ({(time.time() - t_train) / 60:.1f} min)", flush=True)
            if step >= total or step == args.stop_after or (time.time() - t_train) / 60 > args.time_limit:
                stop = step < total
                break
        nb = b + 1
        vl, _ = evaluate(net, va["x"][va_seen])
        vacc = (vl.argmax(1) == va["y"][va_seen]).mean()
        print(f"epoch {epoch + 1}: loss {tot_loss / nb:.3f} train acc {tot_acc / nb:.4f} val acc {vacc:.4f} "
              f"({(time.time() - t_train) / 60:.1f} min)", flush=True)
        if stop:
            print(f"stopped at step {step} of {total}" + ("" if step == args.stop_after else ": time limit reached"), flush=True)
        if step >= total or stop:
            break

    net = net.to(memory_format=torch.contiguous_format)
    vl_all, vc = evaluate(net, va["x"])
    vl, vy = vl_all[va_seen], va["y"][va_seen]
    temperature = fit_temperature(vl, vy)
    probs = torch.softmax(torch.from_numpy(vl) / temperature, 1).numpy()
    conf, pred = probs.max(1), probs.argmax(1)
    wrong = pred != vy
    print(f"temperature {temperature:.3f}; val acc {(~wrong).mean():.4f}, confident mistakes "
          f"{(wrong & (conf >= 0.9)).mean():.4%}", flush=True)
    corner_temperature = None
    val_corner: dict[str, float] = {}
    if net.corner_cls is not None:
        corner_temperature = fit_temperature(vc, va["y"])
        cp = torch.softmax(torch.from_numpy(vc) / corner_temperature, 1).numpy()
        cwrong = cp.argmax(1) != va["y"]
        val_corner = {"corner_accuracy": round(float((~cwrong).mean()), 5),
                      "corner_confident_mistakes": round(float((cwrong & (cp.max(1) >= 0.9)).mean()), 5)}
        if not va_seen.all():
            val_corner["corner_accuracy_index_only"] = round(float((~cwrong[~va_seen]).mean()), 5)
        print(f"corner head: temperature {corner_temperature:.3f}; val acc {(~cwrong).mean():.4f} "
              f"({(~cwrong[~va_seen]).mean() if not va_seen.all() else float('nan'):.4f} where only the index shows), "
              f"confident mistakes {(cwrong & (cp.max(1) >= 0.9)).mean():.4%}", flush=True)

    return net, temperature, corner_temperature, {
        "epochs_run": epoch + 1, "steps": step, "minutes": round((time.time() - t_stage) / 60, 1),
        "val": {"accuracy": round(float((~wrong).mean()), 5),
                "confident_mistakes": round(float((wrong & (conf >= 0.9)).mean()), 5), **val_corner}}


def _stage1_facts(meta_path: Path) -> JSONObject:
    """The first stage's facts from the ``cards.json`` beside a checkpoint that holds none."""
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    val = {k: v for k, v in meta["val"].items() if not k.startswith("index_")}
    return {"epochs_run": meta["train"]["epochs_run"], "steps": meta["train"]["steps"], "val": val}


def _stage_facts(source: Path, prefix: str) -> tuple[dict[str, Any], dict[str, float]]:
    """The ``cards.json`` beside a checkpoint or exported file (empty without one) and its
    validation figures of one stage (their names start with ``prefix``: ``index_``, ``suit_``)."""
    meta_path = source.with_name("cards.json")
    meta = json.loads(meta_path.read_text(encoding="utf-8")) if meta_path.exists() else {}
    return meta, {k: v for k, v in meta.get("val", {}).items() if k.startswith(prefix)}


def _index_from(source: Path) -> tuple[IndexNet | Path, float, dict[str, float]]:
    """The index network, its temperature and its validation figures (and training minutes) from
    a checkpoint and the ``cards.json`` beside it; or, given an exported ``cards_index.onnx``
    (the shipped one, whose checkpoint is not kept), that file to ship unchanged, with the
    temperature and figures its ``cards.json`` records."""
    meta, stats = _stage_facts(source, "index_")
    if "index_minutes" in meta.get("train", {}):
        stats["minutes"] = meta["train"]["index_minutes"]
    if source.suffix == ".onnx":
        if "index_model" not in meta:
            raise SystemExit(f"{source.with_name('cards.json')} does not describe the index network {source}")
        return source, float(meta["index_model"]["temperature"]), stats
    ck = torch.load(source, map_location="cpu")
    net = index_net_from(ck)
    if net is None:
        raise SystemExit(f"{source} holds no index network")
    return net, float(ck["index_temperature"]), stats


def _suit_from(source: Path) -> tuple[SuitNet, float, dict[str, float]]:
    """The suit network, its temperature and its validation figures from a checkpoint an earlier
    ``--suit-steps`` run wrote (and the ``cards.json`` beside it)."""
    ck = torch.load(source, map_location="cpu")
    net = suit_net_from(ck)
    if net is None:
        raise SystemExit(f"{source} holds no suit network")
    return net, float(ck["suit_temperature"]), _stage_facts(source, "suit_")[1]


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``python -m vision.train``."""
    ap = argparse.ArgumentParser(prog="python -m vision.train")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--data-seeds", default=None, help="comma-separated data seeds (default: --seed)")
    ap.add_argument("--out", type=Path, default=Path("models"))
    ap.add_argument("--cache", type=Path, default=Path("build/train-data"))
    ap.add_argument("--instances", type=int, default=60_000, help="training instances (2 crops each)")
    ap.add_argument("--val-instances", type=int, default=2_000)
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--steps", type=int, default=0, help="total training steps (overrides --epochs)")
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--width", type=int, default=1)
    ap.add_argument("--reframe", type=float, default=0.0,
                    help="share of each batch's crops framed anew before the step (data.reframe: scale, turn, shift; "
                         "0: none)")
    ap.add_argument("--damage", type=float, default=0.0,
                    help="share of each batch's crops damaged as poor photos are (data.damaged: smeared, out of focus, "
                         "dim and noisy, heavy JPEG)")
    ap.add_argument("--held", type=float, default=0.0,
                    help="share of card views in which only the index shows (a held fan or a row): they train the corner head alone")
    ap.add_argument("--courts", type=float, default=data.COURT_SHARE,
                    help="share of the rendered faces that are courts (0: every face as likely, 22 %% courts)")
    ap.add_argument("--corner-weight", type=float, default=0.5,
                    help="weight of the corner head's loss (0: no corner head)")
    ap.add_argument("--whole-weight", type=float, default=0.5,
                    help="weight of the loss of a head that reads the whole-card branch alone, in training only "
                         "(0: no such head)")
    # the second stage comes from one of two places: checked before any data is rendered or trained on
    index = ap.add_mutually_exclusive_group()
    index.add_argument("--index-steps", type=int, default=0,
                    help="steps of the second stage, the index network (0: none, the corner head reads the index)")
    ap.add_argument("--index-seed", type=int, default=None,
                    help="seed of the index network (default: --seed); it learns from the data alone, so a new card "
                         "network can keep an earlier index network by giving that run's seed")
    ap.add_argument("--index-edge-cut", type=float, default=0.0,
                    help="share of the index network's training views cut by a photo's edge, black beyond it "
                         "(a card the photo cuts off, as a photo search reads it; 0: none)")
    ap.add_argument("--stage1", type=Path, default=None,
                    help="a cards.pt this command made before: skip the first stage and train only the index network")
    index.add_argument("--index-from", type=Path, default=None,
                    help="a cards.pt an earlier --index-steps run wrote, or an exported cards_index.onnx with its cards.json "
                         "beside it: ship that index network instead of training one (the index network learns "
                         "from the data alone, not from the card network)")
    suit = ap.add_mutually_exclusive_group()
    suit.add_argument("--suit-steps", type=int, default=0,
                      help="steps of the third stage, the suit network that tells clubs from spades (0: none)")
    ap.add_argument("--suit-seed", type=int, default=None, help="seed of the suit network (default: --seed)")
    suit.add_argument("--suit-from", type=Path, default=None,
                      help="a cards.pt an earlier --suit-steps run wrote: ship its suit network instead of training one")
    ap.add_argument("--top-right", action="store_true",
                    help="a third branch reads the top-right corner at full resolution, where courts print their suit "
                         "by the head")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--time-limit", type=float, default=50.0, help="minutes of training at most")
    ap.add_argument("--stop-after", type=int, default=0,
                    help="stop after this many of the --steps the schedule is planned for: remakes, byte for byte, "
                         "a model whose run the time limit stopped (cards.json records the step)")
    return ap


def main(argv: list[str] | None = None) -> int:
    ap = build_parser()
    args = ap.parse_args(argv)
    for option, path in (("--stage1", args.stage1), ("--index-from", args.index_from), ("--suit-from", args.suit_from)):
        if path is not None and not path.is_file():
            ap.error(f"{option} {path}: no such file")

    t0 = time.time()
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    data_seeds = [int(x) for x in args.data_seeds.split(",")] if args.data_seeds else [args.seed]
    train_paths, val_paths = [], []
    for ds in data_seeds:
        cache = data.cache_dir(args.cache, ds, args.held, args.courts)
        print(f"rendering data into {cache} ...", flush=True)
        t_render = time.time()
        # validation crops come from the first data seed alone: the others render none
        tp, vp = data.build(cache, ds, args.instances, args.val_instances if ds == data_seeds[0] else 0,
                            held=args.held, courts=args.courts)
        print(f"  {time.time() - t_render:.0f} s", flush=True)
        train_paths += tp
        val_paths += vp
    tr, va = data.load(train_paths), data.load(val_paths)
    print(f"data: {len(tr['y'])} train, {len(va['y'])} val crops in {time.time() - t0:.0f} s", flush=True)

    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)  # a batch's jitter and half-size copy: OpenCV's own threads would wait on torch's
    if args.stage1 is None:
        net, temperature, corner_temperature, stage1 = _stage1(args, tr, va)
    else:
        ck = torch.load(args.stage1, map_location="cpu")
        net = card_net_from(ck)
        temperature, corner_temperature = float(ck["temperature"]), ck.get("corner_temperature")
        stage1 = ck.get("stage1") or _stage1_facts(args.stage1.with_name("cards.json"))
        print(f"stage 1 from {args.stage1}", flush=True)
    index_net: IndexNet | Path | None = None
    index_temperature = None
    stage2: dict[str, float] = {}
    if args.index_from is not None:
        index_net, index_temperature, stage2 = _index_from(args.index_from)
        print(f"index network from {args.index_from}", flush=True)
    elif args.index_steps:
        t2 = time.time()
        index_net, index_temperature, stage2 = train_index(tr, va, steps=args.index_steps,
                                                               seed=args.seed if args.index_seed is None else args.index_seed,
                                                               edge_cut=args.index_edge_cut)
        stage2["minutes"] = round((time.time() - t2) / 60, 1)
    suit_net: SuitNet | None = None
    suit_temperature = None
    stage3: dict[str, float] = {}
    if args.suit_from is not None:
        suit_net, suit_temperature, stage3 = _suit_from(args.suit_from)
        print(f"suit network from {args.suit_from}", flush=True)
    elif args.suit_steps:
        t3 = time.time()
        suit_net, suit_temperature, stage3 = train_suit(tr, va, steps=args.suit_steps,
                                                        seed=args.seed if args.suit_seed is None else args.suit_seed)
        stage3["minutes"] = round((time.time() - t3) / 60, 1)
    meta = {
        "train": {"seed": args.seed, "data_seeds": data_seeds, "render_version": RENDER_VERSION,
                  "instances_per_data_seed": args.instances,
                  "courts": args.courts, "crops": int(len(tr["y"])),
                  **{k: v for k, v in stage1.items() if k not in ("val", "minutes")},
                  "width": args.width, "whole_pool": net.whole_pool, "whole_channels": net.whole_channels,
                  "top_right": net.right is not None, "minutes": round((time.time() - t0) / 60, 1),
                  **({"card_minutes": stage1["minutes"]} if "minutes" in stage1 else {}),
                  "command": f"python -m vision.train --seed {args.seed} --data-seeds {','.join(map(str, data_seeds))} "
                             f"--out {args.out} --instances {args.instances} --steps {args.steps} --threads {args.threads}"
                             + (f" --stop-after {stage1['steps']}" if args.steps and 0 < int(stage1.get("steps") or 0) < args.steps else "")
                             + (f" --held {args.held}" if args.held else "")
                             + (f" --reframe {args.reframe}" if args.reframe else "")
                             + (f" --damage {args.damage}" if args.damage else "")
                             + (f" --courts {args.courts}" if args.courts != data.COURT_SHARE else "")
                             + (" --top-right" if net.right is not None else "")
                             + (f" --corner-weight {args.corner_weight}" if args.corner_weight != 0.5 else "")
                             + (f" --whole-weight {args.whole_weight}" if args.whole_weight != 0.5 else "")
                             + (f" --index-steps {args.index_steps}" if args.index_steps else "")
                             + (f" --index-seed {args.index_seed}" if args.index_seed is not None else "")
                             + (f" --index-edge-cut {args.index_edge_cut}" if args.index_edge_cut else "")
                             + (f" --stage1 {args.stage1}" if args.stage1 else "")
                             + (f" --index-from {args.index_from}" if args.index_from else "")
                             + (f" --suit-steps {args.suit_steps}" if args.suit_steps else "")
                             + (f" --suit-seed {args.suit_seed}" if args.suit_seed is not None else "")
                             + (f" --suit-from {args.suit_from}" if args.suit_from else "")},
        "val": {**stage1["val"], **{k: v for k, v in stage2.items() if k != "minutes"},
                **{k: v for k, v in stage3.items() if k != "minutes"}},
    }
    if "minutes" in stage2:
        meta["train"]["index_minutes"] = stage2["minutes"]
    if "minutes" in stage3:
        meta["train"]["suit_minutes"] = stage3["minutes"]
    onnx_path = export(net, temperature, args.out, meta, corner_temperature=corner_temperature, index_net=index_net,
                       index_temperature=index_temperature, stage1=stage1, suit_net=suit_net,
                       suit_temperature=suit_temperature)
    print(f"wrote {onnx_path} ({onnx_path.stat().st_size / 1e6:.2f} MB) in {(time.time() - t0) / 60:.1f} min", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
