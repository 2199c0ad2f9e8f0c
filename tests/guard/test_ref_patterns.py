"""git's list commands take ref patterns, not paths (``git tag -l 'v*'``, ``branch --list
PATTERN``, ``for-each-ref PATTERN``, ``ls-remote REMOTE PATTERN``): listing refs reads no
file, even in a real folder holding a file the pattern's letters would match as a glob."""

from __future__ import annotations

from pathlib import Path

import pytest

from amplifier_hooks.guard import Policy
from tests.guard.conftest import committed, decided, judged_in, project_places, write


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    top = committed(tmp_path / "proj", {"README.md": "x\n"})
    for name in ("v.pem", "vault.key", "id_rsa", "refs/heads/x.pem", "origin.pem"):
        write(top / name, "secret\n")
    return top


@pytest.mark.parametrize(
    "command",
    [
        "git tag -l 'v*'",
        "git tag --list 'v*' --sort=-v:refname",
        "git tag -l v*",
        "git branch --list 'feat*'",
        "git branch -a --list 'id_*'",
        "git for-each-ref 'refs/heads/*'",
        "git for-each-ref --format='%(refname)' refs/tags/v*",
        "git ls-remote --tags origin 'v*'",
        "git ls-remote origin 'refs/heads/*'",
    ],
)
def test_ref_patterns_of_list_commands_read_no_file(repo: Path, pack: Policy, command: str) -> None:
    found = judged_in(command, pack, project_places(repo))
    assert found.rule != "secret-file-read", (command, found.rule)
    assert found.decision in (None, "allow"), (command, found.decision, found.rule)


@pytest.mark.parametrize(
    "command",
    [
        "cat v*",  # a real glob over the folder: the key files
        "git tag -l 'v*' && cat vault.key",
        "git tag -F vault.key v2",  # a tag message from a file: that file is read
        "git ls-remote --upload-pack=x origin 'v*'",  # a program run: never free
    ],
)
def test_what_is_not_a_ref_pattern_is_still_read(repo: Path, pack: Policy, command: str) -> None:
    found = judged_in(command, pack, project_places(repo))
    assert found.decision in ("ask", "deny"), (command, found.decision, found.rule)


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("git for-each-ref --format='%(refname:short)' 'refs/tags/v*'", ("allow", "git-everyday")),
        ("git for-each-ref --sort=-creatordate refs/heads", ("allow", "git-everyday")),
        # what it prints, run or written elsewhere, is judged as any command's output
        ("git for-each-ref --shell --format='git tag -d %(refname:short)' | sh",
         ("ask", "piped-to-shell")),
        ("git -c core.fsmonitor=/tmp/x for-each-ref", ("ask", "git-c-run-code")),
    ],
)  # fmt: skip
def test_listing_refs_is_everyday_git(command: str, expected: tuple[str, str]) -> None:
    assert decided(command) == expected
