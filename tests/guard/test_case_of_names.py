"""On macOS's and Windows's file systems a path names a file in any case: ``rm SRC/App.py``
deletes ``src/app.py``. git's pathspecs are case-sensitive, so the guard asks with
``icase`` and matches git's answer in any case (`repo`, `lost`), on a real repository."""

from __future__ import annotations

from pathlib import Path

from amplifier_hooks.guard import Places, Policy
from amplifier_hooks.guard.lost import Loss, happens, ignored_stake
from amplifier_hooks.guard.repo import Entry, GitQuery, ask_git
from tests.guard.conftest import git, judged_in, write

SLOW_MACHINE = 60.0


def _repository(tmp_path: Path) -> Path:
    top = tmp_path / "project"
    write(top / ".gitignore", "Data/\n")
    write(top / "src" / "app.py", "app = 1\n")
    write(top / "src" / "other.py", "other = 1\n")
    git(tmp_path, "init", "-q", str(top))
    git(top, "add", ".")
    git(top, "commit", "-qm", "start")
    write(top / "src" / "app.py", "app = 2\n")
    write(top / "Notes.md", "mine\n")
    write(top / "Data" / "app.sqlite3", "rows\n")
    return top


def _loss(root: Path, spec: str) -> tuple[Loss, GitQuery]:
    ask = GitQuery("status", str(root), frozenset({spec}))
    return Loss("rm-loses-work", spec, ask, spec), ask


def test_a_path_in_another_case_is_answered_for_the_file_it_names(tmp_path: Path) -> None:
    top = _repository(tmp_path)
    for spec, entry in (("SRC/App.py", Entry("1", "src/app.py")),
                        ("notes.MD", Entry("?", "Notes.md")),
                        ("src", Entry("1", "src/app.py"))):  # fmt: skip
        loss, ask = _loss(top, spec)
        facts = ask_git([ask], SLOW_MACHINE)
        assert facts is not None and entry in facts.entries, spec
        assert happens(loss, facts) is True, spec


def test_a_clean_file_in_another_case_is_no_loss(tmp_path: Path) -> None:
    top = _repository(tmp_path)
    loss, ask = _loss(top, "SRC/OTHER.py")
    facts = ask_git([ask], SLOW_MACHINE)
    assert facts is not None
    assert happens(loss, facts) is False


def test_an_ignored_database_in_another_case_is_data(tmp_path: Path) -> None:
    top = _repository(tmp_path)
    loss, ask = _loss(top, "data/APP.sqlite3")
    facts = ask_git([ask], SLOW_MACHINE)
    assert facts is not None
    assert happens(loss, facts) is False
    assert ignored_stake(loss, facts) is not None  # never granted as made again


def test_pathspec_magic_is_no_name_to_ask_about(tmp_path: Path, pack: Policy) -> None:
    """``git rm -f ':(top)src/app.py'`` deletes src/app.py's change: a pathspec with magic
    is not a file name git's status can be asked about as written, so no grant."""
    top = _repository(tmp_path)
    places = Places.of(top, home=tmp_path / "home")
    for command in ("git rm -f ':(top)src/app.py'", "git rm -f ':(icase)SRC/APP.py'",
                    "git rm -f ':(glob)src/*.py'", "git rm -f ':(literal)src/app.py'",
                    "git rm -rf ':!docs'", "git rm -f :src/app.py"):  # fmt: skip
        assert judged_in(command, pack, places).decision != "allow", command
    assert judged_in("git rm -f src/other.py", pack, places).decision == "allow"  # no change
    verdict = judged_in("git rm -f SRC/APP.py", pack, places)  # (only macOS would find it)
    assert verdict.decision != "allow" or not (top / "SRC").exists()
