"""The background hook server a hook call starts is never unseen: the call says so on
stderr (and how to stop it), ``doctor`` lists it, and ``uninstall`` stops it. All run as
a person runs them: real processes, a fresh project and HOME."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from amplifier_hooks.testing.leftovers import assert_given_back, snapshot
from tests.hosts.support import ROOT, fixture

BUNDLE = ROOT / "bundles" / "strict.yaml"


def cli(
    env: dict[str, str], cwd: Path, *argv: str, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "amplifier_hooks.cli", *argv],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=180,
        check=False,
    )


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir()
    runtime = Path(os.environ["XDG_RUNTIME_DIR"]) / tmp_path.name[-20:]
    kept = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "AMPLIFIER_"))}
    return {**kept, "HOME": str(home), "XDG_RUNTIME_DIR": str(runtime)}


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


# Five CLI processes and a server start one after the other: on a busy machine this takes
# most of the suite's default 60 s limit, so it has its own (each process has 180 s).
@pytest.mark.timeout(300)
def test_a_started_server_is_announced_listed_and_stopped_by_uninstall(
    tmp_path: Path, env: dict[str, str]
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    env["CLAUDE_PROJECT_DIR"] = str(project)
    before = snapshot(project)
    installed = cli(env, project, "claude-code", "install", "--bundle", str(BUNDLE))
    assert installed.returncode == 0, installed.stderr
    settings = json.loads((project / ".claude" / "settings.json").read_text())
    [group] = settings["hooks"]["PreToolUse"]
    command = group["hooks"][0]["command"]
    payload = {**fixture("claude-code", "PreToolUse"), "tool_input": {"command": "git status"}}
    payload["cwd"] = str(project)

    first = subprocess.run(
        ["sh", "-c", command],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        cwd=project,
        env=env,
        timeout=180,
        check=False,
    )
    assert first.returncode == 0, first.stderr
    assert "started a background hook server (pid " in first.stderr
    assert "kill " in first.stderr
    second = subprocess.run(
        ["sh", "-c", command],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        cwd=project,
        env=env,
        timeout=180,
        check=False,
    )
    assert "started a background hook server" not in second.stderr  # said once

    doctor = cli(env, project, "doctor", "--no-probe", "--json")
    [server] = json.loads(doctor.stdout)["servers"]
    assert server["bundle"] == str(BUNDLE)
    assert os.path.realpath(server["workspace"]) == os.path.realpath(project)
    assert _pid_alive(server["pid"])
    text = cli(env, project, "doctor", "--no-probe")
    assert f"pid {server['pid']}" in text.stdout and f"kill {server['pid']}" in text.stdout

    removed = cli(env, project, "claude-code", "uninstall")
    assert removed.returncode == 0, removed.stderr
    assert f"stopped the background hook server (pid {server['pid']})" in removed.stdout
    assert not _pid_alive(server["pid"]) or _zombie(server["pid"])
    assert json.loads(cli(env, project, "doctor", "--no-probe", "--json").stdout)["servers"] == []
    assert_given_back(before, project)


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z"
    except OSError:
        return True
