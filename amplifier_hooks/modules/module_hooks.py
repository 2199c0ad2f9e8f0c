"""`ModuleHooks`: the registry a mounted module holds as ``coordinator.hooks``, and nothing more.

The loader controls a module's registrations through its `ScopedHooks`: staged while the
bundle mounts, put live with the whole bundle, taken out at unload. Those controls must
not be in the module's hands (a module that activates itself during ``mount`` would go
live before the rest of its bundle), so the module gets this view instead: the members a
module may call, registrations passed on to the `ScopedHooks` behind it (which no public
attribute reaches), the rest to the session's registry.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from amplifier_hooks.engine.calling import Handler
from amplifier_hooks.engine.options import HookOptions
from amplifier_hooks.engine.registrar import Registrar, Unregister
from amplifier_hooks.engine.resolution import Resolution

if TYPE_CHECKING:
    from amplifier_hooks.modules.scoped import ScopedHooks
    from amplifier_hooks.modules.view import HooksView


class ModuleHooks(Registrar):
    """The registry a module receives as ``coordinator.hooks``.

    It offers the members of `amplifier_hooks.modules.HooksView` (`register`, `add`,
    `register_all`, `emit`, `emit_and_collect`, `list_handlers`) plus what the reference's
    registry offers a published Amplifier module (`on`, `set_default_fields`): it is the
    one layer between a module and the registry. Registrations go to the module's
    `ScopedHooks`; the rest acts on the session's registry. The loader's controls
    (`ScopedHooks.activate`, `close`, `make_approving`, `state`, ...) and the rest of
    `HookRegistry` are an `AttributeError`.
    """

    __slots__ = ("_scope",)

    def __init__(self, scope: ScopedHooks) -> None:
        self._scope = scope

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of hook module {self._scope.owner!r}>"

    on = Registrar.register
    """Alias of `register` (the reference's name)."""

    def add(self, event: str, handler: Handler, options: HookOptions) -> Unregister:
        """Register with the options as one record (``register``, ``on`` and
        ``register_all`` come here): the bundle's override for the handler's name applies,
        and the owner is always the module's key (see `ScopedHooks.add`)."""
        return self._scope.add(event, handler, options)

    async def emit(self, event: str, data: Mapping[str, Any] | None = None) -> Resolution:
        """Emit on the session's registry (every module's handlers, not only this one's)."""
        return await self._scope.registry.emit(event, data)

    async def emit_and_collect(
        self, event: str, data: Mapping[str, Any] | None = None, timeout: float = 1.0
    ) -> list[Any]:
        """See `HookRegistry.emit_and_collect`."""
        return await self._scope.registry.emit_and_collect(event, data, timeout)

    def list_handlers(self, event: str | None = None) -> dict[str, list[str]]:
        """The session's handler names per event (see `HookRegistry.list_handlers`)."""
        return self._scope.registry.list_handlers(event)

    def set_default_fields(self, **fields: Any) -> None:
        """Merge ``fields`` under the data of every emit of the session (the reference's
        registry lets a module do this; the emitted data still wins). Session-wide, like
        `emit`: the fields stay when the module unloads."""
        if self._scope.state == "closed":
            raise RuntimeError(
                f"hook module {self._scope.owner!r} is unloaded; it cannot set fields"
            )
        self._scope.registry.set_default_fields(**fields)


if TYPE_CHECKING:

    def _is_hooks_view(hooks: ModuleHooks) -> HooksView:
        """For mypy only: a `HooksView` member that `ModuleHooks` lacks, or offers with
        another signature, is a type error here."""
        return hooks


__all__ = ["ModuleHooks"]
