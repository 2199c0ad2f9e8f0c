"""A forced fetch of tags (``git fetch --force --tags``, ``+refs/tags/*:refs/tags/*``,
``-f origin tag v1``, ``--prune --prune-tags``) replaces or deletes local tags, and a tag
keeps no reflog: an annotated tag's object (message, signature) goes even when a branch
still reaches its commit, a lightweight tag's name is moved. Asked whenever a local tag
the fetch could replace is there (git's facts, ``for-each-ref``), granted only when none
is; on real repositories with an annotated tag, a lightweight tag, or none
(guard/fetchedrefs.py, guard/repo.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import pytest

from amplifier_hooks.guard import Places, Policy
from amplifier_hooks.guard.fetchedrefs import fetched_refs
from amplifier_hooks.guard.repo import GitQuery, ask_git
from tests.guard.conftest import GIT_DEADLINE, git, judged_with_git, write

Tag = Literal["annotated", "lightweight", "none"]

EVERY_TAG = [
    "git fetch --force --tags origin", "git fetch --tags --force origin", "git fetch -f --tags",
    "git fetch -tf origin", "git fetch --forc --tag origin", "git pull --tags -f",
    "git fetch origin '+refs/tags/*:refs/tags/*'", "git fetch --prune --prune-tags origin",
    "git fetch -pP origin", "git fetch --refmap='+refs/tags/*:refs/tags/*' origin v1",
]  # fmt: skip
"""Spellings that may replace or delete every local tag (or each a pattern names)."""
NAMED = [
    "git fetch -f origin tag v1", "git fetch --force origin tag v1", "git pull -f origin tag v1",
    "git fetch origin +refs/tags/v1:refs/tags/v1", "git fetch origin +main:refs/tags/v1",
    "git fetch -f origin main:refs/tags/v1", "git tag -f v1", "git tag --force v1 main",
    "git tag -fa v1 -m again", "git tag -d v1", "git tag --delete v1",
]  # fmt: skip
"""Spellings that replace or delete the tag ``v1`` alone."""


def _repository(top: Path, tag: Tag) -> Path:
    """A repository with one commit on ``main`` and a remote; ``tag``: the local tag ``v1``
    on that commit (which ``main`` reaches too), or none."""
    project = top / "project"
    write(project / "a.txt", "a\n")
    git(top, "init", "-q", str(project))
    git(project, "add", ".")
    git(project, "commit", "-qm", "start")
    git(top, "init", "-q", "--bare", str(top / "remote.git"))
    git(project, "remote", "add", "origin", str(top / "remote.git"))
    if tag == "annotated":
        git(project, "tag", "-a", "v1", "-m", "release 1")
    elif tag == "lightweight":
        git(project, "tag", "v1")
    return project


def _decided(command: str, pack: Policy, project: Path) -> tuple[str | None, str | None]:
    places = Places.of(project, home=project.parent / "home")
    data: dict[str, Any] = {"tool_name": "bash", "tool_input": {"command": command}}
    found = judged_with_git(data, pack, places)
    return found.decision, found.rule


@pytest.mark.parametrize("tag", ["annotated", "lightweight"])
@pytest.mark.parametrize("command", EVERY_TAG + NAMED)
def test_a_local_tag_it_could_replace_is_asked(
    command: str, tag: Tag, pack: Policy, tmp_path: Path
) -> None:
    project = _repository(tmp_path, tag)
    assert _decided(command, pack, project) == ("ask", "git-loses-work")


@pytest.mark.parametrize("command", EVERY_TAG + NAMED)
def test_no_local_tag_no_loss(command: str, pack: Policy, tmp_path: Path) -> None:
    """Nothing lost: granted (``git tag -d``: no opinion, the pack grants no deletes)."""
    project = _repository(tmp_path, "none")
    assert _decided(command, pack, project)[0] == (None if "-d" in command else "allow")


@pytest.mark.parametrize(
    "command",
    ["git fetch -f origin tag v2", "git fetch origin +refs/tags/v2:refs/tags/v2",
     "git tag -f v2", "git tag -d v2"],
)  # fmt: skip
def test_another_tag_named_is_no_loss_of_v1(command: str, pack: Policy, tmp_path: Path) -> None:
    project = _repository(tmp_path, "annotated")
    assert _decided(command, pack, project)[0] == (None if "-d" in command else "allow")


@pytest.mark.parametrize(
    "command",
    ["git fetch --tags origin", "git fetch origin tag v1",  # unforced: git keeps local tags
     "git fetch origin 'refs/tags/*:refs/tags/*'", "git fetch --force origin",
     "git fetch --prune origin", "git tag v2", "git tag -l"],
)  # fmt: skip
def test_tags_git_keeps_stay_granted(command: str, pack: Policy, tmp_path: Path) -> None:
    project = _repository(tmp_path, "annotated")
    assert _decided(command, pack, project)[0] == "allow"


def test_tags_and_branches_asked_together(tmp_path: Path) -> None:
    """A tag that is there answers at once; with none, the branches are still read: a
    branch that alone reaches a commit is a loss, one that main reaches too is not."""
    project = _repository(tmp_path, "none")
    root = str(project)
    both = frozenset({"refs/tags/*", "refs/heads/side"})
    git(project, "branch", "side")
    facts = ask_git([GitQuery("refs", root, both)], GIT_DEADLINE)
    assert facts is not None and not facts.lost
    git(project, "switch", "-q", "side")
    git(project, "commit", "-q", "--allow-empty", "-m", "only on side")
    git(project, "switch", "-q", "main")
    facts = ask_git([GitQuery("refs", root, both)], GIT_DEADLINE)
    assert facts is not None and facts.lost
    git(project, "branch", "-f", "side", "main")
    git(project, "tag", "v1")
    facts = ask_git([GitQuery("refs", root, both)], GIT_DEADLINE)
    assert facts is not None and facts.lost


@pytest.mark.parametrize(
    ("pattern", "lost"), [("refs/tags/v*", True), ("refs/tags/rc*", False), ("refs/tags/v1", True)]
)
def test_a_pattern_asks_for_the_tags_it_names(pattern: str, lost: bool, tmp_path: Path) -> None:
    project = _repository(tmp_path, "lightweight")
    facts = ask_git([GitQuery("refs", str(project), frozenset({pattern}))], GIT_DEADLINE)
    assert facts is not None and facts.lost is lost


def test_a_repository_git_cannot_read_gives_no_facts(tmp_path: Path) -> None:
    assert ask_git([GitQuery("refs", str(tmp_path), frozenset({"refs/tags/v1"}))]) is None


def test_the_refs_a_fetch_moves() -> None:
    assert fetched_refs(frozenset({"--force", "--tags"}), ("origin",)) == (["refs/tags/*"], None)
    assert fetched_refs(frozenset({"--tags"}), ("origin",)) == ([], None)
    spec = ("origin", "+refs/tags/*:refs/tags/*")
    assert fetched_refs(frozenset(), spec) == (["refs/tags/*"], None)
    assert fetched_refs(frozenset(), ("origin", "refs/tags/*:refs/tags/*")) == ([], None)
    pruned = frozenset({"--prune", "--prune-tags"})
    assert fetched_refs(pruned, ("origin",)) == (["refs/tags/*"], None)
    assert fetched_refs(frozenset({"--prune-tags"}), ("origin",)) == ([], None)
