"""Our bundles as the guard of the real Claude Code: bundle files, installing, answering."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from amplifier_hooks.approvals import PendingRequest, open_store
from amplifier_hooks.testing.servers import stop_hook_servers

ROOT = Path(__file__).resolve().parents[2]
MODULES = ROOT / "modules"


POLICY_SESSION = """
session:
  approvals: {{provider: policy, store: ":memory:"}}
"""
"""A session whose approvals are decided by policy, nothing kept between runs."""

DENY_RM = """
hooks:
  - module: ah-approval
    source: {modules}/ah-approval
    config:
      defaults: false
      rules:
        - tool: bash
          command: "rm -rf *"
          decision: deny
          reason: "no recursive deletes: {{command}}"
"""
"""ah-approval denying ``rm -rf``, and no other rule (the hooks of a bundle file)."""

PROGRESS_MONITOR = """\
  - module: ah-progress-monitor
    source: {modules}/ah-progress-monitor
    config:
      thresholds: [2]
      messages: ["NUDGE: {{count}} reads in a row; time to act."]
"""
"""ah-progress-monitor nudging after two reads in a row (a hooks entry to append)."""

ASK_QUEUE = """
session:
  approvals: {{provider: queue, store: "{store}"}}
"""
ASK_RULES = """
hooks:
  - module: ah-approval
    source: {modules}/ah-approval
    config:
      defaults: false
      rules:
        - {{tool: bash, command: "rm -rf *", decision: ask, timeout: 120}}
"""
"""A session whose questions go to the queue in ``{store}``, and ah-approval asking
before ``rm -rf`` (and nothing else)."""

TICKET = "TICKET-4242"
HIDDEN = "ticket-hidden"
REWRITER = """\
import json, sys
tool_input = json.load(sys.stdin).get("tool_input") or {}
command = tool_input.get("command")
if isinstance(command, str) and "TICKET" in command:
    new = {**tool_input, "command": command.replace("TICKET", "HIDDEN")}
    print(json.dumps({"hookSpecificOutput": {"updatedInput": new}}))
""".replace("TICKET", TICKET).replace("HIDDEN", HIDDEN)
"""A command hook that rewrites a command naming `TICKET` to name `HIDDEN`: a ``modify``."""


def rewriting_hooks(directory: Path) -> str:
    """ah-shell running `REWRITER` (written into ``directory``) before each tool call: a
    hooks entry to append to a bundle."""
    script = directory / "rewriter.py"
    script.write_text(REWRITER)
    command = f"{sys.executable} {script}"
    return (
        "  - module: ah-shell\n    source: {modules}/ah-shell\n    config:\n"
        f'      hooks:\n        - {{{{event: "tool:pre", command: "{command}"}}}}\n'
    )


MISBEHAVE = """\
#!/bin/sh
# Stands in for our hook process: misbehaves as the tool call asks.
input=$(cat)
case $input in
  *crash*) echo "Traceback: boom" >&2; exit 1;;
  *hang*) exec sleep 60;;
  *garbage*) echo "this is not JSON"; exit 0;;
  *missing*) exec /nonexistent/amplifier-hooks-python "$@";;
esac
echo '{}'
"""
"""Stands in for our hook process (as its "python") to make each kind of hook failure."""

FAILURES = {
    "crash": "it failed (exit 1)",
    "hang": "it gave no answer within 2s",
    "garbage": "its answer is not JSON",
    "missing": "its program could not be started",
}
"""Each failure `MISBEHAVE` makes, and what the fail-closed wrapper says about it (with a
host timeout of 12 s)."""


def misbehaving_python(directory: Path) -> Path:
    """`MISBEHAVE` as an executable ``python`` in ``directory``: what an install plan runs
    as our interpreter, to make each kind of hook failure."""
    fake = directory / "python"
    fake.write_text(MISBEHAVE)
    fake.chmod(0o755)
    return fake


def write_bundle(path: Path, session: str, hooks: str) -> Path:
    """A bundle file: ``session`` and ``hooks`` are YAML blocks (indented as in the file);
    ``{modules}`` in them is this checkout's modules directory."""
    path.write_text(
        'bundle: {name: e2e-guard, version: "0.1"}\n'
        + session.format(modules=MODULES)
        + hooks.format(modules=MODULES)
    )
    return path


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``amplifier-hooks ARGS`` as a user runs it (this interpreter's install)."""
    return subprocess.run(
        [sys.executable, "-m", "amplifier_hooks.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )


def install(bundle: Path, settings: Path, *extra: str) -> str:
    """``amplifier-hooks claude-code install``; its output (it must succeed)."""
    done = cli(
        "claude-code", "install", "--bundle", str(bundle), "--settings", str(settings), *extra
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def settings_of(path: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(path.read_text())
    return loaded


async def next_pending(store: str, seen: set[int], within: float = 60.0) -> PendingRequest:
    """The first request waiting in ``store`` whose id is not in ``seen`` (SQLite is
    polled: that is how its agents wait too)."""
    backend = open_store(store)
    try:
        async with asyncio.timeout(within):
            while True:
                fresh = [r for r in await backend.list_pending() if r.id not in seen]
                if fresh:
                    seen.add(fresh[0].id)
                    return fresh[0]
                await asyncio.sleep(0.05)
    finally:
        await backend.aclose()


@pytest.fixture
async def hook_env() -> AsyncIterator[dict[str, str]]:
    """The hooks' environment: a private ``$XDG_RUNTIME_DIR`` (short, so the servers'
    sockets fit in it), whose servers are stopped when the test ends. It is made in the
    run's own (conftest.py), which goes with the run even when the test cannot clean up."""
    runtime = Path(tempfile.mkdtemp(prefix="run-", dir=os.environ.get("XDG_RUNTIME_DIR", "/tmp")))
    try:
        yield {"XDG_RUNTIME_DIR": str(runtime)}
    finally:
        stop_hook_servers(runtime)
        await asyncio.to_thread(_remove_tree, runtime)


def _remove_tree(path: Path) -> None:
    import shutil

    shutil.rmtree(path, ignore_errors=True)


@contextlib.asynccontextmanager
async def serving(bundle: Path, token: str, within: float = 60.0) -> AsyncIterator[str]:
    """``amplifier-hooks serve --bundle B --port 0`` with ``token``; yields its hook URL
    (``http://127.0.0.1:PORT/claude-code``), stops it with SIGTERM afterwards."""
    env = {**os.environ, "AMPLIFIER_HOOKS_TOKEN": token}
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "amplifier_hooks.cli",
        "serve",
        "--bundle",
        str(bundle),
        "--port",
        "0",
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    assert process.stderr is not None
    said: list[str] = []
    try:
        async with asyncio.timeout(within):
            while not any("Claude Code HTTP hooks at POST" in line for line in said):
                line = (await process.stderr.readline()).decode()
                assert line, f"serve exited: {''.join(said)}"
                said.append(line)
        url = said[-1].rsplit("POST ", 1)[1].strip()
        yield url
    finally:
        if process.returncode is None:
            process.terminate()
        await process.wait()
