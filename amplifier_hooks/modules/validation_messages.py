"""Pydantic's validation errors in words a person editing YAML can act on.

Pydantic says "Extra inputs are not permitted" and "Input should be a valid integer";
a person editing YAML needs "unknown key 'priorty' (did you mean 'priority'?)" and
"expected a whole number, got 'high'". `config` words a module's config errors this
way and `bundles` the bundle's own keys (placed at their lines by `bundles.messages`), so it
lives here, below both: it needs pydantic and nothing of the library.
"""

from __future__ import annotations

import difflib
import types
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError

from amplifier_hooks.approvals.redact import scrub_known_secrets

KeyPath = tuple[str | int, ...]
"""A key's place in a document: ``("hooks", 2, "config")``; ``()`` is the whole of it."""

_EXPECTED = {
    "int_type": "expected a whole number",
    "int_parsing": "expected a whole number",
    "int_from_float": "expected a whole number",
    "float_type": "expected a number",
    "float_parsing": "expected a number",
    "bool_type": "expected true or false",
    "bool_parsing": "expected true or false",
    "string_type": "expected text",
    "dict_type": "expected a mapping (key: value lines)",
    "model_type": "expected a mapping (key: value lines)",
    "model_attributes_type": "expected a mapping (key: value lines)",
    "list_type": "expected a list",
    "path_type": "expected a file path",
}


def describe_errors(exc: ValidationError, model: type[BaseModel]) -> list[tuple[KeyPath, str]]:
    """``(key path, readable message)`` for each validation error, in pydantic's order."""
    described: list[tuple[KeyPath, str]] = []
    for error in exc.errors(include_url=False):
        where: KeyPath = tuple(error["loc"])
        if where and where[-1] == _KEY_MARK:
            where = where[:-1]  # a dict key that failed validation: the key is the problem
        if error["type"] == "invalid_key" or error["loc"][-1:] == (_KEY_MARK,):
            # Named as written (pydantic says 1 for `true:` and 'None' for `null:`).
            text, message = _bad_key(model, where, error.get("input"))
            where = (*where[:-1], text)
        else:
            message = _message(error, model, where)
        if (where, message) not in described:
            described.append((where, message))
    return described


_KEY_MARK = "[key]"


def _message(error: Any, model: type[BaseModel], where: KeyPath) -> str:
    kind: str = error["type"]
    if kind == "extra_forbidden":
        return _unknown_key(model, where)
    if kind == "missing":
        return f"missing required key {where[-1]!r}" if where else "missing required key"
    message: str = error["msg"]
    if kind in ("too_short", "too_long"):
        # Lists and mappings; pydantic's text ("after validation, not 0") is about itself.
        context = error.get("ctx") or {}
        bound = context.get("min_length" if kind == "too_short" else "max_length")
        if isinstance(bound, int):
            items = "item" if bound == 1 else "items"
            limit = "at least" if kind == "too_short" else "at most"
            actual = context.get("actual_length")
            got = f", got {actual}" if isinstance(actual, int) else ""
            return f"expected {limit} {bound} {items}{got}"
    if kind in ("value_error", "assertion_error"):
        return message.split(", ", 1)[1] if ", " in message else message
    got = f", got {describe_value(error.get('input'))}"
    if kind in _EXPECTED:
        return _EXPECTED[kind] + got
    if message.startswith(("Input should be greater", "Input should be less")):
        return "expected a number " + message[len("Input should be ") :] + got
    if message.startswith("Input should be "):
        return "expected " + message[len("Input should be ") :] + got
    if message.startswith("String should "):
        return "expected text that should " + message[len("String should ") :] + got
    return message + got


def _unknown_key(model: type[BaseModel], where: KeyPath) -> str:
    key = str(where[-1]) if where else ""
    owner = _model_at(model, where[:-1])
    shown = f"unknown key {_quoted(key)}"
    if owner is None:
        return shown
    allowed = sorted(owner.model_fields)
    hint = difflib.get_close_matches(key, allowed, n=1)
    text = shown
    if hint:
        text += f" (did you mean {hint[0]!r}?)"
    return text + f"; expected one of: {', '.join(allowed)}"


def _bad_key(model: type[BaseModel], where: KeyPath, key: Any) -> tuple[str, str]:
    """The key as written and what is wrong with it, for a key YAML read as a number,
    boolean or null where a name is needed."""
    if key is None:
        text = shown = "null"
    elif isinstance(key, bool):
        text = str(key).lower()
        shown = f"{text} (a boolean)"
    else:
        text = str(key)
        kind = "a number" if isinstance(key, int | float) else type(key).__name__
        shown = f"{text} ({kind})"
    owner = _model_at(model, where[:-1])
    if owner is not None:
        # Quoting would not help here: the key is not one of the model's names either.
        allowed = ", ".join(sorted(owner.model_fields))
        return text, f"unknown key {shown}; expected one of: {allowed}"
    return text, f"expected a text key, got {shown}; write '{text}' in quotes if that is the name"


def _model_at(model: type[BaseModel], path: Sequence[str | int]) -> type[BaseModel] | None:
    """The model class found by following ``path`` from ``model``, if it leads to one."""
    current: Any = model
    for part in path:
        current = _unwrap(current)
        if isinstance(current, type) and issubclass(current, BaseModel):
            info = current.model_fields.get(part) if isinstance(part, str) else None
            if info is None:
                return None
            current = info.annotation
        elif get_origin(current) in (list, tuple) and isinstance(part, int):
            items = get_args(current)  # list[X], tuple[X, ...] or tuple[X, Y]
            if len(items) == 1 or items[1:] == (...,):
                current = items[0]
            elif part < len(items):
                current = items[part]
            else:
                return None
        elif get_origin(current) is dict:
            current = get_args(current)[1]
        else:
            return None
    current = _unwrap(current)
    if isinstance(current, type) and issubclass(current, BaseModel):
        return current
    return None


def _unwrap(annotation: Any) -> Any:
    """``X | None`` and ``Annotated[X, ...]`` -> ``X``."""
    while True:
        origin = get_origin(annotation)
        if origin is Annotated:
            annotation = get_args(annotation)[0]
        elif origin in (Union, types.UnionType):
            options = [a for a in get_args(annotation) if a is not type(None)]
            if len(options) != 1:
                return annotation
            annotation = options[0]
        else:
            return annotation


def describe_value(value: object) -> str:
    """What ``value`` is, for a message: ``'high'``, ``a mapping``, ``true (a boolean)``."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, bool):
        return f"{str(value).lower()} (a boolean)"
    if isinstance(value, str):
        return _quoted(value)
    if isinstance(value, int) and value.bit_length() > 128:
        return f"a number of {value.bit_length():,} bits"
    if isinstance(value, int | float):
        return repr(value)
    return f"{_shorten(repr(value))} ({type(value).__name__})"


def _shorten(text: str) -> str:
    return text if len(text) <= 40 else text[:39] + "…"


QUOTED_AT_MOST = 24
"""Characters of a text value an error quotes. A longer one is described, not quoted: an
error is printed, logged and (after a failed reload) read by the agent, and a long value
in the wrong place is as likely a token or a key as a typo (a bundle that includes a token
file by mistake must not print the token)."""

KEY_QUOTED_AT_MOST = 40
"""The same for a key, where real names are longer (``injection_budget_per_turn``)."""


def secret_shaped(text: str) -> bool:
    """Whether ``text`` holds a well-known secret shape (a GitHub token, an AWS key...)."""
    return scrub_known_secrets(text) is not text


def quotable(text: str, most: int = QUOTED_AT_MOST) -> bool:
    """Whether an error may quote ``text``: short, printable and no secret's shape."""
    return len(text) <= most and text.isprintable() and not secret_shaped(text)


def _quoted(text: str) -> str:
    return repr(text) if quotable(text) else f"a text of {len(text):,} characters"


__all__ = [
    "KEY_QUOTED_AT_MOST",
    "QUOTED_AT_MOST",
    "KeyPath",
    "describe_errors",
    "describe_value",
    "quotable",
    "secret_shaped",
]
