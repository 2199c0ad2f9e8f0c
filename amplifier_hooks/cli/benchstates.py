"""A repository put in the state a bench case describes (its ``git`` field: `GitState`
of each path), for ``bench --workspace``: so a case written about a file with changes
not committed, an ignored folder or a repository of its own is judged there, and only
there, rather than in the three variants every other case gets (`benchspace`).

A path the case names but does not list is committed and unchanged (nothing of it to
lose); a path below a listed folder is in that folder's state; an ``absent`` path is not
made (a new output).
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping
from pathlib import Path

from amplifier_hooks.cli.corpus import GitState

__all__ = ["describe", "git", "nest", "state_of"]

_KEPT_OUT = frozenset({"untracked", "ignored", "repository", "submodule", "absent"})
"""States whose files the first commit leaves out."""
_HIDDEN = {"assume-unchanged": "--assume-unchanged", "skip-worktree": "--skip-worktree"}


def state_of(path: str, states: Mapping[str, GitState]) -> GitState:
    """The state of ``path`` (absolute): that of the nearest listed path at or above it,
    else ``tracked``."""
    for listed in sorted(states, key=len, reverse=True):
        if path == listed or path.startswith(listed.rstrip("/") + "/"):
            return states[listed]
    return "tracked"


def describe(top: Path, states: Mapping[str, GitState], made: list[str]) -> None:
    """Put the repository at ``top`` (its files ``made``, those the case named, already
    there) in ``states`` (absolute path: state)."""
    ignored = [os.path.relpath(p, top) for p, s in states.items() if s == "ignored"]
    exclude = top / ".git" / "info" / "exclude"
    exclude.parent.mkdir(parents=True, exist_ok=True)
    exclude.write_text("".join(f"/{p.rstrip('/')}\n" for p in ignored), encoding="utf-8")
    inside = [p for p in made if p.startswith(str(top) + "/")]
    committed = [p for p in inside if state_of(p, states) not in _KEPT_OUT]
    for path in committed:
        git(top, "add", "-f", "--", path)
    git(top, "commit", "-qm", "described", "--allow-empty")
    for path, state in sorted(states.items()):
        if state in ("repository", "submodule"):
            Path(path).mkdir(parents=True, exist_ok=True)
            nest(Path(path))
        if state == "submodule":  # its commit recorded in the workspace's, then changed
            git(top, "add", "-f", "--", path)
            git(top, "commit", "-qm", "submodule")
    for path in committed:
        state = state_of(path, states)
        if state in _HIDDEN:
            git(top, "update-index", _HIDDEN[state], "--", path)
        if state != "tracked":
            Path(path).write_text("v2\n", encoding="utf-8")
        if state == "staged-modified":
            git(top, "add", "--", path)
            Path(path).write_text("v3\n", encoding="utf-8")


def nest(folder: Path) -> None:
    """``folder`` a repository of its own: a commit only it has, and a change on top (a
    submodule's commit in the workspace's is the one before that change)."""
    if not folder.is_dir() or (folder / ".git").exists():
        return
    git(folder, "init", "-q")
    (folder / "own.txt").write_text("own\n", encoding="utf-8")
    git(folder, "add", "-A", ".")
    git(folder, "commit", "-qm", "its own")
    (folder / "own.txt").write_text("changed\n", encoding="utf-8")


def git(folder: Path, *args: str) -> None:
    """git in ``folder`` with none of this machine's settings (its hooks, signing...)."""
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
    done = subprocess.run(
        ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.invalid",
         "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", *args],
        cwd=folder, env=env, check=False, capture_output=True, text=True,
    )  # fmt: skip
    if done.returncode:
        raise RuntimeError(f"git {args[0]} in {folder}: {done.stderr.strip()[-500:]}")
