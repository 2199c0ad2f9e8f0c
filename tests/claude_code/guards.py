"""Our bundles as the guard of the real Claude Code: bundle files, installing, answering."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from amplifier_hooks.approvals import PendingRequest, open_store

ROOT = Path(__file__).resolve().parents[2]
MODULES = ROOT / "modules"


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
