"""``amplifier-hooks mcp``: run an MCP server behind a bundle; ``mcp wrap|unwrap`` a client.

``mcp --bundle B [--name NAME] -- CMD [ARGS...]`` runs the server ``CMD`` over stdio behind
the proxy (``--url URL``: one reached over Streamable HTTP), speaking MCP to its client on
stdin and stdout. ``mcp wrap --bundle B`` rewrites the MCP clients' configs found here so
that each server runs through the proxy; ``mcp unwrap`` undoes exactly that. See
docs/mcp.md.

The MCP SDK and anyio are imported only once a proxy is to run: the SDK is optional
(`McpUnavailable` says how to install it) and ``wrap``/``unwrap`` need neither.
"""

from __future__ import annotations

import argparse
import os
from typing import IO, Any, TextIO

from amplifier_hooks.cli.commands import add_command
from amplifier_hooks.cli.numbers import number_of

__all__ = ["add_parser", "run"]

ACTIONS = ("wrap", "unwrap")


def add_parser(commands: Any, common: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add ``mcp`` to the CLI; its parser."""
    mcp = add_command(
        commands,
        common,
        "mcp",
        "Run the MCP server CMD (or the one at --url) behind BUNDLE: every "
        "tools/call is judged as a tool:pre event, every result passes tool:post. Speaks MCP "
        "on stdin/stdout, so an MCP client runs it in the server's place. "
        "'mcp wrap --bundle B' rewrites the MCP clients' configs here to do that for each "
        "server; 'mcp unwrap' restores them. Needs the extra amplifier-hooks[mcp].",
        usage="%(prog)s --bundle BUNDLE [--name NAME] (-- CMD [ARGS...] | --url URL)\n"
        "       %(prog)s wrap --bundle BUNDLE [--project DIR] [--client NAME]\n"
        "       %(prog)s unwrap [--project DIR] [--client NAME]",
    )
    mcp.add_argument("--bundle", metavar="BUNDLE", help="the bundle that judges every call")
    mcp.add_argument(
        "--name", metavar="NAME", help="the server's name in tool names (default: CMD's name)"
    )
    mcp.add_argument("--url", metavar="URL", help="proxy the server at URL (Streamable HTTP)")
    mcp.add_argument(
        "--workspace",
        metavar="DIR",
        help="the directory the agent works in (default: the current directory)",
    )
    mcp.add_argument(
        "--max-message",
        type=number_of("bytes", minimum=1024, whole=True),
        default=None,
        metavar="BYTES",
        help="largest message from the client, and largest result (4 MiB)",
    )
    mcp.add_argument("words", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    mcp.set_defaults(bundle_required=False)
    return mcp


def _actions_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="amplifier-hooks mcp")
    actions = parser.add_subparsers(dest="action", required=True)
    for name, doing in (("wrap", "run each server through the proxy"), ("unwrap", "undo wrap")):
        action = actions.add_parser(name, help=doing)
        if name == "wrap":
            action.add_argument("--bundle", required=True, metavar="BUNDLE")
        action.add_argument(
            "--project", metavar="DIR", help="the project's configs (default: current directory)"
        )
        action.add_argument(
            "--client",
            action="append",
            metavar="NAME",
            help="only this client's configs (claude-code, claude-desktop, cursor, gemini-cli, "
            "codex; repeatable)",
        )
    return parser


def run(args: argparse.Namespace, out: IO[str], err: TextIO) -> int:
    """Run ``mcp`` as parsed; the exit code."""
    words: list[str] = list(args.words)
    if words[:1] and words[0] in ACTIONS:
        from amplifier_hooks.cli.mcp_wrap import run_action

        return run_action(_actions_parser().parse_args(words), out, err)
    if words[:1] == ["--"]:
        words = words[1:]
    if not args.bundle:
        err.write("error: mcp needs --bundle BUNDLE\n")
        return 2
    if bool(words) == bool(args.url):
        err.write("error: mcp needs the server: '-- CMD [ARGS...]' or --url URL (one of them)\n")
        return 2
    from amplifier_hooks.transports.mcp.sdk import McpUnavailable, require_sdk

    try:
        require_sdk()
    except McpUnavailable as exc:
        err.write(f"error: {exc}\n")
        return 2
    import anyio

    from amplifier_hooks.transports.mcp.limits import DEFAULT_LIMITS
    from amplifier_hooks.transports.mcp.names import default_server_name, server_name
    from amplifier_hooks.transports.mcp.proxy import ProxyConfig, loop_options, run_proxy
    from amplifier_hooks.transports.mcp.upstream import UpstreamTarget

    try:
        if args.name:
            name = server_name(args.name)
        elif args.url:
            from urllib.parse import urlsplit

            name = server_name(urlsplit(args.url).hostname or "server")
        else:
            name = default_server_name(words[0])
    except ValueError as exc:
        err.write(f"error: {exc}\n")
        return 2
    limits = DEFAULT_LIMITS
    if args.max_message is not None:
        limits = limits._replace(max_message=args.max_message)
    config = ProxyConfig(
        bundle=os.path.abspath(args.bundle),
        server=name,
        target=UpstreamTarget(command=tuple(words), url=args.url),
        workspace=os.path.abspath(args.workspace or os.getcwd()),
        limits=limits,
    )
    code: int = anyio.run(lambda: run_proxy(config, errlog=err), backend_options=loop_options())
    return code
