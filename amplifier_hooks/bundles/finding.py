"""Finding a hook module's code: a ``source`` path, an entry point, or an import name.

A ``source`` directory is imported in place, without installing anything: its package is
loaded from its files and registered under its real name, so the package's own absolute
imports (``from amplifier_module_x.config import ...``) work as usual.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from types import ModuleType
from typing import Any

from amplifier_hooks.engine.tasks import describe_exception
from amplifier_hooks.logs import get_logger

logger = get_logger()

ENTRY_POINT_GROUP = "amplifier_hooks.modules"
AMPLIFIER_ENTRY_POINT_GROUP = "amplifier.modules"
"""The reference's group, consulted after ours: a module installed for Amplifier mounts."""


class ModuleLoadError(Exception):
    """A module could not be found or imported; the message says which and why."""


@dataclass(frozen=True)
class ResolvedModule:
    """A module's code, ready to mount."""

    target: Any
    """The imported module (or the object an entry point names)."""
    mount: Callable[..., Any]
    on_session_ready: Callable[..., Any] | None
    found_by: str
    """How it was found, for reports: ``source <path>``, ``entry point ...``, ``import ...``."""


def import_name(module_id: str) -> str:
    """``ah-logging`` -> ``amplifier_module_ah_logging``."""
    return "amplifier_module_" + module_id.replace("-", "_")


def resolve_module(module_id: str, source: str | None, base_dir: Path) -> ResolvedModule:
    """Find ``module_id``: ``source`` (relative to ``base_dir``) if given, else the entry
    point of that name, else the package ``amplifier_module_<id with _>``."""
    name = import_name(module_id)
    if source is not None:
        path = (base_dir / Path(source).expanduser()).resolve()
        return _with_mount(_import_source(path, name), f"source {path}")
    point = _entry_point(module_id)
    if point is not None:
        try:
            target = point.load()
        except Exception as exc:
            raise ModuleLoadError(
                f"entry point {point.name} = {point.value} failed to load: {_describe(exc)}"
            ) from exc
        return _with_mount(target, f"entry point {point.name} = {point.value}")
    try:
        target = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and (name == exc.name or name.startswith(exc.name + ".")):
            raise ModuleLoadError(
                f"not found: no source given, no entry point {module_id!r} in group "
                f"{ENTRY_POINT_GROUP!r} or {AMPLIFIER_ENTRY_POINT_GROUP!r}, and no importable "
                f"package {name!r} "
                "(install the module, or give its directory as source:)"
            ) from None
        raise ModuleLoadError(f"importing {name} failed: {_describe(exc)}") from exc
    except Exception as exc:
        raise ModuleLoadError(f"importing {name} failed: {_describe(exc)}") from exc
    return _with_mount(target, f"import {name}")


def _entry_point(module_id: str) -> EntryPoint | None:
    wanted = module_id.replace("_", "-")
    found: list[EntryPoint] = []
    for group in (ENTRY_POINT_GROUP, AMPLIFIER_ENTRY_POINT_GROUP):
        found = [p for p in entry_points(group=group) if p.name.replace("_", "-") == wanted]
        if found:
            break
    if len(found) > 1:
        logger.warning(
            "several entry points for one hook module; using the first",
            module=module_id,
            values=[p.value for p in found],
        )
    return found[0] if found else None


def _with_mount(target: Any, found_by: str) -> ResolvedModule:
    mount = getattr(target, "mount", None)
    if mount is None and callable(target) and not isinstance(target, ModuleType):
        # An entry point may name the mount function itself.
        return ResolvedModule(target, target, None, found_by)
    if not callable(mount):
        raise ModuleLoadError(f"{found_by} has no mount(coordinator, config) function")
    ready = getattr(target, "on_session_ready", None)
    if ready is not None and not callable(ready):
        raise ModuleLoadError(f"{found_by}: on_session_ready is not callable")
    return ResolvedModule(target, mount, ready, found_by)


def _import_source(path: Path, name: str) -> ModuleType:
    """Import the module project at ``path``: a directory holding the package ``name``
    (directly or under ``src/``), a package directory itself, or a single ``.py`` file."""
    if not path.exists():
        raise ModuleLoadError(f"source not found: {path}")
    if path.is_file():
        if path.suffix != ".py":
            raise ModuleLoadError(f"source {path} is not a directory or a .py file")
        return _load(name, path, None)
    for package in (path / name, path / "src" / name):
        if (package / "__init__.py").is_file():
            return _load(name, package / "__init__.py", package)
    if (path / "__init__.py").is_file():
        return _load(path.name, path / "__init__.py", path)
    raise ModuleLoadError(
        f"source {path} holds no package {name} (expected {path / name / '__init__.py'})"
    )


def _load(name: str, init: Path, package_dir: Path | None) -> ModuleType:
    loaded = sys.modules.get(name)
    if loaded is not None:
        file = getattr(loaded, "__file__", None)
        if file is not None and Path(file).resolve() == init.resolve():
            return loaded
        raise ModuleLoadError(
            f"cannot import {init} as {name}: a package of that name is already imported "
            f"from {file or 'elsewhere'}"
        )
    locations = [str(package_dir)] if package_dir is not None else None
    spec = importlib.util.spec_from_file_location(name, init, submodule_search_locations=locations)
    if spec is None or spec.loader is None:
        raise ModuleLoadError(f"cannot import {init}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException as exc:
        # Leave no half-imported package behind: the next attempt must start clean.
        for key in [k for k in sys.modules if k == name or k.startswith(name + ".")]:
            del sys.modules[key]
        if isinstance(exc, Exception):
            where = package_dir if package_dir is not None else init
            raise ModuleLoadError(
                f"importing {name} from {where} failed: {_describe(exc)}"
            ) from exc
        raise
    return module


def _describe(exc: BaseException) -> str:
    text = describe_exception(exc)
    missing = exc.name if isinstance(exc, ModuleNotFoundError) else None
    if missing is not None and missing.split(".")[0] == "amplifier_core":
        text += (
            " (a module written for amplifier_core: the compatibility alias is turned off; "
            "remove 'compat: off' from the bundle, AMPLIFIER_HOOKS_COMPAT=off from the "
            "environment, or compat=False from the call)"
        )
    return text
