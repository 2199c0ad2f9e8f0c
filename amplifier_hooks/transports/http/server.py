"""Running the hook server: on TCP (``serve``, Claude Code's HTTP hooks) or on a private
Unix socket (the per-workspace server that command hooks relay to), until SIGTERM, SIGINT
or -- for the latter -- an idle time with no call.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import ssl
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from amplifier_hooks.hosts import DEFAULT_IDLE_TIMEOUT
from amplifier_hooks.hosts.sessions import DEFAULT_MAX_SESSIONS
from amplifier_hooks.logs import get_logger
from amplifier_hooks.transports.http.activity import Activity
from amplifier_hooks.transports.http.app import Middleware, Trial, hook_app
from amplifier_hooks.transports.http.collector import EVERY, Collector
from amplifier_hooks.transports.http.orphans import withdraw_orphans
from amplifier_hooks.transports.http.peer import same_user_only
from amplifier_hooks.transports.http.source import BundleSessions
from amplifier_hooks.transports.relay.wire import MAX_HOOK_BYTES
from amplifier_hooks.transports.routes import known_adapters
from amplifier_hooks.web import (
    Credentials,
    ServerOptions,
    Token,
    check_bind,
    require_token,
    run_until_stopped,
)
from amplifier_hooks.web.access import loopback_host_only
from amplifier_hooks.web.limits import DEFAULT_LIMITS, Limits

__all__ = ["DEFAULT_MAX_BODY", "DEFAULT_PORT", "HookServerConfig", "ServeError", "serve_hooks"]

logger = get_logger()

DEFAULT_PORT = 8419
"""Where ``serve`` listens unless told (a fixed port, so the installed URL stays valid)."""

DEFAULT_MAX_BODY = MAX_HOOK_BYTES
"""Bytes a hook input may have unless configured (`MAX_HOOK_BYTES`: what a command hook
reads too). A larger one is blocked, with a reason."""


class ServeError(Exception):
    """The server cannot start as asked; the message says why."""


@dataclass(frozen=True)
class HookServerConfig:
    """What a hook server serves and where (the ``serve`` command's options)."""

    bundle: str
    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    unix: str | None = None  # a Unix socket path instead of TCP (no token; owner only)
    allow_remote: bool = False
    certfile: str | None = None
    keyfile: str | None = None
    idle_timeout: float = DEFAULT_IDLE_TIMEOUT  # a session's coordinator closes after this
    max_sessions: int = DEFAULT_MAX_SESSIONS  # past it, the session idle longest is closed
    idle_exit: float | None = None  # the whole server exits after this long without a call
    max_body: int = DEFAULT_MAX_BODY
    grace: float = 5.0  # seconds calls in flight get to finish on shutdown
    limits: Limits = DEFAULT_LIMITS  # timeouts, connections, log rate (docs/security.md)


Ready = Callable[[str], Awaitable[None] | None]


async def serve_hooks(
    config: HookServerConfig,
    token: Token | None = None,
    on_ready: Ready | None = None,
    stop: asyncio.Event | None = None,
    trial: Trial | None = None,
    **session_options: Any,
) -> None:
    """Serve ``config.bundle``'s answers until stopped; every session is closed on the
    way out. ``token`` is required on TCP and unused on a Unix socket; ``trial`` answers
    ``test``'s relayed calls, on a Unix socket only (`hook_app`).

    Raises `ServeError` (and what the bundle loader raises) before listening.
    """
    stop = stop or asyncio.Event()
    middlewares: list[Middleware]
    if config.unix is not None:
        _take_over_stale(config.unix)
        options = ServerOptions(
            unix_path=Path(config.unix), shutdown_timeout=config.grace, limits=config.limits
        )
        middlewares = [same_user_only]
    else:
        if token is None:
            raise ServeError("a TCP hook server needs a token")
        tls = _tls(config)
        try:
            plan = check_bind(config.host, allow_remote=config.allow_remote, tls=tls is not None)
        except ValueError as exc:
            raise ServeError(str(exc)) from exc
        if plan.warning is not None:
            logger.warning(plan.warning)
        options = ServerOptions(
            host=config.host,
            port=config.port,
            ssl_context=tls,
            shutdown_timeout=config.grace,
            limits=config.limits,
        )
        middlewares = [require_token(Credentials(token.value))]
        if not plan.remote:
            middlewares.insert(0, loopback_host_only)
    source = BundleSessions(
        config.bundle,
        idle_timeout=config.idle_timeout,
        max_sessions=config.max_sessions,
        **session_options,
    )
    if source.sessions is not None:
        await withdraw_orphans(source.sessions.bundle, session_options)
    activity = Activity()
    app = hook_app(
        source,
        known_adapters(),
        max_body=config.max_body,
        grace=config.grace,
        middlewares=middlewares,
        activity=activity,
        limits=config.limits,
        trial=trial if config.unix is not None else None,
    )
    housekeeping = asyncio.ensure_future(_housekeeping(source, activity, config, stop))
    inode: int | None = None

    async def ready(address: str) -> None:
        nonlocal inode
        if config.unix is not None:
            inode = os.stat(config.unix).st_ino
        if on_ready is not None:
            said = on_ready(address)
            if said is not None:
                await said

    old_umask = os.umask(0o177) if config.unix is not None else None  # socket born 0600
    try:
        await run_until_stopped(app, options, on_ready=_restoring(old_umask, ready), stop=stop)
    finally:
        if old_umask is not None:
            os.umask(old_umask)
        housekeeping.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await housekeeping
        if config.unix is not None and inode is not None:
            _remove_if_ours(config.unix, inode)


def _restoring(old_umask: int | None, then: Ready) -> Ready:
    def ready(address: str) -> Awaitable[None] | None:
        if old_umask is not None:
            os.umask(old_umask)
        return then(address)

    return ready


async def _housekeeping(
    source: BundleSessions, activity: Activity, config: HookServerConfig, stop: asyncio.Event
) -> None:
    """Close idle sessions now and then, pace the garbage collector (`Collector`); with
    ``idle_exit``, stop the server once no call came for that long."""
    every = min(config.idle_timeout, 60.0)

    async def expire() -> None:
        while True:
            await asyncio.sleep(every)
            closed = await source.expire_idle()
            if closed:
                logger.info("idle sessions closed", sessions=closed)

    async def collect() -> None:
        collector = Collector()
        collector.start()
        try:
            while True:
                collector.tick(source.sessions)
                await asyncio.sleep(EVERY)
        finally:
            collector.release()

    expiring = asyncio.ensure_future(expire())
    collecting = asyncio.ensure_future(collect())
    try:
        if config.idle_exit is None:
            await asyncio.Event().wait()  # until cancelled
            return
        await activity.idle(config.idle_exit)
        logger.info("no hook call for a while: exiting", idle_exit=config.idle_exit)
        stop.set()
    finally:
        for task in (expiring, collecting):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


def _tls(config: HookServerConfig) -> ssl.SSLContext | None:
    if config.certfile is None and config.keyfile is None:
        return None
    if config.certfile is None:
        raise ServeError("--keyfile needs --certfile")
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    try:
        context.load_cert_chain(config.certfile, config.keyfile)
    except (OSError, ssl.SSLError) as exc:
        raise ServeError(f"cannot load the certificate {config.certfile}: {exc}") from exc
    return context


def _take_over_stale(path: str) -> None:
    """Remove a socket nobody listens on; refuse to replace one that answers."""
    if not os.path.lexists(path):
        return
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.settimeout(2.0)
        probe.connect(path)
    except (ConnectionRefusedError, FileNotFoundError):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
        return
    except OSError as exc:
        raise ServeError(f"cannot use {path}: {exc}") from exc
    finally:
        probe.close()
    raise ServeError(f"another hook server already listens on {path}")


def _remove_if_ours(path: str, inode: int) -> None:
    """Remove the socket on exit unless a newer server has replaced it meanwhile."""
    with contextlib.suppress(FileNotFoundError):
        if os.stat(path).st_ino == inode:
            os.unlink(path)
