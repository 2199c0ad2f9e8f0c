"""The loader: mount a bundle's modules into a coordinator, and swap them on reload.

`BundleSession` mounts every module of a bundle with its configuration. The handlers the
modules register are staged; when all modules are mounted they go live together, and the
previous bundle's handlers go out, in one synchronous step: a dispatch sees the whole old
set or the whole new one, and one already running finishes on the old. Only then are the
modules told the session is ready and the old modules cleaned up.

A module that cannot be found, imported, configured, mounted or made ready fails the load
with a `BundleError` at its bundle entry, and nothing changes: a reload that fails keeps
the previous bundle running. Only an entry marked ``optional: true`` is reported and left
out instead; strict mode (the bundle's ``strict: true`` or the caller's ``strict=True``)
makes optional entries required too.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import structlog

from amplifier_hooks._tasks import describe_exception
from amplifier_hooks.amplifier.alias import (
    compat_requested,
    compat_wanted,
    install_amplifier_core_alias,
    uninstall_amplifier_core_alias,
)
from amplifier_hooks.amplifier.module_coordinator import ModuleCoordinator
from amplifier_hooks.bundles.composition import load_bundle
from amplifier_hooks.bundles.failures import ModuleFailure, Stage, config_problems, location
from amplifier_hooks.bundles.finding import ModuleLoadError, resolve_module
from amplifier_hooks.bundles.format import Bundle, HookEntry, SessionSettings
from amplifier_hooks.bundles.reading import BundleError, Problem, render_key_path
from amplifier_hooks.bundles.scoped import ScopedHooks, call_maybe_async
from amplifier_hooks.bundles.settings import (
    CallerOwned,
    apply_session,
    coordinator_arguments,
    provider_for,
)
from amplifier_hooks.coordinator import Coordinator

__all__ = [
    "SESSION_CAPABILITY",
    "BundleSession",
    "LoadReport",
    "ModuleFailure",
    "MountedModule",
    "build_coordinator",
    "reload_bundle",
]

logger = structlog.get_logger("amplifier_hooks")

SESSION_CAPABILITY = "amplifier_hooks.bundle_session"
"""The capability under which `build_coordinator` leaves the coordinator's `BundleSession`."""

DEFAULT_MODULE_TIMEOUT = 30.0
"""Seconds a module's mount, on_session_ready or cleanup may take before it counts as failed."""

BundleLike = Bundle | str | os.PathLike[str]


@dataclass(eq=False)
class MountedModule:
    """One module mounted from a bundle entry."""

    entry: HookEntry
    found_by: str
    proxy: ModuleCoordinator
    cleanup: Callable[[], Any] | None = None
    on_session_ready: Callable[..., Any] | None = None

    @property
    def key(self) -> str:
        """The entry's key (its id, else the module id): the owner of its handlers."""
        return self.entry.key

    @property
    def handlers(self) -> list[tuple[str, str]]:
        """``(event, handler name)`` of each handler it registered."""
        return self.proxy.hooks.registered()


@dataclass
class LoadReport:
    """What a load or reload did."""

    bundle: Bundle
    mounted: list[MountedModule] = field(default_factory=list)
    failures: list[ModuleFailure] = field(default_factory=list)
    """Optional modules that failed and were left out (a required one fails the load)."""
    unused_overrides: dict[str, list[str]] = field(default_factory=dict)
    """Handler names the bundle overrides but the module never registered, per module."""

    @property
    def ok(self) -> bool:
        """True when every module loaded."""
        return not self.failures


class _Abort(Exception):
    def __init__(self, failures: list[ModuleFailure]) -> None:
        super().__init__("\n".join(str(f) for f in failures))
        self.failures = failures

    def problems(self) -> list[Problem]:
        return [p for failure in self.failures for p in failure.problems()]


class BundleSession:
    """The modules of one bundle mounted into one coordinator; `reload` swaps them.

    A module that fails raises `BundleError` unless its entry is ``optional: true``;
    ``strict=True`` makes optional entries required too, ``strict=False`` lets them be
    skipped even when the bundle says ``strict: true`` (None: the bundle decides).
    ``compat`` (None: the bundle, then ``AMPLIFIER_HOOKS_COMPAT``, decide; on by default)
    installs the ``amplifier_core`` alias before modules are imported. ``module_timeout``
    bounds each call into a module (mount, on_session_ready, cleanup); None: no bound.
    """

    def __init__(
        self,
        coordinator: Coordinator,
        *,
        strict: bool | None = None,
        compat: bool | None = None,
        module_timeout: float | None = DEFAULT_MODULE_TIMEOUT,
        caller_owned: CallerOwned = frozenset(),
        applied: SessionSettings | None = None,
    ) -> None:
        self.coordinator = coordinator
        self.strict = strict
        self.compat = compat
        self.module_timeout = module_timeout
        self.bundle: Bundle | None = None
        self.modules: list[MountedModule] = []
        self.report: LoadReport | None = None
        """What the last successful load or reload did (failures, unused overrides)."""
        self._caller_owned = caller_owned
        self._applied = applied
        self._lock = asyncio.Lock()

    @staticmethod
    def of(coordinator: Coordinator) -> BundleSession | None:
        """The session `build_coordinator` attached to ``coordinator``, if any."""
        session = coordinator.get_capability(SESSION_CAPABILITY)
        return session if isinstance(session, BundleSession) else None

    async def load(self, bundle: BundleLike) -> LoadReport:
        """Mount ``bundle``'s modules, replacing whatever this session had mounted."""
        async with self._lock:
            return await self._load(await _read_bundle(bundle))

    async def reload(self, bundle: BundleLike | None = None) -> LoadReport:
        """Load ``bundle`` (default: the current bundle's file, read again) in place of
        the current one. The old hook set keeps running until the new one is complete."""
        if bundle is None:
            if self.bundle is None:
                raise RuntimeError("nothing to reload: no bundle has been loaded")
            bundle = self.bundle.path if self.bundle.path is not None else self.bundle
        return await self.load(bundle)

    async def unload(self) -> None:
        """Take every module's handlers out and run the modules' cleanups (newest first)."""
        async with self._lock:
            modules, self.modules = self.modules, []
            await self._teardown_all(modules)

    # -- the load ------------------------------------------------------------------------

    async def _load(self, bundle: Bundle) -> LoadReport:
        strict = self.strict if self.strict is not None else bundle.strict
        self._maybe_install_compat(bundle)
        provider = provider_for(bundle, self._applied, self._caller_owned)
        report = LoadReport(bundle)
        staged: list[MountedModule] = []
        try:
            fatal: list[ModuleFailure] = []
            for index, entry in enumerate(bundle.hooks):
                if entry.enabled is False:
                    continue
                mounted = await self._mount(entry, index, bundle, report)
                if mounted is not None:
                    staged.append(mounted)
                elif _required(entry, strict):
                    # Go on mounting: one error message then names every broken entry.
                    fatal.append(report.failures.pop())
            if fatal:
                raise _Abort(fatal)
        except BaseException as exc:
            await self._teardown_all(staged)
            if isinstance(exc, _Abort):
                raise BundleError(exc.problems()) from None
            raise
        previous = self.modules
        # From here to the end of the swap there is no await: no dispatch can run in
        # between, so none can see a mix of the two sets.
        _swap(previous, staged)
        self.modules = staged
        failed = await self._ready(report, strict, previous)
        if failed is not None:
            raise BundleError(failed.problems())
        apply_session(self.coordinator, bundle.session, self._applied, self._caller_owned, provider)
        await self._teardown_all(previous)
        self._applied = bundle.session
        self.bundle = bundle
        report.mounted = list(self.modules)
        report.unused_overrides = _unused_overrides(self.modules)
        self.report = report
        logger.info(
            "bundle loaded",
            bundle=bundle.name,
            mounted=[m.key for m in self.modules],
            failed=[f.key for f in report.failures],
        )
        return report

    async def _mount(
        self, entry: HookEntry, index: int, bundle: Bundle, report: LoadReport
    ) -> MountedModule | None:
        module_id = entry.module or entry.key
        try:
            resolved = resolve_module(module_id, entry.source, bundle.base_dir)
        except ModuleLoadError as exc:
            self._fail(report, entry, index, "load", str(exc))
            return None
        scope = ScopedHooks(self.coordinator.hooks, entry.key, entry.handlers)
        proxy = ModuleCoordinator(self.coordinator, scope)
        mounted = MountedModule(entry, resolved.found_by, proxy, None, resolved.on_session_ready)
        try:
            cleanup = await self._call(resolved.mount, proxy, dict(entry.config))
            if cleanup is not None and not callable(cleanup):
                raise TypeError(
                    f"mount returned {type(cleanup).__name__}; expected a cleanup function or None"
                )
        except (Exception, SystemExit) as exc:
            located = config_problems(exc, entry, index)
            self._fail(report, entry, index, "mount", _describe(exc), located)
            await self._teardown(mounted)
            return None
        mounted.cleanup = cleanup
        logger.debug("hook module mounted", module=entry.key, found_by=resolved.found_by)
        return mounted

    async def _ready(
        self, report: LoadReport, strict: bool, previous: list[MountedModule]
    ) -> ModuleFailure | None:
        """Tell each new module the session is ready. An optional module that fails is
        unloaded; when a required one fails, the previous set is put back and its failure
        returned."""
        for mounted in list(self.modules):
            if mounted.on_session_ready is None:
                continue
            try:
                await self._call(mounted.on_session_ready, mounted.proxy)
            except (Exception, SystemExit) as exc:
                index = next(i for i, e in enumerate(report.bundle.hooks) if e is mounted.entry)
                self._fail(report, mounted.entry, index, "session_ready", _describe(exc))
                if _required(mounted.entry, strict):
                    failed, self.modules = self.modules, previous
                    _swap(failed, previous)
                    await self._teardown_all(failed)
                    return report.failures.pop()
                self.modules.remove(mounted)
                await self._teardown(mounted)
        return None

    def _fail(
        self,
        report: LoadReport,
        entry: HookEntry,
        index: int,
        stage: Stage,
        error: str,
        located: tuple[Problem, ...] = (),
    ) -> None:
        # An entry built in code has no file or line, but still its place in the bundle.
        origin = entry.origin or Problem("", key_path=render_key_path(("hooks", index)))
        failure = ModuleFailure(entry.key, entry.module or entry.key, stage, error, origin, located)
        report.failures.append(failure)
        if located:
            logger.error(
                "hook module failed",
                module=failure.key,
                stage=stage,
                error=error,
                where=location(located[0]),
                problems=[str(p) for p in located],
            )
            return
        logger.error(
            "hook module failed",
            module=failure.key,
            stage=stage,
            error=error,
            where=str(failure.origin) if failure.origin is not None else None,
        )

    def _maybe_install_compat(self, bundle: Bundle) -> None:
        # On unless the caller, the bundle (compat: off) or the environment turns it off;
        # turned off, a module importing amplifier_core fails with an error that says so.
        if compat_wanted(self.compat, list(bundle.compat)) or (
            self.compat is None and compat_requested()
        ):
            install_amplifier_core_alias()
        else:
            uninstall_amplifier_core_alias()

    # -- calling into modules ----------------------------------------------------------

    async def _call(self, fn: Callable[..., Any], *args: Any) -> Any:
        deadline = asyncio.timeout(self.module_timeout)
        try:
            async with deadline:
                return await call_maybe_async(fn, *args)
        except TimeoutError:
            if not deadline.expired():
                raise  # the module's own TimeoutError, not our deadline
            raise TimeoutError(f"did not finish within {self.module_timeout:g}s") from None

    async def _teardown(self, mounted: MountedModule) -> None:
        await self._teardown_all([mounted])

    async def _teardown_all(self, modules: list[MountedModule]) -> None:
        """Unload modules, newest first: their registrations out (so nothing new calls
        into them), then a wait for their handlers still running in a dispatch that began
        earlier, then each module's cleanup and the cleanups it registered."""
        for mounted in reversed(modules):
            mounted.proxy.withdraw()
        await self._drain(modules)
        for mounted in reversed(modules):
            steps = [mounted.cleanup] if mounted.cleanup is not None else []
            steps.extend(reversed(mounted.proxy.cleanups))
            for step in steps:
                try:
                    await self._call(step)
                except (Exception, SystemExit) as exc:
                    logger.error(
                        "hook module cleanup failed", module=mounted.key, error=_describe(exc)
                    )

    async def _drain(self, modules: list[MountedModule]) -> None:
        try:
            async with asyncio.timeout(self.module_timeout):
                # Done only when all are idle at the same moment: a dispatch leaving one
                # module's handler may go straight into another's.
                while busy := [m for m in modules if m.proxy.hooks.running]:
                    await busy[0].proxy.hooks.idle()
        except TimeoutError:
            logger.warning(
                "hook modules still running handlers; cleaning them up anyway",
                modules=[m.key for m in modules if m.proxy.hooks.running],
                waited=self.module_timeout,
            )


def _required(entry: HookEntry, strict: bool) -> bool:
    """Whether a failure of this entry's module fails the load (it is not optional)."""
    return strict or not entry.optional


def _swap(out: list[MountedModule], into: list[MountedModule]) -> None:
    """Replace one hook set by another in the registry, synchronously, all or nothing."""
    for mounted in out:
        mounted.proxy.hooks.deactivate()
    activated: list[MountedModule] = []
    try:
        for mounted in into:
            mounted.proxy.hooks.activate()
            activated.append(mounted)
    except BaseException:
        for mounted in activated:
            mounted.proxy.hooks.deactivate()
        for mounted in out:
            mounted.proxy.hooks.activate()
        raise


def _unused_overrides(modules: list[MountedModule]) -> dict[str, list[str]]:
    unused: dict[str, list[str]] = {}
    for mounted in modules:
        names = sorted(set(mounted.entry.handlers) - mounted.proxy.hooks.names_seen)
        if names:
            unused[mounted.key] = names
            logger.warning(
                "bundle overrides handlers the module does not register",
                module=mounted.key,
                handlers=names,
                registered=sorted(mounted.proxy.hooks.names_seen),
            )
    return unused


async def _read_bundle(bundle: BundleLike) -> Bundle:
    """The bundle, read off the event loop when given as a path: reading may fetch git
    sources (network, seconds), and a reload must not hold up the running agent."""
    return bundle if isinstance(bundle, Bundle) else await asyncio.to_thread(load_bundle, bundle)


def _describe(exc: BaseException) -> str:
    if isinstance(exc, TimeoutError) and str(exc).startswith("did not finish"):
        return str(exc)
    return describe_exception(exc)


# -- the public entry points -----------------------------------------------------------


async def build_coordinator(
    bundle_or_path: BundleLike,
    *,
    strict: bool | None = None,
    compat: bool | None = None,
    module_timeout: float | None = DEFAULT_MODULE_TIMEOUT,
    factory: Callable[..., Coordinator] | None = None,
    **coordinator_kwargs: Any,
) -> Coordinator:
    """A coordinator with every module of the bundle mounted.

    The bundle's ``session`` settings configure the injector and the approval gate; any
    of ``injector``, ``approval_provider``, ``approval_store`` or ``approval_gate`` given
    here wins over them. ``factory`` builds the coordinator (a `Coordinator` subclass,
    say). ``await coordinator.cleanup()`` unmounts everything; `reload_bundle` swaps in a
    new bundle. Raises `BundleError` for a bad bundle, or a module that fails (unless
    its entry is ``optional: true``; ``strict`` as in `BundleSession`).
    """
    bundle = await _read_bundle(bundle_or_path)
    kwargs, owned = coordinator_arguments(bundle, coordinator_kwargs)
    coordinator = (factory or Coordinator)(**kwargs)
    session = BundleSession(
        coordinator,
        strict=strict,
        compat=compat,
        module_timeout=module_timeout,
        caller_owned=owned,
        applied=bundle.session,
    )
    try:
        await session.load(bundle)
    except BaseException:
        await coordinator.cleanup()
        raise
    coordinator.register_cleanup(session.unload)
    coordinator.register_capability(SESSION_CAPABILITY, session)
    return coordinator


async def reload_bundle(coordinator: Coordinator, bundle: BundleLike | None = None) -> LoadReport:
    """Swap the coordinator's bundle for ``bundle`` (default: its file, read again)."""
    session = BundleSession.of(coordinator)
    if session is None:
        raise RuntimeError("this coordinator was not built from a bundle (see build_coordinator)")
    return await session.reload(bundle)
