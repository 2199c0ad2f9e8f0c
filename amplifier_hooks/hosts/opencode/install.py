"""Our OpenCode plugin: ``.opencode/plugin/amplifier-hooks.js`` of a project, or of the
user's config folder with ``--global``.

The plugin is a file of our own (``plugin.js`` of this package with its settings filled
in), so the user's plugins and config are never touched. Its settings
are one JSON line, ``const CONFIG = {...}``: the bundle, the interpreter and script of
our hook command, the relay's protocol (with which the plugin finds the workspace's
warm hook server), the URL of a running ``serve`` with ``--url``, how long it waits, and
the folders install made for it, which uninstall removes again when they are empty.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any

from amplifier_hooks.hosts import owned_files
from amplifier_hooks.hosts.claude_code.install import SettingsError
from amplifier_hooks.hosts.launch import HOOK_SCRIPT
from amplifier_hooks.hosts.opencode import PLUGIN_WAIT

__all__ = [
    "MARKER",
    "PLUGIN_FILE",
    "OpenCodePlan",
    "OpenCodeReport",
    "install_opencode",
    "plugin_config",
    "plugin_place",
    "uninstall_opencode",
]

PLUGIN_FILE = "amplifier-hooks.js"
MARKER = "// amplifier-hooks: this OpenCode plugin"
"""The first words of our plugin: what makes a file in a plugin folder ours."""

_CONFIG_LINE = re.compile(r"^const CONFIG = (\{.*\})$", re.MULTILINE)


def plugin_place(
    project: Path, global_: bool, environ: Mapping[str, str] | None = None
) -> tuple[Path, Path]:
    """(base, plugin path): the project's ``.opencode/plugin/``, or with ``global_`` the
    user's ``$XDG_CONFIG_HOME/opencode/plugin/`` (``~/.config``); ``base`` is where the
    folders install may make begin (the project, or the home folder)."""
    if not global_:
        return project, project / ".opencode" / "plugin" / PLUGIN_FILE
    env = os.environ if environ is None else environ
    home = Path(env.get("HOME") or Path.home())
    config = env.get("XDG_CONFIG_HOME", "")
    root = Path(config) if os.path.isabs(config) else home / ".config"
    base = home if home in root.parents or root == home else root
    return base, root / "opencode" / "plugin" / PLUGIN_FILE


@dataclass(frozen=True)
class OpenCodePlan:
    """What to install: the bundle; the relay's protocol and the token's variable and
    file (from the layers that own them); the URL of a running server (None: the
    workspace's own server, started on first use); whether tool results go to the
    bundle too."""

    bundle: Path
    protocol: str
    token_env: str
    token_file: str
    url: str | None = None
    after: bool = False
    executable: str = sys.executable
    wait: int = PLUGIN_WAIT
    made: tuple[str, ...] = field(default=())

    def config(self) -> dict[str, Any]:
        return {
            "bundle": str(self.bundle),
            "python": self.executable,
            "script": HOOK_SCRIPT,
            "protocol": self.protocol,
            "url": self.url,
            "tokenEnv": self.token_env,
            "tokenFile": self.token_file,
            "waitSeconds": self.wait,
            "after": self.after,
            "made": list(self.made),
        }

    def render(self) -> str:
        """The plugin's text, this plan's settings filled in."""
        template = resources.files("amplifier_hooks.hosts.opencode").joinpath("plugin.js")
        text = template.read_text(encoding="utf-8")
        line = json.dumps(self.config(), ensure_ascii=False, sort_keys=True)
        return text.replace("const CONFIG = /*CONFIG*/ {}", f"const CONFIG = {line}", 1)


def plugin_config(text: str) -> dict[str, Any]:
    """The settings line of a plugin of ours; `SettingsError` if it has none."""
    found = _CONFIG_LINE.search(text)
    try:
        config = json.loads(found.group(1)) if found else None
    except ValueError:
        config = None
    if not isinstance(config, dict):
        raise SettingsError("the amplifier-hooks plugin has no readable settings line")
    return config


@dataclass(frozen=True)
class OpenCodeReport:
    """What an install or uninstall changed."""

    path: Path
    changed: bool


def install_opencode(base: Path, path: Path, plan: OpenCodePlan) -> OpenCodeReport:
    """Write our plugin at ``path`` (nothing is written when it is already exactly
    that). Folders it makes under ``base`` are recorded in it for uninstall."""
    existing = owned_files.read_owned(path, MARKER)
    if existing is not None:
        made = tuple(plugin_config(existing).get("made") or ())
    else:
        made = tuple(owned_files.folders_to_make(base, path.parent))
    return OpenCodeReport(path, owned_files.write_owned(path, replace(plan, made=made).render()))


def uninstall_opencode(base: Path, path: Path) -> OpenCodeReport:
    """Remove our plugin at ``path``, and the folders install made for it that are
    empty now."""
    existing = owned_files.read_owned(path, MARKER)
    if existing is None:
        return OpenCodeReport(path, False)
    try:
        made = plugin_config(existing).get("made") or []
    except SettingsError:
        made = []
    owned_files.unlink_all([path])
    owned_files.remove_folders(base, [m for m in made if isinstance(m, str)])
    return OpenCodeReport(path, True)
