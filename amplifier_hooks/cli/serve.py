"""``amplifier-hooks serve``: a bundle answering Claude Code's (and Codex's) hooks over HTTP.

On TCP (default ``127.0.0.1:8419``) it answers HTTP hooks at ``POST /claude-code`` with
``Authorization: Bearer <token>``; with ``--unix PATH`` it is the per-workspace server a
command hook starts and relays to (docs/claude-code.md, "How state lasts").
"""

from __future__ import annotations

import argparse
import os
import shlex
from typing import IO, Any

from amplifier_hooks.cli.arguments import add_bundle_argument, add_remote_arguments
from amplifier_hooks.cli.commands import add_command
from amplifier_hooks.cli.numbers import number_of
from amplifier_hooks.hosts import DEFAULT_IDLE_TIMEOUT
from amplifier_hooks.hosts.sessions import DEFAULT_MAX_SESSIONS
from amplifier_hooks.transports.http import (
    DEFAULT_MAX_BODY,
    DEFAULT_PORT,
    HookServerConfig,
    ServeError,
    serve_hooks,
)
from amplifier_hooks.web import TOKEN_ENV, Token, resolve_token
from amplifier_hooks.web.limits import DEFAULT_LIMITS, Limits
from amplifier_hooks.web.running import run_server
from amplifier_hooks.web.tokens import default_token_path

__all__ = ["add_parser", "announce", "run"]

SECONDS = number_of("seconds", exclusive=True)


def add_parser(commands: Any, common: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add ``serve`` to the CLI; its parser."""
    serve = add_command(
        commands,
        common,
        "serve",
        "Answer agent CLI hooks with BUNDLE: Claude Code's HTTP hooks at POST "
        "/claude-code (Codex: /codex), one coordinator per session, on loopback, only with "
        f"'Authorization: Bearer <token>' (${TOKEN_ENV}, else a generated token kept in a "
        "private file). Stops cleanly on SIGTERM or SIGINT.",
    )
    add_bundle_argument(serve)
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    serve.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"port ({DEFAULT_PORT}; 0: any free port)"
    )
    add_remote_arguments(
        serve,
        allow_remote="allow an address other machines can reach (use TLS: --certfile, --keyfile)",
        certfile="TLS certificate (chain)",
        keyfile="TLS private key",
    )
    serve.add_argument(
        "--unix",
        metavar="PATH",
        help="listen on a Unix socket instead (answers its owner only, no token); this is "
        "how a command hook's per-workspace server runs",
    )
    serve.add_argument(
        "--idle-timeout",
        type=SECONDS,
        default=DEFAULT_IDLE_TIMEOUT,
        metavar="SECONDS",
        help="close a session's coordinator after this long without a call "
        f"({DEFAULT_IDLE_TIMEOUT:g})",
    )
    serve.add_argument(
        "--idle-exit",
        type=SECONDS,
        default=None,
        metavar="SECONDS",
        help="exit after this long without a call (default: never)",
    )
    serve.add_argument(
        "--max-body",
        type=number_of("bytes", minimum=1024, whole=True),
        default=DEFAULT_MAX_BODY,
        metavar="BYTES",
        help=f"largest hook input; a larger one is blocked ({DEFAULT_MAX_BODY})",
    )
    serve.add_argument(
        "--grace",
        type=SECONDS,
        default=5.0,
        metavar="SECONDS",
        help="on SIGTERM, how long calls in flight may take before they are refused (5)",
    )
    serve.add_argument(
        "--header-timeout",
        type=SECONDS,
        default=DEFAULT_LIMITS.header_timeout,
        metavar="SECONDS",
        help="close a connection that sends no complete request for this long "
        f"({DEFAULT_LIMITS.header_timeout:g})",
    )
    serve.add_argument(
        "--body-timeout",
        type=SECONDS,
        default=DEFAULT_LIMITS.body_timeout,
        metavar="SECONDS",
        help=f"block a call whose body takes longer to arrive ({DEFAULT_LIMITS.body_timeout:g})",
    )
    serve.add_argument(
        "--max-connections",
        type=int,
        default=DEFAULT_LIMITS.max_connections,
        metavar="N",
        help="connections open at once; past it the oldest idle one is closed "
        f"({DEFAULT_LIMITS.max_connections})",
    )
    serve.add_argument(
        "--max-sessions",
        type=int,
        default=DEFAULT_MAX_SESSIONS,
        metavar="N",
        help="sessions open at once; past it the one idle longest is closed "
        f"({DEFAULT_MAX_SESSIONS})",
    )
    serve.add_argument("--ready-fd", type=int, default=None, help=argparse.SUPPRESS)
    return serve


_AS_GIVEN = (
    "host",
    "port",
    "unix",
    "allow_remote",
    "certfile",
    "keyfile",
    "idle_timeout",
    "idle_exit",
    "max_body",
    "grace",
)
"""The options that go into `HookServerConfig` as they are, under their own names."""


def config_from(args: argparse.Namespace) -> HookServerConfig:
    """The server's configuration from the parsed arguments."""
    return HookServerConfig(
        bundle=os.path.abspath(args.bundle),
        **{name: getattr(args, name) for name in _AS_GIVEN},
        max_sessions=max(1, args.max_sessions),
        limits=Limits(
            header_timeout=args.header_timeout,
            body_timeout=args.body_timeout,
            max_connections=max(1, args.max_connections),
        ),
    )


def run(args: argparse.Namespace, err: IO[str]) -> int:
    """Run ``serve`` until stopped; the exit code."""
    config = config_from(args)
    token: Token | None = None
    fresh = False
    if config.unix is None:
        fresh = not os.environ.get(TOKEN_ENV, "").strip() and not default_token_path().exists()
        try:
            token = resolve_token()
        except (ValueError, OSError) as exc:
            err.write(f"error: {exc}\n")
            return 2

    def ready(address: str) -> None:
        announce(config, address, token, fresh, err)
        if args.ready_fd is not None:
            os.write(args.ready_fd, b"ready\n")
            os.close(args.ready_fd)

    trial = None
    if config.unix is not None:  # the per-workspace server: `test` may ask it too
        from amplifier_hooks.cli.served_trial import served_test

        trial = served_test(config.bundle)
    try:
        run_server(serve_hooks(config, token, on_ready=ready, trial=trial))
    except ServeError as exc:
        err.write(f"error: {exc}\n")
        return 2
    except OSError as exc:
        where = config.unix or f"{config.host}:{config.port}"
        err.write(f"error: cannot listen on {where}: {exc.strerror or exc}\n")
        return 2
    err.write("amplifier-hooks serve: stopped\n")
    return 0


def announce(
    config: HookServerConfig, address: str, token: Token | None, fresh: bool, err: IO[str]
) -> None:
    """Say where the server listens, where its token is (never the token), and how to
    wire Claude Code to it."""
    lines = [f"amplifier-hooks serve: bundle {config.bundle}"]
    if token is None:
        lines.append(f"listening on {address} (this user's processes only; no token)")
    else:
        url = f"{address}/claude-code"
        lines.append(f"listening on {address}: Claude Code HTTP hooks at POST {url}")
        if token.source.startswith("$"):
            lines.append(f"token: from {token.source}")
            start = f"claude    (with the same ${TOKEN_ENV} in its environment)"
        else:
            made = "generated now and kept" if fresh else "kept"
            lines.append(f"token: {made} in {token.source} (only you can read it)")
            start = f'{TOKEN_ENV}="$(cat {shlex.quote(token.source)})" claude'
        lines.append("wire Claude Code to it, then start Claude Code with the token (its hooks")
        lines.append(f"send ${TOKEN_ENV} from its environment):")
        lines.append(
            f"  amplifier-hooks claude-code install --bundle {shlex.quote(config.bundle)} "
            f"--url {url}"
        )
        lines.append(f"  {start}")
    err.write("\n".join(lines) + "\n")
    err.flush()
