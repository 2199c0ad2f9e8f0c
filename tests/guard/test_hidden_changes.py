"""Changes git status does not show (files marked assume-unchanged or skip-worktree) are
work too: a delete, truncation or overwrite of such a file is asked, judged on real
repositories the tests make (`guard/hiddenchanges.py`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from amplifier_hooks.guard import Places, Policy, Verdict
from amplifier_hooks.guard.hiddenchanges import hidden_paths, index_file
from amplifier_hooks.guard.repo import Entry, GitQuery, ask_git
from tests.guard.conftest import committed, git, judged_with_git, project_places, write

SLOW_MACHINE = 60.0


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``config/local.py`` (assume-unchanged, changed), ``config/sparse.py``
    (skip-worktree, changed), ``config/plain.py`` and ``src/app.py`` (tracked, unchanged),
    ``src/deep/a/b/mine.py`` (assume-unchanged, changed, deep down) and ``gone.py``
    (skip-worktree, not on disk)."""
    top = tmp_path_factory.mktemp("hidden") / "project"
    for name in ("config/local.py", "config/sparse.py", "config/plain.py", "src/app.py",
                 "src/deep/a/b/mine.py", "gone.py"):  # fmt: skip
        write(top / name, "committed = 1\n")
    committed(top)
    for name in ("config/local.py", "src/deep/a/b/mine.py"):
        write(top / name, "my own settings = 2\n")
        git(top, "update-index", "--assume-unchanged", name)
    write(top / "config" / "sparse.py", "my own settings = 3\n")
    git(top, "update-index", "--skip-worktree", "config/sparse.py", "gone.py")
    (top / "gone.py").unlink()
    return top


@pytest.fixture
def places(project: Path) -> Places:
    return project_places(project)


def decide(data: dict[str, Any], pack: Policy, places: Places) -> Verdict:
    """As ah-guard judges it (`judged_with_git`)."""
    return judged_with_git(data, pack, places)


def bash(command: str) -> dict[str, Any]:
    return {"tool_name": "bash", "tool_input": {"command": command}}


def test_git_status_itself_does_not_show_them(project: Path) -> None:
    assert git(project, "status", "--porcelain") == ""  # why the index is read too


def test_the_index_says_which_are_hidden(project: Path) -> None:
    root = str(project)
    assert hidden_paths(root, ["config/local.py"]) == ("config/local.py",)
    assert set(hidden_paths(root, ["config"]) or ()) == {"config/local.py", "config/sparse.py"}
    assert set(hidden_paths(root, ["."]) or ()) == {
        "config/local.py", "config/sparse.py", "src/deep/a/b/mine.py", "gone.py"}  # fmt: skip
    # a glob stands for its whole folder (deeper than it reaches: asked, never granted)
    assert hidden_paths(root, ["src/*.py"]) == ("src/deep/a/b/mine.py",)
    assert hidden_paths(root, ["config/l*"]) == ("config/local.py", "config/sparse.py")
    assert hidden_paths(root, ["config/plain.py", "src/app.py", "missing"]) == ()
    assert hidden_paths(root, ["../elsewhere"]) is None


def test_only_hidden_files_on_disk_are_facts(project: Path) -> None:
    facts = ask_git([GitQuery("status", str(project), frozenset({"."}))], SLOW_MACHINE)
    assert facts is not None
    hidden = {e for e in facts.entries if e.code == "h"}
    assert hidden == {Entry("h", "config/local.py"), Entry("h", "config/sparse.py"),
                      Entry("h", "src/deep/a/b/mine.py")}  # fmt: skip


ASKED = [
    ("rm config/local.py", "rm-loses-work"), ("rm -f config/sparse.py", "rm-loses-work"),
    ("rm -rf config", "rm-loses-work"), ("rm -rf src", "rm-loses-work"),
    ("rm config/*.py", "rm-loses-work"), ("cd src/deep && rm -r a", "rm-loses-work"),
    ("> config/local.py", "truncate-loses-work"), (": > config/sparse.py", "truncate-loses-work"),
    ("truncate --size=0 config/local.py", "truncate-loses-work"),
    ("cp config/plain.py config/local.py", "overwrite-loses-work"),
    ("mv config/plain.py config/sparse.py", "overwrite-loses-work"),
]  # fmt: skip


@pytest.mark.parametrize(("command", "rule"), ASKED)
def test_hidden_changes_are_asked(command: str, rule: str, pack: Policy, places: Places) -> None:
    verdict = decide(bash(command), pack, places)
    assert (verdict.decision, verdict.rule) == ("ask", rule), verdict.pieces


@pytest.mark.parametrize(
    "command",
    ["rm config/plain.py", "> src/app.py", "cp config/plain.py src/app.py", "rm -f gone.py",
     "rm -rf src/deep/a/b/missing"],
)  # fmt: skip
def test_files_not_hidden_stay_granted(command: str, pack: Policy, places: Places) -> None:
    assert decide(bash(command), pack, places).decision == "allow"


def test_file_tools_too(project: Path, pack: Policy, places: Places) -> None:
    write_over = {
        "tool_name": "write_file",
        "tool_input": {"file_path": str(project / "config/local.py"), "content": "x"},
    }
    assert decide(write_over, pack, places).rule == "overwrite-loses-work"
    patch = "*** Begin Patch\n*** Delete File: config/sparse.py\n*** End Patch\n"
    deleted = {"tool_name": "apply_patch", "tool_input": {"command": patch}}
    assert decide(deleted, pack, places).rule == "rm-loses-work"
    fresh = {
        "tool_name": "write_file",
        "tool_input": {"file_path": str(project / "config/plain.py"), "content": "x"},
    }
    assert decide(fresh, pack, places).decision == "allow"


def test_a_version_4_index_is_read(tmp_path: Path, pack: Policy) -> None:
    top = tmp_path / "v4"
    names = ("a.py", "src/app.py", "src/application.py", "src/deep/x.py", "zz.py")
    for name in names:
        write(top / name, "a = 1\n")
    git(tmp_path, "init", "-q", str(top))
    git(top, "-c", "index.version=4", "add", ".")
    git(top, "commit", "-qm", "a")
    git(top, "update-index", "--index-version", "4")
    write(top / "src" / "application.py", "mine = 2\n")
    git(top, "update-index", "--assume-unchanged", "src/application.py")
    write(top / "src" / "deep" / "x.py", "mine = 3\n")
    git(top, "update-index", "--skip-worktree", "src/deep/x.py")
    assert (top / ".git" / "index").read_bytes()[4:8] == b"\x00\x00\x00\x04"
    assert hidden_paths(str(top), ["a.py", "src/app.py"]) == ()
    assert hidden_paths(str(top), ["SRC"]) == ("src/application.py", "src/deep/x.py")
    places = Places.of(top, home=tmp_path / "home")
    assert decide(bash("rm a.py"), pack, places).decision == "allow"
    assert decide(bash("rm src/application.py"), pack, places).rule == "rm-loses-work"
    assert decide(bash("rm -r src/deep"), pack, places).rule == "rm-loses-work"


def test_names_are_found_in_any_case(project: Path) -> None:
    root = str(project)
    assert hidden_paths(root, ["CONFIG/Local.py"]) == ("config/local.py",)
    assert set(hidden_paths(root, ["Config"]) or ()) == {"config/local.py", "config/sparse.py"}
    assert hidden_paths(root, ["Src/Deep"]) == ("src/deep/a/b/mine.py",)
    assert hidden_paths(root, ["Config/Plain.py"]) == ()
    assert hidden_paths(root, ["caf\u00e9.py"]) is None  # other cases a byte search misses
    # (`rm CONFIG/Local.py` deletes it where the file system ignores case: there it is
    # asked; on this one the name is no file, and nothing is lost)


@pytest.mark.parametrize("version", ["2", "4"])
def test_a_name_spelled_in_another_case(tmp_path: Path, version: str) -> None:
    top = tmp_path / "cased"
    write(top / "Docs" / "Local.md", "a\n")
    write(top / "Docs" / "Other.md", "a\n")
    git(tmp_path, "init", "-q", str(top))
    git(top, "-c", f"index.version={version}", "add", ".")
    git(top, "commit", "-qm", "a")
    git(top, "update-index", "--index-version", version, "--assume-unchanged", "Docs/Local.md")
    assert hidden_paths(str(top), ["docs/local.md"]) == ("Docs/Local.md",)
    assert hidden_paths(str(top), ["DOCS"]) == ("Docs/Local.md",)
    assert hidden_paths(str(top), ["docs/other.md", "docs/local.m"]) == ()


def test_an_index_not_read_is_no_grant(tmp_path: Path, pack: Policy) -> None:
    top = tmp_path / "v9"
    write(top / "a.py", "a = 1\n")
    git(tmp_path, "init", "-q", str(top))
    git(top, "add", ".")
    git(top, "commit", "-qm", "a")
    index = top / ".git" / "index"
    data = bytearray(index.read_bytes())
    data[4:8] = b"\x00\x00\x00\x09"  # a version this reader does not know
    index.write_bytes(bytes(data))
    assert hidden_paths(str(top), ["a.py"]) is None
    places = Places.of(top, home=tmp_path / "home")
    assert decide(bash("rm a.py"), pack, places).decision is None


def test_a_linked_worktree_reads_its_own_index(tmp_path: Path, pack: Policy) -> None:
    top = tmp_path / "main"
    write(top / "a.py", "a = 1\n")
    git(tmp_path, "init", "-q", str(top))
    git(top, "add", ".")
    git(top, "commit", "-qm", "a")
    git(top, "worktree", "add", "-q", "-b", "other", str(tmp_path / "wt"))
    wt = tmp_path / "wt"
    assert index_file(str(wt)) == str(top / ".git" / "worktrees" / "wt" / "index")
    places = Places.of(wt, home=tmp_path / "home")
    assert decide(bash("rm a.py"), pack, places).decision == "allow"
    write(wt / "a.py", "mine\n")
    git(wt, "update-index", "--assume-unchanged", "a.py")
    assert decide(bash("rm a.py"), pack, places).rule == "rm-loses-work"
    assert decide(bash("rm a.py"), pack, Places.of(top, home=tmp_path / "home")).decision == (
        "allow"
    )  # the main worktree's a.py is not marked
