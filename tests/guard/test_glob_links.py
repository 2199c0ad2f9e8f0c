"""A pattern that may match a link out of the workspace, and a search that follows
links, are not granted (`guard/globlinks.py`): judged in a real workspace."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from amplifier_hooks.guard import Places, Policy, Verdict, judge
from amplifier_hooks.guard.globlinks import MAX_LISTED, follows_links, link_out
from amplifier_hooks.guard.model import Piece
from tests.guard.conftest import write


@pytest.fixture
def linked(tmp_path: Path) -> Places:
    """A workspace whose ``notes/`` holds a link to a key in the home folder, and whose
    ``src/`` a link to a file of its own."""
    home = tmp_path / "home"
    workspace = home / "project"
    write(home / "keys" / "deploy_key", "KEY\n")
    write(workspace / "notes" / "a.md", "a\n")
    write(workspace / "src" / "app.py", "app = 1\n")
    os.symlink(home / "keys" / "deploy_key", workspace / "notes" / "b.md")
    os.symlink(workspace / "src" / "app.py", workspace / "src" / "alias.py")
    return Places.of(workspace, home=home)


def decide(command: str, pack: Policy, places: Places) -> Verdict:
    return judge({"tool_name": "bash", "tool_input": {"command": command}}, pack, places)


@pytest.mark.parametrize(
    "command",
    ["cat notes/*", "head -n 5 notes/*.md", "grep -n x notes/*", "chmod 600 notes/*",
     "truncate -s 0 notes/*", "cat notes/[ab].md", "grep -R KEY .", "grep -nR KEY notes",
     "rg --follow KEY", "rg -L KEY ."],
)  # fmt: skip
def test_a_pattern_or_a_walk_reaching_a_link_out_is_not_granted(
    command: str, pack: Policy, linked: Places
) -> None:
    assert decide(command, pack, linked).decision is None, command


@pytest.mark.parametrize("command", ["cat src/*.py", "wc -l src/*", "grep -rn KEY .", "rg KEY src"])
def test_a_pattern_with_links_inside_or_none_stays_granted(
    command: str, pack: Policy, linked: Places
) -> None:
    assert decide(command, pack, linked).decision == "allow", command


def test_a_folder_too_large_to_list_is_not_granted(tmp_path: Path) -> None:
    for index in range(MAX_LISTED + 1):
        (tmp_path / f"f{index}").touch()
    assert link_out(str(tmp_path / "*.txt"), str(tmp_path)) is not None
    assert link_out(str(tmp_path / "missing" / "*"), str(tmp_path)) is None


def test_the_searches_that_follow_links() -> None:
    def piece(program: str, *args: str) -> Piece:
        return Piece(f"{program} {' '.join(args)}", program, args)

    for follows in (piece("grep", "-R", "x"), piece("grep", "-inR", "x"),
                    piece("grep", "--der", "x"), piece("rg", "-L", "x"),
                    piece("rg", "--follow", "x")):  # fmt: skip
        assert follows_links(follows) is not None, follows
    for stays in (piece("grep", "-rn", "x"), piece("grep", "-e", "-R"), piece("rg", "-l", "x"),
                  piece("grep", "--", "-R"), piece("cat", "-R")):  # fmt: skip
        assert follows_links(stays) is None, stays
