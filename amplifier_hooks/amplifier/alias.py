"""The ``amplifier_core`` alias, so modules written for the reference system load unchanged.

Such modules do ``from amplifier_core import HookResult, ModuleCoordinator``,
``from amplifier_core.events import ALL_EVENTS``, ``from amplifier_core.interfaces import
ApprovalRequest`` and so on. The alias registers ``amplifier_core`` and its submodules
(``models``, ``hooks``, ``events``, ``coordinator``, ``interfaces``, ``testing``) in
`sys.modules`, backed by this library's classes. What stands in for the reference's kernel
behaves like it: ``amplifier_core.HookRegistry()`` and ``ModuleCoordinator(session)`` have
the reference's emit semantics (`reference_hooks`: an edit made in place is seen).

The loader installs it before it imports a bundle's modules unless the bundle
(``compat: off``), the environment (``AMPLIFIER_HOOKS_COMPAT=off``) or the caller
(``compat=False``) turns it off. Importing ``amplifier_hooks`` alone never installs it: code
that probes ``import amplifier_core`` to detect the reference must not be fooled by a
library import. And it is never installed when a real ``amplifier_core`` can be imported:
shadowing an installed package would be far worse than a clear import error.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Mapping
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Any

from amplifier_hooks.logs import get_logger

__all__ = [
    "COMPAT_ENV",
    "alias_installed",
    "install_amplifier_core_alias",
    "uninstall_amplifier_core_alias",
]

logger = get_logger()

AMPLIFIER_CORE = "amplifier_core"
COMPAT_ENV = "AMPLIFIER_HOOKS_COMPAT"
"""Environment variable: ``amplifier_core`` asks for the alias, ``off`` (or ``none``,
``0``, ``false``) refuses it; unset leaves it to the bundle (on by default)."""

ALIAS_VERSION = "1.0.0+amplifier-hooks"
"""``amplifier_core.__version__`` under the alias: the 1.x API it follows, and who serves it."""

_OFF_WORDS = frozenset({"off", "none", "0", "false", "no"})
_MARK = "__amplifier_hooks_alias__"
_SUBMODULES = ("models", "hooks", "events", "coordinator", "interfaces", "testing")
_NAMES = (AMPLIFIER_CORE, *(f"{AMPLIFIER_CORE}.{sub}" for sub in _SUBMODULES))


def _module(name: str, doc: str, attrs: Mapping[str, Any], *, package: bool = False) -> ModuleType:
    module = ModuleType(name, doc)
    module.__spec__ = ModuleSpec(
        name, loader=None, origin="amplifier_hooks alias", is_package=package
    )
    if package:
        module.__path__ = []  # a package with nothing else to find in it
    setattr(module, _MARK, True)
    for key, value in attrs.items():
        setattr(module, key, value)
    module.__all__ = sorted(k for k in attrs if not k.startswith("_"))  # type: ignore[attr-defined]
    return module


def alias_surface() -> dict[str, dict[str, Any]]:
    """Submodule -> the names it exports (``""`` is the package itself).

    Imported here, not at the top: the surface pulls in the coordinator and the loader's
    helpers, which a plain ``import amplifier_hooks`` does not need.
    """
    from amplifier_hooks.amplifier import events
    from amplifier_hooks.amplifier.models import (
        AmplifierApprovalProvider,
        AmplifierApprovalRequest,
        AmplifierApprovalResponse,
        ContextInjection,
        HookHandler,
    )
    from amplifier_hooks.amplifier.module_coordinator import ModuleCoordinator
    from amplifier_hooks.amplifier.reference_hooks import ReferenceHookRegistry as HookRegistry
    from amplifier_hooks.amplifier.testing import (
        EventRecorder,
        MockContextManager,
        TestCoordinator,
        create_test_coordinator,
        wait_for,
    )
    from amplifier_hooks.engine.result import HookResult

    approvals = {
        "ApprovalProvider": AmplifierApprovalProvider,
        "ApprovalRequest": AmplifierApprovalRequest,
        "ApprovalResponse": AmplifierApprovalResponse,
    }
    testing = {
        "TestCoordinator": TestCoordinator,
        "MockCoordinator": TestCoordinator,
        "EventRecorder": EventRecorder,
        "MockContextManager": MockContextManager,
        "create_test_coordinator": create_test_coordinator,
        "wait_for": wait_for,
    }
    models = {"HookResult": HookResult, "ContextInjection": ContextInjection, **approvals}
    return {
        "models": models,
        "hooks": {
            "HookRegistry": HookRegistry,
            "HookResult": HookResult,
            "ContextInjection": ContextInjection,
        },
        "events": dict(events.NAMES, ALL_EVENTS=list(events.ALL_EVENTS)),
        "coordinator": {"ModuleCoordinator": ModuleCoordinator},
        "interfaces": {**approvals, "HookHandler": HookHandler, "HookResult": HookResult},
        "testing": testing,
        "": {
            "__version__": ALIAS_VERSION,
            "HookRegistry": HookRegistry,
            "ModuleCoordinator": ModuleCoordinator,
            "HookHandler": HookHandler,
            **models,
            **testing,
        },
    }


def alias_installed() -> bool:
    """True when ``amplifier_core`` in this process is our alias."""
    return bool(getattr(sys.modules.get(AMPLIFIER_CORE), _MARK, False))


def install_amplifier_core_alias() -> bool:
    """Register the alias unless a real ``amplifier_core`` is importable.

    Returns True when the alias is in place (now or already), False when a real
    ``amplifier_core`` is used instead. Idempotent.
    """
    existing = sys.modules.get(AMPLIFIER_CORE)
    if existing is not None:
        return bool(getattr(existing, _MARK, False))
    if importlib.util.find_spec(AMPLIFIER_CORE) is not None:
        logger.info("a real amplifier_core is installed; the compatibility alias is not used")
        return False
    surface = alias_surface()
    children = {
        sub: _module(
            f"{AMPLIFIER_CORE}.{sub}", f"amplifier_hooks alias of amplifier_core.{sub}", names
        )
        for sub, names in surface.items()
        if sub
    }
    core = _module(
        AMPLIFIER_CORE,
        "amplifier_hooks alias of amplifier_core (the reference's hook-module surface)",
        {**surface[""], **children},
        package=True,
    )
    # Children first: no import can observe the package without its submodules.
    for module in children.values():
        sys.modules[module.__name__] = module
    sys.modules[AMPLIFIER_CORE] = core
    logger.debug("amplifier_core compatibility alias installed")
    return True


def uninstall_amplifier_core_alias() -> None:
    """Remove the alias (a real ``amplifier_core`` is never touched)."""
    if not alias_installed():
        return
    for name in _NAMES:
        module = sys.modules.get(name)
        if module is not None and getattr(module, _MARK, False):
            del sys.modules[name]


def _env_words(environ: Mapping[str, str] | None) -> set[str]:
    value = (os.environ if environ is None else environ).get(COMPAT_ENV, "")
    return {part.strip().lower() for part in value.split(",") if part.strip()}


def compat_requested(environ: Mapping[str, str] | None = None) -> bool:
    """True when the environment asks for the alias (``AMPLIFIER_HOOKS_COMPAT=amplifier_core``)."""
    return AMPLIFIER_CORE in _env_words(environ)


def compat_refused(environ: Mapping[str, str] | None = None) -> bool:
    """True when the environment turns the alias off (``AMPLIFIER_HOOKS_COMPAT=off``)."""
    return bool(_env_words(environ) & _OFF_WORDS)


def compat_wanted(
    caller: bool | None, bundle_compat: list[str], environ: Mapping[str, str] | None = None
) -> bool:
    """Whether a load should install the alias: the caller decides if it says; else a
    bundle's ``compat: off``, then the environment's ``off``, turn it off; else on."""
    if caller is not None:
        return caller
    if "none" in bundle_compat:
        return False
    if AMPLIFIER_CORE in bundle_compat:
        return True
    return not compat_refused(environ)
