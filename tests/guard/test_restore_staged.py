"""``git restore --staged F`` puts F's index back to HEAD: staged text the worktree has
changed again is then kept nowhere but as a dangling blob, and is asked; judged on a real
repository (guard/gitlosses.py, `repo.Entry.staged_only`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from amplifier_hooks.guard import Policy
from amplifier_hooks.guard.repo import Entry, GitQuery, ask_git
from tests.guard.conftest import GIT_DEADLINE, committed, git, judged_in, project_places, write


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``both.py`` (staged, then changed again), ``staged.py`` (staged, worktree as
    staged), ``edited.py`` (changed, not staged), ``new.py`` (a new file, staged, then
    changed again) and ``same.py`` (unchanged)."""
    top = tmp_path_factory.mktemp("restore") / "project"
    for name in ("both.py", "staged.py", "edited.py", "same.py"):
        write(top / name, "committed = 1\n")
    committed(top)
    for name in ("both.py", "staged.py", "new.py"):
        write(top / name, "staged = 2\n")
    git(top, "add", "both.py", "staged.py", "new.py")
    for name in ("both.py", "edited.py", "new.py"):
        write(top / name, "worktree = 3\n")
    return top


def _decided(command: str, pack: Policy, project: Path) -> tuple[str | None, str | None]:
    found = judged_in(command, pack, project_places(project))
    return found.decision, found.rule


def test_the_facts_say_which_staged_text_is_nowhere_else(project: Path) -> None:
    facts = ask_git([GitQuery("status", str(project), None)], GIT_DEADLINE)
    assert facts is not None
    only = {e.path for e in facts.entries if e.staged_only}
    assert only == {"both.py", "new.py"}
    assert Entry("1", "staged.py") in facts.entries


@pytest.mark.parametrize(
    "command",
    [
        "git restore --staged both.py",
        "git restore -S new.py",
        "git restore --staged .",
        "git restore --staged -- *.py",
    ],
)
def test_unstaging_text_kept_nowhere_else_is_asked(command: str, pack: Policy,
                                                   project: Path) -> None:  # fmt: skip
    assert _decided(command, pack, project) == ("ask", "git-loses-work")


@pytest.mark.parametrize(
    "command", ["git restore --staged staged.py", "git restore --staged edited.py same.py"]
)
def test_unstaging_text_the_worktree_keeps_stays_granted(command: str, pack: Policy,
                                                        project: Path) -> None:  # fmt: skip
    assert _decided(command, pack, project) == ("allow", "git-everyday")
