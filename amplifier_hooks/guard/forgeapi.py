"""A forge's API call (``gh api``, ``glab api``), read as the CLI reads its options.

Both CLIs take the endpoint as their one operand, the method with ``-X``/``--method``
(``-XDELETE``, ``--method=PUT``; GET by default, POST once a field or ``--input`` is
given), fields with ``-f``/``--raw-field`` (a string) and ``-F``/``--field`` (``true``,
``false``, ``null`` and numbers typed), and a JSON body with ``--input`` (``-``: standard
input, known when a heredoc, a here-string or an ``echo`` before a pipe gives it).
`ApiCall.settings` holds what the call sets, flattened: ``config[url]`` and a body's
``{"config": {"url": ...}}`` are both ``config.url``; ``contexts[]=`` is an empty list.
"""

from __future__ import annotations

import json
from typing import NamedTuple

__all__ = ["ApiCall", "read_api_call"]

_VALUED = frozenset(
    {"-X", "--method", "-f", "--raw-field", "-F", "--field", "-H", "--header", "--input",
     "-q", "--jq", "-t", "--template", "--hostname", "-p", "--preview", "--cache", "-R",
     "--repo"}
)  # fmt: skip
"""The options of ``gh api`` and ``glab api`` that take a value."""
_FIELDS = {"-f": False, "--raw-field": False, "-F": True, "--field": True}
"""The field options, and whether their values are typed."""


class ApiCall(NamedTuple):
    """A forge API call: its method (upper case), its endpoint (no leading ``/``, no
    query, no host), and what it sets (None: a body the guard cannot see)."""

    method: str
    endpoint: str
    settings: dict[str, object] | None


def read_api_call(args: tuple[str, ...], stdin: str | None) -> ApiCall | None:
    """The API call ``gh api ARGS`` (or ``glab api ARGS``) makes, ``args`` from ``api``
    on; None: it is no API call the guard can read (no endpoint)."""
    method: str | None = None
    endpoint: str | None = None
    settings: dict[str, object] | None = {}
    body = False
    index = 1
    while index < len(args):
        arg = args[index]
        index += 1
        name, value = _option(arg)
        if name is None:
            endpoint = endpoint if endpoint is not None else arg
            continue
        if value is None and name in _VALUED:
            value = args[index] if index < len(args) else ""
            index += 1
        if name in ("-X", "--method"):
            method = (value or "").upper()
        elif name in _FIELDS and value is not None and settings is not None:
            key, _, given = value.partition("=")
            settings[_flat(key)] = _typed(given) if _FIELDS[name] else given
            body = True
        elif name == "--input":
            body = True
            data = _json(stdin if value == "-" else None)
            if isinstance(data, dict) and settings is not None:
                settings.update(_flattened(data))
            else:
                settings = None
    if endpoint is None:
        return None
    return ApiCall(method or ("POST" if body else "GET"), _endpoint(endpoint), settings)


def _option(arg: str) -> tuple[str | None, str | None]:
    if arg.startswith("--"):
        name, equals, value = arg.partition("=")
        return name, value if equals else None
    if arg.startswith("-") and len(arg) > 1:
        return arg[:2], arg[2:] or None
    return None, None


def _endpoint(text: str) -> str:
    for host in ("https://api.github.com/", "http://api.github.com/"):
        text = text.removeprefix(host)
    if "/api/v4/" in text:
        text = text.partition("/api/v4/")[2]
    return text.partition("?")[0].strip("/")


def _flat(key: str) -> str:
    """``config[url]`` as ``config.url``, ``contexts[]`` as ``contexts``."""
    return key.replace("[]", "").replace("][", ".").replace("[", ".").replace("]", "")


def _typed(value: str) -> object:
    if value in ("true", "false"):
        return value == "true"
    if value == "null":
        return None
    return int(value) if value.isdigit() else value


def _json(text: str | None) -> object:
    if text is None:
        return None
    try:
        data: object = json.loads(text)
    except ValueError:
        return None
    return data


def _flattened(data: dict[str, object], prefix: str = "") -> dict[str, object]:
    out: dict[str, object] = {}
    for key, value in data.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            out.update(_flattened(value, name + "."))
        else:
            out[name] = value
    return out
