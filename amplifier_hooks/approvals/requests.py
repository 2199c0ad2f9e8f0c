"""From an ask_user result to the `ApprovalRequest` a person (or a policy) answers.

This is also where a remembered answer's scope is settled: by default an "always" covers
the request it answered (who asked, the prompt, the options, and the tool, command, path
or url) in the workspace it was asked in. A hook may widen it on purpose: an explicit
``approval_key`` shares one answer between requests, ``approval_scope: global`` makes it
apply in every workspace.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.approvals.models import ApprovalRequest, memory_key, summarize
from amplifier_hooks.approvals.store.records import GLOBAL
from amplifier_hooks.engine.resolution import ApprovalAsk
from amplifier_hooks.toolcalls import extract_fields

WORKSPACE_KEYS = ("workspace", "cwd")
"""Event data fields that say which workspace the agent works in."""


def current_workspace() -> str:
    """This process's working directory, resolved (the default workspace)."""
    try:
        return os.path.realpath(os.getcwd())
    except OSError:  # the directory was removed under us
        return ""


def workspace_of(data: Mapping[str, Any], fallback: str) -> str:
    """The workspace the event names (``workspace`` or ``cwd``), else ``fallback``."""
    for name in WORKSPACE_KEYS:
        value = data.get(name)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return fallback


def build_request(
    ask: ApprovalAsk, event: str, data: Mapping[str, Any], *, workspace: str = ""
) -> ApprovalRequest:
    """The `ApprovalRequest` for one ask_user result of ``event``.

    The ask's own ``data`` may carry ``approval_key`` (an explicit memory key) and
    ``approval_scope`` (``"workspace"``, the default, or ``"global"``); the details
    shown are drawn from the event data, with the ask's data filling any gaps.
    """
    extra = ask.data or {}
    merged = {**extra, **data}
    fields = extract_fields(merged)
    where = workspace_of(merged, workspace)
    remember_in = GLOBAL if extra.get("approval_scope") == "global" or not where else where
    return ApprovalRequest(
        prompt=ask.prompt,
        options=list(ask.options),
        timeout=ask.timeout,
        default=ask.default,
        event=event,
        source=ask.source,
        reason=ask.reason,
        details=summarize(merged),
        key=memory_key(
            ask.source, ask.prompt, list(ask.options), extra.get("approval_key"), fields
        ),
        raw=fields,
        workspace=where,
        session_id=_text(merged.get("session_id")),
        remember_scope=remember_in,
    )


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def ttl_of(ask: ApprovalAsk) -> float | None:
    """How long an "always" answer to ``ask`` lasts (``approval_ttl`` seconds), if set."""
    value = (ask.data or {}).get("approval_ttl")
    if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
        return float(value)
    return None
