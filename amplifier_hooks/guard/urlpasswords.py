"""A URL that carries a real password for another machine (``postgres://app:PW@host/db``).

A database's connection string holds its password in the URL's user part. Written into a
project file that is not a secrets file (a README, a config a commit publishes) or sent to
a service, that password is published; a local or compose host (``localhost``, ``db``) or a
placeholder password (``${DB_PASSWORD}``, ``<password>``, ``postgres``) is a sample, not one.
"""

from __future__ import annotations

import re

__all__ = ["url_password"]

_URL_PASSWORD = re.compile(
    r"\b[a-z][a-z0-9+.-]*://[^\s:/@]+:(?P<password>[^\s@/]{6,})@(?P<host>[\w.-]+)", re.I
)
"""``postgres://app:S3cr3tPw@db.prod.internal/app``: a URL's user and password."""
_LOCAL = re.compile(r"^(?:localhost|127\.[\d.]+|0\.0\.0\.0|[\w-]+)$", re.I)
"""A host of this machine, or a one-label name (a compose service: ``db``, ``postgres``)."""
_PLACEHOLDER = re.compile(r"^(?:\$|<|\*|x{3,}$)|password|passwd|secret|changeme|example|postgres",
                          re.I)  # fmt: skip
"""A password that stands for one (``${DB_PASSWORD}``, ``<password>``, ``postgres``)."""


def url_password(text: str) -> bool:
    """Whether ``text`` holds a URL with a real-looking password for another machine."""
    if "://" not in text:  # the cheap screen: most texts hold no URL at all
        return False
    for found in _URL_PASSWORD.finditer(text):
        host, password = found.group("host"), found.group("password")
        if _LOCAL.match(host) is None and _PLACEHOLDER.search(password) is None:
            return True
    return False
