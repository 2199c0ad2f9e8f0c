"""ssh's remote commands and the branches a git push updates, read from a real repository."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from amplifier_hooks.guard import Places, judge, load_pack
from amplifier_hooks.guard.remote import UNKNOWN_BRANCH, current_branch, pushed_branches, ssh_remote


def _repo(path: Path, branch: str) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", "-b", branch, str(path)], check=True)
    return path


def _decide(command: str, workspace: Path) -> tuple[str | None, str | None]:
    places = Places.of(workspace, home=workspace.parent / "home")
    verdict = judge({"tool_name": "bash", "tool_input": {"command": command}}, load_pack(), places)
    return verdict.decision, verdict.rule


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("host", "ls"), ("host", "ls")),
        (("-p", "22", "-i", "k", "u@h", "rm", "-rf", "/"), ("u@h", "rm -rf /")),
        (("-tt", "-oBatchMode=yes", "h", "uptime"), ("h", "uptime")),
        (("host",), None),
        (("-L", "8080:localhost:80", "host"), None),
    ],
)
def test_ssh_remote_commands_are_found(args: tuple[str, ...], expected: object) -> None:
    assert ssh_remote(args) == expected


def test_the_branches_of_a_push_come_from_its_refspecs() -> None:
    assert pushed_branches(("origin", "main"), None) == ("main",)
    assert pushed_branches(("origin", "+HEAD:refs/heads/master"), None) == ("master",)
    assert pushed_branches(("-u", "origin", "a", "b:c"), None) == ("a", "c")
    assert pushed_branches(("origin",), None) == (UNKNOWN_BRANCH,)


def test_a_bare_push_is_judged_by_the_current_branch(tmp_path: Path) -> None:
    main = _repo(tmp_path / "main-repo", "main")
    feature = _repo(tmp_path / "feature-repo", "feature/x")
    assert current_branch(str(main / "src")) == "main"
    assert _decide("git push", main) == ("ask", "git-push-protected")
    assert _decide("git push -u origin HEAD", main) == ("ask", "git-push-protected")
    assert _decide("git push --force-with-lease", main) == ("deny", "git-force-push-protected")
    # A plain push of a feature branch is not asked; not granted either: a push publishes
    # (the host decides). A force push with a lease still rewrites the remote: asked.
    assert _decide("git push", feature) == (None, None)
    assert _decide("git push --force-with-lease", feature) == ("ask", "git-force-push")
    assert _decide("git push --force-if-includes -f", feature) == ("ask", "git-force-push")


def test_a_worktree_s_branch_is_read_through_its_git_file(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo", "main")
    subprocess.run(["git", "-C", str(repo), "-c", "user.email=a@b", "-c", "user.name=a",
                    "commit", "-q", "--allow-empty", "-m", "x"], check=True)  # fmt: skip
    tree = tmp_path / "tree"
    subprocess.run(["git", "-C", str(repo), "worktree", "add", "-q", "-b", "main2", str(tree)],
                   check=True)  # fmt: skip
    assert (tree / ".git").is_file()
    assert current_branch(str(tree)) == "main2"


def test_a_push_with_no_branch_outside_a_repository_is_unknown(tmp_path: Path) -> None:
    assert _decide("git push --force-with-lease", tmp_path) == (
        "ask",
        "git-force-push-unknown-branch",
    )
    assert _decide("git -C elsewhere push --force-with-lease", tmp_path)[0] == "ask"
