"""A file tool's write into ``~/.ssh/config`` that only names hosts: ``Host staging`` with
its ``HostName``, ``User``, ``Port``, ``ProxyJump``, ``IdentityFile``.

ssh's own settings can run code (``ProxyCommand``, ``LocalCommand`` with
``PermitLocalCommand``, ``Match exec``, ``KnownHostsCommand``), load a library
(``PKCS11Provider``, ``SecurityKeyProvider``) or pull in another file (``Include``), so a
change to the file is denied (`persistence-files`). A text whose every line is a comment,
blank, or one of `_PLAIN` (keywords that name where and as whom to connect, and how the
connection behaves) runs nothing of its own; it still changes where ssh connects (and an
Edit's text may land inside a line), so it is marked for a person to confirm
(`ssh-config-hosts`) rather than denied, never granted. Any other keyword, or a
line ssh would read otherwise, leaves the write unmarked.
"""

from __future__ import annotations

import re

__all__ = ["HOSTS_WRITTEN", "ssh_host_marks"]

HOSTS_WRITTEN = "@ssh-hosts-written"
"""A write to an ssh client config whose text only names hosts and connection settings."""

_CONFIG = re.compile(r"(?:^|/)\.ssh/config\Z")
_PLAIN = frozenset(
    k.lower()
    for k in (
        "Host", "HostName", "User", "Port", "ProxyJump", "IdentityFile", "IdentitiesOnly",
        "CertificateFile", "AddKeysToAgent", "UseKeychain", "ServerAliveInterval",
        "ServerAliveCountMax", "ConnectTimeout", "ConnectionAttempts", "Compression",
        "TCPKeepAlive", "PreferredAuthentications", "PubkeyAuthentication",
        "PasswordAuthentication", "LogLevel", "ControlMaster", "ControlPath",
        "ControlPersist", "LocalForward", "DynamicForward", "AddressFamily", "BindAddress",
        "RequestTTY", "IPQoS", "BatchMode",
    )
)  # fmt: skip
"""ssh_config(5) keywords that run, load and include nothing (``ForwardAgent`` and
``RemoteForward`` are left out: they open this machine to the other one; so are the host
key checks, ``StrictHostKeyChecking``, ``UserKnownHostsFile``, ``HostKeyAlias``,
``CheckHostIP``: turned off, any machine in between is trusted)."""
_LINE = re.compile(r"\s*(?:#.*)?|\s*([A-Za-z]+)(?:\s*=\s*|\s+)[^\s=].*")
"""A blank or comment line, or ``Keyword value`` (``Keyword=value``)."""


def ssh_host_marks(tool: str, written: str | None, paths: list[str]) -> tuple[str, ...]:
    """`HOSTS_WRITTEN` for an edit putting ``written`` into an ssh config that only names
    hosts (a whole file written, ``write_file``, replaces the person's entries: unmarked)."""
    if tool != "edit_file" or not written:
        return ()
    if not any(_CONFIG.search(p.replace("\\", "/")) for p in paths):
        return ()
    for line in written.splitlines():
        found = _LINE.fullmatch(line)
        if found is None or (found[1] is not None and found[1].lower() not in _PLAIN):
            return ()
    return (HOSTS_WRITTEN,)
