"""Python text is parsed once per decision, and only within one (`pyparsed`); the readers
that share the tree read what they read before."""

from __future__ import annotations

import ast
from typing import Any

import pytest

from amplifier_hooks.guard import Places, judge, load_pack
from amplifier_hooks.guard.appsource import app_code
from amplifier_hooks.guard.memo import begin, end
from amplifier_hooks.guard.pyparsed import parse_python
from amplifier_hooks.guard.pyreader import read_python

MODULE = "import subprocess\n\ndef build():\n    subprocess.run(['make', 'all'])\n"


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts handed to ``ast.parse``, in order."""
    seen: list[str] = []
    real = ast.parse

    def counted(source: str, *args: Any, **kwargs: Any) -> Any:
        seen.append(source)
        return real(source, *args, **kwargs)

    monkeypatch.setattr(ast, "parse", counted)  # (`pyparsed` calls `ast.parse`)
    return seen


def test_the_tree_of_the_text() -> None:
    assert ast.dump(parse_python(MODULE)) == ast.dump(ast.parse(MODULE))


def test_parsed_once_within_a_decision(parses: list[str]) -> None:
    token = begin()
    try:
        first, second = parse_python(MODULE), parse_python(MODULE)
    finally:
        end(token)
    assert first is second
    assert parses == [MODULE]


def test_parsed_each_time_outside_a_decision(parses: list[str]) -> None:
    parse_python(MODULE)
    parse_python(MODULE)
    assert len(parses) == 2


def test_forgotten_when_the_decision_ends(parses: list[str]) -> None:
    for _ in range(2):
        token = begin()
        try:
            parse_python(MODULE)
        finally:
            end(token)
    assert len(parses) == 2


def test_a_syntax_error_raised_at_every_parse(parses: list[str]) -> None:
    token = begin()
    try:
        for _ in range(3):
            with pytest.raises(SyntaxError):
                parse_python("def (:\n")
    finally:
        end(token)
    assert len(parses) == 1


def test_app_code_and_the_reader_share_one_parse(parses: list[str]) -> None:
    token = begin()
    try:
        found = app_code("src/build.py", MODULE)
        readings = [read_python(code) for language, code in found if language == "python"]
    finally:
        end(token)
    assert parses == [MODULE]
    assert readings and readings[0].parsed


def test_the_shared_tree_reads_as_a_tree_of_its_own() -> None:
    alone = read_python(MODULE)
    token = begin()
    try:
        app_code("src/build.py", MODULE)
        shared = read_python(MODULE)
    finally:
        end(token)
    assert shared == alone


def test_inline_code_read_for_its_effects_is_parsed_once(parses: list[str]) -> None:
    # `pyeffects` asks whether the code's loud statements are only commands read whole,
    # after the reader read it: the same tree (the call below is judged as `rm -rf build`)
    code = "import shutil; shutil.rmtree('build', ignore_errors=True)"
    verdict = judge(
        {"tool_name": "bash", "tool_input": {"command": f'python3 -c "{code}"'}},
        load_pack(),
        Places.of("/home/dev/project", home="/home/dev"),
    )
    assert verdict.decision != "deny"
    assert parses == [code]
