"""Times every garbage collection and every long turn of the event loop of an
``amplifier-hooks serve`` started with this folder on ``PYTHONPATH`` and ``AH_GC_PROBE``
naming a file; what was seen goes there at exit::

    AH_GC_PROBE=/tmp/gc.txt PYTHONPATH=benchmarks/gcprobe \\
        .venv/bin/python -m benchmarks.bench_serve_load --memory-sessions 10 --idle 10 --keys 1000

(the benchmark's server inherits both; ``bench_serve_load --probe`` sets them for its
server only and puts what was seen beside its slowest calls). Python imports
``sitecustomize`` at start-up, before anything of ours, so every collection of the
process is seen.

After a summary, one line per collection, ``gc START MS GENERATION BY`` (BY: ``paced`` if
the server's `Collector` asked for it, ``auto`` if CPython's thresholds did), and one per
turn of the loop whose callbacks ran `LONG_TURN` or longer in all, ``turn START MS
CALLBACKS LONGEST_MS LONGEST``: LONGEST names the slowest callback's task and where it
waits after that step. START is on the monotonic clock (`time.monotonic`), which every
process of the machine shares. Timing every callback costs about a microsecond each.
"""

from __future__ import annotations

import asyncio
import asyncio.base_events
import asyncio.events
import atexit
import gc
import os
import sys
import time
from collections import Counter
from typing import Any

_OUT = os.environ.get("AH_GC_PROBE")
LONG_TURN = 0.005
_seen: list[tuple[float, int, float, bool]] = []  # (start, generation, ms, paced)
_turns: list[tuple[float, float, int, float, str]] = []  # (start, ms, callbacks, longest ms, name)
_started = [0.0]
_PACED = frozenset({"tick", "_full"})  # amplifier_hooks.transports.http.collector


def _paced() -> bool:
    """Whether the collection ending now was asked for by the server's collector (the
    frame running when it started), not by an allocation crossing a threshold."""
    code = sys._getframe(2).f_code
    return code.co_name in _PACED and "collector" in code.co_filename


def _timed(phase: str, info: dict[str, Any]) -> None:
    if phase == "start":
        _started[0] = time.monotonic()
        return
    ms = (time.monotonic() - _started[0]) * 1000
    _seen.append((_started[0], info["generation"], ms, _paced()))


class _Turn:
    """The callbacks of the loop's turn running now: their time, the slowest."""

    start = 0.0
    busy = 0.0
    count = 0
    turns = 0  # every turn of the process, however short
    longest = 0.0
    slowest: Any = None


_turn = _Turn()


def _name(callback: Any) -> str:
    """The task a callback steps (its coroutine, and the one it now waits in), or the
    callback itself."""
    owner = getattr(callback, "__self__", None)
    if not isinstance(owner, asyncio.Future):
        referents = gc.get_referents(callback)
        owner = referents[0] if referents else None
    if not isinstance(owner, asyncio.Task):
        return getattr(callback, "__qualname__", type(callback).__name__)
    coro: Any = owner.get_coro()
    name = getattr(coro, "__qualname__", "?")
    inner = coro
    while getattr(inner, "cr_await", None) is not None and hasattr(inner.cr_await, "cr_await"):
        inner = inner.cr_await
    if inner is not coro:
        name += ">" + getattr(inner, "__qualname__", "?")
    return name


def _probe_loop() -> None:
    run_handle = asyncio.events.Handle._run
    run_once = asyncio.base_events.BaseEventLoop._run_once

    def timed_run(handle: asyncio.events.Handle) -> None:
        started = time.monotonic()
        if not _turn.count:
            _turn.start = started
        run_handle(handle)
        took = time.monotonic() - started
        _turn.busy += took
        _turn.count += 1
        if took > _turn.longest:
            _turn.longest, _turn.slowest = took, handle._callback

    def timed_once(loop: asyncio.base_events.BaseEventLoop) -> None:
        _turn.busy = _turn.longest = 0.0
        _turn.count = 0
        _turn.turns += 1
        run_once(loop)
        if _turn.busy >= LONG_TURN:
            name = _name(_turn.slowest).replace(" ", "_")
            _turns.append((_turn.start, _turn.busy * 1000, _turn.count, _turn.longest * 1000, name))
        _turn.slowest = None

    asyncio.events.Handle._run = timed_run  # type: ignore[method-assign]
    asyncio.base_events.BaseEventLoop._run_once = timed_once  # type: ignore[attr-defined]


def _report() -> None:
    assert _OUT is not None
    by_generation = Counter(generation for _, generation, _, _ in _seen)
    lines = [
        f"{len(_seen)} collections, {sum(ms for _, _, ms, _ in _seen):.1f} ms in all; "
        f"per generation: {dict(sorted(by_generation.items()))}",
        "full collections (ms): " + ", ".join(f"{ms:.1f}" for _, g, ms, _ in _seen if g == 2),
        "slowest young ones (ms): "
        + ", ".join(f"{ms:.1f}" for ms in sorted((ms for _, g, ms, _ in _seen if g < 2))[-5:]),
        f"{_turn.turns} turns of the loop, {len(_turns)} of them ran callbacks for "
        f"{LONG_TURN * 1000:g} ms or more",
    ]
    lines += [
        f"gc {start:.6f} {ms:.3f} {generation} {'paced' if paced else 'auto'}"
        for start, generation, ms, paced in _seen
    ]
    lines += [
        f"turn {start:.6f} {ms:.3f} {count} {longest:.3f} {name}"
        for start, ms, count, longest, name in _turns
    ]
    with open(_OUT, "w", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")


if _OUT and "serve" in sys.argv[1:]:
    gc.callbacks.append(_timed)
    _probe_loop()
    atexit.register(_report)
