"""The companion's memory stays flat: what it frees goes back to the system, and reading many
cards at once leaves nothing behind (`pegpi bench runtime --frames N` measures the whole)."""

from __future__ import annotations

import ctypes
import ctypes.util
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from device.memory import free_heap_mb, release_free_memory
from vision.classify import OnnxCardClassifier
from vision.render import CARD_IDS, HELDOUT_DESIGN_SEEDS, render_card
from vision.render.photo import non_card_crop, table_crop


def _resident_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return float(line.split()[1]) / 1024
    raise AssertionError("no VmRSS in /proc/self/status")


@pytest.fixture
def glibc() -> ctypes.CDLL:
    if not Path("/proc/self/status").exists() or not release_free_memory():
        pytest.skip("needs Linux and glibc's malloc_trim")
    return ctypes.CDLL(ctypes.util.find_library("c"))


def test_memory_freed_inside_the_heap_goes_back_to_the_system(glibc: ctypes.CDLL) -> None:
    """Blocks freed below one still in use stay resident in the heap (malloc only gives back its
    top) until released: 24 MB of small blocks freed under a live one."""
    glibc.malloc.restype, glibc.malloc.argtypes = ctypes.c_void_p, [ctypes.c_size_t]
    glibc.free.argtypes = [ctypes.c_void_p]
    blocks = [glibc.malloc(1024) for _ in range(24 * 1024)]
    for block in blocks:
        ctypes.memset(block, 1, 1024)  # resident
    pin = glibc.malloc(1024)  # in use above them: the heap's top cannot shrink past it
    for block in blocks:
        glibc.free(block)
    freed = _resident_mb()
    release_free_memory()
    released = _resident_mb()
    glibc.free(pin)
    assert freed - released > 16.0, (freed, released)


def test_free_memory_is_kept_for_the_next_photo_unless_there_is_much_of_it(glibc: ctypes.CDLL) -> None:
    """The photo commands hand free pages back only past a bound: 24 MB freed inside the heap
    stay resident under a 64 MB bound (the next photo takes them again) and go back under 8 MB."""
    if free_heap_mb() is None:
        pytest.skip("needs glibc's mallinfo2")
    glibc.malloc.restype, glibc.malloc.argtypes = ctypes.c_void_p, [ctypes.c_size_t]
    glibc.free.argtypes = [ctypes.c_void_p]
    released = []
    for above in (64.0, 8.0):
        blocks = [glibc.malloc(1024) for _ in range(24 * 1024)]
        for block in blocks:
            ctypes.memset(block, 1, 1024)
        pin = glibc.malloc(1024)
        for block in blocks:
            glibc.free(block)
        freed = _resident_mb()
        release_free_memory(above_mb=above)
        released.append(freed - _resident_mb())
        glibc.free(pin)
    assert released[0] < 4.0 and released[1] > 16.0, released


def test_reading_many_cards_at_once_leaves_no_memory_behind(glibc: ctypes.CDLL) -> None:
    """A batch of 24 crops (two full tables read at once, with their moved and turned readings)
    takes memory for the call only: once it is freed the companion is no bigger than before.
    (The first batch, which sets up what every later one reuses, is read before measuring: what
    the suite's earlier tests left in the heap decides how much of that shows.)"""
    rng = np.random.default_rng(3)
    crops = [table_crop(render_card(cid, HELDOUT_DESIGN_SEEDS[1], px_per_mm=3.0, alpha=True), rng, strength=1.0)
             for cid in CARD_IDS[:18]] + [non_card_crop(rng) for _ in range(6)]
    model = OnnxCardClassifier()
    model.classify(crops)
    release_free_memory()
    before = _resident_mb()
    for _ in range(3):
        model.classify(crops)
    release_free_memory()
    after = _resident_mb()
    assert after - before < 4.0, (before, after)


#: the scripts' reader of their own process's memory figures (MB)
_STATUS = """
def status(key):
    for line in open("/proc/self/status"):
        if line.startswith(key + ":"):
            return int(line.split()[1]) / 1024
"""

_FRAMES_FREED = _STATUS + """
import ctypes, ctypes.util, sys
import numpy as np
from device.memory import map_big_blocks

libc = ctypes.CDLL(ctypes.util.find_library("c"))
libc.malloc.restype, libc.malloc.argtypes = ctypes.c_void_p, [ctypes.c_size_t]

if sys.argv[1] == "mapped":
    assert map_big_blocks()
np.ones((720, 1280, 3), np.uint8)  # one frame come and gone: glibc's bound rises to its size
frames = []
for _ in range(12):
    frames.append(np.ones((720, 1280, 3), np.uint8))
    libc.malloc(4096)  # small things made between frames stay in use
held = status("VmRSS")
del frames
print(held - status("VmRSS"))
"""


def _alone(script: str, *args: str) -> float:
    """The figure ``script`` prints, run in a fresh process of its own (the suite's other tests
    leave this process's heap and high-water mark far from what one call takes)."""
    root = str(Path(__file__).resolve().parents[2])
    run = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True,
                         cwd=root, env={"PYTHONPATH": root, "PATH": "/usr/bin:/bin"}, check=True)
    return float(run.stdout)


def test_frames_freed_go_back_to_the_system_at_once(glibc: ctypes.CDLL) -> None:
    """Twelve frames (33 MB) read and let go, with small things made between them still in use:
    their memory is the system's again at once, without waiting for the next trim."""
    assert _alone(_FRAMES_FREED, "mapped") > 28.0


_MOVED_READINGS = _STATUS + """
import numpy as np
from device.memory import map_big_blocks, release_free_memory
from vision.classify import OnnxCardClassifier
from vision.render import CARD_IDS, HELDOUT_DESIGN_SEEDS, render_card
from vision.render.photo import table_crop

map_big_blocks()  # as the companion starts
rng = np.random.default_rng(5)
model = OnnxCardClassifier()
faces = [render_card(c, HELDOUT_DESIGN_SEEDS[2], px_per_mm=3.0, alpha=True) for c in CARD_IDS[:40]]
crops = [np.repeat(table_crop(f, rng, strength=1.0).mean(axis=2, keepdims=True).astype(np.uint8), 3, axis=2)
         for f in faces]
probs = model.outputs(crops, index=False, embeddings=False, moved=False)[0]
unsure = [c for c, p in zip(crops, probs) if p.max() < model.sure_two_ways][:8]
assert len(unsure) == 8, len(unsure)
model.classify(unsure)
release_free_memory()
try:
    open("/proc/self/clear_refs", "w").write("5")  # the high-water mark starts again from now
except OSError:
    print("nan")
    raise SystemExit
before = status("VmRSS")
model.classify(unsure)
print(status("VmHWM") - before)
"""


def test_cards_read_again_moved_take_little_memory_for_the_call(glibc: ctypes.CDLL) -> None:
    """Through a grey camera many cards are read unsure, and each is read again moved four ways,
    both ways round: that call sets the companion's peak, so it holds one moved view's tensor at
    a time (all eight at once for eight grey cards raised the peak by 12 MB)."""
    rise = _alone(_MOVED_READINGS)
    if math.isnan(rise):
        pytest.skip("cannot reset a process's high-water mark here")
    assert rise < 8.0, f"reading eight unsure cards raised the peak by {rise:.1f} MB"
