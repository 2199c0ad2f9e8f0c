"""A line of plain commands is read without the parser, exactly as the parser reads it."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from amplifier_hooks.cli.corpus import load_corpus, shipped_corpora
from amplifier_hooks.guard.parser import parse_fresh, parse_tree
from amplifier_hooks.guard.plainline import plain_line

_WORDS = st.sampled_from(
    ["git", "status", "pytest", "-q", "tests/", "ls", "-la", "rm", "-rf", "a=b", "--tb=short",
     "X=1", "export", "local", "declare", "unset", "time", "if", "then", "fi", "do", "done",
     "for", "in", "cd", "pushd", "sudo", "env", "sh", "bash", "-c", "find", "eval", "awk",
     "xargs", "nice", "-", "--", ":", "%1", "@x", "+x", ",", "1", "2", "a.b", "./x", "/etc",
     "..", ".", "-n5", "==", "=", "x=", "-x=y", "case", "esac", "while", "function", "coproc",
     "alias", "ll=ls", "echo", "printf", "true", "popd", "source", "exec", "command", "test",
     "select", "readonly", "typeset", "until", "elif", "else"]
)  # fmt: skip
_SEPARATORS = st.sampled_from([" && ", " || ", "; ", ";", "&&", " ;  ", "||"])
_SPACES = st.sampled_from([" ", "  ", "   "])


@st.composite
def _lines(draw: st.DrawFn) -> str:
    commands = []
    for _ in range(draw(st.integers(1, 4))):
        words = draw(st.lists(_WORDS, min_size=1, max_size=5))
        commands.append(draw(_SPACES).join(words))
    line = commands[0]
    for command in commands[1:]:
        line += draw(_SEPARATORS) + command
    return draw(st.sampled_from(["", " "])) + line + draw(st.sampled_from(["", " "]))


@settings(max_examples=1500, deadline=None)
@given(_lines())
def test_a_plain_line_gives_the_parsers_pieces(line: str) -> None:
    plain = plain_line(line)
    if plain is not None:
        assert plain == parse_tree(line).pieces


def test_the_everyday_line_is_read_without_the_parser() -> None:
    line = "git status && pytest -q tests/test_a.py"
    pieces = plain_line(line)
    assert pieces is not None
    assert [(p.program, p.args) for p in pieces] == [
        ("git", ("status",)),
        ("pytest", ("-q", "tests/test_a.py")),
    ]
    assert parse_fresh(line) == parse_tree(line)


def test_what_bash_reads_otherwise_goes_to_the_parser() -> None:
    for line in ("X=1 make", "cd src && ls", "export A=1", "echo $HOME", "ls *.py",
                 "cat a | wc -l", "echo 'a b'", "ls ~", "echo a > b", "sudo rm x",
                 "sh -c ls", "if true; then ls; fi", "ls # x", "a &&", "echo é"):  # fmt: skip
        assert plain_line(line) is None, line


def test_every_plain_line_of_the_corpora_reads_as_the_parser_reads_it() -> None:
    seen = 0
    blind = sorted(Path(__file__).parents[2].joinpath("benchmarks/corpora").glob("*.yaml"))
    for path in [*shipped_corpora(), *blind]:
        for case in load_corpus(path):
            command = case.call.input.get("command")
            if isinstance(command, str) and plain_line(command) is not None:
                seen += 1
                assert parse_fresh(command) == parse_tree(command), command
    assert seen > 100
