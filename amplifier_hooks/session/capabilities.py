"""`Capabilities`: values a session's modules offer each other by name.

A capability is pulled by whoever needs it (``get_capability("summarize")``), so the module
that offers it and the modules that use it never import each other; a later registration
overrides an earlier one on purpose. The `Coordinator` owns one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from amplifier_hooks.logs import get_logger

__all__ = ["Capabilities"]

logger = get_logger()


class Capabilities:
    """Capabilities by name (`register` and `get`)."""

    __slots__ = ("_values",)

    def __init__(self) -> None:
        self._values: dict[str, Any] = {}

    def __contains__(self, name: object) -> bool:
        return name in self._values

    def register(self, name: str, value: Any) -> Callable[[], None]:
        """Offer ``value`` under ``name``; returns an unregister function. A second
        registration under the same name replaces the first (logged), so a module can
        deliberately override a default implementation."""
        if name in self._values:
            logger.info("capability replaced", capability=name)
        self._values[name] = value

        def unregister() -> None:
            if self._values.get(name) is value:
                del self._values[name]

        return unregister

    def get(self, name: str, default: Any = None) -> Any:
        """The value registered under ``name``, or ``default``."""
        return self._values.get(name, default)
