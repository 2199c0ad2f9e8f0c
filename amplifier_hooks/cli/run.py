"""``amplifier-hooks run``: replay a trace through a bundle, in the Textual app or as a
report."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING

from amplifier_hooks.approvals import ApprovalProvider
from amplifier_hooks.bundles import Bundle, load_bundle
from amplifier_hooks.bundles.loading import LoadReport
from amplifier_hooks.cli.replay import Replayer
from amplifier_hooks.cli.report import INTERRUPTED, JsonReport, ReplayInfo, RichReport, make_console
from amplifier_hooks.cli.session import (
    DEFAULT_BUNDLE,
    DEMO_TRACE,
    ApprovalMode,
    mode_provider,
    open_coordinator,
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


def describe_side_effects(live: bool) -> str:
    """What modules with side effects do in this replay, for the header."""
    if live:
        return "live (--live): modules act as in a session; ah-shell runs its commands"
    return "held back: ah-shell shows the commands it would run instead (--live runs them)"


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
) -> int:
    """Replay every event and print the report (or JSON lines) to ``out``. Modules hold
    back side effects (ah-shell's commands) unless ``live``."""
    provider = mode_provider(bundle, approvals, store)
    coordinator, load = await open_coordinator(
        bundle, provider=provider, store=store, replay=Replay(live=live)
    )
    try:
        view = JsonReport(out) if as_json else RichReport(make_console(out))
        info = replay_info(trace, bundle, load, describe_approvals(bundle, approvals))
        info.side_effects = describe_side_effects(live)
        view.start(info)
        replayer = Replayer(coordinator)
        replayer.summary.skipped_lines = len(trace.skipped)
        for item in trace.events:
            view.step(await replayer.step(item))
        view.finish(replayer.summary)
    finally:
        await coordinator.cleanup()
    return 0


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
) -> tuple[ReplayApp, Coordinator]:
    """The replay app and its coordinator: approvals go to modal screens on the app
    unless ``approvals`` names a mode. The caller runs the app, then cleans up."""
    from amplifier_hooks.cli.app import ReplayApp
    from amplifier_hooks.ui.approval_app import TextualApprovalProvider

    screen_provider = TextualApprovalProvider(guard=guard) if approvals is None else None
    provider: ApprovalProvider = screen_provider or mode_provider(
        bundle, approvals or "policy", store
    )
    coordinator, load = await open_coordinator(
        bundle, provider=provider, store=store, replay=Replay(live=live)
    )
    info = replay_info(trace, bundle, load, describe_approvals(bundle, approvals))
    info.side_effects = describe_side_effects(live)
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
) -> int:
    """Run the Textual app until the person quits; its exit code. A replay stopped before
    its end says so on ``err`` (stderr) once the terminal is back, with the question it
    left unanswered."""
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
    if app.stop is not None:
        err.write(app.stop.describe() + "\n")
    return result if result is not None else (app.return_code or 0)


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
