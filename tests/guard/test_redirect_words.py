"""A redirection may stand anywhere among a command's words (`rm 2>/dev/null -rf DIR`);
bash gives it one word and passes the rest to the command. So a `2>/dev/null` put between
the words of a plain command changes nothing the guard decides."""

from __future__ import annotations

import re

import pytest

from amplifier_hooks.cli.corpus import load_corpus, shipped_corpora
from amplifier_hooks.guard import Policy, judge
from tests.guard.conftest import session_places

_PLAIN = re.compile(r"""^[^;&|<>$`\n\\(){}'"]+$""")
_KEYWORDS = frozenset({"export", "declare", "local", "readonly", "typeset", "unset"})
"""Declarations are read apart (`statements.keyword_command`); a redirection there is
read as unknown syntax and asked, the safe side."""


def _plain_commands() -> list[tuple[str, str, str, str]]:
    found = []
    for path in shipped_corpora():
        for case in load_corpus(path):
            command = case.call.input.get("command")
            if case.call.tool != "bash" or not isinstance(command, str):
                continue
            words = command.split(" ")
            if _PLAIN.match(command) and len(words) > 1 and words[0] not in _KEYWORDS:
                found.append((command, case.call.cwd, case.call.home, f"{path.stem}:{case.id}"))
    return found


PLAIN = _plain_commands()


def test_the_corpora_hold_enough_plain_commands() -> None:
    assert len(PLAIN) > 300


@pytest.mark.parametrize(("command", "cwd", "home", "case"), PLAIN, ids=[p[3] for p in PLAIN])
def test_a_quiet_redirection_between_the_words_changes_no_verdict(
    command: str, cwd: str, home: str, case: str, pack: Policy
) -> None:
    places = session_places(cwd, home)
    words = command.split(" ")

    def decide(text: str) -> tuple[str | None, str | None]:
        verdict = judge({"tool_name": "bash", "tool_input": {"command": text}}, pack, places)
        return verdict.decision, verdict.rule

    expected = decide(command)
    for position in range(1, len(words)):
        moved = " ".join([*words[:position], "2>/dev/null", *words[position:]])
        assert decide(moved) == expected, moved
