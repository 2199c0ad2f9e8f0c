"""A hook module whose ``tool:pre`` handler does nothing: a bundle of it shows what a
handler on the call costs the server (the registry's emit, the call, its result) apart
from any handler's own work (``bench_guard``'s HTTP rows; mounted from this file as a
bundle's ``source``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from amplifier_hooks import events
from amplifier_hooks.modules import CoordinatorView, Mounting, inline


@inline  # on the event loop, as ah-guard's handler is
def nothing(event: str, data: dict[str, Any]) -> None:
    """The ``tool:pre`` handler: no opinion."""
    return None


async def mount(
    coordinator: CoordinatorView, config: Mapping[str, Any] | None = None
) -> Callable[[], None]:
    """Register `nothing` on ``tool:pre``, fail-closed as ah-guard's handler is."""
    with Mounting(coordinator, "bench-noop") as mounting:
        mounting.register(events.TOOL_PRE, nothing, 0, name="nothing", fail_closed=True)
    return mounting.cleanup
