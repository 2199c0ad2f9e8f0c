"""find changing what it finds in an agent's settings folder: the files are named by a
pattern, not a path, so the hook settings among them are matched by the kind of name."""

from __future__ import annotations

import pytest

from tests.guard.conftest import Judge

DENIED = [
    "find ~/.claude -maxdepth 1 -name 'settings*.json' -exec truncate -s0 {} +",
    "find $HOME/.codex -name hooks.json -exec sed -i 's/ah-guard/true/' {} ';'",
    "find .gemini -iname '*.JSON' -execdir rm {} +",
    "find .github/hooks -name '*.json' -delete",
    "find ~/.claude -name 'settings.local.json' -fprint ~/.claude/settings.json",
]

FREE = [
    "find .claude -name 'settings*.json' -exec cat {} +",
    "find .claude/commands -name '*.md' -exec sed -i 's/old/new/' {} +",
    "find . -name '*.json' -exec jq . {} +",
]


@pytest.mark.parametrize("command", DENIED)
def test_find_changing_an_agents_settings_files_is_denied(verdict: Judge, command: str) -> None:
    assert verdict(command).decision == "deny", verdict(command).pieces


@pytest.mark.parametrize("command", FREE)
def test_find_reading_them_or_changing_other_files_is_not_stopped(
    verdict: Judge, command: str
) -> None:
    assert verdict(command).decision not in ("ask", "deny"), verdict(command).pieces
