"""A credential in the arguments of an MCP tool the guard's table does not know.

An MCP tool the table names (`mcptools`) is judged as the file and shell calls it makes. One
it does not name is most often a service's (GitHub's issues and gists, Slack's messages, a
database's queries): its arguments go to that service, where other people read them. A
credential among them (by its shape: a provider's token, an access key id, a private key, or
a secret-named key with a random-looking value) is published there, so such a call is
marked `SECRET_TO_MCP` and the pack denies it (``secret-to-mcp-tool``). A person's own
password is not random, so in a message it is found by how it is given: after its name and
a sign or ``is`` (``Password=Pr0d$ql#88;``, ``the password is Sm1th!2024``), or as an
element (``<password>..</password>``), when the value is not a word, a reference
(``$DB_PASSWORD``, ``<redacted>``) or a placeholder.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from amplifier_hooks.guard.keyedsecrets import keyed_secrets
from amplifier_hooks.guard.urlpasswords import url_password
from amplifier_hooks.secret_shapes import credentials_in

__all__ = ["MAX_TEXT", "SECRET_TO_MCP", "argument_texts", "sends_secret"]

SECRET_TO_MCP = "@secret-to-mcp"
"""The mark of an MCP tool call (one the table does not name) whose arguments hold a
credential."""
MAX_TEXT = 256 * 1024
"""Text past this much, in all, is not read (the call is not granted either way)."""
_MAX_DEPTH = 6


def sends_secret(inputs: Mapping[str, Any]) -> bool:
    """Whether any text in ``inputs`` (its values, nested lists and objects, and the keys
    of those objects) holds a credential."""
    budget = MAX_TEXT
    for text in argument_texts(inputs):
        budget -= len(text)
        if budget < 0:
            return False
        if credentials_in(text) or keyed_secrets(text) or url_password(text):
            return True
        if _given_password(text):
            return True
    return False


_GIVEN = re.compile(
    r"(?i)<(?P<tag>pass(?:word|wd)?|secret|token|api[_-]?key)>(?P<element>[^<\s]{6,})</(?P=tag)>"
    r"|\b(?:pass(?:word|wd|phrase)?|pwd|secret|token)[\"']?"
    r"(?:[ \t]*[:=][ \t]*|[ \t]+(?:is|was)[ \t]+)[\"'`]?(?P<value>[^\s\"'`<>;,]{6,})"
)
_NOT_GIVEN = re.compile(
    r"(?i)^[$%{<*\[]|://|example|sample|dummy|fake|placeholder|changeme|your|xxxx|redacted"
)


def _given_password(text: str) -> bool:
    """Whether ``text`` gives a password or token by name (`_GIVEN`): a value with a letter
    and a digit or sign, not a reference or a placeholder (`_NOT_GIVEN`)."""
    if len(text) < 12:
        return False
    for match in _GIVEN.finditer(text):
        value = match.group("element") or match.group("value")
        if (
            any(c.isalpha() for c in value)
            and not value.isalpha()
            and _NOT_GIVEN.search(value) is None
        ):
            return True
    return False


def argument_texts(value: object, depth: int = 0) -> Iterator[str]:
    """Every string of a tool's arguments, however deep (a string under a key as
    ``key=value``), up to `_MAX_DEPTH` levels."""
    if isinstance(value, str):
        yield value
    elif depth >= _MAX_DEPTH:
        return
    elif isinstance(value, Mapping):
        for key, item in value.items():
            if isinstance(key, str) and isinstance(item, str):
                yield f"{key}={item}"  # a secret-named key with its value (`keyed_secrets`)
            else:
                yield from argument_texts(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            yield from argument_texts(item, depth + 1)
