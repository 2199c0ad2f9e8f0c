"""Deletes of what a tool makes again: a monorepo's per-package tool caches matched by a
pattern (`globplace.TOOL_CACHES`), one repository's snapshot in the Hugging Face hub's
cache, a sibling checkout's build output (asked, not denied: `rm-under-home`)."""

from __future__ import annotations

import pytest

from tests.guard.conftest import Judge


@pytest.mark.parametrize(
    "command",
    [
        "rm -rf packages/*/dist packages/*/.turbo",
        "rm -rf apps/*/.next packages/*/.pytest_cache",
        "rm -rf ~/.cache/huggingface/hub/models--bert-base-uncased",
        "rm -rf ~/.cache/huggingface/hub/datasets--imdb",
    ],
)
def test_what_a_tool_makes_again_is_deleted_freely(verdict: Judge, command: str) -> None:
    result = verdict(command)
    assert result.decision in (None, "allow"), result.pieces


@pytest.mark.parametrize(
    ("command", "decision", "rule"),
    [
        # a sibling checkout's build output: made again by its build, but not the workspace
        ("rm -rf ../other/build ../other/.pytest_cache", "ask", "rm-outside-workspace"),
        ("rm -rf ~/src/lib/node_modules", "ask", "rm-outside-workspace"),
        # the same checkout's sources, the home folder's own top names: still denied
        ("rm -rf ../other/src", "deny", "rm-under-home"),
        ("rm -rf ~/build", "deny", "rm-under-home"),
        # the hub cache's root holds the token; a pattern over every model is not one model
        ("rm -rf ~/.cache/huggingface", "ask", "rm-outside-workspace"),
        ("rm -rf ~/.cache/huggingface/hub/models--*", "ask", "rm-outside-workspace"),
    ],
)
def test_what_is_not_made_again_stays_stopped(
    verdict: Judge, command: str, decision: str, rule: str
) -> None:
    result = verdict(command)
    assert (result.decision, result.rule) == (decision, rule), result.pieces


@pytest.mark.parametrize(
    "command",
    ["rm -rf packages/*/.git", "rm -rf packages/*/.env", "rm -rf packages/*/.claude"],
)
def test_a_dot_name_that_is_no_tool_cache_keeps_the_pattern_unknown(
    verdict: Judge, command: str
) -> None:
    assert verdict(command).decision in ("ask", "deny")
