"""ssh-keygen's words that name files are its key files (``-f``, ``-s``) and operands; a
key type, a comment or a passphrase is no path (``-t ed25519`` was read as a file
``ed25519`` in the workspace, so a new key under /tmp was asked as one in the project)."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.table.commanders import keygen_paths
from tests.guard.conftest import Judge


@pytest.mark.parametrize(
    ("args", "expected"),
    [(("-t", "ed25519", "-N", "", "-C", "ci deploy key", "-f", "/tmp/k"), ("/tmp/k",)),
     (("-s", "ca", "-I", "id", "-n", "u", "k.pub"), ("ca", "k.pub")),
     # a fingerprint or a public key printed: nothing secret of the file is shown
     (("-lf", "k.pub"), ()), (("-y", "-f", "k"), ()), (("-p", "-f", "k"), ("k",)),
     (("-R", "github.com"), ()),
     (("-O", "write-attestation=/tmp/a", "-f", "k"), ("write-attestation=/tmp/a", "k"))],
)  # fmt: skip
def test_only_files_are_paths(args: tuple[str, ...], expected: tuple[str, ...]) -> None:
    assert keygen_paths(args) == expected


def test_an_unknown_option_leaves_every_word_a_path() -> None:
    assert keygen_paths(("--bogus", "-f", "k")) is None


@pytest.mark.parametrize(
    ("command", "decision"),
    [("ssh-keygen -t ed25519 -N '' -C 'ci deploy key' -f /tmp/deploy_key_test", None),
     ("ssh-keygen -t ed25519 -C 'me' -f deploy_key", "ask"),
     ("ssh-keygen -t ed25519 -f ~/.ssh/id_ed25519", "deny"),
     ("ssh-keygen -t rsa -f .claude/settings.json", "deny")],
)  # fmt: skip
def test_a_new_key_is_judged_by_where_it_is_written(
    verdict: Judge, command: str, decision: str | None
) -> None:
    assert verdict(command).decision == decision, command
