"""An edit that makes the project's code read the keys a person keeps in the home folder.

``fs.readFileSync(`${os.homedir()}/.ssh/id_ed25519`)`` added to a telemetry module, a
postinstall script that walks ``~/.config/google-chrome/Default`` for ``Login Data`` and
``Cookies``: the code then reads, on every machine it runs on, what signs its person in
elsewhere, and the change reads as a small edit (the guard never sees the read: the code
does it later). New text that joins the home folder (``homedir()``, ``expanduser("~``,
``Path.home()``, ``process.env.HOME``) to a private key, a browser's credential file, a cloud CLI's
credentials or a password store, within a few lines, is marked `HOME_KEYS_READ` (asked);
with a request to an absolute URL in the same new text, `HOME_KEYS_SENT` (denied). A
public key (``id_ed25519.pub``), ``known_hosts`` and ``~/.ssh/config`` are not keys, and
a page of documentation (``.md``, ``.rst``, ``.txt``) tells a person; it reads nothing. A
shell script's ``$HOME`` is not read here: a written script's commands are judged as
commands (`earlier`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.ignorefiles import change_pairs

__all__ = ["HOME_KEYS_READ", "HOME_KEYS_SENT", "home_key_marks"]

HOME_KEYS_READ = "@home-keys-read"
HOME_KEYS_SENT = "@home-keys-sent"

_HOME = re.compile(
    r"homedir\(\)|expanduser\(\s*[\"']~|Path\.home\(\)|env(?:\.|\[[\"'])HOME\b"
    r"|getenv\(\s*[\"']HOME|environ(?:\.get\(|\[)\s*[\"'](?:HOME|USERPROFILE)|home_dir\(\)"
    r"|UserHomeDir\(\)|[\"'`]~/"
)
_KEY = re.compile(
    r"\bid_(?:rsa|ed25519|ecdsa|dsa)\b(?!\.pub)|\.aws/credentials|\.git-credentials|\.netrc\b"
    r"|\.config/gh/hosts|\.docker/config\.json|\.kube/config|\.password-store|\.gnupg\b"
    r"|Library/Keychains|Login Data|\bkey4\.db|logins\.json|google-chrome|BraveSoftware"
    r"|\.mozilla/firefox|\.claude/\.credentials|\.codex/auth\.json|application_default_credentials"
)
_SENT = re.compile(
    r"https?://[^\s\"'`/]+|\b(?:curl|wget)\b|sendBeacon|urlopen\(|requests\.(?:post|put)\("
)
_WINDOW = 300
_MAX_TEXT = 64 * 1024


_DOCS = (".md", ".mdx", ".rst", ".txt", ".adoc")


def home_key_marks(paths: tuple[str, ...], inputs: Mapping[str, Any]) -> tuple[str, ...]:
    """`HOME_KEYS_SENT` or `HOME_KEYS_READ` for new text of ``paths`` that reads a
    home-folder key the old text did not, else nothing."""
    if paths and all(path.lower().endswith(_DOCS) for path in paths):
        return ()
    pairs = change_pairs(inputs)
    read = False
    for old, new in pairs:
        if len(old) + len(new) > _MAX_TEXT:
            continue
        for found in _HOME.finditer(new):
            start = max(0, found.start() - _WINDOW)
            key = _KEY.search(new, start, found.end() + _WINDOW)
            if key is None or key.group() in old:
                continue
            if _SENT.search(new):
                return (HOME_KEYS_SENT,)
            read = True
    return (HOME_KEYS_READ,) if read else ()
