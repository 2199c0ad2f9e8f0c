"""Helpers for tests that run the real command: start it, find its server, wait for a
process to end (on the kernel's word, a pidfd, never on a sleep)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from amplifier_hooks.testing.servers import live_processes

COMMAND = str(Path(sys.executable).parent / "amplifier-hooks")
WAIT = 60.0  # seconds before a test gives up on a process (a hang, not a timing check)


def servers_on(path: Path) -> list[int]:
    """Pids of live processes whose command line names the socket ``path``."""
    name = os.fsencode(path)
    return live_processes(lambda argv: b"serve" in argv and name in argv)


def hook(
    bundle: Path,
    payload: dict[str, Any] | bytes,
    env: dict[str, str],
    cwd: Path,
    *extra: str,
    host: str = "claude-code",
) -> subprocess.CompletedProcess[str]:
    """Run ``amplifier-hooks <host> hook --bundle BUNDLE`` once, as Claude Code does."""
    data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    return subprocess.run(
        [COMMAND, host, "hook", "--bundle", str(bundle), *extra],
        input=data.decode(),
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=WAIT * 2,
        check=False,
    )


def answer_of(done: subprocess.CompletedProcess[str]) -> dict[str, Any] | None:
    out = done.stdout.strip()
    if not out:
        return None
    value: dict[str, Any] = json.loads(out)
    return value
