"""`agents.HOSTS`, `agents.OWN_STATE` and the installed guard compiled, once per home
folder and workspace, into two tests on a resolved path: is it such a file (or inside such
a hook or plugin folder), and is it a folder that holds one (so deleting, moving or
re-moding it as a whole changes one).
"""

from __future__ import annotations

import functools
import os
import re
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

from amplifier_hooks.guard.agents import HOSTS, OWN_STATE
from amplifier_hooks.guard.hookscripts import hook_scripts

__all__ = ["OwnPlaces", "installed_guard"]

MAX_PLACED = 4096
"""Paths whose places `OwnPlaces.where` remembers."""
_ENV_GLOBS = tuple(g for g in (*(s.glob for s in HOSTS), *OWN_STATE) if g.startswith("$"))


class OwnPlaces:
    """`HOSTS`, `OWN_STATE` and the installed guard compiled for one home folder and
    workspace: `where` of a resolved path."""

    __slots__ = ("_config", "_folder", "_guard", "_guard_folders", "_inside", "_inside_folders",
                 "_markers", "_placed", "_scripts", "_state")  # fmt: skip

    def __init__(self, home: str, workspace: str, guard: tuple[str, ...] = (),
                 environ: Mapping[str, str] | None = None) -> None:  # fmt: skip
        env = os.environ if environ is None else environ
        config: list[str] = []
        folders: set[str] = set()
        for spot in HOSTS:
            glob = _rooted(spot.glob, home, env)
            if glob is not None:
                config.append(_regex(glob))
                folders.update(_holder_regexes(glob, home))
        state: list[str] = []
        for glob in OWN_STATE:
            rooted = _rooted(glob, home, env)
            if rooted is not None:
                state.append(_regex(rooted))
                folders.update(_holder_regexes(rooted, home))
        uid = os.getuid() if hasattr(os, "getuid") else 0
        state.append(re.escape(f"/tmp/amplifier-hooks-{uid}") + "(?:/.*)?")
        scripts = hook_scripts(home, workspace, env)
        self._scripts = frozenset(scripts)
        self._config = _joined(tuple(config))
        self._folder = _joined(tuple(sorted(folders)))
        self._state = _joined(tuple(state))
        guard = (*installed_guard(), *guard)
        self._guard = guard
        self._guard_folders = frozenset(
            parent for g in guard for parent in _ancestors(g) if parent not in (home, workspace)
        )
        names = {_first_name(s.glob) for s in HOSTS if s.glob.startswith("**/")}
        self._markers = _markers(tuple(sorted(names)))
        inside = workspace.rstrip("/") + "/"
        moved = (_rooted(g.split("/", 1)[0], home, env) for g in _ENV_GLOBS)
        self._inside = tuple(
            p for p in (*guard, *scripts, *(m for m in moved if m)) if p.startswith(inside)
        )
        """The guard's files, the hook scripts and the folders a variable moved a host's
        settings to (``CODEX_HOME=ws/ch``) inside the workspace."""
        self._inside_folders = frozenset(f for f in self._guard_folders if f.startswith(inside))
        self._placed: dict[tuple[str, str], frozenset[str]] = {}
        """`where` of the paths met so far (cleared when full): a pure function of the
        path, and up to four large regexes a path; a glob in a folder (``rm -rf /*``,
        ``find ~ -path '*/x'``) places each name it may take, the same ones every call
        (`benchmarks.bench_guard`'s corpus tail)."""

    def maybe(self, path: str) -> bool:
        """A quick test for a path inside the workspace: False when it is none of our
        places (no host folder name in it, not the guard's files or a hook script)."""
        # Every host folder name but OpenCode's config starts with a dot: most paths are
        # cleared by two substring tests, before the regex.
        if ("/." in path or "opencode" in path.lower()) and self._markers.search(path) is not None:
            return True
        inside = self._inside
        return (bool(inside) and path.startswith(inside)) or path in self._inside_folders

    def holds(self, folder: str) -> bool:
        """Whether ``folder`` (absolute, inside the workspace) is, is inside or holds one
        of our places there: the guard's files, a hook script, a folder a variable moved a
        host's settings to."""
        below = folder + "/"
        return any(
            p == folder or p.startswith(below) or folder.startswith(p + "/")
            for p in (*self._inside, *self._inside_folders)
        )

    def where(self, path: str, workspace: str) -> frozenset[str]:
        """The protected places ``path`` (absolute, resolved) is in: ``agent_config`` (a
        host's hook, settings or plugin file, an MCP config, a hook script), ``guard_state``
        (our approval store, token, sockets, event log),
        ``agent_folder`` (a folder holding one), ``guard_installed`` / ``guard_source``
        (the installed guard, or a folder holding it, outside / inside the workspace)."""
        key = (path, workspace)
        placed = self._placed.get(key)
        if placed is None:
            if len(self._placed) >= MAX_PLACED:
                self._placed.clear()
            placed = self._placed[key] = self._where(path, workspace)
        return placed

    def _where(self, path: str, workspace: str) -> frozenset[str]:
        found: set[str] = set()
        if path in self._scripts or self._config.match(path):
            found.add("agent_config")
        elif self._state.match(path):
            found.add("guard_state")
        elif self._folder.match(path):
            found.add("agent_folder")
        inside = path.startswith(workspace.rstrip("/") + "/")
        if path in self._guard_folders:
            found.add("guard_source" if inside else "guard_installed")
        else:
            for guard in self._guard:
                if path == guard or path.startswith(guard + "/"):
                    found.add("guard_source" if inside else "guard_installed")
                    break
        return frozenset(found)


@functools.lru_cache(maxsize=32)
def _joined(patterns: tuple[str, ...]) -> re.Pattern[str]:
    """One regex of ``patterns``, compiled once per process (a large alternation takes
    tens of milliseconds to compile; places are made per session and per test). Case is
    ignored: on macOS's and Windows' file systems ``.Claude/Settings.json`` is the file."""
    return re.compile("(?:" + "|".join(f"(?:{p})" for p in patterns) + r")\Z", re.IGNORECASE)


@functools.lru_cache(maxsize=4)
def _markers(names: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(
        "(?:^|/)(?:" + "|".join(re.escape(n) for n in names) + ")(?:/|\\Z)", re.IGNORECASE
    )


def _rooted(glob: str, home: str, env: Mapping[str, str]) -> str | None:
    """``glob`` with ``~`` and ``$VAR`` made absolute (None: the variable is not set)."""
    if glob.startswith("~/"):
        return home.rstrip("/") + glob[1:]
    if glob.startswith("$"):
        name, _, rest = glob[1:].partition("/")
        value = env.get(name, "")
        if not os.path.isabs(value):
            return None
        real = os.path.realpath(value)
        return real.rstrip("/") + "/" + rest if rest else real
    return glob


@functools.lru_cache(maxsize=2048)
def _holder_regexes(glob: str, home: str) -> tuple[str, ...]:
    """`_regex` of each of `_holders`: pure, and kept as `_regex` is."""
    return tuple(_regex(f) for f in _holders(glob, home))


def _holders(glob: str, home: str) -> Iterator[str]:
    """The literal folders above what ``glob`` names, below the home folder (``**/``
    globs: below any folder): deleting or moving one of them takes the place along."""
    head = glob[3:] if glob.startswith("**/") else glob
    parts = head.split("/")
    for end in range(len(parts) - 1, 0, -1):
        folder = "/".join(parts[:end])
        if any(c in folder for c in "*?["):
            continue
        if glob.startswith("**/"):
            yield "**/" + folder
        elif folder.startswith(home.rstrip("/") + "/") and folder != home:
            yield folder


@functools.lru_cache(maxsize=2048)
def _regex(glob: str) -> str:
    """A glob as a regex on an absolute path: ``**/`` is any folders, ``/**`` anything
    below, ``*`` and ``?`` within one name. Kept: every `OwnPlaces` of the same home asks
    the same few hundred (a test that makes one per call spent most of its time here)."""
    out: list[str] = []
    if glob.startswith("**/"):
        out.append("(?:.*/)?")
        glob = glob[3:]
    tail = glob.endswith("/**")
    if tail:
        glob = glob[:-3]
    for char in glob:
        out.append("[^/]*" if char == "*" else "[^/]" if char == "?" else re.escape(char))
    if tail:
        out.append("(?:/.*)?")
    return "".join(out)


def _first_name(glob: str) -> str:
    return glob[3:].split("/", 1)[0]


def _ancestors(path: str) -> Iterator[str]:
    parent = os.path.dirname(path)
    while parent not in ("/", ""):
        yield parent
        parent = os.path.dirname(parent)


def installed_guard() -> tuple[str, ...]:
    """The guard's own code as it runs: this package (its rule packs inside), the hook
    modules loaded in this process, and the ``amplifier-hooks`` command hosts run."""
    found = [str(Path(__file__).resolve().parents[1])]
    for name, module in list(sys.modules.items()):
        if name.startswith("amplifier_module_") and "." not in name:
            file = getattr(module, "__file__", None)
            if isinstance(file, str):
                found.append(str(Path(file).resolve().parent))
    command = Path(sys.executable).parent / "amplifier-hooks"
    found.append(os.path.realpath(command) if command.exists() else str(command))
    return tuple(dict.fromkeys(found))
