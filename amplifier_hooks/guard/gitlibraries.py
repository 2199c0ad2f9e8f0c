"""Libraries added to a project straight from a git repository: ``forge install
OWNER/REPO`` (Foundry fetches every library from GitHub, as a submodule under lib/) and
``git submodule add URL PATH``.

No registry or lock file vouches for such code, and every later build compiles it, so
adding one from an owner nobody knows is asked (rule ``install-from-git-forge``), as an
install from a git URL is (``install-from-url``). The libraries every Foundry project
starts from (forge-std, OpenZeppelin's, solmate, solady, Chainlink's, Uniswap's) come
from their well-known owners and are everyday work.

``git submodule add`` of a repository is everyday too (``git submodule add
https://github.com/acme/protos.git third_party/protos``); what is asked is a repository
checked out under another name (``.../openzepplin-contracts lib/openzeppelin-contracts``):
the folder then says the code is one library while it is another, the way a typosquat
passes for the package it imitates.
"""

from __future__ import annotations

from amplifier_hooks.guard.marking import mark_each
from amplifier_hooks.guard.model import Piece

__all__ = ["LIBRARY_FROM_GIT", "forge_library_unknown", "mark_renamed_submodules"]

LIBRARY_FROM_GIT = "@library-from-git"
_KNOWN_OWNERS = frozenset({"foundry-rs", "openzeppelin", "transmissions11", "vectorized",
                           "smartcontractkit", "uniswap", "paradigmxyz", "prb-math",
                           "paulrberg", "safe-global", "aave", "chainaccelorg",
                           "cyfrin", "dapphub", "eth-infinitism"})  # fmt: skip
"""GitHub owners (lower case) of the libraries Foundry projects commonly install."""
_FORGE_VALUED = frozenset({"--root", "--tag", "--branch", "--rev"})
_SUBMODULE_VALUED = frozenset({"-b", "--branch", "--name", "--reference", "--depth"})
_HOSTS = ("https://github.com/", "http://github.com/", "git@github.com:")


def forge_library_unknown(args: tuple[str, ...]) -> bool:
    """Whether ``forge install args`` (the words after ``install``) adds a library whose
    owner is not well known (a bare ``forge install`` fetches only the recorded ones)."""
    skip = False
    for arg in args:
        if skip or arg.startswith("-"):
            skip = not skip and arg in _FORGE_VALUED
            continue
        source = arg.partition("=")[2] or arg  # `forge install mylib=owner/repo`
        for host in _HOSTS:
            source = source.removeprefix(host)
        owner, slash, _ = source.partition("/")
        if not slash or owner.lower() not in _KNOWN_OWNERS:
            return True
    return False


def mark_renamed_submodules(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each ``git submodule add URL PATH`` whose folder takes another name
    than the repository's marked `LIBRARY_FROM_GIT` (the same tuple when none is)."""
    return mark_each(pieces, ("git",), _renamed_at)


def _renamed_at(pieces: tuple[Piece, ...], index: int) -> tuple[str, ...]:
    args = pieces[index].args
    if args[:2] != ("submodule", "add"):
        return ()
    words: list[str] = []
    skip = False
    for arg in args[2:]:
        if skip or arg.startswith("-"):  # `-b main`, `--name x`: read past their values
            skip = not skip and arg in _SUBMODULE_VALUED
            continue
        words.append(arg)
    if len(words) < 2:
        return ()
    repository = words[0].rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1]
    repository = repository.removesuffix(".git").lower()
    folder = words[1].rstrip("/").rsplit("/", 1)[-1].lower()
    return () if repository == folder else (LIBRARY_FROM_GIT,)
