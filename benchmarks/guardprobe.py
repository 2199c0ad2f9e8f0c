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

For the ah-guard bundle, the steps of its handler (`GuardHook.explain`) are timed too, by
wrapping the functions the hook module calls: the places, opening the call's memo, the
pieces, what to ask git, the judgement of the pieces; *the rest* is the whole call less
them (the host's reading and answer, the registry, the handler's own lines).
"""

from __future__ import annotations

import argparse
import asyncio
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

_LINE = 64
_clock = time.thread_time_ns


class _Steps:
    """Nanoseconds of each step of the calls timed, per state (warm, swept)."""

    def __init__(self) -> None:
        self.swept = False
        self.times: dict[str, tuple[list[int], list[int]]] = {s: ([], []) for s in STEPS}

    def timed(self, name: str, step: Callable[..., Any]) -> Callable[..., Any]:
        record = self.times[name]

        def run(*args: Any, **kwargs: Any) -> Any:
            started = _clock()
            try:
                return step(*args, **kwargs)
            finally:
                record[self.swept].append(_clock() - started)

        return run

    def clear(self) -> None:
        for warm, swept in self.times.values():
            warm.clear()
            swept.clear()


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


async def _costs(bundle: Path, body: bytes, rounds: int, steps: _Steps) -> tuple[int, int]:
    """Median (warm, swept) nanoseconds of one call answered from ``bundle``."""
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
        steps.clear()
        for _ in range(rounds):
            steps.swept = False
            started = _clock()
            await call()
            warm.append(_clock() - started)
            sweep[::_LINE] = ones
            steps.swept = True
            started = _clock()
            await call()
            swept.append(_clock() - started)
    finally:
        await source.aclose()
    return int(statistics.median(warm)), int(statistics.median(swept))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=400)
    args = parser.parse_args(argv)
    steps = _Steps()
    for name in STEPS[1:]:
        setattr(guard_hook, name, steps.timed(name, getattr(guard_hook, name)))
    guard_hook.GuardHook.places = steps.timed("places", guard_hook.GuardHook.places)  # type: ignore[method-assign]
    workspace = Path(tempfile.mkdtemp(prefix="ah-stages-ws-"))
    os.environ["CLAUDE_PROJECT_DIR"] = str(workspace)
    body = _body(workspace)
    rows: dict[str, tuple[int, int]] = {}
    try:
        for index, name in enumerate((EMPTY, NOOP, BARE, GUARD)):
            bundle = workspace / f"bundle-{index}.yaml"
            bundle.write_text(BUNDLES[name])
            rows[name] = asyncio.run(_costs(bundle, body, args.rounds, steps))
    finally:
        shutil.rmtree(workspace, ignore_errors=True)
    print(f"| a hook call in-process: `{TYPICAL}` (thread CPU time) | warm µs | swept µs |")
    print("|---|---:|---:|")
    for name, (warm, swept) in rows.items():
        print(f"| {name} | {warm / 1e3:.1f} | {swept / 1e3:.1f} |")
    print(f"\n| ah-guard's steps, default pack, median of {args.rounds} | warm µs | swept µs |")
    print("|---|---:|---:|")
    warm_sum = swept_sum = 0.0
    for name, (warm_runs, swept_runs) in steps.times.items():
        warm, swept = statistics.median(warm_runs), statistics.median(swept_runs)
        warm_sum, swept_sum = warm_sum + warm, swept_sum + swept
        print(f"| `{name}` | {warm / 1e3:.1f} | {swept / 1e3:.1f} |")
    whole = rows[GUARD]
    print(f"| the rest | {(whole[0] - warm_sum) / 1e3:.1f} | {(whole[1] - swept_sum) / 1e3:.1f} |")


if __name__ == "__main__":
    main()
