"""Register handlers in code, emit a few events, print each resolution.

Run with ``make run`` (or ``.venv/bin/python examples/registry_demo.py``).
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from amplifier_hooks import HookRegistry, HookResult, Resolution, configure_logging, events, hook

console = Console()


@hook(events.TOOL_PRE, priority=0)
async def block_rm_rf(event: str, data: dict[str, Any]) -> HookResult | None:
    """Policy guard: never let the agent wipe a tree."""
    command = str(data.get("tool_input", {}).get("command", ""))
    if "rm -rf" in command:
        return HookResult(action="deny", reason=f"refusing destructive command: {command}")
    return None


@hook(events.TOOL_PRE, priority=5)
async def ask_before_shell(event: str, data: dict[str, Any]) -> HookResult | None:
    """Shell commands need a person's approval."""
    if data.get("tool_name") == "bash":
        command = data["tool_input"]["command"]
        return HookResult(
            action="ask_user",
            approval_prompt=f"Run shell command `{command}`?",
            approval_options=["Allow once", "Allow always", "Deny"],
            approval_timeout=60,
        )
    return None


@hook(events.TOOL_PRE, priority=10)
async def pin_encoding(event: str, data: dict[str, Any]) -> HookResult | None:
    """Rewrite file writes to always say which encoding they use."""
    if data.get("tool_name") == "write_file":
        tool_input = {**data["tool_input"], "encoding": "utf-8"}
        return HookResult(action="modify", data={**data, "tool_input": tool_input})
    return None


@hook(events.TOOL_POST, priority=10)
async def lint_feedback(event: str, data: dict[str, Any]) -> HookResult | None:
    """After a write, tell the model what the (pretend) linter found."""
    if data.get("tool_name") == "write_file" and "print(" in data.get("content", ""):
        return HookResult(
            action="inject_context",
            context_injection=f"Linter: {data['path']} uses print(); prefer logging.",
            user_message=f"lint issues in {data['path']}",
            user_message_level="warning",
        )
    return None


@hook(events.TOOL_POST, priority=20)
async def flaky_metrics(event: str, data: dict[str, Any]) -> HookResult | None:
    """A broken hook: it raises, and the agent carries on (fail open)."""
    raise ConnectionError("metrics backend unreachable")


EMITS: list[tuple[str, dict[str, Any]]] = [
    (events.TOOL_PRE, {"tool_name": "read_file", "tool_input": {"path": "README.md"}}),
    (events.TOOL_PRE, {"tool_name": "write_file", "tool_input": {"path": "app.py"}}),
    (events.TOOL_PRE, {"tool_name": "bash", "tool_input": {"command": "pytest -q"}}),
    (events.TOOL_PRE, {"tool_name": "bash", "tool_input": {"command": "rm -rf /"}}),
    (events.TOOL_POST, {"tool_name": "write_file", "path": "app.py", "content": "print(1)"}),
]


def show(event: str, resolution: Resolution) -> None:
    table = Table(title=f"{event}  →  {resolution.action}", title_justify="left")
    table.add_column("handler")
    table.add_column("priority", justify="right")
    table.add_column("action")
    table.add_column("µs", justify="right")
    for step in resolution.trace:
        action = step.action if step.failure is None else f"{step.action} (failed: {step.failure})"
        table.add_row(step.handler, str(step.priority), action, f"{step.duration * 1e6:.0f}")
    console.print(table)
    if resolution.reason:
        console.print(f"  reason: {resolution.reason} (by {resolution.denied_by})")
    for ask in resolution.approvals:
        console.print(escape(f"  approval asked by {ask.source}: {ask.prompt} {ask.options}"))
    for injection in resolution.injections:
        console.print(
            escape(f"  inject [{injection.role}] from {injection.source}: {injection.text}")
        )
    for message in resolution.messages:
        console.print(f"  message ({message.level}) from {message.source}: {message.text}")
    console.print(escape(f"  data: {resolution.data}\n"))


async def main() -> int:
    configure_logging("console", level="warning", stream=sys.stdout)
    registry = HookRegistry()
    registry.register_all(sys.modules[__name__])
    registry.set_default_fields(session_id="demo-session")
    console.print(f"handlers: {registry.list_handlers()}\n")
    for event, data in EMITS:
        show(event, await registry.emit(event, data))
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
