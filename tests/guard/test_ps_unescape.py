"""PowerShell's expandable strings are unescaped in one place (`psexpr.dq_literal`): the
literal text, and the text `psvalues` expands later, where an escaped ``$`` is marked so
that no variable is read there."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.psexpr import dq_literal


@pytest.mark.parametrize(
    ("text", "literal"),
    [
        ("plain", "plain"),
        ("a`tb", "a\tb"),
        ("line`n", "line\n"),
        ("bell`a", "bell"),
        ("`$HOME", "$HOME"),
        ('say ""hi""', 'say "hi"'),
        ("``", "`"),
        ("tail`", "tail`"),
    ],
)
def test_the_literal_text_of_an_expandable_string(text: str, literal: str) -> None:
    assert dq_literal(text) == literal


def test_an_escaped_dollar_is_marked_where_the_caller_asks() -> None:
    assert dq_literal("`$HOME/x $env:TEMP", "\x00$") == "\x00$HOME/x $env:TEMP"
    assert dq_literal("no escape", "\x00$") == "no escape"
