"""From a Claude-style hook input (stdin JSON / HTTP body) to a `HostCall`.

The data handlers see is the host's payload, field for field, with these changes:
``tool_name`` is our canonical name and ``tool_input`` has ``path`` beside ``file_path``
(`amplifier_hooks.hosts.tools`); and these additions: ``workspace`` (the ``cwd``),
``tool_call_id`` (the ``tool_use_id``), ``result`` and ``tool_result`` (the
``tool_response`` of PostToolUse, under Amplifier's names), and ``host``:
``{"name", "event", "tool_name" (the host's), "payload" (the input as received)}``.
"""

from __future__ import annotations

from amplifier_hooks.hosts import reading
from amplifier_hooks.hosts.base import HostCall, HostInputError
from amplifier_hooks.hosts.dialect import Dialect

__all__ = ["parse_call"]


def parse_call(dialect: Dialect, payload: object) -> HostCall:
    """The `HostCall` in ``payload``; `HostInputError` saying what is wrong."""
    payload = reading.json_object(payload)
    host_event = reading.text_field(payload, "hook_event_name")
    if not dialect.valid_host_event(host_event):
        raise HostInputError(
            f"hook input field 'hook_event_name' is not an event name: {host_event[:80]!r}"
        )
    session_id = reading.text_field(payload, "session_id")
    cwd = reading.text_or_none(payload, "cwd", may_be_empty=True)
    original = dict(payload)
    data, host = reading.call_data(dialect, host_event, original, session_id, cwd)
    if dialect.is_tool_event(host_event):
        tool = reading.text_field(payload, "tool_name")
        raw_input = reading.object_field(payload, "tool_input")
        reading.add_tool(dialect, data, host, tool, raw_input)
        tool_use_id = payload.get("tool_use_id")
        if isinstance(tool_use_id, str):
            data["tool_call_id"] = tool_use_id
        if "tool_response" in payload:
            data["result"] = data["tool_result"] = payload["tool_response"]
    elif host_event == "UserPromptSubmit":
        # A prompt that is not text is malformed.
        reading.text_or_none(payload, "prompt", may_be_empty=True)
    return reading.host_call(dialect, host_event, payload, data, host, session_id, cwd or None)
