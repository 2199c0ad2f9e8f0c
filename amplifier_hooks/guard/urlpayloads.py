"""What a URL's query carries to the host it names: a request sends its query string, and
every proxy, log and referrer on the way keeps it.

A credential by its provider's full shape is found by `destinations` (`credentials_in`);
this module reads the query's values one by one, as the server will, for what those
shapes miss:

- a secret written as an assignment (``d=PGPASSWORD%3D...``, ``text=STRIPE_SECRET_KEY=...``),
  or a token whose provider prefix is there but not its full length (``k=sk_live_51H...``);
- a value that is base64 of any of that, of a JSON object with a secret's field, or of a
  private key (DER: a sequence whose first member is the version number 0 or 1);
- a parameter named for a secret (``token=``, ``pat=``, ``okta_token=``, ``mnemonic=``)
  holding a literal that is no placeholder;
- people's identifiers: a US social security number, or two or more email addresses;
- any value at all sent to a request-capture or paste service (``webhook.site``,
  ``requestbin``, ``pastebin``'s API), which exists to collect what it is sent.

A value that names a variable (``$TOKEN``) is the shell's to expand: `providers` judges
where a variable's secret may go.
"""

from __future__ import annotations

import base64
import binascii
import re
from enum import Enum
from urllib.parse import unquote_plus

from amplifier_hooks.guard.urlhosts import authority_of, host_of, is_local
from amplifier_hooks.secret_shapes import SECRET_KEY, credentials_in

__all__ = ["Payload", "url_payload"]


class Payload(Enum):
    """What a URL's query carries, worst first."""

    SECRET = "secret"
    DROP = "drop"
    """Data sent to a service that collects what it is sent."""
    PEOPLE_IDS = "people-ids"
    PEOPLE = "people"


_ASSIGNED = re.compile(r"([A-Za-z_][A-Za-z0-9_.-]{1,80})[\"']?\s*[:=]\s*[\"']?([^\s,;&\"']{4,})")
"""``NAME=value``, ``NAME: value``, ``"name": "value"`` inside a value."""
_PREFIXED = re.compile(
    r"(?<![A-Za-z0-9])(?:[sr]k_live_[A-Za-z0-9]{2,}|gh[pousr]_[A-Za-z0-9]{6,}"
    r"|github_pat_\w{6,}|glpat-[\w-]{6,}|npm_[A-Za-z0-9]{8,}|pypi-[\w-]{8,}"
    r"|xox[abeprs]-[\w-]{6,}|AIza[\w-]{10,}|CFPAT-[\w-]{8,}|sk-(?:ant|proj)-[\w-]{6,}"
    r"|hf_[A-Za-z0-9]{10,}|AKIA[A-Z0-9]{12,}|dop_v1_\w{8,}|shp(?:at|ss)_\w{8,}|dckr_pat_[\w-]{6,}"
    r"|(?:sk|ops)\.?_?eyJ[\w.-]{6,})"
)
"""A provider's token by its prefix, however short the rest: shortened, it is still a
token (or a real one of a shape `credentials_in` does not know)."""
_NAMES = re.compile(
    r"(?i)^(?:[\w.-]*_key|pat|pass|pgpass|pwd|passcode|auth|authorization|bearer|jwt|"
    r"session|session_?id|sid|cookie|li_at|mnemonic|seed|seed_?phrase|community|otp)$"
)
"""Parameter names that hold a secret in a URL beyond `SECRET_KEY`'s field names. A bare
``key`` is not one: a deploy hook's URL carries its own (``?key=...``: the hook is used as
meant), and a provider's key there is known by its prefix."""
_NOT_NAMES = re.compile(r"(?i)page|next|cursor|continu|csrf|xsrf|state|nonce|idempot|public")
"""Names ending as a secret's do that are none: a page token, a CSRF token, a public key."""
_PLACEHOLDER = re.compile(
    r"(?i)^(?:x+|\*+|\.+|<[^>]*>|\{\{.*\}\}|\{[^}]*\}|%[^%]*%|null|none|true|false|"
    r"undefined|redacted|changeme|your[\w-]*|example[\w-]*|test|demo[\w-]*)$"
)
_ENV_NAME = re.compile(r"[A-Z][A-Z0-9_]*")
_BASE64 = re.compile(r"[A-Za-z0-9+/_-]{16,}={0,2}")
_SSN = re.compile(r"(?<!\d)\d{3}-\d{2}-\d{4}(?!\d)")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_DROPS = ("webhook.site", "requestbin", "requestcatcher", "pipedream.net", "hookbin",
          "beeceptor", "postb.in", "interact.sh", "burpcollaborator", "oast.")  # fmt: skip
"""Hosts (by a part of their name) that exist to collect the requests sent to them."""
_PASTE = re.compile(r"(?:^|\.)paste[\w-]*\.")
"""A paste service (``pastebin.com``, ``paste.example.net``): what its API is given, it
publishes."""
MAX_URL = 8192


def url_payload(url: str) -> Payload | None:
    """The worst of what ``url``'s query carries to a host that is not this machine."""
    query = url.partition("?")[2].partition("#")[0]
    if not query or len(url) > MAX_URL or is_local(url):
        return None
    host = host_of(authority_of(url).rpartition("@")[2])
    pairs = [part.partition("=") for part in re.split(r"[&;]", query) if part]
    found: set[Payload] = set()
    emails = 0
    for name, _, raw in pairs:
        value = unquote_plus(raw)
        if "$" in value:  # a variable: the shell's to expand (`providers`)
            continue
        if _secret(unquote_plus(name), value):
            return Payload.SECRET
        if _SSN.search(value):
            found.add(Payload.PEOPLE_IDS)
        emails += len(_EMAIL.findall(value))
        if value and _collects(host):
            found.add(Payload.DROP)
    if emails >= 2:
        found.add(Payload.PEOPLE)
    return min(found, key=list(Payload).index) if found else None


def _collects(host: str) -> bool:
    return any(name in host for name in _DROPS) or _PASTE.search(host) is not None


def _secret(name: str, value: str) -> bool:
    """Whether the parameter ``name=value`` is a secret, as written or in base64."""
    if _named(name, value) or _in_text(value):
        return True
    return any(_in_decoded(chunk) for chunk in _BASE64.findall(value))


def _secret_name(name: str) -> bool:
    return bool(SECRET_KEY.match(name) or _NAMES.match(name)) and not _NOT_NAMES.search(name)


def _named(name: str, value: str) -> bool:
    """A parameter named for a secret whose value is a literal: no placeholder, no word."""
    if not _secret_name(name) or len(value) < 6 or _PLACEHOLDER.match(value):
        return False
    if name.lower() == "mnemonic" or "phrase" in name.lower():
        return len(value.split()) >= 12  # a wallet's words
    return _mixed(value)


def _mixed(value: str) -> bool:
    """Letters with digits: a generated value, not a word or a number."""
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


def _in_text(text: str) -> bool:
    """A credential's shape or prefix, or an assignment to a secret's name, in ``text``."""
    if _PREFIXED.search(text) or credentials_in(text):
        return True
    for match in _ASSIGNED.finditer(text):
        key, value = match.group(1), match.group(2)
        key = key.rsplit(".", 1)[-1]
        if not _secret_name(key) or _PLACEHOLDER.match(value):
            continue
        # `RESTIC_PASSWORD=correct-horse-...`: a variable's value as it is set, whatever it
        # spells; a field in lower case (`password: reset` in a search) must look generated
        if _ENV_NAME.fullmatch(key) or _mixed(value):
            return True
    return False


def _in_decoded(chunk: str) -> bool:
    """Whether base64 ``chunk`` decodes to a private key or to text carrying a secret."""
    data = _decoded(chunk)
    if data is None:
        return False
    if _private_key(data):
        return True
    text = data.decode("ascii", "replace")
    printable = sum(c.isprintable() or c in "\n\r\t" for c in text)
    return printable >= 0.9 * len(text) and _in_text(text)


def _decoded(chunk: str) -> bytes | None:
    padded = chunk.rstrip("=") + "=" * (-len(chunk.rstrip("=")) % 4)
    try:
        if "-" in padded or "_" in padded:
            return base64.urlsafe_b64decode(padded)
        return base64.b64decode(padded, validate=True)
    except (binascii.Error, ValueError):
        return None


def _private_key(data: bytes) -> bool:
    """DER of a private key (PKCS#1, PKCS#8, SEC 1): a sequence whose first member is the
    integer 0 or 1, its version. A certificate's first member is a sequence."""
    if len(data) < 16 or data[0] != 0x30:
        return False
    size = data[1]
    start = 2 + (size & 0x7F if size & 0x80 else 0)
    version = data[start : start + 3]
    return version in (b"\x02\x01\x00", b"\x02\x01\x01")
