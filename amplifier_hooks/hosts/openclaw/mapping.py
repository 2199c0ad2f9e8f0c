"""From the call our OpenClaw plugin sends to a `HostCall`.

OpenClaw runs plugins in its own Node process; ours (`amplifier_hooks.hosts.openclaw.plugin`)
posts each hook it registers as one JSON object: OpenClaw's ``event`` fields as they came
(``toolName``, ``params``, ``toolCallId``, ``runId``, ``derivedPaths``; ``prompt`` on
``before_prompt_build``), the context's ids (``sessionId``, ``sessionKey``, ``agentId``,
``channelId`` when a person's channel started the run), ``hook_event_name`` and ``cwd``:
the agent's workspace (OpenClaw hands a hook none; the plugin reads
``agents.defaults.workspace``).

Handlers see that object, plus the names every host shares: ``session_id``, ``workspace``,
``tool_name`` (ours) and ``tool_input`` (``params``, with ``path`` where it aliases and
the paths an ``apply_patch`` touches), ``tool_use_id``; and ``host``: ``{"name", "event",
"tool_name", "payload"}``. ``process`` typing into a running shell (``write``,
``paste``, ``submit``, ``send-keys``) is judged as the shell command it types.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.hosts import reading
from amplifier_hooks.hosts.base import HostCall, HostInputError
from amplifier_hooks.hosts.dialect import Dialect

__all__ = ["TYPING_ACTIONS", "parse_openclaw_call", "typed_text"]

_EVENT_NAME = re.compile(r"^[a-z][a-z0-9_]{0,63}$")

TYPING_ACTIONS = frozenset({"write", "paste", "submit", "send-keys"})
"""``process`` actions that type into a running shell: what they type runs there."""


def _optional(payload: Mapping[str, Any], key: str) -> str | None:
    return reading.text_or_none(payload, key, may_be_empty=True)


def typed_text(params: Mapping[str, Any]) -> str:
    """What a ``process`` call types into its shell (every text field it sends)."""
    parts: list[str] = []
    for key in ("data", "literal", "text"):
        value = params.get(key)
        if isinstance(value, str):
            parts.append(value)
    keys = params.get("keys")
    if isinstance(keys, list):
        parts.append(" ".join(k for k in keys if isinstance(k, str)))
    return "\n".join(p for p in parts if p)


def _tool_input(
    dialect: Dialect, tool: str, params: Mapping[str, Any]
) -> tuple[str, dict[str, Any]]:
    if tool == "process" and params.get("action") in TYPING_ACTIONS:
        return "bash", {**params, "command": typed_text(params)}
    return dialect.tools.canonical(tool), dialect.tools.canonical_input(params, tool)


def parse_openclaw_call(dialect: Dialect, payload: object) -> HostCall:
    """The `HostCall` in ``payload``; `HostInputError` saying what is wrong."""
    payload = reading.json_object(payload)
    host_event = reading.text_field(payload, "hook_event_name")
    if _EVENT_NAME.fullmatch(host_event) is None:
        raise HostInputError(f"not an OpenClaw hook name: {host_event[:80]!r}")
    session_id = (
        _optional(payload, "sessionId")
        or _optional(payload, "sessionKey")
        or _optional(payload, "runId")
    )
    if not session_id:
        raise HostInputError("hook input names no session: 'sessionId' or 'sessionKey' expected")
    cwd = _optional(payload, "cwd")
    original = {k: v for k, v in payload.items() if k != "hook_event_name"}
    data, host = reading.call_data(dialect, host_event, original, session_id, cwd)
    if dialect.is_tool_event(host_event):
        tool = reading.text_field(payload, "toolName")
        params = reading.object_field(payload, "params")
        host["tool_name"] = tool
        data["tool_name"], data["tool_input"] = _tool_input(dialect, tool, params)
        if isinstance(payload.get("toolCallId"), str):
            data["tool_use_id"] = payload["toolCallId"]
        if "result" in payload:
            data["tool_result"] = payload["result"]
    elif "prompt" in payload and not isinstance(payload["prompt"], str):
        raise HostInputError(
            f"hook input field 'prompt' must be a string, got {reading.kind(payload['prompt'])}"
        )
    return reading.host_call(dialect, host_event, payload, data, host, session_id, cwd or None)
