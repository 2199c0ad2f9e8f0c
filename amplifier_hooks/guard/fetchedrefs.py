"""The local branches and tags a ``git fetch`` or ``git pull`` may move back or delete.

A refspec ``SRC:DST`` writes the local ref DST; forced (``+SRC:DST``, or ``--force``) it
moves DST wherever SRC is, and the commits only DST reached go with it, as with ``git
branch -f``. Without force git only fast-forwards DST (nothing is lost). ``--prune`` deletes
each DST a refspec's pattern names that the remote no longer has (with ``--prune-tags``:
every local tag the remote does not have). A refspec with no DST, or one into
``refs/remotes/`` (the remote's own copies), loses no local work. ``tag NAME`` is the
refspec ``refs/tags/NAME:refs/tags/NAME``, and each ``--refmap`` refspec maps the refs named
on the command line as a refspec of its own does. ``--force --tags`` (or
``+refs/tags/*:refs/tags/*``) moves every local tag the remote has another commit for: a
pattern is given as it is. A tag keeps no reflog, and an annotated tag's own object (its
message, its signature) goes even when a branch still reaches its commit: git's facts
(`repo`) say a tag is lost when it is there at all; a branch, when it alone reaches some
commit.
"""

from __future__ import annotations

__all__ = ["fetched_refs", "refmaps"]

_LOCAL = ("refs/heads/", "refs/tags/")


def fetched_refs(flags: frozenset[str], operands: tuple[str, ...],
                 mapped: tuple[str, ...] = ()) -> tuple[list[str], str | None]:  # fmt: skip
    """(the local refs a forced refspec moves, why the guard cannot tell: None when it can)
    of ``git fetch``/``git pull`` with ``flags``, ``operands`` (the remote, then its
    refspecs) and ``mapped`` (its ``--refmap`` refspecs, `refmaps`)."""
    forced = "--force" in flags
    pruned = "--prune" in flags
    # `--prune --prune-tags` deletes the local tags the remote lacks: any local tag
    every_tag = (forced and "--tags" in flags) or (pruned and "--prune-tags" in flags)
    refs: list[str] = ["refs/tags/*"] if every_tag else []
    specs = list(operands[1:])
    while "tag" in specs[:-1]:  # `tag NAME`: the tag fetched into the tag of that name
        at = specs.index("tag")
        specs[at : at + 2] = [f"refs/tags/{specs[at + 1]}:refs/tags/{specs[at + 1]}"]
    for spec in (*specs, *mapped):
        plus = spec.startswith("+")
        _, colon, dst = spec.removeprefix("+").partition(":")
        if not colon or not dst:
            continue  # FETCH_HEAD only: no local ref written
        ref = dst if dst.startswith("refs/") else "refs/heads/" + dst
        if not ref.startswith(_LOCAL):
            continue  # the remote's copies, kept by git for it
        if "*" in ref and not (forced or plus or pruned):
            continue
        if forced or plus or "*" in ref:  # (a pattern pruned: its refs the remote lacks go)
            refs.append(ref)
    return refs, None


def refmaps(args: tuple[str, ...]) -> tuple[str, ...] | None:
    """The ``--refmap`` refspecs among ``args`` (``--refmap=SPEC``, ``--refmap SPEC``, or
    a prefix of the name git takes for it), or None when one's value cannot be read."""
    found: list[str] = []
    for index, arg in enumerate(args):
        if arg == "--":
            break
        name, equals, value = arg.partition("=")
        if len(name) < 6 or not "--refmap".startswith(name):
            continue
        if not equals:
            if index + 1 >= len(args):
                return None
            value = args[index + 1]
        found.append(value)
    return tuple(v for v in found if v)
