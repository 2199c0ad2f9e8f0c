"""An edit that takes off what confines a workload or a managed device.

A pod's ``securityContext`` made ``privileged: true``, its SELinux type ``spc_t`` or its
AppArmor or seccomp profile ``Unconfined``, the host's process or network namespace
shared, capabilities ``ALL`` added: from the next rollout on the container is root on its
node. A device-management profile's lock turned off (``PayloadRemovalDisallowed`` made
``<false/>``, a ``Disallow``/``Require``/``Enforce`` key likewise) lets each user remove
or ignore the baseline at the next push. Each is a protection switched off
(`switchedoff`'s mark, asked).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.changedtext import more
from amplifier_hooks.guard.ignorefiles import change_pairs

__all__ = ["unconfines"]

_UNCONFINED = re.compile(
    r"^\s*(?:privileged|allowPrivilegeEscalation|host(?:PID|IPC|Network|Users))\s*:\s*true\b"
    r"|^\s*type\s*:\s*[\"']?(?:spc_t|unconfined_t|Unconfined)\b"
    r"|(?:seccomp|apparmor)[\w./-]*\s*[:=]\s*[\"']?(?:unconfined|Unconfined)\b"
    r"|^\s*add\s*:\s*\[?\s*[\"']?(?:ALL|SYS_ADMIN|SYS_PTRACE|SYS_MODULE)\b"
    r"|^\s*-\s*[\"']?(?:ALL|SYS_ADMIN|SYS_MODULE)[\"']?\s*$"
    r"|^\s*User\s*=\s*root\s*$|^\s*runAsUser\s*:\s*0\s*$"
    r"|pod-security\.kubernetes\.io/enforce\s*:\s*[\"']?privileged\b",
    re.M,
)
"""A workload's confinement taken off (Kubernetes' and Compose's spellings), or a systemd
service made to run as root (``User=root``)."""
_LOCK = (
    r"<key>(?P<key>[^<]*(?:Disallow|Require|Enforce|Lock|Protect|Encrypt|Firewall|Block"
    r"|Prevent|Crash\w*Enabled)[^<]*)</key>\s*"
)
_LOCK_ON = re.compile(_LOCK + r"<true\s*/>")
_LOCK_OFF = re.compile(_LOCK + r"<false\s*/>")
"""A configuration profile's (plist) key that locks something, true or false."""
_MAX_TEXT = 64 * 1024


def unconfines(paths: tuple[str, ...], inputs: Mapping[str, Any]) -> bool:
    """Whether an edit takes a workload's confinement or a profile's lock off."""
    for old, new in change_pairs(inputs):
        if not old or len(old) + len(new) > _MAX_TEXT:
            continue
        if more(_UNCONFINED, old, new):
            return True
        locked = {m["key"] for m in _LOCK_ON.finditer(old)}
        if locked and not locked.isdisjoint(m["key"] for m in _LOCK_OFF.finditer(new)):
            return True
    return False
