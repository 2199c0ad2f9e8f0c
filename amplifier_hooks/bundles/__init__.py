"""Bundles: the files in which people enable hook modules, and how they become a session.

What lives where, in the order a bundle travels through it:

- `safe_yaml` — YAML turned into Python data within fixed limits (alias bombs, depth).
- `reading` — one bundle file read with line numbers: front matter, `BundleError`, `Problem`.
- `env` — ``${VAR}`` and ``${VAR:-default}`` expansion.
- `amplifier_format` — bundle files written for Amplifier, adapted to this format.
- `format` — the data model: `BundleFile` (one file as written) and the composed `Bundle`.
- `messages` — validation errors, worded by `amplifier_hooks.modules.validation_messages`,
  placed at the bundle line that wrote the key.
- `composition` — `load_bundle`: includes folded left to right, the including file last.
- `finding` — finding a hook module: ``source`` path, entry point, or import name.
- `git_sources` — ``git+<url>@<ref>`` sources fetched into a cache keyed by commit.
- `settings` — a bundle's ``session:`` settings applied to a coordinator.
- `failures` — why a module was left out of a load, located in the bundle.
- `lifecycle` — one module's life in a session: mounted from its entry, put live,
  unmounted. The registrations it controls are `amplifier_hooks.modules.scoped` (recorded,
  the bundle's per-handler overrides applied, put live with the whole bundle, taken out
  when it unloads); the module itself sees only `amplifier_hooks.modules.module_hooks`.
- `loading` — `MountedBundle` / `build_coordinator`: which modules to mount, load and
  reload (the new set goes live whole, or the old one stays), unload.
- `turns` — loads on one event loop take turns, a few milliseconds of them per turn of
  the loop.

The names below are re-exported here and loaded on first use, so reading a bundle does
not import the loader (and the coordinator behind it), and a submodule can be imported
on its own without pulling in the rest of the package.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from amplifier_hooks.bundles.composition import deep_merge, load_bundle
    from amplifier_hooks.bundles.failures import ModuleFailure
    from amplifier_hooks.bundles.format import (
        MEMORY_STORE,
        STATE_STORE,
        ApprovalSettings,
        Bundle,
        BundleFile,
        BundleMeta,
        CompatName,
        HandlerOverride,
        HookEntry,
        PolicySettings,
        SessionSettings,
        bundle_json_schema,
    )
    from amplifier_hooks.bundles.lifecycle import MountedModule
    from amplifier_hooks.bundles.loading import (
        SESSION_CAPABILITY,
        LoadReport,
        MountedBundle,
        build_coordinator,
        reload_bundle,
    )
    from amplifier_hooks.bundles.reading import BundleError, Problem

_HOMES: dict[str, str] = {
    "deep_merge": "composition",
    "load_bundle": "composition",
    "ModuleFailure": "failures",
    "MEMORY_STORE": "format",
    "STATE_STORE": "format",
    "ApprovalSettings": "format",
    "Bundle": "format",
    "BundleFile": "format",
    "BundleMeta": "format",
    "CompatName": "format",
    "HandlerOverride": "format",
    "HookEntry": "format",
    "PolicySettings": "format",
    "SessionSettings": "format",
    "bundle_json_schema": "format",
    "SESSION_CAPABILITY": "loading",
    "MountedBundle": "loading",
    "LoadReport": "loading",
    "MountedModule": "lifecycle",
    "build_coordinator": "loading",
    "reload_bundle": "loading",
    "BundleError": "reading",
    "Problem": "reading",
}

__all__ = [
    "MEMORY_STORE",
    "SESSION_CAPABILITY",
    "STATE_STORE",
    "ApprovalSettings",
    "Bundle",
    "BundleError",
    "BundleFile",
    "BundleMeta",
    "CompatName",
    "HandlerOverride",
    "HookEntry",
    "LoadReport",
    "ModuleFailure",
    "MountedBundle",
    "MountedModule",
    "PolicySettings",
    "Problem",
    "SessionSettings",
    "build_coordinator",
    "bundle_json_schema",
    "deep_merge",
    "load_bundle",
    "reload_bundle",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
