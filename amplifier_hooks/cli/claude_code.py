"""``amplifier-hooks claude-code hook|install|uninstall`` (and ``codex hook``,
``gemini hook``): a bundle as the hook command of an agent CLI.

``hook`` reads one hook input on stdin and prints the answer JSON on stdout — and nothing
else on stdout, ever: while it runs, anything written to stdout (a module's stray print, a
subprocess that inherited the descriptor) goes to stderr instead. It exits with the
answer's code. Whatever goes wrong (input that is not JSON, a bundle that cannot be
loaded, an internal error) a guarding event is blocked with the reason, never allowed.

The relay's and the remote hook's modules are imported by the form of ``hook`` that uses
them: an answer given in this process needs neither.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import json
import os
import sys
from collections.abc import Iterator
from typing import IO, Any, BinaryIO

from amplifier_hooks.cli import host_install
from amplifier_hooks.cli.arguments import add_bundle_argument
from amplifier_hooks.cli.commands import summary
from amplifier_hooks.host_commands import EVENT_ARGUMENT_HOSTS
from amplifier_hooks.hosts import HostAdapter, HostAnswer, answer_in_process, host_named
from amplifier_hooks.hosts import base as hosts_base
from amplifier_hooks.hosts.base import HostInputError, refuse_payload
from amplifier_hooks.transports.relay.wire import MAX_HOOK_BYTES

__all__ = ["add_host_parsers", "decode_input", "run"]


def add_host_parsers(
    commands: Any, common: argparse.ArgumentParser, host: str
) -> list[argparse.ArgumentParser]:
    """Add ``host`` (``claude-code``, ``codex``...) with its ``hook``, ``install`` and
    ``uninstall`` to the CLI; their parsers."""
    parser: argparse.ArgumentParser = commands.add_parser(host, help=summary(host))
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    hook = actions.add_parser(
        "hook",
        parents=[common],
        help="answer one hook call: its input on stdin, the answer on stdout",
        description=f"Read one {host} hook input (JSON) on stdin, dispatch it through "
        "BUNDLE and print the answer JSON on stdout. Exit 0, or 2 to block when no "
        "JSON can (the reason on stderr).",
    )
    add_bundle_argument(hook)
    if host in EVENT_ARGUMENT_HOSTS:
        hook.add_argument(
            "--event",
            required=True,
            metavar="EVENT",
            help=f"the {host} event this hook is installed for ({host} sends no "
            "event name in its input)",
        )
    hook.add_argument(
        "--url",
        metavar="URL",
        help="ask a running 'amplifier-hooks serve' at URL (its /HOST route) instead of "
        "the workspace's own server",
    )
    hook.add_argument(
        "--no-daemon",
        action="store_true",
        help="answer in this process: no server, so module state ends with the call "
        "(default: relay to the workspace's server, started on first use)",
    )
    hook.add_argument(
        "--idle-exit",
        type=float,
        default=None,
        metavar="SECONDS",
        help="a server started by this call exits after this long without a call (3600)",
    )
    return [parser, hook, *_add_settings_parsers(host, actions, common)]


_SETTINGS_COMMANDS = {
    "claude-code": "claude_settings",
    "codex": "codex_settings",
    "gemini": "gemini_settings",
    "copilot": "copilot_settings",
    "opencode": "opencode_settings",
    "cline": "cline_settings",
    "openclaw": "openclaw_settings",
}
"""The module of each host's ``install`` and ``uninstall`` (only the chosen one is imported)."""


def _settings_command(host: str) -> Any:
    return importlib.import_module(f"amplifier_hooks.cli.{_SETTINGS_COMMANDS[host]}")


def _add_settings_parsers(
    host: str, actions: Any, common: argparse.ArgumentParser
) -> list[argparse.ArgumentParser]:
    """``install`` and ``uninstall`` under ``host``, from its module's `InstallCommand`
    (``COMMAND``); a module with more actions than those adds them all (``add_parsers``)."""
    module = _settings_command(host)
    if hasattr(module, "add_parsers"):
        made: list[argparse.ArgumentParser] = module.add_parsers(actions, common)
        return made
    return host_install.add_install_parsers(actions, common, module.COMMAND)


def decode_input(raw: bytes) -> object:
    """The JSON value of a hook input read from stdin; `HostInputError` saying what is
    wrong (over `MAX_HOOK_BYTES` too)."""
    if len(raw) > MAX_HOOK_BYTES:
        raise HostInputError(f"hook input over {MAX_HOOK_BYTES} bytes")
    return hosts_base.decode_input(raw)


async def answer_stdin(adapter: HostAdapter, bundle: str, raw: bytes) -> HostAnswer:
    """The answer for one raw hook input (never raises)."""
    try:
        payload = decode_input(raw)
    except HostInputError as exc:
        return refuse_payload(adapter, None, f"malformed hook input: {exc}")
    return await answer_in_process(bundle, payload, adapter)


@contextlib.contextmanager
def stdout_to_stderr(out: IO[str]) -> Iterator[IO[str]]:
    """While inside, stdout writes go to stderr; yields the stream the answer goes to.

    When ``out`` is the process's real stdout, descriptor 1 itself is pointed at stderr
    (so subprocesses cannot write to it either) and the answer goes to a copy of the
    original descriptor."""
    real = out is sys.__stdout__ and _fileno(out) == 1
    if not real:
        with contextlib.redirect_stdout(sys.stderr):
            yield out
        return
    out.flush()
    saved = os.dup(1)
    os.dup2(2, 1)
    answer = os.fdopen(os.dup(saved), "w", encoding="utf-8", closefd=True)
    try:
        with contextlib.redirect_stdout(sys.stderr):
            yield answer
    finally:
        with contextlib.suppress(OSError, ValueError):
            sys.stdout.flush()
        answer.close()
        os.dup2(saved, 1)
        os.close(saved)


def _fileno(stream: IO[str]) -> int | None:
    try:
        return stream.fileno()
    except (AttributeError, OSError, ValueError):
        return None


def hook(
    host: str,
    bundle: str,
    stdin: BinaryIO,
    out: IO[str],
    err: IO[str],
    event: str | None = None,
) -> int:
    """Answer one hook call (see the module docstring); the exit code."""
    adapter = host_named(host)
    with stdout_to_stderr(out) as answer_out:
        try:
            raw = stdin.read(MAX_HOOK_BYTES + 1)
        except OSError as exc:
            answer = refuse_payload(adapter, None, f"cannot read the hook input: {exc}")
        else:
            from amplifier_hooks.transports.relay.command import with_event

            answer = asyncio.run(answer_stdin(adapter, bundle, with_event(raw, event)))
        if answer.output is not None:
            answer_out.write(json.dumps(answer.output, ensure_ascii=False) + "\n")
            answer_out.flush()
    if answer.stderr:
        err.write(answer.stderr.rstrip("\n") + "\n")
    return answer.exit_code


def run(args: argparse.Namespace, stdin: BinaryIO, out: IO[str], err: IO[str]) -> int:
    """Run ``amplifier-hooks <host> <action>``."""
    if args.action == "hook":
        if args.url:
            from amplifier_hooks.cli.remote_hook import answer_over_http
            from amplifier_hooks.transports.relay.command import with_event

            raw = with_event(stdin.read(MAX_HOOK_BYTES + 1), getattr(args, "event", None))
            with stdout_to_stderr(out) as answer_out:
                answer = answer_over_http(host_named(args.command), args.url, raw)
                if answer.output is not None:
                    answer_out.write(json.dumps(answer.output, ensure_ascii=False) + "\n")
            if answer.stderr:
                err.write(answer.stderr.rstrip("\n") + "\n")
            return answer.exit_code
        if not args.no_daemon and os.path.isfile(args.bundle):
            # Usually `main` relays before it gets here; this is the same, for the forms
            # its fast path leaves to the full parser (-v, say).
            from amplifier_hooks.transports.relay.client import DEFAULT_IDLE_EXIT
            from amplifier_hooks.transports.relay.command import relay_hook, with_event

            raw = with_event(stdin.read(MAX_HOOK_BYTES + 1), getattr(args, "event", None))
            idle_exit = args.idle_exit or DEFAULT_IDLE_EXIT
            bundle = os.path.abspath(args.bundle)
            relayed = relay_hook(args.command, bundle, raw, idle_exit)
            out.write(relayed.stdout)
            if relayed.stderr:
                err.write(relayed.stderr.rstrip("\n") + "\n")
            return relayed.exit_code
        return hook(args.command, args.bundle, stdin, out, err, getattr(args, "event", None))
    return int(_settings_command(args.command).run(args, out, err))
