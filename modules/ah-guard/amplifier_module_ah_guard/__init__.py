"""ah-guard: judge every tool call by what it does, with the guard's rule pack.

A ``tool:pre`` handler asks `amplifier_hooks.guard.judge` and turns its verdict into a
result: deny -> ``deny``; ask -> ``ask_user`` (the approval gate asks); allow -> a
continue that grants the call; no opinion -> None. Every reason names its rule. The
capability ``guard.explain`` returns the `Verdict` for a ``tool:pre`` event's data (what
``amplifier-hooks test`` shows). Registered fail-closed: a broken guard denies.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from amplifier_hooks import events
from amplifier_hooks.modules import CoordinatorView, Mounting
from amplifier_module_ah_guard.config import GuardConfig, parse_config
from amplifier_module_ah_guard.hook import EXPLAIN_CAPABILITY, GuardHook

__all__ = [
    "EXPLAIN_CAPABILITY",
    "HANDLER_NAME",
    "MODULE_ID",
    "GuardConfig",
    "GuardHook",
    "mount",
]

MODULE_ID = "ah-guard"
HANDLER_NAME = "guard"
WORKSPACE_HANDLER = "guard_workspace"
WORKSPACE_PRIORITY = -10_000
"""The workspace is read from session:start before any other hook can deny or change it."""


async def mount(
    coordinator: CoordinatorView, config: Mapping[str, Any] | None = None
) -> Callable[[], None]:
    """Validate ``config``, compile the rules, and register the ``tool:pre`` handler and
    the ``guard.explain`` capability."""
    settings = parse_config(config)
    guard = GuardHook(settings, coordinator)
    with Mounting(coordinator, MODULE_ID) as mounting:
        mounting.register(
            events.TOOL_PRE,
            guard.handle,
            settings.priority,
            name=HANDLER_NAME,
            fail_closed=True,
        )
        for event in (events.SESSION_START, events.SESSION_RESUME):
            mounting.register(
                event, guard.observe_session, WORKSPACE_PRIORITY, name=WORKSPACE_HANDLER
            )
        mounting.offer(EXPLAIN_CAPABILITY, guard.explain)
    return mounting.cleanup
