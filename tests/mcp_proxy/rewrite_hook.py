"""Test fixture: a hook module (one file) that rewrites a write's content before the
server sees it, and adds a note to every read's result."""

from __future__ import annotations

from typing import Any

from amplifier_hooks import HookResult


async def stamp_writes(event: str, data: dict[str, Any]) -> HookResult | None:
    if not str(data.get("tool_name", "")).endswith("__write_file"):
        return None
    inputs = dict(data["tool_input"])
    inputs["content"] = "# checked by amplifier-hooks\n" + str(inputs.get("content", ""))
    return HookResult(action="modify", data={**data, "tool_input": inputs})


async def note_reads(event: str, data: dict[str, Any]) -> HookResult | None:
    if not str(data.get("tool_name", "")).endswith("__read_text_file"):
        return None
    return HookResult(
        action="inject_context", context_injection="NOTE: this file is generated; do not edit"
    )


def mount(coordinator: Any, config: dict[str, Any] | None) -> None:
    coordinator.hooks.register("tool:pre", stamp_writes, name="stamp_writes")
    coordinator.hooks.register("tool:post", note_reads, name="note_reads")
