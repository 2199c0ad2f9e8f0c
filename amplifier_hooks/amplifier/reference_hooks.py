"""The reference's emit semantics, for the registries the ``amplifier_core`` alias makes.

In the reference (amplifier-core 1.x), every handler of an emit is handed the same dict:
an edit a handler makes in place is seen by the handlers after it and by the caller, and
the emit's result says ``continue`` whether or not a handler returned ``modify``; a deny
returns the denying handler's own result, whose ``data`` is None. This project's
registry gives each handler its own copy (CONTRACT §3: only ``modify`` changes the data)
and reports the highest action seen.

`ReferenceSemantics` (a `RegistryAdapter`) bridges the two for one registry: a handler
that edits the top-level dict in place and returns None or a plain ``continue`` has that
edit recorded as a ``modify`` of its own, so the fold stays the same pure fold; then the
emit reports ``modify`` as ``continue`` and a deny with no data. `ReferenceHookRegistry`
is a `HookRegistry` with it: the alias's ``amplifier_core.HookRegistry``, and the registry
of a ``ModuleCoordinator(session)``. Registries this project makes (including the one a
bundle's modules share) keep this project's semantics.

Known difference: an in-place edit by a handler that returns ``inject_context`` or
``ask_user`` is not seen by later handlers (one result carries one action); in
``emit_and_collect`` an in-place edit counts as that handler's data.
"""

from __future__ import annotations

import functools
import inspect
from typing import Any

from amplifier_hooks.engine.calling import Handler
from amplifier_hooks.engine.registry import HookRegistry
from amplifier_hooks.engine.resolution import Resolution
from amplifier_hooks.engine.result import HookResult

__all__ = ["ReferenceHookRegistry", "ReferenceSemantics", "edited_in_place"]


def edited_in_place(before: dict[str, Any], after: dict[str, Any]) -> bool:
    """Whether the top level of ``after`` differs from ``before`` (a key added, removed or
    bound to another object). By identity: values are never compared, so no value's
    ``__eq__`` runs, and an object edited inside is already shared through the copy."""
    if len(before) != len(after):
        return True
    missing = object()
    return any(before.get(key, missing) is not value for key, value in after.items())


def _continues(value: Any) -> bool:
    return value is None or (isinstance(value, HookResult) and value.action == "continue")


def _as_modify(value: HookResult | None, data: dict[str, Any]) -> HookResult:
    if value is None:
        return HookResult(action="modify", data=data)
    # The registry validates a copied result again before it folds it (`is_checked`).
    return value.model_copy(update={"action": "modify", "data": data})


class ReferenceSemantics:
    """The reference's semantics for one registry (see the module's doc)."""

    def adapt_handler(self, handler: Handler) -> Handler:
        @functools.wraps(handler)
        async def seen_in_place(event: str, data: dict[str, Any]) -> Any:
            before = data.copy()
            value = handler(event, data)
            if inspect.isawaitable(value):
                value = await value
            if _continues(value) and edited_in_place(before, data):
                return _as_modify(value, data)
            return value

        return seen_in_place

    def adapt_resolution(self, resolution: Resolution) -> Resolution:
        if resolution.action == "modify":
            return resolution.model_copy(update={"action": "continue"})
        if resolution.action == "deny" and resolution.data is not None:
            return resolution.model_copy(update={"data": None})
        return resolution


REFERENCE_SEMANTICS = ReferenceSemantics()


class ReferenceHookRegistry(HookRegistry):
    """A `HookRegistry` with the reference's emit semantics (``amplifier_core.HookRegistry``
    under the alias). Takes the same keyword arguments, except ``adapter``."""

    def __init__(self, **options: Any) -> None:
        super().__init__(adapter=REFERENCE_SEMANTICS, **options)
