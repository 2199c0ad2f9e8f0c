"""An edit of a shell script without a suffix (``bin/dev``, ``scripts/setup``) is read as
the script's lines, as an edit of ``scripts/dev.sh`` is (`writtenscripts`): by its first
line on disk, or by its place where the disk shows nothing."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from amplifier_hooks.guard import Places, Verdict, judge
from amplifier_hooks.guard.policy import Policy
from amplifier_hooks.guard.writtenscripts import on_disk_script, script_named


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    top = tmp_path / "home" / "project"
    for rel, text in {
        "tools/serve": "#!/usr/bin/env bash\nexec npm run dev\n",
        "tools/report": "#!/usr/bin/env python3\nimport sys\n",
        "tools/notes": "make deps\n",
    }.items():
        (top / rel).parent.mkdir(parents=True, exist_ok=True)
        (top / rel).write_text(text)
    return top


def _edit(rel: str, new: str, workspace: Path, pack: Policy) -> Verdict:
    data: dict[str, Any] = {
        "tool_name": "Edit",
        "tool_input": {"file_path": str(workspace / rel), "old_string": "x", "new_string": new},
        "workspace": str(workspace),
    }
    return judge(data, pack, Places.of(workspace, home=workspace.parent))


def test_a_suffixless_shell_script_on_disk_is_read_as_shell(workspace: Path) -> None:
    assert on_disk_script(str(workspace / "tools/serve"))
    assert not on_disk_script(str(workspace / "tools/report"))  # Python's #!
    assert not on_disk_script(str(workspace / "tools/notes"))  # no #! line
    assert not on_disk_script(str(workspace / "tools/missing"))
    assert not on_disk_script(str(workspace / "tools"))  # a folder
    assert not on_disk_script(str(workspace / "tools/se\x00rve"))  # a NUL in the name


def test_a_fifo_is_not_waited_on(workspace: Path) -> None:
    fifo = workspace / "tools/pipe"
    os.mkfifo(fifo)
    assert not on_disk_script(str(fifo))


@pytest.mark.parametrize(
    ("path", "named"),
    [("bin/dev", True), ("scripts/setup", True), ("script/bootstrap", True),
     ("bin/dev.py", False), ("src/dev", False), ("Makefile", False)],
)  # fmt: skip
def test_a_script_is_named_by_its_folder(path: str, named: bool) -> None:
    assert script_named(f"/home/dev/project/{path}") is named


@pytest.mark.parametrize("rel", ["tools/serve", "bin/dev", "scripts/setup"])
def test_a_denied_command_edited_in_asks(rel: str, workspace: Path, pack: Policy) -> None:
    judged = _edit(rel, "rm -rf ~/.ssh\nexec npm run dev", workspace, pack)
    assert judged.decision == "ask", judged


@pytest.mark.parametrize("rel", ["tools/serve", "bin/dev"])
def test_an_everyday_edit_is_not_stopped_nor_granted(
    rel: str, workspace: Path, pack: Policy
) -> None:
    judged = _edit(rel, "PORT=3001 exec npm run dev", workspace, pack)
    assert judged.decision is None, judged


@pytest.mark.parametrize(
    "command",
    ["echo 'rm -rf ~/.ssh' >> scripts/dev.sh", "echo 'rm -rf ~/.ssh' >> bin/dev",
     "printf 'rm -rf ~/.ssh\\n' >> tools/serve", "tee -a scripts/x.sh <<< 'rm -rf ~/.ssh'"],
)  # fmt: skip
def test_a_shell_append_to_a_script_is_read_as_its_lines(
    command: str, workspace: Path, pack: Policy
) -> None:
    data: dict[str, Any] = {
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "workspace": str(workspace),
        "cwd": str(workspace),
    }
    judged = judge(data, pack, Places.of(workspace, home=workspace.parent))
    assert judged.decision == "ask", judged


@pytest.mark.parametrize(
    "command",
    ["echo 'rm -rf ~/.ssh' | tee -a scripts/x.sh", "echo 'rm -rf ~/.ssh' | tee -a tools/serve",
     "cat notes.txt >> bin/dev"],
)  # fmt: skip
def test_a_shell_write_of_unknown_text_into_a_script_is_not_granted(
    command: str, workspace: Path, pack: Policy
) -> None:
    data: dict[str, Any] = {
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "workspace": str(workspace),
        "cwd": str(workspace),
    }
    judged = judge(data, pack, Places.of(workspace, home=workspace.parent))
    assert judged.decision != "allow", judged


@pytest.mark.parametrize(
    "command",
    ["echo 'ruff check .' >> scripts/check.sh", "echo 'make lint' >> tools/serve",
     "echo 'rm -rf ~/.ssh' >> notes/todo.txt"],
)  # fmt: skip
def test_an_everyday_append_is_free(command: str, workspace: Path, pack: Policy) -> None:
    data: dict[str, Any] = {
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "workspace": str(workspace),
        "cwd": str(workspace),
    }
    judged = judge(data, pack, Places.of(workspace, home=workspace.parent))
    assert judged.decision in (None, "allow"), judged


def test_a_python_script_edit_is_free(workspace: Path, pack: Policy) -> None:
    judged = _edit("tools/report", "import sys\nimport os", workspace, pack)
    assert judged.decision in (None, "allow"), judged
