"""A path spelled as a literal workspace folder, one name ``basename`` prints and a
literal ending (``dist/img/$(basename "${f%.png}").webp``) is a file of that folder
(`computedpaths.named_below`, `paths`): a write there is free as any workspace write; a
folder outside, a protected folder, or other commands in the substitution stay asked."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.computedpaths import named_below
from tests.guard.conftest import decided


@pytest.mark.parametrize(
    ("raw", "found"),
    [
        ('dist/img/$(basename "${f%.png}").webp', ("dist/img", ".webp")),
        ("out/$(basename -s .md $f).html", ("out", ".html")),
        ("./$(basename $f).txt", (".", ".txt")),
    ],
)
def test_named_below_reads_folder_and_ending(raw: str, found: tuple[str, str]) -> None:
    assert named_below(raw) == found


@pytest.mark.parametrize(
    "raw",
    [
        "../x/$(basename $f).txt",  # a folder outside
        "/etc/$(basename $f).conf",  # an absolute folder
        "dist/$(basename $f)",  # no ending: the name could be `..`
        "dist/$(basename $f)..",  # an ending of dots only
        "dist/$(basename $f; echo /x).txt",  # another command's output
        "dist/$(basename $(cat list)).txt",  # a nested substitution
        "dist/$(basename $f)/x.txt",  # a folder below the name
        "dist/$(dirname $f).txt",  # dirname prints a `/`
        "$HOME/$(basename $f).txt",
    ],
)
def test_named_below_refuses_what_can_leave(raw: str) -> None:
    assert named_below(raw) is None


@pytest.mark.parametrize(
    "command",
    [
        'for f in img/*.png; do cwebp "$f" -o "dist/img/$(basename "${f%.png}").webp"; done',
        'for f in docs/*.md; do pandoc "$f" -o "build/html/$(basename "${f%.md}").html"; done',
    ],
)
def test_loop_outputs_in_the_workspace_are_free(command: str) -> None:
    assert decided(command)[0] is None


@pytest.mark.parametrize(
    ("command", "decision"),
    [
        ('for f in h/*; do cp "$f" ".git/hooks/$(basename "$f")-commit"; done', "deny"),
        ('for f in c/*; do cp "$f" ".claude/$(basename "$f").json"; done', "ask"),
        ('for f in a/*; do cp "$f" "../x/$(basename "$f").txt"; done', "ask"),
        ('for f in a/*; do cp "$f" "dist/$(basename "$f"; echo /x).txt"; done', "ask"),
        ('for f in a/*; do cp "$f" "dist/$(basename "$f")"; done', "ask"),
    ],
)
def test_protected_or_leaving_outputs_stay_stopped(command: str, decision: str) -> None:
    assert decided(command)[0] == decision
