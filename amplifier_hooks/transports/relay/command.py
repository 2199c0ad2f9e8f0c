"""``amplifier-hooks claude-code hook --bundle B``, the fast way: read the call, relay it to
the workspace's server, print its answer.

`amplifier_hooks.cli.main` comes here before it imports anything else. Only the simple
form is handled here (``--bundle B`` and ``--idle-exit S``); any other argument (a
``--help``, ``--no-daemon``, a typo) returns None and the full command line takes over,
so there is one parser that reports errors and one place that answers in-process.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence

from amplifier_hooks.host_commands import EVENT_ARGUMENT_HOSTS
from amplifier_hooks.transports.relay.client import (
    DEFAULT_IDLE_EXIT,
    RelayAnswer,
    RelayError,
    relay,
)

__all__ = [
    "fast_hook",
    "load_site",
    "parse_fast",
    "refuse",
    "relay_hook",
    "with_event",
    "write_answer",
]


def parse_fast(argv: Sequence[str]) -> tuple[str, float, str | None] | None:
    """(bundle, idle_exit, event) for the simple form of the arguments after ``hook``;
    None for anything else."""
    bundle: str | None = None
    event: str | None = None
    idle_exit = DEFAULT_IDLE_EXIT
    args = list(argv)
    while args:
        arg = args.pop(0)
        name, eq, value = arg.partition("=")
        if name not in ("--bundle", "--idle-exit", "--event"):
            return None
        if not eq:
            if not args:
                return None
            value = args.pop(0)
        if name == "--bundle":
            bundle = value
            continue
        if name == "--event":
            event = value
            continue
        try:
            idle_exit = float(value)
        except ValueError:
            return None
        if not idle_exit > 0:
            return None
    if bundle is None or not os.path.isfile(bundle):
        return None  # the full command says what is wrong with it
    return os.path.abspath(bundle), idle_exit, event


def with_event(payload: bytes, event: str | None) -> bytes:
    """The hook input with ``hook_event_name`` set to ``event`` (from ``--event``: a host
    whose input names no event, `amplifier_hooks.host_commands.EVENT_ARGUMENT_HOSTS`).
    Input that is not a JSON object is left as it is: the adapter refuses it. (The relay
    sends ``event`` beside the input instead, and the server does this.)"""
    if event is None:
        return payload
    import json

    try:
        decoded = json.loads(payload)
    except ValueError:
        return payload
    if not isinstance(decoded, dict):
        return payload
    decoded["hook_event_name"] = event
    return json.dumps(decoded).encode()


def fast_hook(
    host: str, argv: Sequence[str], environ: Mapping[str, str] | None = None
) -> int | None:
    """Answer one hook call, read on this process's stdin, through the workspace's
    server; the exit code, or None when the arguments are not the simple form (nothing
    has been read then)."""
    parsed = parse_fast(argv)
    if parsed is None:
        return None
    bundle, idle_exit, event = parsed
    if event is not None and host not in EVENT_ARGUMENT_HOSTS:
        return None  # the full command says --event is not an option here
    payload = sys.stdin.buffer.read()
    return write_answer(relay_hook(host, bundle, payload, idle_exit, environ, event))


def relay_hook(
    host: str,
    bundle: str,
    payload: bytes,
    idle_exit: float = DEFAULT_IDLE_EXIT,
    environ: Mapping[str, str] | None = None,
    event: str | None = None,
) -> RelayAnswer:
    """The answer of the workspace's server to one hook call (of ``event``, for a host
    whose input names none); the fail-closed answer if there is no server and none can
    be started."""
    env = os.environ if environ is None else environ
    # Claude Code runs hooks in the session's directory and names the project root in
    # $CLAUDE_PROJECT_DIR; the root is the workspace, so a `cd` does not split a session.
    workspace = env.get("CLAUDE_PROJECT_DIR") or os.getcwd()
    try:
        return relay(
            host, bundle, workspace, payload, idle_exit=idle_exit, environ=env, event=event
        )
    except RelayError as exc:
        reason = f"the hook server is unavailable: {exc}"
    except Exception as exc:  # a bug of ours must block too: a traceback's exit 1 lets it by
        reason = f"the hook relay failed: {type(exc).__name__}: {exc}"
    return refuse(host, with_event(payload, event), reason)


def write_answer(answer: RelayAnswer) -> int:
    """Print ``answer`` on this process's stdout and stderr, as a command hook does; its
    exit code."""
    if answer.stdout:
        sys.stdout.write(answer.stdout)
        sys.stdout.flush()
    if answer.stderr:
        sys.stderr.write(answer.stderr.rstrip("\n") + "\n")
        sys.stderr.flush()
    return answer.exit_code


def refuse(host: str, payload: bytes, reason: str) -> RelayAnswer:
    """The host adapter's fail-closed answer to ``payload`` (this path may be slow: it
    imports the adapter); if even that fails, exit code 2 with the reason, which blocks
    every event that can be blocked."""
    try:
        return _adapter_refusal(host, payload, reason)
    except Exception as exc:  # a broken install must still block, not crash open
        text = f"amplifier-hooks could not check this call, so it is blocked: {reason} ({exc})"
        return RelayAnswer(None, 2, text)


def load_site() -> None:
    """Run `site` if the interpreter started without it (``-S``, the installed hook
    command: `amplifier_hooks.cli.hook_start`), so the installed packages are importable."""
    global _site_loaded
    if sys.flags.no_site and not _site_loaded:
        import site

        site.main()
        _site_loaded = True


_site_loaded = False


def _adapter_refusal(host: str, payload: bytes, reason: str) -> RelayAnswer:
    load_site()
    import json

    from amplifier_hooks.hosts import host_named
    from amplifier_hooks.hosts.base import refuse_payload

    decoded: object
    try:
        decoded = json.loads(payload)
    except ValueError:
        decoded = None
    answer = refuse_payload(host_named(host), decoded, reason)
    return RelayAnswer(answer.output, answer.exit_code, answer.stderr)
