"""The guard's records: what a command is made of, where a call acts, and what was decided.

Every record is frozen: a verdict is handed to hooks, the CLI and benchmarks, and none of
them may change what another sees.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Literal, NamedTuple

from amplifier_hooks.guard.ownplaces import OwnPlaces

__all__ = [
    "DECISION_RANK",
    "Decision",
    "KnownPlaces",
    "ParsedCommand",
    "Piece",
    "PieceVerdict",
    "Places",
    "Verdict",
    "new_tuple",
    "read_tmpdir",
    "stronger",
]

Decision = Literal["deny", "ask", "allow"]

DECISION_RANK: dict[Decision | None, int] = {None: 0, "allow": 1, "ask": 2, "deny": 3}
"""deny > ask > allow > no opinion: across rules, pieces and handlers the larger one wins."""


new_tuple = tuple.__new__
"""A named tuple made without its Python-level ``__new__`` (which takes keywords and
defaults, about twice the cost): one is made for nearly every node and word the walk
meets (`walk.Frame`, ``Word``), and for each verdict of every call (`bench_guard`'s fresh
row: a parsed line, a verdict a piece and the call's)."""


def stronger(a: Decision | None, b: Decision | None) -> Decision | None:
    """The decision that wins of ``a`` and ``b``."""
    return a if DECISION_RANK[a] >= DECISION_RANK[b] else b


_ENVIRON_BYTES: dict[bytes, bytes] | None = (
    getattr(os.environ, "_data", None) if os.name == "posix" else None
)
"""The dict `os.environ` keeps its bytes in on POSIX (CPython), the same object for the
process's life. Where ``TMPDIR`` is unset, ``os.environ.get`` raises and catches two
``KeyError``s: 10,000 instructions, about 3% of a fresh decision (`benchmarks.bench_guard`,
docs/performance.md); a look-up in this dict costs a hundredth of that."""


def read_tmpdir() -> str | None:
    """``$TMPDIR`` as `os.environ` holds it."""
    if _ENVIRON_BYTES is None:
        return os.environ.get("TMPDIR")
    value = _ENVIRON_BYTES.get(b"TMPDIR")
    return None if value is None else os.fsdecode(value)


class Piece(NamedTuple):
    """One simple command as the shell would run it, wrappers seen through.

    ``program`` is the normalised name (``/bin/rm`` and ``'r'm`` are ``rm``), or None
    when it cannot be known without running something (``$CMD``, ``$(which rm)``);
    ``opaque`` then says why. ``args`` are the words after the program, unquoted.
    ``pipes_to`` names the programs this piece's output flows into: the next command of
    a pipeline, or the command a ``$(...)``/``<(...)`` around it feeds. A named tuple:
    one is made for every simple command of every call, and a tuple is the cheapest
    record to make and read; ``piece._replace(...)`` is a changed copy.
    """

    text: str
    program: str | None
    args: tuple[str, ...] = ()
    tool: str = "bash"
    wrappers: tuple[str, ...] = ()
    writes: tuple[str, ...] = ()
    """Paths written by redirections (``> f``, ``>> f``, ``&> f``)."""
    reads: tuple[str, ...] = ()
    """Paths read by redirections (``< f``)."""
    pipes_to: tuple[str, ...] = ()
    feeds_code: bool = False
    """This piece's output is run as code: ``curl .. | sh``, ``bash <(curl ..)``."""
    cwd: str | None = "."
    """The directory the piece runs in, as far as ``cd`` before it says; None if unknown."""
    opaque: str | None = None
    """Why this piece cannot be judged from its text (None: it can)."""
    dynamic: bool = False
    """Some argument is only known at run time (``$VAR``, ``$(...)``, ``xargs`` input)."""
    function: bool = False
    """The program is a shell function the same command defines."""
    found: bool = False
    """The paths are what ``find`` would find below its start points, not the points."""
    env: tuple[str, ...] = ()
    """``NAME=value`` settings the program runs with (``VAR=x cmd``, ``env VAR=x cmd``)."""
    doubt: str | None = None
    """Why this piece, though it can be judged, is not understood well enough to be
    granted (a wrapper's option the guard does not know, input it cannot see)."""
    fed: str | None = None
    """The heredoc or here-string ``cat`` or ``tee`` is given: the text it writes."""


class ParsedCommand(NamedTuple):
    """A shell command split into its simple commands, and what could not be read (a named
    tuple, as `Piece` is: one is made for every command parsed)."""

    text: str
    pieces: tuple[Piece, ...]
    problem: str | None = None
    """Why the whole command cannot be judged (too large, too deep): it is then denied."""


@dataclass(frozen=True)
class Places:
    """Where a call acts: the workspace, the home folder, and files no call may change."""

    workspace: Path
    home: Path
    protected: tuple[Path, ...] = ()
    guard: tuple[Path, ...] = ()
    """The guard's own files besides its code (the bundle in use and what it includes):
    denied outside the workspace, asked inside it."""

    @classmethod
    def of(
        cls,
        workspace: str | os.PathLike[str] | None = None,
        *,
        home: str | os.PathLike[str] | None = None,
        protected: tuple[str | os.PathLike[str], ...] = (),
        guard: tuple[str | os.PathLike[str], ...] = (),
    ) -> Places:
        """Real absolute places: the current directory and ``~`` unless given."""
        ws = Path(os.path.realpath(os.path.expanduser(workspace or os.getcwd())))
        hm = Path(os.path.realpath(os.path.expanduser(home or "~")))
        kept = tuple(Path(os.path.realpath(os.path.expanduser(p))) for p in protected)
        own = tuple(Path(os.path.realpath(os.path.expanduser(p))) for p in guard)
        return cls(ws, hm, kept, own)

    @cached_property
    def known(self) -> KnownPlaces:
        """These places as text, worked out once: every path of every call is placed
        against them."""
        return KnownPlaces(self)


class KnownPlaces:
    """`Places` as strings, and the folders whose real path is already known (a path below
    them is resolved from there, not from ``/``), and the bounded memos of `paths`: pure
    functions of a resolved path, these places and ``$TMPDIR`` (kept here, compared with
    the environment on every call: a new value clears them)."""

    __slots__ = ("forms", "globbed", "home", "inside", "inside_protected", "own", "protected",
                 "real", "tmpdir", "where", "workspace")  # fmt: skip

    def __init__(self, places: Places) -> None:
        self.workspace = str(places.workspace)
        self.home = str(places.home)
        self.protected = tuple(str(p) for p in places.protected)
        self.tmpdir = read_tmpdir()
        real = {p for p in (self.workspace, self.home) if p != "/" and os.path.realpath(p) == p}
        self.real: tuple[str, ...] = tuple(sorted(real, key=len, reverse=True))
        """Of workspace and home, those that are their own real path, longest first."""
        self.where: dict[str, frozenset[str]] = {}
        self.forms: dict[str, tuple[str, ...]] = {}
        self.globbed: dict[str, tuple[frozenset[str], tuple[str, ...]] | None] = {}
        """The places and forms of a path with a pattern in a folder name (`paths`)."""
        self.inside: frozenset[str] | None = None
        """The places of every path strictly inside the workspace, when they are the same
        for all of them (empty: they are not; None: not worked out yet), but ``protected``,
        which a path inside one of `inside_protected` is in too. Kept by `paths`."""
        self.inside_protected: tuple[str, ...] = tuple(
            p for p in self.protected if p.startswith(self.workspace.rstrip("/") + "/")
        )
        """The protected files and folders strictly inside the workspace."""
        self.own = OwnPlaces(self.home, self.workspace, tuple(str(p) for p in places.guard))
        """Every host's hook and settings places, the installed guard and our state."""


class PieceVerdict(NamedTuple):
    """The decision on one piece, and the rule that made it (None: no rule spoke)."""

    text: str
    program: str | None
    decision: Decision | None
    rule: str | None
    reason: str | None


class Verdict(NamedTuple):
    """The decision on a whole tool call: deny > ask > allow over its pieces; an allow
    only when every piece is allowed; None when no rule has an opinion."""

    decision: Decision | None
    rule: str | None
    reason: str | None
    pieces: tuple[PieceVerdict, ...] = ()
