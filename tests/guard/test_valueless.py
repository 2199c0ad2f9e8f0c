"""Readers that print none of a ``.env``'s values (counts, nothing, names) stay free;
a search by anything but a variable's name, or any other field, still reads values. A
reader of names is never granted (a multi-line value's lines print whole)."""

from __future__ import annotations

import pytest

from tests.guard.conftest import Judge


@pytest.mark.parametrize(
    ("command", "decision"),
    [
        ("wc -l .env .env.example", "allow"),
        ("grep -q '^DATABASE_URL=' .env && echo present || echo missing", "allow"),
        ("grep -c API_KEY .env", "allow"),
        ("cut -d= -f1 .env | sort", None),
        ("cut -s -d '=' -f 1 .env", "allow"),
        ("diff <(grep -o '^[A-Z_]*' .env.example | sort) <(grep -o '^[A-Z_]*' .env | sort)", None),
        ("env | cut -d= -f1 | sort", None),
        ("echo ${#ANTHROPIC_API_KEY}", "allow"),
    ],
)
def test_reading_no_value_stays_free(verdict: Judge, command: str, decision: str | None) -> None:
    judged = verdict(command)
    assert judged.decision == decision, (command, judged)


@pytest.mark.parametrize(
    "command",
    [
        "cut -d= -f2 .env",
        "cut -d= -f1- .env",
        "grep -o '^[A-Z_]*=.*' .env",
        "grep -c '^API_KEY=sk' .env",
        "grep -vc x .env",
        "head -q .env",
        "env | cut -d= -f2",
        "echo ${ANTHROPIC_API_KEY:0:6}",
        'echo "${#ANTHROPIC_API_KEY} $ANTHROPIC_API_KEY"',
        "echo ${OPENAI_API_KEY}",
    ],
)
def test_reading_a_value_is_still_judged(verdict: Judge, command: str) -> None:
    assert verdict(command).decision in ("ask", "deny"), command
