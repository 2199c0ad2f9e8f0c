"""How much CPU does the command line spend before it does anything, next to Python's own
start-up?

Run from the repository root::

    .venv/bin/python -m benchmarks.bench_startup

Each command runs as a fresh process, the commands taking turns, several rounds; its CPU
time (user + system of that child, from the kernel's accounting: ``os.wait4``) is compared
with ``python -c pass`` measured in the same run. Targets (issue 37): ``--version`` and
``--help`` at most 2x the baseline, ``test BUNDLE -- ls`` at most 6x. ``test --help`` is
context: a command's own help loads only that command's module.

``test`` asks the background server for its bundle in its folder, as the command hooks
do (`amplifier_hooks.transports.relay.trial`): one run before the rounds starts that
server (its own runtime folder, stopped at the end), and the row is the ``test`` process
alone. ``test --no-server`` is context: the same call judged in-process, the fallback
when no server can be reached. The server's own CPU per ``test`` is measured beside it
(its process's CPU over the rounds, from ``/proc``), as context too.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks._targets import add_smoke, target

ROOT = Path(__file__).resolve().parents[1]
BUNDLE = ROOT / "bundles" / "default.md"
BASELINE = ("python -c pass", [sys.executable, "-c", "pass"])
COMMANDS = [
    BASELINE,
    ("--version", [sys.executable, "-m", "amplifier_hooks.cli", "--version"]),
    ("--help", [sys.executable, "-m", "amplifier_hooks.cli", "--help"]),
    ("test --help", [sys.executable, "-m", "amplifier_hooks.cli", "test", "--help"]),
    (
        "test BUNDLE -- ls",
        [sys.executable, "-m", "amplifier_hooks.cli", "test", str(BUNDLE), "--", "ls"],
    ),
    (
        "test --no-server BUNDLE -- ls",
        [
            *[sys.executable, "-m", "amplifier_hooks.cli", "test", "--no-server"],
            *[str(BUNDLE), "--", "ls"],
        ],
    ),
]
TEST = "test BUNDLE -- ls"
TARGETS = {"--version": 2.0, "--help": 2.0, "test BUNDLE -- ls": 6.0}


def cpu_once(argv: list[str]) -> float:
    """CPU seconds (user + system) one run of ``argv`` takes, that process alone."""
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
    _, _, usage = os.wait4(process.pid, 0)
    process.returncode = 0  # reaped above: Popen must not wait for it again
    return usage.ru_utime + usage.ru_stime


def _server_cpu() -> tuple[int, float] | None:
    """The running server's (pid, CPU seconds so far), from its note and ``/proc``."""
    from amplifier_hooks.transports.relay.servers import running_servers

    for note in running_servers():
        try:
            with open(f"/proc/{note.pid}/stat", encoding="ascii") as stream:
                fields = stream.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            return None
        return note.pid, (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return None


def _measure(rounds: int) -> tuple[dict[str, list[float]], float | None]:
    """Each command's CPU per run over ``rounds``, and the server's CPU per ``test``."""
    from amplifier_hooks.transports.relay.servers import stop_servers

    times: dict[str, list[float]] = {name: [] for name, _ in COMMANDS}
    commands = dict(COMMANDS)
    try:
        cpu_once(commands[TEST])  # starts the server: the first use, not measured
        before = _server_cpu()
        for _ in range(rounds):
            for name, command in COMMANDS:  # taking turns: a busy moment hits every row alike
                times[name].append(cpu_once(command))
        after = _server_cpu()
    finally:
        stop_servers([str(BUNDLE)])
    served = None
    if before is not None and after is not None and before[0] == after[0]:
        served = (after[1] - before[1]) / rounds
    return times, served


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15, help="runs per command")
    add_smoke(parser)
    args = parser.parse_args(argv)
    if args.smoke:
        args.rounds = 1
    saved = os.environ.get("XDG_RUNTIME_DIR")
    with tempfile.TemporaryDirectory(prefix="ah-bench-", dir="/tmp") as runtime:
        os.environ["XDG_RUNTIME_DIR"] = runtime  # the server's socket: ours, short, gone after
        try:
            times, served = _measure(args.rounds)
        finally:
            if saved is None:
                del os.environ["XDG_RUNTIME_DIR"]
            else:
                os.environ["XDG_RUNTIME_DIR"] = saved
    baseline = max(statistics.median(times[BASELINE[0]]), 1e-3)
    print(
        f"Python {platform.python_version()} on {platform.machine()}, {platform.system()}; "
        f"median CPU of {args.rounds} runs per row; load average "
        f"{', '.join(f'{load:.1f}' for load in os.getloadavg())}"
    )
    print("| command | median CPU ms | min ms | max ms | / baseline |")
    print("|---|---:|---:|---:|---:|")
    for name, _ in COMMANDS:
        runs = times[name]
        median = statistics.median(runs)
        print(
            f"| `{name}` | {median * 1e3:.1f} | {min(runs) * 1e3:.1f} "
            f"| {max(runs) * 1e3:.1f} | {median / baseline:.2f}x |"
        )
    if served is not None:
        print(f"\nthe server's CPU per `{TEST}`: {served * 1e3:.1f} ms (context)")
    print()
    for name, most in TARGETS.items():
        target(f"`{name}` CPU / `python -c pass`:", statistics.median(times[name]) / baseline, most)


if __name__ == "__main__":
    main()
