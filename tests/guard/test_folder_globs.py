"""A pattern in a folder name (``prettier --write 'src/**/*.ts'``) is placed where the
ordinary folder its matches are below is, when nothing can take a match elsewhere: a
formatter over the project's sources stays free (never granted), while a pattern that
could name a protected place, a secret by name, or a folder that is a link, keeps the
guard's doubt."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from amplifier_hooks.guard import Places, Policy, judge
from amplifier_hooks.guard.globplace import fixed_folder, plain_last_name
from tests.guard.conftest import HOME, Judge

FREE = [
    "npx prettier --write 'src/**/*.{ts,tsx}'",
    'npx eslint "src/**/*.{ts,tsx}" --fix',
    'npx markdownlint-cli2 "docs/**/*.md" "#node_modules"',
    "npx prettier --check 'packages/*/src/*.test.ts'",
    "npx prettier --write './web/app/**/*.css'",
    "black 'services/*/handlers/*.py'",
]


@pytest.mark.parametrize("command", FREE)
def test_a_formatter_over_a_folder_pattern_is_not_asked(verdict: Judge, command: str) -> None:
    result = verdict(command)
    assert result.decision is None, result.pieces


def test_a_read_through_a_folder_pattern_is_never_granted(verdict: Judge) -> None:
    assert verdict("cat src/x.ts").decision == "allow"  # (a plain path is)
    result = verdict("cat 'src/**/*.ts'")
    assert result.decision is None, result.pieces


KEPT = [
    # a pattern in a host's folder is each protected file it could match (settings.json)
    ("npx prettier --write '.claude/**/*.json'", "deny"),
    ("npx prettier --write '**/*.ts'", "ask"),  # the workspace's top holds .git and .claude
    ("npx prettier --write 'src/*/.env*'", "ask"),
    ("npx prettier --write 'src/**/.claude/*.json'", "deny"),
    ("npx prettier --write 'src/[.]*/x.ts'", "ask"),  # a set may take a leading dot
    ("npx prettier --write 'src/**/*.bak'", "ask"),  # a backup of a key is a key
    ("npx prettier --write 'src/**/*'", "ask"),  # any name: id_rsa too
    ("npx prettier --write 'src/*/../../.claude/settings.json'", "deny"),
    ("npx prettier --write 'src/**/opencode.json'", "deny"),  # OpenCode's, in any folder
    ("npx prettier --write '~/.claude/**/*.json'", "deny"),
    ("npx prettier --write '.claude/**/*.md'", "ask"),  # the hosts' folders start with a dot
    ("cat 'config/**/*.pem'", "deny"),
    ("cat deploy/*/id_*", "deny"),
    ("rm -rf src/*/.git", "deny"),
    ("npx prettier --write '.git/*/*.js'", "ask"),
]


@pytest.mark.parametrize(("command", "decision"), KEPT)
def test_a_folder_pattern_that_may_name_a_protected_place_or_a_secret_is_not_freed(
    verdict: Judge, command: str, decision: str
) -> None:
    result = verdict(command)
    assert result.decision == decision, result.pieces


def test_a_folder_holding_a_protected_place_keeps_the_doubt(pack: Policy) -> None:
    workspace = HOME / "src" / "calc"
    places = Places.of(
        workspace,
        home=HOME,
        protected=(workspace / "bundles" / "mine.yaml",),
        guard=(workspace / "tools" / "guard" / "pack.yaml",),
    )

    def decision(command: str) -> str | None:
        return judge({"tool_name": "bash", "tool_input": {"command": command}}, pack,
                     places).decision  # fmt: skip

    assert decision("npx prettier --write 'bundles/**/*.yaml'") == "ask"
    assert decision("npx prettier --write 'tools/*/*.yaml'") == "ask"
    assert decision("npx prettier --write 'docs/**/*.yaml'") is None


def test_a_link_on_the_way_to_the_folder_keeps_the_doubt(tmp_path: Path) -> None:
    # (placed by `fixed_folder`: the pack treats all of pytest's /tmp as scratch space)
    workspace, home = tmp_path / "ws", tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    (workspace / "src" / "app").mkdir(parents=True)
    os.symlink(home / ".claude", workspace / "cfg")
    os.symlink(home / ".claude", workspace / "src" / "app" / "cfg")
    known = Places.of(workspace, home=home).known
    real = known.workspace
    assert fixed_folder(f"{real}/src/**/*.ts", known) == f"{real}/src"
    assert fixed_folder(f"{real}/src/new/more/*/*.ts", known) == f"{real}/src/new/more"
    assert fixed_folder(f"{real}/cfg/**/*.ts", known) is None
    assert fixed_folder(f"{real}/src/app/cfg/*/*.ts", known) is None


def test_a_workspace_holding_the_home_folder_places_no_folder_pattern() -> None:
    known = Places.of(HOME, home=HOME).known
    assert fixed_folder(f"{HOME}/src/**/*.ts", known) is None
    assert fixed_folder(f"{HOME}/Documents/*/Hooks/*.sh", known) is None


def test_fixed_folder_is_the_folder_before_the_first_pattern(places: Places) -> None:
    known = places.known
    workspace = known.workspace
    assert fixed_folder(f"{workspace}/src/**/*.ts", known) == f"{workspace}/src"
    assert fixed_folder(f"{workspace}/./src/app/*/x.py", known) == f"{workspace}/src/app"
    for path in (
        f"{workspace}/*/x.ts",  # the workspace's own top
        f"{workspace}/src/*/../x.ts",
        f"{workspace}/../*/x.ts",
        f"{workspace}/src/*/.git/config",
        f"{workspace}/src/*/*.pem",
        f"{workspace}/src/*/x\\*.ts",
        f"{HOME}/other/*/x.ts",  # outside the workspace
    ):
        assert fixed_folder(path, known) is None, path


@pytest.mark.parametrize(
    ("name", "plain"),
    [("*.ts", True), ("test_*.py", True), ("*.test.ts", True), ("index.ts", True),
     ("*", False), ("*.*", False), ("id_*", False), ("*.pem", False), ("*.key", False),
     ("*.bak", False), ("*.tmp", False), ("*.env", False), (".env*", False),
     ("*.json", False), ("opencode.jsonc", False), ("*.[jt]s", False), ("id_rsa", False)],
)  # fmt: skip
def test_a_plain_last_name_names_no_secret_and_no_host_file(name: str, plain: bool) -> None:
    assert plain_last_name(name) is plain
