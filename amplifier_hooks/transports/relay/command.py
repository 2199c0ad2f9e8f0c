"""``amplifier-hooks claude-code hook --bundle B``, the fast way: read the call, relay it to
the workspace's server, print its answer.

`amplifier_hooks.cli.main` comes here before it imports anything else. Only the plain
form is handled here (``--bundle B`` and ``--idle-exit S``); any other argument (a
``--help``, ``--no-daemon``, a typo) returns None and the full command line takes over,
so there is one parser that reports errors and one place that answers in-process.
"""

from __future__ import annotations

import json
import os

from amplifier_hooks.transports.relay.client import (
    DEFAULT_IDLE_EXIT,
    RelayAnswer,
    RelayError,
    relay,
)

TYPE_CHECKING = False  # not typing's: this runs in every hook process (see the package)
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import IO, Any

__all__ = ["fast_hook", "parse_fast", "refuse", "relay_hook", "write_answer"]


def parse_fast(argv: Sequence[str]) -> tuple[str, float] | None:
    """(bundle, idle_exit) for the plain form of the arguments after ``hook``; None for
    anything else."""
    bundle: str | None = None
    idle_exit = DEFAULT_IDLE_EXIT
    args = list(argv)
    while args:
        arg = args.pop(0)
        name, eq, value = arg.partition("=")
        if name not in ("--bundle", "--idle-exit"):
            return None
        if not eq:
            if not args:
                return None
            value = args.pop(0)
        if name == "--bundle":
            bundle = value
            continue
        try:
            idle_exit = float(value)
        except ValueError:
            return None
        if not idle_exit > 0:
            return None
    if bundle is None or not os.path.isfile(bundle):
        return None  # the full command says what is wrong with it
    return os.path.abspath(bundle), idle_exit


def fast_hook(
    host: str,
    argv: Sequence[str],
    stdin: IO[bytes],
    stdout: IO[str],
    stderr: IO[str],
    environ: Mapping[str, str] | None = None,
) -> int | None:
    """Answer one hook call through the workspace's server; the exit code, or None when
    the arguments are not the plain form (nothing has been read then)."""
    parsed = parse_fast(argv)
    if parsed is None:
        return None
    bundle, idle_exit = parsed
    return write_answer(relay_hook(host, bundle, stdin.read(), idle_exit, environ), stdout, stderr)


def relay_hook(
    host: str,
    bundle: str,
    payload: bytes,
    idle_exit: float = DEFAULT_IDLE_EXIT,
    environ: Mapping[str, str] | None = None,
) -> RelayAnswer:
    """The answer of the workspace's server to one hook call; the fail-closed answer if
    there is no server and none can be started."""
    env = os.environ if environ is None else environ
    # Claude Code runs hooks in the session's directory and names the project root in
    # $CLAUDE_PROJECT_DIR; the root is the workspace, so a `cd` does not split a session.
    workspace = env.get("CLAUDE_PROJECT_DIR") or os.getcwd()
    try:
        return relay(host, bundle, workspace, payload, idle_exit=idle_exit, environ=env)
    except RelayError as exc:
        return refuse(host, payload, f"the hook server is unavailable: {exc}")


def write_answer(answer: RelayAnswer, stdout: IO[str], stderr: IO[str]) -> int:
    """Print ``answer`` as a command hook does; its exit code."""
    if answer.output is not None:
        stdout.write(json.dumps(answer.output) + "\n")
        stdout.flush()
    if answer.stderr:
        stderr.write(answer.stderr.rstrip("\n") + "\n")
        stderr.flush()
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


def _adapter_refusal(host: str, payload: bytes, reason: str) -> RelayAnswer:
    from amplifier_hooks.hosts.base import HostCall, guess_guarding
    from amplifier_hooks.transports.routes import adapter_named

    adapter = adapter_named(host)
    decoded: Any
    try:
        decoded = json.loads(payload)
    except ValueError:
        decoded = None
    call: HostCall | None
    try:
        call = adapter.parse(decoded)
        guarding = call.guarding
    except Exception:
        call, guarding = None, guess_guarding(adapter, decoded)
    answer = adapter.refuse(call, reason, guarding)
    return RelayAnswer(answer.output, answer.exit_code, answer.stderr)
