"""The places that switch a guard off if changed: every host's hook and settings files,
the MCP client configs a proxy is wired into, and our own state, as one table of globs.

`HOSTS` names them: ``**/NAME`` holds in any folder (a project, a subproject, the home
folder itself), ``~/NAME`` under the home folder only, ``$VAR/NAME`` below the folder a
variable names. `ownplaces.OwnPlaces` compiles the table into tests on a resolved path;
the hook scripts the settings run are read from the settings files (`hookscripts`).
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["FOLDER_NAMES", "HOSTS", "OWN_STATE", "Spot"]


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
    Spot("codex", "~/.codex/plugins/**", "installed plugins (their hooks/hooks.json run)"),
    Spot("codex", "$CODEX_HOME/plugins/**", "installed plugins (their hooks/hooks.json run)"),
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
    Spot("openclaw", "~/.openclaw/exec-approvals.json", "the commands it runs without asking"),
    Spot(
        "openclaw", "$OPENCLAW_STATE_DIR/exec-approvals.json", "the commands it runs without asking"
    ),
    Spot("amplifier", "**/.amplifier/settings*.yaml", "the active bundle and its modules"),
    Spot("amplifier", "~/.amplifier/bundles/**", "the person's bundles (which name the hooks)"),
    Spot("cursor", "**/.cursor/mcp.json", "MCP servers"),
    Spot("cursor", "**/.cursor/hooks.json", "hook settings"),
    Spot("cursor", "~/.cursor/cli-config.json", "its CLI's permissions"),
    Spot("cursor", "**/.cursor/cli.json", "its CLI's permissions"),
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
back to ``/tmp/amplifier-hooks-<uid>``, added by `ownplaces.OwnPlaces`), in every user's runtime
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
