"""Calls the read-only table granted that print what must not be printed or read where a
grant may not reach: ``date -f FILE`` (each line that is no date is printed in date's
error), ``ps e`` (every process's environment), ``git grep --no-index`` (any folder)."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.environment import mark_env_dumps
from amplifier_hooks.guard.parser import parse_command
from amplifier_hooks.guard.table import Does, read_call
from amplifier_hooks.guard.table.shell import date_files
from tests.guard.conftest import Judge


@pytest.mark.parametrize(
    ("command", "decision"),
    [
        ("date -f ~/.ssh/id_rsa", "deny"),
        ("date --file=$HOME/.aws/credentials", "deny"),
        ("date -f/home/ada-guard-test/.netrc +%s", "deny"),  # glued, and no operand
        ("date -f .env", "ask"),
        ("date -f.env", "ask"),
        ("ps e", "ask"),
        ("ps axe", "ask"),
        ("ps eww -p 1", "ask"),
        ("ps -o pid,args e", "ask"),
        ("ps -E", "ask"),  # macOS
        ("ps auxe > logs/ps.txt", "deny"),  # the environments into a file of the project
        ("git grep --no-index password ~", "deny"),
        ("git grep --no-index -e token -- ~/.config", "deny"),
        ("git grep --no-index -l AKIA /", "deny"),
    ],
)
def test_a_look_that_shows_secrets_is_stopped(verdict: Judge, command: str,
                                             decision: str) -> None:  # fmt: skip
    judged = verdict(command)
    assert judged.decision == decision, (command, judged)


@pytest.mark.parametrize(
    "command",
    [
        "git grep --no-index TODO ../other",  # outside the workspace: no grant
        "git grep --no-index TODO ~/notes",
        "date -f ../dates.txt",
    ],
)
def test_a_read_outside_the_workspace_is_not_granted(verdict: Judge, command: str) -> None:
    judged = verdict(command)
    assert judged.decision is None, (command, judged)


@pytest.mark.parametrize(
    "command",
    [
        "date -f dates.txt",
        "date -r pyproject.toml +%s",
        "date +%Y-%m-%d",
        "ps -e",
        "ps -ef",
        "ps aux",
        "ps axo user,pid,comm",
        "ps -o user -p 1",
        "ps --sort=-pcpu aux",
        "ps aux | grep node",
        "git grep --no-index TODO src",
        "git grep -n password",  # the repository's files
        "git grep --untracked TODO",
    ],
)
def test_their_everyday_twins_are_granted(verdict: Judge, command: str) -> None:
    judged = verdict(command)
    assert judged.decision == "allow", (command, judged)


def test_date_reads_the_file_of_f_only() -> None:
    assert date_files(("-f", "a")) == ("a",)
    assert date_files(("--file=b",)) == ("b",)
    assert date_files(("-fc",)) == ("c",)
    assert date_files(("-r", "a", "+%s")) == ()
    acts = read_call("date", ("-f", "a")).acts
    assert [(a.does, a.target) for a in acts] == [(Does.READ, "a")]


def test_git_grep_reads_its_files_only_with_no_index() -> None:
    assert read_call("git", ("grep", "x", "src")).acts == ()
    acts = read_call("git", ("grep", "--no-index", "x", "src", "lib")).acts
    assert [a.target for a in acts if a.does is Does.READ] == ["src", "lib"]
    acts = read_call("git", ("grep", "--no-index", "-e", "x", "src")).acts
    assert [a.target for a in acts if a.does is Does.READ] == ["src"]


@pytest.mark.parametrize(
    ("command", "dump"),
    [("ps e", True), ("ps axe", True), ("ps -E", True), ("ps -o user e", True),
     ("ps -e", False), ("ps -o user", False), ("ps axo user", False), ("ps -u eve", False),
     ("ps --user eve", False), ("ps --sort=user", False)],
)  # fmt: skip
def test_ps_dumps_only_with_its_environment_letter(command: str, dump: bool) -> None:
    pieces = mark_env_dumps(parse_command(command).pieces)
    assert ("@env-dump" in pieces[0].wrappers) is dump, command


@pytest.mark.parametrize(
    ("command", "decision"),
    [
        ("git show HEAD:.env.local", "ask"),
        ("git show origin/main:.env.production", "ask"),
        ("git show :.env.local", "ask"),  # the index's copy
        ("git show :2:.env.local", "ask"),  # a merge's stage
        ("git cat-file -p HEAD:.env.production", "ask"),
        ("git show HEAD:config/id_ed25519", "deny"),
    ],
)
def test_a_file_a_revision_holds_is_judged_as_that_file(verdict: Judge, command: str,
                                                       decision: str) -> None:  # fmt: skip
    judged = verdict(command)
    assert judged.decision == decision, (command, judged)


@pytest.mark.parametrize(
    "command",
    ["git show HEAD:.env.example", "git show HEAD~3:README.md", "git diff HEAD:a.py HEAD~1:a.py",
     "git show v1.2.0", "git log --format=%H:%s"],
)  # fmt: skip
def test_an_ordinary_file_of_a_revision_stays_granted(verdict: Judge, command: str) -> None:
    judged = verdict(command)
    assert judged.decision == "allow", (command, judged)
