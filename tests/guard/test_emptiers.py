"""An in-place edit that deletes every line empties its file as ``> FILE`` does, judged on a
real repository the test makes: over uncommitted work it is asked (`truncate-loses-work`),
over what git can give back it keeps the edit's verdict, and where git cannot say there is
no grant. Edits that keep the file's text, or a backup of it, are left as they were."""

from __future__ import annotations

from pathlib import Path

import pytest

from amplifier_hooks.guard import Places, Policy, judge
from amplifier_hooks.guard.emptiers import emptied
from amplifier_hooks.guard.table.editors import editor_commands, editor_files, given_commands
from tests.guard.conftest import committed, project_places, write
from tests.guard.test_losses import asks_of, bash, decide


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``clean.py`` tracked and unchanged, ``changed.py`` tracked and changed, ``notes.md``
    untracked, ``build/`` ignored."""
    top = tmp_path_factory.mktemp("emptiers") / "project"
    write(top / ".gitignore", "build/\n")
    for name in ("clean.py", "changed.py"):
        write(top / name, name + "\n")
    committed(top)
    write(top / "changed.py", "work in progress\n")
    write(top / "notes.md", "my notes\n")
    write(top / "build" / "out.txt", "built\n")
    return top


@pytest.fixture
def places(project: Path) -> Places:
    return project_places(project)


EMPTYING = [
    "sed -i d changed.py", "sed -i '1,$d' notes.md", "sed --in-place -e d changed.py",
    "vim -es -c '%d' -c 'wq' changed.py", "vim -e -s -c '%d' -c wq notes.md",
    "vi -es '+%delete' '+x' changed.py", "ex -s -c '%d|x' changed.py",
    "nvim -es -c '%d' -c 'update' -- notes.md",
    "sed -i d clean.py changed.py",
    # keeping a line or a few, or only what -n's script prints, loses the rest as well
    "sed -n -i '' notes.md", "sed -ni 1p changed.py", "sed --quiet -i '/TODO/p' notes.md",
    "sed -i -n '' changed.py", "sed -i q notes.md", "sed -i 3q changed.py",
    "sed -i '$!d' notes.md", "sed -i '/./d' changed.py", "sed -i -e '/^/d' notes.md",
]  # fmt: skip


@pytest.mark.parametrize("command", EMPTYING)
def test_emptying_uncommitted_work_in_place_is_asked(
    command: str, pack: Policy, places: Places
) -> None:
    verdict = decide(command, pack, places)
    assert (verdict.decision, verdict.rule) == ("ask", "truncate-loses-work"), verdict.pieces


KEEPS = [
    "sed -i d clean.py", "sed -i d build/out.txt", "sed -i d new.py",
    "sed -i.bak d changed.py", "sed -i 's/a/b/' changed.py", "sed -i '1d' changed.py",
    "sed d changed.py", "sed -i -e p -e d changed.py",
    "vim -es -c '%d' changed.py", "vim -es -c 'wq' -c '%d' changed.py",
    "vim -es -c '%s/a/b/g' -c wq changed.py", "vim -es -c '%d' -c wq clean.py",
    "sed -n -i p changed.py", "sed -i.bak -n 1p changed.py", "sed -n 1p changed.py",
    "sed -i '$d' changed.py", "sed -i '/^#/d' changed.py", "sed -i '$q' changed.py",
    "sed -ni 1p clean.py",
]  # fmt: skip


@pytest.mark.parametrize("command", KEEPS)
def test_an_edit_that_keeps_the_text_or_loses_nothing_is_not_asked_for_it(
    command: str, pack: Policy, places: Places
) -> None:
    verdict = decide(command, pack, places)
    assert verdict.rule != "truncate-loses-work", verdict.pieces


def test_emptying_a_clean_file_keeps_the_edit_grant(pack: Policy, places: Places) -> None:
    assert decide("sed -i d clean.py", pack, places).decision == "allow"
    assert decide("sed -n -i 1p clean.py", pack, places).decision == "allow"
    assert decide("sed -i d build/out.txt", pack, places).decision == "allow"


def test_where_git_cannot_say_there_is_no_grant(
    tmp_path: Path, pack: Policy, places: Places
) -> None:
    assert judge(bash("sed -i d clean.py"), pack, places, None).decision is None
    write(tmp_path / "plain" / "a.txt", "a\n")
    plain = Places.of(tmp_path / "plain", home=tmp_path / "home")
    assert asks_of(bash("sed -i d a.txt"), plain) == []  # no repository: nothing to ask
    assert decide("sed -i d a.txt", pack, plain).decision is None


def test_one_git_run_asks_about_each_file_emptied(places: Places) -> None:
    asks = asks_of(bash("sed -i d changed.py notes.md"), places)
    assert {spec for ask in asks for spec in ask.specs or ()} == {"changed.py", "notes.md"}
    assert asks_of(bash("sed -i 's/x/y/' changed.py"), places) == []


@pytest.mark.parametrize(
    ("program", "args", "files"),
    [("sed", ("-i", "d", "a", "b"), ("a", "b")), ("sed", ("-i", "-e", "1,$d", "a"), ("a",)),
     ("sed", ("-i.orig", "d", "a"), ()), ("sed", ("-n", "-i", "p", "a"), ()),
     ("sed", ("-f", "s.sed", "-i", "a"), ()), ("vim", ("-es", "-c", "%d", "-c", "wq", "a"), ("a",)),
     ("vim", ("-c", "%d|w", "a", "b"), ("a", "b")), ("vim", ("-c", "%d", "a"), ()),
     ("vim", ("-s", "keys.vim", "-c", "%d|wq", "a"), ("a",)),
     ("ex", ("-s", "-c", "%d|x", "a"), ("a",)), ("cat", ("a",), ())],
)  # fmt: skip
def test_what_each_program_empties(
    program: str, args: tuple[str, ...], files: tuple[str, ...]
) -> None:
    assert emptied(program, args) == files


def test_ex_mode_s_is_silent_and_takes_no_value() -> None:
    """``ex -s`` (or ``vim -e -s``) is silent mode; plain ``vim -s F`` reads keys from F."""
    assert given_commands(("-s", "-c", "%d"), ex=True) == ["%d"]
    assert given_commands(("-e", "-s", "-c", "%d")) == ["%d"]
    assert given_commands(("-s", "-c", "%d")) == []  # -c is the script file's name here
    assert editor_commands(("-s", "-c", "!id", "f"), "ex") == ("id",)
    assert editor_files(("-s", "keys", "f")) == ("f",)
    assert editor_files(("-s", "f"), ex=True) == ("f",)
    assert editor_files(("-", "+1", "--", "-odd")) == ("-odd",)
