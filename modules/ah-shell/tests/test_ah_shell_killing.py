"""ah-shell's scripts that hang or are cancelled: killed with their whole process group."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path
from typing import Any

import pytest
from ah_shell_scripts import BASH_CALL, failures, gone, run_hook, script
from amplifier_module_ah_shell import mount
from amplifier_module_ah_shell.runner import run_command

from amplifier_hooks.session.coordinator import Coordinator
from amplifier_hooks.testing.servers import live_processes

# -- timeouts and killing ------------------------------------------------------------------

HANG = 'sleep 30 &\necho "$$ $!" > "$PIDS"\nwait'


@pytest.mark.parametrize("fail_closed", [False, True])
async def test_a_hanging_script_is_killed_with_its_children(
    tmp_path: Path, logs: list[dict[str, Any]], fail_closed: bool
) -> None:
    pids = tmp_path / "pids"
    hook = {
        "command": script(tmp_path, "hang.sh", HANG),
        "timeout": 0.5,
        "fail_closed": fail_closed,
        "env": {"PIDS": str(pids)},
    }
    started = time.monotonic()
    outcome = await run_hook(hook)
    elapsed = time.monotonic() - started
    # Not before its timeout, and not after waiting for the child's `sleep 30` either.
    assert 0.4 < elapsed < 25
    assert outcome.allowed is not fail_closed
    error = failures(logs)[0]["error"]
    assert "no answer within 0.5s; process group" in error and "killed" in error
    if fail_closed:
        assert outcome.reason is not None and "no answer within 0.5s" in outcome.reason
    script_pid, sleep_pid = map(int, pids.read_text().split())
    assert gone(script_pid) and gone(sleep_pid)


async def test_cancelling_the_emit_kills_the_script(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    coord = Coordinator()
    await mount(
        coord,
        {
            "hooks": [{"event": "tool:pre", "command": script(tmp_path, "h.sh", HANG)}],
            "env": {"PIDS": str(pids)},
        },
    )
    task = asyncio.create_task(coord.dispatch("tool:pre", BASH_CALL))
    # Another process writes the file, so there is no asyncio.Event to wait on: poll.
    while not pids.exists() or not pids.read_text().strip():  # noqa: ASYNC110
        await asyncio.sleep(0.02)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    # The handler's own task is cancelled too and cleans up (kill, drain, reap): wait for it.
    async with asyncio.timeout(5):
        while len(asyncio.all_tasks()) > 1:  # noqa: ASYNC110
            await asyncio.sleep(0.01)
    script_pid, sleep_pid = map(int, pids.read_text().split())
    assert gone(script_pid) and gone(sleep_pid)


def running_with(marker: str) -> list[int]:
    """Live (not zombie) processes whose command line contains ``marker``."""
    return live_processes(lambda argv: marker.encode() in b" ".join(argv))


async def test_cancelled_while_the_process_starts_it_is_killed_anyway(tmp_path: Path) -> None:
    # The child is forked in the start's first step and its pipes are connected after: a
    # cancellation that lands in between must still kill it, not leave it running orphaned
    # (the window is wide on a busy machine).
    marker = f"{os.getpid()}.{id(tmp_path) % 1000}"
    task = asyncio.create_task(
        run_command(
            ["sh", "-c", f"sleep 30{marker} || sleep 30"],
            stdin=b"",
            cwd=str(tmp_path),
            env=dict(os.environ),
            timeout=60,
            max_output=1024,
        )
    )
    await asyncio.sleep(0)  # forked; now waiting for its pipes
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    # The group was sent SIGKILL and the shell reaped before the task ended; give the kernel
    # a moment to finish off the rest of the group.
    deadline = time.monotonic() + 5
    while running_with(marker) and time.monotonic() < deadline:  # noqa: ASYNC110
        await asyncio.sleep(0.01)
    assert running_with(marker) == []
