"""The ``amplifier-hooks`` command: replay agent sessions through a bundle, check bundles,
list events, manage remembered approvals, try and score a bundle's guard.

Exit codes: 0 success; 1 nothing to do for what was asked (``approvals forget`` of an
unknown key), a replay that failed, or a ``bench`` below its bar; 2 bad input (usage, a
bundle, a trace, an approval store, a corpus); 3 and 4 the ``test`` of a call that is
asked or denied, 5 one the bundle has no opinion on (nothing grants it); 130 interrupted.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # not typing's: `main` runs in every hook process
if TYPE_CHECKING:  # argparse costs a hook call ~1 ms: only the full command line loads it
    import argparse
    from collections.abc import Sequence

# Nothing heavy at import: `claude-code hook` runs once per tool call and must start about
# as fast as Python itself, so `main` relays it (amplifier_hooks.transports.relay, stdlib only)
# before anything else is imported. The other commands import what they use.

__all__ = ["build_parser", "main", "parse"]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every command."""
    import argparse

    from amplifier_hooks.approvals.store import STORE_ENV
    from amplifier_hooks.cli.arguments import add_bundle_argument
    from amplifier_hooks.cli.numbers import number_of

    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "-v",
        "--verbose",
        action="count",
        default=0,
        help="log more (-v info, -vv debug); logs go to stderr",
    )
    parser = argparse.ArgumentParser(
        prog="amplifier-hooks",
        description="Replay agent sessions through hook bundles; check bundles; list events; "
        "manage remembered approvals.",
    )
    # -v also works before the command (`amplifier-hooks -v check X`); both counts add up.
    parser.add_argument(
        "-v", "--verbose", action="count", default=0, dest="global_verbose", help=argparse.SUPPRESS
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    run = commands.add_parser(
        "run",
        parents=[common],
        help="replay a session trace through a bundle",
        description="Replay a JSONL trace of agent events through the coordinator built from "
        "BUNDLE. On a terminal this opens the replay app; otherwise (or with --no-tui) it "
        "prints a report.",
    )
    add_bundle_argument(run, required=False, help="bundle file (default: bundles/default.md)")
    run.add_argument(
        "--trace",
        metavar="FILE",
        help="JSONL trace to replay (default: examples/traces/demo.jsonl)",
    )
    run.add_argument("--no-tui", action="store_true", help="print a report, even on a terminal")
    run.add_argument("--json", action="store_true", help="print JSON lines instead of a report")
    run.add_argument(
        "--approvals",
        choices=["policy", "allow", "deny", "queue"],
        default=None,
        help="answer approvals without asking: the bundle's policy (no rules: deny), or "
        "allow/deny everything; or queue them for 'amplifier-hooks approve' on the shared "
        "store. Default: asked on screen in the app, policy otherwise",
    )
    run.add_argument(
        "--approval-store",
        "--store",
        metavar="PATH|URL",
        help="where remembered answers, the audit and queued questions live (':memory:' to "
        f"remember nothing between runs); default: ${STORE_ENV}, else the bundle's "
        "session.approvals.store",
    )
    run.add_argument(
        "--live",
        action="store_true",
        help="let modules with side effects act as in a session (ah-shell runs its "
        "commands, which may change files); by default a replay only shows what they "
        "would do",
    )
    run.add_argument(
        "--on-bad-line",
        choices=["stop", "skip"],
        default="stop",
        help="a bad trace line stops the run (default) or is skipped with a warning",
    )
    run.add_argument(
        "--delay",
        type=number_of("seconds"),
        default=None,
        metavar="SECONDS",
        help="pause between events in the app (default 0.3)",
    )

    check = commands.add_parser(
        "check",
        parents=[common],
        help="validate a bundle and list its handlers",
        description="Load BUNDLE and mount every module as a run would (a module that "
        "fails fails the check, unless its entry is optional: then it is a warning); list "
        "the handlers of each event with priority, timeout and module.",
    )
    add_bundle_argument(check)
    check.add_argument(
        "--strict", action="store_true", help="fail on optional modules that fail, too"
    )
    check.add_argument("--json", action="store_true", help="print JSON")

    events = commands.add_parser(
        "events",
        parents=[common],
        help="list standard and contributed events",
        description="List the standard events; with BUNDLE also the events its modules "
        "contribute, and the handlers on each.",
    )
    add_bundle_argument(events, required=False)
    events.add_argument("--json", action="store_true", help="print JSON")

    approvals = commands.add_parser(
        "approvals",
        help="list or forget remembered approval decisions",
    )
    actions = approvals.add_subparsers(dest="action", metavar="ACTION", required=True)
    store_help = (
        "approval store: a SQLite file or a postgresql:// URL (default: the user's state file)"
    )
    listing = actions.add_parser("list", parents=[common], help="list remembered decisions")
    listing.add_argument("--store", metavar="PATH", help=store_help)
    listing.add_argument("--json", action="store_true", help="print JSON")
    forget = actions.add_parser("forget", parents=[common], help="forget remembered decisions")
    which = forget.add_mutually_exclusive_group(required=True)
    which.add_argument("key", nargs="?", metavar="KEY", help="the key shown by 'approvals list'")
    which.add_argument("--all", action="store_true", help="forget every remembered decision")
    forget.add_argument("--store", metavar="PATH", help=store_help)
    from amplifier_hooks.cli import approve

    approving = approve.add_parser(commands, common)
    from amplifier_hooks.cli import claude_code, doctor, mcp, serve

    hosts = claude_code.add_parsers(commands, common)
    serving = serve.add_parser(commands, common)
    proxying = mcp.add_parser(commands, common)
    diagnosing = doctor.add_parser(commands, common)
    from amplifier_hooks.cli import bench, test

    testing = test.add_parser(commands, common)
    benching = bench.add_parser(commands, common)
    # Each command remembers its parser, so that a flag it does not know is reported
    # with its own usage rather than the top level's.
    for command in (
        *(run, check, events, approvals, listing, forget, approving, serving, diagnosing),
        *(testing, benching, proxying),
        *hosts,
    ):
        command.set_defaults(command_parser=command)
    return parser


def _version() -> str:
    """The installed version, read from its ``*.dist-info/METADATA`` directly: the
    `importlib.metadata` way costs more than Python's own start-up."""
    prefix = "amplifier_hooks-"
    for folder in sys.path:
        try:
            names = os.listdir(folder or ".")
        except OSError:
            continue
        for name in names:
            if name.startswith(prefix) and name.endswith(".dist-info"):
                try:
                    with open(os.path.join(folder or ".", name, "METADATA"), encoding="utf-8") as f:
                        for line in f:
                            if line.startswith("Version:"):
                                return line.split(":", 1)[1].strip()
                except OSError:
                    continue
    from importlib import metadata

    try:
        return metadata.version("amplifier-hooks")
    except metadata.PackageNotFoundError:  # run from a source tree that is not installed
        return "unknown"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command in ``argv`` (default: the process's arguments); the exit code."""
    args_given = sys.argv[1:] if argv is None else list(argv)
    from amplifier_hooks.host_commands import HOST_COMMANDS

    if args_given[1:2] == ["hook"] and args_given[0] in HOST_COMMANDS:
        from amplifier_hooks.transports.relay.command import fast_hook

        code = fast_hook(args_given[0], args_given[2:], sys.stdin.buffer, sys.stdout, sys.stderr)
        if code is not None:
            return code
    if args_given == ["--version"]:  # nothing else to do: nothing else imported
        sys.stdout.write(f"amplifier-hooks {_version()}\n")
        return 0
    from amplifier_hooks.transports.relay.command import load_site

    load_site()  # started as a hook (-S) with more than the plain arguments
    from amplifier_hooks.logs import restored

    try:
        args = parse(argv)
    except SystemExit as exc:  # --help, or a usage error already printed by argparse
        return exc.code if isinstance(exc.code, int) else 2
    if args.command is None:
        build_parser().print_help(sys.stderr)
        return 2
    # The command configures logging for itself; put back what the caller had (a test
    # runner, a program that calls main) once it is done.
    try:
        with restored():
            from amplifier_hooks.cli.dispatch import dispatch

            return dispatch(args)
    except Exception as exc:
        if not _input_error(exc):
            raise
        sys.stderr.write(f"error: {exc}\n")
        if args.command == "test" and args.json:  # a script reads stdout: it gets JSON
            import json

            sys.stdout.write(json.dumps({"ok": False, "error": str(exc), "exit_code": 2}) + "\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        return 130
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, and keep Python from
        # complaining again when it flushes stdout at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


_INPUT_ERRORS = (
    ("amplifier_hooks.cli.trace_files", "TraceError"),
    ("amplifier_hooks.bundles.reading", "BundleError"),
    ("amplifier_hooks.approvals.store.records", "ApprovalStoreError"),
    ("amplifier_hooks.cli.corpus", "CorpusError"),
    ("amplifier_hooks.cli.test", "TestInputError"),
)
"""The errors that are bad input (one line, exit 2), by module and name."""


def _input_error(exc: Exception) -> bool:
    """Whether ``exc`` is bad input. Only the modules already loaded are looked at (an
    error of a module that was never imported cannot have been raised): no command pays
    for importing them."""
    kinds = tuple(
        getattr(module, name)
        for module_name, name in _INPUT_ERRORS
        if (module := sys.modules.get(module_name)) is not None
    )
    return isinstance(exc, kinds)


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    """The parsed command line, ``args.bundle`` set from either of its forms; a usage
    error exits (`SystemExit`) with the command's own usage."""
    from amplifier_hooks.cli.arguments import resolve_bundle, unknown_arguments

    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if args.command == "test" and unknown[:1] == ["--"]:
        # argparse gives the positionals their words before it reaches an option, so
        # `test BUNDLE --json -- COMMAND` leaves the command here.
        args.words, unknown = [*args.words, *unknown[1:]], []
    where: argparse.ArgumentParser = getattr(args, "command_parser", None) or parser
    if unknown:
        where.error(unknown_arguments(where, unknown))
    resolve_bundle(args, where)
    return args
