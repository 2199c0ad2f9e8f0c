"""``xargs -a FILE`` reads its arguments from FILE: the file is read (and shown by a
command that prints them), judged as ``cat FILE``."""

from __future__ import annotations

import pytest

from tests.guard.conftest import decided


@pytest.mark.parametrize(
    "command",
    ["xargs -a ~/.ssh/id_rsa echo", "xargs --arg-file=/home/dev/.aws/credentials echo",
     "xargs --arg-file /home/dev/.ssh/id_ed25519 printf '%s\\n'",
     "xargs -0 -a/home/dev/.ssh/id_rsa echo", "sudo xargs -a ~/.ssh/id_rsa echo"],
)  # fmt: skip
def test_a_secret_file_read_as_arguments_is_a_read_of_it(command: str) -> None:
    assert decided(command) == ("deny", "credential-read")


@pytest.mark.parametrize(
    "command",
    ["xargs -a files.txt echo", "xargs -a - echo", "xargs echo", 'xargs -a "$LIST" echo'],
)
def test_a_project_list_read_as_arguments_stays_free(command: str) -> None:
    assert decided(command)[0] in (None, "allow")
