"""A line of plain commands read without the syntax tree (`plainline`) gives exactly the
pieces the tree gives, and every other line is left to the tree."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amplifier_hooks.cli.corpus import load_corpus, shipped_corpora
from amplifier_hooks.guard.parser import _walked, parse_fresh
from amplifier_hooks.guard.plainline import MAX_PLAIN_COMMANDS, plain_line

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

_WORDS = [
    # programs the tree reads as syntax, that `unwrap` looks into, or that run commands
    "if", "then", "fi", "for", "do", "done", "in", "while", "case", "esac", "function",
    "time", "coproc", "export", "declare", "local", "readonly", "unset", "typeset", "cd",
    "pushd", "popd", "sudo", "env", "xargs", "sh", "bash", "eval", "find", "awk", "man", "rg",
    "git", "rm", "ls", "cat", "pytest", "python3", "npm", "make", "echo", "true", ":", "-",
    # words of every plain character, where each can stand
    "-rf", "--force", "--x=y", "-n5", "a=b", "==", "=x", "x=", "a==b", "~", "~/x", "~root/x",
    "~/.claude/settings.json", "*", "*.py", "a?b", "%1", "@x", "+x", "a,b", "a:b", "./x",
    "../x", "/etc/passwd", ".", "..", "x.y.z", "_", "9", "1a", "a-", "-", "--", "x%y", "h@st",
]  # fmt: skip
_OPERATORS = ["&&", "||", ";", " && ", " || ", "; ", " ; ", "\t&&\t", ";;", "&", "|", " "]


@st.composite
def lines(draw: st.DrawFn) -> str:
    command = st.lists(st.sampled_from(_WORDS), min_size=1, max_size=4)
    commands = draw(st.lists(command, min_size=1, max_size=MAX_PLAIN_COMMANDS + 1))
    text = " ".join(commands[0])
    for words in commands[1:]:
        blank = draw(st.sampled_from([" ", "\t", "  "]))
        text += draw(st.sampled_from(_OPERATORS)) + blank.join(words)
    return text


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines())
def test_a_plain_line_is_read_as_the_tree_reads_it(text: str) -> None:
    assert parse_fresh(text) == _walked(text, text.encode())


def test_everyday_lines_skip_the_tree() -> None:
    line = plain_line("git status && pytest -q tests/ || ls -la; npm test")
    assert line is not None
    assert [p.program for p in line] == ["git", "pytest", "ls", "npm"]
    assert [p.text for p in line] == ["git status", "pytest -q tests/", "ls -la", "npm test"]


@pytest.mark.parametrize(
    "text",
    [
        "cd src && rm -rf build",  # cd: later commands run elsewhere
        "export PAGER=x && git log",  # a declaration, not a program
        "if true; then rm x; fi",
        "git log | less",  # output flows on
        "rm x > out",  # a redirection
        "echo 'a b'",  # a quote
        "rm $HOME",  # an expansion
        "sudo rm -rf /",  # a wrapper: unwrapped
        "find . -delete",  # looked into
        "man -P reboot ls",  # runs a command
        "a && ",  # no command after the operator
        "é && ls",  # not ASCII
        "assert X == 1",  # `==` is not a plain word to the tree
        " && ".join(["ls"] * (MAX_PLAIN_COMMANDS + 1)),  # long lines keep the tree's budget
    ],
)
def test_other_lines_are_left_to_the_tree(text: str) -> None:
    assert plain_line(text) is None


def test_every_corpus_command_read_plain_is_read_as_the_tree_reads_it() -> None:
    corpora = [str(p) for p in shipped_corpora()]
    folder = os.path.join(ROOT, "benchmarks", "corpora")
    corpora += [os.path.join(folder, name) for name in sorted(os.listdir(folder))]
    texts = set()
    for corpus in corpora:
        for case in load_corpus(corpus):
            command = case.call.input.get("command")
            if isinstance(command, str):
                texts.add(command.strip())
                texts.update(line.strip() for line in command.splitlines())
    read = 0
    for text in sorted(texts):
        pieces = plain_line(text)
        if pieces is not None:
            read += 1
            assert pieces == _walked(text, text.encode()).pieces, text
    assert read > 500  # the shortcut is taken on most everyday commands
