"""ah-shell: run external command hooks, compatible with Claude Code hook scripts.

Each configured hook runs its command (``/bin/sh -c``) when its event fires and its matcher
matches the tool name, passes the event as JSON on stdin, and maps the exit code and JSON
answer to a `HookResult`. Timeouts and failures follow the hook's ``fail_closed`` setting.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from amplifier_hooks import events
from amplifier_hooks.modules import CoordinatorView, Mounting
from amplifier_module_ah_shell.answer import AnswerError, from_json, interpret
from amplifier_module_ah_shell.config import ShellConfig, ShellHookSpec, parse_config
from amplifier_module_ah_shell.handler import SessionInfo, ShellHook, ShellHookError
from amplifier_module_ah_shell.payload import CLAUDE_EVENT_NAMES, build_payload
from amplifier_module_ah_shell.runner import CommandError, CommandTimeout, run_command

__all__ = [
    "CLAUDE_EVENT_NAMES",
    "MODULE_ID",
    "REGISTRY_GRACE",
    "AnswerError",
    "CommandError",
    "CommandTimeout",
    "ShellConfig",
    "ShellHook",
    "ShellHookError",
    "ShellHookSpec",
    "build_payload",
    "from_json",
    "interpret",
    "mount",
    "run_command",
]

MODULE_ID = "ah-shell"

REGISTRY_GRACE = 2.0
"""Seconds added to a command's timeout for its registry timeout: the module's own timeout
must fire first, because only it kills the process group and reports what happened."""

SESSION_HANDLER = "shell:session-info"


async def mount(
    coordinator: CoordinatorView, config: Mapping[str, Any] | None = None
) -> Callable[[], None]:
    """Validate ``config``, register one handler per configured hook, and return the
    cleanup that removes them.

    Handler names: each hook's ``name``, else ``shell:<index>:<program>``; plus
    ``shell:session-info`` on session:start, which remembers the session id and workspace
    for later events. In a replay (`amplifier_hooks.modules.side_effects_allowed` is False)
    the commands do not run: each handler says what it would have run instead.
    """
    settings = parse_config(config)
    with Mounting(coordinator, MODULE_ID) as mounting:
        if settings.hooks:
            session = SessionInfo()
            # Runs before any shell hook on session:start, so those already see the session.
            mounting.register(
                events.SESSION_START, session.on_session_start, -1_000_000, name=SESSION_HANDLER
            )
            for index, spec in enumerate(settings.hooks):
                name = spec.handler_name(index)
                mounting.register(
                    spec.event,
                    ShellHook(spec, name, settings, session, coordinator=coordinator),
                    spec.priority,
                    name=name,
                    timeout=spec.timeout + REGISTRY_GRACE,
                    fail_closed=spec.fail_closed,
                )
    return mounting.cleanup
