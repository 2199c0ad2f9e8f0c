"""A missing tool skips a test on a developer's machine and fails it under ``CI``; every
fixture of a real tool goes through that one helper."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.unavailable import agent_cli, unavailable

ROOT = Path(__file__).resolve().parents[1]


def test_without_ci_a_missing_tool_skips(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="no psql"):
        unavailable("no psql")


@pytest.mark.parametrize("value", ["true", "1"])
def test_under_ci_a_missing_tool_fails(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("CI", value)
    with pytest.raises(pytest.fail.Exception, match="CI is set and this test cannot run: no psql"):
        unavailable("no psql")


@pytest.mark.parametrize(
    "path",
    [
        "tests/shared_approvals/conftest.py",  # PostgreSQL
        "tests/claude_code/conftest.py",  # Claude Code
        "tests/codex/conftest.py",  # Codex
        "tests/gemini_cli/conftest.py",  # Gemini CLI
        "tests/copilot_cli/conftest.py",  # Copilot CLI
        "tests/shared_approvals/browser.py",  # Chromium
        "tests/amplifier/test_foreign_results.py",  # amplifier-core 2.x
        "tests/test_layers.py",  # lint-imports
    ],
)
def test_each_real_tool_fixture_uses_the_helper_and_never_skips_by_itself(path: str) -> None:
    text = (ROOT / path).read_text(encoding="utf-8")
    assert "unavailable(" in text or "agent_cli(" in text  # agent_cli calls unavailable
    assert not re.search(r"pytest\.skip\(|mark\.skipif\(", text)


def test_a_missing_agent_cli_names_where_it_was_looked_for_and_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception) as failure:
        agent_cli("No Such CLI", "no-such-cli", "nosuch")
    message = str(failure.value)
    assert ".cache/no-such-cli/node_modules/.bin/nosuch" in message
    assert "No Such CLI is not installed" in message
    assert "(run `make no-such-cli`)" in message
