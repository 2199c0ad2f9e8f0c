"""A piece's words as the rules see them: its flags as a set, its operands, its subcommand.

The programs the table reads the options of are read as they read them (`table.spelled`);
any other program's words are split by their shape (``-rf`` is ``-r``, ``-f`` and ``-rf``).
"""

from __future__ import annotations

from amplifier_hooks.guard.table import SPELLED, git_read, spelled
from amplifier_hooks.guard.table.commanders import (
    GLOBAL_OPTIONS,
    global_paths,
    global_read,
    login_options,
)

__all__ = ["Split", "split_args"]

_SUBCOMMAND_PROGRAMS = frozenset(
    {"git", "npm", "pnpm", "yarn", "cargo", "go", "docker", "podman", "kubectl", "helm", "pip",
     "pip3", "uv", "poetry", "gh", "systemctl", "apt", "apt-get", "brew", "dnf", "yum",
     "crontab", "launchctl", "conda", "bun", "deno", "terraform", "make", "just", "mix",
     "dotnet", "gradle", "mvn", "bundle", "gem", "rustup", "nix", "hg", "svn", "tox", "nox",
     "rampart", "rclone"}
)  # fmt: skip
Split = tuple[frozenset[str], tuple[str, ...], str | None, bool]

_GREP_VALUED = frozenset(
    {
        "-e",
        "-f",
        "-m",
        "-A",
        "-B",
        "-C",
        "-d",
        "-D",
        "--regexp",
        "--file",
        "--max-count",
        "--after-context",
        "--before-context",
        "--context",
        "--directories",
        "--devices",
        "--exclude",
        "--include",
        "--exclude-dir",
        "--exclude-from",
        "--label",
        "--binary-files",
        "--group-separator",
    }
)
_RG_VALUED = frozenset(
    {
        "-e",
        "-f",
        "-g",
        "-t",
        "-T",
        "-m",
        "-A",
        "-B",
        "-C",
        "-M",
        "-j",
        "-r",
        "-E",
        "-d",
        "--regexp",
        "--file",
        "--glob",
        "--iglob",
        "--type",
        "--type-not",
        "--max-count",
        "--after-context",
        "--before-context",
        "--context",
        "--max-columns",
        "--threads",
        "--replace",
        "--pre",
        "--pre-glob",
        "--encoding",
        "--sort",
        "--sortr",
        "--max-depth",
        "--max-filesize",
        "--path-separator",
        "--ignore-file",
        "--type-add",
        "--type-clear",
        "--colors",
        "--color",
        "--engine",
        "--context-separator",
        "--field-match-separator",
        "--field-context-separator",
    }
)
_VALUED: dict[str, frozenset[str]] = {
    "grep": _GREP_VALUED, "egrep": _GREP_VALUED, "fgrep": _GREP_VALUED, "zgrep": _GREP_VALUED,
    "rg": _RG_VALUED,
}  # fmt: skip
"""Options of the searchers whose value is the next word (``grep --exclude -c PAT``: ``-c``
is the glob, not the count flag a rule would read as printing nothing)."""


# Not cached here: the piece's whole reading is (`readings`), once the piece recurs; a
# cache of every piece's split kept each new command's words for the garbage collector to
# walk (`recurring`; bench_guard's fresh row).
def split_args(program: str | None, args: tuple[str, ...]) -> Split:
    """(flags, operands, subcommand, unknown): ``-rf`` gives ``-r``, ``-f`` and ``-rf``;
    ``--force=x`` gives ``--force``; after ``--`` everything is an operand. The programs
    the table reads the options of (`table.spelled`: git, rm, cp, sed, ...) are read as
    they read them (``--forc`` is ``--force``, the last of ``--force``/``--no-force``
    wins); their operands are every word that may name a path, option values included;
    ``unknown``: one of their options could not be read."""
    if program == "git" or program in SPELLED:
        found = spelled(program, args)
        if found is not None:
            return found.flags, found.words, found.subcommand, found.doubt is not None
        if program == "git":  # a subcommand whose options the table does not read
            git = git_read(args)
            given, words, _, _ = split_args(None, git.rest)
            return git.top.flags() | given, words, git.subcommand, git.subcommand is not None
    ahead = program in GLOBAL_OPTIONS and args[:1] and args[0][:1] == "-"
    read = global_read(program, args) if ahead and program else None  # (none ahead: as below)
    if read is not None:  # docker, kubectl, make: options, then the subcommand
        rest = read.operands
        given, words, _, _ = split_args(None, rest[1:])
        paths = global_paths(read)  # `--kubeconfig ~/x`, `make -C sub`: the table says
        return read.flags() | given, paths + words, rest[0] if rest else None, False
    flags: set[str] = set()
    operands: list[str] = []
    subcommand: str | None = None
    wants_sub = program in _SUBCOMMAND_PROGRAMS
    valued = _VALUED.get(program or "", frozenset())
    logins = login_options(program)
    ended = value_next = login_next = False
    for arg in args:
        if login_next:  # (a file it signs in with: no operand, `commanders`)
            login_next = False
            continue
        if value_next:  # (an option's value: a word, never a flag)
            value_next = False
            operands.append(arg)
            continue
        if ended or not arg.startswith("-") or arg == "-":
            if wants_sub and subcommand is None:
                subcommand = arg
            else:
                operands.append(arg)
            continue
        if arg == "--":
            ended = True
            continue
        if arg.startswith("--") and logins and arg.split("=", 1)[0] in logins:
            flags.add(arg.split("=", 1)[0])
            login_next = "=" not in arg
            continue
        if arg.startswith("--"):
            value_next = arg in valued
            flags.add(arg.split("=", 1)[0])
            value = arg.partition("=")[2]
            # (`--filter=...[origin/main]`, pnpm's and turbo's "and its dependents": no path)
            if value.startswith(("/", "~", ".")) and not value.startswith("..."):
                operands.append(value)
            continue
        flags.add(arg)
        value_next = bool(valued) and _takes_next(arg, valued)  # (none valued: none takes one)
        if len(arg) > 2 and valued:  # (`-rlA3`: -r, -l, -A; `-rel`: -r, -e with "l")
            flags.update(_grouped(arg, valued))
        elif len(arg) > 2:  # `-rf`: `-r` and `-f` too; `-n5`: `-n`
            body = arg[1:]
            if body.isalpha():
                flags.update(["-" + c for c in body])
            elif body[:1].isalpha():
                flags.add(arg[:2])
    return frozenset(flags), tuple(operands), subcommand, False


def _takes_next(arg: str, valued: frozenset[str]) -> bool:
    """The short option ``arg`` (or a group's first valued letter, ``-rm``) takes the next
    word as its value (its value is not joined to it: ``-m5`` takes none)."""
    for position, letter in enumerate(arg[1:], start=1):
        if "-" + letter in valued:
            return position == len(arg) - 1
    return False


def _grouped(arg: str, valued: frozenset[str]) -> list[str]:
    """The flags of a group of short options, up to the first that takes a value (the
    rest of the group is that value)."""
    found: list[str] = []
    for letter in arg[1:]:
        if not letter.isalpha():
            break
        found.append("-" + letter)
        if "-" + letter in valued:
            break
    return found
