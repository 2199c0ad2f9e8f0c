"""The one glob-to-regex translation (`globregex`): each reader's options give its own
reading of the same pattern."""

from __future__ import annotations

import re

import pytest

from amplifier_hooks.guard.globregex import glob_regex


def _matches(pattern: str, text: str, **options: bool) -> bool:
    return re.fullmatch(glob_regex(pattern, **options), text, re.S) is not None


@pytest.mark.parametrize(
    ("pattern", "text", "options", "expected"),
    [
        # bash's parameter patterns: `*` and `?` take anything, a `/` too
        ("a*z", "a/b/z", {}, True),
        ("a?z", "a/z", {}, True),
        # a path's name: never a `/`
        ("a*z", "a/b/z", {"path": True}, False),
        ("a?z", "a/z", {"path": True}, False),
        ("a*z", "abz", {"path": True}, True),
        # sets, negated with `!`, and a `]` first in the set is in it
        ("[ab]c", "bc", {}, True),
        ("[!ab]c", "bc", {}, False),
        ("[!ab]c", "xc", {}, True),
        ("[]x]", "]", {}, True),
        ("[ab", "[ab", {}, True),
        # a backslash keeps the next character literal, unless it is a character itself
        ("a\\*", "a*", {}, True),
        ("a\\*", "ab", {}, False),
        ("a\\*", "a\\bc", {"path": True, "escapes": False}, True),
        # `**/`: any folders or none; `**`: anything
        ("**/.env", ".env", {"path": True, "globstar": True}, True),
        ("**/.env", "a/b/.env", {"path": True, "globstar": True}, True),
        ("/etc/**", "/etc/a/b", {"path": True, "globstar": True}, True),
        ("**/.env", "a/b/.env", {"path": True}, False),
    ],
)
def test_glob_regex(pattern: str, text: str, options: dict[str, bool], expected: bool) -> None:
    assert _matches(pattern, text, **options) is expected
