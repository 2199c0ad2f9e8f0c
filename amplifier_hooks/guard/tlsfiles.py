"""TLS checking switched off in a tool's own settings file: every later run of the tool
then trusts whoever answers, so a machine in between reads and changes what it sends.

``echo insecure >> ~/.curlrc``, ``trusted-host = pypi.org`` written into ``pip.conf``,
``sslVerify = false`` into a ``.gitconfig``, ``strict-ssl=false`` into an ``.npmrc``,
``check_certificate = off`` into a ``.wgetrc``: the same setting the pack denies as a
command (``git config --global http.sslVerify false``: `tls-verify-off-global`), here
written as text, on every route that writes a file (a file tool, a patch, a redirect or a
heredoc: `planted`). The rule ``tls-verify-off-file`` decides the mark.
"""

from __future__ import annotations

import posixpath
import re

from amplifier_hooks.guard.model import Piece

__all__ = ["TLS_OFF", "tls_off_pieces"]

TLS_OFF = "@tls-verify-off-file"
"""The mark of a settings file's text that switches TLS checking off."""

_OFF = {
    ".curlrc": re.compile(r"^\s*(?:-k\b|--?insecure\b|insecure\b)", re.M),
    ".wgetrc": re.compile(r"^\s*check_certificate\s*=\s*off\b", re.M | re.I),
    "pip.conf": re.compile(r"^\s*trusted[-_]host\s*=", re.M | re.I),
    "pip.ini": re.compile(r"^\s*trusted[-_]host\s*=", re.M | re.I),
    ".npmrc": re.compile(r"^\s*strict-ssl\s*=\s*false\b", re.M | re.I),
    ".yarnrc": re.compile(r"^\s*strict-ssl\s+false\b", re.M | re.I),
    ".yarnrc.yml": re.compile(r"^\s*enableStrictSsl\s*:\s*false\b", re.M | re.I),
    ".gitconfig": re.compile(r"^\s*sslVerify\s*=\s*(?:false|no|off|0)\b", re.M | re.I),
}
"""Each settings file's name, and the line that switches its TLS checking off."""
_GIT_CONFIG = re.compile(r"(?:^|/)(?:\.git/config|\.config/git/config)$")


def tls_off_pieces(path: str, text: str) -> tuple[Piece, ...]:
    """A piece marked `TLS_OFF` when ``text``, written into the settings file at ``path``,
    switches TLS checking off (none otherwise)."""
    name = posixpath.basename(path)
    found = _OFF.get(name)
    if found is None and _GIT_CONFIG.search(path):
        found = _OFF[".gitconfig"]
    if found is None or not found.search(text):
        return ()
    why = f"{path} holds the settings every later run of the tool reads"
    return (Piece(text=path, program="true", wrappers=(TLS_OFF,), doubt=why),)
