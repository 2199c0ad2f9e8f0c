"""Literal bytes inline code decodes before it runs them: ``base64.b64decode('..')``,
``bytes.fromhex('..')``, ``binascii.unhexlify('..')``, Perl's ``pack("H*", "..")``.

An encoding hides a command from whoever reads the code, not from the guard: the literal
is decoded here, at reading time, and what it spells is judged as if written out
(``os.system(base64.b64decode('..').decode())`` runs the decoded command line). Only
text is kept: bytes that are not UTF-8 text, or a literal that does not decode, stay
unknown (the code stays asked).
"""

from __future__ import annotations

import base64
import binascii

__all__ = ["DECODERS", "decode_literal", "js_decoded", "unpack_hex"]

MAX_DECODED = 4096
"""Longer literals are not decoded: a command line is short, and reading is bounded."""

_BASE64 = frozenset({"base64.b64decode", "base64.standard_b64decode", "base64.decodebytes",
                     "binascii.a2b_base64"})  # fmt: skip
_URLSAFE = frozenset({"base64.urlsafe_b64decode"})
_HEX = frozenset({"bytes.fromhex", "bytearray.fromhex", "binascii.unhexlify",
                  "binascii.a2b_hex", "base64.b16decode"})  # fmt: skip
_BASE32 = frozenset({"base64.b32decode"})
DECODERS = _BASE64 | _URLSAFE | _HEX | _BASE32
"""The decoding calls, by their dotted name as the Python reader names them."""


def decode_literal(name: str, literal: str | bytes) -> str | None:
    """The text the call ``name`` (one of `DECODERS`) makes of ``literal``; None: not a
    decoder, too long, or no text."""
    if len(literal) > MAX_DECODED:
        return None
    data = literal.encode("ascii", "replace") if isinstance(literal, str) else literal
    try:
        if name in _BASE64:
            raw = base64.b64decode(data, validate=True)
        elif name in _URLSAFE:
            raw = base64.urlsafe_b64decode(data)
        elif name in _HEX:
            raw = bytes.fromhex(data.decode("ascii"))
        elif name in _BASE32:
            raw = base64.b32decode(data)
        else:
            return None
        return raw.decode("utf-8")
    except (binascii.Error, ValueError):  # (UnicodeDecodeError is a ValueError)
        return None


def unpack_hex(template: str, literal: str) -> str | None:
    """Perl's ``pack("H*", HEX)`` (and ``"H<n>"``): the text the hex digits spell; None
    for any other template, or no text."""
    if template[:1] != "H" or not (template[1:] in ("*", "") or template[1:].isdigit()):
        return None
    return decode_literal("bytes.fromhex", literal)


_JS_ENCODINGS = {"base64": "base64.b64decode", "base64url": "base64.urlsafe_b64decode",
                 "hex": "bytes.fromhex"}  # fmt: skip


def js_decoded(name: str, texts: list[str]) -> str | None:
    """The text JavaScript's ``Buffer.from(LITERAL, "base64")`` (or ``"hex"``,
    ``"base64url"``) or ``atob(LITERAL)`` decodes its literal to; None: another call."""
    if name == "atob" and len(texts) == 1:
        return decode_literal("base64.b64decode", texts[0])
    if name == "Buffer.from" and len(texts) == 2 and texts[1] in _JS_ENCODINGS:
        return decode_literal(_JS_ENCODINGS[texts[1]], texts[0])
    return None
