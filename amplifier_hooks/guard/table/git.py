"""git: its global options, then one entry per subcommand.

What git runs on its own (hooks, filters and drivers from the repository's configuration)
is the repository's state, which the guard guards where it is written (``.git/config``,
``.git/hooks``: asked); what a call adds to it (``-c``, ``GIT_*`` variables, ``--exec``,
``-x``, an editor) is judged here. A push or fetch reaches a remote the repository names;
one given as a URL or path is doubtful. Commands that discard work (``checkout`` of paths,
``restore``, ``stash -u``, ``clean``) write or delete what they name.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import NamedTuple

from amplifier_hooks.guard.table.acts import Act, Does, Reading, acts_of, doubtful
from amplifier_hooks.guard.table.entries import Entry, option_acts
from amplifier_hooks.guard.table.git_options import (
    ADD,
    AM,
    APPLY,
    BISECT,
    BLAME,
    BRANCH,
    CHECKOUT,
    CLEAN,
    COMMIT,
    CONFIG,
    DIFF,
    FETCH,
    GC,
    GLOBAL,
    GREP,
    HELP,
    INIT,
    LOG,
    LS_REMOTE,
    MERGE,
    MV,
    NOTES,
    PICK,
    PULL,
    PUSH,
    READING,
    REBASE,
    REFLOG,
    REMOTE,
    RESET,
    RESTORE,
    RM,
    SAFE_CONFIG,
    SHORTLOG,
    SHOW,
    STASH_APPLY,
    STASH_CLEAR,
    STASH_DROP,
    STASH_PUSH,
    STATUS,
    SWITCH,
    TAG,
    VERSION,
    WORKTREE,
)
from amplifier_hooks.guard.table.git_submodule import submodule_reading
from amplifier_hooks.guard.table.options import Options, Read, Spelled, read_options

__all__ = ["GIT", "GitRead", "git", "git_read", "git_spelled"]

_REMOTE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


def _acts(read: Read) -> Reading:
    """What the options do (``--output``, ``--exec``, ``-O``); the operands are names."""
    return Reading(option_acts(read))


def _reads(read: Read) -> Reading:
    return Reading(option_acts(read) + acts_of(Does.READ, read.operands))


def _grep(read: Read) -> Reading:
    """git grep searches the repository's files by name; with ``--no-index`` its operands
    after the pattern are any files or folders (``git grep --no-index token ~``): read."""
    if not read.has("no-index"):
        return Reading(option_acts(read))
    given = read.values("pattern") or read.values("read")
    files = read.operands if given else read.operands[1:]
    return Reading(option_acts(read) + acts_of(Does.READ, files))


def _named() -> Callable[[Read], Reading]:
    """fetch, pull, push, ls-remote: the first operand names a remote the repository knows; a URL or
    a path reaches somewhere else."""

    def check(read: Read) -> Reading:
        remote = read.operands[:1]
        if remote and _REMOTE_NAME.match(remote[0]) is None:  # (and what its options run)
            return Reading((Act(Does.NETWORK, remote[0]), *option_acts(read)))
        return Reading(option_acts(read))

    return check


def _push(read: Read) -> Reading:
    """A push publishes commits (or tags) where others take them from: never granted,
    the host decides (the rules deny or ask for force-pushes and protected branches)."""
    return doubtful("git push publishes to a remote, outside the machine")


def _commit(read: Read) -> Reading:
    if not read.values("message") and not read.has("message"):
        return doubtful("git commit with no message opens an editor")
    return Reading(option_acts(read) + acts_of(Does.READ, read.operands))


def _tag(read: Read) -> Reading:
    makes = any(g.opt.names[0] in ("-a", "-s") for g in read.given)
    if makes and not read.values("message"):
        return doubtful("an annotated tag with no message opens an editor")
    return Reading(option_acts(read))


def _checkout(read: Read, dashes: bool) -> Reading:
    if read.has("create") or read.values("create"):
        return Reading(option_acts(read)) if len(read.operands) <= 1 else doubtful(
            "git checkout -b with paths")  # fmt: skip
    if dashes or len(read.operands) > 1:
        return doubtful("git checkout of paths discards their uncommitted changes")
    if read.operands:
        return doubtful(f"git checkout {read.operands[0]} restores a file of that name if "
                        "there is no such branch")  # fmt: skip
    return Reading()


def _restore(read: Read) -> Reading:
    if read.has("staged") and not read.has("worktree"):
        return Reading(acts_of(Does.READ, read.operands))
    return doubtful("git restore discards the uncommitted changes of what it names")


def _stash(args: tuple[str, ...]) -> Reading:
    sub = args[0] if args and not args[0].startswith("-") else "push"
    rest = args[1:] if args and not args[0].startswith("-") else args
    if sub in ("list", "show"):
        return _run(LOG, rest, _reads)
    if sub in ("push", "save"):
        read = read_options(STASH_PUSH, rest)
        if read.doubt is None and read.has("untracked"):
            # the untracked files under the pathspecs (else the whole worktree) leave it
            return _deleting(read.operands or (".",))
        return _finish(read, lambda r: Reading(acts_of(Does.READ, r.operands)))
    if sub in ("pop", "apply"):
        return _run(STASH_APPLY, rest, lambda r: Reading(acts_of(Does.WRITE, ("."))))
    if sub == "branch":
        return Reading()
    return doubtful(f"git stash {sub} loses or rewrites stashed work")


def _rm(read: Read) -> Reading:
    if read.has("cached"):  # the index only: the files stay, and their text is not read
        return Reading(option_acts(read))
    if read.has("dry"):
        return Reading(acts_of(Does.READ, read.operands))
    return _deleting(read.operands)


def _deleting(pathspecs: tuple[str, ...]) -> Reading:
    """A pattern or magic pathspec (``'*.json'``, ``:/``) matches in every folder of the
    repository, files nobody listed (an agent's hook settings among them): no grant."""
    if any(s.startswith(":") or not _WILD.isdisjoint(s) for s in pathspecs):
        return doubtful("git matches a pathspec pattern in every folder of the repository")
    return Reading(acts_of(Does.DELETE, pathspecs))


_WILD = frozenset("*?[")


def _mv(read: Read) -> Reading:
    if len(read.operands) < 2:
        return doubtful("git mv needs a source and a destination")
    sources, destination = read.operands[:-1], read.operands[-1]
    return Reading((*acts_of(Does.DELETE, sources), Act(Does.WRITE, destination)))


def _clean(read: Read) -> Reading:
    if read.has("dry"):
        return Reading()
    return Reading(acts_of(Does.DELETE, read.operands or (".",)))


_SECRET_KEY = re.compile(r"token|passw|secret|api_?key|extraheader", re.IGNORECASE)
"""A config key's last name that says it holds a secret (``github.token``,
``user.password``, ``http.<url>.extraheader``, which carries an Authorization header):
reading it prints the secret (no grant)."""


def _config(read: Read) -> Reading:
    operands = read.operands
    if any(_SECRET_KEY.search(o.rpartition(".")[2]) for o in operands):
        return doubtful("git config reads or sets a key whose name says it holds a secret")
    dump = read.has("dump") or operands[:1] in (("list",), ("get-regexp",), ("get-urlmatch",))
    if dump and not read.has("names"):
        return doubtful("git config prints many keys' values at once, tokens among them")
    if read.has("get") or read.has("dump"):
        return Reading(option_acts(read))
    if operands[:1] in (("get",), ("list",)) or len(operands) == 1:
        return Reading(option_acts(read))
    return doubtful("git config changes git's settings (which can make it run commands)")


def _listing(allowed: frozenset[str]) -> Callable[[Read], Reading]:
    def check(read: Read) -> Reading:
        if read.operands and read.operands[0] not in allowed:
            return doubtful(f"this git subcommand's {read.operands[0]!r} changes the repository")
        return Reading()

    return check


def _branch(read: Read) -> Reading:
    return Reading(option_acts(read))


def _finish(read: Read, check: Callable[[Read], Reading]) -> Reading:
    if read.doubt is not None:
        return doubtful(read.doubt)
    for given in read.given:
        if given.opt.does == "doubt" and not given.negated:
            return doubtful(f"git {given.opt.names[0]} is not read by the guard")
    return check(read)


def _run(options: Options, args: tuple[str, ...], check: Callable[[Read], Reading]) -> Reading:
    return _finish(read_options(options, args), check)


SUBCOMMANDS: dict[str, tuple[Options, Callable[[Read], Reading]]] = {
    "status": (STATUS, _reads),
    "log": (LOG, _reads),
    "show": (SHOW, _reads),
    "diff": (DIFF, _reads),
    "whatchanged": (LOG, _reads),
    "shortlog": (SHORTLOG, _reads),
    "blame": (BLAME, _reads),
    "annotate": (BLAME, _reads),
    "add": (ADD, _reads),
    "commit": (COMMIT, _commit),
    "fetch": (FETCH, _named()),
    "ls-remote": (LS_REMOTE, _named()),
    "pull": (PULL, _named()),
    "push": (PUSH, _push),
    "branch": (BRANCH, _branch),
    "switch": (SWITCH, _acts),
    "restore": (RESTORE, _restore),
    "rm": (RM, _rm),
    "mv": (MV, _mv),
    "clean": (CLEAN, _clean),
    "config": (CONFIG, _config),
    "tag": (TAG, _tag),
    "merge": (MERGE, _acts),
    "rebase": (REBASE, _acts),
    "cherry-pick": (PICK, _acts),
    "revert": (PICK, _acts),
    "init": (INIT, lambda r: Reading(acts_of(Does.WRITE, r.operands))),
    "ls-files": (READING, _acts),
    "ls-tree": (READING, _acts),
    "rev-parse": (READING, _acts),
    "rev-list": (LOG, _acts),
    "describe": (READING, _acts),
    "cat-file": (READING, _acts),
    "show-ref": (READING, _acts),
    "for-each-ref": (READING, _acts),
    "merge-base": (READING, _acts),
    "name-rev": (READING, _acts),
    "count-objects": (READING, _acts),
    "check-ignore": (READING, _acts),  # names, matched against .gitignore: no text is read
    "check-attr": (READING, _acts),
    "grep": (GREP, _grep),
    "worktree": (WORKTREE, _listing(frozenset({"list"}))),
    "remote": (REMOTE, _listing(frozenset({"show", "get-url"}))),
    "reflog": (REFLOG, _listing(frozenset({"show", "list", "exists"}))),
    "gc": (GC, _acts),
    "notes": (NOTES, _listing(frozenset({"list", "show"}))),
    "bisect": (
        BISECT,
        _listing(
            frozenset({"start", "good", "bad", "new", "old", "skip", "reset", "log", "terms"})
        ),
    ),
    "version": (VERSION, _acts),
    "help": (HELP, _acts),
}


def git(args: tuple[str, ...]) -> Reading:
    """git's global options, then its subcommand's entry."""
    read = read_options(GLOBAL, args)
    if read.doubt is not None:
        return doubtful(read.doubt)
    doubt = _global_doubt(read)
    if not read.operands:
        return Reading() if doubt is None else doubtful(doubt)
    subcommand, rest = read.operands[0], tuple(args[len(args) - len(read.operands) + 1 :])
    if subcommand == "submodule":  # (`git -C sub submodule foreach CMD` still runs CMD)
        foreach = submodule_reading(rest)
        return foreach if doubt is None else Reading(foreach.acts, doubt)
    if doubt is not None:
        return doubtful(doubt)
    if subcommand == "stash":
        return _stash(rest)
    if subcommand == "checkout":
        dashes = "--" in rest
        return _run(CHECKOUT, rest, lambda r: _checkout(r, dashes))
    found = SUBCOMMANDS.get(subcommand)
    if found is None:
        return doubtful(f"git {subcommand} is not in the guard's table")
    options, check = found
    return _run(options, rest, check)


def _global_doubt(read: Read) -> str | None:
    """Why git's global options keep the call from a grant (none: they change nothing)."""
    for given in read.given:
        does = given.opt.does
        if does == "doubt":
            return f"git {given.opt.names[0]} is not read by the guard"
        if does == "config" and not SAFE_CONFIG.match(given.value or ""):
            return f"git -c {given.value} may make git run a command"
        if does == "chdir":
            return "git -C runs git in another folder (its paths are read from there)"
    return None


GIT: dict[str, Entry] = {"git": git}


_SPECS: dict[str, Options] = {
    **{sub: options for sub, (options, _) in SUBCOMMANDS.items()},
    "checkout": CHECKOUT, "reset": RESET, "am": AM, "apply": APPLY,
}  # fmt: skip
"""Every subcommand whose options the table reads, for the rules (some never granted)."""
_STASH = {"push": STASH_PUSH, "save": STASH_PUSH, "pop": STASH_APPLY, "apply": STASH_APPLY,
          "drop": STASH_DROP, "clear": STASH_CLEAR, "list": LOG, "show": LOG}  # fmt: skip
_FORCED = frozenset({"--force", "-f"})
_DRY = frozenset({"--dry-run", "-n"})
"""A dry run of a push: the rules on what a push changes see no ref, flag or remote."""


class GitRead(NamedTuple):
    """A git command line as git reads it: its global options, the subcommand, and the
    subcommand's options and operands."""

    top: Read
    subcommand: str | None
    """None: none given (``git --version``)."""
    read: Read | None
    """None: the table does not read this subcommand's options."""
    rest: tuple[str, ...]
    """The words after the subcommand."""


@lru_cache(maxsize=4096)  # pure: the rules, `places` and the settings a call runs read it alike
def git_read(args: tuple[str, ...]) -> GitRead:
    """``git ARGS`` as git reads them."""
    top = read_options(GLOBAL, args)
    if not top.operands:
        return GitRead(top, None, None, ())
    subcommand, rest = top.operands[0], tuple(args[len(args) - len(top.operands) + 1 :])
    spec = _SPECS.get(subcommand)
    if subcommand == "stash":
        word = next((w for w in rest if not w.startswith("-")), "push")
        spec = _STASH.get(word, STASH_PUSH if rest[:1] and rest[0][:1] == "-" else None)
    return GitRead(top, subcommand, None if spec is None else read_options(spec, rest), rest)


def git_spelled(args: tuple[str, ...]) -> Spelled | None:
    """git's global options and its subcommand's, as git reads them (None: a subcommand
    the table does not read). ``branch -D`` is ``--delete --force`` and the other way
    round; a ``+`` in a push's refspec (``+main``, ``a:+b``) is ``--force`` for that ref."""
    top, subcommand, read, _ = git_read(args)
    if subcommand is None or read is None:
        return None
    flags = top.flags()
    if subcommand == "branch":
        given = read.flags()
        if "-D" in given:
            flags |= {"--delete", "--force"}
        elif {"--delete", "--force"} <= given:
            flags |= {"-D"}
    operands = read.operands
    if subcommand == "push" and read.has("dry"):  # `-n`: pushes nothing, whatever else
        dry = Spelled(top.flags() | _DRY, (), (), subcommand, read.doubt)
        return dry if top.doubt is None else dry._replace(doubt=top.doubt)
    if subcommand == "push" and any("+" in spec for spec in operands[1:]):
        flags |= _FORCED
    spelled = Spelled.of(read, subcommand, flags)
    return spelled if top.doubt is None else spelled._replace(doubt=top.doubt)
