"""The user-space instructions a hook server executes per call, counted by valgrind's
callgrind: unlike CPU time, the count does not move with the machine's load, so two
commits can be compared on a busy machine. (Kernel time -- the sockets' system calls --
is not counted.)

Run from the repository root (needs valgrind: ``apt-get install valgrind``)::

    .venv/bin/python -m benchmarks.serve_instructions
    .venv/bin/python -m benchmarks.serve_instructions --bare asyncio   # the bare endpoint

The server (``amplifier-hooks serve`` on bundles/strict.yaml, or the load benchmark's
bare aiohttp endpoint) runs under callgrind with counting off; after a warm-up of 10
sessions it counts while ``--sessions`` sessions x 20 calls are made at concurrency 50
(the load of `benchmarks.bench_serve_load`, sessions' openings included), then prints
the count divided by the calls. A measuring tool, not a benchmark with a target.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.bench_serve_load import BARE, BUNDLE, free_port, load


def server_command(port: int, bare: str | None) -> list[str]:
    if bare is not None:
        return [sys.executable, "-c", BARE, str(port), bare]
    return [sys.executable, "-m", "amplifier_hooks.cli", "serve", "--bundle", str(BUNDLE),
            "--port", str(port)]  # fmt: skip


def counted(path: Path) -> int:
    """The instructions counted in callgrind's output file(s) at ``path``."""
    total = 0
    for each in path.parent.glob(path.name + "*"):
        for line in each.read_text(errors="replace").splitlines():
            if line.startswith(("totals:", "summary:")):
                total = max(total, int(line.split()[1]))
    return total


def measure(sessions: int, bare: str | None, folder: Path) -> tuple[float, float]:
    """Instructions per call, and the calls that failed."""
    token = secrets.token_urlsafe(24)
    env = {**os.environ, "AMPLIFIER_HOOKS_TOKEN": token}
    env["AMPLIFIER_HOOKS_LOG"] = str(folder / "events.jsonl")
    port = free_port()
    out = folder / "callgrind.out"
    command = ["valgrind", "--tool=callgrind", "--instr-atstart=no",
               f"--callgrind-out-file={out}", *server_command(port, bare)]  # fmt: skip
    with open(folder / "valgrind.log", "w") as log:
        server = subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL,
                                  stdout=subprocess.DEVNULL, stderr=log)  # fmt: skip
    try:
        for _ in range(6000):  # slow to start under valgrind
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        url = f"http://127.0.0.1:{port}/claude-code"
        asyncio.run(load(url, token, 10, 20, 50, lambda kind, body: True))  # warm
        control = ["callgrind_control", "--instr=on", str(server.pid)]
        subprocess.run(control, check=True, capture_output=True)
        row = asyncio.run(load(url, token, sessions, 20, 50, lambda kind, body: True))
        control[1] = "--instr=off"
        subprocess.run(control, check=True, capture_output=True)
    finally:
        server.terminate()
        server.wait()
    return counted(out) / max(row["calls"], 1), row["errors"]


def cli(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=30)
    parser.add_argument("--bare", choices=("asyncio", "uvloop"), default=None,
                        help="count the bare aiohttp endpoint on this loop instead")  # fmt: skip
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        sys.exit("valgrind is needed: apt-get install valgrind")
    with tempfile.TemporaryDirectory(prefix="ah-instructions-") as folder:
        per_call, errors = measure(args.sessions, args.bare, Path(folder))
    what = f"bare aiohttp endpoint on {args.bare}" if args.bare else "amplifier-hooks serve"
    print(f"{what}: {per_call / 1e6:.3f} M instructions a call "
          f"({args.sessions} sessions x 20 calls, {errors:.0f} errors)")  # fmt: skip


if __name__ == "__main__":
    cli()
