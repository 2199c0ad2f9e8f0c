"""Which command runs what, and where each one's logs go (a hook's stdout carries only its
answer; a Textual screen must not be drawn over; a clean error is not said twice).

Each command's modules are imported inside it, not at the top: a process imports what
its one command uses (Textual, pydantic, the guard, the MCP SDK are each slow to import).
"""

from __future__ import annotations

import argparse
import os
import sys

from amplifier_hooks.cli.exit_codes import INTERRUPTED

__all__ = ["dispatch", "run"]

_LEVELS = ("warning", "info", "debug")


def run(words: list[str]) -> int:
    """Parse ``words`` and run the command they name; the exit code. Bad input is one
    line on stderr (exit 2), whichever module found it."""
    from amplifier_hooks.cli.input_errors import input_error, report_input_error
    from amplifier_hooks.cli.parser import build_parser, parse

    try:
        args = parse(words)
    except SystemExit as exc:  # --help, or a usage error already printed by argparse
        return exc.code if isinstance(exc.code, int) else 2
    if args.command is None:
        build_parser().print_help(sys.stderr)
        return 2
    from amplifier_hooks.logs import restored

    # The command configures logging for itself; put back what the caller had (a test
    # runner, a program that calls main) once it is done.
    try:
        with restored():
            return dispatch(args)
    except Exception as exc:
        if not input_error(exc):
            raise
        return report_input_error(args, exc, sys.stdout, sys.stderr)
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        return INTERRUPTED
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, and keep Python from
        # complaining again when it flushes stdout at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


def dispatch(args: argparse.Namespace) -> int:
    """Run the parsed command, with the logging that command needs; its exit code."""
    import asyncio

    from amplifier_hooks.logs import configure_logging

    args.verbose = getattr(args, "verbose", 0) + args.global_verbose
    # A store given on the command line is checked before anything runs or is created.
    for name in ("store", "approval_store"):
        if getattr(args, name, None) is not None:
            from amplifier_hooks.approvals.store import check_location

            check_location(getattr(args, name), "--store")
    level = _LEVELS[min(args.verbose, len(_LEVELS) - 1)]
    out, err = sys.stdout, sys.stderr
    if args.command == "run":
        return _run(args, level)
    if args.command == "serve":
        configure_logging("console", level=level, stream=err)
        from amplifier_hooks.cli import serve

        return serve.run(args, err)
    if args.command == "mcp":
        # stderr only: the proxy's stdout is its client's MCP stream.
        configure_logging("console", level=level, stream=err)
        from amplifier_hooks.cli import mcp

        return mcp.run(args, out, err)
    from amplifier_hooks.host_commands import HOST_COMMANDS

    if args.command == "doctor":
        configure_logging("console", level=level, stream=err)
        from amplifier_hooks.cli import doctor

        return doctor.run(args, out)
    if args.command in HOST_COMMANDS:
        # stderr only: a hook's stdout carries its answer and nothing else.
        configure_logging("console", level=level, stream=err)
        from amplifier_hooks.cli import claude_code

        return claude_code.run(args, sys.stdin.buffer, out, err)
    if args.command in ("test", "bench"):
        # A bench's -v lists the cases that missed; its logs come with -vv. A bundle that
        # fails to load is one clean error: the loader's log of it waits for -v.
        verbose = args.verbose - (args.command == "bench")
        level = _LEVELS[max(0, min(verbose, 2))]
        quiet = args.command == "test" and verbose <= 0
        configure_logging("console", level="critical" if quiet else level, stream=err)
        if args.command == "test":
            from amplifier_hooks.cli import test

            return test.run(
                args, out, loaded=lambda: configure_logging("console", level=level, stream=err)
            )
        from amplifier_hooks.cli import bench

        return bench.run(args, out)
    if args.command == "approve" and args.id is None and not (args.list or args.prune):
        # The console is a Textual app: logs would draw over it.
        configure_logging("console", level="critical", stream=err)
        from amplifier_hooks.cli import approve

        return asyncio.run(approve.run(args, out, err))
    # check reports a failing module in its own error; the loader's log of the same
    # failure would only say it twice (-v brings the logs back).
    quiet = args.command == "check" and not args.verbose
    configure_logging("console", level="critical" if quiet else level, stream=err)
    if args.command == "check":
        from amplifier_hooks.cli.check import check

        return asyncio.run(check(args.bundle, out, as_json=args.json, strict=args.strict))
    if args.command == "events":
        from amplifier_hooks.cli.events import list_events

        return asyncio.run(list_events(args.bundle, out, as_json=args.json))
    if args.command == "approve":
        from amplifier_hooks.cli import approve

        return asyncio.run(approve.run(args, out, err))
    from amplifier_hooks.approvals.store import environment_store, is_postgres_url

    args.store = args.store or environment_store()
    if is_postgres_url(args.store):
        from amplifier_hooks.cli.approve import shared_remembered

        return asyncio.run(
            shared_remembered(
                args.store,
                getattr(args, "key", None),
                forget=args.action == "forget",
                everything=getattr(args, "all", False),
                as_json=getattr(args, "json", False),
                out=out,
                err=err,
            )
        )
    from amplifier_hooks.cli.approvals import approvals_forget, approvals_list

    if args.action == "list":
        return approvals_list(args.store, out, as_json=args.json)
    return approvals_forget(args.store, args.key, everything=args.all, out=out, err=err)


def _run(args: argparse.Namespace, level: str) -> int:
    import asyncio

    from amplifier_hooks.cli import run
    from amplifier_hooks.logs import configure_logging

    # A bundle that fails to load or mount is one clean error: the loader's log of it
    # waits for -v; the logs are turned on once the bundle is mounted.
    configure_logging("console", level=level if args.verbose else "critical", stream=sys.stderr)
    trace, bundle = run.load_inputs(args, sys.stderr)
    # A failing handler is one line in the report and one in the log; its traceback is
    # for whoever asks with -v.
    tracebacks = args.verbose > 0
    if not run.use_tui(args):
        return asyncio.run(
            run.replay_headless(
                trace,
                bundle,
                approvals=args.approvals or "policy",
                store=args.approval_store,
                as_json=args.json,
                out=sys.stdout,
                live=args.live,
                loaded=lambda: configure_logging(
                    "console", level=level, stream=sys.stderr, tracebacks=tracebacks
                ),
            )
        )
    from amplifier_hooks.cli.app import DEFAULT_DELAY
    from amplifier_hooks.cli.logsink import LogLines

    logs = LogLines()
    return asyncio.run(
        run.replay_tui(
            trace,
            bundle,
            approvals=args.approvals,
            store=args.approval_store,
            delay=DEFAULT_DELAY if args.delay is None else args.delay,
            logs=logs,
            live=args.live,
            loaded=lambda: configure_logging(
                "console", level=level, stream=logs, tracebacks=tracebacks
            ),
        )
    )
