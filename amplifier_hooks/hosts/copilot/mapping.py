"""From a GitHub Copilot CLI hook input to a `HostCall`.

Copilot CLI 1.0.102 sends camelCase fields (``sessionId``, ``timestamp`` in epoch ms,
``cwd``, ``toolName``, ``toolArgs``, ``toolResult``, ``prompt``, ``source``,
``initialPrompt``, ``reason``, ``transcriptPath``) and, except on ``permissionRequest``
(``hookName``), no event name: the event is the one the installed command names
(``amplifier-hooks copilot hook --event preToolUse``), which our command adds to the
input as ``hook_event_name`` before it is dispatched (`EVENT_FIELD`).

Handlers see the input as Copilot sent it (without our ``hook_event_name``), plus the
names every host shares: ``session_id``, ``workspace`` (the ``cwd``), ``tool_name``
(ours) and ``tool_input`` (``toolArgs``, or ``toolInput`` of ``permissionRequest``, with
``path`` where it aliases), ``tool_result``/``result`` (``toolResult``),
``transcript_path``; and ``host``: ``{"name", "event", "tool_name", "payload"}``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.hosts import reading
from amplifier_hooks.hosts.base import HostCall, HostInputError
from amplifier_hooks.hosts.dialect import Dialect

__all__ = ["EVENT_FIELD", "parse_copilot_call"]

EVENT_FIELD = "hook_event_name"
"""Where our command puts the event it was installed for (Copilot sends no such field)."""

_EVENT_NAME = re.compile(r"^[a-z][A-Za-z0-9]{0,63}$")


def _tool_input(payload: Mapping[str, Any]) -> Mapping[str, Any]:
    for key in ("toolArgs", "toolInput"):
        if key not in payload:
            continue
        value = payload[key]
        if isinstance(value, str):  # a free-form tool (apply_patch) sends its text
            return {"input": value}
        if not isinstance(value, Mapping):
            raise HostInputError(
                f"hook input field {key!r} must be an object, got {reading.kind(value)}"
            )
        return value
    return {}


def parse_copilot_call(dialect: Dialect, payload: object) -> HostCall:
    """The `HostCall` in ``payload``; `HostInputError` saying what is wrong."""
    payload = reading.json_object(payload)
    if EVENT_FIELD in payload:
        host_event = reading.text_field(payload, EVENT_FIELD)
    elif "hookName" in payload:
        host_event = reading.text_field(payload, "hookName")
    else:
        raise HostInputError(
            "hook input names no event: install the hook with `amplifier-hooks copilot "
            "install`, whose command passes --event"
        )
    if _EVENT_NAME.fullmatch(host_event) is None:
        raise HostInputError(f"not a Copilot CLI event name: {host_event[:80]!r}")
    session_id = reading.text_field(payload, "sessionId")
    cwd = payload.get("cwd")
    if cwd is not None and not isinstance(cwd, str):
        raise HostInputError(f"hook input field 'cwd' must be a string, got {reading.kind(cwd)}")
    original = {k: v for k, v in payload.items() if k != EVENT_FIELD}
    data, host = reading.call_data(dialect, host_event, original, session_id, cwd)
    if isinstance(payload.get("transcriptPath"), str):
        data["transcript_path"] = payload["transcriptPath"]
    if dialect.is_tool_event(host_event):
        tool = reading.text_field(payload, "toolName")
        raw_input = _tool_input(payload)
        reading.add_tool(dialect, data, host, tool, raw_input)
        if "toolResult" in payload:
            data["result"] = data["tool_result"] = payload["toolResult"]
    elif "prompt" in payload and not isinstance(payload["prompt"], str):
        raise HostInputError(
            f"hook input field 'prompt' must be a string, got {reading.kind(payload['prompt'])}"
        )
    return reading.host_call(dialect, host_event, payload, data, host, session_id, cwd or None)
