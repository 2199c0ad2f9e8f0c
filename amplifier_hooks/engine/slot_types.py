"""The typed names of `amplifier_hooks.engine.slots`: the signatures of its plug-ins and
the `RegistryAdapter` protocol (``slots`` re-exports them)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:  # both below this module: the core's extension points import no more
    from amplifier_hooks.engine.resolution import Resolution
    from amplifier_hooks.engine.result import HookResult

__all__ = ["BundleBuilder", "ForeignResultReader", "Handler", "RegistryAdapter"]

ForeignResultReader = Callable[[Mapping[str, Any]], "HookResult"]
"""Maps the field values of another library's result (its ``model_dump()``) onto a
`HookResult`; raises if they cannot be read (the handler then counts as failed)."""

BundleBuilder = Callable[..., Awaitable[Any]]
"""``await builder(bundle, *, strict=None, factory=cls, **coordinator_kwargs)``: a
coordinator of class ``factory`` with every module of ``bundle`` mounted (`from_bundle`
checks that it is one)."""

Handler = Callable[[str, dict[str, Any]], Any]
"""A handler, as `amplifier_hooks.engine.handler_entry.Handler` (restated: handler_entry
imports this module)."""


class RegistryAdapter(Protocol):
    """Another system's semantics for one `HookRegistry` (its ``adapter=``)."""

    def adapt_handler(self, handler: Handler) -> Handler:
        """What the registry calls in place of ``handler`` (registered under the name and
        options of ``handler`` itself)."""
        ...

    def adapt_resolution(self, resolution: Resolution) -> Resolution:
        """What an emit that ran handlers returns in place of ``resolution``."""
        ...
