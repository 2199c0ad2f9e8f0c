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


_TOOL_FIELDS = ("tool_name", "tool_input", "tool_use_id", "tool_response")


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
        reading.add_tool_fields(dialect, data, host, payload, _TOOL_FIELDS)
    elif host_event == "UserPromptSubmit":
        # A prompt that is not text is malformed.
        reading.text_or_none(payload, "prompt", may_be_empty=True)
    return reading.host_call(dialect, host_event, payload, data, host, session_id, cwd or None)
