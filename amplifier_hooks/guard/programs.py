"""What the guard knows about programs: names, wrappers, shells, network tools.

Facts only (tables); `unwrap` and the rules use them. A program name is normalised to
what would run: the last part of a path (``/usr/bin/rm`` is ``rm``).
"""

from __future__ import annotations

import re

__all__ = [
    "NETWORK",
    "READ_ONLY",
    "SHELLS",
    "category_of",
    "is_interpreter",
    "normalise_program",
    "reads_only_ours",
    "shell_reads_input",
]

SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh"})
_INTERPRETER = re.compile(
    r"^(python[0-9.]*|ipython[0-9.]*|pypy[0-9.]*|perl[0-9.]*|ruby[0-9.]*|node(js)?|php[0-9.]*|lua[0-9.]*|bun|deno|osascript|Rscript|R|tclsh|wish|jshell|groovy|pwsh|powershell)$"
)

NETWORK = frozenset(
    {
        "curl", "wget", "nc", "ncat", "netcat", "socat", "telnet", "ftp", "sftp", "scp",
        "rsync", "ssh", "http", "https", "xh", "aria2c", "lftp", "tftp", "openssl", "gh",
        "ffsend", "croc", "wormhole", "magic-wormhole", "onionshare-cli",
        # data and ML tools whose commands upload (a hub, a bucket, a remote drive)
        "huggingface-cli", "hf", "kaggle", "wandb", "rclone", "gsutil", "azcopy", "s5cmd",
        "dvc",
    }
)  # fmt: skip
"""Programs that can send data to another machine."""

READ_ONLY = frozenset(
    {
        "cat", "head", "tail", "less", "more", "bat", "batcat", "grep", "egrep", "fgrep",
        "zgrep", "zegrep", "zfgrep", "rg", "ag", "ls", "ll", "tree", "stat", "file", "wc",
        "diff", "cmp", "md5sum",
        "sha1sum", "sha256sum", "sha512sum", "b2sum", "cksum", "jq", "yq", "du", "df",
        "realpath", "readlink", "basename", "dirname", "test", "[", "[[", "echo", "printf",
        "view", "strings", "hexdump", "xxd", "od", "nl", "sort", "uniq", "cut", "column",
        "awk", "fd", "find", "locate", "which", "type", "pwd", "git", "code", "cd", "pushd",
        "popd",
        # netCDF and HDF5 viewers: they print a file's header or layout and write nothing
        "ncdump", "h5ls",
    }
)  # fmt: skip
"""Programs that read the paths they are given and never write them (``find`` and ``awk``
write only through what the guard unwraps: ``-delete``, ``-exec``, redirections;
``git`` writes only inside its repository, which the git rules judge; ``cd`` only moves
the shell, so entering a folder that holds the guard's files changes none of them)."""

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


def normalise_program(word: str) -> str:
    """The program a command word runs: ``/bin/rm``, ``./rm`` and ``rm`` are ``rm``;
    ``/proc/self/exe`` (``/proc/PID/exe``) is the program of that process, in a command
    line the shell that runs it: read as ``bash``."""
    name = word.rstrip("/").rsplit("/", 1)[-1] if "/" in word else word
    if name == "exe" and word.startswith("/proc/") and word.count("/") == 3:
        return "bash"
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


_SHELL_VALUED = frozenset({"-o", "+o", "-O", "+O", "--rcfile", "--init-file"})


def shell_reads_input(args: tuple[str, ...]) -> bool:
    """A shell reads its commands from its input unless given ``-c`` (inline code, judged
    elsewhere), a script, or only asked its version; ``-s`` (alone or in a group: ``-es``,
    ``-xs``) reads them from its input whatever follows, which are then the script's
    arguments (``curl URL | bash -s -- --prefix x``). Its other options (``-e``, ``-x``,
    ``-v``, ``-o pipefail``) change how it runs, not where its commands come from."""
    skip = False
    for arg in args:
        if skip:
            skip = False
            continue
        if arg in ("--version", "--help"):
            return False
        if arg in _SHELL_VALUED:
            skip = True
            continue
        if arg == "--":
            continue
        if arg[:1] in "-+" and len(arg) > 1 and arg[1:2] != "-":
            if "c" in arg[1:]:
                return False
            if "s" in arg[1:]:
                return True
            continue
        if arg.startswith("--"):
            continue
        return arg == "-"  # `bash -` reads its input; any other word is a script
    return True
