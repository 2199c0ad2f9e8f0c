"""One hook module's life in a session: mounted from its bundle entry, put live, unmounted.

`mount_module` finds the module an entry names and calls its ``mount`` with a coordinator
proxy whose registry stages what the module registers (a `ScopedHooks`, which the
`MountedModule` keeps: the module sees only its registry API). `swap` puts a whole
set of mounted modules live in place of another, and `unmount_modules` takes modules out
again. Every call into a module's own code goes through `call_module`, under the session's
per-call deadline, so a module that hangs fails its load instead of hanging the agent.

`loading` decides which modules to mount and when the set changes; this module does
what each step means for one module.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from pathlib import Path
from types import CoroutineType
from typing import Any

from amplifier_hooks.amplifier.module_coordinator import ModuleCoordinator, withdraw
from amplifier_hooks.bundles.failures import ModuleFailure, config_problems, module_failed
from amplifier_hooks.bundles.finding import ModuleLoadError, ResolvedModule, resolve_module
from amplifier_hooks.bundles.format import HookEntry
from amplifier_hooks.bundles.reading import Problem, render_key_path
from amplifier_hooks.engine.tasks import describe_exception
from amplifier_hooks.logs import get_logger
from amplifier_hooks.modules.config import ConfigProblem, collecting_config_notices
from amplifier_hooks.modules.scoped import ScopedHooks, call_maybe_async
from amplifier_hooks.session.coordinator import Coordinator

__all__ = [
    "DEFAULT_MODULE_TIMEOUT",
    "MountedModule",
    "call_module",
    "describe_failure",
    "mount_module",
    "swap",
    "unmount_modules",
]

logger = get_logger()

DEFAULT_MODULE_TIMEOUT = 30.0
"""Seconds a module's mount, on_session_ready or cleanup may take before it counts as failed."""


@dataclass(eq=False)
class MountedModule:
    """One module mounted from a bundle entry: ``proxy`` is what the module holds,
    ``scope`` the lifecycle of its registrations, which only the loader controls."""

    entry: HookEntry
    found_by: str
    proxy: ModuleCoordinator
    scope: ScopedHooks
    cleanup: Callable[[], Any] | None = None
    on_session_ready: Callable[..., Any] | None = None
    notices: list[str] = field(default_factory=list)
    """What the module said about its config while mounting (an old spelling of a key),
    each at the bundle line that wrote the key: warnings for the person, not failures."""

    @property
    def key(self) -> str:
        """The entry's key (its id, else the module id): the owner of its handlers."""
        return self.entry.key

    @property
    def handlers(self) -> list[tuple[str, str]]:
        """``(event, handler name)`` of each handler it registered."""
        return self.scope.registered()


async def call_module(fn: Callable[..., Any], *args: Any, timeout: float | None) -> Any:
    """``fn(*args)``, awaited if it returns an awaitable, within ``timeout`` seconds (None:
    no bound) of the call. Our deadline raises ``TimeoutError("did not finish within …")``;
    a TimeoutError the module raises itself passes through as it is.

    A coroutine is first run to its first suspension in place: most mounts never
    suspend, and need no timer (nothing on the loop can interrupt code that does not
    await, so the deadline could not have ended them earlier). One that suspends goes on
    in this task under the deadline, counted from the call."""
    if timeout is None:
        return await call_maybe_async(fn, *args)
    loop = asyncio.get_running_loop()
    when = loop.time() + timeout
    result = fn(*args)
    pending: Any = result
    if type(result) is CoroutineType:
        try:
            first = result.send(None)
        except StopIteration as done:
            return done.value
        pending = _Resumed(result, first)
    elif not inspect.isawaitable(result):
        return result
    deadline = asyncio.timeout_at(when)
    try:
        async with deadline:
            return await pending
    except TimeoutError:
        if not deadline.expired():
            raise  # the module's own TimeoutError, not our deadline
        raise TimeoutError(f"did not finish within {timeout:g}s") from None


class _Resumed:
    """Awaits a coroutine that has already run to its first suspension (``first``, what
    it yielded to the task): what the task sends or throws in goes on to the coroutine,
    as ``await`` would have passed it."""

    __slots__ = ("_coro", "_first")

    def __init__(self, coro: CoroutineType[Any, Any, Any], first: Any) -> None:
        self._coro = coro
        self._first = first

    def __await__(self) -> Generator[Any, Any, Any]:
        coro, value = self._coro, self._first
        while True:
            try:
                sent = yield value
            except GeneratorExit:
                coro.close()
                raise
            except BaseException as exc:  # a cancellation, most often: the module sees it
                try:
                    value = coro.throw(exc)
                except StopIteration as done:
                    return done.value
            else:
                try:
                    value = coro.send(sent)
                except StopIteration as done:
                    return done.value


async def mount_module(
    coordinator: Coordinator,
    entry: HookEntry,
    index: int,
    base_dir: Path,
    *,
    timeout: float | None,
    found: dict[tuple[str, str | None, Path], ResolvedModule] | None = None,
) -> MountedModule | ModuleFailure:
    """Find and mount the module of ``entry`` (the ``index``-th of the bundle's hooks,
    module paths relative to ``base_dir``). Its registrations are staged, not live, until
    `swap` puts it in. On failure, the failure (already logged), and whatever the module
    registered or set up before it failed is taken out again. ``found``: the modules
    found already for this bundle (filled here; a failure is not kept, so it is tried
    again next time)."""
    module_id = entry.module or entry.key
    key = (module_id, entry.source, base_dir)
    resolved = None if found is None else found.get(key)
    if resolved is None:
        try:
            resolved = resolve_module(module_id, entry.source, base_dir)
        except ModuleLoadError as exc:
            return module_failed(entry, index, "load", str(exc))
        if found is not None:
            found[key] = resolved
    scope = ScopedHooks(coordinator.hooks, entry.key, entry.handlers)
    proxy = ModuleCoordinator(coordinator, scope)
    mounted = MountedModule(
        entry, resolved.found_by, proxy, scope, on_session_ready=resolved.on_session_ready
    )
    try:
        with collecting_config_notices() as notices:
            cleanup = await call_module(resolved.mount, proxy, dict(entry.config), timeout=timeout)
    except (Exception, SystemExit) as exc:
        located = config_problems(exc, entry, index)
        failure = module_failed(entry, index, "mount", describe_failure(exc), located)
        await unmount_modules([mounted], timeout=timeout)
        return failure
    if cleanup is not None and not callable(cleanup):
        # Amplifier's kernel registers only a callable as the cleanup and skips anything
        # else; published modules rely on it (hooks-todo-display returns its metadata).
        logger.debug(
            "hook module mount returned a non-callable; no cleanup registered",
            module=entry.key,
            returned=type(cleanup).__name__,
        )
        cleanup = None
    mounted.cleanup = cleanup
    mounted.notices = [_notice(entry, index, n) for n in notices]
    for notice in mounted.notices:
        logger.warning("hook module config", module=entry.key, notice=notice)
    logger.debug("hook module mounted", module=entry.key, found_by=resolved.found_by)
    return mounted


def _notice(entry: HookEntry, index: int, notice: ConfigProblem) -> str:
    """A module's config notice placed at the bundle line of the key it is about."""
    message = f"module {entry.key!r}: {notice.message}"
    placed = entry.config_problem(notice.path, message)
    if placed is None:  # an entry built in code: no file, but still the key path
        placed = Problem(
            message, key_path=render_key_path(("hooks", index, "config", *notice.path))
        )
    return str(placed)


def swap(out: list[MountedModule], into: list[MountedModule]) -> None:
    """Replace one hook set by another in the registry, synchronously, all or nothing."""
    for mounted in out:
        mounted.scope.deactivate()
    activated: list[MountedModule] = []
    try:
        for mounted in into:
            mounted.scope.activate()
            activated.append(mounted)
    except BaseException:
        for mounted in activated:
            mounted.scope.deactivate()
        for mounted in out:
            mounted.scope.activate()
        raise


async def unmount_modules(modules: list[MountedModule], *, timeout: float | None) -> None:
    """Unload modules, newest first: their registrations out (so nothing new calls
    into them), then a wait for their handlers still running in a dispatch that began
    earlier, then each module's cleanup and the cleanups it registered."""
    if not modules:
        return  # a first load replaces nothing: no deadline to set for no one
    for mounted in reversed(modules):
        withdraw(mounted.proxy)
    await _drain(modules, timeout)
    for mounted in reversed(modules):
        steps = [mounted.cleanup] if mounted.cleanup is not None else []
        steps.extend(reversed(mounted.proxy.cleanups))
        for step in steps:
            try:
                await call_module(step, timeout=timeout)
            except (Exception, SystemExit) as exc:
                logger.error(
                    "hook module cleanup failed", module=mounted.key, error=describe_failure(exc)
                )


async def _drain(modules: list[MountedModule], timeout: float | None) -> None:
    try:
        async with asyncio.timeout(timeout):
            # Done only when all are idle at the same moment: a dispatch leaving one
            # module's handler may go straight into another's.
            while busy := [m for m in modules if m.scope.running]:
                await busy[0].scope.idle()
    except TimeoutError:
        logger.warning(
            "hook modules still running handlers; cleaning them up anyway",
            modules=[m.key for m in modules if m.scope.running],
            waited=timeout,
        )


def describe_failure(exc: BaseException) -> str:
    """``exc`` for a failure report: our deadline's message as it is, anything else with
    its type (``"TypeName: message"``, as `describe_exception` gives it)."""
    if isinstance(exc, TimeoutError) and str(exc).startswith("did not finish"):
        return str(exc)
    return describe_exception(exc)
