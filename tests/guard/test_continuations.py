"""A program's name as bash reads it: a backslash-newline inside a word joined
(``guard/continuations.py``), ``/proc/self/exe`` read as the shell that runs the line."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.continuations import joined
from amplifier_hooks.guard.programs import normalise_program
from tests.guard.conftest import decided


@pytest.mark.parametrize(
    ("text", "expected"),
    [("r\\\nm -rf ~", "rm -rf ~"),
     ("git sta\\\ntus", "git status"),
     ("docker run \\\n  -it alpine", "docker run \\\n  -it alpine"),  # after a blank: as is
     ("echo 'a\\\nb'", "echo 'a\\\nb'"),  # single quotes keep it
     ('echo "a\\\nb"', 'echo "ab"'),  # double quotes do not
     ("cat <<EOF\na\\\nb\nEOF", "cat <<EOF\na\\\nb\nEOF"),  # a here-document: as is
     ("ls # a\\\nb\npwd", "ls # a\\\nb\npwd"),  # a comment: as is
     ("ls", "ls")],
)  # fmt: skip
def test_a_continuation_inside_a_word_is_joined(text: str, expected: str) -> None:
    assert joined(text) == expected


@pytest.mark.parametrize(
    ("command", "rule"),
    [("r\\\nm -rf ~", "rm-root-or-home"),
     ("/proc/self/exe -c 'rm -rf \"$HOME\"'", "rm-root-or-home")],
)  # fmt: skip
def test_a_program_spelled_apart_is_judged_as_bash_runs_it(command: str, rule: str) -> None:
    assert decided(command) == ("deny", rule)


def test_proc_exe_is_the_shell_only_as_a_program() -> None:
    assert normalise_program("/proc/self/exe") == "bash"
    assert normalise_program("/proc/1234/exe") == "bash"
    assert normalise_program("./exe") == "exe"
    assert decided("readlink /proc/self/exe")[0] not in ("ask", "deny")


@pytest.mark.parametrize(
    "command",
    ["docker run \\\n  --rm -it alpine sh -c 'echo hi'", "git log \\\n  --oneline -5",
     "python3 -m pytest \\\n  -q tests"],
)  # fmt: skip
def test_everyday_continuations_stay_as_they_were(command: str) -> None:
    assert decided(command)[0] != "deny"
