"""Inline Python that writes literal text to a literal path (`pywrites`): judged as ``tee``
of that path, never granted; a computed path or text, a credential in the text, another
keyword or a rebound name keeps the inline-code ask; a harmful path is stopped."""

from __future__ import annotations

import ast

import pytest

from amplifier_hooks.guard.pywrites import literal_write
from tests.guard.conftest import Judge


@pytest.mark.parametrize(
    "command",
    [
        "python3 -c \"import json; json.dump({'users': []}, open('tests/fixtures/empty.json', "
        "'w'))\"",
        "python3 -c \"import pathlib; pathlib.Path('build/version.txt').write_text('1.4.1\\n')\"",
        "python3 -c \"import json; json.dump([1, 2], open('a.json', 'w'), indent=2); print('ok')\"",
    ],
)
def test_literal_writes_in_the_workspace_have_no_opinion(verdict: Judge, command: str) -> None:
    judged = verdict(command)
    assert judged.decision is None, (command, judged)


@pytest.mark.parametrize(
    ("command", "decision"),
    [
        ("python3 -c \"open('/home/ada-guard-test/.bashrc', 'a').write('alias ls=ls')\"", "deny"),
        (
            "python3 -c \"import pathlib; pathlib.Path('/etc/hosts').write_text('1.2.3.4 a')\"",
            "deny",
        ),
        ("python3 -c \"open('.git/hooks/pre-commit', 'w').write('make lint')\"", "deny"),
        ("python3 -c \"import json; p='x.json'; json.dump({}, open(p, 'w'))\"", "ask"),
        ("python3 -c \"open = print; open('a', 'w').write('x')\"", "ask"),
        ("python3 -c \"import json as j; j.dump({}, open('a.json', 'w'))\"", "ask"),
        ("python3 -c \"open('a.txt', 'w', newline='').write('x')\"", "ask"),
        ("python3 -c \"open('a.txt', 'w').write(input())\"", "ask"),
        ("python3 -c \"open('notes/out.txt', 'w').write('hello')\"", "ask"),  # (not read)
        # a file a tool runs later, code, a hidden folder: the text is not kept, so asked
        (
            "python3 -c \"import pathlib; pathlib.Path('Makefile').write_text('all: ; make')\"",
            "ask",
        ),
        ("python3 -c \"import json; json.dump({}, open('package.json', 'w'))\"", "ask"),
        ("python3 -c \"import pathlib; pathlib.Path('src/app.py').write_text('x = 1')\"", "ask"),
        ("python3 -c \"import json; json.dump({}, open('.vscode/settings.json', 'w'))\"", "ask"),
        ("python3 -c \"import pathlib; pathlib.Path('/tmp/x.sh').write_text('make')\"", "ask"),
        ("python3 -c \"import pathlib; pathlib.Path('../x.txt').write_text('x')\"", "ask"),
        (
            "python3 -c \"import pathlib; pathlib.Path('.git/hooks/pre-push').write_text('make')\"",
            "deny",
        ),
    ],
)
def test_their_harmful_or_unread_twins_are_still_stopped(verdict: Judge, command: str,
                                                         decision: str) -> None:  # fmt: skip
    judged = verdict(command)
    assert judged.decision == decision, (command, judged)


def test_a_credential_in_the_text_is_not_read_whole() -> None:
    key = "AKIA" + "IOSFODNN7" + "EXAMPLE"  # (an access key id by its shape, built here)
    for text, read in ((f"id={key}", False), ("id=none", True)):
        statement = ast.parse(f"pathlib.Path('conf.txt').write_text('{text}')").body[0]
        assert isinstance(statement, ast.Expr)
        assert literal_write(statement.value) is read, text


@pytest.mark.parametrize(
    ("code", "read"),
    [
        ("json.dump({'a': [1]}, open('a.json', 'w'), indent=2, sort_keys=True)", True),
        ("pathlib.Path('a.txt').write_text('x', encoding='utf-8')", True),
        ("open('a', 'a').write('x')", False),  # (the corpus asks it)
        ("json.dump({}, open('/tmp/a.json', 'w'))", False),
        ("json.dump({}, open('~/a.json', 'w'))", False),
        ("open('a', 'rb').write(b'x')", False),  # (a mode not read)
        ("open('a', 'w').write(f'{x}')", False),
        ("pathlib.Path(p).write_text('x')", False),
        ("pathlib.Path('bin/tool').write_text('x')", False),  # (no data file's suffix)
        ("json.dump(d, open('a', 'w'))", False),
        ("json.dumps({})", False),
        ("print('x')", False),
    ],
)
def test_literal_write_reads_only_its_shapes(code: str, read: bool) -> None:
    statement = ast.parse(code).body[0]
    assert isinstance(statement, ast.Expr)
    assert literal_write(statement.value) is read
