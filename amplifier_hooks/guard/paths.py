"""Where a path argument points: resolved as the shell and the file system would, then
placed (inside the workspace, the home folder itself, a system folder, a protected file).

``~``, ``$HOME`` and ``cd`` before the command are applied, ``..`` collapsed and symlinks
followed. A path the guard cannot know (a variable, a substitution, a directory changed to
an unknown place) is placed ``unknown``: deny and ask rules may match it, allow rules never.
`pathplaces` says which places a resolved path is in; `realpaths` follows its symlinks.
"""

from __future__ import annotations

import os
import re
import stat

from amplifier_hooks.guard.braces import BRACES
from amplifier_hooks.guard.computedpaths import computed_heads, named_below
from amplifier_hooks.guard.globbed import globbed_own, named_folders, own_below_variable
from amplifier_hooks.guard.globplace import fixed_folder
from amplifier_hooks.guard.literals import fresh_temp
from amplifier_hooks.guard.memo import resolved
from amplifier_hooks.guard.model import KnownPlaces, Places, read_tmpdir
from amplifier_hooks.guard.pathplaces import (
    GLOB_CHARS,
    MEMO,
    forms_of,
    inside_places,
    people_place,
    places_of,
    with_protected,
)
from amplifier_hooks.guard.realpaths import real_path
from amplifier_hooks.guard.vardefaults import variable_defaults
from amplifier_hooks.guard.winpaths import home_path, windows_path

__all__ = ["GLOB_CHARS", "QUIET_DEVICES", "Located", "locate", "locate_all", "refresh"]

QUIET_DEVICES = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/1",
                           "/dev/fd/2", "/proc/self/fd/1", "/proc/self/fd/2"})  # fmt: skip
"""Devices a redirection writes to without changing any file (`2>/dev/null`): not a path
the piece changes, so no rule on deleted or written places sees them."""


class Located:
    """One resolved path and the places it is in; ``forms`` are the strings globs see:
    the absolute path, ``~/...`` under home, and the path relative to the workspace."""

    __slots__ = ("forms", "path", "where")

    def __init__(self, path: str, where: frozenset[str], forms: tuple[str, ...]) -> None:
        self.path = path
        self.where = where
        self.forms = forms


def _expand(raw: str, cwd: str | None, known: KnownPlaces) -> str | None:
    if raw.startswith("~"):
        head, _, rest = raw.partition("/")
        # `~dev` is the home folder of its own user (named like it), whoever runs the guard
        own = head == "~" or head[1:] == os.path.basename(known.home)
        user_home = known.home if own else os.path.expanduser(head)
        if user_home.startswith("~"):
            return None
        return os.path.join(user_home, rest) if rest else user_home
    if raw.startswith("/"):
        return raw
    if cwd is None:
        return None
    if cwd in (".", ""):
        return os.path.join(known.workspace, raw)
    base = _expand(cwd, ".", known)
    if base is None:
        return None
    return os.path.join(known.workspace, base, raw)


def locate(raw: str, cwd: str | None, places: Places) -> Located:
    """Resolve ``raw`` (as given to a program run in ``cwd``) and place it."""
    if resolved() is None:  # (a call refreshes once, when it begins)
        refresh(places)
    return _locate(raw, cwd, places.known)


def refresh(places: Places) -> None:
    """Read ``$TMPDIR`` again (once per tool call: a test run or a tool may change it);
    a new value forgets what was placed with the old one."""
    known = places.known
    tmpdir = read_tmpdir()
    if tmpdir != known.tmpdir:
        known.tmpdir = tmpdir
        known.where.clear()
        known.globbed.clear()
        known.inside = None


def locate_all(raws: tuple[str, ...], cwd: str | None, places: Places) -> tuple[Located, ...]:
    """`locate` of each of ``raws``, with ``$TMPDIR`` as `refresh` last read it."""
    if not raws:
        return ()
    known = places.known
    return tuple([_locate(raw, cwd, known) for raw in raws])  # (no generator: every call)


_NAME = r"\.?[^/.$`\x00{*?\[\\~][^/$`\x00{*?\[\\]*"
_PLAIN = re.compile(f"({_NAME}(?:/{_NAME})*)/?")
"""A relative path with nothing to expand, no glob, no ``.``/``..``, no ``//``: inside
the workspace as written (less a last ``/``), unless a folder on the way is a symlink."""


def _locate(raw: str, cwd: str | None, known: KnownPlaces) -> Located:
    memo = resolved()  # within one call, each path is resolved once (`memo`)
    if memo is None:
        return _resolve(raw, cwd, known)
    key = (raw, cwd, known)
    found: Located | None = memo.get(key)
    if found is None:
        found = memo[key] = _resolve(raw, cwd, known)
    return found


_EXPANDS = re.compile(r"\$(?!/|$)")
"""A ``$`` the shell may expand (a dynamic word keeps its ``$NAME``); one that ends the
word or a folder's name is literal (``go test -run 'TestX/empty$'``)."""


_NUMBERS = frozenset({"$!", "${!}", "$$", "${$}", "$?", "${?}", "$#", "${#}"})
"""Whole words the shell expands to a number (a process id, an exit status, a count): as
a path, a name of digits in the folder; ``$!`` with no job started is no word at all."""


def _resolve(raw: str, cwd: str | None, known: KnownPlaces) -> Located:
    inside = known.inside
    if inside is None:
        inside = known.inside = inside_places(known)
    if inside and cwd == "." and raw[1:2] != ":":  # (`C:/x`: `winpaths`)
        plain = _PLAIN.fullmatch(raw)
        if plain is not None:
            found = _plain(plain.group(1), inside, known)
            if found is not None:
                return found
    fresh = fresh_temp(raw) if raw.startswith("$(mktemp") else None
    if fresh is not None:  # `> "$(mktemp)"`: a new file of the temporary folder
        return _resolve(fresh, cwd, known)
    if raw in _NUMBERS:  # `strace -p $! -o x`: digits, or nothing (no job started)
        return _resolve("0", cwd, known)
    if _EXPANDS.search(raw) or "`" in raw or "\x00" in raw or ("{" in raw and BRACES.search(raw)):
        below = named_below(raw) if "$(basename" in raw else None
        if below is not None and inside:  # `dist/img/$(basename "$f").webp`
            probe = _resolve(f"{below[0]}/*{below[1]}", cwd, known)
            bare = _resolve(f"{below[0]}/{below[1]}", cwd, known)  # (`basename ""`)
            if probe.where == bare.where == inside:  # (nothing protected there)
                return Located(raw, inside, (raw, *probe.forms, *bare.forms))
        can = [
            _resolve(d, cwd, known)  # (`vardefaults`, `computedpaths`)
            for d in (*variable_defaults(raw), *computed_heads(raw))
        ]
        where = _UNKNOWN.union(own_below_variable(raw, known), *(c.where for c in can))
        return Located(raw, where, (raw, *(form for c in can for form in c.forms)))
    windowsy = raw[1:2] == ":" or raw[:2] in ("\\\\", "//") or raw.startswith("/mnt/")
    mapped = home_path(raw, known) if windowsy else None
    if mapped is not None and mapped != raw:  # the home folder as Windows names it
        return _resolve(mapped, cwd, known)
    windows = windows_path(raw, known)
    if windows is not None:
        return Located(*windows)
    expanded = _expand(raw, cwd, known)
    if expanded is None:
        return Located(raw, _UNKNOWN, (raw,))
    parent, _, last = expanded.rstrip("/").rpartition("/")
    globbed = not GLOB_CHARS.isdisjoint(last)
    if not GLOB_CHARS.isdisjoint(parent):
        resolved = os.path.normpath(expanded)
        if fixed_folder(expanded, known) is not None:  # `src/**/*.ts`: all below `src`
            return Located(resolved, places_of(resolved, known), forms_of(resolved, known))
        found = _globbed_folder(resolved, known)
        if found is not None:
            return found
        where = _UNKNOWN | places_of(resolved, known)
    else:
        resolved = os.path.join(real_path(parent or "/", known), last) if globbed else (
            real_path(expanded, known))  # fmt: skip
        where = places_of(resolved, known)
    forms = forms_of(resolved, known)
    if globbed:
        folder = os.path.dirname(resolved) or "/"
        if last.strip("*.") == "":
            # `rm -rf ~/*` empties the folder: place it where the folder is.
            where = where | (places_of(folder, known) - {"inside_workspace"})
        # `cat ~/.ssh/*` may read any file there: globs on the folder meet it too.
        forms += forms_of(folder, known)
        where |= globbed_own(folder, last, known)
    return Located(resolved, where, forms)


def _globbed_folder(path: str, known: KnownPlaces) -> Located | None:
    """``path``, a pattern in a folder name (``cat ~/.ss?/id_*``), as each sensitive folder
    it could name (None: none). Its hundred forms are a pure function of the path and the
    places, kept with the places (`KnownPlaces.globbed`): the same tuple at every call, so
    what the globs make of them is kept too (`globs.sifted`; find's ``-path '*/x'`` and
    ``./*/x``: the corpus's slowest cases)."""
    memo = known.globbed
    if path in memo:
        found = memo[path]
    else:
        if len(memo) >= MEMO:
            memo.clear()
        found = memo[path] = _named_places(path, known)
    return None if found is None else Located(path, found[0], found[1])


def _named_places(path: str, known: KnownPlaces) -> tuple[frozenset[str], tuple[str, ...]] | None:
    named = named_folders(path)
    if not named:
        return None
    where, forms = _UNKNOWN | places_of(path, known), forms_of(path, known)
    for folder in named:
        where |= places_of(folder, known) | globbed_own(*os.path.split(folder), known)
        forms += forms_of(folder, known) + forms_of(os.path.dirname(folder), known)
    return where, forms


def _plain(raw: str, inside: frozenset[str], known: KnownPlaces) -> Located | None:
    """A `_PLAIN` path run in the workspace, from one ``lstat`` per name below the
    workspace (which is real: `KnownPlaces.real`); None when one is a symlink (or cannot
    be asked), for `_resolve` to resolve in full."""
    workspace = known.workspace
    if workspace not in known.real:
        return None
    path = f"{workspace}/{raw}"
    start = len(workspace) + 1
    while True:
        end = path.find("/", start)
        try:
            mode = os.lstat(path if end < 0 else path[:end]).st_mode
        except OSError:
            break  # nothing below a missing name exists either
        except ValueError:
            return None
        if stat.S_ISLNK(mode):
            return None
        if end < 0:
            break
        start = end + 1
    if known.inside_protected:
        inside = with_protected(path, inside, known)
    if known.own.maybe(path):
        inside = inside | known.own.where(path, workspace)
    inside = inside | people_place(path)
    home = known.home
    if path.startswith(home.rstrip("/") + "/"):  # (inside it, and not home itself)
        return Located(path, inside, (path, "~/" + path[len(home) + 1 :], raw))
    return Located(path, inside, (path, raw))


_UNKNOWN = frozenset({"unknown"})
