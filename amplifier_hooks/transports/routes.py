"""The host adapters a server answers for, by the name in their URL path -- the same as
the CLI's command for that host (`amplifier_hooks.hosts.HOSTS`)."""

from __future__ import annotations

from amplifier_hooks.hosts import HostAdapter, host_commands, host_named

__all__ = ["adapter_named", "known_adapters"]


def known_adapters() -> dict[str, HostAdapter]:
    """Every adapter, by name: ``POST /claude-code`` is answered by `CLAUDE_CODE`."""
    return host_commands()


def adapter_named(name: str) -> HostAdapter:
    """The adapter called ``name``; `KeyError` naming the known ones."""
    return host_named(name)
