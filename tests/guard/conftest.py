"""A workspace inside a home folder of its own, so paths resolve the same on any machine."""

from __future__ import annotations

import functools
import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from amplifier_hooks.guard import Places, Policy, Verdict, judge, load_pack
from amplifier_hooks.guard.losses import asks_of
from amplifier_hooks.guard.policy import pieces_for
from amplifier_hooks.guard.repo import ask_git

Judge = Callable[..., Verdict]


@pytest.fixture(scope="session")
def pack() -> Policy:
    return load_pack("default")


HOME = Path("/home/ada-guard-test")
"""Never created: resolving a path that does not exist only normalises it, and pytest's
temporary folders are under /tmp, which the pack treats as scratch space."""


@pytest.fixture
def places() -> Places:
    workspace = HOME / "src" / "calc"
    return Places.of(workspace, home=HOME, protected=(HOME / "bundles" / "mine.yaml",))


@pytest.fixture
def verdict(pack: Policy, places: Places) -> Judge:
    """``verdict("rm -rf ~")`` for a shell command; ``verdict(path, tool="read_file")``."""

    def run(value: str, tool: str = "bash", policy: Policy | None = None) -> Verdict:
        data = {"command": value} if tool == "bash" else {"file_path": value}
        return judge({"tool_name": tool, "tool_input": data}, policy or pack, places)

    return run


DEV_PLACES = Places.of("/home/dev/project", home="/home/dev")
"""The corpora's scenario (every corpus file's ``defaults``): the project
``/home/dev/project`` in the home folder ``/home/dev``."""

_default_pack = functools.cache(load_pack)


@functools.cache
def session_places(cwd: str, home: str) -> Places:
    """One `Places` per workspace and home, as a host's session holds one for all its calls
    (its `known` forms and memos made once): the tests that judge every corpus case paid
    two thirds of their time building them anew for each (the same few pairs)."""
    return Places.of(cwd, home=home)


def file_written(pack: Policy, places: Places, path: str, text: str, old: str = "") -> Verdict:
    """The verdict on ``text`` written to ``path`` whole (``write_file``) or, given ``old``,
    put in its place (``edit_file``)."""
    given = {"file_path": path}
    given.update({"old_string": old, "new_string": text} if old else {"content": text})
    return judge({"tool_name": "edit_file" if old else "write_file", "tool_input": given},
                 pack, places)  # fmt: skip


def decided(command: str, tool: str = "bash") -> tuple[str | None, str | None]:
    """The default pack's decision and rule for a command of shell ``tool`` (``bash``,
    ``powershell``) in `DEV_PLACES`."""
    return tool_decided(tool, {"command": command})


def tool_decided(tool: str, given: dict[str, Any]) -> tuple[str | None, str | None]:
    """The default pack's decision and rule for a call of ``tool`` with input ``given`` in
    `DEV_PLACES`."""
    found = judge({"tool_name": tool, "tool_input": given}, _default_pack(), DEV_PLACES)
    return found.decision, found.rule


FREE: tuple[str | None, str | None] = ("free", None)
"""Neither asked nor denied (granted, or left to the host)."""


def stopped(tool: str, given: dict[str, Any]) -> tuple[str | None, str | None]:
    """`tool_decided`'s decision and rule when it asks or denies, else `FREE`."""
    decision = tool_decided(tool, given)
    return FREE if decision[0] not in ("deny", "ask") else decision


def edit(path: str, old: str, new: str) -> dict[str, Any]:
    """An ``Edit``'s input of ``path`` (in `DEV_PLACES`' workspace), ``old`` made ``new``."""
    return {"file_path": f"/home/dev/project/{path}", "old_string": old, "new_string": new}


def git(folder: Path, *args: str) -> str:
    """git's output in ``folder``, with no system or user settings of this machine (a
    user's hooks, signing or default branch would change what the tests' repositories are)."""
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(folder.parent / "home"),
           "GIT_CONFIG_GLOBAL": str(folder.parent / "no-gitconfig")}  # fmt: skip
    done = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid",
         "-c", "init.defaultBranch=main", *args],
        cwd=folder, env=env, check=True, capture_output=True, text=True,
    )  # fmt: skip
    return done.stdout


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


GIT_DEADLINE = 60.0
"""git's deadline in the tests' repositories: a busy machine must not turn a fact into
"unknown" (the hosts' default is 20 ms)."""


def judged_with_git(data: dict[str, Any], pack: Policy, places: Places) -> Verdict:
    """A call judged as ah-guard judges it: git asked what its pieces need (one run), then
    the pack's verdict with those facts."""
    text, pieces, _ = pieces_for(data, places)
    asks = asks_of(pieces, places, text)
    return judge(data, pack, places, ask_git(asks, GIT_DEADLINE) if asks else None)


def committed(top: Path, files: dict[str, str] | None = None) -> Path:
    """A repository made at ``top`` whose one commit (``start``) holds what is written
    there, and ``files`` (path: text)."""
    for name, text in (files or {}).items():
        write(top / name, text)
    git(top.parent, "init", "-q", str(top))
    git(top, "add", ".")
    git(top, "commit", "-qm", "start")
    return top


def project_places(project: Path) -> Places:
    """The places of a test repository: the workspace ``project``, its home beside it
    (never made)."""
    return Places.of(project, home=project.parent / "home")


def judged_in(command: str, pack: Policy, places: Places) -> Verdict:
    """A shell command judged as ah-guard judges it (`judged_with_git`)."""
    return judged_with_git({"tool_name": "bash", "tool_input": {"command": command}}, pack, places)
