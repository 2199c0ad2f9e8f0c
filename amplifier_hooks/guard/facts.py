"""What one piece does, worked out once and only when a rule asks: its flags as a set,
its subcommand, the paths it reads and writes (resolved), whether it uses the network."""

from __future__ import annotations

import os

from amplifier_hooks.guard.devicecli import device_looks
from amplifier_hooks.guard.fedcode import reads_program
from amplifier_hooks.guard.inline import CODE_PASSED, QUIET_CODE, code_flags, runs_inline_code
from amplifier_hooks.guard.keyprints import new_key_out
from amplifier_hooks.guard.model import Piece, Places
from amplifier_hooks.guard.paths import QUIET_DEVICES, Located, locate_all
from amplifier_hooks.guard.pathwords import operand_words, path_words, written_words
from amplifier_hooks.guard.places import CHANGERS, NOTHING, changed
from amplifier_hooks.guard.plainwords import COPIERS, OPTION_FILES, plain
from amplifier_hooks.guard.programs import NETWORK, category_of
from amplifier_hooks.guard.readings import Reading, keep, kept
from amplifier_hooks.guard.remote import pushed_branches, ssh_remote
from amplifier_hooks.guard.scripts import run_words
from amplifier_hooks.guard.servicewords import jenkins_cli_reads
from amplifier_hooks.guard.splitargs import split_args
from amplifier_hooks.guard.table.certs import AGE_KEYGENS, age_recipient_files

__all__ = ["Facts", "split_args"]

ACCESSES = {"read": 0, "write": 1, "any": 2, "move": 3, "change": 4, "whole": 5, "run": 6}
_WEB_TOOLS = frozenset({"web_fetch", "web_search"})


class Facts:
    """What ``piece`` does in ``places``: worked out once per piece. Everything but the
    resolved paths is computed up front (no file system access; `key` names it); the paths
    only when a rule asks."""

    __slots__ = ("_branches", "_located", "changed", "flags", "has", "inline_code", "key",
                 "network", "operands", "piece", "places", "reading", "remote", "runs",
                 "subcommand", "unknown_option", "words", "written")  # fmt: skip

    def __init__(self, piece: Piece, places: Places) -> None:
        self.piece = piece
        self.places = places
        self._branches: tuple[str, ...] | None = None
        self._located: dict[str, tuple[Located, ...]] | None = None
        self.reading = reading = kept(piece)  # read once per piece (`readings`)
        """The piece's kept reading (None: read afresh now; `passedchecks`)."""
        if reading is None:
            keep(piece, self._read(piece, places))  # (`_read` sets every field)
            return
        (self.flags, self.operands, self.subcommand, self.unknown_option, self.network,
         self.inline_code, self.remote, self.words, self.written, self.changed, self.runs,
         self.has, self.key) = reading  # fmt: skip

    def _read(self, piece: Piece, places: Places) -> Reading:
        program = piece.program
        args = piece.args
        split = split_args(program, args)
        self.flags, self.operands, self.subcommand, self.unknown_option = split
        subcommand = split[2]
        # "://" in no word is "://" in none of them joined by a character none can cross
        self.network = network = (
            program in NETWORK or piece.tool in _WEB_TOOLS or "://" in "\x00".join(args)
        )
        # a plain program (`plainwords`): its operands are its paths, all written, no code
        plainly = piece.tool == "bash" and program is not None and plain(program)
        self.inline_code = inline = (
            not plainly and program is not None and code_flags(program) is not None
            and (runs_inline_code(program, args) or reads_program(program, args, piece.reads))
            and QUIET_CODE not in piece.wrappers and CODE_PASSED not in piece.wrappers
        )  # fmt: skip
        self.remote = remote = ssh_remote(args) if program == "ssh" else None
        """(host, command) of a command run on another machine."""
        service = jenkins_cli_reads(program, args) if piece.tool == "bash" else None
        written: tuple[str, ...] = ()
        if service is not None:  # the controller's names: only files it reads are here
            self.words, self.written = words, written = service, written
        elif remote is not None and device_looks(remote[1]):  # `/ip route print`: no path here
            self.words = self.written = words = written = ()
        elif plainly and (split[1] or "xargs" in piece.wrappers):
            self.words = self.written = words = written = operand_words(piece, split[1])
        elif (split[1] or piece.tool != "bash" or "xargs" in piece.wrappers
              or program in OPTION_FILES):  # fmt: skip
            self.words = words = path_words(piece, split[1], network)
            self.written = written = written_words(piece, words)
        else:  # no operand: no path (but a dd's of=, which is an operand)
            self.words = self.written = words = written = ()
        reads, writes = piece.reads, piece.writes
        if writes:
            writes = _changing(writes)
        self.changed = change = (
            changed(piece, written, places, subcommand)
            if words or program in CHANGERS  # `patch < x.patch`: no operand, files changed
            else NOTHING
        )
        copied = program in COPIERS and bool(change.whole)
        has_read = bool(words or reads)
        moves = program == "mv" and self._moves_to_last
        self.runs = runs = (
            run_words(program or "", args, piece.reads)
            if piece.tool == "bash" and not plainly
            else ()
        )
        """The words naming code the program runs (`scripts.run_words`)."""
        self.has = has = (has_read, bool(written or writes or change.content or copied),
                          has_read or bool(writes),
                          len(words) > moves, bool(change.content or change.whole or writes),
                          bool(change.whole), bool(runs))  # fmt: skip
        """Whether the piece has paths of each access (`ACCESSES` order)."""
        self.key = (
            piece.tool, program or "", subcommand, piece.wrappers, piece.pipes_to,
            piece.feeds_code, piece.opaque is not None, piece.function, network, inline, has,
            remote is not None, not piece.env,
        )  # fmt: skip
        """Everything a rule's match depends on but its flags, arguments and paths (and
        whether it sets no variable: then no ``env`` is left to check, `Matcher.for_kind`)."""
        return (self.flags, self.operands, self.subcommand, self.unknown_option, network,
                inline, remote, words, written, change, runs, has, self.key)  # fmt: skip

    @property
    def _moves_to_last(self) -> bool:
        # mv's last operand is where things go, not what is moved away (unless -t names it)
        return self.piece.program == "mv" and self.flags.isdisjoint(("-t", "--target-directory"))

    def pipes_to_any(self, names: tuple[str, ...]) -> bool:
        piece = self.piece
        for name in names:
            if name == "code" and piece.feeds_code:
                return True
            if name == "nowhere" and not piece.pipes_to:  # its output reaches the model
                return True
            if name == "self" and piece.function and piece.program in piece.pipes_to:
                return True
            if name in piece.pipes_to:
                return True
            if any(name in category_of(sink) for sink in piece.pipes_to):
                return True
        return False

    def branches(self) -> tuple[str, ...]:
        """The branches a ``git push`` updates (read when a rule asks: the current branch
        is read from the repository's files)."""
        if self._branches is None:
            self._branches = self._pushed()
        return self._branches

    def _pushed(self) -> tuple[str, ...]:
        piece = self.piece
        if piece.program != "git" or self.subcommand != "push":
            return ()
        args = piece.args
        after = args[args.index("push") + 1 :]
        moved = not self.flags.isdisjoint(("-C", "--git-dir", "--work-tree"))
        return pushed_branches(after, None if moved else self._directory())

    def _directory(self) -> str | None:
        cwd, known = self.piece.cwd, self.places.known
        if cwd is None:
            return None
        if cwd in (".", ""):
            return known.workspace
        if cwd.startswith("~"):
            cwd = known.home + cwd[1:] if cwd == "~" or cwd.startswith("~/") else ""
        return os.path.join(known.workspace, cwd) if cwd else None

    def has_paths(self, access: str) -> bool:
        """Whether the piece has any path of ``access`` (known without resolving them)."""
        return self.has[ACCESSES[access]]

    def paths(self, access: str) -> tuple[Located, ...]:
        """The resolved paths the piece touches: read (every path it is given), write
        (redirect targets, and every path given to a program that is not read-only),
        any, move (what a ``mv`` moves away), run (the code it runs: `scripts`), or all
        (of every access)."""
        located = self._located
        if located is None:
            located = self._located = self._locate_all()
        return located[access]

    def _locate_all(self) -> dict[str, tuple[Located, ...]]:
        piece, places = self.piece, self.places
        if not (self.words or piece.reads or piece.writes or self.has[4] or self.runs):
            return _NO_PATHS  # `git status`: no path of any access
        cwd = piece.cwd
        args = locate_all(self.words, cwd, places)
        if self._only_words:  # `pytest -q tests/x.py`: every access is its words
            every = tuple(dict.fromkeys(args)) if len(args) > 1 else args
            return {"read": args, "write": args, "any": args, "move": args, "change": args,
                    "whole": (), "run": (), "all": every}  # fmt: skip
        if piece.found:
            args = self._found(args)
        targets = _changing(piece.writes)
        writes = locate_all(targets, cwd, places) if targets else ()
        reads = locate_all(piece.reads, cwd, places) if piece.reads else ()
        written = args if self.written is self.words else locate_all(self.written, cwd, places)
        moved = args[:-1] if self._moves_to_last else args
        touched = args + reads + writes
        content, whole = self.changed
        changed = args if content is self.words else self._found(locate_all(content, cwd, places))
        if not self.written and content:
            written = changed  # a reader that writes a file it is told to (`sort -o F`)
        wholly = self._found(locate_all(whole, cwd, places)) if whole else ()
        if piece.program in COPIERS:
            written = wholly  # `ln -s TARGET LINK` writes LINK; `cp SRC DST`, DST
        every = touched if written is args else touched + written
        if changed is not args:
            every += changed
        read = args
        if (
            piece.program in ("cp", "install")
            and len(args) > 1
            and not os.path.lexists(args[-1].path)
        ):
            read = args[:-1]  # a new file is written, not read: `cp .env.example .env`
        elif piece.program == "git" and self._names_only():
            read = ()  # `git rm --cached .env`, `git check-ignore .env`: no text is read
        elif piece.program == "mkcert":
            read = tuple(a for a in args if a not in written)  # it makes them (a new key)
        elif (
            piece.program in AGE_KEYGENS
            and "-y" not in piece.args
            and (identity := age_recipient_files(piece.args)) is not None
            and not identity.read
        ):  # a new identity (over one that exists: read, as ssh-keygen's)
            read = tuple(a for a in args if os.path.lexists(a.path))
        elif (
            piece.program == "ssh-keygen"
            and self.words == (new_key_out(piece),)
            and not os.path.lexists(args[0].path)
        ):
            read = ()  # `ssh-keygen -t ed25519 -f F` makes a new key F (over an old one: read)
        elif piece.program == "openssl" and (made := _new_in_workspace(piece, places)):
            read = tuple(a for a in args if a.path != made)  # `openssl genrsa -out k.key`
        runs = locate_all(self.runs, cwd, places) if self.runs else ()
        every += wholly + runs
        if len(every) > 1:  # each path once (`rm A B`: its words are written and removed)
            every = tuple(dict.fromkeys(every))
        return {"read": read + reads, "write": written + writes, "any": touched, "move": moved,
                "change": changed + wholly + writes, "whole": wholly, "run": runs,
                "all": every}  # fmt: skip

    @property
    def _only_words(self) -> bool:
        """Whether the words are all the piece's paths, of every access but whole and run."""
        piece, (content, whole) = self.piece, self.changed
        return not (piece.reads or piece.writes or piece.found or self.runs or whole) and (
            self.written is self.words is content and piece.program not in _NOT_ONLY_WORDS
        )

    def _names_only(self) -> bool:
        """Whether this git call takes its operands as names and reads no file's text
        (the index only, or .gitignore's patterns)."""
        sub, flags = self.subcommand, self.flags
        if sub == "restore":  # `--staged` alone: the index is set back, no file is read
            return bool({"--staged", "-S"} & flags) and not {"--worktree", "-W"} & flags
        return sub in _GIT_NAMING or (sub == "rm" and "--cached" in flags)

    def _found(self, located: tuple[Located, ...]) -> tuple[Located, ...]:
        if not self.piece.found:
            return located
        # find does not follow links: a pattern in a folder name (`-path '*/x/*'`) stays below
        return tuple(Located(a.path + "/…", a.where - (_FOUND_OFF if "$" in a.path else _FOUND_GLOB)
                             | ({"inside_workspace"} if "workspace_root" in a.where else set()),
                             a.forms) for a in located)  # fmt: skip


def _new_in_workspace(piece: Piece, places: Places) -> str | None:
    """The path of the new key file ``openssl genpkey|genrsa -out F`` (``req -keyout F``)
    makes in the workspace: written, not read. One outside it, or over a file that is
    there, stays read (None)."""
    out = new_key_out(piece)
    if out is None:
        return None
    made = locate_all((out,), piece.cwd, places)
    if len(made) != 1 or "inside_workspace" not in made[0].where:
        return None
    return None if os.path.lexists(made[0].path) else made[0].path


_GIT_NAMING = frozenset({"check-ignore", "check-attr", "ls-files"})
"""git subcommands whose operands are names git matches, not files it reads."""

_NOT_ONLY_WORDS = COPIERS | {"git", "ssh-keygen"}
"""(`cp`'s new file, `git rm --cached`, ssh-keygen's new key: `_locate_all`)"""
_NO_PATHS: dict[str, tuple[Located, ...]] = dict.fromkeys(
    ("read", "write", "any", "move", "change", "whole", "run", "all"), ()
)
"""The paths of a piece that has none (shared: never changed)."""


def _changing(writes: tuple[str, ...]) -> tuple[str, ...]:
    """The redirect targets that are files (`2>/dev/null` changes nothing)."""
    if QUIET_DEVICES.isdisjoint(writes):
        return writes
    return tuple(w for w in writes if w not in QUIET_DEVICES)


_FOUND_OFF = frozenset({"workspace_root", "home", "root"})
_FOUND_GLOB = _FOUND_OFF | {"unknown"}
