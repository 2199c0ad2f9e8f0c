"""Reading a host's JSON payload: field checks with errors that say what is wrong, the tool
part of the data, and the `HostCall` it all becomes.

Every host names its fields its own way (``tool_input``, ``toolArgs``, ``args``); what is
done with them is the same, so each host's ``mapping`` module says where its fields are
and this module does the reading.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from amplifier_hooks.hosts.base import HostCall, HostInputError
from amplifier_hooks.hosts.dialect import Dialect

__all__ = [
    "add_tool",
    "add_tool_fields",
    "call_data",
    "host_call",
    "json_object",
    "kind",
    "object_field",
    "text_field",
    "text_or_none",
]

_KINDS: Mapping[type, str] = {
    list: "an array",
    str: "a string",
    bool: "a boolean",
    int: "a number",
    float: "a number",
    type(None): "null",
    dict: "an object",
}


def kind(value: object) -> str:
    """What ``value`` is, in JSON's words (for an error message)."""
    return _KINDS.get(type(value), type(value).__name__)


def json_object(payload: object) -> Mapping[str, Any]:
    """``payload`` as the JSON object a hook input must be; `HostInputError` otherwise."""
    if type(payload) is not dict and not isinstance(payload, Mapping):  # JSON: a dict
        raise HostInputError(f"hook input must be a JSON object, got {kind(payload)}")
    return payload


def text_field(payload: Mapping[str, Any], key: str) -> str:
    """The non-empty string at ``key``; `HostInputError` when it is missing or not one."""
    value = payload.get(key)
    if not isinstance(value, str) or not value:
        got = "missing" if key not in payload else kind(value)
        raise HostInputError(f"hook input field {key!r} must be a non-empty string, got {got}")
    return value


def object_field(payload: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    """The object at ``key`` ({} when absent); `HostInputError` when it is something else."""
    value = payload.get(key, {})
    if not isinstance(value, Mapping):
        raise HostInputError(f"hook input field {key!r} must be an object, got {kind(value)}")
    return value


def text_or_none(payload: Mapping[str, Any], key: str, *, may_be_empty: bool) -> str | None:
    """The string at ``key``, or None when it is absent (or null); `HostInputError` when it
    is something else (or empty, unless ``may_be_empty``)."""
    if payload.get(key) is None:
        return None
    if may_be_empty and isinstance(payload[key], str):
        return str(payload[key])
    return text_field(payload, key)


def call_data(
    dialect: Dialect,
    host_event: str,
    original: Mapping[str, Any],
    session_id: str,
    workspace: str | None,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The data handlers see (the host's fields as sent, with the session and, when there is
    one, the workspace) and the ``host`` record (our name, its event, the payload)."""
    data: dict[str, Any] = dict(original)
    data["session_id"] = session_id
    if workspace:
        data["workspace"] = workspace
    return data, {"name": dialect.name, "event": host_event, "payload": original}


def add_tool(
    dialect: Dialect,
    data: dict[str, Any],
    host: dict[str, Any],
    tool: str,
    tool_input: Mapping[str, Any],
) -> None:
    """The tool part of a call: the host's tool name in ``host``, our canonical name and
    input in ``data``."""
    host["tool_name"] = tool
    data["tool_name"] = dialect.tools.canonical(tool)
    data["tool_input"] = dialect.tools.canonical_input(tool_input, tool)


def add_tool_fields(
    dialect: Dialect,
    data: dict[str, Any],
    host: dict[str, Any],
    payload: Mapping[str, Any],
    fields: tuple[str, str, str, str],
) -> None:
    """`add_tool` from a payload that names its tool, input, call id and result in
    ``fields`` (in that order): the id as ``tool_call_id``, the result as ``result``
    and ``tool_result``, where the payload has them."""
    name, tool_input, call_id, result = fields
    add_tool(dialect, data, host, text_field(payload, name), object_field(payload, tool_input))
    if isinstance(payload.get(call_id), str):
        data["tool_call_id"] = payload[call_id]
    if result in payload:
        data["result"] = data["tool_result"] = payload[result]


def host_call(
    dialect: Dialect,
    host_event: str,
    payload: Mapping[str, Any],
    data: dict[str, Any],
    host: dict[str, Any],
    session_id: str,
    workspace: str | None,
) -> HostCall:
    """The `HostCall` of a read payload: ``host`` goes into ``data``."""
    data["host"] = host
    return HostCall(
        host=dialect.name,
        host_event=host_event,
        event=dialect.event_of(host_event, payload),
        data=data,
        session_id=session_id,
        workspace=workspace,
        guarding=dialect.guarding(host_event),
    )
