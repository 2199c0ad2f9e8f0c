"""What git knows of the paths a call names: tracked, ignored, untracked, changed; and
whether commits only some refs reach would go with them, or a tag that is there.

Asked of git itself, read-only (``--no-optional-locks``: no index refresh is written; no
fsmonitor hook is run), once per judged call at most (refs: the tags, then the branches),
under a deadline (20 ms by default): a call that times out or fails gives no facts, which
the guard reads as "cannot tell".
The answer is an input to the pure policy (`judge`), like the places.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence
from typing import Literal, NamedTuple

from amplifier_hooks.guard.hiddenchanges import hidden_paths
from amplifier_hooks.guard.nestedrepos import Budget, nested_repository

__all__ = [
    "DEADLINE",
    "Entry",
    "GitQuery",
    "RepoFacts",
    "ask_git",
    "in_new_folder",
    "repository_of",
]

DEADLINE = 0.02
"""Seconds git may take to answer; later is no answer."""
MAX_SPECS = 256
"""Pathspecs in one query (more: no query, no facts)."""


class GitQuery(NamedTuple):
    """One query for git, run in ``root`` (a repository's or a worktree's top)."""

    kind: Literal["status", "refs"]
    root: str
    specs: frozenset[str] | None
    """status: pathspecs relative to ``root`` (None: the whole tree); refs: full ref names."""


class Entry(NamedTuple):
    """One line of ``git status --porcelain=v2``: ``code`` is ``1``/``2`` (changed, renamed),
    ``u`` (unmerged), ``?`` (untracked) or ``!`` (ignored); or ``h``: a tracked file marked
    assume-unchanged or skip-worktree, whose changes status hides (`hiddenchanges`; read
    from the index, only when it is on disk). ``path`` is relative to the top (a folder
    ends with ``/``)."""

    code: str
    path: str
    staged_only: bool = False
    """Its staged text is in neither HEAD nor the worktree (staged, then changed again;
    or unmerged): ``git restore --staged`` leaves it only as a dangling blob."""


class RepoFacts(NamedTuple):
    """git's answer to one `GitQuery`."""

    asked: GitQuery
    entries: tuple[Entry, ...] = ()
    """status: every changed, untracked and ignored path the specs match."""
    lost: bool = False
    """refs: some commit is reached by the asked refs and by no other ref."""

    def answers(self, ask: GitQuery) -> bool:
        """Whether this answer covers ``ask`` (the same question, or a wider one)."""
        mine = self.asked
        if mine.kind != ask.kind or mine.root != ask.root:
            return False
        if mine.specs is None:
            return True
        return ask.specs is not None and ask.specs <= mine.specs


def in_new_folder(folder: str, workspace: str) -> bool:
    """Whether ``folder`` is not there and the nearest folder above it that is, is the
    workspace or a folder in it (a write of ``new/deeper/file.py`` makes its folders). A
    workspace that is not there (a bench corpus's) has no facts: False."""
    above = os.path.dirname(folder)
    while not os.path.lexists(folder) and above != folder:
        folder, above = above, os.path.dirname(above)
    inside = folder == workspace or folder.startswith(workspace.rstrip("/") + "/")
    return inside and not os.path.islink(folder) and os.path.isdir(folder)


def repository_of(folder: str) -> str | None:
    """The top of the repository (or linked worktree) holding ``folder``: the nearest
    folder with a ``.git`` in it, without running git (None: none, or ``folder`` is
    missing)."""
    current = folder
    if not os.path.isdir(current):
        return None
    for _ in range(64):
        if os.path.exists(os.path.join(current, ".git")):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent
    return None


def ask_git(asks: Sequence[GitQuery], deadline: float = DEADLINE) -> RepoFacts | None:
    """git's answer to the first of ``asks``, widened to every other ask like it (same
    kind and root): one ``git`` run. None when git fails, is missing or is late."""
    if not asks:
        return None
    first = asks[0]
    alike = [a for a in asks if a.kind == first.kind and a.root == first.root]
    specs: frozenset[str] | None = frozenset()
    for ask in alike:
        if ask.specs is None or specs is None:
            specs = None
        else:
            specs |= ask.specs
    asked = GitQuery(first.kind, first.root, specs)
    if specs is not None and len(specs) > MAX_SPECS:
        return None
    if asked.kind == "refs":
        return _refs_facts(asked, deadline)
    out = _run(_command(asked), first.root, deadline)
    if out is None:
        return None
    hidden = hidden_paths(asked.root, asked.specs if asked.specs is not None else (".",))
    if hidden is None:
        return None  # an index this reader does not know: hidden changes cannot be told
    shown = tuple(Entry("h", h) for h in hidden if os.path.lexists(os.path.join(asked.root, h)))
    entries = _entries(out)
    nested = _nested(asked.root, entries)
    if nested is None and asked.specs is not None:
        return None  # an ignored folder named too large to look through: cannot tell
    return RepoFacts(asked, entries=entries + shown + (nested or ()))


def _refs_facts(asked: GitQuery, deadline: float) -> RepoFacts | None:
    """Whether the asked refs lose anything: a tag that exists does (a tag keeps no reflog,
    and an annotated tag's own object, its message and signature, goes even when a branch
    still reaches its commit); a branch does when it alone reaches some commit."""
    refs = asked.specs or frozenset()
    tags = sorted(r for r in refs if r.startswith("refs/tags/"))
    if tags:
        out = _run([*_base(asked.root), "for-each-ref", "--count=1", "--format=%(refname)",
                    *tags], asked.root, deadline)  # fmt: skip
        if out is None or out.strip():
            return None if out is None else RepoFacts(asked, lost=True)
    if len(tags) == len(refs):
        return RepoFacts(asked, lost=False)
    out = _run(_command(asked), asked.root, deadline)
    return None if out is None else RepoFacts(asked, lost=bool(out.strip()))


def _nested(root: str, entries: tuple[Entry, ...]) -> tuple[Entry, ...] | None:
    """Each repository found inside an ignored folder, as an untracked folder: its work is
    none of this repository's (`nestedrepos`); None when the folders were not all looked
    through within the budget (a repository may be in what was left unread)."""
    budget = Budget()
    found: list[Entry] = []
    for entry in entries:
        if entry.code == "!" and entry.path.endswith("/"):
            nested = nested_repository(os.path.join(root, entry.path), budget)
            if nested is not None:
                found.append(Entry("?", os.path.relpath(nested, root) + "/"))
            elif budget.left < 0:
                return None
    return tuple(found)


def _base(root: str) -> list[str]:
    return ["git", "--no-optional-locks", "-c", "core.fsmonitor=false", "-c",
            "core.quotePath=false", "-C", root]  # fmt: skip


def _command(ask: GitQuery) -> list[str]:
    base = _base(ask.root)
    if ask.kind == "refs":  # the branches (`_refs_facts` reads the tags)
        refs = sorted(ask.specs or ())
        # HEAD is no keeper of its own: it names the branch checked out, which moves with
        # the ref (`git pull origin +main:main`, `checkout -B main X` on main); a
        # detached HEAD is then a keeper not counted (asked, never granted wrongly)
        excluded = [f"--exclude={r}" for r in (*refs, "HEAD")]
        # (a tag asked is not there: `_refs_facts`; named, rev-list would fail on it)
        branches = [r for r in refs if not r.startswith("refs/tags/")]
        named = [f"--glob={r}" if "*" in r else r for r in branches]  # `refs/heads/*`: each
        return [*base, "rev-list", "--max-count=1", *named, "--not", *excluded, "--all"]
    status = [*base, "status", "--porcelain=v2", "-z", "--untracked-files=all",
              "--ignored=matching"]  # fmt: skip
    if ask.specs is None:  # (an abort, a worktree's removal: submodules' work is kept)
        return [*status, "--ignore-submodules=all"]
    # A submodule a call names is looked into: `git rm -f sub` deletes its changes too.
    status.append("--ignore-submodules=none")
    # A name starting with ':' would be read as pathspec magic: `./` keeps it a name.
    # `icase`: macOS's and Windows's file systems ignore case, and `rm SRC/App.py` there
    # deletes src/app.py, which git's pathspecs (case-sensitive) would not match.
    specs = sorted("./" + s if s.startswith(":") else s for s in ask.specs)
    return [*status, "--", *(":(icase)" + s for s in specs)]


_ENV = {"GIT_OPTIONAL_LOCKS": "0", "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"}


def _run(command: list[str], root: str, deadline: float) -> bytes | None:
    env = {**os.environ, **_ENV}
    try:
        done = subprocess.run(command, capture_output=True, timeout=deadline, env=env,
                              stdin=subprocess.DEVNULL, cwd=root, check=False)  # fmt: skip
    except (OSError, subprocess.SubprocessError, ValueError):
        return None  # no git, a missing folder, or too late: no answer
    return done.stdout if done.returncode == 0 else None


def _entries(out: bytes) -> tuple[Entry, ...]:
    found: list[Entry] = []
    fields = out.decode("utf-8", "surrogateescape").split("\x00")
    index = 0
    while index < len(fields):
        line = fields[index]
        index += 1
        if not line or line.startswith("#"):
            continue
        code = line[0]
        if code in "?!":
            found.append(Entry(code, line[2:]))
        elif code == "1":
            found.append(Entry(code, line.split(" ", 8)[-1], _staged_only(line)))
        elif code == "2":
            found.append(Entry(code, line.split(" ", 9)[-1], _staged_only(line)))
            if index < len(fields):  # the path it was renamed from
                found.append(Entry(code, fields[index]))
            index += 1
        elif code == "u":
            found.append(Entry(code, line.split(" ", 10)[-1], True))
    return tuple(found)


def _staged_only(line: str) -> bool:
    """Whether a changed entry's ``XY`` says the index differs from HEAD (X) and the
    worktree from the index (Y): its staged text is nowhere else."""
    return len(line) > 3 and line[2] != "." and line[3] != "."
