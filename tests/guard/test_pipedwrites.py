"""A script written through a pipe (``echo X | tee F``, ``echo B64 | base64 -d > F``) and
then run is judged as the text written (`pipedwrites`, followed by `earlier`)."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.pipedwrites import piped_text
from tests.guard.conftest import decided


@pytest.mark.parametrize(
    "command",
    ["echo 'rm -rf ~' | tee /tmp/x.sh && . /tmp/x.sh",
     "echo 'rm -rf ~' | tee /tmp/x.sh && source /tmp/x.sh",
     "echo 'rm -rf ~' | tee x.sh >/dev/null; bash x.sh",
     "echo cm0gLXJmIH4K | base64 -d > /tmp/x.sh && bash /tmp/x.sh",
     "echo cm0gLXJmIH4K | base64 --decode > /tmp/x.sh && . /tmp/x.sh"],
)  # fmt: skip
def test_the_written_text_is_judged_as_the_script_run(command: str) -> None:
    assert decided(command) == ("deny", "rm-root-or-home")


@pytest.mark.parametrize(
    "command",
    [
        "echo 'echo hi' | tee x.sh && sh x.sh",
        "echo hi | tee out.txt",
        "echo ZWNobyBoaQo= | base64 -d",
    ],
)
def test_a_harmless_script_or_a_plain_write_stays_free(command: str) -> None:
    assert decided(command)[0] is None


def _echo(text: str, to: str) -> Piece:
    return Piece(f"echo {text}", "echo", (text,), pipes_to=(to,))


@pytest.mark.parametrize(
    ("first", "second"),
    [(_echo("a%sb", "tee"), Piece("tee x", "tee", ("x",))),  # a format: other bytes
     (_echo("not base64!", "base64"), Piece("base64 -d", "base64", ("-d",))),
     (_echo("cm0K", "base64"), Piece("base64 -d f", "base64", ("-d", "f"))),  # reads f
     (_echo("cm0K", "base64"), Piece("base64", "base64")),  # encodes
     (_echo("x", "cat"), Piece("cat a", "cat", ("a",))),
     (_echo("x", "sort"), Piece("tee x", "tee", ("x",)))],  # fed to another program
)  # fmt: skip
def test_text_not_surely_written_is_unknown(first: Piece, second: Piece) -> None:
    assert piped_text((first, second), 1) is None
    assert piped_text((second,), 0) is None
