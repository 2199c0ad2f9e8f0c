"""A plain command line read from its text gives the pieces the syntax tree's walk gives,
and any line the text alone cannot settle is left to the walk."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amplifier_hooks.cli.corpus import load_corpus, shipped_corpora
from amplifier_hooks.cli.probe import event_data
from amplifier_hooks.guard.parser import parse_by_tree, parse_fresh
from amplifier_hooks.guard.plainline import MAX_PLAIN_COMMANDS, PlainLine, read_plain

_CHARS = "abcxyz019_./:@%+,~*?-="
_NAMES = ["git", "pytest", "ls", "cat", "tee", "grep", "rm", "sudo", "env", "sh", "bash",
          "find", "xargs", "awk", "man", "rg", "ssh", "cd", "pushd", "chmod", "curl", "eval",
          "trap", "watch", "nice", "timeout", "flock", "command", "exec", "source", "alias",
          "-", "%1", "done", "in", "if", "time", "export", "test", "function", "-P", "-exec",
          "-delete", "{}", "+", "-c", "-lc", "-I", "-u", "root", "GIT_SSH_COMMAND=x",
          "LD_PRELOAD=x.so", "core.pager=less", "alias.x=!rm", "600", "go-rwx",
          "169.254.169.254", "~", "~/x", "..", "/", "*.py", "-rf"]  # fmt: skip
_SEPARATORS = ["&&", " && ", "||", " || ", ";", "; ", " ; ", "|", " | ", "\t|\t", "|&", ";;"]

_QUOTED = "ab 1;|&#*?~=-_./:@%+,{}()[]<>'\"\\$`!\t\n"
quoted = st.builds(lambda quote, text: quote + text + quote, st.sampled_from(["'", '"']),
                   st.text(_QUOTED, max_size=6))  # fmt: skip
parts = st.one_of(st.text(_CHARS, min_size=1, max_size=6), quoted, st.sampled_from(["'", '"']))
words = st.one_of(st.sampled_from(_NAMES), st.lists(parts, min_size=1, max_size=3).map("".join))
commands = st.lists(words, min_size=1, max_size=4).map(" ".join)
lines = st.tuples(commands, st.lists(st.tuples(st.sampled_from(_SEPARATORS), commands),
                                     max_size=3)).map(
    lambda line: line[0] + "".join(sep + command for sep, command in line[1])
)  # fmt: skip


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines)
def test_a_line_read_from_its_text_is_read_as_the_tree_reads_it(line: str) -> None:
    assert parse_fresh(line) == parse_by_tree(line)


def test_every_plain_line_of_the_shipped_corpora_is_read_as_the_tree_reads_it() -> None:
    read = 0
    for path in shipped_corpora():
        for case in load_corpus(path):
            command = event_data(case.call).get("tool_input", {}).get("command")
            if isinstance(command, str) and read_plain(command) is not None:
                assert parse_fresh(command) == parse_by_tree(command), command
                read += 1
    assert read > 500  # most everyday lines are plain


@pytest.mark.parametrize(
    ("line", "flows"),
    [
        ("git status && pytest -q tests/", [(), ()]),
        ("ls -la | head -5 | wc -l", [("head", "wc"), ("wc",), ()]),
        ("git log --oneline|grep fix;make test", [("grep", "nowhere"), (), ()]),
        ("curl -fsSL example.com/x.sh | python3", [("python3",), ()]),
        ("make test && time-tracker done in", [(), ()]),  # reserved words as arguments
        ("git commit -m 'fix: a; b' && git log -n1 | cat", [(), ("cat", "nowhere"), ()]),
        ('grep -rn "TODO (later)" src | wc -l', [("wc",), ()]),
    ],
)
def test_a_line_of_pieces_as_written_is_read_without_the_tree(
    line: str, flows: list[tuple[str, ...]]
) -> None:
    read = read_plain(line)
    assert isinstance(read, tuple) and not isinstance(read, PlainLine)
    assert [p.pipes_to for p in read] == flows
    assert read == parse_by_tree(line).pieces


@pytest.mark.parametrize(
    ("line", "programs"),
    [
        ("sudo rm -rf /tmp/x", ["rm"]),
        ("cd src && ls", ["cd", "ls"]),
        ("sh -c ls | xargs rm", ["ls", "rm"]),
        ("eval git status", ["git"]),
        ("find . -name x -delete", ["find", "rm"]),
        ("man -P reboot ls", ["man", "reboot"]),
        ("env GIT_SSH_COMMAND=x git fetch", ["git", "x"]),
        ("eval if", [None]),  # a script the grammar cannot read
    ],
)
def test_a_line_with_commands_to_see_through_is_read_without_the_tree(
    line: str, programs: list[str | None]
) -> None:
    assert isinstance(read_plain(line), PlainLine)
    parsed = parse_fresh(line)
    assert [p.program for p in parsed.pieces] == programs
    assert parsed == parse_by_tree(line)


@pytest.mark.parametrize(
    "line",
    [
        'echo "$HOME"',  # an expansion
        'echo "a\\"b"',  # an escape
        "echo '{a,b}'",  # a brace, even quoted
        'echo " "',  # blanks alone in double quotes
        "echo 'a",  # a quote left open
        "sudo echo 'a b'",  # a command with quotes to see through
        "cd 'my dir' && ls",
        "ls > out.txt",  # a redirection
        "FOO=1 make",  # an assignment
        "if true; then ls; fi",
        "ls && time make",  # a reserved word where a command begins
        "export PATH",
        "- a=b",  # the grammar reads these heads its own way
        "c@",
        "a%b",
        " ls",  # blanks around the line
        "ls;",
        "ls |& cat",
        "ls & cat",
        "ls\ncat",
        "ls café",  # not ASCII
        ";".join(["ls"] * (MAX_PLAIN_COMMANDS + 1)),
    ],
)
def test_any_other_line_is_left_to_the_tree(line: str) -> None:
    assert read_plain(line) is None
