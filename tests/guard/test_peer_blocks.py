"""What the peers' own test suites block is never granted: an ``rm`` given nothing to
delete (``echo yes | rm -rf``), a delete in the shared temporary folder (it holds the
person's and other programs' work too), and ``cd`` spelled through ``builtin`` or
``command``, which moves the shell as ``cd`` does."""

import pytest

from tests.guard.conftest import Judge


@pytest.mark.parametrize(
    "command",
    [
        "echo yes | rm -rf && echo done",
        "rm -rf",
        "cd /tmp && bash -c 'rm -rf foo'",
        "rm -rf /tmp/foo",
        "cd /tmp && rm -rf build-cache",
        "rm -f /tmp/x.log",
    ],
)
def test_an_empty_or_shared_temp_delete_is_not_granted(verdict: Judge, command: str) -> None:
    judged = verdict(command)
    assert judged.decision != "allow", (command, judged)


@pytest.mark.parametrize(
    "command", ["cp a.txt /tmp/b.txt", "echo x > /tmp/y", "mkdir -p /tmp/work"]
)
def test_writes_into_the_temporary_folder_stay_granted(verdict: Judge, command: str) -> None:
    assert verdict(command).decision == "allow", command


@pytest.mark.parametrize("prefix", ["builtin", "command"])
def test_cd_through_builtin_moves_the_shell(verdict: Judge, prefix: str) -> None:
    judged = verdict(f"{prefix} cd .. && rm -rf build")  # a folder beside the workspace
    assert (judged.decision, judged.rule) == ("ask", "rm-outside-workspace")
