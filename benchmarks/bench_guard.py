"""What the guard costs: one decision of the whole pack, and a hook call with it.

Run from the repository root::

    .venv/bin/python -m benchmarks.bench_guard

- Decision: ``judge(call, load_pack(), places)`` on a typical command (``git status &&
  pytest -q tests/``: parsed, two pieces, every rule that can hold consulted), against
  ``await registry.emit("tool:pre", data)`` with one handler that returns None, measured
  alternately in the same process in CPU time (`time.process_time`: on a shared machine
  the time the process was not running is not counted; each the least of several repeats
  of a mean over many calls). Two rows: *fresh*, a new command of that shape every call
  (``... tests/test_N.py``: the parse cache and the path memos miss; only what depends on
  the pack and the places is reused) -- the target is judged on this one, at most 15x
  (issue 33) -- and *repeated*, the same text every call (the parse cache hits). Beside
  them, the fresh calls timed one at a time (p50 and p99, CPU time): the spread a person
  meets, collections and cache refills included; target p99 at most 100 µs.
- Corpus: every case of the shipped corpora (amplifier_hooks/cli/corpora), each judged
  many times in CPU time with the parse cache and the pieces' readings emptied before
  each (so every command is parsed and read); the median per case, then p50, p99 and
  the slowest case over the cases.
  Target: p99 at most 100 µs.
- Written files: a file tool writing a long ordinary file (a Python module, a Makefile, a
  markdown page, about 20 KB each: `benchmarks._written`), CPU time, medians; what the
  searches of a written text cost, which the corpus's short texts do not show.
- Git facts: a call that deletes, discards or overwrites a path in a repository (a real
  one made in a temporary folder: tracked, changed, untracked and ignored files) as
  ah-guard judges it: the pieces, what to ask git (`losses.asks_of`), one ``git`` run
  (`repo.ask_git`, with a deadline long enough to measure it), then `judge`; wall time,
  since git runs in a child process; p50 and p99 over the rounds. Target: p50 at most
  10 ms. Beside it, in CPU time, a fresh typical command as ah-guard judges it (asking
  git nothing: `asks_of` finds no call for it), set against the fresh `judge` row.
- Parse: `parse_fresh` (the uncached parse: a plain line read from its text, `plainline`;
  any other, tree-sitter and the walk over its tree) of every shell command of the shipped
  corpora in turn, CPU time; the mean per command, the least of several rounds.
- HTTP hook: one ``POST /claude-code`` (a ``PreToolUse`` of that command) on a keep-alive
  connection to ``amplifier-hooks serve`` with a bundle holding only ah-guard (its
  default pack), against the same server with a bundle with no hooks; the rows take
  turns, medians. Target: at most 1.1x. A third row, ah-guard with no rules (``pack:
  none``: the command still parsed and judged), shows what is the handler's and what the
  pack's; beside them, in a run of its own against the empty bundle (a server more in
  the turns would take its share of the caches from the target's rows), a handler that
  does nothing (`benchmarks/noop_hook.py`): what any handler on the call costs.
  The last column is the server process's CPU time per call over the timed calls (from
  ``/proc``: Linux only): the call's wall time
  follows it, so a gap between rows is the server's work, not waiting.
- Swept: one ``judge`` of the typical command (the parse cache hits), in CPU time, right
  after the one before and after the caches were swept (`benchmarks._swept`); medians.
  The second is what a server pays between two calls: why the HTTP rows' gap is several
  times the decision rows'.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from amplifier_hooks import HookRegistry
from amplifier_hooks.cli.corpus import load_corpus, shipped_corpora
from amplifier_hooks.cli.probe import event_data
from amplifier_hooks.guard import Places, judge, load_pack
from amplifier_hooks.guard.losses import asks_of
from amplifier_hooks.guard.memo import begin, end
from amplifier_hooks.guard.nestedrepos import Budget, nested_repository
from amplifier_hooks.guard.parser import forget_parsed, parse_fresh
from amplifier_hooks.guard.policy import judge_pieces, pieces_for
from amplifier_hooks.guard.readings import forget_readings
from amplifier_hooks.guard.repo import ask_git
from benchmarks._guard_http import BARE, EMPTY, GUARD, NOOP, http_costs
from benchmarks._swept import swept_costs
from benchmarks._targets import add_smoke, target
from benchmarks._timing import calibrate
from benchmarks._written import written_costs

TYPICAL = "git status && pytest -q tests/"
FRESH = "git status && pytest -q tests/test_"
"""A new command of the typical shape: ``FRESH`` and a number."""
WORKSPACE = "/home/dev/project"


def _data(command: str, workspace: str) -> dict[str, Any]:
    return {"tool_name": "bash", "tool_input": {"command": command}, "workspace": workspace}


def decision_costs(repeats: int, budget: float) -> tuple[float, float, float]:
    """CPU seconds per call: (a whole-pack judge of a fresh command, of the same command
    again, an emit with one no-op handler)."""
    policy = load_pack()
    places = Places.of(WORKSPACE, home="/home/dev")
    data = _data(TYPICAL, WORKSPACE)
    fresh = itertools.count()
    registry = HookRegistry()

    async def noop(event: str, payload: dict[str, Any]) -> None:
        return None

    registry.register("tool:pre", noop, name="noop")
    loop = asyncio.new_event_loop()

    def run_judge(loops: int) -> float:
        started = time.process_time()
        for _ in range(loops):
            judge(data, policy, places)
        return time.process_time() - started

    def run_fresh(loops: int) -> float:
        calls = [_data(f"{FRESH}{next(fresh)}.py", WORKSPACE) for _ in range(loops)]
        started = time.process_time()
        for call in calls:
            judge(call, policy, places)
        return time.process_time() - started

    async def emits(loops: int) -> float:
        started = time.process_time()
        for _ in range(loops):
            await registry.emit("tool:pre", data)
        return time.process_time() - started

    def run_emit(loops: int) -> float:
        return loop.run_until_complete(emits(loops))

    try:
        judge_loops, emit_loops = calibrate(run_judge, budget), calibrate(run_emit, budget)
        fresh_loops = calibrate(run_fresh, budget)
        best_judge = best_emit = best_fresh = float("inf")
        for _ in range(repeats):
            best_fresh = min(best_fresh, run_fresh(fresh_loops) / fresh_loops)
            best_judge = min(best_judge, run_judge(judge_loops) / judge_loops)
            best_emit = min(best_emit, run_emit(emit_loops) / emit_loops)
    finally:
        loop.close()
    return best_fresh, best_judge, best_emit


def fresh_calls(count: int) -> list[float]:
    """CPU seconds of each of ``count`` fresh decisions, timed one at a time and sorted:
    the spread of the fresh row (a collection or a cache refill lands on some calls)."""
    policy = load_pack()
    places = Places.of(WORKSPACE, home="/home/dev")
    calls = [_data(f"{FRESH}{index}.py", WORKSPACE) for index in range(count)]
    for call in calls[: count // 10]:  # (warm: the first calls load the pack's caches)
        judge(call, policy, places)
    times = []
    for call in calls[count // 10 :]:
        started = time.process_time()
        judge(call, policy, places)
        times.append(time.process_time() - started)
    return sorted(times)


def _percentile(sorted_values: list[float], share: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, round(share * (len(sorted_values) - 1)))]


def corpus_costs(rounds: int) -> list[tuple[float, str]]:
    """(median seconds, case id) of a whole-pack judge of every shipped case."""
    policy = load_pack()
    costs = []
    for path in shipped_corpora():
        for case in load_corpus(path):
            places = Places.of(case.call.cwd, home=case.call.home)
            data = event_data(case.call)
            runs = []
            for _ in range(rounds):
                forget_parsed()
                forget_readings()  # and each piece read afresh
                started = time.process_time()
                judge(data, policy, places)
                runs.append(time.process_time() - started)
            costs.append((statistics.median(runs), case.id))
    return sorted(costs)


GIT_FACT_COMMANDS = ("rm -rf build", "git restore src/a.py", "rm notes.txt", "> src/b.py",
                     "rm -f src/b.py && git checkout -- src/a.py", "cp src/b.py src/a.py",
                     "sort -o notes.txt src/b.py")  # fmt: skip
"""Calls whose verdict needs git's facts (delete, discard, truncate, copy or write onto)."""
GIT_FACT_WRITES = ("src/a.py", "notes.txt", "src/b.py")
"""Files a file tool's whole-file write (Claude Code's Write) goes over: a changed, an
untracked and a clean one; git is asked about each, as for ``tee FILE``."""


def _git_fact_call(index: int, top: str) -> dict[str, Any]:
    """The ``index``-th call of the git-facts row: the commands, then the writes, in turn."""
    index %= len(GIT_FACT_COMMANDS) + len(GIT_FACT_WRITES)
    if index < len(GIT_FACT_COMMANDS):
        return _data(GIT_FACT_COMMANDS[index], top)
    path = f"{top}/{GIT_FACT_WRITES[index - len(GIT_FACT_COMMANDS)]}"
    given = {"file_path": path, "content": "x = 3\n"}
    return {"tool_name": "Write", "tool_input": given, "workspace": top}


def _git(folder: Path, *args: str) -> None:
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": str(folder / ".none")}
    subprocess.run(["git", "-c", "user.name=b", "-c", "user.email=b@example.invalid", *args],
                   cwd=folder, env=env, check=True, capture_output=True)  # fmt: skip


def _as_ah_guard(data: dict[str, Any], policy: Any, places: Places, deadline: float) -> None:
    call_memo = begin()  # one memo across the steps, as ah-guard's `explain` opens
    try:
        command, pieces, _ = pieces_for(data, places)
        asks = asks_of(pieces, places, command)
        judge_pieces(command, pieces, policy, places, ask_git(asks, deadline) if asks else None)
    finally:
        end(call_memo)


def git_fact_costs(rounds: int) -> tuple[list[float], int, float, float]:
    """(wall seconds of each call needing git facts, how many got no answer within the
    default 20 ms, CPU seconds of a fresh typical call as ah-guard judges it, of the same
    by `judge` alone)."""
    folder = Path(tempfile.mkdtemp(prefix="ah-bench-git-"))
    try:
        top = folder / "project"
        (top / "src").mkdir(parents=True)
        (top / ".gitignore").write_text("build/\n")
        for name in ("a", "b"):
            (top / "src" / f"{name}.py").write_text(f"{name} = 1\n")
        _git(folder, "init", "-q", str(top))
        _git(top, "add", ".")
        _git(top, "commit", "-qm", "start")
        (top / "build").mkdir()
        (top / "build" / "out.o").write_text("x")
        (top / "src" / "a.py").write_text("a = 2\n")
        (top / "notes.txt").write_text("mine\n")
        policy = load_pack()
        places = Places.of(top, home=folder / "home")
        walls: list[float] = []
        late = 0
        for index in range(rounds):
            data = _git_fact_call(index, str(top))
            started = time.perf_counter()
            _as_ah_guard(data, policy, places, 1.0)
            walls.append(time.perf_counter() - started)
            command, pieces, _ = pieces_for(data, places)
            if ask_git(asks_of(pieces, places, command)) is None:
                late += 1
        fresh = itertools.count()

        def hooked(loops: int) -> float:
            calls = [_data(f"{FRESH}{next(fresh)}.py", str(top)) for _ in range(loops)]
            started = time.process_time()
            for call in calls:
                _as_ah_guard(call, policy, places, 0.02)
            return time.process_time() - started

        def plain(loops: int) -> float:
            calls = [_data(f"{FRESH}{next(fresh)}.py", str(top)) for _ in range(loops)]
            started = time.process_time()
            for call in calls:
                judge(call, policy, places)
            return time.process_time() - started

        loops = calibrate(plain, 0.1)
        best_hooked = min(hooked(loops) / loops for _ in range(3))
        best_plain = min(plain(loops) / loops for _ in range(3))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return sorted(walls), late, best_hooked, best_plain


def node_modules_look_costs(rounds: int, packages: int = 1500) -> list[float]:
    """Wall seconds of each look for a repository in an installed ``node_modules`` (1500
    packages, 200 scoped, about 50,000 files), as `repo.ask_git` looks before granting its
    delete (`nestedrepos`)."""
    folder = Path(tempfile.mkdtemp(prefix="ah-bench-modules-"))
    try:
        modules = folder / "node_modules"
        for index in range(packages):
            name = f"@scope{index % 40}/pkg{index}" if index < packages // 7 else f"pkg{index}"
            for inner in ("", "lib", "lib/util", "dist"):
                (modules / name / inner).mkdir(parents=True, exist_ok=True)
                for file in range(8):
                    (modules / name / inner / f"f{file}.js").write_text("x")
        walls = []
        for _ in range(rounds):
            started = time.perf_counter()
            nested_repository(str(modules), Budget())
            walls.append(time.perf_counter() - started)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return sorted(walls)


def parse_costs(rounds: int) -> tuple[int, float]:
    """(commands, least mean CPU seconds) of an uncached parse of each corpus command."""
    commands = [
        case.call.input["command"]
        for path in shipped_corpora()
        for case in load_corpus(path)
        if isinstance(case.call.input.get("command"), str)
    ]
    best = float("inf")
    for _ in range(rounds):
        started = time.process_time()
        for command in commands:
            parse_fresh(command)
        best = min(best, (time.process_time() - started) / len(commands))
    return len(commands), best


def _http_table(title: str, calls: dict[str, tuple[float, float | None]]) -> None:
    baseline = calls[EMPTY][0]
    print(f"| {title} | ms | / baseline | server CPU ms |")
    print("|---|---:|---:|---:|")
    for name, (median, cpu) in calls.items():
        ratio = median / baseline
        used = "?" if cpu is None else f"{cpu * 1e3:.3f}"
        print(f"| `amplifier-hooks serve`, {name} | {median * 1e3:.3f} | {ratio:.2f}x | {used} |")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5, help="repeats of each timing")
    parser.add_argument("--budget", type=float, default=0.2, help="seconds per repeat")
    parser.add_argument("--corpus-rounds", type=int, default=21, help="judges per case")
    parser.add_argument("--rounds", type=int, default=200, help="HTTP calls per row")
    parser.add_argument("--fresh-calls", type=int, default=20_000, help="fresh calls, one by one")
    add_smoke(parser)
    args = parser.parse_args(argv)
    if args.smoke:
        args.repeats, args.budget, args.corpus_rounds, args.rounds = 1, 0.01, 1, 3
        args.fresh_calls = 100
    print(f"Python {platform.python_version()} on {platform.machine()}, {platform.system()}")

    fresh, judged, emitted = decision_costs(args.repeats, args.budget)
    print()
    print("| one decision (CPU time) | µs per call | / baseline |")
    print("|---|---:|---:|")
    print(f"| `registry.emit` with one no-op handler (baseline) | {emitted * 1e6:.2f} | 1.00x |")
    print(f"| `judge`, default pack, fresh: `{FRESH}N.py` | {fresh * 1e6:.2f} "
          f"| {fresh / emitted:.2f}x |")  # fmt: skip
    print(f"| `judge`, default pack, repeated: `{TYPICAL}` | {judged * 1e6:.2f} "
          f"| {judged / emitted:.2f}x |")  # fmt: skip
    decision_ratio = fresh / emitted
    each = fresh_calls(max(100, args.fresh_calls))
    fresh_p99 = _percentile(each, 0.99)
    print(f"| `judge`, fresh, {len(each)} calls timed one at a time: p50 / p99 "
          f"| {_percentile(each, 0.5) * 1e6:.1f} / {fresh_p99 * 1e6:.1f} | |")  # fmt: skip

    costs = corpus_costs(args.corpus_rounds)
    seconds = [c for c, _ in costs]
    p99 = _percentile(seconds, 0.99)
    print()
    print(f"| the default pack over {len(costs)} corpus cases | µs |")
    print("|---|---:|")
    print(f"| p50 | {statistics.median(seconds) * 1e6:.1f} |")
    print(f"| p99 | {p99 * 1e6:.1f} |")
    print(f"| slowest (`{costs[-1][1]}`) | {costs[-1][0] * 1e6:.1f} |")

    print()
    print("| a file tool writing a long file (about 20 KB, CPU time, median) | µs |")
    print("|---|---:|")
    for path, cost in written_costs(max(1, args.corpus_rounds // 3)):
        print(f"| `{path}` | {cost * 1e6:.1f} |")

    walls, late, hooked, plain = git_fact_costs(max(10, args.rounds))
    git_p50 = statistics.median(walls)
    git_p99 = _percentile(walls, 0.99)
    print()
    print(f"| calls that need git facts, as ah-guard judges them ({len(walls)} calls) | ms |")
    print("|---|---:|")
    print(f"| p50 (wall time: git runs in a child process) | {git_p50 * 1e3:.2f} |")
    print(f"| p99 | {git_p99 * 1e3:.2f} |")
    print(f"| calls git did not answer within the default 20 ms | {late} of {len(walls)} |")
    looks = node_modules_look_costs(max(10, args.rounds // 4), 15 if args.smoke else 1500)
    print(f"| beside git: the look through an installed node_modules (1500 packages, "
          f"about 50,000 files), p50 | {statistics.median(looks) * 1e3:.2f} |")  # fmt: skip
    print()
    print("| a fresh typical call, no git facts needed (CPU time) | µs per call | / baseline |")
    print("|---|---:|---:|")
    print(f"| `judge` alone | {plain * 1e6:.2f} | {plain / emitted:.2f}x |")
    print(f"| as ah-guard judges it (`asks_of`, then `judge`) | {hooked * 1e6:.2f} "
          f"| {hooked / emitted:.2f}x |")  # fmt: skip

    count, parse_mean = parse_costs(max(1, args.corpus_rounds // 3))
    print()
    print(f"| `parse_fresh` (uncached) over the {count} corpus commands | µs per command |")
    print("|---|---:|")
    print(f"| mean | {parse_mean * 1e6:.1f} |")

    calls = http_costs(args.rounds, TYPICAL, (EMPTY, BARE, GUARD))
    beside = http_costs(args.rounds, TYPICAL, (EMPTY, NOOP))
    baseline = calls[EMPTY][0]
    print()
    _http_table(f"HTTP hook, keep-alive, median of {args.rounds}", calls)
    print()
    _http_table("beside it, two servers of their own", beside)
    policy, places = load_pack(), Places.of(WORKSPACE, home="/home/dev")
    typical = _data(TYPICAL, WORKSPACE)
    warm, swept = swept_costs(lambda: judge(typical, policy, places), max(10, args.rounds))
    print()
    print(f"| `judge` of `{TYPICAL}`, one call (CPU time) | µs |")
    print("|---|---:|")
    print(f"| right after the one before | {warm * 1e6:.1f} |")
    print(f"| after the caches were swept (as a server meets it between calls) | "
          f"{swept * 1e6:.1f} |")  # fmt: skip
    print()
    target(
        "one decision of the pack, fresh command / registry.emit with a no-op handler:",
        decision_ratio,
        15,
    )
    target("one fresh decision of the pack, p99:", fresh_p99 * 1e6, 100, unit=" µs")
    target("one decision of the pack over the corpus cases, p99:", p99 * 1e6, 100, unit=" µs")
    target("calls that need git facts, p50:", git_p50 * 1e6, 10_000, unit=" µs")
    guarded = calls[GUARD][0]
    target("a warm HTTP hook call with the pack / with an empty bundle:", guarded / baseline, 1.1)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
