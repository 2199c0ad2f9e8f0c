"""ah-todo-reminder: the todo tool's list, shown ephemerally before each LLM call."""

from __future__ import annotations

from typing import Any

import pytest
from amplifier_module_ah_todo_reminder import mount, parse_todos, render

from amplifier_hooks.session.coordinator import Coordinator

PLAN = [
    {"content": "Read the parser", "status": "completed"},
    {"content": "Fix the off-by-one", "status": "in_progress"},
    {"content": "Add a regression test", "status": "pending"},
]


async def mounted(config: dict[str, Any] | None = None) -> tuple[Coordinator, Any]:
    coord = Coordinator()
    cleanup = await mount(coord, config)
    return coord, cleanup


async def todo(coord: Coordinator, todos: Any, tool: str = "todo") -> None:
    outcome = await coord.dispatch(
        "tool:post", {"tool_name": tool, "tool_input": {"todos": todos}, "tool_result": "ok"}
    )
    assert outcome.allowed and outcome.ephemeral == [] and outcome.injected == []


async def reminder(coord: Coordinator) -> list[str]:
    """The ephemeral texts a provider:request gets (nothing is ever persisted)."""
    outcome = await coord.dispatch("provider:request", {"messages": [], "model": "m"})
    assert outcome.injected == []
    return [m["content"] for m in outcome.ephemeral]


async def test_the_latest_list_is_injected_ephemerally_on_each_request() -> None:
    coord, _ = await mounted()
    assert await reminder(coord) == []  # nothing planned yet
    await todo(coord, PLAN)
    expected = (
        "Current todo list (keep it up to date with the todo tool) "
        "(3 items: 1 completed, 1 in progress, 1 pending)\n"
        "[x] Read the parser\n"
        "[~] Fix the off-by-one\n"
        "[ ] Add a regression test"
    )
    assert await reminder(coord) == [expected]
    assert await reminder(coord) == [expected]  # every LLM call, not only the first

    outcome = await coord.dispatch("provider:request", {"messages": []})
    (message,) = outcome.ephemeral
    assert message["role"] == "system"
    assert message["metadata"]["source"] == "todo-reminder:inject"
    assert message["metadata"]["ephemeral"] is True


async def test_a_new_call_replaces_the_list_and_other_tools_are_ignored() -> None:
    coord, _ = await mounted()
    await todo(coord, PLAN)
    await todo(coord, [{"content": "Only this", "status": "pending"}])
    await coord.dispatch("tool:post", {"tool_name": "read_file", "tool_input": {"todos": []}})
    (text,) = await reminder(coord)
    assert text.endswith("(1 item: 0 completed, 0 in progress, 1 pending)\n[ ] Only this")


async def test_empty_or_finished_lists_are_not_injected_unless_configured() -> None:
    done = [{"content": "All of it", "status": "completed"}]
    coord, _ = await mounted()
    await todo(coord, done)
    assert await reminder(coord) == []
    await todo(coord, [])
    assert await reminder(coord) == []

    coord, _ = await mounted({"skip_when_all_complete": False})
    await todo(coord, done)
    (text,) = await reminder(coord)
    assert "[x] All of it" in text


async def test_malformed_input_keeps_the_previous_list_and_logs(
    logs: list[dict[str, Any]],
) -> None:
    coord, _ = await mounted()
    await todo(coord, PLAN)
    await todo(coord, "not a list")
    await coord.dispatch("tool:post", {"tool_name": "todo"})  # no tool_input at all
    (text,) = await reminder(coord)
    assert "[~] Fix the off-by-one" in text
    ignored = [r for r in logs if r["event"] == "todo list ignored"]
    assert len(ignored) == 2 and "todos must be a list, got str" in ignored[0]["error"]


async def test_bad_items_are_skipped_and_status_spellings_normalised(
    logs: list[dict[str, Any]],
) -> None:
    coord, _ = await mounted()
    await todo(
        coord,
        [
            {"content": "  spaced\n  out  ", "status": "In-Progress", "activeForm": "x"},
            {"content": "finished", "status": "done"},
            {"content": "", "status": "pending"},
            {"status": "pending"},
            "just a string",
            {"content": "weird", "status": "blocked"},
            {"content": "no status"},
        ],
    )
    (text,) = await reminder(coord)
    assert text.splitlines()[1:] == ["[~] spaced out", "[x] finished", "[ ] no status"]
    (record,) = [r for r in logs if r["event"] == "todo items skipped"]
    assert record["problems"] == [
        "item 2: missing or empty 'content'",
        "item 3: missing or empty 'content'",
        "item 4: expected an object, got str",
        "item 5: unknown status 'blocked' (use pending, in_progress or completed)",
    ]


async def test_channel_and_custom_events() -> None:
    coord, _ = await mounted()
    updates: list[dict[str, Any]] = []
    completed: list[str] = []

    async def on_update(event: str, data: dict[str, Any]) -> None:
        updates.append(data)

    async def on_completed(event: str, data: dict[str, Any]) -> None:
        completed.append(data["content"])

    coord.hooks.register("todo:updated", on_update)
    coord.hooks.register("todo:item_completed", on_completed)

    assert await coord.collect_contributions("todo.items") == [[]]
    await todo(coord, PLAN)
    assert await coord.collect_contributions("todo.items") == [PLAN]
    assert updates[-1]["todos"] == PLAN
    assert updates[-1]["counts"] == {"pending": 1, "in_progress": 1, "completed": 1}
    assert completed == ["Read the parser"]

    # The same item completed again is not announced twice; a newly completed one is.
    finished = [dict(item, status="completed") for item in PLAN]
    await todo(coord, finished)
    assert completed == ["Read the parser", "Fix the off-by-one", "Add a regression test"]
    assert len(updates) == 2

    known = await coord.known_events()
    assert "todo:updated" in known and "todo:item_completed" in known


async def test_events_can_be_switched_off() -> None:
    coord, _ = await mounted({"emit_events": False, "channel": None})
    seen: list[str] = []
    coord.hooks.register("todo:updated", lambda event, data: seen.append(event))
    await todo(coord, PLAN)
    assert seen == []
    assert "todo:updated" not in await coord.known_events()
    assert await coord.collect_contributions("todo.items") == []


async def test_session_start_clears_the_list() -> None:
    coord, _ = await mounted()
    await todo(coord, PLAN)
    await coord.dispatch("session:start", {"session_id": "s2", "workspace": "/tmp"})
    assert await reminder(coord) == []


async def test_custom_tool_names_role_and_header() -> None:
    coord, _ = await mounted(
        {"tool_names": ["TodoWrite", "todo"], "role": "user", "header": "Plan", "priority": 5}
    )
    await todo(coord, PLAN[1:], tool="TodoWrite")
    outcome = await coord.dispatch("provider:request", {})
    (message,) = outcome.ephemeral
    assert message["role"] == "user"
    assert message["content"].startswith("Plan (2 items:")


def test_render_cuts_long_lists_keeping_unfinished_items() -> None:
    items, problems = parse_todos(
        [{"content": f"done {n}", "status": "completed"} for n in range(3)]
        + [{"content": f"open {n}", "status": "pending"} for n in range(3)]
    )
    assert problems == []
    lines = render(items, "Todo", max_items=4).splitlines()
    assert lines[1:] == ["[x] done 0", "[ ] open 0", "[ ] open 1", "[ ] open 2", "... and 2 more"]


async def test_cleanup_removes_handlers_and_contributors() -> None:
    coord, cleanup = await mounted()
    assert coord.hooks.list_handlers() == {
        "provider:request": ["todo-reminder:inject"],
        "session:start": ["todo-reminder:reset"],
        "tool:post": ["todo-reminder:track"],
    }
    cleanup()
    assert coord.hooks.list_handlers() == {}
    assert await coord.collect_contributions("todo.items") == []
    assert "todo:updated" not in await coord.known_events()


@pytest.mark.parametrize(
    ("config", "fragment"),
    [
        ({"tool_names": []}, "tool_names: List should have at least 1 item"),
        ({"inject_on": ["provider request"]}, "invalid event name"),
        ({"max_items": 0}, "max_items: Input should be greater than or equal to 1"),
        ({"header": "  "}, "header must not be blank"),
        ({"channel": " x"}, "channel must be a non-empty name"),
        ({"colour": "red"}, "colour: Extra inputs are not permitted"),
    ],
)
async def test_bad_config_is_a_clear_value_error(config: dict[str, Any], fragment: str) -> None:
    with pytest.raises(ValueError, match="invalid ah-todo-reminder config") as info:
        await mount(Coordinator(), config)
    assert fragment in str(info.value)
