"""Every benchmark still runs: each at tiny sizes (``--smoke``), printing its table and a
line per target. Timings are never asserted here -- they belong to ``benchmarks/``, whose
numbers are ratios measured in one run; this only proves the benchmarks work."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.unavailable import unavailable

ROOT = Path(__file__).resolve().parents[1]
CLAUDE = ROOT / ".cache" / "claude-code" / "node_modules" / ".bin" / "claude"


def _names() -> list[str]:
    return sorted(p.stem.removeprefix("bench_") for p in (ROOT / "benchmarks").glob("bench_*.py"))


def _run_module(
    module: str, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``python -m module args`` from the repository root; it must exit 0."""
    done = subprocess.run(
        [sys.executable, "-m", module, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def test_python_m_benchmarks_runs_every_benchmark() -> None:
    from benchmarks.__main__ import BENCHMARKS

    assert sorted(BENCHMARKS) == _names()


# A whole benchmark in a subprocess: minutes on a loaded machine are not a failure here.
@pytest.mark.timeout(600)
@pytest.mark.parametrize("name", _names())
def test_each_benchmark_runs_at_tiny_sizes_and_says_whether_its_target_is_met(
    name: str, tmp_path: Path
) -> None:
    if name == "claude_code" and not os.access(CLAUDE, os.X_OK):
        unavailable(f"Claude Code is not installed at {CLAUDE} (run `make claude-code`)")
    extra = ["--backend", "sqlite"] if name.endswith("approvals") else []
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")}
    done = _run_module(f"benchmarks.bench_{name}", "--smoke", *extra, env=env)
    lines = done.stdout.splitlines()
    targets = [line for line in lines if line.startswith("target: ")]
    assert targets, done.stdout
    for line in targets:  # a verdict on each, or why there is none
        verdict = re.search(r"\(at (most|least) [\d.]+ ?[xµsMB ]*\): (met|NOT MET)$", line)
        assert verdict or line.startswith("target: none: "), line
    # The ratios (or, for the approval runs, the latencies) are printed.
    assert any(re.search(r"\d\.\d+x\b|\d ms\b|ms\s*$", line) for line in lines), done.stdout


def test_the_wake_probe_prints_a_row_per_delay() -> None:
    # Not a bench_ module (it measures the machine, not us), so not run above.
    done = _run_module("benchmarks.wakeprobe", "--rounds", "3", "--delays", "0,20")
    rows = [
        line for line in done.stdout.splitlines() if re.match(r"\| \d+ \| \d+ \| \d+ \|$", line)
    ]
    assert [row.split("|")[1].strip() for row in rows] == ["0", "20"], done.stdout


def test_the_guard_probe_prints_each_bundle_and_each_step_of_the_handler(tmp_path: Path) -> None:
    # Not a bench_ module (it attributes bench_guard's HTTP rows, it sets no target).
    from benchmarks._guard_http import BUNDLES
    from benchmarks.guardprobe import OUTSIDE, OWN_LINES, STEPS

    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")}
    done = _run_module("benchmarks.guardprobe", "--rounds", "3", env=env)
    rows = {
        line.split("|")[1].strip().strip("`"): line
        for line in done.stdout.splitlines()
        if re.match(r"\| .+ \| -?\d+\.\d \| -?\d+\.\d \|$", line)
    }
    assert set(rows) == {*BUNDLES, *STEPS, OWN_LINES, OUTSIDE}, done.stdout


def test_a_servers_cpu_time_is_read_from_proc_to_the_nanosecond() -> None:
    # bench_guard sets each HTTP row's wall time against its server's CPU time.
    from benchmarks.bench_hook_calls import _cpu_seconds

    if not Path("/proc/self/task").is_dir():
        unavailable("no /proc here: the benchmark prints ? for the server's CPU")
    before = _cpu_seconds(os.getpid())
    assert before is not None
    spun_from = time.process_time()
    while time.process_time() - spun_from < 0.02:
        pass
    after = _cpu_seconds(os.getpid())
    assert after is not None and after - before >= 0.019
    assert _cpu_seconds(2**22 + 1) is None  # above Linux's largest pid: no such process
