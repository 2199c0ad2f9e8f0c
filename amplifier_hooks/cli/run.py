"""``amplifier-hooks run``: replay a trace through a bundle, in the Textual app or as a
report."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING

from amplifier_hooks.approvals import ApprovalProvider, default_store_path
from amplifier_hooks.approvals.store import environment_store
from amplifier_hooks.bundles import Bundle, load_bundle
from amplifier_hooks.bundles.format import MEMORY_STORE
from amplifier_hooks.bundles.loading import LoadReport
from amplifier_hooks.cli.exit_codes import INTERRUPTED
from amplifier_hooks.cli.replay import Replayer
from amplifier_hooks.cli.report import JsonReport, ReplayInfo, RichReport, make_console
from amplifier_hooks.cli.session import (
    DEFAULT_BUNDLE,
    DEMO_TRACE,
    ApprovalMode,
    mode_provider,
    open_coordinator,
    run_store,
)
from amplifier_hooks.cli.trace_files import Trace, TraceError, read_trace
from amplifier_hooks.cli.words import plural
from amplifier_hooks.modules.replay import Replay
from amplifier_hooks.session.coordinator import Coordinator

if TYPE_CHECKING:
    from amplifier_hooks.cli.app import ReplayApp
    from amplifier_hooks.cli.logsink import LogLines

GUARD = 0.3
"""Seconds an approval modal ignores keys after it appears (typing ahead never approves)."""


def describe_approvals(bundle: Bundle, mode: ApprovalMode | None) -> str:
    """How approvals will be answered, in a few words, for the header."""
    if mode is None:
        return "asked on screen"
    if mode == "queue":
        return "queued for 'amplifier-hooks approve' on the shared store"
    if mode != "policy":
        verb = "allowed" if mode == "allow" else "denied"
        return f"--approvals {mode}: every question {verb}; remembered answers are not used"
    policy = bundle.session.approvals.policy
    if policy is None:
        return (
            "policy with no rules (the bundle has none): every question denied, "
            "except those with a remembered answer"
        )
    return (
        f"the bundle's policy ({plural(len(policy.rules), 'rule')}, default {policy.default}), "
        "after remembered answers"
    )


ACTING_MODULES = {"ah-shell": ("shows the commands it would run instead", "runs its commands")}
"""The shipped modules that act on the world, with what each does in a replay and live."""


def describe_side_effects(live: bool, modules: Sequence[str] = ("ah-shell",)) -> str:
    """What the modules with side effects among ``modules`` (the bundle's module ids) do
    in this replay, for the header: only those the bundle holds are named."""
    acting = [m for m in ACTING_MODULES if m in modules]
    if not acting:
        return "none to hold back: no module of this bundle acts on the world"
    if live:
        did = "; ".join(f"{m} {ACTING_MODULES[m][1]}" for m in acting)
        return f"live (--live): modules act as in a session; {did}"
    would = "; ".join(f"{m} {ACTING_MODULES[m][0]}" for m in acting)
    return f"held back: {would} (--live runs them)"


def replay_store(store: str | None, *, live: bool, approvals: ApprovalMode | None) -> str | None:
    """The approval store a replay uses: ``--store`` when given; the usual one (the
    bundle's, ``$AMPLIFIER_HOOKS_STORE``) with ``--live``, or for ``--approvals queue``,
    whose approvers must reach it; otherwise ``:memory:``, so that a replay writes no
    remembered answer into the person's store (it changes nothing) and reads none."""
    # A misspelt $AMPLIFIER_HOOKS_STORE is an error on every command, used or not.
    environment_store()
    if store is not None or live or approvals == "queue":
        return store
    return MEMORY_STORE


def describe_store(bundle: Bundle, given: str | None, used: str | None) -> str:
    """Where this replay keeps its answers, and how to undo an "always", for the header
    (``given``: ``--store``; ``used``: what `replay_store` chose)."""
    actual = run_store(bundle, used)
    if actual == MEMORY_STORE:
        if used == MEMORY_STORE and given is None:
            return (
                "kept for this replay only: nothing is written to your approval store "
                "(--store PATH, or --live, keeps 'always' answers)"
            )
        return "kept for this replay only (:memory:)"
    where = str(default_store_path()) if actual is None else actual
    return (
        f"'always' answers are kept in {where}; undo one with: "
        f"amplifier-hooks approvals forget KEY --store {where}"
    )


def load_inputs(args: argparse.Namespace, err: IO[str]) -> tuple[Trace, Bundle]:
    """The trace and the bundle named on the command line (or the defaults).

    Raises `TraceError` or `BundleError`; a skipped bad line is reported on ``err``.
    """

    def warn(error: TraceError) -> None:
        err.write(f"warning: {error} (line skipped)\n")

    trace = read_trace(args.trace or DEMO_TRACE, on_bad_line=args.on_bad_line, warn=warn)
    bundle = load_bundle(args.bundle or DEFAULT_BUNDLE)
    return trace, bundle


def replay_info(
    trace: Trace, bundle: Bundle, load: LoadReport | None, approvals: str
) -> ReplayInfo:
    """The header facts for the views."""
    return ReplayInfo(
        trace=_shown(trace.path),
        events=len(trace.events),
        bundle=f"{bundle.name} ({_shown(bundle.path)})" if bundle.path else bundle.name,
        modules=[m.key for m in load.mounted] if load else [],
        failures=[str(f) for f in load.failures] if load else [],
        approvals=approvals,
        skipped_lines=len(trace.skipped),
    )


def module_ids(load: LoadReport | None) -> list[str]:
    """The module ids the load mounted (an entry's ``module``, else its key)."""
    return [m.entry.module or m.key for m in load.mounted] if load else []


def _shown(path: Path | None) -> str:
    if path is None:
        return "-"
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


async def replay_headless(
    trace: Trace,
    bundle: Bundle,
    *,
    approvals: ApprovalMode,
    store: str | None,
    as_json: bool,
    out: IO[str],
    live: bool = False,
    err: IO[str] | None = None,
    loaded: Callable[[], None] | None = None,
) -> int:
    """Replay every event and print the report (or JSON lines) to ``out``. Modules hold
    back side effects (ah-shell's commands) unless ``live``. Ctrl+C stops it as it stops
    the app: what was replayed is said on ``err`` (stderr), with `INTERRUPTED`.
    ``loaded`` is called once the bundle is mounted (the CLI turns its logs on then: a
    bundle that fails to mount is one clean error, not a log line and then the error)."""
    given, store = store, replay_store(store, live=live, approvals=approvals)
    provider = mode_provider(bundle, approvals, store)
    coordinator, load = await open_coordinator(
        bundle, provider=provider, store=store, replay=Replay(live=live)
    )
    if loaded is not None:
        loaded()
    try:
        view = JsonReport(out) if as_json else RichReport(make_console(out))
        info = replay_info(trace, bundle, load, describe_approvals(bundle, approvals))
        info.side_effects = describe_side_effects(live, module_ids(load))
        info.answers = describe_store(bundle, given, store)
        view.start(info)
        replayer = Replayer(coordinator)
        replayer.summary.skipped_lines = len(trace.skipped)
        try:
            for item in trace.events:
                view.step(await replayer.step(item))
        except asyncio.CancelledError:  # SIGINT: asyncio.run cancels this task
            task = asyncio.current_task()
            if task is not None:
                task.uncancel()  # handled here: the cleanup below runs as usual
            stopped = f"Replay interrupted: {replayed(replayer.summary.events, trace)}."
            (err or sys.stderr).write(stopped + "\n")
            return INTERRUPTED
        view.finish(replayer.summary)
    finally:
        await coordinator.cleanup()
    return 0


def replayed(count: int, trace: Trace) -> str:
    """``5 of 54 events replayed``: the words every stopped replay uses."""
    return f"{count} of {plural(len(trace.events), 'event')} replayed"


async def build_app(
    trace: Trace,
    bundle: Bundle,
    *,
    approvals: ApprovalMode | None,
    store: str | None,
    delay: float,
    guard: float = GUARD,
    logs: LogLines | None = None,
    live: bool = False,
    loaded: Callable[[], None] | None = None,
) -> tuple[ReplayApp, Coordinator]:
    """The replay app and its coordinator: approvals go to modal screens on the app
    unless ``approvals`` names a mode. The caller runs the app, then cleans up.
    ``loaded``: as for `replay_headless`."""
    from amplifier_hooks.cli.app import ReplayApp
    from amplifier_hooks.ui.approval_app import TextualApprovalProvider

    given, store = store, replay_store(store, live=live, approvals=approvals)
    screen_provider = TextualApprovalProvider(guard=guard) if approvals is None else None
    provider: ApprovalProvider = screen_provider or mode_provider(
        bundle, approvals or "policy", store
    )
    coordinator, load = await open_coordinator(
        bundle, provider=provider, store=store, replay=Replay(live=live)
    )
    if loaded is not None:
        loaded()
    info = replay_info(trace, bundle, load, describe_approvals(bundle, approvals))
    info.side_effects = describe_side_effects(live, module_ids(load))
    info.answers = describe_store(bundle, given, store)
    app = ReplayApp(Replayer(coordinator), trace.events, info, delay=delay, logs=logs)
    if screen_provider is not None:
        screen_provider.bind(app)
    return app, coordinator


async def replay_tui(
    trace: Trace,
    bundle: Bundle,
    *,
    approvals: ApprovalMode | None,
    store: str | None,
    delay: float,
    logs: LogLines | None,
    err: IO[str] | None = None,
    live: bool = False,
    loaded: Callable[[], None] | None = None,
) -> int:
    """Run the Textual app until the person quits; its exit code. A replay stopped before
    its end says so on ``err`` (stderr) once the terminal is back, with the question it
    left unanswered. ``loaded``: as for `replay_headless`."""
    err = err or sys.stderr
    interrupts = _Interrupts()
    with _sigint_to(interrupts):
        try:
            app, coordinator = await build_app(
                trace,
                bundle,
                approvals=approvals,
                store=store,
                delay=delay,
                logs=logs,
                live=live,
                loaded=loaded,
            )
        except asyncio.CancelledError:
            if interrupts.count:
                raise KeyboardInterrupt from None
            raise
        try:
            if interrupts.count:  # while the bundle was being mounted
                err.write("interrupted\n")
                return INTERRUPTED
            interrupts.app = app
            result = await app.run_async()
        finally:
            await coordinator.cleanup()
    say_goodbye(app, err)
    return result if result is not None else (app.return_code or 0)


def say_goodbye(app: ReplayApp, err: IO[str]) -> None:
    """What the terminal shows once the app is gone: how a replay stopped before its end
    was stopped (and the question it left), or, after its end, the report's summary."""
    if app.stop is not None:
        err.write(app.stop.describe() + "\n")
    elif app.done:
        RichReport(make_console(err)).finish(app.replayer.summary)


class _Interrupts:
    """Where SIGINT goes during `replay_tui`. Once Textual owns the terminal, Ctrl+C is a
    key; before that, and while the app starts or closes, it is still a signal, and the
    KeyboardInterrupt (or cancellation) it would raise tears the app down halfway (a
    traceback, a coroutine never awaited). So: to the app once there is one; before
    that, the first one is noted (the app is not started) and a second one cancels, for a
    bundle whose mounting hangs."""

    def __init__(self) -> None:
        self.app: ReplayApp | None = None
        self.count = 0
        self._task = asyncio.current_task()

    def __call__(self) -> None:
        self.count += 1
        if self.app is not None:
            self.app.interrupt()
        elif self.count > 1 and self._task is not None:
            self._task.cancel()


@contextlib.contextmanager
def _sigint_to(handler: Callable[[], None]) -> Iterator[None]:
    """Route SIGINT to ``handler`` (on the running loop) inside the block."""
    loop = asyncio.get_running_loop()
    previous = signal.getsignal(signal.SIGINT)
    try:
        loop.add_signal_handler(signal.SIGINT, handler)
    except (NotImplementedError, RuntimeError, ValueError):
        # No signal handlers on this loop or thread (Windows, a non-main thread).
        yield
        return
    try:
        yield
    finally:
        loop.remove_signal_handler(signal.SIGINT)
        if previous is not None:  # asyncio.run's own handler, for what follows
            signal.signal(signal.SIGINT, previous)


def use_tui(args: argparse.Namespace) -> bool:
    """The app only for a person at a terminal: not asked away, both ends a TTY."""
    if args.no_tui or args.json:
        return False
    return _tty(sys.stdin) and _tty(sys.stdout)


def _tty(stream: IO[str] | None) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False
