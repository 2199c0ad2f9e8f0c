"""Inline code the guard reads whole with its grammar is judged by what it does: the paths
it names are pieces of their own, and its text is no path of the interpreter's. Code the
guard cannot read keeps its text among the interpreter's words, and a Perl operand after
the code stays a file it reads. The input an interpreter reads its code from (``python3 -``)
is that code, judged as its own piece, and no path either."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard import Places
from amplifier_hooks.guard.facts import Facts
from amplifier_hooks.guard.inline import CODE_PASSED, CODE_READ
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.policy import pieces_for
from tests.guard.conftest import Judge


def _interpreter(command: str, places: Places) -> Piece:
    pieces = pieces_for({"tool_name": "bash", "tool_input": {"command": command}}, places)[1]
    return pieces[0]


READ = [
    # (`shutil.rmtree("/tmp/x")` alone is that command: `test_inline_effects`)
    ("python3 -c 'import os; os.remove(\"/tmp/x\")'", "import os"),
    ('node -e \'require("fs").rmSync("/tmp/x", {recursive: true})\'', "require"),
    ("ruby -e 'File.delete(\"/tmp/x\")'", "File.delete"),
    ("php -r 'unlink(\"/tmp/x\");'", "unlink"),
]


@pytest.mark.parametrize(("command", "code"), READ)
def test_code_read_whole_is_no_path(places: Places, command: str, code: str) -> None:
    piece = _interpreter(command, places)
    assert CODE_READ in piece.wrappers
    assert not any(code in word for word in Facts(piece, places).words)


def test_a_perl_operand_after_read_code_stays_a_path(places: Places) -> None:
    piece = _interpreter("perl -ne 'unlink \"/tmp/x\" if /x/' notes.txt", places)
    assert CODE_READ in piece.wrappers
    assert Facts(piece, places).words == ("notes.txt",)


def test_code_the_guard_cannot_read_keeps_its_words(places: Places) -> None:
    piece = _interpreter("python3 -c 'def (:'", places)  # does not parse
    assert CODE_READ not in piece.wrappers
    assert Facts(piece, places).words == ("def (:",)


@pytest.mark.parametrize(
    ("command", "decision", "rule"),
    [
        ("python3 -c 'import os; os.remove(\"/home/ada-guard-test/.ssh/id_ed25519\")'",
         "deny", None),
        ("node -e 'require(\"fs\").writeFileSync(\".claude/settings.json\", \"{}\")'",
         "deny", None),
        ("python3 -c 'import os; os.remove(\"/tmp/x\")'", "ask", "inline-code"),
    ],
)  # fmt: skip
def test_read_code_is_still_judged_by_what_it_does(
    verdict: Judge, command: str, decision: str, rule: str | None
) -> None:
    result = verdict(command)
    assert result.decision == decision, result.pieces
    if rule is not None:
        assert result.rule == rule


def test_the_input_an_interpreter_reads_as_code_is_no_path(places: Places) -> None:
    command = "python3 - <<'PY'\nimport shutil\nshutil.rmtree('/tmp/x')\nPY"
    pieces = pieces_for({"tool_name": "bash", "tool_input": {"command": command}}, places)[1]
    passed = [p for p in pieces if CODE_PASSED in p.wrappers]
    assert [p.args for p in passed] == [("-",)]
    assert Facts(passed[0], places).words == ()
    assert Facts(Piece("cat -", "cat", ("-",), "bash", cwd="."), places).words == ("-",)
