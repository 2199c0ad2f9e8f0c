"""What ah-shell's tests share: a script on disk, one hook mounted and dispatched, the
failures it logged, and whether a process is gone."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path
from typing import Any

from amplifier_module_ah_shell import mount

from amplifier_hooks.session.coordinator import Coordinator
from amplifier_hooks.session.outcome import Outcome

BASH_CALL = {"tool_name": "bash", "tool_input": {"command": "rm -rf build"}}


def script(tmp_path: Path, name: str, body: str) -> str:
    """Write an executable bash script and return its path."""
    path = tmp_path / name
    path.write_text("#!/bin/bash\n" + body + "\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


async def run_hook(
    hook: dict[str, Any],
    data: dict[str, Any] | None = None,
    event: str | None = None,
    coord: Coordinator | None = None,
    **module_config: Any,
) -> Outcome:
    """Mount ah-shell with one hook and dispatch one event to it."""
    coord = coord or Coordinator()
    hook = {"event": "tool:pre", **hook}
    await mount(coord, {"hooks": [hook], **module_config})
    return await coord.dispatch(event or hook["event"], BASH_CALL if data is None else data)


def gone(pid: int) -> bool:
    """True once ``pid`` no longer runs (a zombie waiting for init to reap it counts)."""
    deadline = time.monotonic() + 10  # a bound for a hang, not a speed requirement
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return True
        except (ProcessLookupError, FileNotFoundError):
            return True
        time.sleep(0.02)
    return False


def failures(logs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in logs if r["event"] == "hook handler failed"]
