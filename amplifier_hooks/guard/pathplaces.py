"""Which places a resolved path is in (inside the workspace, the home folder itself, a
system folder, a temporary one, a protected file, one of the hosts' or the guard's own:
`LOCATIONS`), and the forms of it that globs see. `paths` resolves the path first; this
module only reads text, so what it finds is kept per `KnownPlaces` (the file system is read
by `realpaths`, which keeps nothing).
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.globbed import named_by
from amplifier_hooks.guard.model import KnownPlaces
from amplifier_hooks.guard.peopledata import people_export, test_data
from amplifier_hooks.guard.privatestores import PRIVATE_PLACES, private_places

__all__ = ["GLOB_CHARS", "LOCATIONS", "MEMO", "forms_of", "inside_places", "people_place",
           "places_of", "with_protected"]  # fmt: skip

GLOB_CHARS = frozenset("*?[")
"""Brace expansion: ``{~,/tmp}`` is two paths the guard does not resolve one by one."""
SYSTEM_DIRS = frozenset(
    {"/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/opt", "/proc",
     "/root", "/run", "/sbin", "/snap", "/srv", "/sys", "/usr", "/var", "/System", "/Library",
     "/Applications", "/private"}
)  # fmt: skip
TEMP_DIRS = ("/tmp", "/var/tmp", "/private/tmp")
LOCATIONS = frozenset(
    {"root", "system", "home", "under_home", "under_home_outside", "workspace_root",
     "inside_workspace", "outside_workspace", "above_workspace", "tmp", "device", "protected",
     "unknown", "agent_config", "agent_folder", "guard_installed", "guard_source",
     "guard_state", "other_home", "people_data"} | PRIVATE_PLACES
)  # fmt: skip
"""The names a rule's ``paths.where`` may use."""
_PEOPLE_DATA = frozenset({"people_data"})
_TABLE = re.compile(r"\.(?:csv|tsv|json|jsonl|ndjson|xlsx|xls|parquet)(?:\.gz|\.zip)?$", re.I)
_TABLE_LAST = frozenset("vnlxstzpVNLXSTZP\n")
"""The last character of every name `_TABLE` matches, in either case (or the line end its
``$`` may stand before): a path ending in any other ASCII character is no table, told
before the search (every path placed in the workspace asks: `bench_guard`'s fresh row)."""
MEMO = 4096
"""Resolved paths remembered per `Places` (each memo is cleared when it is full)."""


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


_PROTECTED = frozenset({"protected"})
_HOLDS = frozenset({"agent_folder"})


def with_protected(path: str, inside: frozenset[str], known: KnownPlaces) -> frozenset[str]:
    """``inside``, and ``protected`` when ``path`` is in a protected file or folder that is
    inside the workspace (a bundle file kept in the project)."""
    for protected in known.inside_protected:
        if _inside(path, protected):
            return inside | _PROTECTED
        if _inside(protected, path):
            return inside | _HOLDS  # a folder holding one: deleted or moved, it goes too
    return inside


def places_of(path: str, known: KnownPlaces) -> frozenset[str]:
    # Memoised: a pure function of already-resolved text and the places (the file system
    # is read by `realpaths.real_path`, which is never memoised).
    inside = known.inside
    if inside is None:
        inside = known.inside = inside_places(known)
    workspace = known.workspace
    if inside and len(path) > len(workspace) + 1 and path.startswith(workspace + "/"):
        if known.inside_protected:
            inside = with_protected(path, inside, known)
        own = known.own
        inside = inside | people_place(path)  # (a file named as people's data)
        return inside | own.where(path, workspace) if own.maybe(path) else inside
    found = known.where.get(path)
    if found is None:
        if len(known.where) >= MEMO:
            known.where.clear()
        found = known.where[path] = _place(path, known)
    return found


def people_place(path: str) -> frozenset[str]:
    """``people_data`` when ``path`` is a data file (a table, not a database dump or
    code) named as people's personal data (`peopledata`)."""
    last = path[-1:]
    if (last.isascii() and last not in _TABLE_LAST) or _TABLE.search(path) is None:
        return frozenset()  # (`_TABLE_LAST`)
    if not people_export(path) or test_data(path):
        return frozenset()
    return _PEOPLE_DATA


def inside_places(known: KnownPlaces) -> frozenset[str]:
    """The places of any path strictly inside the workspace, when no place that tells such
    paths apart (home, a temporary folder, ``/dev``) is inside it, else nothing (each such
    path is then placed on its own); ``protected`` apart: see `with_protected`."""
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
    if not in_home and not in_workspace and _other_home(path):
        where.add("other_home")
    if not in_workspace and (in_home or top == "/var"):  # the person's stores (mail spools)
        where |= private_places(path, home, workspace)
    where |= people_place(path)  # `exports/users_full.csv`: real people's data, by its name
    if any(_inside(path, p) for p in known.protected):
        where.add("protected")
    elif path not in (home, workspace, "/") and any(_inside(p, path) for p in known.protected):
        where.add("agent_folder")
    return frozenset(where) | known.own.where(path, workspace)


_HOMES = ("/home/", "/Users/")
_SHARED_HOMES = frozenset({"linuxbrew", "shared", "Shared", "share", "common", "public"})
"""Folders of ``/home`` that are no person's (Homebrew's on Linux, a shared folder)."""


def _other_home(path: str) -> bool:
    """Whether ``path`` is inside another person's home folder (``/home/alice/x``)."""
    if not path.startswith(_HOMES):
        return False
    parts = path.split("/", 3)
    return len(parts) == 4 and bool(parts[3]) and parts[2] not in _SHARED_HOMES


def forms_of(path: str, known: KnownPlaces) -> tuple[str, ...]:
    found = known.forms.get(path)
    if found is None:
        if len(known.forms) >= MEMO:
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
            forms += [f for name in named_by(last) for f in forms_of(f"{parent}/{name}", known)]
        found = known.forms[path] = tuple(forms)
    return found
