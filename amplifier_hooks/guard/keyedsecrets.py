"""A secret by its key and its value: a field named for a secret holding a random value.

A provider's key is known by its shape (`secret_shapes.credentials_in`); many are not
(a Weights & Biases key is 40 hex digits, a Hugging Face or database token any random
string). Written into a project file under a key that names a secret (``wandb_api_key:``,
``"client_secret": "..."``, ``DB_PASSWORD = '...'``), such a value is a credential a
commit publishes. The key decides, so a checksum, a commit id or a digest (``sha256:``,
``commit:``) never counts, and the value must look random: long, letters with digits,
many distinct characters, no placeholder (``${WANDB_API_KEY}``, ``<your-key>``,
``changeme``, ``xxxx``) and no word a sample value spells (``example``, ``test``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from amplifier_hooks.secret_shapes import SECRET_KEY

__all__ = ["keyed_secrets"]

_FIELD = re.compile(
    r"""(?P<key>[A-Za-z_][\w.-]{0,80})["']?[ \t]*[:=][ \t]*["']?"""
    r"""(?P<value>[A-Za-z0-9+/_.=-]{20,512})(?![A-Za-z0-9+/_.=-])"""
)
"""``key: value``, ``key = "value"``, ``"key": "value"`` (YAML, TOML, INI, JSON, dotenv,
Python): the value a key is given, unquoted or quoted."""
_SAMPLE = re.compile(r"(?i)example|sample|dummy|fake|test|placeholder|changeme|your|xxxx|redacted")
MIN_DISTINCT = 12
MAX_TEXT = 256 * 1024


def keyed_secrets(text: str) -> tuple[str, ...]:
    """The keys in ``text`` that name a secret and hold a random-looking value."""
    if len(text) > MAX_TEXT or _AFTER_KEY.search(text) is None:
        return ()
    found: list[str] = []
    for match in _fields(text):
        key, value = match.group("key"), match.group("value")
        if SECRET_KEY.match(key.rsplit(".", 1)[-1]) and _random(value):
            found.append(key)
    return tuple(found)


_AFTER_KEY = re.compile(r"""[:=][ \t]*["']?[A-Za-z0-9+/_.=-]{20}""")
"""What follows the key in every `_FIELD`: its sign and the start of a long value."""
_KEY_CHAR = re.compile(r"[\w.-]")
_KEY_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
MAX_KEY = 81


def _fields(text: str) -> Iterator[re.Match[str]]:
    """The matches ``_FIELD.finditer(text)`` finds, found from their sign backwards.

    Tried at every character, `_FIELD` reads up to 81 characters of key and gives them
    back one by one (160 µs for 97 characters of base64, in `bench_guard`'s slowest
    cases: notebooks, conftest files, workflows). Each match has an `_AFTER_KEY` at its
    sign, and its key is the run of key characters just before (past an optional quote
    and blanks), so only there is `_FIELD` tried: at the first character of that run
    (at most `MAX_KEY` back) a key may start with. Nothing before it can match: a key
    holds no sign, quote or blank."""
    pos = 0
    while (after := _AFTER_KEY.search(text, pos)) is not None:
        sign = end = after.start()
        while end > pos and text[end - 1] in " \t":
            end -= 1
        if end > pos and text[end - 1] in "\"'":
            end -= 1
        first, start = max(pos, end - MAX_KEY), end
        while start > first and _KEY_CHAR.match(text, start - 1):
            start -= 1
        while start < end and text[start] not in _KEY_START:
            start += 1
        match = _FIELD.match(text, start) if start < end else None
        if match is None:  # no key before this sign, or no value after it
            pos = sign + 1
            continue
        yield match
        pos = match.end()


def _random(value: str) -> bool:
    """Whether ``value`` looks like a generated secret, not a word, a name or a sample."""
    if not (any(c.isdigit() for c in value) and any(c.isalpha() for c in value)):
        return False
    if len(set(value)) < MIN_DISTINCT or _SAMPLE.search(value):
        return False
    return not re.search(r"[A-Za-z]{12,}", value)  # a long word: a name, not a key
