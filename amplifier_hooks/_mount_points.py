"""The reference's mount points, as far as a hook framework can honestly fill them.

The reference's coordinator holds an orchestrator, a context manager, providers, tools,
agents and a module-source resolver besides the hook registry. This project runs hooks
only: ``hooks`` is the registry, and the rest are empty until the agent runtime that
embeds the coordinator mounts its own objects there (so a module that looks up
``get("tools")`` sees the runtime's tools, or an empty mapping, never an invented one).
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
