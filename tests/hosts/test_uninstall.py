"""``HOST uninstall`` gives the machine back (CONTRACT §11), for every host, run as a
person runs it: the real command line, in a fresh project and a fresh HOME.

- With nothing there before, nothing is left after: no ``{}`` settings file, no empty
  folder, no record of ours.
- With the person's own settings there (formatted their way), the files are byte for
  byte what install found.
- An edit made after install stays; still nothing empty is left.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import pytest

from amplifier_hooks.testing.leftovers import assert_given_back, assert_nothing_empty, snapshot
from tests.hosts.support import ROOT

BUNDLE = ROOT / "bundles" / "minimal.yaml"


class Place(NamedTuple):
    """One host's install: its command line, and the person's own files for it."""

    argv: tuple[str, ...]
    own: Callable[[Path, Path], dict[Path, str]]
    """(project, home) -> the person's files there before install, as they wrote them."""
    edited: Callable[[Path, Path], Path]
    """(project, home) -> the settings file an edit after install goes into."""


def _claude_own(project: Path, home: Path) -> dict[Path, str]:
    return {project / ".claude" / "settings.json": '{"model":"sonnet",  "env": {"A": "1"}}'}


def _codex_own(project: Path, home: Path) -> dict[Path, str]:
    hook = {"type": "command", "command": "./mine.sh"}
    return {
        home / ".codex" / "hooks.json": json.dumps({"hooks": {"Stop": [{"hooks": [hook]}]}}),
        home / ".codex" / "config.toml": 'model = "o3"\n\n# mine\n',
    }


def _gemini_own(project: Path, home: Path) -> dict[Path, str]:
    return {home / ".gemini" / "settings.json": '{\n    "theme": "Dark"\n}'}


def _copilot_own(project: Path, home: Path) -> dict[Path, str]:
    hook = {"type": "command", "bash": "./mine.sh"}
    mine = json.dumps({"version": 1, "hooks": {"sessionStart": [hook]}})
    return {
        project / ".github" / "hooks" / "mine.json": mine,
        project / ".github" / "workflows" / "ci.yml": "on: push\n",
    }


PLACES = {
    "claude-code": Place(
        ("claude-code",), _claude_own, lambda p, h: p / ".claude" / "settings.json"
    ),
    "codex": Place(("codex",), _codex_own, lambda p, h: h / ".codex" / "hooks.json"),
    "codex-project": Place(
        ("codex", "--project"), _codex_own, lambda p, h: p / ".codex" / "hooks.json"
    ),
    "gemini": Place(("gemini",), _gemini_own, lambda p, h: h / ".gemini" / "settings.json"),
    "gemini-project": Place(
        ("gemini", "--project"), _gemini_own, lambda p, h: p / ".gemini" / "settings.json"
    ),
    "copilot": Place(
        ("copilot",),
        _copilot_own,
        lambda p, h: p / ".github" / "hooks" / "amplifier-hooks.json",
    ),
}


class Machine(NamedTuple):
    project: Path
    home: Path

    def run(self, place: Place, action: str) -> str:
        host, *flags = place.argv
        argv = [host, action, *flags]
        if action == "install":
            argv += ["--bundle", str(BUNDLE)]
        env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_STATE", "CODEX"))}
        env.update(HOME=str(self.home), CLAUDE_PROJECT_DIR=str(self.project))
        done = subprocess.run(
            [sys.executable, "-m", "amplifier_hooks.cli", *argv],
            capture_output=True,
            text=True,
            cwd=self.project,
            env=env,
            timeout=180,
            check=False,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout


@pytest.fixture
def machine(tmp_path: Path) -> Machine:
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    home.mkdir()
    return Machine(project, home)


def _write(files: dict[Path, str]) -> None:
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


@pytest.mark.parametrize("name", sorted(PLACES))
def test_nothing_is_left_in_a_fresh_project_and_home(machine: Machine, name: str) -> None:
    place = PLACES[name]
    before = snapshot(machine.project, machine.home)
    machine.run(place, "install")
    assert place.edited(machine.project, machine.home).is_file()
    machine.run(place, "uninstall")
    assert_given_back(before, machine.project, machine.home)


@pytest.mark.parametrize("name", sorted(PLACES))
def test_the_persons_own_settings_come_back_byte_for_byte(machine: Machine, name: str) -> None:
    place = PLACES[name]
    _write(place.own(machine.project, machine.home))
    before = snapshot(machine.project, machine.home)
    machine.run(place, "install")
    machine.run(place, "install")  # twice is once
    machine.run(place, "uninstall")
    assert_given_back(before, machine.project, machine.home)


@pytest.mark.parametrize("name", sorted(PLACES))
def test_an_edit_after_install_stays_and_nothing_empty_is_left(machine: Machine, name: str) -> None:
    place = PLACES[name]
    before = snapshot(machine.project, machine.home)
    machine.run(place, "install")
    edited = place.edited(machine.project, machine.home)
    settings = json.loads(edited.read_text())
    settings["mine"] = {"kept": True}
    edited.write_text(json.dumps(settings))
    machine.run(place, "uninstall")
    assert json.loads(edited.read_text()).get("mine") == {"kept": True}
    assert "hook --bundle" not in edited.read_text()
    assert_nothing_empty(before, machine.project, machine.home)
