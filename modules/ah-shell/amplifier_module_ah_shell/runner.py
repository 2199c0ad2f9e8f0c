"""Running one hook command: stdin in, capped stdout/stderr out, killed whole on timeout.

The command runs in a new session (its own process group) so that a timeout or a
cancellation can kill everything it started — ``sh -c 'sleep 30'`` forks a child that a
plain ``proc.kill()`` of the shell would leave running.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from amplifier_hooks.logs import get_logger

logger = get_logger()

REAP_TIMEOUT = 1.0
"""Seconds to wait for a killed process to be reaped before giving up on it."""

_CHUNK = 65_536


class CommandError(Exception):
    """The command could not be run to completion (start failure, timeout, runaway output)."""


class CommandTimeout(CommandError):
    """The command outlived its timeout and was killed with its process group."""


@dataclass(frozen=True, slots=True)
class Completed:
    """A command that ran to the end."""

    returncode: int
    stdout: bytes
    stderr: bytes
    duration: float
    pid: int


async def run_command(
    argv: Sequence[str],
    *,
    stdin: bytes,
    cwd: str,
    env: Mapping[str, str],
    timeout: float,
    max_output: int,
) -> Completed:
    """Run ``argv``, feed it ``stdin``, and collect its output within ``timeout`` seconds.

    Raises `CommandTimeout` or `CommandError`; in every abnormal ending (including the
    caller's cancellation) the process group is killed and the process reaped.
    """
    started = time.perf_counter()
    spawn = asyncio.ensure_future(
        asyncio.create_subprocess_exec(
            *argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            cwd=cwd,
            env=dict(env),
            start_new_session=True,
        )
    )
    try:
        proc = await asyncio.shield(spawn)
    except asyncio.CancelledError:
        # The child is forked before its pipes are connected: cancelled in between, it
        # would run on with nobody left to kill it. Let the start finish, then kill it.
        with contextlib.suppress(Exception):
            proc = await spawn
            if proc.stdin is not None:
                proc.stdin.close()
            await _abort(proc, [])
        raise
    except OSError as exc:
        raise CommandError(f"could not start {argv[0]!r} in {cwd!r}: {exc}") from exc
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    feed = asyncio.ensure_future(_feed(proc.stdin, stdin))
    out_task = asyncio.ensure_future(_read_capped(proc.stdout, max_output, "stdout"))
    err_task = asyncio.ensure_future(_read_capped(proc.stderr, max_output, "stderr"))
    tasks: list[asyncio.Future[Any]] = [feed, out_task, err_task]
    finished = False
    try:
        async with asyncio.timeout(timeout):
            await asyncio.gather(*tasks)
            returncode = await proc.wait()
        finished = True
    except TimeoutError:
        raise CommandTimeout(
            f"no answer within {timeout:g}s; process group {proc.pid} killed"
        ) from None
    finally:
        if not finished:
            await _abort(proc, tasks)
    return Completed(
        returncode, out_task.result(), err_task.result(), time.perf_counter() - started, proc.pid
    )


async def _abort(proc: asyncio.subprocess.Process, tasks: list[asyncio.Future[Any]]) -> None:
    """Kill the process group, stop the pipe tasks, then drain the pipes and reap the
    process (bounded). Draining to end-of-file is what lets asyncio close the subprocess
    transport; skipping it leaks the transport and its file descriptors."""
    kill_group(proc.pid)
    for task in tasks:
        task.cancel()
    # Retrieve the tasks' endings so none is reported as "exception never retrieved".
    await asyncio.gather(*tasks, return_exceptions=True)
    assert proc.stdout is not None and proc.stderr is not None
    try:
        async with asyncio.timeout(REAP_TIMEOUT):
            await asyncio.gather(_drain(proc.stdout), _drain(proc.stderr))
            await proc.wait()
    except TimeoutError:
        # Only a process that left the group (setsid) and kept the pipe open gets here.
        logger.warning(
            "hook command's pipes still open after its process group was killed",
            pid=proc.pid,
            returncode=proc.returncode,
        )


def kill_group(pgid: int) -> None:
    """SIGKILL every process of the group; a group that is already gone is fine.

    No SIGTERM first: a hook that has overrun its timeout has had its chance, and a grace
    period would only stretch the agent's wait.
    """
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


async def _feed(writer: asyncio.StreamWriter, payload: bytes) -> None:
    # A script may exit without reading its input (plenty only look at the environment):
    # the broken pipe that follows is normal, not a failure.
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        writer.write(payload)
        await writer.drain()
    writer.close()
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        await writer.wait_closed()


async def _drain(reader: asyncio.StreamReader) -> None:
    while await reader.read(_CHUNK):
        pass


async def _read_capped(reader: asyncio.StreamReader, limit: int, label: str) -> bytes:
    buffer = bytearray()
    while chunk := await reader.read(_CHUNK):
        buffer += chunk
        if len(buffer) > limit:
            raise CommandError(f"{label} exceeded {limit} bytes; process group killed")
    return bytes(buffer)
