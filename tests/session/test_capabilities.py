"""Capabilities: values modules offer each other by name through the coordinator."""

from __future__ import annotations

from amplifier_hooks.session.coordinator import Coordinator


async def test_capabilities() -> None:
    coordinator = Coordinator()
    assert coordinator.get_capability("summarize") is None
    assert coordinator.get_capability("summarize", "fallback") == "fallback"
    unregister = coordinator.register_capability("summarize", len)
    assert coordinator.get_capability("summarize") is len
    unregister()
    assert coordinator.get_capability("summarize") is None
