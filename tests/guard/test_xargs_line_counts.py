"""``head``/``tail`` given a count of lines between a lister and ``xargs`` keep whole lines,
so the paths ``xargs`` is given are the lister's (`loops._whole_lines`); a count of bytes
cuts a name and keeps the input unknown."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.loops import _whole_lines
from tests.guard.conftest import Judge


@pytest.mark.parametrize(
    ("args", "whole"),
    [
        (("-n", "+4"), True), (("-n", "3"), True), (("-5",), True), (("--lines=2",), True),
        (("-n3",), True), ((), True), (("-c", "3"), False), (("-c3",), False),
        (("-n", "x"), False), (("-f",), False), (("-n",), False),
    ],
)  # fmt: skip
def test_a_count_of_lines_keeps_whole_lines(args: tuple[str, ...], whole: bool) -> None:
    assert _whole_lines(args) is whole


@pytest.mark.parametrize(
    ("command", "decision"),
    [
        ("ls -t checkpoints/*.pt | tail -n +4 | xargs -r rm --", None),  # keep the newest 3
        ("ls -t ../other/*.pt | tail -n +4 | xargs -r rm --", "deny"),  # another project's
        ("ls -t checkpoints/*.pt | head -c 3 | xargs -r rm -rf", "ask"),  # a cut name
        ("ls ~ | tail -n +1 | xargs rm -rf", "deny"),
        ("ls -d .claude/* | tail -n 1 | xargs rm -rf", "deny"),
    ],
)
def test_what_xargs_deletes_is_what_the_lister_listed(
    verdict: Judge, command: str, decision: str | None
) -> None:
    assert verdict(command).decision == decision, verdict(command).pieces
