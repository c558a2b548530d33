"""Write a trained :class:`CardNet` as the shipped ONNX model, and re-export a checkpoint.

    python -m vision.train.export build/model/cards.pt --out models/

re-exports the network kept by training (``cards.pt``) with the current :class:`Exported`
outputs and keeps the training facts of the ``cards.json`` beside the checkpoint.
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path
from typing import Any

import torch

from vision.classify import LABELS, MODEL_FILE
from vision.errors import TrainError
from vision.model_input import INPUT_H, INPUT_W
from vision.train.model import (
    CORNER_H,
    CORNER_W,
    SUIT_H,
    Calibrated,
    CardNet,
    Exported,
    IndexNet,
    SuitNet,
)

#: The third output of a network with a corner head.
CORNER_OUTPUT = {"corner": "calibrated softmax over labels from the top-left corner (36 x 28 mm) alone"}
#: The index network's file, beside the model.
INDEX_FILE = "cards_index.onnx"
#: The suit network's file, beside the model.
SUIT_FILE = "cards_suit.onnx"


def outputs_of(net: CardNet) -> dict[str, str]:
    """What the exported model's outputs are (written into ``cards.json``)."""
    corner, whole = net.corner_dim, net.whole_dim
    return {"probs": "calibrated softmax over labels",
            "embedding": f"unit-norm {corner + whole}-d enrolment descriptor: corner-branch ({corner}) and "
                         f"whole-card ({whole}) features, each unit length, joined",
            **(CORNER_OUTPUT if net.corner_cls is not None else {})}


def export_head(net: torch.nn.Module, temperature: float, path: Path, *, height: int, width: int,
                input_name: str, output_name: str) -> None:
    """One small network (index, suit, grey) as an ONNX file at ``path``: its calibrated softmax
    for a batch of ``height`` x ``width`` crops."""
    torch.onnx.export(Calibrated(net, temperature).eval(), torch.zeros(1, 3, height, width), str(path),
                      input_names=[input_name], output_names=[output_name],
                      dynamic_axes={input_name: {0: "n"}, output_name: {0: "n"}}, opset_version=17, dynamo=False)


def export(net: CardNet, temperature: float, out: Path, meta: dict[str, Any],
           corner_temperature: float | None = None, index_net: IndexNet | Path | None = None,
           index_temperature: float | None = None, stage1: dict[str, Any] | None = None,
           suit_net: SuitNet | None = None, suit_temperature: float | None = None) -> Path:
    """``cards.onnx``, ``cards.labels.txt``, ``cards.json`` (``meta`` plus the input/output
    description) and the checkpoint ``cards.pt`` (not shipped) into ``out``; with ``index_net``
    also ``cards_index.onnx`` (exported, or copied unchanged when ``index_net`` is the path of
    one already exported). ``stage1`` (the card network's training facts) goes into the
    checkpoint, for a later run that trains only a new index network (``--stage1``). With
    ``suit_net`` also ``cards_suit.onnx``."""
    out.mkdir(parents=True, exist_ok=True)
    net.eval()
    index_module = index_net if isinstance(index_net, IndexNet) else None
    if index_module is not None:
        index_module.eval()
    if suit_net is not None:
        suit_net.eval()
    torch.save({"state_dict": net.state_dict(), "width": meta.get("train", {}).get("width", 1),
                "whole_pool": net.whole_pool, "whole_channels": net.whole_channels, "top_right": net.right is not None,
                "temperature": temperature, "corner_temperature": corner_temperature,
                "index_state_dict": index_module.state_dict() if index_module is not None else None,
                "index_temperature": index_temperature, "stage1": stage1,
                "suit_state_dict": suit_net.state_dict() if suit_net is not None else None,
                "suit_temperature": suit_temperature}, out / "cards.pt")
    onnx_path = out / MODEL_FILE
    outputs = outputs_of(net)
    torch.onnx.export(Exported(net, temperature, corner_temperature).eval(), torch.zeros(1, 3, INPUT_H, INPUT_W),
                      str(onnx_path), input_names=["image"], output_names=list(outputs),
                      dynamic_axes={"image": {0: "n"}, **{name: {0: "n"} for name in outputs}},
                      opset_version=17, dynamo=False)
    if index_module is not None and index_temperature is not None:
        export_head(index_module, index_temperature, out / INDEX_FILE, height=CORNER_H, width=CORNER_W,
                    input_name="corner", output_name="probs")
    elif isinstance(index_net, Path) and index_net.resolve() != (out / INDEX_FILE).resolve():
        shutil.copyfile(index_net, out / INDEX_FILE)
    if suit_net is not None and suit_temperature is not None:
        export_head(suit_net, suit_temperature, out / SUIT_FILE, height=SUIT_H, width=INPUT_W,
                    input_name="top", output_name="probs")
    (out / "cards.labels.txt").write_text("\n".join(LABELS) + "\n", encoding="utf-8")
    full: dict[str, Any] = {
        "model": MODEL_FILE, "labels": "cards.labels.txt",
        "input": {"height": INPUT_H, "width": INPUT_W, "layout": "NCHW", "channels": "BGR", "scale": "1/255"},
        "outputs": outputs, "temperature": round(temperature, 4)}
    if corner_temperature is not None:
        full["corner_temperature"] = round(corner_temperature, 4)
    if index_net is not None and index_temperature is not None:
        full["index_model"] = {"file": INDEX_FILE, "temperature": round(index_temperature, 4),
                               "input": {"height": CORNER_H, "width": CORNER_W, "layout": "NCHW", "channels": "BGR",
                                         "scale": "1/255", "region": "the top-left corner of the model's input"},
                               "outputs": {"probs": "calibrated softmax over labels, read from the corner alone"}}
    if suit_net is not None and suit_temperature is not None:
        full["suit_model"] = {"file": SUIT_FILE, "temperature": round(suit_temperature, 4),
                              "input": {"height": SUIT_H, "width": INPUT_W, "layout": "NCHW", "channels": "BGR",
                                        "scale": "1/255", "region": "the top rows of the model's input"},
                              "outputs": {"probs": "calibrated softmax over (spades, clubs) of a black card"}}
    full.update({k: v for k, v in meta.items() if k not in full})
    (out / "cards.json").write_text(json.dumps(full, indent=2) + "\n", encoding="utf-8")
    return onnx_path


def card_net_from(ck: dict[str, Any]) -> CardNet:
    """The card network a checkpoint (``cards.pt``, :func:`export`) holds. A checkpoint of a
    whole-card branch of another shape (an early model's) is refused by name."""
    shape = (int(ck.get("whole_pool", 4)), int(ck.get("whole_channels", 64)))
    if shape != (CardNet.whole_pool, CardNet.whole_channels):
        raise TrainError(f"the checkpoint's whole-card branch (pool {shape[0]}, {shape[1]} channels) is not "
                         f"this code's (pool {CardNet.whole_pool}, {CardNet.whole_channels} channels)")
    net = CardNet(len(LABELS), width=int(ck["width"]), corner_head=ck.get("corner_temperature") is not None,
                  whole_head=any(k.startswith("whole_cls.") for k in ck["state_dict"]),
                  top_right=bool(ck.get("top_right", False)))
    net.load_state_dict(ck["state_dict"])
    return net


def index_net_from(ck: dict[str, Any]) -> IndexNet | None:
    """The index network a checkpoint holds (None if its run trained none)."""
    if ck.get("index_state_dict") is None:
        return None
    net = IndexNet(len(LABELS))
    net.load_state_dict(ck["index_state_dict"])
    return net


def suit_net_from(ck: dict[str, Any]) -> SuitNet | None:
    """The suit network a checkpoint holds (None if its run trained none)."""
    if ck.get("suit_state_dict") is None:
        return None
    net = SuitNet()
    net.load_state_dict(ck["suit_state_dict"])
    return net


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.train.export")
    ap.add_argument("checkpoint", type=Path, help="cards.pt written by training")
    ap.add_argument("--out", type=Path, default=Path("models"))
    args = ap.parse_args(argv)
    ck = torch.load(args.checkpoint, map_location="cpu")
    corner_t = ck.get("corner_temperature")
    meta_path = args.checkpoint.with_name("cards.json")
    meta = json.loads(meta_path.read_text(encoding="utf-8")) if meta_path.exists() else {}
    net = card_net_from(ck)
    index_net: IndexNet | Path | None = index_net_from(ck)
    shipped_index = args.checkpoint.with_name(INDEX_FILE)
    if index_net is None and "index_model" in meta and shipped_index.exists():
        index_net = shipped_index  # a run that took its index network from an exported file (--index-from)
    path = export(net, float(ck["temperature"]), args.out, meta,
                  corner_temperature=float(corner_t) if corner_t is not None else None, index_net=index_net,
                  index_temperature=ck.get("index_temperature"), stage1=ck.get("stage1"),
                  suit_net=suit_net_from(ck), suit_temperature=ck.get("suit_temperature"))
    print(f"wrote {path} ({path.stat().st_size / 1e6:.2f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
