"""Emit, dispatch and hook calls of two checkouts, compared on a busy machine.

Run from the repository root, with two trees of the project (``git worktree add`` or
``git archive REV | tar -x -C DIR``)::

    .venv/bin/python -m benchmarks.compare BEFORE_DIR AFTER_DIR --rounds 10

Each round runs one short measurement per tree in a fresh process (its own
``amplifier_hooks`` and ``benchmarks``: the process starts in that tree), the two trees
taking turns, so a busy moment hits both alike. A measurement times the setups of
`bench_emit` (10 handlers of each kind) and `bench_dispatch` (10 injections, persisted to
a sink): the minimum over a few repeats of the mean over 1,000 calls, in the CPU time of
the process (``time.process_time``), which the other work on a shared machine disturbs
far less than wall time does. The table gives, per row, the median over the rounds of
each tree's µs and their ratio (after / before). Below 1.10 is what issue 23 asks of a change
made for readability.

With ``--guard`` a measurement is the guard's instead (`bench_guard`, each tree's own):
one decision of the default pack on a fresh and on a repeated command, the no-op emit it
is judged against, and the mean uncached parse over the corpus commands -- the least of
a few repeats of each, in CPU time -- and the p50 and p99 over the corpus cases (each
case's median of a few judges). Each tree's ``benchmarks/bench_guard.py`` must have
``decision_costs``, ``parse_costs`` and ``corpus_costs``.

The hook-call row is a Claude Code command hook with a warm server, as `bench_hook_calls`
times it in wall time: ``python -m amplifier_hooks.cli claude-code hook --bundle
TREE/bundles/default.md`` given a ``PreToolUse`` of ``Read`` (with ``PYTHONPATH`` at the
tree, so the hook and the server it starts both run that tree's code). Its CPU time is
the hook process's (``RUSAGE_CHILDREN``) plus what the workspace's server spent meanwhile
(``/proc/PID/schedstat``); each tree keeps one server for the whole run, and a
measurement is the mean over ``--hook-calls`` calls.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from amplifier_hooks.testing.servers import server_pid, stop_hook_servers
from benchmarks.bench_hook_calls import PAYLOAD, _environment

HOOK_ROW = "command hook, warm server: hook process + server"

PROBE = """
import asyncio, json, time
from benchmarks import bench_dispatch, bench_emit
CALLS = 1000
def best(run):
    return min(run() for _ in range(REPEATS)) / CALLS
async def timed(call, *args):
    started = time.process_time()
    for _ in range(CALLS):
        await call(*args)
    return time.process_time() - started
loop = asyncio.new_event_loop()
rows = {}
for kind in bench_emit.KINDS:
    registry = bench_emit.make_registry(kind, 10)
    rows[f"emit, 10 handlers: {kind}"] = best(lambda: loop.run_until_complete(
        timed(registry.emit, bench_emit.EVENT, bench_emit.DATA)))
data = {"tool_name": "bash", "tool_result": {"output": "ok"}}
for label, texts in (("hook texts", bench_dispatch.hook_texts(10)),
                     ("short texts", bench_dispatch.short_texts(10))):
    coordinator = bench_dispatch.make_coordinator(texts, ephemeral=False, sink=True)
    rows[f"dispatch, 10 injections: {label}"] = best(lambda: loop.run_until_complete(
        timed(coordinator.dispatch, "tool:post", data)))
print(json.dumps(rows))
"""


GUARD_PROBE = """
import json
from benchmarks import bench_guard
fresh, repeated, emitted = bench_guard.decision_costs(REPEATS, 0.05)
_, parsed = bench_guard.parse_costs(REPEATS)
cases = sorted(cost for cost, _ in bench_guard.corpus_costs(max(3, REPEATS)))
print(json.dumps({"guard: judge, fresh command": fresh,
                  "guard: judge, repeated command": repeated,
                  "registry.emit, one no-op handler": emitted,
                  "guard: parse_fresh, mean over the corpus commands": parsed,
                  "guard: judge, corpus p50": cases[len(cases) // 2],
                  "guard: judge, corpus p99": cases[round(0.99 * (len(cases) - 1))]}))
"""


def probe(tree: Path, repeats: int, code: str = PROBE) -> dict[str, float]:
    """One measurement in a fresh interpreter started in ``tree``."""
    done = subprocess.run(
        [sys.executable, "-c", code.replace("REPEATS", str(repeats))],
        cwd=tree,
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    rows: dict[str, float] = json.loads(done.stdout.splitlines()[-1])
    return rows


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _on_cpu(pid: int) -> float:
    """Seconds process ``pid`` has run on a CPU (the kernel's nanosecond count)."""
    return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0]) / 1e9


@contextlib.contextmanager
def hook_calls(tree: Path) -> Iterator[Callable[[int], float]]:
    """A warm command hook of ``tree``: a function of ``calls`` giving the CPU seconds per
    call. The server is stopped and the folders removed on exit."""
    runtime = Path(tempfile.mkdtemp(prefix="ah-compare-", dir="/tmp"))
    workspace = Path(tempfile.mkdtemp(prefix="ah-compare-ws-"))
    env = {**_environment(runtime, workspace), "PYTHONPATH": str(tree.resolve())}
    bundle = tree.resolve() / "bundles" / "default.md"
    argv = [sys.executable, "-m", "amplifier_hooks.cli", "claude-code", "hook"]
    argv += ["--bundle", str(bundle)]

    def call() -> None:
        done = subprocess.run(
            argv, input=PAYLOAD, stdout=subprocess.DEVNULL, env=env, cwd=workspace
        )
        if done.returncode != 0:
            raise RuntimeError(f"the hook of {tree} exited {done.returncode}")

    def measure(calls: int) -> float:
        [socket] = [p for p in runtime.rglob("*") if p.is_socket()]
        server = server_pid(socket)
        started, server_started = _children_cpu(), _on_cpu(server)
        for _ in range(calls):
            call()
        spent = _children_cpu() - started + _on_cpu(server) - server_started
        return spent / calls

    try:
        for _ in range(3):
            call()  # starts the server, writes byte code, builds the session
        yield measure
    finally:
        stop_hook_servers(runtime)
        shutil.rmtree(runtime, ignore_errors=True)
        shutil.rmtree(workspace, ignore_errors=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path, help="the tree measured as the baseline")
    parser.add_argument("after", type=Path, help="the tree compared with it")
    parser.add_argument("--rounds", type=int, default=10, help="measurements per tree")
    parser.add_argument("--repeats", type=int, default=3, help="repeats per measurement")
    parser.add_argument(
        "--hook-calls", type=int, default=10, help="command hook calls per measurement (0: none)"
    )
    parser.add_argument("--guard", action="store_true", help="measure the guard instead")
    args = parser.parse_args(argv)
    code = GUARD_PROBE if args.guard else PROBE
    times: dict[str, dict[str, list[float]]] = {"before": {}, "after": {}}
    with contextlib.ExitStack() as stack:
        hooks = {
            side: stack.enter_context(hook_calls(getattr(args, side)))
            for side in ("before", "after")
            if args.hook_calls > 0
        }
        for _ in range(args.rounds):
            for side in ("before", "after"):
                for row, seconds in probe(getattr(args, side), args.repeats, code).items():
                    times[side].setdefault(row, []).append(seconds)
                if side in hooks:
                    times[side].setdefault(HOOK_ROW, []).append(hooks[side](args.hook_calls))
    print(f"{args.rounds} rounds, trees taking turns; medians of each tree's CPU µs per call")
    print("| row | before µs | after µs | after / before |")
    print("|---|---:|---:|---:|")
    for row, before_times in times["before"].items():
        before = statistics.median(before_times)
        after = statistics.median(times["after"][row])
        print(f"| {row} | {before * 1e6:.1f} | {after * 1e6:.1f} | {after / before:.2f} |")


if __name__ == "__main__":
    main()
