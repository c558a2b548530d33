"""The C heap of a long-running process: big blocks kept out of it, free pages handed back.

Python frees its objects at once, but the memory of frames, photos and model tensors lives in
glibc's heap, where what is freed may stay resident. Elsewhere than glibc these do nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from collections.abc import Callable
from typing import Any

#: a block this big or bigger is always mapped on its own (and unmapped when freed), never cut
#: from the heap: glibc otherwise raises this bound to the size of the last mapped block freed,
#: and a frame's worth (2.8 MB at 1280x720) then lands in the heap, where freeing it leaves holes
BIG_BLOCK = 128 * 1024
_M_MMAP_THRESHOLD = -3  # mallopt's parameter number in glibc's malloc.h

_found: dict[str, Callable[..., Any] | None] = {}


def _glibc(function: str, *argtypes: type, gives: type = ctypes.c_int) -> Callable[..., Any] | None:
    """``function`` of the C library taking ``argtypes`` and giving a ``gives``, if the library
    has it (glibc's does), else None; looked up and set up once."""
    if function not in _found:
        name = ctypes.util.find_library("c")
        try:
            found = getattr(ctypes.CDLL(name), function, None) if name else None
        except OSError:
            found = None
        if found is not None:
            found.argtypes, found.restype = list(argtypes), gives
        _found[function] = found
    return _found[function]


def map_big_blocks() -> bool:
    """Keep frames, crops and model tensors out of the C heap (see :data:`BIG_BLOCK`): each goes
    back to the system as soon as it is freed, so the companion's peak memory is its live data,
    not the holes between. Call once at start. False where the C library is not glibc."""
    mallopt = _glibc("mallopt", ctypes.c_int, ctypes.c_int)
    if mallopt is None:
        return False
    return bool(mallopt(_M_MMAP_THRESHOLD, BIG_BLOCK))


class _HeapInfo(ctypes.Structure):
    """glibc's ``struct mallinfo2``: the heap's figures in bytes."""

    _fields_ = [(name, ctypes.c_size_t) for name in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks",
                 "keepcost")]


def free_heap_mb() -> float | None:
    """Megabytes lying free inside the C heap (resident until handed back), or None where the C
    library cannot tell (not glibc, or glibc older than 2.33)."""
    info = _glibc("mallinfo2", gives=_HeapInfo)
    return None if info is None else float(info().fordblks) / 2**20


def release_free_memory(above_mb: float = 0.0) -> bool:
    """Hand the C heap's free pages back to the system (glibc's ``malloc_trim``): small blocks
    come and go too, and what they leave free inside the heap stays resident until trimmed, so a
    long-running companion calls this now and then. With ``above_mb``, only when more than that
    lies free (pages handed back are faulted in again by the next allocation that takes them).
    False where the C library has no ``malloc_trim`` (not glibc)."""
    trim = _glibc("malloc_trim", ctypes.c_size_t)
    if trim is None:
        return False
    free = free_heap_mb() if above_mb > 0 else None
    if free is None or free > above_mb:
        trim(0)
    return True
