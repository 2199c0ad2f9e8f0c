"""File tools' inputs read as what they do: an empty write truncates its file, a search's
glob narrows what it reads, and a path that reads as another name is asked."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from amplifier_hooks.guard import Places, Policy, Verdict, judge
from amplifier_hooks.guard.lookalikes import lookalike_path
from amplifier_hooks.guard.losses import asks_of
from amplifier_hooks.guard.policy import pieces_for
from amplifier_hooks.guard.repo import ask_git
from tests.guard.conftest import committed, project_places

SLOW_MACHINE = 60.0
"""git's deadline here: these tests are about the facts, not about git's speed."""


def git(folder: Path, *args: str) -> None:
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(folder.parent / "home"),
           "GIT_CONFIG_GLOBAL": str(folder.parent / "no-gitconfig")}  # fmt: skip
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid",
         "-c", "init.defaultBranch=main", *args],
        cwd=folder, env=env, check=True, capture_output=True, text=True,
    )  # fmt: skip


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A repository with ``src/clean.py`` (tracked, unchanged), ``src/changed.py``
    (tracked, changed) and ``notes.txt`` (untracked)."""
    top = tmp_path_factory.mktemp("shapes") / "project"
    (top / "src").mkdir(parents=True)
    (top / "src" / "clean.py").write_text("clean = 1\n")
    (top / "src" / "changed.py").write_text("changed = 1\n")
    committed(top)
    (top / "src" / "changed.py").write_text("changed = 2\n")
    (top / "notes.txt").write_text("my notes\n")
    return top


@pytest.fixture
def places(project: Path) -> Places:
    return project_places(project)


def decide(tool: str, inputs: dict[str, Any], pack: Policy, places: Places) -> Verdict:
    """As ah-guard does: ask git first, then judge."""
    data = {"tool_name": tool, "tool_input": inputs}
    command, pieces, _ = pieces_for(data, places)
    facts = ask_git(asks_of(pieces, places, command), SLOW_MACHINE)
    return judge(data, pack, places, facts)


@pytest.mark.parametrize(
    ("tool", "field", "name"),
    [("Write", "content", "src/changed.py"), ("write_file", "content", "notes.txt"),
     ("Write", "file_text", "notes.txt")],
)  # fmt: skip
def test_an_empty_write_over_work_is_asked_as_a_truncation(
    tool: str, field: str, name: str, project: Path, pack: Policy, places: Places
) -> None:
    verdict = decide(tool, {"file_path": str(project / name), field: ""}, pack, places)
    assert (verdict.decision, verdict.rule) == ("ask", "truncate-loses-work"), verdict.pieces


@pytest.mark.parametrize(
    "inputs",
    [{"content": ""}, {"content": "clean = 2\n"}],
)
def test_a_write_over_what_git_can_give_back_is_granted(
    inputs: dict[str, Any], project: Path, pack: Policy, places: Places
) -> None:
    verdict = decide("Write", {"file_path": str(project / "src/clean.py"), **inputs}, pack, places)
    assert verdict.decision == "allow", verdict.pieces


def test_an_empty_write_with_no_facts_is_not_granted(
    project: Path, pack: Policy, places: Places
) -> None:
    data = {"tool_name": "Write", "tool_input": {"file_path": str(project / "src/clean.py"),
                                                 "content": ""}}  # fmt: skip
    assert judge(data, pack, places).decision is None


@pytest.mark.parametrize(
    ("tool", "inputs"),
    [("Grep", {"pattern": "(SECRET|TOKEN)=", "path": ".", "glob": ".env*",
               "output_mode": "content"}),
     ("grep_search", {"pattern": "KEY=", "include": "**/.env"}),
     ("Grep", {"pattern": "PRIVATE", "glob": "*.pem", "output_mode": "content"})],
)  # fmt: skip
def test_a_search_narrowed_to_secrets_reads_them(
    tool: str, inputs: dict[str, Any], pack: Policy, places: Places
) -> None:
    verdict = decide(tool, inputs, pack, places)
    assert verdict.decision == "deny", verdict.pieces


@pytest.mark.parametrize(
    ("tool", "inputs"),
    [("Grep", {"pattern": "def ", "path": "src", "glob": "*.py", "output_mode": "content"}),
     ("grep_search", {"pattern": "TODO", "include": "src/**/*.{ts,tsx}"}),
     ("Grep", {"pattern": "API_KEY", "glob": "*.md"})],
)  # fmt: skip
def test_a_search_narrowed_to_ordinary_files_is_granted(
    tool: str, inputs: dict[str, Any], pack: Policy, places: Places
) -> None:
    verdict = decide(tool, inputs, pack, places)
    assert verdict.decision == "allow", verdict.pieces


@pytest.mark.parametrize(
    "name",
    [
        ".cl\u0430ude/settings.json",
        ".gem\u200bini/settings.json",
        "src/\u200ea.py",
        "src/\u03bfpen.py",
        "src/ma\u0456n.py",
        "docs/ok.md\n/x/.gemini/settings.json",
        "src/a\u0000.md",
    ],
)
def test_a_path_that_reads_as_another_name_is_asked(
    name: str, project: Path, pack: Policy, places: Places
) -> None:
    for tool in ("Write", "Read", "edit_file"):
        inputs = {"file_path": str(project / name), "content": "{}"}
        if tool != "Write":
            inputs.pop("content")
        verdict = decide(tool, inputs, pack, places)
        assert (verdict.decision, verdict.rule) == ("ask", "guard-lookalike-path"), verdict.pieces


@pytest.mark.parametrize(
    "name",
    [
        "docs/r\u00e9sum\u00e9.md",
        "docs/\u043f\u0440\u0438\u043c\u0435\u0440.md",
        "docs/\u03b1\u03b2\u03b3-notes.txt",
        "src/na\u00efve_\u00e7a.py",
    ],
)
def test_a_name_in_one_script_is_no_lookalike(name: str) -> None:
    assert lookalike_path([name]) is None


def test_the_shell_and_urls_are_not_judged_as_paths(pack: Policy, places: Places) -> None:
    assert lookalike_path(["https://\u043f\u0440\u0438\u043c\u0435\u0440.example/a"]) is None
    verdict = decide("Bash", {"command": "echo \u0430bc"}, pack, places)
    assert verdict.rule != "guard-lookalike-path"
