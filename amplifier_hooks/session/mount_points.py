"""Mount points for the agent runtime's objects, and attributes shared by the session's
modules: the parts of the `Coordinator` through which modules reach what is not a hook.

The names are the reference's (Amplifier's), since published modules look them up, but
the concept is the coordinator's own (every coordinator has it, with or without the
Amplifier compatibility). The reference's coordinator holds an orchestrator, a context
manager, providers, tools, agents and a module-source resolver besides the hook registry.
This project runs hooks only: ``hooks`` is the registry, and the rest are empty until
the agent runtime that embeds the coordinator mounts its own objects there (so a module
that looks up ``get("tools")`` sees the runtime's tools, or an empty mapping, never an
invented one).
"""

from __future__ import annotations

from typing import Any

SINGLE = ("orchestrator", "context", "module-source-resolver")
"""Mount points that hold one object (or None)."""
MULTIPLE = ("providers", "tools", "agents")
"""Mount points that hold objects by name."""


class MountPoints:
    """Named slots for the runtime's objects, with the reference's lookup rules."""

    def __init__(self, hooks: Any) -> None:
        self._points: dict[str, Any] = {name: None for name in SINGLE}
        self._points.update({name: {} for name in MULTIPLE})
        self._points["hooks"] = hooks

    def as_dict(self) -> dict[str, Any]:
        """A shallow copy: mount point -> object (or name -> object for the multiple ones)."""
        return {
            name: dict(value) if name in MULTIPLE else value for name, value in self._points.items()
        }

    def get(self, mount_point: str, name: str | None = None) -> Any:
        """The object at ``mount_point``; for providers/tools/agents the one called
        ``name``, or all of them (a mapping) when ``name`` is None."""
        self._check(mount_point)
        value = self._points[mount_point]
        if mount_point in MULTIPLE and name is not None:
            return value.get(name)
        return dict(value) if mount_point in MULTIPLE else value

    def mount(self, mount_point: str, obj: Any, name: str | None = None) -> None:
        """Put ``obj`` at ``mount_point`` (by ``name``, or its ``.name``, for the multiple
        ones). The hook registry cannot be replaced: hooks register with it."""
        self._check(mount_point)
        if mount_point == "hooks":
            raise ValueError("the hook registry is not mounted: register hooks with it")
        if mount_point in MULTIPLE:
            key = name if name is not None else getattr(obj, "name", None)
            if not isinstance(key, str) or not key:
                raise ValueError(f"a name is required to mount at {mount_point!r}")
            self._points[mount_point][key] = obj
        else:
            self._points[mount_point] = obj

    def unmount(self, mount_point: str, name: str | None = None) -> None:
        """Take what is at ``mount_point`` (or its entry ``name``) out again."""
        self._check(mount_point)
        if mount_point == "hooks":
            raise ValueError("the hook registry cannot be unmounted")
        if mount_point in MULTIPLE:
            if name is None:
                raise ValueError(f"a name is required to unmount from {mount_point!r}")
            self._points[mount_point].pop(name, None)
        else:
            self._points[mount_point] = None

    def _check(self, mount_point: str) -> None:
        if mount_point not in self._points:
            known = ", ".join(sorted(self._points))
            raise ValueError(f"unknown mount point {mount_point!r} (known: {known})")


class SharedAttributes:
    """Attributes the session's modules set on their coordinator (``todo_state``, say),
    which every module of the session sees. The owner's own attributes and methods --
    everything it had when `seal` was called, and its class's -- cannot be replaced."""

    __slots__ = ("_names", "_owner", "_reserved")

    def __init__(self, owner: object) -> None:
        self._owner = owner
        self._names: set[str] = set()
        self._reserved: frozenset[str] = frozenset()

    def seal(self) -> None:
        """Reserve every attribute the owner has now: modules cannot replace them."""
        self._reserved = frozenset(vars(self._owner))

    def set(self, name: str, value: Any) -> None:
        """Set ``name`` on the owner; AttributeError if it is the owner's own."""
        owner = self._owner
        if name.startswith("_") or name in self._reserved or hasattr(type(owner), name):
            raise AttributeError(f"{name!r} belongs to the coordinator; a module cannot replace it")
        setattr(owner, name, value)
        self._names.add(name)

    def delete(self, name: str) -> None:
        """Remove an attribute set with `set`."""
        if name not in self._names:
            raise AttributeError(f"{name!r} is not a shared module attribute")
        delattr(self._owner, name)
        self._names.discard(name)

    def as_dict(self) -> dict[str, Any]:
        """The shared attributes, by name."""
        return {name: getattr(self._owner, name) for name in sorted(self._names)}
