"""`Outcome`: what the agent should do after `Coordinator.dispatch`.

A record of its own because more than the coordinator reads it: observers receive one per
dispatch, the CLI's replay describes them, and modules' tests assert on them. Its public
path stays `amplifier_hooks.session.coordinator` (and the top level), which re-export it.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from amplifier_hooks.approvals import ApprovalDecision, ApprovalDeferral
from amplifier_hooks.engine.resolution import Grant, Resolution, UserMessage
from amplifier_hooks.engine.result import Action
from amplifier_hooks.injection import AuditRecord

__all__ = ["Outcome"]


class _OutcomeFields(NamedTuple):
    allowed: bool
    action: Action
    data: dict[str, Any]
    reason: str | None
    denied_by: str | None
    approvals: list[ApprovalDecision]
    injected: list[dict[str, Any]]
    """Persisted injection messages, as sent to the context sink."""
    ephemeral: list[dict[str, Any]]
    """Injection messages for the current LLM call only."""
    dropped: list[AuditRecord]
    """Injections refused by the injector (over a limit, refused role, sink failure)."""
    messages: list[UserMessage]
    suppress_output: bool
    resolution: Resolution | None
    deferred: ApprovalDeferral | None
    """The question left to the host's own prompt (approval provider ``host``): the
    call is not allowed here, and not denied either -- the host asks its person."""


class Outcome(_OutcomeFields):
    """What the agent should do after `Coordinator.dispatch`.

    ``action`` is the resolution's action, except that it becomes ``"deny"`` when an
    approval was refused, and stays ``"ask_user"`` when the question was left to the
    host (``deferred``); ``allowed`` is the final decision (False for a deferred call:
    a caller that does not read ``deferred`` fails closed). ``data`` is the event data after
    every modify, whatever the decision.

    Immutable, so an observer cannot change the decision the agent acts on. Read its fields
    by name. (A named tuple, as it has always been, so code that unpacks one still works;
    the list fields default to fresh empty lists, which a named tuple's own defaults
    cannot give.)
    """

    __slots__ = ()

    def __new__(
        cls,
        allowed: bool,
        action: Action,
        data: dict[str, Any],
        reason: str | None = None,
        denied_by: str | None = None,
        approvals: list[ApprovalDecision] | None = None,
        injected: list[dict[str, Any]] | None = None,
        ephemeral: list[dict[str, Any]] | None = None,
        dropped: list[AuditRecord] | None = None,
        messages: list[UserMessage] | None = None,
        suppress_output: bool = False,
        resolution: Resolution | None = None,
        deferred: ApprovalDeferral | None = None,
    ) -> Outcome:
        return super().__new__(
            cls,
            allowed,
            action,
            data,
            reason,
            denied_by,
            [] if approvals is None else approvals,
            [] if injected is None else injected,
            [] if ephemeral is None else ephemeral,
            [] if dropped is None else dropped,
            [] if messages is None else messages,
            suppress_output,
            resolution,
            deferred,
        )

    @property
    def granted(self) -> Grant | None:
        """The explicit allow the dispatch carries (`Resolution.granted`), if it is allowed:
        what a host with a permission layer of its own receives as its allow."""
        resolution = self.resolution
        if not self.allowed or resolution is None:
            return None
        return resolution.granted
