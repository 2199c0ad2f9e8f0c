"""Whatever the person's umask, nothing we make can be read or changed by another user,
and no temporary file of ours stays behind.

Under umask 000 a folder made without an explicit mode is 0777 and a file 0666: another
local user could read the event log, or put a hook of theirs in a ``.claude`` folder that
install made. Every install, a hook call that starts a hook server (its runtime folder,
socket and note, the state folder, event log and approvals store), the web approver's
token and the MCP proxy's records are made here under umask 000 in a fake HOME, and every
folder and file among them must be ours alone.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from amplifier_hooks.private import make_dirs
from amplifier_hooks.testing.servers import stop_hook_servers
from amplifier_hooks.web.tokens import resolve_token
from tests.hosts.support import ROOT, fixture

HOSTS = ("claude-code", "codex", "gemini", "copilot", "opencode", "cline", "openclaw")
BUNDLE = str(ROOT / "bundles" / "default.md")


def open_to_others(*roots: Path) -> list[str]:
    """Each folder or file under ``roots`` that another user could read, enter or
    change (a symlink's own mode means nothing and is skipped)."""
    found = []
    for root in roots:
        for folder, dirs, files in os.walk(root):
            for name in dirs + files:
                path = os.path.join(folder, name)
                mode = os.lstat(path).st_mode
                if not stat.S_ISLNK(mode) and stat.S_IMODE(mode) & 0o077:
                    found.append(f"{stat.S_IMODE(mode):04o} {path}")
    return found


@pytest.fixture
def machine(tmp_path: Path) -> Iterator[dict[str, Path]]:
    """A HOME, a project, a runtime folder and a TMPDIR, each empty and 0700 (made by the
    test: what is in them is what our commands made). The runtime folder is in the test
    run's own (short: a socket's path must fit), its servers stopped at the end."""
    places = {name: tmp_path / name for name in ("home", "project", "tmp")}
    for place in places.values():
        place.mkdir(mode=0o700)
    places["run"] = Path(tempfile.mkdtemp(prefix="run-", dir=os.environ["XDG_RUNTIME_DIR"]))
    try:
        yield places
    finally:
        stop_hook_servers(places["run"])
        shutil.rmtree(places["run"])


def run(machine: dict[str, Path], *args: str, stdin: str = "") -> str:
    """``amplifier-hooks ARGS`` under umask 000 in ``machine``; its output (it must
    succeed)."""
    kept = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "AMPLIFIER_"))}
    env = {
        **kept,
        "HOME": str(machine["home"]),
        "XDG_RUNTIME_DIR": str(machine["run"]),
        "TMPDIR": str(machine["tmp"]),
        "CODEX_HOME": str(machine["home"] / ".codex"),
    }
    done = subprocess.run(
        [sys.executable, "-m", "amplifier_hooks.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=machine["project"],
        env=env,
        timeout=120,
        check=False,
        preexec_fn=lambda: os.umask(0),
    )
    assert done.returncode == 0, (args, done.stderr)
    return done.stdout


def test_under_umask_000_what_install_and_a_hook_call_make_is_ours_alone(
    machine: dict[str, Path],
) -> None:
    for host in HOSTS:
        run(machine, host, "install", "--bundle", BUNDLE)
    payload = {
        **fixture("claude-code", "PreToolUse"),
        "cwd": str(machine["project"]),
        "tool_input": {"command": "git status"},
    }
    run(machine, "claude-code", "hook", "--bundle", BUNDLE, stdin=json.dumps(payload))
    sockets = list(machine["run"].rglob("*.sock"))
    assert sockets, "the hook call started no server: nothing of its was checked"

    made = {p.name for p in machine["project"].iterdir()} | {
        p.name for p in machine["home"].iterdir()
    }
    assert {".claude", ".codex", ".gemini", ".openclaw", ".local"} <= made, made
    state = machine["home"] / ".local" / "state" / "amplifier-hooks"
    assert (state / "hooks-events.jsonl").is_file()
    assert open_to_others(machine["home"], machine["project"], machine["run"]) == []
    assert list(machine["tmp"].iterdir()) == [], "a temporary file was left behind"


def test_under_umask_000_the_mcp_records_and_the_web_token_are_ours_alone(
    machine: dict[str, Path],
) -> None:
    config = machine["project"] / ".mcp.json"
    config.write_text(json.dumps({"mcpServers": {"files": {"command": "true"}}}))
    os.chmod(config, 0o600)
    run(machine, "mcp", "wrap", "--bundle", BUNDLE, "--client", "claude-code")
    assert "amplifier-hooks" in config.read_text()

    kept_at = machine["home"] / ".local" / "state" / "amplifier-hooks" / "token"
    old = os.umask(0)
    try:
        token = resolve_token(kept_at, environ={})
    finally:
        os.umask(old)
    assert kept_at.read_text().strip() == token.value
    assert open_to_others(machine["home"], machine["project"], machine["run"]) == []
    assert list(machine["tmp"].iterdir()) == []


def test_make_dirs_makes_each_missing_folder_0700_and_leaves_the_rest(tmp_path: Path) -> None:
    existing = tmp_path / "theirs"
    existing.mkdir(mode=0o755)
    os.chmod(existing, 0o755)
    old = os.umask(0)
    try:
        make_dirs(existing / "a" / "b" / "c")
        make_dirs(existing / "a" / "b" / "c")  # again: nothing to do
    finally:
        os.umask(old)
    assert stat.S_IMODE(existing.stat().st_mode) == 0o755
    for made in ("a", "a/b", "a/b/c"):
        assert stat.S_IMODE((existing / made).stat().st_mode) == 0o700, made
    (existing / "file").write_text("")
    with pytest.raises(FileExistsError):
        make_dirs(existing / "file")
