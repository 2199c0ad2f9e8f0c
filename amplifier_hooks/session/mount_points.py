"""Mount points for the agent runtime's objects, and attributes shared by the session's
modules: the part of the `Coordinator` through which modules reach what is not a hook.

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


class SessionSurface:
    """What the reference's coordinator offers modules besides hooks: mount points and
    attributes shared by the session's modules. Mixed into `Coordinator`, which sets the
    three attributes below in its constructor."""

    mount_points_registry: MountPoints
    _reserved: frozenset[str]
    _shared: set[str]

    @property
    def mount_points(self) -> dict[str, Any]:
        """Mount point -> what is mounted there (see `get`)."""
        return self.mount_points_registry.as_dict()

    def get(self, mount_point: str, name: str | None = None) -> Any:
        """What is mounted at ``mount_point``: ``hooks`` is the registry; ``orchestrator``,
        ``context``, ``providers``, ``tools``, ``agents`` and ``module-source-resolver``
        hold what the agent runtime mounted (None or an empty mapping otherwise)."""
        return self.mount_points_registry.get(mount_point, name)

    def mount(self, mount_point: str, obj: Any, name: str | None = None) -> None:
        """For the agent runtime: make ``obj`` visible to modules at ``mount_point``."""
        self.mount_points_registry.mount(mount_point, obj, name)

    def unmount(self, mount_point: str, name: str | None = None) -> None:
        """Take what `mount` put at ``mount_point`` out again."""
        self.mount_points_registry.unmount(mount_point, name)

    def set_shared(self, name: str, value: Any) -> None:
        """Set an attribute every module of this session sees (``todo_state``, say).

        Modules do this with ``coordinator.<name> = value``. The coordinator's own
        attributes and methods cannot be replaced this way (AttributeError).
        """
        if name.startswith("_") or name in self._reserved or hasattr(type(self), name):
            raise AttributeError(f"{name!r} belongs to the coordinator; a module cannot replace it")
        setattr(self, name, value)
        self._shared.add(name)

    def delete_shared(self, name: str) -> None:
        """Remove an attribute set with `set_shared`."""
        if name not in self._shared:
            raise AttributeError(f"{name!r} is not a shared module attribute")
        delattr(self, name)
        self._shared.discard(name)

    @property
    def shared(self) -> dict[str, Any]:
        """The attributes the session's modules set on the coordinator, by name."""
        return {name: getattr(self, name) for name in sorted(self._shared)}
