"""A change that lets people into machines more easily: sudo for every command with no
password, root's login or password logins over SSH switched on, a key that logs in as
root, a password in plain text in a machine's first-boot config, an MQTT broker open to
anonymous clients or to clients with no certificate, Home Assistant's login bypassed.

Such text lands in a sudoers file, an ``sshd_config`` (or its template), a role's
variables or a cloud-config, and reaches every machine the project configures at its next
run. A write or edit that adds it (it was not in the text it replaces) is marked
`ACCESS_WIDENED` (asked), whichever file it is in: the same line means the same in a
template, a role's ``files/`` and ``/etc``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.ignorefiles import change_pairs

__all__ = ["ACCESS_WIDENED", "widens_access"]

ACCESS_WIDENED = "@host-access-widened"
_WIDENED = re.compile(
    r"^\s*(?:PermitRootLogin|PermitEmptyPasswords|PasswordAuthentication)\s+yes\b"
    r"|^\s*[\"']?(?:[\w:]+::|[\w]+_)?(?:permit_root_login|permit_empty_passwords"
    r"|password_authentication|ssh_pwauth)[\"']?\s*[:=]>?\s*[\"']?(?:yes|true)\b"
    r"|^\s*plain_text_passwd\s*:"  # cloud-init: a user's password, readable by all
    r"|^\s*allow_anonymous\s+true\b|^\s*require_certificate\s+false\b"  # an MQTT broker's
    r"|allow_bypass_login\s*:\s*true\b"  # Home Assistant's trusted networks, no login
    r"|^[^#\n]*::respawn:-?/bin/(?:ba|a|da)?sh\b"  # inittab: a console's shell with no login
    r"|--autologin\s+root\b",  # a getty that logs root in
    re.MULTILINE | re.IGNORECASE,
)
_NOPASSWD_ALL = re.compile(r"NOPASSWD\s*:\s*ALL\b")
"""sudo for every command with no password (a cloud-config's default user has it by
custom: there it is not read)."""
_ROOT_KEY = re.compile(
    r"(?:authorized_key|ssh_authorized_key|ssh\.set_auth_key)\b[\s\S]{0,400}?"
    r"\buser\s*(?::|=>)\s*[\"']?root\b",
)
"""A key added for root: Ansible's ``authorized_key`` (``user: root``), Puppet's
``ssh_authorized_key`` (``user => 'root'``)."""


_ALLOW_LIST = re.compile(
    r"\b(?P<key>allow(?:ed)?_?(?:ids|ips|hosts|sources|cidrs|senders|peers|clients))"
    r"[\"']?\s*[:=]\s*\[(?P<items>[^\]]*)\]",
    re.IGNORECASE,
)
"""An allow list of a gateway, a firewall or a broker: empty, nothing is let through."""


def _opened(old: str, new: str) -> bool:
    """An allow list that was empty given entries (a CAN gateway's ``allow_ids: []``)."""
    empty = {m["key"].lower() for m in _ALLOW_LIST.finditer(old) if not m["items"].strip()}
    return any(m["key"].lower() in empty and m["items"].strip() for m in _ALLOW_LIST.finditer(new))


def widens_access(inputs: Mapping[str, Any]) -> bool:
    """Whether the text a write or edit adds widens who gets into a machine."""
    for old, new in change_pairs(inputs):
        if old and _opened(old, new):
            return True
        cloud = new.lstrip().startswith("#cloud-config")
        for pattern in (_WIDENED, _ROOT_KEY) if cloud else (_WIDENED, _ROOT_KEY, _NOPASSWD_ALL):
            added = {m.group(0).strip().lower() for m in pattern.finditer(new)}
            if added - {m.group(0).strip().lower() for m in pattern.finditer(old)}:
                return True
    return False
