"""The loader: mount a bundle's modules into a coordinator, and swap them on reload.

`MountedBundle` mounts every module of a bundle with its configuration. The handlers the
modules register are staged; when all modules are mounted they go live together, and the
previous bundle's handlers go out, in one synchronous step: a dispatch sees the whole old
set or the whole new one, and one already running finishes on the old. Only then are the
modules told the session is ready and the old modules cleaned up.

A module that cannot be found, imported, configured, mounted or made ready fails the load
with a `BundleError` at its bundle entry, and nothing changes: a reload that fails keeps
the previous bundle running. Only an entry marked ``optional: true`` is reported and left
out instead; strict mode (the bundle's ``strict: true`` or the caller's ``strict=True``)
makes optional entries required too.

What each step means for one module (mounting it, putting a set live, unmounting) is in
`amplifier_hooks.bundles.lifecycle`; this module decides which modules and in what order.
"""

from __future__ import annotations

import asyncio
import os
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from amplifier_hooks.amplifier.alias import (
    compat_requested,
    compat_wanted,
    install_amplifier_core_alias,
    uninstall_amplifier_core_alias,
)
from amplifier_hooks.bundles.composition import load_bundle
from amplifier_hooks.bundles.failures import ModuleFailure, module_failed
from amplifier_hooks.bundles.finding import ResolvedModule
from amplifier_hooks.bundles.format import Bundle, HookEntry, SessionSettings
from amplifier_hooks.bundles.lifecycle import (
    DEFAULT_MODULE_TIMEOUT,
    MountedModule,
    call_module,
    describe_failure,
    mount_module,
    swap,
    unmount_modules,
)
from amplifier_hooks.bundles.reading import BundleError, Problem
from amplifier_hooks.bundles.settings import (
    CallerOwned,
    apply_session,
    coordinator_arguments,
    provider_for,
)
from amplifier_hooks.bundles.turns import turns
from amplifier_hooks.logs import get_logger
from amplifier_hooks.session.coordinator import Coordinator

__all__ = [
    "SESSION_CAPABILITY",
    "LoadReport",
    "ModuleFailure",
    "MountedBundle",
    "MountedModule",
    "build_coordinator",
    "reload_bundle",
]

logger = get_logger()

SESSION_CAPABILITY = "amplifier_hooks.bundle_session"
"""The capability under which `build_coordinator` leaves the coordinator's `MountedBundle`."""

BundleLike = Bundle | str | os.PathLike[str]

MOUNT_SLICE = 0.005
"""Seconds (the loop thread's CPU time) a load mounts modules before it gives the event
loop back (other sessions' calls and loads run in between, `amplifier_hooks.bundles.turns`).
A bundle of a few modules mounts in about a millisecond, in one go; one of thousands holds
up other calls for about this long at a time."""

# Slices are CPU time of the loop's thread: on a busy machine a load descheduled midway
# used up its slice by the wall clock without having held the loop any longer.
_clock: Callable[[], float] = time.thread_time


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


class MountedBundle:
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
    def of(coordinator: Coordinator) -> MountedBundle | None:
        """The session `build_coordinator` attached to ``coordinator``, if any."""
        session = coordinator.get_capability(SESSION_CAPABILITY)
        return session if isinstance(session, MountedBundle) else None

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
            await self._unmount(modules)

    # -- the load ------------------------------------------------------------------------

    async def _load(self, bundle: Bundle) -> LoadReport:
        strict = self.strict if self.strict is not None else bundle.strict
        self._maybe_install_compat(bundle)
        provider = provider_for(bundle, self._applied, self._caller_owned)
        report = LoadReport(bundle)
        staged: list[MountedModule] = []
        line = turns()
        await line.take()  # loads starting together run a few per turn of the loop
        slice_started = _clock()
        try:
            fatal: list[ModuleFailure] = []
            for index, entry in enumerate(bundle.hooks):
                if entry.enabled is False:
                    continue
                result = await mount_module(
                    self.coordinator,
                    entry,
                    index,
                    bundle.base_dir,
                    timeout=self.module_timeout,
                    found=_found_for(bundle),
                )
                if isinstance(result, MountedModule):
                    staged.append(result)
                elif _required(entry, strict):
                    # Go on mounting: one error message then names every broken entry.
                    fatal.append(result)
                else:
                    report.failures.append(result)
                # A module's mount is short, a bundle of thousands is not: other tasks
                # (a server's other sessions) get the loop every `MOUNT_SLICE`.
                if _clock() - slice_started >= MOUNT_SLICE:
                    line.took(_clock() - slice_started)
                    await line.take(again=True)
                    slice_started = _clock()
            line.took(_clock() - slice_started)  # how many loads fit in a turn
            if fatal:
                raise _Abort(fatal)
        except BaseException as exc:
            await self._unmount(staged)
            if isinstance(exc, _Abort):
                raise BundleError(exc.problems()) from None
            raise
        previous = self.modules
        # From here to the end of the swap there is no await: no dispatch can run in
        # between, so none can see a mix of the two sets.
        swap(previous, staged)
        self.modules = staged
        failed = await self._ready(report, strict, previous)
        if failed is not None:
            raise BundleError(failed.problems())
        apply_session(self.coordinator, bundle.session, self._applied, self._caller_owned, provider)
        await self._unmount(previous)
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
                await call_module(
                    mounted.on_session_ready, mounted.proxy, timeout=self.module_timeout
                )
            except (Exception, SystemExit) as exc:
                index = next(i for i, e in enumerate(report.bundle.hooks) if e is mounted.entry)
                error = describe_failure(exc)
                failure = module_failed(mounted.entry, index, "session_ready", error)
                if _required(mounted.entry, strict):
                    failed, self.modules = self.modules, previous
                    swap(failed, previous)
                    await self._unmount(failed)
                    return failure
                report.failures.append(failure)
                self.modules.remove(mounted)
                await self._unmount([mounted])
        return None

    def _maybe_install_compat(self, bundle: Bundle) -> None:
        # On unless the caller, the bundle (compat: off) or the environment turns it off;
        # turned off, a module importing amplifier_core fails with an error that says so.
        if compat_wanted(self.compat, list(bundle.compat)) or (
            self.compat is None and compat_requested()
        ):
            install_amplifier_core_alias()
        else:
            uninstall_amplifier_core_alias()

    async def _unmount(self, modules: list[MountedModule]) -> None:
        await unmount_modules(modules, timeout=self.module_timeout)


def _required(entry: HookEntry, strict: bool) -> bool:
    """Whether a failure of this entry's module fails the load (it is not optional)."""
    return strict or not entry.optional


def _unused_overrides(modules: list[MountedModule]) -> dict[str, list[str]]:
    unused: dict[str, list[str]] = {}
    for mounted in modules:
        names = sorted(set(mounted.entry.handlers) - mounted.scope.names_seen)
        if names:
            unused[mounted.key] = names
            logger.warning(
                "bundle overrides handlers the module does not register",
                module=mounted.key,
                handlers=names,
                registered=sorted(mounted.scope.names_seen),
            )
    return unused


_FOUND: dict[int, dict[tuple[str, str | None, Path], ResolvedModule]] = {}


def _found_for(bundle: Bundle) -> dict[tuple[str, str | None, Path], ResolvedModule]:
    """The modules found for ``bundle``'s entries so far (`mount_module` fills it): a
    server opens many sessions of one loaded bundle, and finds each module once. Dropped
    with the bundle (a new version of the file is a new bundle)."""
    key = id(bundle)
    found = _FOUND.get(key)
    if found is None:
        found = _FOUND[key] = {}
        weakref.finalize(bundle, _FOUND.pop, key, None)
    return found


async def _read_bundle(bundle: BundleLike) -> Bundle:
    """The bundle, read off the event loop when given as a path: reading may fetch git
    sources (network, seconds), and a reload must not hold up the running agent."""
    return bundle if isinstance(bundle, Bundle) else await asyncio.to_thread(load_bundle, bundle)


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
    its entry is ``optional: true``; ``strict`` as in `MountedBundle`).
    """
    bundle = await _read_bundle(bundle_or_path)
    kwargs, owned = coordinator_arguments(bundle, coordinator_kwargs)
    coordinator = (factory or Coordinator)(**kwargs)
    session = MountedBundle(
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
    session = MountedBundle.of(coordinator)
    if session is None:
        raise RuntimeError("this coordinator was not built from a bundle (see build_coordinator)")
    return await session.reload(bundle)
