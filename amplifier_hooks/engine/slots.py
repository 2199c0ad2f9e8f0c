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

# Light on purpose: the package's root plugs these slots on every import of
# amplifier_hooks, so a command hook's process imports this module too, and `typing`
# alone costs it more than the relay it runs (docs/performance.md). The typed names
# (`RegistryAdapter`, the plug-in signatures) live in `slot_types`, imported on first use.
TYPE_CHECKING = False  # not typing's (see above)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Generic, TypeVar

    from amplifier_hooks.engine.slot_types import BundleBuilder as BundleBuilder
    from amplifier_hooks.engine.slot_types import ForeignResultReader as ForeignResultReader
    from amplifier_hooks.engine.slot_types import Handler as Handler
    from amplifier_hooks.engine.slot_types import RegistryAdapter as RegistryAdapter

    T = TypeVar("T")

    class _Generic(Generic[T]):
        """What type checkers see: `Slot` is generic in its plug-in's type."""

else:
    T = None

    class _Generic:
        """At run time ``Slot[X]`` is `Slot` itself."""

        def __class_getitem__(cls, item: object) -> type:
            return cls


__all__ = [
    "BundleBuilder",
    "ForeignResultReader",
    "RegistryAdapter",
    "Slot",
    "bundle_builder",
    "foreign_results",
]

_TYPED = ("BundleBuilder", "ForeignResultReader", "Handler", "RegistryAdapter")


class Slot(_Generic[T]):
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


def __getattr__(name: str) -> object:
    if name not in _TYPED:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from amplifier_hooks.engine import slot_types

    value: object = getattr(slot_types, name)
    globals()[name] = value
    return value
