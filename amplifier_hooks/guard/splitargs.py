"""A piece's words as the rules see them: its flags as a set, its operands, its subcommand.

The programs the table reads the options of are read as they read them (`table.spelled`);
any other program's words are split by their shape (``-rf`` is ``-r``, ``-f`` and ``-rf``).
"""

from __future__ import annotations

from amplifier_hooks.guard.table import SPELLED, git_read, spelled
from amplifier_hooks.guard.table.commanders import GLOBAL_OPTIONS, global_paths, global_read

__all__ = ["Split", "split_args"]

_SUBCOMMAND_PROGRAMS = frozenset(
    {"git", "npm", "pnpm", "yarn", "cargo", "go", "docker", "podman", "kubectl", "helm", "pip",
     "pip3", "uv", "poetry", "gh", "systemctl", "apt", "apt-get", "brew", "dnf", "yum",
     "crontab", "launchctl", "conda", "bun", "deno", "terraform", "make", "just", "mix",
     "dotnet", "gradle", "mvn", "bundle", "gem", "rustup", "nix", "hg", "svn", "tox", "nox",
     "rampart"}
)  # fmt: skip
Split = tuple[frozenset[str], tuple[str, ...], str | None, bool]


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
    ended = False
    for arg in args:
        if ended or not arg.startswith("-") or arg == "-":
            if wants_sub and subcommand is None:
                subcommand = arg
            else:
                operands.append(arg)
            continue
        if arg == "--":
            ended = True
            continue
        if arg.startswith("--"):
            flags.add(arg.split("=", 1)[0])
            value = arg.partition("=")[2]
            # (`--filter=...[origin/main]`, pnpm's and turbo's "and its dependents": no path)
            if value.startswith(("/", "~", ".")) and not value.startswith("..."):
                operands.append(value)
            continue
        flags.add(arg)
        if len(arg) > 2:  # `-rf`: `-r` and `-f` too; `-n5`: `-n`
            body = arg[1:]
            if body.isalpha():
                flags.update(["-" + c for c in body])
            elif body[:1].isalpha():
                flags.add(arg[:2])
    return frozenset(flags), tuple(operands), subcommand, False
