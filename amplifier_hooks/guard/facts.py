"""What one piece does, worked out once and only when a rule asks: its flags as a set,
its subcommand, the paths it reads and writes (resolved), whether it uses the network."""

from __future__ import annotations

import os

from amplifier_hooks.guard.braces import expand_braces
from amplifier_hooks.guard.checkers import checks_only
from amplifier_hooks.guard.codecalls import code_texts
from amplifier_hooks.guard.containers import CONTAINER_PROGRAMS, mounts
from amplifier_hooks.guard.earlier import reads_program
from amplifier_hooks.guard.elsewhere import cloud_names, runs_in_container
from amplifier_hooks.guard.inline import (
    CODE_PASSED,
    CODE_READ,
    QUIET_CODE,
    code_flags,
    runs_inline_code,
)
from amplifier_hooks.guard.minus import minus
from amplifier_hooks.guard.model import Piece, Places
from amplifier_hooks.guard.paths import QUIET_DEVICES, Located, locate_all
from amplifier_hooks.guard.places import CHANGERS, NOTHING, changed
from amplifier_hooks.guard.plainwords import COPIERS, NOT_PATHS, SOURCES, TARS, UNPACKERS, plain
from amplifier_hooks.guard.programs import NETWORK, READ_ONLY, category_of, reads_only_ours
from amplifier_hooks.guard.readings import Reading, keep, kept
from amplifier_hooks.guard.remote import pushed_branches, ssh_remote
from amplifier_hooks.guard.scripts import run_words
from amplifier_hooks.guard.servicewords import jenkins_cli_reads, not_switches
from amplifier_hooks.guard.splitargs import split_args
from amplifier_hooks.guard.sqlfiles import SQL_CLIENTS, sql_files
from amplifier_hooks.guard.table import (
    PATTERN_FIRST,
    SPELLED,
    only_read,
    patterned,
    read_call,
    read_program,
)
from amplifier_hooks.guard.table.acts import Does
from amplifier_hooks.guard.table.certs import mkcert_files
from amplifier_hooks.guard.table.commanders import keygen_paths
from amplifier_hooks.guard.table.fetch import FETCHING, glued_values
from amplifier_hooks.guard.table.python import is_python, module_writes
from amplifier_hooks.guard.table.system import LOOKERS

__all__ = ["FILE_READ_TOOLS", "FILE_WRITE_TOOLS", "Facts", "split_args"]

FILE_READ_TOOLS = frozenset({"read_file", "glob", "grep", "list_dir", "notebook_read"})
FILE_WRITE_TOOLS = frozenset({"write_file", "edit_file", "multi_edit", "notebook_edit",
                              "create_file"})  # fmt: skip

_UNPACKING = frozenset({Does.READ, Does.WRITE_INTO})
"""Archivers the table reads in full, listing or unpacking: they write only the folder they
unpack into (``unzip -l ~/x.zip`` writes nothing; ``tar -xzf ~/x.tgz -C data``, ``data``)."""
ACCESSES = {"read": 0, "write": 1, "any": 2, "move": 3, "change": 4, "whole": 5, "run": 6}
_WEB_TOOLS = frozenset({"web_fetch", "web_search"})


class Facts:
    """What ``piece`` does in ``places``: worked out once per piece. Everything but the
    resolved paths is computed up front (no file system access; `key` names it); the paths
    only when a rule asks."""

    __slots__ = ("_branches", "_located", "changed", "flags", "has", "inline_code", "key",
                 "network", "operands", "piece", "places", "remote", "runs", "subcommand",
                 "unknown_option", "words", "written")  # fmt: skip

    def __init__(self, piece: Piece, places: Places) -> None:
        self.piece = piece
        self.places = places
        self._branches: tuple[str, ...] | None = None
        self._located: dict[str, tuple[Located, ...]] | None = None
        reading = kept(piece)  # read once per piece (`readings`)
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
        elif plainly and (split[1] or "xargs" in piece.wrappers):
            self.words = self.written = words = written = self._operand_words()
        elif split[1] or piece.tool != "bash" or "xargs" in piece.wrappers:
            self.words = words = self._path_words()
            self.written = written = self._written_words()
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

    def _path_words(self) -> tuple[str, ...]:
        piece = self.piece
        if piece.tool != "bash":  # a web tool's URL is an argument, not a path
            return piece.args if self.network is False else _no_urls(piece.args)
        if piece.program in NOT_PATHS:
            return ()
        if piece.program in CONTAINER_PROGRAMS:  # `docker run -v SRC:DST img`: only SRC
            mounted = mounts(piece.program, piece.args)
            if mounted is not None:
                return mounted.paths
        named = cloud_names(piece.program, piece.args)
        if named is not None:  # `aws logs tail /aws/lambda/api`: a log group's name
            return named
        keyed = keygen_paths(piece.args) if piece.program == "ssh-keygen" else None
        if keyed is not None:  # `ssh-keygen -t ed25519 -C 'ci key' -f F`: only F
            return keyed
        sql = sql_files(piece.program, piece.args) if piece.program in SQL_CLIENTS else None
        if sql is not None:  # `duckdb -c "SELECT .. FROM 'x.parquet'"`: x.parquet, no more
            return sql.reads + sql.writes
        if piece.program == "mkcert" and (made := mkcert_files(piece.args)) is not None:
            return made.written + made.read  # `mkcert -key-file F localhost`: F, no host
        return self._operand_words()

    def _operand_words(self) -> tuple[str, ...]:
        """The words of the operands that may name paths (of a shell command)."""
        piece = self.piece
        words: list[str] = []
        program = piece.program or ""
        operands = self.operands
        if CODE_READ in piece.wrappers:  # the code's own paths are pieces (`earlier`)
            codes = code_texts(program, piece.args)
            operands = tuple(o for o in operands if o not in codes)
        elif CODE_PASSED in piece.wrappers:  # `python3 -`: its input, judged as code
            operands = tuple(o for o in operands if o != "-")
        if program in PATTERN_FIRST:
            read = patterned(program, piece.args)[1]  # the files it reads patterns from too
            operands = (*read.values("pattern-file"), *read.values("script-file"),
                        *read.values("read"), *read.operands)  # fmt: skip
        if program in FETCHING:  # `curl -F'f=@.env'`, `--data=@x`: a value glued on
            operands = (*operands, *glued_values(piece.args))
        for operand in operands:
            if "://" in operand:
                if not operand.startswith("file://"):
                    continue
                rest = operand[7:]  # file://host/p is /p; file://$HOME/p and file://~/p too
                operand = rest if rest[:1] in ("$", "~") else "/" + rest.partition("/")[2]
            if operand.startswith("@"):  # curl -d @file
                operand = operand[1:]
            name, equals, value = operand.partition("=")
            if equals and name.isidentifier():  # dd of=/dev/sda, key=value
                operand = value[1:] if value.startswith("@") else value  # curl -F f=@file
            words.extend(expand_braces(operand) if "{" in operand else (operand,))
        if program in TARS and any(a.startswith(("-C", "--dir", "--cd")) for a in piece.args):
            # `tar -C ~ -cz .ssh` reads ~/.ssh: its members as the table resolves them
            acts = read_call(program, piece.args).acts
            words.extend(a.target for a in acts if a.does is Does.READ and a.target not in words)
        if "xargs" in piece.wrappers:
            words.append("$XARGS")  # the arguments xargs reads from its input
        return not_switches(program, tuple(words))

    def _written_words(self) -> tuple[str, ...]:
        """The words of the paths the program writes."""
        piece = self.piece
        if piece.program == "dd":  # dd writes only its of= operand
            return tuple(a[3:] for a in piece.args if a.startswith("of="))
        if piece.program == "mkcert" and (made := mkcert_files(piece.args)) is not None:
            return made.written  # its -cert-file and -key-file, not its -csr
        if piece.tool in FILE_WRITE_TOOLS:
            return self.words
        if piece.tool != "bash" or piece.program in READ_ONLY or self._reads_only:
            return ()
        if piece.program in COPIERS or piece.program == "sed":
            return ()  # what they write is what `places.changed` says (sed: -i, w FILE)
        if piece.program in SOURCES:  # it runs its file (judged so), and writes none
            return ()
        if (
            runs_in_container(piece.program, piece.args)
            or cloud_names(piece.program, piece.args) is not None
        ):  # the container's paths; a service's names, and files it only reads
            return ()
        if piece.program in FETCHING:  # a URL or a header is no file: only -o, -P, ...
            read = read_program(piece.program, piece.args)
            if read is not None and read.doubt is None:
                return (*read.values("write"), *read.values("into"))
        if piece.program in UNPACKERS:  # the archive is read; the folder unpacked into written
            unpacked = read_call(piece.program, piece.args)
            if unpacked.doubt is None and all(a.does in _UNPACKING for a in unpacked.acts):
                return tuple(a.target for a in unpacked.acts if a.does is Does.WRITE_INTO)
        if piece.program == "rsync":  # its sources are read; `-n` writes nothing
            synced = read_call("rsync", piece.args)  # (`host:path`, `C:\x`: every word)
            if synced.doubt is None and all(a.does is not Does.NETWORK for a in synced.acts):
                return tuple(a.target for a in synced.acts if a.does in _SYNCED)
        if piece.program in SQL_CLIENTS:
            sql = sql_files(piece.program, piece.args)
            if sql is not None:  # the database unless -readonly, COPY .. TO 'F', .output F
                return sql.writes
        if piece.program in LOOKERS and read_call(piece.program, piece.args).doubt is None:
            return ()  # `lsof +D DIR`, `iptables -L`: read in full, they write no file
        if is_python(piece.program or ""):
            module = module_writes(piece.args)  # `-m json.tool IN [OUT]`: only OUT
            if module is not None:
                return module
        if piece.program not in CONTAINER_PROGRAMS:
            return (
                self._unread(piece.program, piece.args) if piece.program in SPELLED else self.words
            )
        mounted = mounts(piece.program, piece.args)
        return self.words if mounted is None else mounted.written

    def _unread(self, program: str, args: tuple[str, ...]) -> tuple[str, ...]:
        """The words but one for each value of an option that only reads (``patch -i F``)."""
        return minus(self.words, only_read(program, args))

    @property
    def _moves_to_last(self) -> bool:
        # mv's last operand is where things go, not what is moved away (unless -t names it)
        return self.piece.program == "mv" and self.flags.isdisjoint(("-t", "--target-directory"))

    @property
    def _reads_only(self) -> bool:
        """A program that writes its files, run in a mode that only reads them."""
        piece = self.piece
        if piece.program == "ssh-keygen":  # -l, -F, -B: a fingerprint, a host, a name
            read = read_program("ssh-keygen", piece.args)
            return read is not None and read.has("only-reads")
        if checks_only(piece.program, piece.args):  # `shellcheck F`, `bash -n F`, `mypy DIR`
            return True
        return reads_only_ours(piece.program, piece.args)  # `amplifier-hooks test|bench ...`

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
        sub = self.subcommand
        return sub in _GIT_NAMING or (sub == "rm" and "--cached" in self.flags)

    def _found(self, located: tuple[Located, ...]) -> tuple[Located, ...]:
        if not self.piece.found:
            return located
        # find does not follow links: a pattern in a folder name (`-path '*/x/*'`) stays below
        return tuple(Located(a.path + "/…", a.where - (_FOUND_OFF if "$" in a.path else _FOUND_GLOB)
                             | ({"inside_workspace"} if "workspace_root" in a.where else set()),
                             a.forms) for a in located)  # fmt: skip


_GIT_NAMING = frozenset({"check-ignore", "check-attr", "ls-files"})
"""git subcommands whose operands are names git matches, not files it reads."""

_SYNCED = frozenset({Does.WRITE, Does.LINK, Does.DELETE})
"""What rsync does to a path that changes it (its table, `table.network`)."""
_NOT_ONLY_WORDS = COPIERS | {"git"}  # (`cp`'s new file, `git rm --cached`: `_locate_all`)
_NO_PATHS: dict[str, tuple[Located, ...]] = dict.fromkeys(
    ("read", "write", "any", "move", "change", "whole", "run", "all"), ()
)
"""The paths of a piece that has none (shared: never changed)."""


def _no_urls(args: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(a for a in args if "://" not in a)


def _changing(writes: tuple[str, ...]) -> tuple[str, ...]:
    """The redirect targets that are files (`2>/dev/null` changes nothing)."""
    if QUIET_DEVICES.isdisjoint(writes):
        return writes
    return tuple(w for w in writes if w not in QUIET_DEVICES)


_FOUND_OFF = frozenset({"workspace_root", "home", "root"})
_FOUND_GLOB = _FOUND_OFF | {"unknown"}
