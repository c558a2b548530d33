"""Second stage of training: the :class:`~vision.train.model.IndexNet`, which reads a card from
its corner index alone.

It learns from the top-left corner (36 x 28 mm) of the same training crops as the card network:

- the index-only views the data set holds (``hidden``: a card in a held fan or under the next
  cards of a row, :func:`vision.render.photo.held_crop`). Such a view may have been turned
  180 degrees, and then its top-left corner shows no index: it is read both ways round, the
  better way must give the card and the other ``unknown`` (at inference the way that shows a
  card most surely is taken, :meth:`vision.classify.OnnxCardClassifier.index_predictions`);
- whole card views, as they are or with a cover drawn over them here: the next card of a row
  or of a fan over all but a strip on the left (straight or slanting), or of a column over all
  but a strip at the top, each with the shadow of its edge. This multiplies the covered views
  many times for free;
- ``unknown`` views, windows over the middle of a card (no index in the corner), and corners
  with the index turned a quarter (:func:`turned`: an outline at a right angle to its card):
  ``unknown``;
- with ``edge_cut``, a share of every view cut by the photo's edge (:func:`photo_edge`): a card
  the photo cuts off is read in a photo with the part beyond it black, as it is cut there.
"""

from __future__ import annotations

import time

import numpy as np
import torch
from torch.nn import functional as F

from vision.classify import LABELS, best_way
from vision.train.calib import fit_temperature
from vision.train.data import brighten
from vision.train.model import CORNER_H, CORNER_W, IndexNet, nhwc_tensor, take_step

UNKNOWN = LABELS.index("unknown")
BACK = LABELS.index("back")


def corners(x: np.ndarray, idx: np.ndarray, way: np.ndarray, shift: tuple[int, int] = (0, 0)) -> np.ndarray:
    """The top-left corner regions (uint8 NHWC) of crops ``x[idx]``, each read the way round
    ``way`` gives (1: turned 180 degrees), ``shift`` (rows, columns) further into the crop: a
    card outline guessed a few mm too large."""
    out = np.empty((len(idx), CORNER_H, CORNER_W, 3), np.uint8)
    up = way == 0
    dy, dx = shift
    out[up] = x[idx[up], dy:dy + CORNER_H, dx:dx + CORNER_W]
    h, w = x.shape[1:3]
    out[~up] = x[idx[~up], h - dy - CORNER_H:h - dy, w - dx - CORNER_W:w - dx][:, ::-1, ::-1]
    return out


def cover(regions: np.ndarray, sources: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``regions`` (corner regions of whole cards) with another card laid over each, drawn from
    ``sources`` (corner regions of other cards, whose left or top edge is the covering card's
    edge): a row or fan covers from a line on the right (slanting in a fan), a column from a
    line below; the covering card's edge casts a shadow on the card under it."""
    n = len(regions)
    ys = np.arange(CORNER_H, dtype=np.float32)[None, :, None]
    xs = np.arange(CORNER_W, dtype=np.float32)[None, None, :]
    column = rng.random(n) < 0.2
    fan = ~column & (rng.random(n) < 0.5)
    # the covering edge: x = cut + (y - 44) * slope (44 px: the bottom of the index strip)
    cut = rng.uniform(18, 52, n).astype(np.float32)
    slope = np.where(fan, -np.tan(np.radians(rng.uniform(2, 16, n))), np.tan(np.radians(rng.normal(0, 2.5, n))))
    slope = slope.astype(np.float32)[:, None, None]
    edge_x = cut[:, None, None] + (ys - 44) * slope            # (n, H, 1)
    dist_x = xs - edge_x                                       # > 0: under the covering card
    top = rng.uniform(24, 60, n).astype(np.float32)[:, None, None]
    dist_y = np.broadcast_to(ys - top, (n, CORNER_H, CORNER_W))
    dist = np.where(column[:, None, None], dist_y, dist_x)
    # where in the source each covered pixel comes from (the source's edge a few px inside it)
    off = rng.uniform(0, 5, n).astype(np.float32)[:, None, None]
    sx = np.where(column[:, None, None], xs, dist_x + off)
    sy = np.where(column[:, None, None], dist_y + off, ys + rng.normal(0, 2, n).astype(np.float32)[:, None, None])
    sx = np.clip(np.rint(sx), 0, CORNER_W - 1).astype(np.intp)
    sy = np.clip(np.rint(sy), 0, CORNER_H - 1).astype(np.intp)
    b = np.arange(n)[:, None, None]
    covered = sources[b, sy, sx]
    out = np.where((dist >= 0)[..., None], covered, regions).astype(np.float32)
    # the covering card's edge (a thin dark line) and its shadow on the card below
    line = rng.uniform(0.55, 1.0, n).astype(np.float32)[:, None, None]
    width = rng.uniform(2, 7, n).astype(np.float32)[:, None, None]
    depth = rng.uniform(0.6, 1.0, n).astype(np.float32)[:, None, None]
    shade = np.where((dist >= 0) & (dist < 1.2), line, 1.0)
    shade = np.where(dist < 0, 1 - (1 - depth) * np.clip(1 + dist / width, 0, 1), shade)
    return np.clip(out * shade[..., None], 0, 255).astype(np.uint8)


def photo_edge(regions: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``regions`` (corner regions, uint8 NHWC) each cut by a photo's edge: black beyond a straight
    line, as :meth:`vision.recognize.Pyramid.corners` cuts a card the photo does not hold whole.
    Most lines cross below or right of the index (the card runs out of the photo past it, the
    index whole: at 2 px a mm a common index spans rows 6-50 and columns 4-20, and a line turned
    up to 15 degrees stays clear of it); a few take a strip of the card's margin off the top or
    the left."""
    n = len(regions)
    ys = np.arange(CORNER_H, dtype=np.float32)[None, :, None]
    xs = np.arange(CORNER_W, dtype=np.float32)[None, None, :]
    side = rng.choice(4, n, p=[0.4, 0.4, 0.1, 0.1])  # below, right, above, left
    slope = np.tan(np.radians(rng.uniform(-15, 15, n))).astype(np.float32)[:, None, None]
    depth = np.select([side == 0, side == 1], [rng.uniform(52, CORNER_H - 4, n), rng.uniform(28, CORNER_W - 4, n)],
                      rng.uniform(1, 7, n)).astype(np.float32)[:, None, None]
    s = side[:, None, None]
    # the signed distance past the edge, across the rows (below, above) or the columns (right, left)
    beyond = np.select([s == 0, s == 1, s == 2], [ys - depth - (xs - CORNER_W / 2) * slope,
                                                  xs - depth - (ys - CORNER_H / 2) * slope,
                                                  depth - ys + (xs - CORNER_W / 2) * slope],
                       depth - xs + (ys - CORNER_H / 2) * slope)
    keep = np.clip(0.5 - beyond, 0.0, 1.0)  # a pixel wide ramp, as a warp samples the edge
    out: np.ndarray = (regions.astype(np.float32) * keep[..., None]).round().astype(np.uint8)
    return out


def _logits(net: IndexNet, regions: np.ndarray) -> torch.Tensor:
    return net(nhwc_tensor(regions))


def turned(x: np.ndarray, idx: np.ndarray, k: np.ndarray) -> np.ndarray:
    """Corner windows of crops ``x[idx]`` with the square round the index turned a quarter
    (``k`` 1: anticlockwise, 3: clockwise): an index seen sideways, as an outline guessed at a
    right angle to its card shows it. No card reads that way: they are ``unknown``."""
    side = max(CORNER_H, CORNER_W)
    out = np.empty((len(idx), CORNER_H, CORNER_W, 3), np.uint8)
    for j, (i, kk) in enumerate(zip(idx, k, strict=True)):
        out[j] = np.rot90(x[i, :side, :side], int(kk))[:CORNER_H, :CORNER_W]
    return out


def _val_set(va: dict[str, np.ndarray], rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Validation corner regions: whole views, covered views (drawn here) and index-only views."""
    y, hidden = va["y"].astype(np.int64), va["hidden"] if "hidden" in va else np.zeros(len(va["y"]), bool)
    seen = np.flatnonzero(~hidden)
    cards = np.flatnonzero(~hidden & (y < BACK))
    whole = corners(va["x"], seen, np.zeros(len(seen), int))
    way = rng.integers(0, 2, len(cards))
    covered = cover(corners(va["x"], cards, way), corners(va["x"], rng.permutation(cards), way), rng)
    h = np.flatnonzero(hidden)
    return {"whole": whole, "whole_y": y[seen], "covered": covered, "covered_y": y[cards],
            "turned": turned(va["x"], cards, rng.choice([1, 3], len(cards))),
            "hidden_up": corners(va["x"], h, np.zeros(len(h), int)),
            "hidden_down": corners(va["x"], h, np.ones(len(h), int)), "hidden_y": y[h]}


def _evaluate(net: IndexNet, regions: np.ndarray, batch: int = 512) -> np.ndarray:
    net.eval()
    with torch.no_grad():
        return torch.cat([_logits(net, regions[i:i + batch]) for i in range(0, len(regions), batch)]).numpy() \
            if len(regions) else np.zeros((0, len(LABELS)), np.float32)


def train_index(tr: dict[str, np.ndarray], va: dict[str, np.ndarray], *, steps: int, seed: int,
                batch: int = 256, lr: float = 3e-3, log_every: int = 100,
                edge_cut: float = 0.0) -> tuple[IndexNet, float, dict[str, float]]:
    """Train an :class:`IndexNet` for ``steps`` steps on the crops of ``tr``; fit its temperature
    on ``va``. Returns the network, the temperature and its validation figures. ``edge_cut``:
    the share of each batch's views cut by a photo's edge (:func:`photo_edge`), after their light
    is varied (the warp blacks what lies beyond the photo after the photo is brightened)."""
    torch.manual_seed(seed)
    gen = np.random.default_rng([seed, 13])
    y_all = tr["y"].astype(np.int64)
    hidden = tr["hidden"] if "hidden" in tr else np.zeros(len(y_all), bool)
    pools = {"hidden": np.flatnonzero(hidden), "cards": np.flatnonzero(~hidden & (y_all < BACK)),
             "other": np.flatnonzero(~hidden & (y_all >= BACK))}
    # per batch: index-only views, covered whole cards, whole cards as they are, backs and unknowns
    share = {"hidden": 0.2 if len(pools["hidden"]) else 0.0, "covered": 0.45, "whole": 0.14, "middle": 0.04,
             "turned": 0.04}
    counts = {k: int(round(v * batch)) for k, v in share.items()}
    counts["other"] = batch - sum(counts.values())
    net = IndexNet(len(LABELS)).to(memory_format=torch.channels_last)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.15)
    t0 = time.time()
    for step in range(steps):
        net.train()
        parts, targets = [], []
        pick = {k: gen.choice(pools["cards"] if k in ("covered", "whole", "middle", "turned") else pools[k], counts[k])
                for k in counts if counts[k]}
        ways = {k: gen.integers(0, 2, len(v)) for k, v in pick.items()}
        # half the batches see the corner a few px further in: outlines found in a photo are not exact
        shift = (int(gen.integers(0, 7)), int(gen.integers(0, 7))) if gen.random() < 0.5 else (0, 0)
        cov = pick["covered"]
        parts.append(cover(corners(tr["x"], cov, ways["covered"], shift),
                           corners(tr["x"], gen.choice(pools["cards"], len(cov)), gen.integers(0, 2, len(cov))), gen))
        targets.append(y_all[cov])
        parts.append(corners(tr["x"], pick["whole"], ways["whole"], shift))
        targets.append(y_all[pick["whole"]])
        mid = pick["middle"]  # a window over the middle of a card: no index in its corner
        dy, dx = gen.integers(40, 60), gen.integers(30, 50)
        parts.append(np.ascontiguousarray(tr["x"][mid, dy:dy + CORNER_H, dx:dx + CORNER_W]))
        targets.append(np.full(len(mid), UNKNOWN))
        turn = pick["turned"]  # an index seen sideways
        parts.append(turned(tr["x"], turn, gen.choice([1, 3], len(turn))))
        targets.append(np.full(len(turn), UNKNOWN))
        parts.append(corners(tr["x"], pick["other"], ways["other"], shift))
        targets.append(y_all[pick["other"]])
        xb = np.concatenate(parts)
        xb = brighten(xb, gen)
        if edge_cut:
            cut = np.flatnonzero(gen.random(len(xb)) < edge_cut)
            xb[cut] = photo_edge(xb[cut], gen)
        logits = _logits(net, xb)
        loss = F.cross_entropy(logits, torch.from_numpy(np.concatenate(targets)), label_smoothing=0.05)
        if "hidden" in pick:
            # an index-only view may lie either way round: the better way reads the card, the other nothing
            h = pick["hidden"]
            yh = torch.from_numpy(y_all[h])
            both = _logits(net, np.concatenate([corners(tr["x"], h, np.zeros(len(h), int)),
                                                corners(tr["x"], h, np.ones(len(h), int))]))
            up, down = both[:len(h)], both[len(h):]
            ce_up = F.cross_entropy(up, yh, reduction="none", label_smoothing=0.05)
            ce_down = F.cross_entropy(down, yh, reduction="none", label_smoothing=0.05)
            unk = torch.full_like(yh, UNKNOWN)
            other_up = F.cross_entropy(up, unk, reduction="none")
            other_down = F.cross_entropy(down, unk, reduction="none")
            first = ce_up <= ce_down
            hl = torch.where(first, ce_up + 0.5 * other_down, ce_down + 0.5 * other_up).mean()
            loss = (loss * len(xb) + hl * len(h)) / (len(xb) + len(h))
        take_step(opt, sched, loss, step, steps)
        if (step + 1) % log_every == 0:
            print(f"  index step {step + 1}/{steps} loss {loss.item():.3f} ({(time.time() - t0) / 60:.1f} min)", flush=True)

    v = _val_set(va, np.random.default_rng([seed, 14]))
    lw, lc = _evaluate(net, v["whole"]), _evaluate(net, v["covered"])
    lh = best_way(np.stack([_evaluate(net, v["hidden_up"]), _evaluate(net, v["hidden_down"])], axis=1), UNKNOWN)
    temperature = fit_temperature(np.concatenate([lw, lc, lh]), np.concatenate([v["whole_y"], v["covered_y"], v["hidden_y"]]))
    stats: dict[str, float] = {}
    for name, lg, yy in (("whole", lw, v["whole_y"]), ("covered", lc, v["covered_y"]), ("index_only", lh, v["hidden_y"])):
        if not len(yy):
            continue
        p = torch.softmax(torch.from_numpy(lg) / temperature, 1).numpy()
        right = p.argmax(1) == yy
        stats[f"index_{name}_accuracy"] = round(float(right.mean()), 5)
        stats[f"index_{name}_confident_mistakes"] = round(float((~right & (p.max(1) >= 0.9)).mean()), 5)
    lt = torch.softmax(torch.from_numpy(_evaluate(net, v["turned"])) / temperature, 1).numpy()
    seen = np.delete(lt, UNKNOWN, axis=1).max(axis=1)
    stats["index_turned_read_as_card_at_0.9"] = round(float((seen >= 0.9).mean()), 5)
    print(f"index net: temperature {temperature:.3f}; " + ", ".join(f"{k} {v:.4f}" for k, v in stats.items()), flush=True)
    return net.to(memory_format=torch.contiguous_format), temperature, stats
