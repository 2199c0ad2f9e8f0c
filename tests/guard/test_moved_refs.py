"""Refs moved back lose the commits only they reached: ``git tag -f``, a forced fetch or
pull into a local branch (``+SRC:DST``, ``--force``), ``--prune --prune-tags``; and ``git
switch -m`` merges uncommitted changes away. Judged on real repositories the tests make
(`guard/gitlosses.py`, `guard/fetchedrefs.py`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from amplifier_hooks.guard import Places, Policy
from amplifier_hooks.guard.fetchedrefs import fetched_refs, refmaps
from tests.guard.conftest import committed, git, judged_in, project_places, write


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``main`` pushed to ``origin``; a branch ``feature`` and a tag ``lone`` each on a
    commit nothing else reaches; a branch ``done`` and a tag ``v0`` on main's commit."""
    base = tmp_path_factory.mktemp("refs")
    top = base / "project"
    committed(top, {"a.py": "a = 1\n"})
    git(top, "tag", "v0")
    git(top, "branch", "done")
    git(base, "init", "-q", "--bare", str(base / "remote.git"))
    git(top, "remote", "add", "origin", str(base / "remote.git"))
    git(top, "push", "-q", "origin", "main")
    git(top, "fetch", "-q", "origin")
    git(top, "switch", "-qc", "feature")
    git(top, "commit", "-q", "--allow-empty", "-m", "only on feature")
    git(top, "switch", "-q", "--detach", "main")
    git(top, "commit", "-q", "--allow-empty", "-m", "only on the tag")
    git(top, "tag", "lone")
    git(top, "switch", "-q", "main")
    return top


@pytest.fixture
def places(project: Path) -> Places:
    return project_places(project)


ASKED = [
    "git tag -f lone HEAD", "git tag --force lone main", "git tag -fa lone -m again",
    "git tag --forc lone", "git fetch origin +main:feature", "git fetch -f origin main:feature",
    "git fetch --force origin main:refs/heads/feature", "git pull origin +main:feature",
    "git pull --force origin main:feature", "git fetch origin +main:refs/tags/lone",
    "git switch -m done", "git switch --merge done",
    "git fetch --refmap=+main:feature origin main", "git fetch --refm +main:feature origin main",
    "git fetch -f origin tag lone", "git pull --force origin tag lone",
    # a tag that is there is lost when moved, even one main reaches too (no reflog; an
    # annotated tag's object goes): tests/guard/test_fetch_tags.py
    "git tag -f v0 main", "git fetch -f origin tag v0",
]  # fmt: skip


@pytest.mark.parametrize("command", ASKED)
def test_what_only_the_moved_ref_reached_is_asked(
    command: str, pack: Policy, places: Places, project: Path
) -> None:
    if "switch" in command:
        write(project / "a.py", "uncommitted\n")
    try:
        verdict = judged_in(command, pack, places)
    finally:
        git(project, "checkout", "-q", "--", "a.py")
    assert (verdict.decision, verdict.rule) == ("ask", "git-loses-work"), verdict.pieces


@pytest.mark.parametrize(
    "command",
    ["git fetch origin", "git fetch --force", "git fetch -f origin", "git fetch --prune origin",
     "git fetch origin main:feature",  # fast-forward only: git refuses to move it back
     "git fetch origin +main:refs/remotes/origin/main",  # the remote's own copy
     "git fetch origin +main:done",  # main reaches its commits
     "git pull --rebase", "git fetch --prune-tags origin",  # --prune-tags alone prunes nothing
     "git switch -m done",  # no uncommitted change to merge
     "git fetch origin tag v0", "git fetch --tags origin",  # unforced: git keeps them
     "git fetch --refmap=main:feature origin main"],  # unforced: fast-forward only
)  # fmt: skip
def test_refs_moved_with_nothing_lost_stay_granted(
    command: str, pack: Policy, places: Places
) -> None:
    assert judged_in(command, pack, places).decision == "allow"


@pytest.mark.parametrize(
    "command",
    ["git fetch --prune --prune-tags origin", "git fetch -pP origin",
     "git fetch origin '+refs/heads/*:refs/heads/*'",
     "git fetch --prune origin 'refs/heads/*:refs/heads/*'",
     "git fetch --tags --force origin", "git fetch -tf origin", "git pull --tags -f",
     "git fetch --refmap='+refs/heads/*:refs/heads/*' origin main", "git fetch --refmap"],
)  # fmt: skip
def test_refs_the_guard_cannot_name_get_no_grant(
    command: str, pack: Policy, places: Places
) -> None:
    assert judged_in(command, pack, places).decision != "allow"


def test_the_refspecs_as_git_reads_them() -> None:
    force = frozenset({"--force"})
    assert fetched_refs(frozenset(), ("origin", "+main:feature")) == (["refs/heads/feature"], None)
    assert fetched_refs(force, ("origin", "main:refs/tags/v1")) == (["refs/tags/v1"], None)
    assert fetched_refs(force, ("origin", "main")) == ([], None)  # FETCH_HEAD only
    assert fetched_refs(force, ("origin", ":x")) == (["refs/heads/x"], None)  # (as written)
    assert fetched_refs(frozenset(), ("origin", "main:feature")) == ([], None)
    assert fetched_refs(force, ("origin", "main:refs/remotes/origin/main")) == ([], None)
    # a pattern is asked of git as it is (`rev-list --glob`): the commits only they reach
    pruned = fetched_refs(frozenset({"--prune"}), ("origin", "refs/heads/*:refs/heads/*"))
    assert pruned == (["refs/heads/*"], None)
    assert fetched_refs(force, ("origin", "tag", "v1")) == (["refs/tags/v1"], None)
    assert fetched_refs(frozenset(), ("origin", "main"), ("+main:feature",)) == (
        ["refs/heads/feature"], None)  # fmt: skip
    assert fetched_refs(frozenset({"--force", "--tags"}), ("origin",)) == (["refs/tags/*"], None)
    assert refmaps(("--refmap=+a:b", "--refm", "c:d", "origin", "--refmap=")) == ("+a:b", "c:d")
    assert refmaps(("origin", "--refmap")) is None


@pytest.mark.parametrize(
    "command",
    ["git pull origin +main:main", "git pull --force origin main:main",
     "git fetch --update-head-ok origin +main:main", "git checkout -B main origin/main",
     "git switch -C main origin/main", "git switch --force-create main HEAD~1"],
)  # fmt: skip
def test_the_branch_checked_out_moved_back_is_asked(
    command: str, tmp_path: Path, pack: Policy
) -> None:
    """HEAD names the branch checked out and moves with it: the commit only that branch
    has (not pushed) goes, as with ``git reset --hard`` (git's reflog aside)."""
    top = tmp_path / "ahead"
    write(top / "a.py", "a = 1\n")
    git(tmp_path, "init", "-q", str(top))
    git(top, "add", ".")
    git(top, "commit", "-qm", "start")
    git(tmp_path, "init", "-q", "--bare", str(tmp_path / "remote.git"))
    git(top, "remote", "add", "origin", str(tmp_path / "remote.git"))
    git(top, "push", "-q", "origin", "main")
    git(top, "fetch", "-q", "origin")
    git(top, "commit", "-q", "--allow-empty", "-m", "not pushed yet")
    verdict = judged_in(command, pack, Places.of(top, home=tmp_path / "home"))
    assert (verdict.decision, verdict.rule) == ("ask", "git-loses-work"), verdict.pieces


def test_a_skip_is_asked_when_tracked_files_changed(tmp_path: Path, pack: Policy) -> None:
    """``rebase --skip`` (and cherry-pick's, am's, revert's) resets the tracked files to
    the commit it moves on from: what was resolved or changed by hand goes."""
    top = tmp_path / "skipping"
    write(top / "a.py", "a = 1\n")
    git(tmp_path, "init", "-q", str(top))
    git(top, "add", ".")
    git(top, "commit", "-qm", "a")
    places = Places.of(top, home=tmp_path / "home")
    write(top / "notes.txt", "untracked: a skip keeps it\n")
    for command in ("git rebase --skip", "git cherry-pick --skip"):
        assert judged_in(command, pack, places).decision == "allow", command
    write(top / "a.py", "resolved by hand\n")
    for command in ("git rebase --skip", "git cherry-pick --ski", "git am --skip",
                    "git revert --skip"):  # fmt: skip
        verdict = judged_in(command, pack, places)
        assert (verdict.decision, verdict.rule) == ("ask", "git-loses-work"), command


@pytest.mark.parametrize(
    ("command", "decision"),
    [("git gc --prun=now", "ask"), ("git gc --prune=3.minutes.ago", "ask"),
     ("git gc --prune=yesterday", "ask"), ("git gc --aggressive --pru=all", "ask"),
     ("git gc --prune=now", "deny"),  # the pack's git-drop-history, as spelled there
     ("git gc", "allow"), ("git gc --prune", "allow"), ("git gc --prune=2.weeks.ago", "allow"),
     ("git gc --aggressive", "allow")],
)  # fmt: skip
def test_a_prune_of_what_was_lost_lately_is_asked(
    command: str, decision: str, pack: Policy, places: Places
) -> None:
    """Dropped stashes and reset commits stay in the object store until a prune: the
    last way back (`git fsck --lost-found`)."""
    assert judged_in(command, pack, places).decision == decision
