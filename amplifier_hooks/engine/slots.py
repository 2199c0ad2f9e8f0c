"""Extension points: where an upper layer plugs behaviour into the core.

The core (registry, calling, coordinator) must not import the layers built on it -- the
bundle loader, the Amplifier compatibility -- yet some of its features are theirs to
provide. Two are process-wide: reading a result of another library's ``HookResult`` class,
and building a coordinator from a bundle. Each is a `Slot` here: the core asks the slot, an
upper layer plugs its function in. Each slot names the library's own plug-in by module
path (as an entry point does), imported the first time the slot is asked with nothing
plugged: the core imports no layer above it, and a program that never meets a foreign
result or a bundle never imports their layers.

One is per registry: a `RegistryAdapter` given to a `HookRegistry` changes how that
registry's handlers are called and what its emit reports, so that a compatibility layer
can give the registries it makes another system's semantics (the ``amplifier_core`` alias
does: `amplifier_hooks.amplifier.reference_hooks`) while every other registry keeps this
project's.

The layering itself is stated as import-linter contracts in ``pyproject.toml``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Generic, TypeVar

from amplifier_hooks.engine.slot_types import (
    BundleBuilder,
    ForeignResultReader,
    Handler,
    RegistryAdapter,
)

__all__ = [
    "BundleBuilder",
    "ForeignResultReader",
    "Handler",
    "RegistryAdapter",
    "Slot",
    "bundle_builder",
    "foreign_results",
]

T = TypeVar("T")


class Slot(Generic[T]):
    """One extension point: holds the plug-in the core calls, one at a time."""

    def __init__(self, name: str, purpose: str, default: str | None = None) -> None:
        self.name = name
        self.purpose = purpose
        self.default = default
        """The plug-in used while none is plugged, as ``"module:attribute"``."""
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
        """The plug-in (the default, imported now, if none was plugged); a LookupError that
        says what is missing if there is none."""
        if self._plugged is None and self.default is not None:
            module, _, attribute = self.default.partition(":")
            self._plugged = getattr(importlib.import_module(module), attribute)
        if self._plugged is None:
            raise LookupError(f"nothing is plugged into {self.name} ({self.purpose})")
        return self._plugged

    @property
    def plugged(self) -> bool:
        """Whether a plug-in is there to call (its default counts, imported or not)."""
        return self._plugged is not None or self.default is not None

    def __repr__(self) -> str:
        return f"Slot({self.name!r}, plugged={self.plugged})"


foreign_results: Slot[ForeignResultReader] = Slot(
    "amplifier_hooks.engine.slots.foreign_results",
    "reading a handler's result of another library's HookResult class",
    default="amplifier_hooks.amplifier.foreign_results:from_foreign",
)
"""Asked by the calling path for a result with ``model_dump`` that is not a `HookResult`;
by default the Amplifier compatibility's reader (`amplifier.foreign_results`)."""

bundle_builder: Slot[BundleBuilder] = Slot(
    "amplifier_hooks.engine.slots.bundle_builder",
    "Coordinator.from_bundle (the bundle loader)",
    default="amplifier_hooks.bundles.loading:build_coordinator",
)
"""Asked by `Coordinator.from_bundle`; by default the bundle loader's `build_coordinator`."""
