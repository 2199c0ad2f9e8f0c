"""The hosts we answer for, written once: the CLI's ``<host> hook|install|uninstall``
commands, the server's ``POST /<host>`` routes, ``doctor`` and docs/hosts.md all come
from `HOSTS`."""

from __future__ import annotations

from amplifier_hooks.host_commands import HOST_COMMANDS
from amplifier_hooks.hosts.base import HostAdapter
from amplifier_hooks.hosts.claude_code import CLAUDE_CODE
from amplifier_hooks.hosts.cline import CLINE
from amplifier_hooks.hosts.codex import CODEX
from amplifier_hooks.hosts.copilot import COPILOT
from amplifier_hooks.hosts.gemini import GEMINI
from amplifier_hooks.hosts.openclaw import OPENCLAW
from amplifier_hooks.hosts.opencode import OPENCODE

__all__ = ["HOSTS", "host_commands", "host_named"]

HOSTS: tuple[HostAdapter, ...] = (CLAUDE_CODE, CODEX, GEMINI, COPILOT, OPENCODE, CLINE, OPENCLAW)
"""Every host adapter, in the order the docs list them."""

if tuple(adapter.profile.command for adapter in HOSTS) != HOST_COMMANDS:  # pragma: no cover
    raise ImportError("amplifier_hooks.host_commands does not name the adapters of HOSTS")


def host_commands() -> dict[str, HostAdapter]:
    """Every adapter by its command (``claude-code``, ``codex``, ``gemini``)."""
    return {adapter.profile.command: adapter for adapter in HOSTS}


def host_named(command: str) -> HostAdapter:
    """The adapter whose command is ``command``; `KeyError` naming the known ones."""
    adapters = host_commands()
    try:
        return adapters[command]
    except KeyError:
        known = ", ".join(sorted(adapters))
        raise KeyError(f"no host called {command!r}; known: {known}") from None
