"""The host adapters a server answers for, by the name in their URL path."""

from __future__ import annotations

from amplifier_hooks.hosts import CLAUDE_CODE, CODEX, HostAdapter

__all__ = ["adapter_named", "known_adapters"]


def known_adapters() -> dict[str, HostAdapter]:
    """Every adapter, by name: ``POST /claude-code`` is answered by `CLAUDE_CODE`."""
    return {adapter.name: adapter for adapter in (CLAUDE_CODE, CODEX)}


def adapter_named(name: str) -> HostAdapter:
    """The adapter called ``name``; `KeyError` naming the known ones."""
    adapters = known_adapters()
    try:
        return adapters[name]
    except KeyError:
        raise KeyError(f"no host called {name!r}; known: {', '.join(sorted(adapters))}") from None
