"""What the guard knows about programs: names, wrappers, shells, network tools.

Facts only (tables); `unwrap` and the rules use them. A program name is normalised to
what would run: the last part of a path (``/usr/bin/rm`` is ``rm``).
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = [
    "INTERPRETERS",
    "NETWORK",
    "READ_ONLY",
    "SHELLS",
    "category_of",
    "code_flags",
    "code_option",
    "is_interpreter",
    "normalise_program",
    "reads_only_ours",
]

SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh"})
_INTERPRETER = re.compile(
    r"^(python[0-9.]*|pypy[0-9.]*|perl[0-9.]*|ruby[0-9.]*|node(js)?|php[0-9.]*|lua[0-9.]*|bun|deno|osascript|Rscript|tclsh|wish|jshell|groovy|pwsh|powershell)$"
)
INTERPRETERS = frozenset({"python", "python3", "perl", "ruby", "node", "php", "lua"})
"""Common interpreters (`is_interpreter` also knows versioned names like ``python3.11``)."""

NETWORK = frozenset(
    {
        "curl", "wget", "nc", "ncat", "netcat", "socat", "telnet", "ftp", "sftp", "scp",
        "rsync", "ssh", "http", "https", "xh", "aria2c", "lftp", "tftp", "openssl", "gh",
    }
)  # fmt: skip
"""Programs that can send data to another machine."""

READ_ONLY = frozenset(
    {
        "cat", "head", "tail", "less", "more", "bat", "batcat", "grep", "egrep", "fgrep",
        "rg", "ag", "ls", "ll", "tree", "stat", "file", "wc", "diff", "cmp", "md5sum",
        "sha1sum", "sha256sum", "sha512sum", "b2sum", "cksum", "jq", "yq", "du", "df",
        "realpath", "readlink", "basename", "dirname", "test", "[", "[[", "echo", "printf",
        "view", "strings", "hexdump", "xxd", "od", "nl", "sort", "uniq", "cut", "column",
        "awk", "fd", "find", "locate", "which", "type", "pwd", "git", "code",
    }
)  # fmt: skip
"""Programs that read the paths they are given and never write them (``find`` and ``awk``
write only through what the guard unwraps: ``-delete``, ``-exec``, redirections;
``git`` writes only inside its repository, which the git rules judge)."""

_OWN_READS = frozenset({"test", "check", "doctor", "bench", "events", "--help", "-h",
                        "--version"})  # fmt: skip
"""``amplifier-hooks`` subcommands that only read (their operands are bundles and corpora
to read, or a command to judge without running it)."""


def reads_only_ours(program: str | None, args: tuple[str, ...]) -> bool:
    """Whether ``PROGRAM ARGS`` is ``amplifier-hooks`` that only reads: a read-only subcommand, or
    ``approvals list``. Its files are the guard's, and every other subcommand (install,
    serve, approvals forget, ...) counts as changing what it is given."""
    if program != "amplifier-hooks":
        return False
    words = [a for a in args if not a.startswith("-") or a in ("--help", "-h", "--version")]
    if not words:
        return False
    if words[0] == "approvals":
        return words[1:2] == ["list"] or "--help" in args
    return words[0] in _OWN_READS


DIGIT_FLAG = re.compile(r"^-[0-9]+$")


def normalise_program(word: str) -> str:
    """The program a command word runs: ``/bin/rm``, ``./rm`` and ``rm`` are ``rm``."""
    name = word.rstrip("/").rsplit("/", 1)[-1] if "/" in word else word
    return name or word


def is_interpreter(program: str) -> bool:
    """A program that runs code it is given: a shell or a language interpreter."""
    return program in SHELLS or bool(_INTERPRETER.match(program))


def category_of(program: str) -> frozenset[str]:
    """The categories a rule's ``pipes_to`` may name for a program: ``shell``,
    ``interpreter``, ``network``."""
    found: set[str] = set()
    if program in SHELLS:
        found.add("shell")
    if is_interpreter(program):
        found.add("interpreter")
    if program in NETWORK:
        found.add("network")
    return frozenset(found)


_CODE_FLAGS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    # program: (short flag letters that take code, long flags that do)
    "python": (frozenset("c"), frozenset()),
    "perl": (frozenset("eE"), frozenset()),
    "ruby": (frozenset("e"), frozenset()),
    "node": (frozenset("ep"), frozenset({"--eval", "--print"})),
    "bun": (frozenset("e"), frozenset({"--eval", "--print"})),
    "deno": (frozenset(), frozenset({"eval"})),
    "php": (frozenset("rR"), frozenset()),
    "lua": (frozenset("e"), frozenset()),
    "osascript": (frozenset("e"), frozenset()),
    "Rscript": (frozenset("e"), frozenset()),
    "pwsh": (frozenset("cC"), frozenset({"-Command", "-EncodedCommand", "-command"})),
}


@lru_cache(maxsize=1024)
def code_flags(program: str) -> tuple[frozenset[str], frozenset[str]] | None:
    """The flags that give ``program`` its code on the command line (None: it takes none);
    ``python3.11`` is ``python``, ``nodejs`` is ``node``."""
    family = program.rstrip("0123456789.")
    family = {"nodejs": "node", "powershell": "pwsh"}.get(family, family)
    return _CODE_FLAGS.get(family)


def code_option(program: str) -> str | None:
    """The word that gives ``program`` its code on the command line (``-c`` for python,
    ``-e`` for node, ``eval`` for deno); None: it takes none."""
    flags = code_flags(program)
    if flags is None:
        return None
    letters, longs = flags
    if letters:
        return "-" + min(letters, key=lambda c: (c.isupper(), c))
    return min(longs)
