"""``amplifier-hooks doctor``: what is wired into each host, whether the host will run it,
and a probe through the installed command itself."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from amplifier_hooks.hosts.codex.install import CodexPlaces, CodexPlan, install_codex
from amplifier_hooks.hosts.codex.trust import without_trust
from amplifier_hooks.hosts.doctor import diagnose
from tests.claude_code.guards import DENY_RM, POLICY_SESSION, hook_env, write_bundle

__all__ = ["hook_env"]

CLI = (sys.executable, "-m", "amplifier_hooks.cli")

DENY_BASH = """
hooks:
  - module: ah-approval
    source: {modules}/ah-approval
    config:
      defaults: false
      rules:
        - {{tool: bash, decision: deny, reason: "no shell here"}}
"""


@pytest.fixture
def place(tmp_path: Path, hook_env: dict[str, str]) -> dict[str, str]:
    """An environment of its own: HOME, CODEX_HOME, a PATH with a `codex` and `claude`
    program, and the hook servers' runtime directory."""
    home = tmp_path / "home"
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(parents=True)
    for name in ("codex", "claude"):
        program = bin_dir / name
        program.write_text("#!/bin/sh\nexit 0\n")
        program.chmod(program.stat().st_mode | stat.S_IXUSR)
    return {
        **hook_env,
        "HOME": str(home),
        "CODEX_HOME": str(home / ".codex"),
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
    }


@pytest.fixture
def project(tmp_path: Path) -> Path:
    path = tmp_path / "project"
    path.mkdir()
    return path


def _install_codex(place: dict[str, str], bundle: Path) -> CodexPlaces:
    places = CodexPlaces.find(None, place)
    install_codex(places, CodexPlan(bundle, ("PreToolUse", "SessionEnd")))
    return places


def test_a_trusted_codex_install_will_run_and_answers_the_probe(
    place: dict[str, str], project: Path, tmp_path: Path
) -> None:
    bundle = write_bundle(tmp_path / "guard.yaml", POLICY_SESSION, DENY_RM)
    places = _install_codex(place, bundle)

    [wiring] = diagnose(project, place)

    assert (wiring.profile.command, wiring.scope, wiring.file) == (
        "codex",
        "user",
        places.hooks_file,
    )
    assert wiring.events == ("PreToolUse", "SessionEnd")
    assert wiring.bundles == (str(bundle),)
    assert wiring.problems == ()
    assert wiring.probe is not None and wiring.probe.ok
    assert (wiring.probe.exit_code, wiring.probe.stdout) == (0, "")
    assert wiring.probe.reading == "no objection (the host's own rules decide)"


def test_untrusted_hooks_and_a_missing_program_are_problems(
    place: dict[str, str], project: Path, tmp_path: Path
) -> None:
    bundle = write_bundle(tmp_path / "guard.yaml", POLICY_SESSION, DENY_RM)
    places = _install_codex(place, bundle)
    places.config_file.write_text(without_trust(places.config_file.read_text()))
    without_codex = {**place, "PATH": os.environ["PATH"]}  # no `codex` on it

    [wiring] = diagnose(project, without_codex, send_probe=False)

    assert not wiring.runs
    problems = " | ".join(wiring.problems)
    assert "hooks untrusted (PreToolUse, SessionEnd): Codex skips them without a word" in problems
    if not any(os.access(Path(d) / "codex", os.X_OK) for d in os.environ["PATH"].split(os.pathsep)):
        assert "'codex' (@openai/codex) is not on PATH" in problems


def test_a_claude_code_project_hook_shows_its_deny_and_a_gone_bundle(
    place: dict[str, str], project: Path, tmp_path: Path
) -> None:
    bundle = write_bundle(tmp_path / "deny.yaml", POLICY_SESSION, DENY_BASH)
    settings = project / ".claude" / "settings.json"
    done = subprocess.run(
        [*CLI, "claude-code", "install", "--bundle", str(bundle), "--settings", str(settings)],
        capture_output=True,
        text=True,
        env=place,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr

    [wiring] = diagnose(project, place)
    assert (wiring.profile.command, wiring.scope, wiring.runs) == ("claude-code", "project", True)
    assert wiring.probe is not None
    assert wiring.probe.reading.startswith("denied: no shell here")

    bundle.unlink()
    [gone] = diagnose(project, place, send_probe=False)
    assert gone.problems == (f"the bundle {bundle} does not exist",)


def test_the_command_reports_and_fails_when_nothing_is_wired(
    place: dict[str, str], project: Path
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "amplifier_hooks.cli", "doctor", "--project", str(project)],
        capture_output=True,
        text=True,
        env=place,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1
    assert "nothing is guarded" in done.stdout


def test_the_command_says_will_not_run_and_exits_1(
    place: dict[str, str], project: Path, tmp_path: Path
) -> None:
    bundle = write_bundle(tmp_path / "guard.yaml", POLICY_SESSION, DENY_RM)
    places = _install_codex(place, bundle)
    places.config_file.write_text(without_trust(places.config_file.read_text()))
    args = ["doctor", "--project", str(project), "--no-probe", "--json"]
    done = subprocess.run(
        [sys.executable, "-m", "amplifier_hooks.cli", *args],
        capture_output=True,
        text=True,
        env=place,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1
    [reported] = json.loads(done.stdout)["wired"]
    assert (reported["host"], reported["runs"]) == ("codex", False)
