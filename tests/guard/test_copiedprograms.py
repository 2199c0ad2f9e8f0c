"""A program copied, linked or moved under another name and run by it is the program it
was copied from (`copiedprograms`, followed by `earlier`)."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.copiedprograms import copied_program
from amplifier_hooks.guard.model import Piece
from tests.guard.conftest import decided


@pytest.mark.parametrize(
    "command",
    ["cp /bin/rm /tmp/ls && /tmp/ls -rf ~", "cp /bin/rm /tmp && /tmp/rm -rf ~",
     "ln -s /bin/rm ./tidy && ./tidy -rf ~", "cp -- /usr/bin/rm /tmp/x; /tmp/x -rf /"],
)  # fmt: skip
def test_the_copy_runs_as_the_program_copied(command: str) -> None:
    assert decided(command) == ("deny", "rm-root-or-home")


@pytest.mark.parametrize(
    "command",
    ["cp /bin/ls /tmp/ls.bak && ls -l /tmp/ls.bak", "cp /bin/rm /tmp/r && ls /tmp"],
)
def test_a_copy_not_run_stays_free(command: str) -> None:
    assert decided(command)[0] is None


@pytest.mark.parametrize(
    ("args", "found"),
    [(("/bin/rm", "/tmp/ls"), ("/tmp/ls", "/bin/rm")),
     (("-f", "/bin/rm", "/tmp/"), ("/tmp/rm", "/bin/rm")),
     (("-t", "/tmp", "/bin/rm"), None), (("a", "b", "c"), None), (("$X", "/tmp/y"), None)],
)  # fmt: skip
def test_what_is_copied_where(args: tuple[str, ...], found: tuple[str, str] | None) -> None:
    assert copied_program(Piece("cp", "cp", args)) == found
    assert copied_program(Piece("tee", "tee", args)) is None
