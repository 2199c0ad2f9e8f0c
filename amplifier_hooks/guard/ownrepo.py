"""The workspace's own repository on its forge, told apart from another project's.

An issue, a pull request or a comment posted in another project's repository (``gh
issue create --repo rust-lang/cargo``, GitHub's MCP ``create_issue`` with ``owner`` and
``repo``) is read at once by that project's maintainers and watchers as the person's
words: the pack asks (``github-post-elsewhere``). In the workspace's own repository it
is the agent's everyday work (``gh pr create``). The own repository is the one the
workspace's ``origin`` remote names (``.git/config``, read once per workspace in a
process, at most `_MAX_CONFIG` bytes: a worktree's ``.git`` file is followed to its
repository's config); with no ``origin`` to read, one named as the workspace's folder is
taken as its own (a clone is made in a folder of its repository's name).

A gh call that names its own repository with ``--repo``/``-R`` is read as the same call
without it (`mark_own_repo`): it posts where a call with no ``--repo`` would.
"""

from __future__ import annotations

import functools
import os
import re

from amplifier_hooks.guard.model import Piece, Places

__all__ = ["is_own", "mark_own_repo", "origin_repository"]

_MAX_CONFIG = 256 * 1024
_SECTION = re.compile(r'^\s*\[\s*remote\s+"origin"\s*\]\s*$')
_URL = re.compile(r"^\s*url\s*=\s*(\S+)\s*$")
_REPO_IN_URL = re.compile(r"(?:^|[:/])([\w.-]+)/([\w.-]+?)(?:\.git)?/?$")
_REPO_OPTIONS = frozenset({"--repo", "-R"})
_POSTS = frozenset({"issue", "pr"})


@functools.lru_cache(maxsize=16)
def origin_repository(workspace: str) -> str | None:
    """``owner/name`` (lower case) of the workspace's ``origin`` remote, or None."""
    config = _config_file(workspace)
    if config is None:
        return None
    try:
        with open(config, encoding="utf-8", errors="replace") as file:
            text = file.read(_MAX_CONFIG)
    except OSError:
        return None
    inside = False
    for line in text.splitlines():
        if line.lstrip().startswith("["):
            inside = _SECTION.match(line) is not None
        elif inside and (url := _URL.match(line)) is not None:
            found = _REPO_IN_URL.search(url.group(1))
            return f"{found.group(1)}/{found.group(2)}".lower() if found else None
    return None


def _config_file(workspace: str) -> str | None:
    dot_git = os.path.join(workspace, ".git")
    if os.path.isdir(dot_git):
        return os.path.join(dot_git, "config")
    try:
        with open(dot_git, encoding="utf-8", errors="replace") as file:
            line = file.read(4096).strip()
    except OSError:
        return None
    if not line.startswith("gitdir:"):
        return None
    gitdir = os.path.join(workspace, line.removeprefix("gitdir:").strip())
    try:  # a worktree's folder names its repository's (`commondir`)
        with open(os.path.join(gitdir, "commondir"), encoding="utf-8") as file:
            gitdir = os.path.join(gitdir, file.read(4096).strip())
    except OSError:
        pass
    return os.path.join(gitdir, "config")


def is_own(repo: str, places: Places) -> bool:
    """Whether ``repo`` (``owner/name``, ``host/owner/name`` or a URL) is the
    workspace's own repository."""
    found = _REPO_IN_URL.search(repo.strip())
    if found is None:
        return False
    owner, name = found.group(1).lower(), found.group(2).lower()
    workspace = places.known.workspace
    origin = origin_repository(workspace)
    if origin is not None:
        return origin == f"{owner}/{name}"
    return name == os.path.basename(workspace.rstrip("/")).lower()


def mark_own_repo(pieces: tuple[Piece, ...], places: Places) -> tuple[Piece, ...]:
    """``pieces`` with each gh issue or pull request call's ``--repo OWN`` left out."""
    out: list[Piece] | None = None
    for index, piece in enumerate(pieces):
        if piece.program != "gh" or _POSTS.isdisjoint(piece.args):
            continue
        args = _without_own(piece.args, places)
        if args is not piece.args:
            out = out or list(pieces)
            out[index] = piece._replace(args=args)
    return pieces if out is None else tuple(out)


def _without_own(args: tuple[str, ...], places: Places) -> tuple[str, ...]:
    kept: list[str] = []
    skip = changed = False
    for index, arg in enumerate(args):
        if skip:
            skip = False
            continue
        name, equals, value = arg.partition("=")
        if arg in _REPO_OPTIONS and index + 1 < len(args) and is_own(args[index + 1], places):
            skip = changed = True
            continue
        if equals and name in _REPO_OPTIONS and is_own(value, places):
            changed = True
            continue
        if arg.startswith("-R") and len(arg) > 2 and not equals and is_own(arg[2:], places):
            changed = True
            continue
        kept.append(arg)
    return tuple(kept) if changed else args
