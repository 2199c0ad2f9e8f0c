"""Times every garbage collection of an ``amplifier-hooks serve`` started with this folder
on ``PYTHONPATH`` and ``AH_GC_PROBE`` naming a file; the summary goes there at exit::

    AH_GC_PROBE=/tmp/gc.txt PYTHONPATH=benchmarks/gcprobe \\
        .venv/bin/python -m benchmarks.bench_serve_load --memory-sessions 10 --idle 10 --keys 1000

(the benchmark's server inherits both; the attack is made small so its 16 MB input does
not add collections of its own). Python imports ``sitecustomize`` at start-up, before
anything of ours, so every collection of the process is seen.
"""

from __future__ import annotations

import atexit
import gc
import os
import sys
import time
from collections import Counter
from typing import Any

_OUT = os.environ.get("AH_GC_PROBE")
_seen: list[tuple[int, float]] = []  # (generation, ms)
_started = [0.0]


def _timed(phase: str, info: dict[str, Any]) -> None:
    if phase == "start":
        _started[0] = time.perf_counter()
        return
    ms = (time.perf_counter() - _started[0]) * 1000
    _seen.append((info["generation"], ms))


def _report() -> None:
    assert _OUT is not None
    by_generation = Counter(generation for generation, _ in _seen)
    lines = [
        f"{len(_seen)} collections, {sum(ms for _, ms in _seen):.1f} ms in all; "
        f"per generation: {dict(sorted(by_generation.items()))}",
        "full collections (ms): " + ", ".join(f"{ms:.1f}" for g, ms in _seen if g == 2),
        "slowest young ones (ms): "
        + ", ".join(f"{ms:.1f}" for ms in sorted((ms for g, ms in _seen if g < 2))[-5:]),
    ]
    with open(_OUT, "w", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")


if _OUT and "serve" in sys.argv[1:]:
    gc.callbacks.append(_timed)
    atexit.register(_report)
