"""Extension points: where an upper layer plugs behaviour into the core.

The core (registry, calling, coordinator) must not import the layers built on it -- the
bundle loader, the Amplifier compatibility -- yet some of its features are theirs to
provide. Two are process-wide: reading a result of another library's ``HookResult`` class,
and building a coordinator from a bundle. Each is a `Slot` here: the core asks the slot, an
upper layer plugs its function in. ``amplifier_hooks/__init__.py`` (the package's
composition root, which runs before any of its modules) plugs the library's own, each
loaded on first use, so a program that never meets a foreign result or a bundle never
imports their layers.

One is per registry: a `RegistryAdapter` given to a `HookRegistry` changes how that
registry's handlers are called and what its emit reports, so that a compatibility layer
can give the registries it makes another system's semantics (the ``amplifier_core`` alias
does: `amplifier_hooks.amplifier.reference_hooks`) while every other registry keeps this
project's.

The layering itself is stated as import-linter contracts in ``pyproject.toml``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

if TYPE_CHECKING:  # both below this module: the core's extension points import no more
    from amplifier_hooks.engine.resolution import Resolution
    from amplifier_hooks.engine.result import HookResult

__all__ = [
    "BundleBuilder",
    "ForeignResultReader",
    "RegistryAdapter",
    "Slot",
    "bundle_builder",
    "foreign_results",
]

T = TypeVar("T")


class Slot(Generic[T]):
    """One extension point: holds the plug-in the core calls, one at a time."""

    def __init__(self, name: str, purpose: str) -> None:
        self.name = name
        self.purpose = purpose
        self._plugged: T | None = None

    def plug(self, plugin: T) -> Callable[[], None]:
        """Make ``plugin`` the one the core calls; returns a function that puts back
        whatever was plugged before (a test plugs a stand-in and restores the real one)."""
        if not callable(plugin):
            raise TypeError(f"a plug-in for {self.name} must be callable, got {plugin!r}")
        previous, self._plugged = self._plugged, plugin

        def unplug() -> None:
            self._plugged = previous

        return unplug

    def get(self) -> T:
        """The plug-in; a LookupError that says what is missing if there is none."""
        if self._plugged is None:
            raise LookupError(f"nothing is plugged into {self.name} ({self.purpose})")
        return self._plugged

    @property
    def plugged(self) -> bool:
        return self._plugged is not None

    def __repr__(self) -> str:
        return f"Slot({self.name!r}, plugged={self.plugged})"


ForeignResultReader = Callable[[Mapping[str, Any]], "HookResult"]
"""Maps the field values of another library's result (its ``model_dump()``) onto a
`HookResult`; raises if they cannot be read (the handler then counts as failed)."""

BundleBuilder = Callable[..., Awaitable[Any]]
"""``await builder(bundle, *, strict=None, factory=cls, **coordinator_kwargs)``: a
coordinator of class ``factory`` with every module of ``bundle`` mounted (`from_bundle`
checks that it is one)."""

Handler = Callable[[str, dict[str, Any]], Any]
"""A handler, as `amplifier_hooks.engine.calling.Handler` (restated: calling imports this
module)."""

foreign_results: Slot[ForeignResultReader] = Slot(
    "amplifier_hooks.engine.slots.foreign_results",
    "reading a handler's result of another library's HookResult class",
)
"""Asked by the calling path for a result with ``model_dump`` that is not a `HookResult`;
the Amplifier compatibility's reader is plugged in (`amplifier.foreign_results`)."""

bundle_builder: Slot[BundleBuilder] = Slot(
    "amplifier_hooks.engine.slots.bundle_builder", "Coordinator.from_bundle (the bundle loader)"
)
"""Asked by `Coordinator.from_bundle`; the bundle loader's `build_coordinator` is plugged in."""


class RegistryAdapter(Protocol):
    """Another system's semantics for one `HookRegistry` (its ``adapter=``)."""

    def adapt_handler(self, handler: Handler) -> Handler:
        """What the registry calls in place of ``handler`` (registered under the name and
        options of ``handler`` itself)."""
        ...

    def adapt_resolution(self, resolution: Resolution) -> Resolution:
        """What an emit that ran handlers returns in place of ``resolution``."""
        ...
