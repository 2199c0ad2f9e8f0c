"""The one-set screen before `is_windows_program`: it may pass a name the full check
refuses, never refuse one it would accept (every piece of every command meets it)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from amplifier_hooks.guard.winprograms import (
    SLASH_PROGRAMS,
    is_windows_program,
    may_be_windows_program,
)

_NAMES = st.one_of(
    st.sampled_from([*sorted(SLASH_PROGRAMS), "git", "pytest", "cd", "CD", "Dir", "rd", "DEL",
                     "tar.exe", "C:/x/cmd.EXE", "./run", "py3"]),
    st.text(st.characters(codec="ascii", exclude_categories=("Cc",)), min_size=1, max_size=12),
)  # fmt: skip
_ARGS = st.lists(st.sampled_from(["/s", "/q", "-la", "C:\\Users\\me", "x", "/grant"]), max_size=3)


@given(_NAMES, _ARGS)
def test_the_screen_never_refuses_a_windows_program(name: str, args: list[str]) -> None:
    if is_windows_program(name, tuple(args)):
        assert may_be_windows_program(name)


def test_plain_posix_programs_are_screened_out() -> None:
    assert not may_be_windows_program("git")
    assert not may_be_windows_program("pytest")
    assert not may_be_windows_program(None)
    assert may_be_windows_program("rd") and may_be_windows_program("tar.exe")
