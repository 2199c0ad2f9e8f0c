"""``amplifier-hooks approve --web``: the approver's console in a browser.

Serves the shared queue to browsers (`amplifier_hooks.web.approver`) on the same aiohttp
stack as ``serve``: loopback unless ``--allow-remote``, only to a browser logged in with
the token. The address with the token is printed on stdout (one line, for scripts and
for copying); notes go to stderr.
"""

from __future__ import annotations

import argparse
import ssl
from typing import IO

from amplifier_hooks.approvals import ApprovalBackend, ApprovalStoreError
from amplifier_hooks.approvals.heartbeat import Heartbeat
from amplifier_hooks.cli.arguments import add_remote_arguments
from amplifier_hooks.web import ServerOptions, check_bind, resolve_token, run_until_stopped
from amplifier_hooks.web.approver import ApproverSettings, make_approver_app

__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "add_web_arguments", "run_web", "web_options_given"]

DEFAULT_HOST = "127.0.0.1"

DEFAULT_PORT = 8788


def add_web_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``--web`` options of ``approve``."""
    web = parser.add_argument_group(
        "browser console",
        "approve from a browser (a laptop, or a phone over an SSH tunnel or TLS); open the "
        "printed http://HOST:PORT/?token=… address to log the browser in",
    )
    web.add_argument("--web", action="store_true", help="serve the approver's console to a browser")
    web.add_argument(
        "--host",
        help=f"address to listen on (default {DEFAULT_HOST}; anything beyond loopback needs "
        "--allow-remote)",
    )
    web.add_argument("--port", type=int, help=f"port (default {DEFAULT_PORT}; 0: any free)")
    add_remote_arguments(
        web,
        allow_remote="let --host be an address other machines reach "
        "(use TLS: --certfile/--keyfile)",
        certfile="serve HTTPS with this certificate",
        keyfile="the certificate's private key",
    )


def web_options_given(args: argparse.Namespace) -> bool:
    """True when an option that only ``--web`` uses was given."""
    return any(
        (
            args.host is not None,
            args.port is not None,
            args.allow_remote,
            args.certfile,
            args.keyfile,
        )
    )


def _tls(certfile: str | None, keyfile: str | None) -> ssl.SSLContext | None:
    if certfile is None and keyfile is None:
        return None
    if not (certfile and keyfile):
        raise ValueError("--certfile and --keyfile go together")
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    try:
        context.load_cert_chain(certfile, keyfile)
    except (OSError, ssl.SSLError) as exc:
        raise ValueError(f"cannot use the certificate {certfile} / {keyfile}: {exc}") from None
    return context


async def run_web(
    args: argparse.Namespace,
    backend: ApprovalBackend,
    approver: str,
    out: IO[str],
    err: IO[str],
) -> int:
    """Serve the console until SIGINT/SIGTERM; 2 for options or a store that cannot be used."""
    host = args.host or DEFAULT_HOST
    port = DEFAULT_PORT if args.port is None else args.port
    try:
        context = _tls(args.certfile, args.keyfile)
        plan = check_bind(host, allow_remote=args.allow_remote, tls=context is not None)
        token = resolve_token()
    except ValueError as exc:
        err.write(f"{exc}\n")
        return 2
    if not 0 <= port <= 65535:
        err.write(f"--port must be 0-65535, not {port}\n")
        return 2
    try:
        await backend.list_pending()  # a store that cannot be used is said now, not in the page
    except ApprovalStoreError as exc:
        err.write(f"{exc}\n")
        return 2
    settings = ApproverSettings(
        approver=approver, order=args.order, tls=context is not None, loopback=not plan.remote
    )
    app = make_approver_app(backend, token.value, settings)
    if plan.warning:
        err.write(f"warning: {plan.warning}\n")

    def ready(address: str) -> None:
        out.write(f"{address}/?token={token.value}\n")
        out.flush()
        err.write(
            f"approver console for {backend.name} at {address} (answering as {approver}); "
            f"open the address above to log a browser in; token from {token.source}; "
            "Ctrl+C stops\n"
        )
        if plan.remote and host in ("0.0.0.0", "::"):
            err.write(f"from another machine, use this machine's name in place of {host}\n")
        err.flush()

    options = ServerOptions(host=host, port=port, ssl_context=context)
    try:
        # While it serves, agents with approval provider auto queue to it.
        async with Heartbeat(backend, approver, "web"):
            await run_until_stopped(app, options, on_ready=ready)
    except OSError as exc:
        err.write(f"cannot listen on {host}:{port}: {exc.strerror or exc}\n")
        return 2
    return 0
