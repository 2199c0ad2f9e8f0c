"""find's start points come after its own options (``-H``, ``-L``, ``-P``, ``-D opts``,
``-Olevel``), read in one place (`table.finding.find_start`) for what find does, what
its ``-delete``/``-exec`` act on, and what it feeds ``xargs``: any options before them
leave the same start points."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from amplifier_hooks.guard.table.finding import find_start
from tests.guard.conftest import Judge

OPTIONS = ["-H", "-L", "-P", "-O3", "-D tree", "-Dtree"]


@settings(max_examples=60, deadline=None)
@given(chosen=st.lists(st.sampled_from(OPTIONS), max_size=3))
def test_any_options_before_the_start_points_leave_them_the_same(chosen: list[str]) -> None:
    words = tuple(" ".join(chosen).split())
    assert find_start((*words, "~/.claude", "src", "-name", "x")) == (
        ("~/.claude", "src"),
        len(words) + 2,
    )
    assert find_start(words) == ((), len(words))


def test_what_find_deletes_or_lists_is_below_its_start_points(verdict: Judge) -> None:
    for options in ("", "-L ", "-H -O2 ", "-D tree "):
        deleted = verdict(f"find {options}~/.claude -name '*.json' -delete")
        listed = verdict(f"find {options}~/.codex -type f | xargs rm -f")
        assert (deleted.decision, deleted.rule) == ("deny", "self-protect-hook-folders"), options
        assert (listed.decision, listed.rule) == ("deny", "self-protect-hook-folders"), options
        assert verdict(f"find {options}src -name '*.pyc' | xargs rm -f").decision in (None, "allow")
