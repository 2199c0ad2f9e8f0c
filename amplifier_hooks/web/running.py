"""Starting a server, and stopping it cleanly on SIGTERM or SIGINT.

One runner for both servers, so they bind, report where they listen and shut down the same
way: in-flight requests are let finish (up to ``shutdown_timeout``), then cleanups run.
"""

from __future__ import annotations

import asyncio
import signal
import ssl
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from aiohttp import web

from amplifier_hooks.logs import get_logger
from amplifier_hooks.web.connections import ConnectionGuard
from amplifier_hooks.web.limits import DEFAULT_LIMITS, TROUBLE, Limits, QuietLogs, Trouble

__all__ = ["ServerOptions", "loop_factory", "run_server", "run_until_stopped", "start_site"]

logger = get_logger()


@dataclass(frozen=True)
class ServerOptions:
    """Where and how a server listens."""

    host: str = "127.0.0.1"
    port: int = 0  # 0: any free port (the address actually bound is reported)
    unix_path: Path | None = None  # a Unix socket instead of TCP (host and port unused)
    ssl_context: ssl.SSLContext | None = None
    shutdown_timeout: float = 5.0
    limits: Limits = DEFAULT_LIMITS


LINGER = 2.0
"""Seconds the rest of a refused request's body is read and dropped before the connection
closes (so the client reads the refusal instead of a reset)."""


class _GuardedRunner(web.AppRunner):
    """An `AppRunner` whose sites accept connections through a `ConnectionGuard`."""

    guard: ConnectionGuard | None = None

    @property
    def server(self) -> web.Server | None:  # the protocol factory sites listen with
        inner = super().server
        if inner is None or self.guard is None:
            return inner
        return self.guard.factory(inner)  # type: ignore[return-value]  # a factory all the same


async def start_site(app: web.Application, options: ServerOptions) -> tuple[web.AppRunner, str]:
    """Start serving ``app``; the runner (``await runner.cleanup()`` stops it) and the
    address it listens on (``http://127.0.0.1:8123`` or ``unix:/path``)."""
    trouble = app.get(TROUBLE) or Trouble(options.limits)
    app[TROUBLE] = trouble
    guard = ConnectionGuard(options.limits, trouble)
    app.middlewares.insert(0, guard.middleware)  # outermost: marks a call in progress

    async def stop_guard(app: web.Application) -> None:
        await guard.stop()

    app.on_cleanup.append(stop_guard)
    runner = _GuardedRunner(
        app,
        handle_signals=False,
        access_log=None,
        shutdown_timeout=options.shutdown_timeout,
        keepalive_timeout=options.limits.header_timeout,
        lingering_time=LINGER,
    )
    runner.guard = guard
    await runner.setup()
    guard.start()
    site: web.BaseSite
    try:
        if options.unix_path is not None:
            site = web.UnixSite(runner, str(options.unix_path))
            await site.start()
            return runner, f"unix:{options.unix_path}"
        site = web.TCPSite(runner, options.host, options.port, ssl_context=options.ssl_context)
        await site.start()
    except BaseException:
        await runner.cleanup()
        raise
    # The address actually bound: with port 0 the system chose it.
    port = runner.addresses[0][1] if runner.addresses else options.port
    scheme = "https" if options.ssl_context is not None else "http"
    host = f"[{options.host}]" if ":" in options.host else options.host
    return runner, f"{scheme}://{host}:{port}"


async def run_until_stopped(
    app: web.Application,
    options: ServerOptions,
    on_ready: Callable[[str], Awaitable[None] | None] | None = None,
    stop: asyncio.Event | None = None,
) -> None:
    """Serve until SIGTERM/SIGINT (or ``stop`` is set), then shut down cleanly.

    ``on_ready`` gets the address once the server accepts connections.
    """
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    installed: list[signal.Signals] = []
    for signum in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(signum, stop.set)
            installed.append(signum)
        except (NotImplementedError, RuntimeError, ValueError):
            pass  # not the main thread, or no signals here: `stop` still works
    trouble = app.get(TROUBLE) or Trouble(options.limits)
    app[TROUBLE] = trouble
    with QuietLogs(trouble).installed():
        runner, address = await start_site(app, options)
        try:
            if on_ready is not None:
                ready = on_ready(address)
                if ready is not None:
                    await ready
            await stop.wait()
            logger.info("server stopping", address=address)
        finally:
            await _bounded_cleanup(runner, options.shutdown_timeout)
            for signum in installed:
                loop.remove_signal_handler(signum)


async def _bounded_cleanup(runner: web.AppRunner, grace: float) -> None:
    """Stop the runner: calls in flight get ``grace`` seconds (the app's own shutdown
    answers those still waiting), then aiohttp's ``grace`` for the answers to be
    written; whatever still hangs after that (a module's cleanup that never returns)
    is given up on, so a stopped server is gone within about twice its grace."""
    bound = 2 * grace + CLEANUP_MARGIN
    try:
        await asyncio.wait_for(runner.cleanup(), bound)
    except TimeoutError:
        logger.error("server shutdown took too long: leaving the rest undone", seconds=bound)


CLEANUP_MARGIN = 5.0
"""Seconds beyond two graces for closing sessions (module cleanups) on the way out."""


T = TypeVar("T")


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop where it is installed, else None (asyncio's own). A server's
    work outside its handlers -- reading sockets, scheduling callbacks and tasks -- costs
    less CPU per call on it (``benchmarks.serve_instructions`` counts it)."""
    try:
        import uvloop
    except ImportError:  # not on this platform (Windows): asyncio's loop does the same job
        return None
    return uvloop.new_event_loop


def run_server(main: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run` for a process that is a server: ``main`` on `loop_factory`'s loop."""
    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        return runner.run(main)
