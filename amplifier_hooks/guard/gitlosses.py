"""What a git call may discard: a changed file it restores or removes, the commits only
a branch or tag it deletes or resets reaches, the changes an abort or a worktree's
removal throws away; each with the question to git that tells (`losses`)."""

from __future__ import annotations

import os
import re

from amplifier_hooks.guard.fetchedrefs import fetched_refs, refmaps
from amplifier_hooks.guard.lost import Loss
from amplifier_hooks.guard.model import Piece, Places
from amplifier_hooks.guard.paths import locate_all
from amplifier_hooks.guard.repo import GitQuery, repository_of
from amplifier_hooks.guard.table import spelled

__all__ = ["git_losses", "no_git_losses"]

_ABORTS = frozenset({"merge", "rebase", "cherry-pick", "revert", "am"})
_ENDS_OR_SKIPS = frozenset({"--abort", "--skip"})
_OVERWRITING = frozenset({"-M", "-C"})
"""``git branch`` options that move or copy onto a branch that may exist (``--force`` too)."""
_NEW_BRANCH = frozenset({"-b", "-B", "--orphan", "--detach", "--branch", "--force-branch"})
_GIT_LOSSY = frozenset({"restore", "checkout", "switch", "rm", "mv", "branch", "tag",
                        "worktree", "fetch", "pull", "gc", *_ABORTS})  # fmt: skip
"""The git subcommands that may discard work this layer judges (others: the pack's rules)."""


def no_git_losses(args: tuple[str, ...]) -> bool:
    """Whether a git call of ``args`` discards nothing `git_losses` judges, told from its
    words alone (`git status`, `git log`)."""
    return _GIT_LOSSY.isdisjoint(args)


def git_losses(piece: Piece, places: Places) -> list[Loss]:
    """What the git call ``piece`` could discard, each with the question that tells."""
    if no_git_losses(piece.args):
        return []  # `git status`, `git log`: nothing to lose, nothing to read
    read = spelled("git", piece.args)
    if read is None:
        return []
    flags, operands, sub = read.flags, read.operands, read.subcommand or ""
    folder = _folder(piece, places)
    before = piece.args[: piece.args.index(sub)] if sub in piece.args else piece.args
    if "--git-dir" in flags or "--work-tree" in flags or any(a[:2] == "-C" for a in before):
        folder = None  # run elsewhere (git's own -C, not switch's): not asked
    if sub == "worktree" and "remove" in piece.args and "--force" in flags:
        return _worktree_loss(operands, piece, places)
    if sub == "branch" and "--delete" in flags and "--force" in flags:
        kind = "refs/remotes/" if "--remotes" in flags else "refs/heads/"
        refs = [kind + b for b in operands]
        return [_refs_loss(folder, refs, "the branch " + ", ".join(operands))]
    if sub == "branch" and operands and ("--force" in flags or not _OVERWRITING.isdisjoint(flags)):
        # `branch -f NAME`, `-M OLD NEW`: NAME (NEW) is reset, what only it reached goes
        moving = not {"--move", "--copy", "-M", "-C"}.isdisjoint(flags)
        name = operands[-1] if moving else operands[0]
        return [_refs_loss(folder, ["refs/heads/" + name], "the branch " + name)]
    if sub in ("checkout", "switch") and not _RESETS_BRANCH.isdisjoint(flags):
        name = _reset_branch(piece.args)  # `checkout -B NAME START`: NAME is reset
        what = "the branch " + (name or "it resets")
        return [_refs_loss(folder if name else None, ["refs/heads/" + name], what)]
    if sub == "tag" and "--delete" in flags:
        refs = ["refs/tags/" + t for t in operands]
        return [_refs_loss(folder, refs, "the tag " + ", ".join(operands))]
    if sub == "tag" and "--force" in flags and operands and _LISTS_TAGS.isdisjoint(flags):
        # `tag -f NAME [COMMIT]` moves NAME: what only it reached goes, as `branch -f`
        return [_refs_loss(folder, ["refs/tags/" + operands[0]], "the tag " + operands[0])]
    if sub == "gc" and "--prune" in flags and _prunes_recent(piece.args):
        return [Loss("git-loses-work", "the commits no ref or reflog keeps (dropped stashes, "
                     "reset commits)", None, certain=True)]  # fmt: skip
    if sub in ("fetch", "pull"):
        mapped = refmaps(piece.args) if "--refmap" in flags else ()
        if mapped is None:
            return [Loss("git-loses-work", "the local refs its --refmap names", None)]
        refs, unknown = fetched_refs(flags, operands, mapped)
        if unknown is not None:
            return [Loss("git-loses-work", unknown, None)]
        return [_refs_loss(folder, refs, "the local refs " + ", ".join(refs))] if refs else []
    if sub == "switch" and "--merge" in flags:
        # `switch -m` merges uncommitted changes into the other branch: a conflict leaves
        # them as markers in the file, and git cannot give the old text back
        root = repository_of(folder) if folder is not None else None
        ask = GitQuery("status", root, None) if root is not None else None
        return [Loss("git-loses-work", "the uncommitted changes it merges", ask, tracked_only=True)]
    if sub in _ABORTS and not _ENDS_OR_SKIPS.isdisjoint(flags):
        # `--abort` resets to where it began; `--skip` resets the commit it stopped on (with
        # whatever was resolved or changed by hand in tracked files)
        root = repository_of(folder) if folder is not None else None
        ask = GitQuery("status", root, None) if root is not None else None
        return [Loss("git-loses-work", "the changes made since the " + sub, ask, tracked_only=True)]
    if sub == "mv" and "--force" in flags and "--dry-run" not in flags:
        return _path_losses(_moved_onto(operands, folder), folder)
    if sub == "restore" and "--staged" in flags and "--worktree" not in flags:
        # the index goes back: staged text the worktree has changed again is then only a
        # dangling blob (git's facts: `Entry.staged_only`; none: no grant)
        losses = _path_losses(operands, folder)
        return [x._replace(what="the staged" + x.what[3:], staged_only=True) for x in losses]
    if not _discards_paths(sub, flags):
        return []
    if "--pathspec-from-file" in flags:
        return [Loss("git-loses-work", "the files listed in a file", None)]
    return _path_losses(operands, folder)


_LONG_AGO = re.compile(r"^(?:never|false|\d+\.(?:weeks?|months?|years?)\.ago)$")
"""``gc --prune=DATE`` values that keep what was lost lately (git's default: 2.weeks.ago)."""


def _prunes_recent(args: tuple[str, ...]) -> bool:
    """Whether ``git gc`` is told to prune objects lost lately (``--prune=now``, ``--prun=
    1.second.ago``: any prefix of ``--prune``); a bare ``--prune`` keeps git's default."""
    for arg in args:
        name, equals, value = arg.partition("=")
        if equals and len(name) > 3 and "--prune".startswith(name):
            return _LONG_AGO.match(value) is None
    return False


def _path_losses(specs: tuple[str, ...], folder: str | None) -> list[Loss]:
    """The changes to each of ``specs`` (paths from ``folder``), with git's question."""
    root = repository_of(folder) if folder is not None else None
    found: list[Loss] = []
    for spec in specs:
        what = f"the changes to {spec}"
        if root is None or folder is None or "$" in spec or spec.startswith(":"):
            # (`:(top)src/x`, `:!docs`, `:/x`: pathspec magic, not a name: cannot tell)
            found.append(Loss("git-loses-work", what, None))
            continue
        full = os.path.normpath(os.path.join(folder, spec))
        if full != root and not full.startswith(root.rstrip("/") + "/"):
            found.append(Loss("git-loses-work", what, None))
            continue
        relative = os.path.relpath(full, root) if full != root else "."
        found.append(
            Loss("git-loses-work", what, GitQuery("status", root, frozenset({relative})), relative)
        )
    return found


def _moved_onto(operands: tuple[str, ...], folder: str | None) -> tuple[str, ...]:
    """The paths ``git mv --force SRC... DEST`` overwrites: DEST itself, or DEST/NAME of
    each source when DEST is a folder (or there are several sources). ``--force`` replaces
    them whatever they hold: an untracked file, a tracked file's uncommitted changes."""
    if len(operands) < 2:
        return ()
    *sources, dest = operands
    into = len(sources) > 1 or dest.endswith("/")
    if not into and folder is not None and "$" not in dest:
        into = os.path.isdir(os.path.join(folder, dest))
    if not into:
        return (dest,)
    return tuple(os.path.join(dest, os.path.basename(s.rstrip("/"))) for s in sources)


_LISTS_TAGS = frozenset({"--list", "--verify", "--contains", "--points-at", "--merged"})
"""``git tag`` options that list or check tags: ``-f`` then moves nothing."""
_RESETS_BRANCH = frozenset({"-B", "--force-create"})
"""``checkout -B`` and ``switch -C``: create a branch, or reset it if it exists."""


def _reset_branch(args: tuple[str, ...]) -> str:
    """The branch ``checkout -B NAME``/``switch -C NAME`` resets ('' if unread)."""
    for index, arg in enumerate(args):
        if arg.startswith("--force-create="):
            return arg.partition("=")[2]
        short = arg[:1] == "-" and arg[1:2] != "-" and ("B" in arg or "C" in arg)
        if arg == "--force-create" or (short and arg[-1] in "BC"):
            return args[index + 1] if index + 1 < len(args) else ""
        if short:  # `-Bmain`
            return arg[max(arg.find("B"), arg.find("C")) + 1 :]
    return ""


def _discards_paths(sub: str, flags: frozenset[str]) -> bool:
    """Whether ``git SUB`` with ``flags`` overwrites or deletes the paths it is given:
    ``restore`` of the worktree, ``checkout`` of paths, ``rm --force``."""
    if sub == "restore":
        return not ("--staged" in flags and "--worktree" not in flags)
    if sub == "checkout":
        return _NEW_BRANCH.isdisjoint(flags)
    return sub == "rm" and "--force" in flags and "--cached" not in flags


def _folder(piece: Piece, places: Places) -> str | None:
    """The folder the piece runs in (None: unknown)."""
    cwd = piece.cwd
    if cwd is None:
        return None
    located = locate_all((cwd,), ".", places)[0]
    return None if "unknown" in located.where else located.path


def _refs_loss(folder: str | None, refs: list[str], what: str) -> Loss:
    root = repository_of(folder) if folder is not None else None
    if root is None or not refs or any("$" in r for r in refs):
        return Loss("git-loses-work", what, None)
    return Loss("git-loses-work", what, GitQuery("refs", root, frozenset(refs)))


def _worktree_loss(operands: tuple[str, ...], piece: Piece, places: Places) -> list[Loss]:
    paths = [o for o in operands if o != "remove"]
    located = locate_all(tuple(paths), piece.cwd, places)
    # --force is needed only when the worktree has changes or untracked files: asked
    # unless git's facts say nothing would be lost
    if len(located) != 1 or "unknown" in located[0].where:
        return [Loss("git-loses-work", "a worktree's changes", None, certain=True)]
    top = located[0].path
    what = f"the changes in the worktree {top}"
    if not os.path.exists(os.path.join(top, ".git")):
        return [Loss("git-loses-work", what, None, certain=True)]
    return [Loss("git-loses-work", what, GitQuery("status", top, None))]
