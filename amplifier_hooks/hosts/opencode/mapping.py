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

from collections.abc import Mapping
from typing import Any

from amplifier_hooks.hosts.base import HostCall, HostInputError
from amplifier_hooks.hosts.dialect import Dialect

__all__ = ["parse_opencode_call"]


def _kind(value: object) -> str:
    names = {list: "an array", str: "a string", bool: "a boolean", int: "a number"}
    names |= {float: "a number", type(None): "null", dict: "an object"}
    return names.get(type(value), type(value).__name__)


def _text(payload: Mapping[str, Any], key: str, *, required: bool = True) -> str | None:
    value = payload.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value:
        got = "missing" if key not in payload else _kind(value)
        raise HostInputError(f"hook input field {key!r} must be a non-empty string, got {got}")
    return value


def parse_opencode_call(dialect: Dialect, payload: object) -> HostCall:
    """The `HostCall` in ``payload``; `HostInputError` saying what is wrong."""
    if not isinstance(payload, Mapping):
        raise HostInputError(f"hook input must be a JSON object, got {_kind(payload)}")
    host_event = _text(payload, "hook_event_name")
    assert host_event is not None
    if host_event not in dialect.known_events:
        known = ", ".join(sorted(dialect.known_events))
        raise HostInputError(f"not an OpenCode plugin event: {host_event[:80]!r} (known: {known})")
    session_id = _text(payload, "sessionID")
    assert session_id is not None
    directory = _text(payload, "directory", required=False)
    original = dict(payload)
    data: dict[str, Any] = dict(original)
    data["session_id"] = session_id
    host: dict[str, Any] = {"name": dialect.name, "event": host_event, "payload": original}
    if directory:
        data["workspace"] = directory
    if dialect.is_tool_event(host_event):
        tool = _text(payload, "tool")
        assert tool is not None
        args = payload.get("args", {})
        if not isinstance(args, Mapping):
            raise HostInputError(f"hook input field 'args' must be an object, got {_kind(args)}")
        host["tool_name"] = tool
        data["tool_name"] = dialect.tools.canonical(tool)
        data["tool_input"] = dialect.tools.canonical_input(args, tool)
        call_id = payload.get("callID")
        if isinstance(call_id, str):
            data["tool_call_id"] = call_id
        if "output" in payload:
            data["result"] = data["tool_result"] = payload["output"]
    data["host"] = host
    return HostCall(
        host=dialect.name,
        host_event=host_event,
        event=dialect.event_of(host_event, payload),
        data=data,
        session_id=session_id,
        workspace=directory or None,
        guarding=dialect.guarding(host_event),
    )
