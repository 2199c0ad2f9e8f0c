"""What one piece does, worked out once and only when a rule asks: its flags as a set,
its subcommand, the paths it reads and writes (resolved), whether it uses the network."""

from __future__ import annotations

import re
from functools import cached_property, lru_cache

from amplifier_hooks.guard.model import Piece, Places
from amplifier_hooks.guard.paths import Located, expand_braces, locate
from amplifier_hooks.guard.programs import NETWORK, READ_ONLY, category_of

__all__ = ["FILE_READ_TOOLS", "FILE_WRITE_TOOLS", "Facts", "code_flags"]

FILE_READ_TOOLS = frozenset({"read_file", "glob", "grep", "list_dir", "notebook_read"})
FILE_WRITE_TOOLS = frozenset({"write_file", "edit_file", "multi_edit", "notebook_edit",
                              "create_file"})  # fmt: skip

_SUBCOMMAND_PROGRAMS = frozenset(
    {"git", "npm", "pnpm", "yarn", "cargo", "go", "docker", "podman", "kubectl", "helm", "pip",
     "pip3", "uv", "poetry", "gh", "systemctl", "apt", "apt-get", "brew", "dnf", "yum",
     "crontab", "launchctl", "conda", "bun", "deno", "terraform", "make", "just", "mix",
     "dotnet", "gradle", "mvn", "bundle", "gem", "rustup", "nix", "hg", "svn", "tox", "nox"}
)  # fmt: skip
_GLOBAL_VALUED = {
    "git": frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path"}),
    "docker": frozenset({"-H", "--host", "--context", "-c", "--config", "-l", "--log-level"}),
    "kubectl": frozenset({"-n", "--namespace", "--context", "--kubeconfig", "-s", "--server"}),
    "make": frozenset({"-C", "-f", "--directory", "--file", "-j", "-I"}),
}
_NOT_PATHS = frozenset(
    {"echo", "printf", "true", "false", "export", "unset", "local", "declare", "readonly",
     "typeset", "sleep", "exit", "return", "set", "shift", "alias", "[[", "read", "wait",
     "kill", "pkill", "date", "seq", "yes", "expr", "let"}
)  # fmt: skip

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


_CODE_VALUED = frozenset(
    {"-W", "-X", "-Q", "-r", "--require", "--import", "--loader", "--experimental-loader",
     "--input-type", "-C", "--conditions", "-I", "-M", "-F"}
)  # fmt: skip
"""Options whose value is the next word (never the script), so a value like ``a.py`` is
not taken for one: ``python3 -X a.py -c ..`` still runs inline code."""
_SCRIPT = re.compile(r"[/\\]|\.(py|pyw|pl|pm|rb|js|mjs|cjs|ts|php|lua|R|r|scpt|ps1)$")

_READ_ONLY_MODES = {"ssh-keygen": frozenset({"-l", "-F", "-B"})}
"""Flags that make a program only read its files: ``ssh-keygen -lf key.pub`` prints a
fingerprint (``-y`` is left out: it reads a private key, which credential rules judge)."""


class Facts:
    """Lazy facts about ``piece`` in ``places``."""

    def __init__(self, piece: Piece, places: Places) -> None:
        self.piece = piece
        self.places = places

    @cached_property
    def _split(self) -> tuple[frozenset[str], tuple[str, ...], str | None]:
        """(flags, operands, subcommand): ``-rf`` gives ``-r``, ``-f`` and ``-rf``;
        ``--force=x`` gives ``--force``; after ``--`` everything is an operand."""
        piece = self.piece
        flags: set[str] = set()
        operands: list[str] = []
        valued = _GLOBAL_VALUED.get(piece.program or "", frozenset())
        subcommand: str | None = None
        wants_sub = piece.program in _SUBCOMMAND_PROGRAMS
        ended = False
        skip = False
        for arg in piece.args:
            if skip:
                skip = False
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
            if subcommand is None and arg in valued:
                skip = True
            if arg.startswith("--"):
                flags.add(arg.split("=", 1)[0])
                value = arg.partition("=")[2]
                if value.startswith(("/", "~", ".")):
                    operands.append(value)
                continue
            flags.add(arg)
            body = arg[1:]
            if body.isalpha():
                flags.update("-" + c for c in body)
            elif body[:1].isalpha():
                flags.add(arg[:2])
        return frozenset(flags), tuple(operands), subcommand

    @property
    def flags(self) -> frozenset[str]:
        return self._split[0]

    @property
    def subcommand(self) -> str | None:
        return self._split[2]

    @cached_property
    def network(self) -> bool:
        piece = self.piece
        if piece.program in NETWORK or piece.tool in ("web_fetch", "web_search"):
            return True
        return any("://" in a for a in piece.args)

    def pipes_to_any(self, names: tuple[str, ...]) -> bool:
        piece = self.piece
        for name in names:
            if name == "code" and piece.feeds_code:
                return True
            if name == "self" and piece.function and piece.program in piece.pipes_to:
                return True
            if name in piece.pipes_to:
                return True
            if any(name in category_of(sink) for sink in piece.pipes_to):
                return True
        return False

    @cached_property
    def _path_words(self) -> tuple[str, ...]:
        piece = self.piece
        if piece.tool != "bash":
            return piece.args
        if piece.program in _NOT_PATHS:
            return ()
        words: list[str] = []
        for operand in self._split[1]:
            if "://" in operand:
                continue
            if operand.startswith("@"):  # curl -d @file
                operand = operand[1:]
            name, equals, value = operand.partition("=")
            if equals and name.isidentifier():  # dd of=/dev/sda, key=value
                operand = value[1:] if value.startswith("@") else value  # curl -F f=@file
            words.extend(expand_braces(operand) if "{" in operand else (operand,))
        if "xargs" in piece.wrappers:
            words.append("$XARGS")  # the arguments xargs reads from its input
        return tuple(words)

    @cached_property
    def _located(self) -> dict[str, tuple[Located, ...]]:
        piece = self.piece
        cwd = piece.cwd
        args = tuple(self._locate(w, cwd) for w in self._path_words)
        if piece.found:
            args = tuple(Located(a.path + "/…", a.where - {"workspace_root", "home", "root"}
                                 | ({"inside_workspace"} if "workspace_root" in a.where else set()),
                                 a.forms) for a in args)  # fmt: skip
        writes = tuple(self._locate(w, cwd) for w in piece.writes)
        reads = tuple(self._locate(w, cwd) for w in piece.reads)
        if piece.program == "dd":  # dd writes only its of= operand
            written = tuple(self._locate(a[3:], cwd) for a in piece.args if a.startswith("of="))
        elif piece.tool in FILE_WRITE_TOOLS:
            written = args
        elif piece.tool != "bash" or piece.program in READ_ONLY or self._reads_only:
            written = ()
        else:
            written = args
        # mv's last operand is where things go, not what is moved away (unless -t names it)
        targeted = not self.flags.isdisjoint(("-t", "--target-directory"))
        moved = args[:-1] if piece.program == "mv" and not targeted else args
        return {"read": args + reads, "write": written + writes, "any": args + reads + writes,
                "move": moved}  # fmt: skip

    @cached_property
    def inline_code(self) -> bool:
        """An interpreter given code on the command line before any script or module
        (``python -W x -c ..``, ``perl -pi -e ..``); arguments after a script are its own.
        A word that does not look like a script is read past: an option's value."""
        spec = code_flags(self.piece.program or "")
        if spec is None:
            return False
        letters, longs = spec
        skip = False
        for arg in self.piece.args:
            if skip:
                skip = False
                continue
            skip = arg in _CODE_VALUED
            if arg in longs or arg.split("=", 1)[0] in longs:
                return True
            if arg in ("-m", "--"):
                return False
            if arg.startswith("-") and not arg.startswith("--") and letters & set(arg[1:]):
                return True
            if not arg.startswith("-") and _SCRIPT.search(arg):
                return False
        return False

    @property
    def _reads_only(self) -> bool:
        """A program that writes its files, run in a mode that only reads them."""
        modes = _READ_ONLY_MODES.get(self.piece.program or "")
        return modes is not None and not modes.isdisjoint(self.flags)

    def _locate(self, word: str, cwd: str | None) -> Located:
        return locate(word, cwd, self.places)

    def paths(self, access: str) -> tuple[Located, ...]:
        """The resolved paths the piece touches: read (every path it is given), write
        (redirect targets, and every path given to a program that is not read-only)."""
        return self._located[access]
