"""The coordinator's capabilities: values modules offer each other by name.

`CapabilitiesMixin` is mixed into `Coordinator`. A capability is pulled by whoever needs
it (``get_capability("summarize")``), so the module that offers it and the modules that use
it never import each other; a later registration overrides an earlier one on purpose.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from amplifier_hooks.logs import get_logger

__all__ = ["CapabilitiesMixin"]

logger = get_logger()


class CapabilitiesMixin:
    """`register_capability` and `get_capability`, for `Coordinator`, which sets
    ``_capabilities`` to an empty dict in its constructor."""

    _capabilities: dict[str, Any]

    def register_capability(self, name: str, value: Any) -> Callable[[], None]:
        """Offer ``value`` to other modules under ``name``; returns an unregister function.

        A second registration under the same name replaces the first (logged), so a module
        can deliberately override a default implementation.
        """
        if name in self._capabilities:
            logger.info("capability replaced", capability=name)
        self._capabilities[name] = value

        def unregister() -> None:
            if self._capabilities.get(name) is value:
                del self._capabilities[name]

        return unregister

    def get_capability(self, name: str, default: Any = None) -> Any:
        """The value registered under ``name``, or ``default``."""
        return self._capabilities.get(name, default)
