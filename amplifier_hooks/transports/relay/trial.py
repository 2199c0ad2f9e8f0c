"""``amplifier-hooks test BUNDLE -- COMMAND``, the fast way: the workspace's server judges.

Judging a call in-process imports pydantic, the bundle loader, the guard and its parser:
many times Python's own start. The per-workspace server the command hooks use
(`amplifier_hooks.transports.relay.client`) has all of that loaded, so ``test`` hands it
the call instead: its words, the folder it runs in, its environment and what its terminal
is like (`screen`), on the route `TRIAL_ROUTE`. The server runs the same ``test`` on them
and sends back the text to print, what goes to stderr and the exit code.

Only the simple form of the arguments is handled here (`parse_trial`); anything else (a
``-v``, a ``--help``, ``--payload -``, ``--no-server``, a typo) returns None and the full
command line answers in-process, as it does when no server can be reached or started, or
when the server declines (`TrialDeclined`: it runs in another folder or environment,
where the same call could be judged otherwise). Standard library only, like the relay.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence

from amplifier_hooks.host_commands import HOST_COMMANDS
from amplifier_hooks.transports.relay.client import RelayAnswer, RelayError, ask_server

__all__ = [
    "DECLINED_STATUS",
    "TERMINAL_NAMES",
    "TRIAL_ROUTE",
    "TrialDeclined",
    "fast_test",
    "parse_trial",
    "screen",
]

TRIAL_ROUTE = "/trial"
"""The server's route that runs ``test`` for a command line (owner-only Unix socket)."""

DECLINED_STATUS = 409
"""The status of a trial the server will not judge: the caller judges it in-process."""

TERMINAL_NAMES = frozenset(
    {
        "COLUMNS",
        "LINES",
        "TERM",
        "COLORTERM",
        "NO_COLOR",
        "FORCE_COLOR",
        "TTY_COMPATIBLE",
        "TTY_INTERACTIVE",
        "JUPYTER_COLUMNS",
        "JUPYTER_LINES",
        "_",
        "SHLVL",
        "OLDPWD",
    }
)
"""Variables that may differ between the caller and the server: they describe the
caller's terminal (sent along, `screen`) or its shell's bookkeeping. Any other difference
makes the server decline: a bundle's ``${VAR}``, a module or git may read it."""

_VALUED = {"--bundle": "bundle", "--tool": "tool", "--path": "path", "--payload": "payload"}
_VALUED |= {"--host": "host", "--cwd": "cwd"}


class TrialDeclined(Exception):
    """The server will not judge this trial (the message says why): the caller does."""


def parse_trial(argv: Sequence[str]) -> dict[str, object] | None:
    """The arguments after ``test`` in their simple form -- BUNDLE (or ``--bundle B``),
    ``--tool``, ``--path``, ``--payload FILE``, ``--host``, ``--cwd``, ``--json``, then
    ``--`` and the command -- as a dict of the parsed names; None for anything else."""
    parsed: dict[str, object] = {"json": False, "words": []}
    option_bundle = False
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg == "--":
            parsed["words"] = args
            break
        if arg == "--json":
            parsed["json"] = True
            continue
        if not arg.startswith("-"):
            if "bundle" in parsed:
                return None  # a word before --, or two bundles: argparse says what it is
            parsed["bundle"] = arg
            continue
        name, eq, value = arg.partition("=")
        field = _VALUED.get(name)
        if field is None or field in parsed:
            return None
        if not eq:
            if not args or args[0].startswith("-"):
                return None
            value = args.pop(0)
        parsed[field] = value
        if field == "bundle":
            option_bundle = True
    if option_bundle and parsed["words"]:
        # argparse gives the first word after -- to BUNDLE: `--bundle B -- ls` names two.
        return None
    bundle = parsed.get("bundle")
    if not isinstance(bundle, str) or not os.path.isfile(bundle):
        return None  # the full command says what is wrong with it
    if parsed.get("payload") == "-" or parsed.get("host", HOST_COMMANDS[0]) not in HOST_COMMANDS:
        return None
    return parsed


def screen() -> dict[str, object]:
    """What this process's terminal is like, as a console would find it: whether stdout
    is one, the size of the first of stdin, stdout and stderr that has a size, and
    stdout's encoding (the terminal's variables travel with the environment)."""
    out = sys.stdout
    try:
        isatty = out.isatty()
    except (AttributeError, ValueError):
        isatty = False
    size: list[int] | None = None
    for fd in (0, 1, 2):
        try:
            columns, lines = os.get_terminal_size(fd)
        except (AttributeError, ValueError, OSError):
            continue
        size = [columns, lines]
        break
    return {"isatty": isatty, "size": size, "encoding": getattr(out, "encoding", None)}


def fast_test(argv: Sequence[str], environ: Mapping[str, str] | None = None) -> int | None:
    """Answer ``test`` with the arguments ``argv`` through the server for its bundle in
    this folder (started if none runs); its exit code, or None when the arguments are
    not the simple form or no server answered (nothing has been printed then)."""
    parsed = parse_trial(argv)
    if parsed is None:
        return None
    env = dict(os.environ if environ is None else environ)
    try:
        here = os.getcwd()
    except OSError:
        return None
    import json

    request = {**parsed, "here": here, "environ": env, "screen": screen()}
    bundle = os.path.abspath(str(parsed["bundle"]))
    body = json.dumps(request).encode()
    started: list[object] = []  # the note of a server this call started
    answer: RelayAnswer | None = None
    try:
        answer = ask_server(
            bundle,
            here,
            TRIAL_ROUTE,
            body,
            environ=env,
            json_output=False,
            started=started.append,
        )
    except RelayError:
        pass  # judged in-process; a server started meanwhile is still said below
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        return 130
    finally:
        if started:
            _started(started[0], None if answer is None else answer.exit_code)
    if answer is None:
        return None
    try:
        if answer.stdout:
            sys.stdout.write(answer.stdout)
            sys.stdout.flush()
        if answer.stderr:
            sys.stderr.write(answer.stderr)
            sys.stderr.flush()
    except BrokenPipeError:
        # The reader went away (``| head``), as the full command handles it.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return answer.exit_code


def _started(note: object, code: int | None) -> None:
    """Say that this call started a server, as a hook does -- unless the answer is bad
    input (exit code 2: a bundle that does not mount, a call that cannot be built): the
    server that has just started is stopped then, and the error is all that is printed."""
    from amplifier_hooks.transports.relay.servers import ServerNote, note_path, stop_hint

    if not isinstance(note, ServerNote):
        return
    if code != 2:
        sys.stderr.write(stop_hint(note) + "\n")
        return
    import contextlib
    import signal

    with contextlib.suppress(OSError):
        os.kill(note.pid, signal.SIGTERM)  # ours, started by this very call
    with contextlib.suppress(OSError):
        os.unlink(note_path(note.socket))
