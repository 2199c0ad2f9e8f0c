"""Event data in one line: what an event is about, and what its hooks changed."""

from __future__ import annotations

from amplifier_hooks.cli.event_text import SUMMARY_LIMIT, diff, summarize


def test_summaries_are_short_and_safe() -> None:
    assert summarize("tool:pre", {"tool_name": "bash", "tool_input": {"command": "ls -la"}}) == (
        "bash: ls -la"
    )
    assert summarize("tool:pre", {"tool_name": "grep", "tool_input": {"pattern": "x", "path": "."}})
    assert summarize("tool:pre", {"tool_name": "todo", "tool_input": {"todos": [{}, {}]}}) == (
        "todo: 2 items"
    )
    assert summarize("prompt:submit", {"prompt": "evil\x1b[2J"}) == "evil\\x1b[2J"
    assert summarize("provider:request", {"model": "m", "messages": [1, 2]}) == "m (2 messages)"
    assert summarize("custom:event", {"x": 1}) == ""
    assert len(summarize("prompt:submit", {"prompt": "x" * 500})) <= SUMMARY_LIMIT


def test_diff_shows_the_new_value_around_the_change() -> None:
    before = {"messages": [{"content": "a" * 200 + " key=sk-123 " + "b" * 200}], "timestamp": 1}
    after = {"messages": [{"content": "a" * 200 + " key=[REDACTED] " + "b" * 200}], "timestamp": 2}
    [change] = diff(before, after)
    assert change.path == "messages[0].content"
    assert "[REDACTED]" in change.after
    assert change.after.startswith("…") and change.after.endswith("…")
    assert [c.path for c in diff({"a": 1}, {"b": 2})] == ["b", "a"]
