"""The training data: made again from its seed, courts as often as asked, caches named by every
setting, and the cheap copies a training batch gets (brightness jitter, half size, reframing,
damage)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.classify import LABELS
from vision.render import RENDER_VERSION
from vision.render.cards import COURTS
from vision.train import data


def _faces(chunk: dict[str, np.ndarray]) -> list[str]:
    return [LABELS[i] for i in chunk["y"][::2]]  # two views of each instance


def test_the_data_is_made_again_from_its_seed() -> None:
    a = data.make_chunk(5, 6, data.TRAIN_DESIGNS, held=0.1, courts=0.35)
    b = data.make_chunk(5, 6, data.TRAIN_DESIGNS, held=0.1, courts=0.35)
    assert all(np.array_equal(a[k], b[k]) for k in a)
    c = data.make_chunk(6, 6, data.TRAIN_DESIGNS, held=0.1, courts=0.35)
    assert not np.array_equal(a["x"], c["x"])


def test_cache_names_tell_every_setting_apart() -> None:
    names = {data.cache_dir(Path("c"), 3, held, courts).name for held in (0.0, 0.1) for courts in (0.0, 0.35)}
    assert len(names) == 4
    assert data.cache_dir(Path("c"), 3, 0.1, 0.35).name == f"seed3-r{RENDER_VERSION}-held10-courts35"


def test_a_court_share_of_one_draws_only_courts() -> None:
    faces = [f for f in _faces(data.make_chunk(9, 24, data.TRAIN_DESIGNS, courts=1.0)) if f not in ("unknown", "back")]
    assert faces and set(faces) <= set(COURTS), faces


def test_brightness_jitter_by_table_is_the_float_sum() -> None:
    rng = np.random.default_rng(2)
    batch = rng.integers(0, 256, (5, 176, 128, 3), dtype=np.uint8)
    for gain, offset in ((0.8, -15.0), (1.15, 15.0), (1.0371, -3.3)):
        want = np.clip(batch.astype(np.float32) * gain + offset, 0, 255).astype(np.uint8)
        got = data.jitter(batch, gain, offset)
        assert got.shape == batch.shape and got.dtype == np.uint8
        assert np.array_equal(got, want)


def test_the_half_size_input_is_the_rounded_mean_of_each_two_by_two() -> None:
    rng = np.random.default_rng(4)
    batch = rng.integers(0, 256, (3, 176, 128, 3), dtype=np.uint8)
    half = data.half_size(batch)
    mean = batch.reshape(3, 88, 2, 64, 2, 3).astype(np.float64).mean(axis=(2, 4))
    assert half.shape == (3, 88, 64, 3) and half.dtype == np.uint8
    assert np.array_equal(half, np.floor(mean + 0.5).astype(np.uint8))


def test_reframing_moves_the_share_asked_and_keeps_the_card_in_frame() -> None:
    """v29's reframing: about the share asked is framed anew, the same stream gives the same
    batch, the rest is left as it was, and a framed crop is the same card a little closer or
    further (most of its pixels near where they were), never an empty or clipped-away image."""
    chunk = data.make_chunk(7, 16, data.TRAIN_DESIGNS)
    batch = chunk["x"]
    out = data.reframe(batch, np.random.default_rng(1), 0.5)
    again = data.reframe(batch, np.random.default_rng(1), 0.5)
    assert np.array_equal(out, again) and out.dtype == np.uint8 and out.shape == batch.shape
    moved = [i for i in range(len(batch)) if not np.array_equal(out[i], batch[i])]
    assert 0.25 * len(batch) <= len(moved) <= 0.75 * len(batch)
    for i in moved:
        diff = np.abs(out[i].astype(np.int16) - batch[i].astype(np.int16))
        assert diff.mean() < 40, (i, diff.mean())  # the same card, moved by a few pixels
        assert abs(float(out[i].mean()) - float(batch[i].mean())) < 12  # the edge reflected in, not black
    assert np.array_equal(data.reframe(batch, np.random.default_rng(1), 0.0), batch)
    every = data.reframe(batch, np.random.default_rng(2), 1.0)
    assert all(not np.array_equal(every[i], batch[i]) for i in range(len(batch)))


def test_conflicting_or_missing_stage_options_stop_before_any_rendering(tmp_path: Path, capsys) -> None:
    # a run that renders for 13 min and trains for 30 must not find out at its end that its
    # options cannot work together (v30's first run did)
    pytest.importorskip("torch")
    from vision.train.__main__ import main

    cache = tmp_path / "cache"
    given = tmp_path / "cards.pt"
    given.write_bytes(b"")
    with pytest.raises(SystemExit) as stop:
        main(["--index-steps", "10", "--index-from", str(given), "--cache", str(cache), "--out", str(tmp_path)])
    assert stop.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err
    for option in ("--index-from", "--stage1"):
        with pytest.raises(SystemExit) as stop:
            main([option, str(tmp_path / "gone.pt"), "--cache", str(cache), "--out", str(tmp_path)])
        assert stop.value.code == 2
        assert f"{option} {tmp_path / 'gone.pt'}: no such file" in capsys.readouterr().err
    assert not cache.exists()


@pytest.mark.parametrize("kind", data.DAMAGES)
def test_each_damage_changes_the_crop_and_keeps_its_shape(kind: str) -> None:
    rng = np.random.default_rng(3)
    crop = data.make_chunk(5, 1, data.TRAIN_DESIGNS, held=0.0, courts=0.0)["x"][0]
    out = data.damaged(crop, rng, (kind,))
    assert out.shape == crop.shape and out.dtype == np.uint8
    assert np.abs(out.astype(int) - crop.astype(int)).mean() > 0.5
    if kind == "grey":
        assert (out[..., 0] == out[..., 1]).all() and (out[..., 1] == out[..., 2]).all()
    assert np.array_equal(data.damaged(crop, np.random.default_rng(3), (kind,)), out)  # made again from its seed


def test_a_share_of_a_batch_is_damaged_in_place() -> None:
    batch = data.make_chunk(5, 2, data.TRAIN_DESIGNS, held=0.0, courts=0.0)["x"]
    kept = batch.copy()
    data.damage(batch, np.random.default_rng(1), 0.0)
    assert np.array_equal(batch, kept)
    data.damage(batch, np.random.default_rng(1), 1.0)
    assert all(not np.array_equal(a, b) for a, b in zip(batch, kept, strict=True))
