"""Where a path argument points: resolved as the shell and the file system would, then
placed (inside the workspace, the home folder itself, a system folder, a protected file).

``~``, ``$HOME`` and ``cd`` before the command are applied, ``..`` collapsed and symlinks
followed. A path the guard cannot know (a variable, a substitution, a directory changed to
an unknown place) is placed ``unknown``: deny and ask rules may match it, allow rules never.
"""

from __future__ import annotations

import os
import re
import stat

from amplifier_hooks.guard.braces import BRACES
from amplifier_hooks.guard.globbed import globbed_own, named_by, named_folders, own_below_variable
from amplifier_hooks.guard.globplace import fixed_folder
from amplifier_hooks.guard.memo import resolved
from amplifier_hooks.guard.model import KnownPlaces, Places, read_tmpdir
from amplifier_hooks.guard.vardefaults import variable_defaults
from amplifier_hooks.guard.winpaths import home_path, windows_path

__all__ = ["GLOB_CHARS", "LOCATIONS", "QUIET_DEVICES", "Located", "locate", "locate_all", "refresh"]

GLOB_CHARS = frozenset("*?[")
"""Brace expansion: ``{~,/tmp}`` is two paths the guard does not resolve one by one."""
SYSTEM_DIRS = frozenset(
    {"/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/opt", "/proc",
     "/root", "/run", "/sbin", "/snap", "/srv", "/sys", "/usr", "/var", "/System", "/Library",
     "/Applications", "/private"}
)  # fmt: skip
TEMP_DIRS = ("/tmp", "/var/tmp", "/private/tmp")
QUIET_DEVICES = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"})
"""Devices a redirection writes to without changing any file (`2>/dev/null`): not a path
the piece changes, so no rule on deleted or written places sees them."""
LOCATIONS = frozenset(
    {"root", "system", "home", "under_home", "under_home_outside", "workspace_root",
     "inside_workspace", "outside_workspace", "above_workspace", "tmp", "device", "protected",
     "unknown", "agent_config", "agent_folder", "guard_installed", "guard_source",
     "guard_state"}
)  # fmt: skip
"""The names a rule's ``paths.where`` may use."""


class Located:
    """One resolved path and the places it is in; ``forms`` are the strings globs see:
    the absolute path, ``~/...`` under home, and the path relative to the workspace."""

    __slots__ = ("forms", "path", "where")

    def __init__(self, path: str, where: frozenset[str], forms: tuple[str, ...]) -> None:
        self.path = path
        self.where = where
        self.forms = forms


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


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


def _real(path: str, known: KnownPlaces) -> str:
    """``os.path.realpath(path)``, read from the file system on every call (a symlink the
    agent made a moment ago must be followed), but only below a folder already known to be
    real: ``tests/`` in the workspace costs one ``lstat``, not one per folder from ``/``;
    any other absolute path is walked from ``/`` the same way (realpath's own walk costs
    several times more: bench_guard's corpus table)."""
    for prefix in known.real:
        if path.startswith(prefix) and (len(path) == len(prefix) or path[len(prefix)] == "/"):
            found = _below(prefix, path[len(prefix) + 1 :])
            break
    else:
        found = _below("", path[1:]) if path[:1] == "/" else None
    if found is not None:
        return found
    try:
        return os.path.realpath(path)
    except (OSError, ValueError):
        return os.path.normpath(path)


def _below(prefix: str, rest: str) -> str | None:
    """``rest`` resolved below the real folder ``prefix`` ("": ``/``) by one ``lstat`` per
    name until one is missing (nothing below it exists either), as realpath resolves it;
    None when a name is a symlink or ``..`` (realpath then resolves it in full)."""
    parts = rest.split("/")
    if ".." in parts:
        return None  # `..` after a symlink climbs from where the link points
    resolved = prefix
    exists = True
    for part in parts:
        if not part or part == ".":  # (`find .`: the folder itself)
            continue
        resolved += "/" + part
        if not exists:
            continue
        try:
            mode = os.lstat(resolved).st_mode
        except OSError:
            exists = False  # nothing below a missing folder exists either
            continue
        except ValueError:
            return None
        if stat.S_ISLNK(mode):
            return None
    return resolved or "/"


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
    return tuple(_locate(raw, cwd, known) for raw in raws)


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


def _resolve(raw: str, cwd: str | None, known: KnownPlaces) -> Located:
    inside = known.inside
    if inside is None:
        inside = known.inside = _inside_places(known)
    if inside and cwd == "." and raw[1:2] != ":":  # (`C:/x`: `winpaths`)
        plain = _PLAIN.fullmatch(raw)
        if plain is not None:
            found = _plain(plain.group(1), inside, known)
            if found is not None:
                return found
    if _EXPANDS.search(raw) or "`" in raw or "\x00" in raw or ("{" in raw and BRACES.search(raw)):
        can = [_resolve(d, cwd, known) for d in variable_defaults(raw)]  # (`vardefaults`)
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
            return Located(resolved, _places(resolved, known), _forms(resolved, known))
        found = _globbed_folder(resolved, known)
        if found is not None:
            return found
        where = _UNKNOWN | _places(resolved, known)
    else:
        resolved = os.path.join(_real(parent or "/", known), last) if globbed else (
            _real(expanded, known))  # fmt: skip
        where = _places(resolved, known)
    forms = _forms(resolved, known)
    if globbed:
        folder = os.path.dirname(resolved) or "/"
        if last.strip("*.") == "":
            # `rm -rf ~/*` empties the folder: place it where the folder is.
            where = where | (_places(folder, known) - {"inside_workspace"})
        # `cat ~/.ssh/*` may read any file there: globs on the folder meet it too.
        forms += _forms(folder, known)
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
        if len(memo) >= _MEMO:
            memo.clear()
        found = memo[path] = _named_places(path, known)
    return None if found is None else Located(path, found[0], found[1])


def _named_places(path: str, known: KnownPlaces) -> tuple[frozenset[str], tuple[str, ...]] | None:
    named = named_folders(path)
    if not named:
        return None
    where, forms = _UNKNOWN | _places(path, known), _forms(path, known)
    for folder in named:
        where |= _places(folder, known) | globbed_own(*os.path.split(folder), known)
        forms += _forms(folder, known) + _forms(os.path.dirname(folder), known)
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
        inside = _with_protected(path, inside, known)
    if known.own.maybe(path):
        inside = inside | known.own.where(path, workspace)
    home = known.home
    if path.startswith(home.rstrip("/") + "/"):  # (`_inside`, and not home itself)
        return Located(path, inside, (path, "~/" + path[len(home) + 1 :], raw))
    return Located(path, inside, (path, raw))


_PROTECTED = frozenset({"protected"})
_HOLDS = frozenset({"agent_folder"})


def _with_protected(path: str, inside: frozenset[str], known: KnownPlaces) -> frozenset[str]:
    """``inside``, and ``protected`` when ``path`` is in a protected file or folder that is
    inside the workspace (a bundle file kept in the project)."""
    for protected in known.inside_protected:
        if _inside(path, protected):
            return inside | _PROTECTED
        if _inside(protected, path):
            return inside | _HOLDS  # a folder holding one: deleted or moved, it goes too
    return inside


_UNKNOWN = frozenset({"unknown"})
_MEMO = 4096
"""Resolved paths remembered per `Places` (each memo is cleared when it is full)."""


def _places(path: str, known: KnownPlaces) -> frozenset[str]:
    # Memoised: a pure function of already-resolved text and the places (the file system
    # is read by `_real`, which is never memoised).
    inside = known.inside
    if inside is None:
        inside = known.inside = _inside_places(known)
    workspace = known.workspace
    if inside and len(path) > len(workspace) + 1 and path.startswith(workspace + "/"):
        if known.inside_protected:
            inside = _with_protected(path, inside, known)
        own = known.own
        return inside | own.where(path, workspace) if own.maybe(path) else inside
    found = known.where.get(path)
    if found is None:
        if len(known.where) >= _MEMO:
            known.where.clear()
        found = known.where[path] = _place(path, known)
    return found


def _inside_places(known: KnownPlaces) -> frozenset[str]:
    """The places of any path strictly inside the workspace, when no place that tells such
    paths apart (home, a temporary folder, ``/dev``) is inside it, else nothing (each such
    path is then placed on its own); ``protected`` apart: see `_with_protected`."""
    workspace = known.workspace
    special: tuple[str, ...] = (known.home, "/dev", *TEMP_DIRS)
    if known.tmpdir:
        special += (known.tmpdir.rstrip("/"),)
    if workspace == "/" or any(_inside(s, workspace) for s in special):
        return frozenset()
    # A name no file can have: a protected file inside the workspace is never it (a
    # protected folder the workspace is in still is, for every path of it).
    return _place(workspace + "/\x00", known)


def _place(path: str, known: KnownPlaces) -> frozenset[str]:
    where: set[str] = set()
    workspace, home, tmpdir = known.workspace, known.home, known.tmpdir
    in_workspace, in_home = _inside(path, workspace), _inside(path, home)
    if path == "/":
        where.add("root")
    if path == workspace:
        where.add("workspace_root")
    elif in_workspace:
        where.add("inside_workspace")
    if not in_workspace:
        where.add("outside_workspace")
        if _inside(workspace, path):
            where.add("above_workspace")
    if _inside(home, path):
        where.add("home")
    elif in_home:
        where.add("under_home")
        if not in_workspace:  # another project, personal files
            where.add("under_home_outside")
    top = "/" + path.split("/", 2)[1] if path != "/" else "/"
    if (
        (top in SYSTEM_DIRS or (path.count("/") == 1 and path != "/"))
        and not in_workspace
        and not in_home
        and not any(_inside(path, t) for t in TEMP_DIRS)
    ):
        where.add("system")
    # A workspace in a temporary folder is the workspace, not scratch space.
    if (not in_workspace and any(_inside(path, t) and path != t for t in TEMP_DIRS)) or (
        tmpdir
        and _inside(path, tmpdir.rstrip("/"))
        and not (in_workspace and _inside(workspace, tmpdir.rstrip("/")))
    ):
        where.add("tmp")
    if _inside(path, "/dev"):
        where.add("device")
    if any(_inside(path, p) for p in known.protected):
        where.add("protected")
    elif path not in (home, workspace, "/") and any(_inside(p, path) for p in known.protected):
        where.add("agent_folder")
    return frozenset(where) | known.own.where(path, workspace)


def _forms(path: str, known: KnownPlaces) -> tuple[str, ...]:
    found = known.forms.get(path)
    if found is None:
        if len(known.forms) >= _MEMO:
            known.forms.clear()
        forms = [path]
        home, workspace = known.home, known.workspace
        if _inside(path, home) and path != home:
            forms.append("~/" + path[len(home) + 1 :])
        if _inside(path, workspace) and path != workspace:
            forms.append(path[len(workspace) + 1 :])
        parent, _, last = path.rpartition("/")
        if not GLOB_CHARS.isdisjoint(last) and GLOB_CHARS.isdisjoint(parent):
            # `.[g]it` is `.git` too, where rules name it: each form of what it could be
            forms += [f for name in named_by(last) for f in _forms(f"{parent}/{name}", known)]
        found = known.forms[path] = tuple(forms)
    return found
