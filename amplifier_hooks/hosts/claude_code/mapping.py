"""From a Claude-style hook input (stdin JSON / HTTP body) to a `HostCall`.

The data handlers see is the host's payload, field for field, with these changes:
``tool_name`` is our canonical name and ``tool_input`` has ``path`` beside ``file_path``
(`amplifier_hooks.hosts.tools`); and these additions: ``workspace`` (the ``cwd``),
``tool_call_id`` (the ``tool_use_id``), ``result`` and ``tool_result`` (the
``tool_response`` of PostToolUse, under Amplifier's names), and ``host``:
``{"name", "event", "tool_name" (the host's), "payload" (the input as received)}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from amplifier_hooks.hosts.base import HostCall, HostInputError
from amplifier_hooks.hosts.dialect import Dialect

__all__ = ["parse_call"]


def _kind(value: object) -> str:
    names = {list: "an array", str: "a string", bool: "a boolean", int: "a number"}
    names |= {float: "a number", type(None): "null", dict: "an object"}
    return names.get(type(value), type(value).__name__)


def _text(payload: Mapping[str, Any], key: str, *, required: bool) -> str | None:
    value = payload.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or (required and not value):
        got = "missing" if key not in payload else _kind(value)
        raise HostInputError(f"hook input field {key!r} must be a non-empty string, got {got}")
    return value


def parse_call(dialect: Dialect, payload: object) -> HostCall:
    """The `HostCall` in ``payload``; `HostInputError` saying what is wrong."""
    if type(payload) is not dict and not isinstance(payload, Mapping):  # JSON: a dict
        raise HostInputError(f"hook input must be a JSON object, got {_kind(payload)}")
    host_event = _text(payload, "hook_event_name", required=True)
    assert host_event is not None
    if not dialect.valid_host_event(host_event):
        raise HostInputError(
            f"hook input field 'hook_event_name' is not an event name: {host_event[:80]!r}"
        )
    session_id = _text(payload, "session_id", required=True)
    assert session_id is not None
    cwd = _text(payload, "cwd", required=False)
    original = dict(payload)
    data: dict[str, Any] = dict(original)
    host: dict[str, Any] = {"name": dialect.name, "event": host_event, "payload": original}
    if cwd:
        data["workspace"] = cwd
    if dialect.is_tool_event(host_event):
        tool = _text(payload, "tool_name", required=True)
        assert tool is not None
        raw_input = payload.get("tool_input", {})
        if not isinstance(raw_input, Mapping):
            raise HostInputError(
                f"hook input field 'tool_input' must be an object, got {_kind(raw_input)}"
            )
        host["tool_name"] = tool
        data["tool_name"] = dialect.tools.canonical(tool)
        data["tool_input"] = dialect.tools.canonical_input(raw_input, tool)
        tool_use_id = payload.get("tool_use_id")
        if isinstance(tool_use_id, str):
            data["tool_call_id"] = tool_use_id
        if "tool_response" in payload:
            data["result"] = data["tool_result"] = payload["tool_response"]
    elif host_event == "UserPromptSubmit":
        _text(payload, "prompt", required=False)  # a prompt that is not text is malformed
    data["host"] = host
    return HostCall(
        host=dialect.name,
        host_event=host_event,
        event=dialect.event_of(host_event, payload),
        data=data,
        session_id=session_id,
        workspace=cwd or None,
        guarding=dialect.guarding(host_event),
    )
