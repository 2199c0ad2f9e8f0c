"""`default_provider`: the provider a program gets when it does not pick one.

``auto``: a person at a terminal gets the Textual screen; anything else (CI, a service, a
pipe) gets the policy provider, which denies whatever its rules do not allow. Nobody is
ever asked on a terminal that no one is looking at. Behind an agent CLI host, ``auto``
asks the host's prompt, the queue or nobody instead (`AutoApprovalProvider`).

Each provider's module is imported only when it is chosen: a headless run never imports
Textual.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Literal, TextIO

from amplifier_hooks.approvals.auto import ApproverSetting, AutoApprovalProvider
from amplifier_hooks.approvals.models import AllowOrDeny, ApprovalProvider
from amplifier_hooks.approvals.policy import PolicyApprovalProvider, PolicyRule
from amplifier_hooks.approvals.store import StoreTarget

__all__ = ["default_provider"]

if TYPE_CHECKING:
    from textual.app import App

ProviderKind = Literal["auto", "textual", "console", "policy", "queue", "host"]

GUARD_SECONDS = 0.3


def _is_tty(stream: TextIO | None) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def default_provider(
    kind: ProviderKind = "auto",
    *,
    app: App[Any] | None = None,
    rules: Iterable[PolicyRule | Mapping[str, Any]] = (),
    policy_default: AllowOrDeny = "deny",
    guard: float = GUARD_SECONDS,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    store: StoreTarget = None,
    approver: ApproverSetting = "auto",
) -> ApprovalProvider:
    """The provider for ``kind``; ``"auto"`` is an `AutoApprovalProvider` whose local
    provider is Textual when both stdin and stdout are terminals, else policy (``rules``
    also answer what they match behind a host; ``approver`` says whether an approver
    watches the queue there). ``app`` binds the Textual provider to a running app;
    ``store`` is the shared store the ``"queue"`` provider puts its requests in (None:
    the store of the gate it is installed on, so the queue, remembered answers and the
    audit are in one store)."""
    if kind == "auto":
        rules = list(rules)
        terminal = _is_tty(stdin or sys.stdin) and _is_tty(stdout or sys.stdout)
        local = default_provider(
            "textual" if terminal else "policy",
            app=app,
            rules=rules,
            policy_default=policy_default,
            guard=guard,
        )
        policy = PolicyApprovalProvider(rules, default=policy_default) if rules else None
        return AutoApprovalProvider(local, policy=policy, approver=approver)
    if kind == "textual":
        # Imported here so that headless programs never pay for importing Textual.
        from amplifier_hooks.ui.approval_app import TextualApprovalProvider

        return TextualApprovalProvider(app, guard=guard)
    if kind == "console":
        from amplifier_hooks.ui.console import ConsoleApprovalProvider

        return ConsoleApprovalProvider(guard=guard)
    if kind == "policy":
        return PolicyApprovalProvider(rules, default=policy_default)
    if kind == "queue":
        from amplifier_hooks.approvals.queue import GATE_STORE, QueueApprovalProvider

        return QueueApprovalProvider(GATE_STORE if store is None else store)
    if kind == "host":
        from amplifier_hooks.approvals.host_prompt import HostApprovalProvider

        return HostApprovalProvider()
    raise ValueError(
        f"unknown approval provider kind {kind!r}: "
        "expected auto, textual, console, policy, queue or host"
    )
