"""The short road for plain commands reads every command it takes exactly as the grammar
does (tree-sitter-bash), and leaves everything else to the grammar."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from amplifier_hooks.guard import parse_command
from amplifier_hooks.guard.parser import parse_with_grammar
from amplifier_hooks.guard.simple import read_simple

_WORDS = st.sampled_from(
    ["git", "status", "rm", "-rf", "-r", "-f", "~", "~/x", "~root/x", "/", "/etc/x", ".", "..",
     "../x", "a=b", "A=1", "of=/dev/sda", "x:y", "%1", "@f", "+x", "-", "--", "cd", "pushd",
     "sudo", "env", "nice", "-n", "5", "timeout", "xargs", "find", "-delete", "bash", "sh",
     "-c", "ls", "eval", "curl", "https://x", "cat", "if", "then", "fi", "do", "done", "in",
     "time", "!", "export", "local", "echo", "mv", "dd", "python3", "-m", "pytest", "-q",
     "tests/", "x,y", "a.b", "_", "watch", "command", "-v", "busybox", "exec", "for"]
)  # fmt: skip
_OPERATORS = st.sampled_from(["&&", "||", "|", ";", "&", "|&", ";;", " ", "\t"])
_BLANKS = st.sampled_from(["", " ", "  ", "\t"])


@st.composite
def _commands(draw: st.DrawFn) -> str:
    parts: list[str] = []
    for index in range(draw(st.integers(1, 4))):
        if index:
            parts.append(draw(_BLANKS) + draw(_OPERATORS) + draw(_BLANKS))
        parts.append(" ".join(draw(st.lists(_WORDS, min_size=0, max_size=4))))
    return draw(_BLANKS) + "".join(parts) + draw(_BLANKS)


_PLAIN_TEXT = st.text(alphabet="aZ9_-/.~=:@%+,;|& \t", max_size=40)


@settings(max_examples=400, deadline=None)
@given(st.one_of(_commands(), _PLAIN_TEXT))
def test_the_short_road_reads_as_the_grammar_does(text: str) -> None:
    assert parse_command(text) == parse_with_grammar(text)


@pytest.mark.parametrize(
    "text",
    [
        "git status && pytest -q tests/",
        "cd build; make -j4 | tee log.txt",
        "rm -rf ~/x || ls -la /etc",
        "npm ci && npm test",
    ],
)
def test_plain_commands_take_the_short_road(text: str) -> None:
    assert read_simple(text) is not None
    assert parse_command(text) == parse_with_grammar(text)


@pytest.mark.parametrize(
    "text",
    [
        "echo 'a b'",
        "rm -rf $HOME",
        "ls > out",
        "ls *",
        "ls {a,b}",
        "sleep 1 &",
        "FOO=1 make",
        "ls # note",
        "if true; then ls; fi",
        "ls;",
        "a && && b",
        "ls\nrm x",
        "echo $(id)",
    ],
)
def test_anything_else_takes_the_grammar(text: str) -> None:
    assert read_simple(text) is None


def test_a_plain_command_that_runs_a_script_is_read_by_the_grammar() -> None:
    parsed = parse_command("bash -c ls && eval rm -rf ~")
    assert [p.program for p in parsed.pieces] == ["ls", "rm"]
    assert parsed == parse_with_grammar("bash -c ls && eval rm -rf ~")
