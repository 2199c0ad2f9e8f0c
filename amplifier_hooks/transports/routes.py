"""The host adapters a server answers for, by the name in their URL path -- the same as
the CLI's command for that host (``claude-code``, ``codex``, ``gemini``)."""

from __future__ import annotations

from amplifier_hooks.hosts import CLAUDE_CODE, CODEX, GEMINI, HostAdapter

__all__ = ["adapter_named", "known_adapters"]


def known_adapters() -> dict[str, HostAdapter]:
    """Every adapter, by name: ``POST /claude-code`` is answered by `CLAUDE_CODE`."""
    return {"claude-code": CLAUDE_CODE, "codex": CODEX, "gemini": GEMINI}


def adapter_named(name: str) -> HostAdapter:
    """The adapter called ``name``; `KeyError` naming the known ones."""
    adapters = known_adapters()
    try:
        return adapters[name]
    except KeyError:
        raise KeyError(f"no host called {name!r}; known: {', '.join(sorted(adapters))}") from None
