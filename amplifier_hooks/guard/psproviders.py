"""Paths that name no file: a registry key (``HKCU:\\...``), written as ``reg`` would be given
it so the rules on ``reg`` (Run keys, services) judge the cmdlets that change the registry
too; and the ``Env:`` drive, whose items are environment variables, not files.
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.psbound import Bound

__all__ = ["environment", "registry"]

_REGISTRY = re.compile(r"^(?:registry::)?(hk[a-z_]+):?(?=/|$)", re.IGNORECASE)
_ENV_DRIVE = re.compile(r"^env:[/\\]?\*?$", re.IGNORECASE)
_ENV_ITEM = re.compile(r"^env:[/\\]?(\w+)$", re.IGNORECASE)


def registry(plain: str | None) -> str | None:
    """``plain`` as a registry key (``HKCU/Software/...``), or None when it is no key."""
    if plain is None:
        return None
    found = _REGISTRY.match(plain)
    return None if found is None else found.group(1).upper() + plain[found.end() :]


def environment(bound: Bound) -> str | None:
    """``Get-Content Env:NAME`` and the like: the variable printed (``Env:`` all of them)."""
    for name in ("path", "literalpath"):
        plain = bound.first(name, path=True)
        if plain is None:
            continue
        if _ENV_DRIVE.match(plain):
            return "env"
        item = _ENV_ITEM.match(plain)
        if item is not None:
            return "printenv " + item.group(1)
    return None
