"""The mark of a project's own script told to act on the world: to send, pay, publish.

The guard cannot read what ``python scripts/send_newsletter.py --list all-patrons`` does,
but its author named it and its options for that: a script named for sending messages,
moving money, publishing or uploading (``notify_subscribers.py``, ``bulk_refund.py``,
``rc-publish.js``, ``upload_youtube.py``), and any script given an option that says
"for real" (``--send``, ``--execute``, ``--commit``, ``--no-dry-run``, ``--yes``) or a
command named so (``qbo.py pay-bills``, ``python -m esign_cli send``), acts
on people or services no one here can take back; so does one run with a variable that
ends its rehearsal (``ALPACA_PAPER=false python bot/run.py``). Such a call is marked
`SCRIPT_ACTS`, unless it says it only rehearses (``--dry-run``, ``--preview``,
``--validate``) or is aimed at this machine (``--smtp localhost:1025``, an emulator's
``*_EMULATOR_HOST``).

The script is the first operand of an interpreter (``python3 -u x.py``, ``node x.js``,
``python -m pkg.announce``), of a project runner (``uv run``, ``poetry run``, ``npx
tsx``, ``bun run``), a file run by its path (``./scripts/x.py``), a framework's named
command (``manage.py send_reminders``, ``artisan sms:broadcast``), or the project's own
program built and run (``go run ./cmd/mailer send``, ``cargo run --bin notifier -- send``).
A script named for deleting is left to the places: a local clean-up is named that way too.
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.pymodules import MODULE_PROGRAMS
from amplifier_hooks.guard.switchedoff import REHEARSAL
from amplifier_hooks.guard.urlhosts import is_local

__all__ = ["INTERPRETERS", "SCRIPT_ACTS", "mark_script_acts", "runs_scripts"]

SCRIPT_ACTS = "@script-acts"
"""The mark of a project script whose name or options say it acts on people or services."""
INTERPRETERS = frozenset({"python", "python3", "bash", "sh", "zsh", "node", "ts-node", "tsx",
                          "deno", "bun", "ruby", "php", "perl", "uv", "poetry", "pipenv", "pdm",
                          "hatch", "rye", "npx", "pnpx", "bunx"})  # fmt: skip
"""The programs that run a project's script named by its first operand (or, for a
runner, by the interpreter after ``run``)."""
_RUNNERS = frozenset({"uv", "poetry", "pipenv", "pdm", "hatch", "rye", "npx", "pnpx", "bunx",
                      "bun", "deno"})  # fmt: skip
_EXTENSIONS = (".py", ".js", ".mjs", ".cjs", ".ts", ".mts", ".rb", ".php", ".pl", ".sh")
_VALUED = frozenset({"-W", "-X", "-r", "--require", "--import", "--loader", "-I", "-C",
                     "--env-file", "--python", "-p", "--with", "--group", "--project",
                     "--directory", "--env", "-e"})  # fmt: skip
"""An interpreter's or runner's options that take the next word (before the script)."""
_NOT_RUN = frozenset({"-n", "-c", "--check"})
"""An interpreter's options that read the script without running it (``bash -n``,
``node --check``, ``ruby -c``), or that run a line of code instead (``python -c``)."""
_SHELLS = frozenset({"bash", "sh", "zsh"})
_NAMED_COMMANDS = frozenset({"manage", "artisan", "console", "rails", "rake"})
"""Scripts whose first operand names the command they run (``manage.py send_reminders``)."""
_OTHER_COMMANDS = frozenset({"vendor:publish", "tinker", "shell", "dbshell"})
"""Named commands that are no script acting outside: Laravel's ``vendor:publish`` copies
a package's files into the project; ``tinker --execute CODE`` and Django's ``shell -c``
run code given inline, which is judged as inline code."""

_SENDS = frozenset({"send", "broadcast", "announce", "notify", "tweet", "dm", "sms", "mass",
                    "blast", "mailmerge", "outreach", "invite", "invites"})  # fmt: skip
_PAYS = frozenset({"refund", "refunds", "payout", "payouts", "pay", "charge", "disburse"})
_PUBLISHES = frozenset({"publish", "promote", "submit", "deploy", "rollout", "ship",
                        "unpublish", "upload", "efile"})  # fmt: skip
_ACTS = _SENDS | _PAYS | _PUBLISHES
_FOR_REAL = frozenset({"--send", "--submit", "--execute", "--commit", "--confirm", "--publish",
                       "--live", "--no-dry-run", "--yes", "--approve", "--revoke",
                       "--mirror-deletes", "--for-real", "--really", "--notify", "--go-live",
                       "--no-dryrun"})  # fmt: skip
_REHEARSES = frozenset({"--dry-run", "--dryrun", "--dry_run", "-n", "--preview", "--validate",
                        "--check", "--plan", "--help", "-h", "--simulate", "--noop", "--test",
                        "--sandbox", "--validate-only", "--check-only", "--dry", "--render-only",
                        "--preview-only", "--print-only"})  # fmt: skip
_GOES_LIVE = re.compile(
    r"(?i)^\w*" + REHEARSAL + r"\w*=(?:false|0|no|off)$"
    r"|^\w*live\w*=(?:true|1|yes|on)$|^\w*(?:trading_)?mode=live$"
)
"""A variable that takes the script out of its rehearsal (``ALPACA_PAPER=false``)."""
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
_COMMAND = re.compile(r"^[a-z][a-z0-9]*(?:[-_:][a-z0-9]+)+$|^[a-z]+$")
"""A word that names a command of the script (``send``, ``pay-bills``), not a file."""


def mark_script_acts(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each project script that acts on the world marked `SCRIPT_ACTS`."""
    return tuple(_mark(piece) for piece in pieces)


def runs_scripts(programs: set[str | None]) -> bool:
    """Whether a command's ``programs`` may run a project script (False: no mark applies)."""
    if not programs.isdisjoint(INTERPRETERS) or not programs.isdisjoint(_COMPILERS):
        return True
    # (a loop, not any(): every command passes here, `marks`; a name with no "." ends with
    # none of the ten extensions, told by one substring test)
    for program in programs:
        if program and "." in program and program.endswith(_EXTENSIONS):
            break
    else:
        return False
    return True


def _mark(piece: Piece) -> Piece:
    found = _script(piece)
    if found is None:
        return piece
    name, args = found
    goes_live = any(_GOES_LIVE.match(assignment) for assignment in piece.env)
    acts = not _FOR_REAL.isdisjoint(args) or _acts(name) or _acts(_command(args))
    if not (goes_live or acts):  # (most scripts: the tests below are not needed)
        return piece
    if _REHEARSES.intersection(a.partition("=")[0] for a in args):
        return piece
    if any(is_local(arg.partition("=")[2] or arg) for arg in args) or any(
        assignment.partition("=")[0].endswith("_EMULATOR_HOST") for assignment in piece.env
    ):
        return piece
    return piece._replace(wrappers=(*piece.wrappers, SCRIPT_ACTS))


def _command(args: tuple[str, ...]) -> str:
    """The script's own command, when its first word is one (``qbo.py pay-bills``)."""
    return args[0] if args and _COMMAND.match(args[0]) else ""


def _acts(name: str) -> bool:
    words = [w.lower() for w in _WORD.findall(name)]
    return not _ACTS.isdisjoint(words)


def _script(piece: Piece) -> tuple[str, tuple[str, ...]] | None:
    """The name the script goes by (its file's stem, a module's last part, a named
    command), and the words it is given; None when the piece runs no project script."""
    program = piece.program or ""
    args = piece.args
    if program in _COMPILERS:
        return _compiled(program, args)
    if program.endswith(_EXTENSIONS):
        # (by its path: `kafka-topics.sh` found on PATH is an installed tool)
        return _named(program, args) if "/" in piece.text.partition(program)[0] else None
    if program not in INTERPRETERS:
        return None
    if program in _RUNNERS and args[:1] == ("run",):
        args = args[1:]
    if program in _RUNNERS and args and not args[0].endswith(_EXTENSIONS):
        if args[0] not in INTERPRETERS or args[0] in _RUNNERS:
            return None
        args = args[1:]  # `uv run python x.py`, `npx tsx x.ts`
    i = 0
    while i < len(args) and args[i].startswith("-"):
        if args[i] in _NOT_RUN or _reads_only(program, args[i]):
            return None
        if args[i] == "-m" and i + 1 < len(args):
            if args[i + 1] in MODULE_PROGRAMS:  # `-m mkdocs gh-deploy`: mkdocs's rules
                return None
            return args[i + 1].rpartition(".")[2], args[i + 2 :]
        i += 2 if args[i] in _VALUED else 1
    if i >= len(args):
        return None
    if not args[i].endswith(_EXTENSIONS) and args[i].rpartition("/")[2] not in _NAMED_COMMANDS:
        return None
    return _named(args[i], args[i + 1 :])


_COMPILERS = frozenset({"go", "cargo"})
_GO_VALUED = frozenset({"-exec", "-tags", "-ldflags", "-gcflags", "-asmflags", "-mod", "-modfile",
                        "-C", "-p", "-pkgdir", "-overlay", "-pgo", "-toolexec"})  # fmt: skip
_CARGO_NAMES = frozenset({"--bin", "-p", "--package", "--example"})


def _compiled(program: str, args: tuple[str, ...]) -> tuple[str, tuple[str, ...]] | None:
    """The program ``go run`` or ``cargo run`` builds and runs, by its name (a package's
    last folder, ``--bin``'s or ``-p``'s value), and the words it is given."""
    if args[:1] != ("run",):
        return None
    rest = args[1:]
    if program == "go":  # `go run [build flags] ./cmd/admin ARGS...`
        i = 0
        while i < len(rest) and rest[i].startswith("-"):
            i += 2 if rest[i] in _GO_VALUED else 1
        if i >= len(rest):
            return None
        return rest[i].rstrip("/").rpartition("/")[2].removesuffix(".go"), rest[i + 1 :]
    before, after = (
        (rest[: rest.index("--")], rest[rest.index("--") + 1 :]) if "--" in rest else (rest, ())
    )
    named = [before[i + 1] for i in range(len(before) - 1) if before[i] in _CARGO_NAMES]
    return (named[-1] if named else "main"), after


def _reads_only(program: str, option: str) -> bool:
    """A bundle of short options with ``-c`` (code or a check, never a script run) or, for
    a shell, ``-n`` (``sh -nv x.sh`` reads the script without running it)."""
    if option.startswith("--"):
        return False
    letters = option[1:]
    return "c" in letters or (program in _SHELLS and "n" in letters)


def _named(path: str, args: tuple[str, ...]) -> tuple[str, tuple[str, ...]] | None:
    stem = path.rpartition("/")[2].partition(".")[0]
    if stem in _NAMED_COMMANDS and args and not args[0].startswith("-"):
        if args[0] in _OTHER_COMMANDS:
            return None
        return f"{stem}_{args[0].replace(':', '_')}", args[1:]
    return stem, args
