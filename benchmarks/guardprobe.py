"""Where a hook call's time goes inside the server, in-process: what the HTTP rows of
``bench_guard`` cannot tell apart.

Run from the repository root::

    .venv/bin/python -m benchmarks.guardprobe [--rounds 400]

Each bundle of `benchmarks._guard_http.BUNDLES` is loaded as ``serve`` loads it
(`BundleSessions`), and the same ``PreToolUse`` of the typical command is answered the
way the server answers it (the body decoded, `BundleSessions.reply`, the answer's JSON
body, the reply finished), without the HTTP transport. Each call is timed in this
thread's CPU time twice: right after the one before (*warm*) and after the caches were
swept (*swept*, `benchmarks._swept`: how a server meets a call). Medians.

The ah-guard bundles are then answered again with their handler taken apart, by wrapping
the functions the hook module calls: the places, opening the call's memo, the pieces, what
to ask git, the judgement of the pieces, and the handler as a whole (`GuardHook.handle`);
so *the handler's own lines* (the handler less its steps: ``$TMPDIR`` read again, the memo
closed, the result; and the steps' wrappers) and *outside the handler* (the host's reading
and answer, the registry's emit) are told apart. These spans are read on the wall clock
(`time.perf_counter_ns`, about 0.1 µs a read): this thread's CPU time is a system call of
about 1.7 µs on a virtual machine, which would be most of a small step and add 3.5 µs a
wrapper to the call around it. The whole rows are timed in a pass of their own, with
nothing wrapped.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import os
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import amplifier_module_ah_guard.hook as guard_hook

from amplifier_hooks.hosts import HOSTS
from amplifier_hooks.hosts.base import decode_input
from amplifier_hooks.transports.http.app import http_body
from amplifier_hooks.transports.http.source import BundleSessions
from benchmarks._guard_http import BARE, BUNDLES, EMPTY, GUARD, NOOP
from benchmarks._swept import SWEPT_BYTES
from benchmarks.bench_guard import TYPICAL

STEPS = ("places", "begin", "pieces_of_call", "asks_of", "judge_pieces")
"""The handler's steps, each a name in ``amplifier_module_ah_guard.hook`` (``places`` is
the method of `GuardHook`) timed when it is called."""
HANDLER = "handle"
"""The handler as a whole: the method of `GuardHook`, timed as the steps are."""
OWN_LINES = "the handler's own lines"
OUTSIDE = "outside the handler"
TAKEN_APART = (BARE, GUARD)
"""The bundles answered again with the handler taken apart (the steps: the last one's)."""

_LINE = 64
_cpu = time.thread_time_ns
_wall = time.perf_counter_ns
Clock = Callable[[], int]


class _Steps:
    """Nanoseconds of each span of the calls timed (the steps and the handler), per state
    (warm, swept), on the wall clock."""

    def __init__(self) -> None:
        self.swept = False
        self.times: dict[str, tuple[list[int], list[int]]] = {
            s: ([], []) for s in (*STEPS, HANDLER)
        }

    def timed(self, name: str, step: Callable[..., Any]) -> Callable[..., Any]:
        record = self.times[name]

        @functools.wraps(step)  # (its marks too: the registry reads `inline` off a handler)
        def run(*args: Any, **kwargs: Any) -> Any:
            started = _wall()
            try:
                return step(*args, **kwargs)
            finally:
                record[self.swept].append(_wall() - started)

        return run

    def clear(self) -> None:
        for warm, swept in self.times.values():
            warm.clear()
            swept.clear()

    def medians(self, name: str) -> tuple[float, float]:
        """Median nanoseconds of ``name`` (warm, swept) in the calls timed."""
        warm, swept = self.times[name]
        return statistics.median(warm), statistics.median(swept)

    def wrap(self) -> None:
        """Time the steps and the handler of every `GuardHook` mounted from now on."""
        for name in STEPS[1:]:
            setattr(guard_hook, name, self.timed(name, getattr(guard_hook, name)))
        hook = guard_hook.GuardHook
        hook.places = self.timed("places", hook.places)  # type: ignore[method-assign]
        hook.handle = self.timed(HANDLER, hook.handle)  # type: ignore[method-assign]


def _body(workspace: Path) -> bytes:
    return json.dumps(
        {
            "session_id": "bench",
            "transcript_path": "/tmp/bench.jsonl",
            "cwd": str(workspace),
            "permission_mode": "default",
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": TYPICAL},
            "tool_use_id": "toolu_bench",
        }
    ).encode()


async def _costs(
    bundle: Path, body: bytes, rounds: int, clock: Clock, steps: _Steps | None = None
) -> tuple[int, int]:
    """Median (warm, swept) nanoseconds on ``clock`` of one call answered from ``bundle``
    (``steps``: told which state each call is in)."""
    adapter = next(a for a in HOSTS if a.profile.command == "claude-code")
    source = BundleSessions(bundle)

    async def call() -> None:
        replied = await source.reply(adapter, decode_input(body))
        http_body(replied.answer)
        await replied.finish()

    sweep = bytearray(SWEPT_BYTES)
    ones = b"\x01" * (SWEPT_BYTES // _LINE)
    warm: list[int] = []
    swept: list[int] = []
    try:
        for _ in range(50):  # the session opens on the first call
            await call()
        if steps is not None:
            steps.clear()
        for _ in range(rounds):
            if steps is not None:
                steps.swept = False
            started = clock()
            await call()
            warm.append(clock() - started)
            sweep[::_LINE] = ones
            if steps is not None:
                steps.swept = True
            started = clock()
            await call()
            swept.append(clock() - started)
    finally:
        await source.aclose()
    return int(statistics.median(warm)), int(statistics.median(swept))


def _table(title: str, first: bool = False) -> None:
    print(f"{'' if first else chr(10)}| {title} | warm µs | swept µs |")
    print("|---|---:|---:|")


def _row(name: str, warm: float, swept: float) -> None:
    print(f"| {name} | {warm / 1e3:.1f} | {swept / 1e3:.1f} |")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=400)
    args = parser.parse_args(argv)
    workspace = Path(tempfile.mkdtemp(prefix="ah-stages-ws-"))
    os.environ["CLAUDE_PROJECT_DIR"] = str(workspace)
    body = _body(workspace)
    bundles = {}
    for index, name in enumerate((EMPTY, NOOP, BARE, GUARD)):
        bundles[name] = workspace / f"bundle-{index}.yaml"
        bundles[name].write_text(BUNDLES[name])
    rows: dict[str, tuple[int, int]] = {}
    steps = _Steps()
    handlers: dict[str, tuple[float, float]] = {}
    wholes: dict[str, tuple[int, int]] = {}
    try:
        for name, bundle in bundles.items():
            rows[name] = asyncio.run(_costs(bundle, body, args.rounds, _cpu))
        steps.wrap()
        for name in TAKEN_APART:
            wholes[name] = asyncio.run(_costs(bundles[name], body, args.rounds, _wall, steps))
            handlers[name] = steps.medians(HANDLER)
    finally:
        shutil.rmtree(workspace, ignore_errors=True)
    _table(f"a hook call in-process: `{TYPICAL}` (thread CPU time)", first=True)
    for name, (warm, swept) in rows.items():
        _row(name, warm, swept)
    _table(f"ah-guard's steps, default pack, median of {args.rounds} (wall)")
    parts = [steps.medians(name) for name in STEPS]
    for name, (part_warm, part_swept) in zip(STEPS, parts, strict=True):
        _row(f"`{name}`", part_warm, part_swept)
    handler, whole = handlers[GUARD], wholes[GUARD]
    own = [h - sum(p[i] for p in parts) for i, h in enumerate(handler)]
    _row(OWN_LINES, own[0], own[1])
    _row(OUTSIDE, whole[0] - handler[0], whole[1] - handler[1])
    _table(f"ah-guard's handler (`GuardHook.{HANDLER}`), median of {args.rounds} (wall)")
    for name, (part_warm, part_swept) in handlers.items():
        _row(name, part_warm, part_swept)


if __name__ == "__main__":
    main()
