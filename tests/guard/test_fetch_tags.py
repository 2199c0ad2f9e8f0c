"""A forced fetch of tags (``git fetch --force --tags``, ``+refs/tags/*:refs/tags/*``)
moves each local tag the remote has another commit for, and a tag keeps no reflog: asked
when a local tag reaches a commit no branch or remote ref does (git's facts, asked with
``rev-list --glob``), on real repositories (guard/fetchedrefs.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from amplifier_hooks.guard import Policy
from amplifier_hooks.guard.fetchedrefs import fetched_refs
from tests.guard.conftest import committed, git, judged_in, project_places, write

FORCED = ["git fetch --force --tags", "git fetch -f --tags origin",
          "git fetch origin '+refs/tags/*:refs/tags/*'"]  # fmt: skip


def _repository(top: Path, own_tag: bool) -> Path:
    """A clone of a remote with one commit; ``own_tag``: a tag on a commit of its own,
    which no branch reaches."""
    remote = committed(top / "remote", {"a.txt": "a\n"})
    git(remote, "tag", "v1")
    git(top, "clone", "-q", str(remote), "project")
    project = top / "project"
    if own_tag:
        git(project, "checkout", "-q", "--detach")
        write(project / "b.txt", "b\n")
        git(project, "add", ".")
        git(project, "commit", "-qm", "mine")
        git(project, "tag", "-f", "v1")
        git(project, "checkout", "-q", "-")
    return project


def _decided(command: str, pack: Policy, project: Path) -> tuple[str | None, str | None]:
    found = judged_in(command, pack, project_places(project))
    return found.decision, found.rule


@pytest.mark.parametrize("command", FORCED)
def test_a_tag_only_it_reaches_is_asked(command: str, pack: Policy, tmp_path: Path) -> None:
    project = _repository(tmp_path, own_tag=True)
    assert _decided(command, pack, project) == ("ask", "git-loses-work")


@pytest.mark.parametrize("command", FORCED)
def test_tags_a_branch_reaches_too_stay_granted(command: str, pack: Policy,
                                                tmp_path: Path) -> None:  # fmt: skip
    project = _repository(tmp_path, own_tag=False)
    assert _decided(command, pack, project) == ("allow", "git-everyday")
    assert _decided("git fetch --tags", pack, project) == ("allow", "git-everyday")


def test_the_refs_a_fetch_moves() -> None:
    assert fetched_refs(frozenset({"--force", "--tags"}), ("origin",)) == (["refs/tags/*"], None)
    assert fetched_refs(frozenset({"--tags"}), ("origin",)) == ([], None)
    spec = ("origin", "+refs/tags/*:refs/tags/*")
    assert fetched_refs(frozenset(), spec) == (["refs/tags/*"], None)
    assert fetched_refs(frozenset(), ("origin", "refs/tags/*:refs/tags/*")) == ([], None)
