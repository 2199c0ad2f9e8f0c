"""The host adapters a server answers for, by the name in their URL path -- the same as
the CLI's command for that host (`amplifier_hooks.hosts.HOSTS`)."""

from __future__ import annotations

from amplifier_hooks.hosts import HostAdapter, host_commands

__all__ = ["known_adapters"]


def known_adapters() -> dict[str, HostAdapter]:
    """Every adapter, by name: ``POST /claude-code`` is answered by `CLAUDE_CODE`."""
    return host_commands()
