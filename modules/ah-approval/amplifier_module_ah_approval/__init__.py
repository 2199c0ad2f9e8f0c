"""ah-approval: rules on tool name, command and path -> allow, deny, or ask the user.

Rules are tried in order and the first that matches decides: ``allow`` grants the call
(``HookResult(grant=True)``: a host with a permission prompt of its own runs it without
asking, unless another hook denies or asks), ``deny`` returns a deny with a reason,
``ask`` returns an ``ask_user`` with the rule's prompt and options for the approval gate.
With ``defaults`` on, two rules follow the user's: ask before shell tools, and ask before
writes that resolve outside the workspace. The handler is registered fail-closed: if it
ever breaks, the call is denied.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

from amplifier_hooks import HookResult, events
from amplifier_hooks.engine.options import HookOptions
from amplifier_hooks.logs import get_logger
from amplifier_hooks.modules import CoordinatorView, Mounts, inline
from amplifier_module_ah_approval.config import ApprovalConfig, Rule, default_rules, parse_config
from amplifier_module_ah_approval.matching import (
    Target,
    display,
    match_command,
    match_path,
    match_tool,
    resolve_workspace,
    target_of,
)

__all__ = [
    "HANDLER_NAME",
    "ApprovalConfig",
    "ApprovalRules",
    "Rule",
    "mount",
    "on_session_ready",
]

MODULE_ID = "ah-approval"
HANDLER_NAME = "approval_rules"
WORKSPACE_HANDLER = "approval_workspace"
WORKSPACE_PRIORITY = -10_000
"""The workspace is read from session:start before any other hook can deny or change it."""

logger = get_logger()

_mounts = Mounts()


class ApprovalRules:
    """The ordered rules and the handler that applies the first match."""

    def __init__(self, config: ApprovalConfig) -> None:
        self.config = config
        self.rules: tuple[Rule, ...] = (
            *config.rules,
            *(default_rules(config) if config.defaults else ()),
        )
        self._session_workspace: str | None = None

    @property
    def workspace(self) -> Path:
        """Configured workspace, else the session's, else the current directory."""
        return resolve_workspace(self.config.workspace or self._session_workspace)

    def event_patterns(self) -> list[str]:
        return sorted({rule.event for rule in self.rules})

    def observe_session(self, event: str, data: dict[str, Any]) -> None:
        """session:start / session:resume handler: remember the session's workspace."""
        workspace = data.get("workspace")
        if isinstance(workspace, str) and workspace.strip():
            self._session_workspace = workspace

    @inline  # bounded work on its input: no thread hop (engine.offload)
    def handle(self, event: str, data: dict[str, Any]) -> HookResult | None:
        """The hook handler: the first matching rule's result, or None."""
        target = target_of(event, data, self.workspace)
        for index, rule in enumerate(self.rules):
            if self.matches(rule, target):
                return self.result(rule, index, target)
        return None

    def matches(self, rule: Rule, target: Target) -> bool:
        """Every criterion the rule gives must hold; absent criteria match anything."""
        if not fnmatchcase(target.event, rule.event):
            return False
        if rule.tool is not None and not match_tool(rule.tool, target.tool):
            return False
        allowing = rule.decision == "allow"
        if rule.command is not None and not match_command(
            rule.command, target.command, allowing=allowing
        ):
            return False
        if rule.path is not None and not match_path(rule.path, target, allowing=allowing):
            return False
        return rule.outside_workspace is None or target.outside_workspace is rule.outside_workspace

    def result(self, rule: Rule, index: int, target: Target) -> HookResult | None:
        label = rule.name or f"rules[{index}]"
        shown = {
            "tool": display(target.tool),
            "command": display(target.command),
            "path": display(target.display_path()),
            "event": target.event,
            "workspace": display(str(target.workspace)),
            "rule": label,
        }
        what = target.command or target.display_path() or target.tool or target.event
        reason = (
            rule.reason.format_map(shown)
            if rule.reason
            else f"approval rule {label} matched {display(what)}"
        )
        if rule.decision == "allow":
            # A grant, not "no opinion": a host with its own permission prompt (Claude
            # Code) runs what the bundle allows instead of asking again. Any deny or
            # question in the same emit still wins over it.
            return HookResult(grant=True, reason=f"{reason} (ah-approval rule {label})")
        if rule.decision == "deny":
            return HookResult(action="deny", reason=f"{reason} (ah-approval rule {label})")
        raw = {
            "tool": target.tool or "",
            "command": target.command or "",
            "path": target.display_path(),
            "event": target.event,
            "workspace": str(target.workspace),
            "rule": label,
        }
        key = (
            rule.approval_key.format_map(raw)
            if rule.approval_key
            else f"{label}:{raw['tool']}:{raw['command'] or raw['path']}"
        )
        prompt = (
            rule.prompt.format_map(shown)
            if rule.prompt
            else f"Allow {shown['tool'] or target.event}: {display(what)}?"
        )
        return HookResult(
            action="ask_user",
            approval_prompt=prompt,
            approval_options=rule.options,
            approval_timeout=rule.timeout or self.config.approval_timeout,
            approval_default=rule.default or "deny",
            reason=reason,
            data={"approval_key": f"{HANDLER_NAME}:{key}"},
        )


async def mount(
    coordinator: CoordinatorView, config: Mapping[str, Any] | None = None
) -> Callable[[], None]:
    """Validate ``config`` and register the rules on every event a rule names."""
    settings = parse_config(config)
    rules = ApprovalRules(settings)
    if not rules.rules:
        logger.warning("ah-approval mounted without rules (defaults off, none configured)")
    with _mounts.start(coordinator, MODULE_ID) as mounting:
        await mounting.subscribe(
            rules.handle,
            HookOptions(priority=settings.priority, name=HANDLER_NAME, fail_closed=True),
            include=rules.event_patterns(),
        )
        for event in (events.SESSION_START, events.SESSION_RESUME):
            mounting.register(
                event, rules.observe_session, WORKSPACE_PRIORITY, name=WORKSPACE_HANDLER
            )
    return mounting.cleanup


async def on_session_ready(coordinator: CoordinatorView) -> None:
    """Cover contributed events that a rule's event glob matches."""
    await _mounts.refresh(coordinator)
