"""Calls that act in many places at once, or in another repository: ``git submodule
foreach CMD`` (CMD judged as if run here, what loses work asked at least, since the guard
sees no submodule's changes), submodules deinit or updated by force, a work tree given by
``--work-tree``, a worktree added by force, a push from another repository and a rebase
from the root; each beside the everyday call next to it, which stays free."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.table import commands_run, read_call
from tests.guard.tables import stopped_and_free

STOPPED = [
    ("git submodule foreach --recursive 'git reset --hard && git clean -fdx'", "deny",
     "git-reset-hard"),
    ("git submodule foreach 'git push -f origin HEAD:master'", "deny",
     "git-force-push-protected"),
    ("git submodule foreach git checkout main", "ask", "git-submodule-foreach-change"),
    ("git submodule foreach -q 'git stash -u'", "ask", "git-submodule-foreach-change"),
    ("git submodule deinit -f --all", "deny", "git-submodule-deinit-all"),
    ("git submodule deinit --force vendor/lib", "ask", "git-submodule-deinit-force"),
    ("git submodule update --init --force --recursive", "ask", "git-submodule-update-force"),
    ("git --work-tree=/home/dev --git-dir=/home/dev/.cfg stash -u", "ask",
     "git-work-tree-discard"),
    ("git --git-dir=$HOME/.cfg --work-tree $HOME checkout -- .bashrc", "ask",
     "git-work-tree-discard"),
    ("git worktree add -f ~/src/lib main", "ask", "git-worktree-add-force"),
    ("git -C ../lib push origin HEAD", "ask", "git-push-other-repository"),
    ("git rebase -i --root", "ask", "git-rebase-root"),
]  # fmt: skip

FREE = [
    "git submodule foreach git pull",
    "git submodule foreach 'git status'",
    "git submodule foreach --recursive 'git log -1 --oneline'",
    "git submodule foreach git branch -a",
    "git submodule update --init --recursive",
    "git submodule deinit vendor/lib",
    "git submodule status",
    "git worktree add ../wt-feature -b feature",
    "git --git-dir=$HOME/.cfg --work-tree=$HOME status",
    "git rebase -i HEAD~3",
]


test_stopped, test_everyday_stays_free = stopped_and_free(STOPPED, FREE)


@pytest.mark.parametrize(
    ("args", "runs"),
    [
        (("submodule", "foreach", "--recursive", "git reset --hard"), ("git reset --hard",)),
        (("submodule", "--quiet", "foreach", "git", "log", "-1"), ("git log -1",)),
        (("submodule", "foreach", "echo", "a b"), ("echo 'a b'",)),
        (("submodule", "status"), ()),
        (("submodule", "foreach"), ()),
        # (git's own options before the subcommand hide no command it runs)
        (("-C", "sub", "submodule", "foreach", "git reset --hard"), ("git reset --hard",)),
        (("-c", "x.y=z", "submodule", "foreach", "git", "log"), ("git log",)),
    ],
)
def test_foreach_runs_its_command(args: tuple[str, ...], runs: tuple[str, ...]) -> None:
    assert commands_run("git", args) == runs


def test_submodule_changes_are_never_granted() -> None:
    assert read_call("git", ("submodule", "update", "--init")).doubt is not None
    assert read_call("git", ("submodule", "foreach", "true")).doubt is not None
    assert read_call("git", ("submodule", "status")).doubt is None
    assert read_call("git", ("-C", "sub", "submodule", "status")).doubt is not None
