"""From what our OpenCode plugin sends to a `HostCall`.

OpenCode has no command hooks: our plugin (`amplifier_hooks.hosts.opencode.plugin`) is
called in OpenCode's process as ``tool.execute.before(input, output)`` and
``tool.execute.after(input, output)``, and sends what it was given, field for field,
plus the event and the project directory from the plugin's context::

    {"hook_event_name": "tool.execute.before", "directory": "/w",
     "tool": "bash", "sessionID": "ses_…", "callID": "call_…",
     "args": {"command": "ls", "description": "…"}}

``tool.execute.after`` adds ``output`` (the text the model will read), ``title`` and
``metadata``. Handlers see those fields, plus the names every host shares:
``session_id``, ``workspace`` (the directory), ``tool_name`` (ours) and ``tool_input``
(``args``, with ``path`` beside ``filePath``), ``tool_call_id``, ``result`` and
``tool_result`` (``output``); and ``host``: ``{"name", "event", "tool_name",
"payload"}``.
"""

from __future__ import annotations

from amplifier_hooks.hosts import reading
from amplifier_hooks.hosts.base import HostCall, HostInputError
from amplifier_hooks.hosts.dialect import Dialect

__all__ = ["parse_opencode_call"]


def parse_opencode_call(dialect: Dialect, payload: object) -> HostCall:
    """The `HostCall` in ``payload``; `HostInputError` saying what is wrong."""
    payload = reading.json_object(payload)
    host_event = reading.text_field(payload, "hook_event_name")
    if host_event not in dialect.known_events:
        known = ", ".join(sorted(dialect.known_events))
        raise HostInputError(f"not an OpenCode plugin event: {host_event[:80]!r} (known: {known})")
    session_id = reading.text_field(payload, "sessionID")
    directory = reading.text_or_none(payload, "directory", may_be_empty=False)
    original = dict(payload)
    data, host = reading.call_data(dialect, host_event, original, session_id, directory)
    if dialect.is_tool_event(host_event):
        reading.add_tool_fields(dialect, data, host, payload, ("tool", "args", "callID", "output"))
    return reading.host_call(
        dialect, host_event, payload, data, host, session_id, directory or None
    )
