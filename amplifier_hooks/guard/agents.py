"""The places that switch a guard off if changed: every host's hook and settings files,
the MCP client configs a proxy is wired into, the installed guard, and our own state.

One table, `HOSTS`, names them as globs: ``**/NAME`` holds in any folder (a project, a
subproject, the home folder itself), ``~/NAME`` under the home folder only. From it
`OwnPlaces` compiles, once per home folder, two tests on a resolved path: is it such a
file (or inside such a hook or plugin folder), and is it a folder that holds one (so
deleting, moving or re-moding it as a whole changes one). The hook scripts the settings
run are read from the settings files themselves (`hook_scripts`).
"""

from __future__ import annotations

import functools
import json
import os
import re
import shlex
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, NamedTuple

__all__ = [
    "FOLDER_NAMES",
    "HOSTS",
    "OWN_STATE",
    "OwnPlaces",
    "Spot",
    "hook_scripts",
    "installed_guard",
]


class Spot(NamedTuple):
    """One protected place of a host: a glob (``**/`` any folder, ``~/`` the home folder,
    ``$VAR/`` a folder an environment variable names) and what it holds."""

    host: str
    glob: str
    holds: str


HOSTS: tuple[Spot, ...] = (
    Spot("claude-code", "**/.claude/settings*.json", "hook settings"),
    Spot("claude-code", "**/.claude/hooks/**", "hook scripts"),
    Spot("claude-code", "~/.claude/plugins/**", "plugins (which carry hooks)"),
    Spot("claude-code", "**/.mcp.json", "MCP servers"),
    Spot("claude-code", "~/.claude.json", "MCP servers and settings"),
    Spot("claude-desktop", "~/.config/Claude/claude_desktop_config.json", "MCP servers"),
    Spot(
        "claude-desktop",
        "~/Library/Application Support/Claude/claude_desktop_config.json",
        "MCP servers",
    ),
    Spot("claude-desktop", "~/AppData/Roaming/Claude/claude_desktop_config.json", "MCP servers"),
    Spot("codex", "**/.codex/config.toml", "settings, hook trust and MCP servers"),
    Spot("codex", "**/.codex/hooks.json", "hook settings"),
    Spot("codex", "$CODEX_HOME/config.toml", "settings, hook trust and MCP servers"),
    Spot("codex", "$CODEX_HOME/hooks.json", "hook settings"),
    Spot("gemini", "**/.gemini/settings.json", "hook settings and MCP servers"),
    Spot("gemini", "**/.gemini/hooks/**", "hook scripts"),
    Spot("gemini", "~/.gemini/extensions/**", "extensions (which carry hooks)"),
    Spot("gemini", "~/.gemini/trustedFolders.json", "trusted folders (their hooks load)"),
    Spot("copilot", "**/.github/hooks/**", "hook settings"),
    Spot("copilot", "~/.copilot/config.json", "settings"),
    Spot("copilot", "~/.copilot/mcp-config.json", "MCP servers"),
    Spot("copilot", "~/.copilot/hooks/**", "hook settings"),
    Spot("opencode", "**/opencode.json", "settings and plugins"),
    Spot("opencode", "**/opencode.jsonc", "settings and plugins"),
    Spot("opencode", "**/.opencode/plugin/**", "plugins"),
    Spot("opencode", "**/.opencode/plugins/**", "plugins"),
    Spot("opencode", "**/.opencode/opencode.json", "settings and plugins"),
    Spot("opencode", "**/.opencode/opencode.jsonc", "settings and plugins"),
    Spot("opencode", "**/.opencode/node_modules/**", "what its plugins' imports resolve to"),
    Spot("opencode", "**/.opencode/package.json", "what its plugins' imports resolve to"),
    Spot("opencode", "**/.opencode/package-lock.json", "what its plugins' imports resolve to"),
    Spot("opencode", "~/.config/opencode/opencode.json", "settings and plugins"),
    Spot("opencode", "~/.config/opencode/opencode.jsonc", "settings and plugins"),
    Spot("opencode", "~/.config/opencode/plugin/**", "plugins"),
    Spot("opencode", "~/.config/opencode/plugins/**", "plugins"),
    Spot("opencode", "~/.config/opencode/node_modules/**", "what its plugins' imports resolve to"),
    Spot("opencode", "~/.config/opencode/package.json", "what its plugins' imports resolve to"),
    Spot("opencode", "$XDG_CONFIG_HOME/opencode/**", "settings and plugins"),
    Spot("cline", "**/.cline/hooks/**", "hooks"),
    Spot("cline", "**/.clinerules/hooks/**", "hooks"),
    Spot("cline", "~/Documents/Cline/Hooks/**", "hooks"),
    Spot("cline", "~/.cline/data/settings/**", "settings and MCP servers"),
    Spot("openclaw", "~/.openclaw/openclaw.json", "settings and plugins"),
    Spot("openclaw", "~/.openclaw/openclaw.json5", "settings and plugins"),
    Spot("openclaw", "~/.openclaw/extensions/**", "plugins"),
    Spot("openclaw", "~/.openclaw/amplifier-hooks/**", "our plugin"),
    Spot("openclaw", "$OPENCLAW_STATE_DIR/openclaw.json", "settings and plugins"),
    Spot("openclaw", "$OPENCLAW_STATE_DIR/extensions/**", "plugins"),
    Spot("openclaw", "$OPENCLAW_STATE_DIR/amplifier-hooks/**", "our plugin"),
    Spot("openclaw", "$OPENCLAW_CONFIG_PATH", "settings and plugins"),
    Spot("amplifier", "**/.amplifier/settings*.yaml", "the active bundle and its modules"),
    Spot("cursor", "**/.cursor/mcp.json", "MCP servers"),
    Spot("cursor", "**/.cursor/hooks.json", "hook settings"),
    Spot("vscode", "**/.vscode/mcp.json", "MCP servers"),
    Spot("windsurf", "~/.codeium/windsurf/mcp_config.json", "MCP servers"),
)
"""Every host's protected places. Everything else in their folders is ordinary:
``.claude/commands/``, ``.claude/agents/``, ``~/.gemini/GEMINI.md``."""

OWN_STATE: tuple[str, ...] = (
    "$XDG_STATE_HOME/amplifier-hooks/**",
    "~/.local/state/amplifier-hooks/**",
    "$XDG_RUNTIME_DIR/amplifier-hooks/**",
    "/run/user/*/amplifier-hooks/**",
    "$XDG_CONFIG_HOME/amplifier-hooks/**",
    "~/.config/amplifier-hooks/**",
    "$AMPLIFIER_HOOKS_CACHE_DIR/**",
    "$XDG_CACHE_HOME/amplifier-hooks/**",
    "~/.cache/amplifier-hooks/**",
)
"""Our state: the approval store, the token, the event log, the hook servers' sockets
(`amplifier_hooks.transports.relay.place`; a socket path too long for its folder falls
back to ``/tmp/amplifier-hooks-<uid>``, added by `OwnPlaces`), in every user's runtime
folder (``/run/user/UID``, whatever ``XDG_RUNTIME_DIR`` the hook was given); and the
folder named for us in the user's configuration (where a person keeps a bundle); and the
cache of the modules a bundle loads from git (`bundles.git_sources`: what the guard runs)."""

FOLDER_NAMES = (
    ".ssh", ".aws", ".gnupg", ".kube", ".azure", ".config", ".docker", ".password-store",
    ".cargo", ".gem", ".terraform.d", ".local", "state", "share", "gh", "gcloud", "op",
    "keyrings", "amplifier-hooks", ".claude", ".codex", ".gemini", ".copilot", ".github",
    "hooks", "plugin", "plugins", "extensions", ".openclaw", "credentials", ".cline",
    ".clinerules", ".opencode", "opencode", ".cursor", ".vscode", "Documents", "Cline",
    "Hooks", ".git", "etc", "root", "home", ".amplifier",
)  # fmt: skip
"""Folder names that credentials and protected places are under: a pattern in a folder
name (``~/.ss?/id_*``) is judged as each of these it could name."""

SETTINGS_WITH_HOOKS = (
    ".claude/settings.json", ".claude/settings.local.json", ".gemini/settings.json",
    ".codex/hooks.json", ".cursor/hooks.json",
)  # fmt: skip
"""Settings files, in the project and the home folder, whose hook commands name scripts."""
MAX_SETTINGS_BYTES = 1 << 20


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
                folders.update(_regex(f) for f in _holders(glob, home))
        state: list[str] = []
        for glob in OWN_STATE:
            rooted = _rooted(glob, home, env)
            if rooted is not None:
                state.append(_regex(rooted))
                folders.update(_regex(f) for f in _holders(rooted, home))
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


def _regex(glob: str) -> str:
    """A glob as a regex on an absolute path: ``**/`` is any folders, ``/**`` anything
    below, ``*`` and ``?`` within one name."""
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


def hook_scripts(
    home: str, workspace: str, env: Mapping[str, str] | None = None
) -> tuple[str, ...]:
    """The script files the hosts' settings run as hooks (a word of a hook command that
    is an existing file), read from the settings in the workspace and the home folder."""
    found: list[str] = []
    for base in (workspace, home):
        for name in SETTINGS_WITH_HOOKS:
            settings = os.path.join(base, name)
            for command in _commands(settings):
                found.extend(_script_words(command, base, home))
        hooks_folder = os.path.join(base, ".github", "hooks")
        try:
            listed = sorted(os.listdir(hooks_folder))
        except OSError:
            listed = []
        for entry in listed[:64]:
            if entry.endswith(".json"):
                for command in _commands(os.path.join(hooks_folder, entry)):
                    found.extend(_script_words(command, base, home))
    return tuple(dict.fromkeys(found))


def _commands(path: str) -> list[str]:
    """Every hook command in a settings file (``command``, ``bash``, ``powershell``)."""
    try:
        if os.path.getsize(path) > MAX_SETTINGS_BYTES:
            return []
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError):
        return []
    found: list[str] = []
    stack: list[Any] = [data]
    while stack and len(found) < 256:
        item = stack.pop()
        if isinstance(item, dict):
            for key, value in item.items():
                if key in ("command", "bash", "powershell") and isinstance(value, str):
                    found.append(value)
                else:
                    stack.append(value)
        elif isinstance(item, list):
            stack.extend(item)
    return found


_PROJECT = re.compile(r"\$\{?(CLAUDE_PROJECT_DIR|GEMINI_PROJECT_DIR|PWD)\}?")


def _script_words(command: str, base: str, home: str) -> Iterator[str]:
    try:
        words = shlex.split(command)
    except ValueError:
        return
    for word in words:
        if "/" not in word or word.startswith("-"):
            continue
        word = _PROJECT.sub(base.replace("\\", "\\\\"), word)
        word = re.sub(r"\$\{?HOME\}?", home.replace("\\", "\\\\"), word)
        if word.startswith("~/"):
            word = home + word[1:]
        path = word if os.path.isabs(word) else os.path.join(base, word)
        if os.path.isfile(path):
            yield os.path.realpath(path)
