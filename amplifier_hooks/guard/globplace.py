"""Where a path with a pattern in a folder name is placed when its matches cannot leave one
ordinary folder of the workspace (``prettier --write 'src/**/*.ts'``,
``markdownlint 'docs/**/*.md'``).

Bash expands a pattern name by name, never to ``.`` or ``..``, and (without ``dotglob``)
never to a name that starts with a ``.``; the glob libraries of formatters and linters
(prettier's, eslint's, markdownlint's) skip the same names. So when the names before the
first pattern spell a folder F, and no name after it is ``..`` or starts with a ``.``,
every match is a path below F, reached as a write of F itself reaches it (``prettier
--write src/``), which the guard places inside the workspace. `fixed_folder` says when
that holds and nothing the guard tells apart can be among the matches:

- F is strictly inside the workspace (the workspace's own top holds ``.git`` and the
  hosts' folders), which does not hold the home folder; no name on the way to F is a
  symlink, it is not in ``.git`` (whose hooks and config run code), and it neither is,
  is inside nor holds a protected place, a host's folder, a hook script or the guard's
  own files;
- a literal dot-name after the pattern is a tool's cache (``packages/*/.turbo``,
  `TOOL_CACHES`), matched as written;
- the last name cannot name a secret (`secrets.secret_kind`: ``*.pem``, ``id_*``, a
  backup such as ``*.bak``) nor a host's file kept under any folder (``opencode.json``):
  a pattern there must end in a plain extension (``*.ts``, ``test_*.py``), which no secret
  by name ends in.

Anything else keeps the doubt it has always had (`paths` places it ``unknown``). The rules'
globs still meet the path as written (``src/**/*.pem`` is a key by name). The answer is a
pure function of the path, the places and the file system's links: nothing is kept.
"""

from __future__ import annotations

import os
import re
import stat
from fnmatch import fnmatchcase

from amplifier_hooks.guard.model import KnownPlaces
from amplifier_hooks.guard.secrets import secret_kind

__all__ = ["TOOL_CACHES", "fixed_folder", "narrow", "plain_last_name"]

_WILD = re.compile(r"[*?\[]")
_EXTENSION = re.compile(r"(?:\.[a-z0-9_-]*[a-z0-9])+")
"""What a pattern's last name must end in after its last wildcard: ``.ts``, ``.test.ts``."""
_BRACES = re.compile(r"([^{}]*\.)\{([a-z0-9_,-]+)\}")
"""A last name ending in a set of extensions, ``*.{ts,tsx}`` (an extension each)."""
_BACKUPS = (".bak", ".old", ".orig", ".tmp", ".backup")
"""Backup suffixes `secrets` takes off before it matches a name (``id_rsa.bak``)."""
TOOL_CACHES = frozenset(
    {".turbo", ".next", ".nuxt", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".tox",
     ".nox", ".parcel-cache", ".svelte-kit", ".angular", ".eslintcache"}
)  # fmt: skip
"""Literal dot-names a build or test tool keeps its cache or output under, in any package of
a monorepo (``packages/*/.turbo``): no secret, no host's folder, made again by the tool."""
_TOP_NAMES = ("opencode.json", "opencode.jsonc")
"""The hosts' files kept under any folder whose names do not start with a ``.``
(`agents.HOSTS`' ``**/opencode.json``)."""


def fixed_folder(path: str, known: KnownPlaces) -> str | None:
    """The folder every match of ``path`` is below (absolute, with ``~`` and the working
    folder applied, not normalised; a pattern in a folder name), when it is an ordinary
    folder strictly inside the workspace and the matches cannot name a protected place or
    a secret by name (see the module's docstring); else None."""
    workspace = known.workspace
    if not path.startswith(workspace + "/") or "\\" in path or _WILD.search(workspace):
        return None
    home = known.home
    if workspace not in known.real or home == workspace or home.startswith(workspace + "/"):
        return None  # (a workspace holding the home folder holds the hosts' home places)
    names = [n for n in path[len(workspace) + 1 :].split("/") if n not in ("", ".")]
    first = next((i for i, n in enumerate(names) if _WILD.search(n)), None)
    if not first:  # no pattern, or one in the workspace's own first name
        return None
    fixed, rest = names[:first], names[first:]
    # (a set may take a leading `.` in another matcher; a tool's cache is a literal name)
    if ".." in fixed or any(n[:1] == "[" or (n[:1] == "." and n not in TOOL_CACHES)
                            for n in rest):  # fmt: skip
        return None
    if any(n.lower() == ".git" for n in fixed):  # (its hooks and config run code)
        return None
    if rest[-1] not in TOOL_CACHES and not plain_last_name(rest[-1]):
        return None
    folder = workspace + "/" + "/".join(fixed)
    end = len(workspace)
    while end >= 0:
        end = folder.find("/", end + 1)
        try:
            if stat.S_ISLNK(os.lstat(folder if end < 0 else folder[:end]).st_mode):
                return None
        except OSError:
            break  # nothing below a missing name exists either
        except ValueError:
            return None
    for protected in known.inside_protected:
        if _near(folder, protected):
            return None
    own = known.own
    if own.holds(folder) or (own.maybe(folder) and own.where(folder, workspace)):
        return None  # (`.claude/**/*.json`: a host's folder)
    return folder


def narrow(path: str) -> bool:
    """Whether ``path``, if a pattern (the files a path's ``glob``/``rglob`` yields in
    inline Python), names no more than its plain folders and a plain last name do: no
    ``..``, and a last name that names no secret (`plain_last_name`; Python's globs take
    dot-names too, so only the last name tells). A path with no pattern is narrow."""
    if not _WILD.search(path):
        return True
    names = path.split("/")
    return ".." not in names and plain_last_name(names[-1])


def plain_last_name(name: str) -> bool:
    """Whether a path's last name (a pattern or not) names no secret by name, no host's
    file kept under any folder, and no name that starts with a ``.``."""
    low = name.lower()
    braces = _BRACES.fullmatch(low)
    if braces is not None:  # `*.{ts,tsx,json}`: each spelling must be plain
        head, choices = braces.group(1), braces.group(2).split(",")
        return all(choice and plain_last_name(head + choice) for choice in choices)
    if low[:1] == "." or secret_kind(low) is not None:
        return False
    if any(fnmatchcase(top, low) for top in _TOP_NAMES):
        return False
    if not _WILD.search(low):
        return True
    tail = low[max(low.rfind(c) for c in "*?]") + 1 :]
    return (
        _EXTENSION.fullmatch(tail) is not None
        and not tail.endswith(_BACKUPS)
        and secret_kind("x" + tail) is None
    )


def _near(folder: str, place: str) -> bool:
    """``folder`` is ``place``, inside it, or holds it."""
    return folder == place or folder.startswith(place + "/") or place.startswith(folder + "/")
