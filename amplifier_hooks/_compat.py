"""An opt-in ``amplifier_core`` alias, so modules written for the reference system load
unchanged.

Such modules do ``from amplifier_core.models import HookResult`` and
``from amplifier_core.hooks import HookRegistry``. The alias registers three tiny modules
under those names in `sys.modules`, backed by this library's classes. It is never
installed on import, and never when a real ``amplifier_core`` can be imported: shadowing
an installed package would be far worse than a clear import error.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Mapping
from importlib.machinery import ModuleSpec
from types import ModuleType

import structlog

from amplifier_hooks.registry import HookRegistry
from amplifier_hooks.result import HookResult

logger = structlog.get_logger("amplifier_hooks")

AMPLIFIER_CORE = "amplifier_core"
COMPAT_ENV = "AMPLIFIER_HOOKS_COMPAT"
"""Environment variable: a comma-separated list of compat names (``amplifier_core``)."""

_MARK = "__amplifier_hooks_alias__"
_NAMES = (AMPLIFIER_CORE, f"{AMPLIFIER_CORE}.models", f"{AMPLIFIER_CORE}.hooks")


def _module(name: str, doc: str, *, package: bool = False, **attrs: object) -> ModuleType:
    module = ModuleType(name, doc)
    module.__spec__ = ModuleSpec(
        name, loader=None, origin="amplifier_hooks alias", is_package=package
    )
    if package:
        module.__path__ = []  # a package with nothing else to find in it
    setattr(module, _MARK, True)
    for key, value in attrs.items():
        setattr(module, key, value)
    return module


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
    models = _module(
        f"{AMPLIFIER_CORE}.models",
        "amplifier_hooks alias of amplifier_core.models",
        HookResult=HookResult,
    )
    hooks = _module(
        f"{AMPLIFIER_CORE}.hooks",
        "amplifier_hooks alias of amplifier_core.hooks",
        HookRegistry=HookRegistry,
        HookResult=HookResult,
    )
    core = _module(
        AMPLIFIER_CORE,
        "amplifier_hooks alias of amplifier_core (installed by the loader on request)",
        package=True,
        models=models,
        hooks=hooks,
        HookResult=HookResult,
        HookRegistry=HookRegistry,
    )
    # Children first: no import can observe the package without its submodules.
    sys.modules[models.__name__] = models
    sys.modules[hooks.__name__] = hooks
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


def compat_requested(environ: Mapping[str, str] | None = None) -> bool:
    """True when the environment asks for the alias (``AMPLIFIER_HOOKS_COMPAT=amplifier_core``)."""
    value = (os.environ if environ is None else environ).get(COMPAT_ENV, "")
    return AMPLIFIER_CORE in {part.strip() for part in value.split(",")}
