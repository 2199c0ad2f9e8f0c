"""ah-progress-monitor: escalating nudges on read-only streaks."""

from __future__ import annotations

from typing import Any

import pytest
from amplifier_module_ah_progress_monitor import mount

from amplifier_hooks.session.coordinator import Coordinator


async def mounted(config: dict[str, Any] | None = None) -> tuple[Coordinator, Any]:
    coord = Coordinator()
    cleanup = await mount(coord, config)
    return coord, cleanup


async def call(coord: Coordinator, tool: str) -> list[dict[str, Any]]:
    """Dispatch one tool:post and return the ephemeral messages it produced."""
    outcome = await coord.dispatch("tool:post", {"tool_name": tool, "tool_input": {}})
    assert outcome.allowed
    assert outcome.injected == []  # the monitor never persists anything
    return outcome.ephemeral


def texts(messages: list[dict[str, Any]]) -> list[str]:
    return [m["content"] for m in messages]


async def test_notes_escalate_once_per_threshold() -> None:
    coord, _ = await mounted({"thresholds": [3, 5, 7]})
    fired: dict[int, list[dict[str, Any]]] = {}
    for n in range(1, 11):
        produced = await call(coord, "read_file" if n % 2 else "grep")
        if produced:
            fired[n] = produced
    assert sorted(fired) == [3, 5, 7]
    gentle, firm, urgent = (texts(fired[n])[0] for n in (3, 5, 7))
    assert "3 tool calls" in gentle and "Progress note" in gentle
    assert "5 read-only" in firm and "Stop" in firm
    assert urgent.startswith("URGENT: 7 consecutive")
    for n in (3, 5, 7):
        (message,) = fired[n]
        assert message["role"] == "system"


async def test_a_write_ends_the_streak_and_rearms_thresholds() -> None:
    coord, _ = await mounted({"thresholds": [3, 4]})
    assert [bool(await call(coord, "read_file")) for _ in range(3)] == [False, False, True]
    assert await call(coord, "edit_file") == []
    # After the write the count starts again from zero and threshold 3 fires a second time.
    results = [bool(await call(coord, "glob")) for _ in range(4)]
    assert results == [False, False, True, True]


async def test_bash_counts_as_action_by_default_and_that_is_configurable() -> None:
    coord, _ = await mounted({"thresholds": [2]})
    await call(coord, "read_file")
    await call(coord, "bash")
    assert await call(coord, "read_file") == []  # bash reset the streak

    coord, _ = await mounted({"thresholds": [2], "write_tools": ["write_file", "edit_file"]})
    await call(coord, "read_file")
    await call(coord, "bash")  # now neither read nor write: ignored
    assert texts(await call(coord, "read_file"))


async def test_prompt_submit_starts_a_new_streak() -> None:
    coord, _ = await mounted({"thresholds": [3]})
    await call(coord, "read_file")
    await call(coord, "read_file")
    await coord.dispatch("prompt:submit", {"prompt": "next question"})
    assert await call(coord, "read_file") == []
    assert await call(coord, "read_file") == []
    assert texts(await call(coord, "read_file"))


async def test_neutral_tools_neither_count_nor_reset() -> None:
    coord, _ = await mounted({"thresholds": [2]})
    await call(coord, "read_file")
    assert await call(coord, "todo") == []
    assert texts(await call(coord, "grep"))


async def test_user_message_only_at_the_last_level() -> None:
    coord, _ = await mounted(
        {"thresholds": [1, 2], "user_message": "agent read {count} times without acting"}
    )
    first = await coord.dispatch("tool:post", {"tool_name": "grep"})
    second = await coord.dispatch("tool:post", {"tool_name": "grep"})
    assert first.messages == []
    (message,) = second.messages
    assert message.text == "agent read 2 times without acting"
    assert message.level == "warning"
    assert message.source == "progress-monitor:tool-post"


async def test_custom_messages_patterns_and_role() -> None:
    coord, _ = await mounted(
        {
            "thresholds": [2],
            "messages": ["{count} reads, {{no}} writes"],
            "read_tools": ["mcp__*__read*"],
            "role": "user",
        }
    )
    await call(coord, "mcp__fs__read_text")
    (message,) = await call(coord, "mcp__git__read_log")
    assert message["content"] == "2 reads, {no} writes"
    assert message["role"] == "user"


async def test_resolution_fields_and_payload_tolerance() -> None:
    coord, _ = await mounted({"thresholds": [1]})
    assert (await coord.hooks.emit("tool:post", {})).action == "continue"  # no tool_name
    assert (await coord.hooks.emit("tool:post", {"tool_name": 42})).action == "continue"
    resolution = await coord.hooks.emit("tool:post", {"tool_name": "read_file"})
    assert resolution.action == "inject_context"
    (injection,) = resolution.injections
    assert injection.ephemeral and injection.role == "system"
    assert injection.source == "progress-monitor:tool-post"


async def test_status_channel_and_cleanup() -> None:
    coord, cleanup = await mounted({"thresholds": [2, 3]})
    for tool in ("read_file", "read_file", "write_file", "grep"):
        await call(coord, tool)
    assert await coord.collect_contributions("progress.status") == [
        {"reads_in_a_row": 1, "level": 0, "levels": 2, "reads": 3, "writes": 1, "nudges": 1}
    ]
    assert coord.hooks.list_handlers() == {
        "prompt:submit": ["progress-monitor:reset"],
        "tool:post": ["progress-monitor:tool-post"],
    }
    cleanup()
    assert coord.hooks.list_handlers() == {}
    assert await coord.collect_contributions("progress.status") == []


@pytest.mark.parametrize(
    ("config", "fragment"),
    [
        ({"thresholds": [10, 10]}, "strictly increasing"),
        ({"thresholds": [0, 5]}, "positive"),
        ({"thresholds": []}, "at least one threshold"),
        ({"thresholds": [1, 2], "messages": ["only one"]}, "one message per threshold"),
        ({"messages": ["{oops}", "b", "c"]}, "only the placeholder {count}"),
        ({"read_tools": ["bash"]}, "both read and write"),
        ({"treshold": [1]}, "treshold: Extra inputs are not permitted"),
        ({"reset_events": ["Prompt Submit"]}, "invalid event name"),
        ({"role": "robot"}, "role"),
    ],
)
async def test_bad_config_is_a_clear_value_error(config: dict[str, Any], fragment: str) -> None:
    with pytest.raises(ValueError, match="invalid ah-progress-monitor config") as info:
        await mount(Coordinator(), config)
    assert fragment in str(info.value)


async def test_empty_config_uses_defaults() -> None:
    coord, _ = await mounted(None)
    produced = [n for n in range(1, 31) if await call(coord, "read_file")]
    assert produced == [10, 20, 30]


def test_tools_in_both_lists_are_refused_every_time_not_only_the_first() -> None:
    """The read/write overlap is worked out once per pair of lists: the same bad config
    is refused again, and a good one after it passes."""
    from amplifier_module_ah_progress_monitor.config import parse_config

    for _ in range(3):
        with pytest.raises(ValueError, match=r"both read and write: \['bash'\]"):
            parse_config({"read_tools": ["grep", "bash"]})
        assert parse_config({"read_tools": ["grep"]}).read_tools == ["grep"]
    with pytest.raises(ValueError, match=r"both read and write: \['shell_x'\]"):
        parse_config({"read_tools": ["shell_x"], "write_tools": ["shell_*"]})
