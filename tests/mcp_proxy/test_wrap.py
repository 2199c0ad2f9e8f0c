"""``amplifier-hooks mcp wrap|unwrap`` on every client config it knows: each server runs
through the proxy, and unwrap gives back the very bytes wrap found (or, when the client
changed the file since, only the entries wrap wrote)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

PROJECT_MCP = """{
    "mcpServers": {
        "files": {
            "command": "npx",
            "args": ["-y", "@modelcontextprotocol/server-filesystem", "."],
            "env": {"LOG_LEVEL": "debug"}
        },
        "remote": {"type": "http", "url": "https://mcp.example.invalid/mcp"},
        "stream": {"type": "sse", "url": "https://sse.example.invalid/sse"},
        "secret": {"type": "http", "url": "https://x.example.invalid/mcp",
                   "headers": {"Authorization": "Bearer t"}}
    }
}
"""

CLAUDE_USER = {"numStartups": 3, "mcpServers": {"git": {"command": "uvx", "args": ["mcp-git"]}}}
DESKTOP = {"mcpServers": {"memory": {"command": "npx", "args": ["-y", "server-memory"]}}}
CURSOR = {"mcpServers": {"web": {"url": "https://web.example.invalid/mcp"}}}
GEMINI = {
    "security": {"auth": {"selectedType": "gemini-api-key"}},
    "mcpServers": {
        "db": {"command": "db-mcp", "args": ["--ro"], "cwd": "/srv", "timeout": 30000},
        "api": {"httpUrl": "https://api.example.invalid/mcp"},
        "old": {"url": "https://old.example.invalid/sse"},
    },
}
CODEX = """# my codex settings
model = "gpt-5"

[mcp_servers.docs]
command = "docs-server"  # the docs
args = [
  "--port",
  "0",
]
startup_timeout_sec = 20

[mcp_servers.docs.env]
TOKEN_FILE = "/run/docs"

[mcp_servers."remote-api"]
url = "https://remote.example.invalid/mcp"

[mcp_servers.authed]
url = "https://authed.example.invalid/mcp"
bearer_token_env_var = "AUTHED_TOKEN"
"""


def layout(root: Path) -> tuple[Path, Path, dict[Path, bytes]]:
    """A project and a HOME with every client's config; each file's bytes."""
    project, home = root / "project", root / "home"
    files: dict[Path, str] = {
        project / ".mcp.json": PROJECT_MCP,
        home / ".claude.json": json.dumps(CLAUDE_USER, indent=2),
        home / ".config/Claude/claude_desktop_config.json": json.dumps(DESKTOP, indent="\t"),
        home / ".cursor/mcp.json": json.dumps(CURSOR) + "\n",
        home / ".gemini/settings.json": json.dumps(GEMINI, indent=2) + "\n",
        home / ".codex/config.toml": CODEX,
    }
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode())
    return project, home, {p: t.encode() for p, t in files.items()}


def mcp(home: Path, project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``amplifier-hooks mcp ARGS`` in ``project`` with ``home`` as HOME."""
    return command(home, project, "mcp", *args)


def command(home: Path, project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(home), "XDG_STATE_HOME": str(home / ".state")}
    env.pop("CODEX_HOME", None)
    return subprocess.run(
        [sys.executable, "-m", "amplifier_hooks.cli", *args],
        capture_output=True, text=True, cwd=project, env=env, timeout=120, check=False,
    )  # fmt: skip


def servers(path: Path) -> dict[str, Any]:
    if path.suffix == ".toml":
        found: dict[str, Any] = tomllib.loads(path.read_text())["mcp_servers"]
        return found
    key: dict[str, Any] = json.loads(path.read_text())["mcpServers"]
    return key


@pytest.fixture
def bundle(tmp_path: Path) -> Path:
    path = tmp_path / "guard.yaml"
    path.write_text('bundle: {name: g, version: "1"}\n')
    return path


def proxied_args(bundle: Path, name: str, *rest: str) -> list[str]:
    return ["mcp", "--bundle", str(bundle), "--name", name, *rest]


def test_wrap_then_unwrap_every_client_byte_for_byte(tmp_path: Path, bundle: Path) -> None:
    project, home, before = layout(tmp_path)
    wrapped = mcp(home, project, "wrap", "--bundle", str(bundle))
    assert wrapped.returncode == 0, wrapped.stderr

    proxy = str(Path(sys.executable).parent / "amplifier-hooks")
    files = servers(project / ".mcp.json")
    assert files["files"] == {
        "command": proxy,
        "args": [*proxied_args(bundle, "files"), "--", "npx", "-y",
                 "@modelcontextprotocol/server-filesystem", "."],
        "env": {"LOG_LEVEL": "debug"},
    }  # fmt: skip
    assert files["remote"] == {
        "command": proxy,
        "args": proxied_args(bundle, "remote", "--url", "https://mcp.example.invalid/mcp"),
    }
    assert files["stream"]["type"] == "sse" and files["secret"]["headers"]  # left as they are
    said = wrapped.stdout
    assert "left stream as it is: an SSE server" in said
    assert "left secret as it is: it sends headers" in said
    assert servers(home / ".claude.json")["git"]["args"][-3:] == ["--", "uvx", "mcp-git"]
    assert json.loads((home / ".claude.json").read_text())["numStartups"] == 3
    desktop = servers(home / ".config/Claude/claude_desktop_config.json")
    assert desktop["memory"]["command"] == proxy
    assert servers(home / ".cursor/mcp.json")["web"]["args"][-2:] == [
        "--url", "https://web.example.invalid/mcp"
    ]  # fmt: skip
    gemini = servers(home / ".gemini/settings.json")
    assert gemini["db"] == {
        "command": proxy,
        "args": [*proxied_args(bundle, "db"), "--", "db-mcp", "--ro"],
        "cwd": "/srv",
        "timeout": 30000,
    }
    assert gemini["api"]["args"][-1] == "https://api.example.invalid/mcp"
    assert gemini["old"] == {"url": "https://old.example.invalid/sse"}  # SSE: not wrapped
    codex_text = (home / ".codex/config.toml").read_text()
    codex = servers(home / ".codex/config.toml")
    assert codex["docs"]["args"] == [*proxied_args(bundle, "docs"), "--", "docs-server",
                                     "--port", "0"]  # fmt: skip
    assert codex["docs"]["env"] == {"TOKEN_FILE": "/run/docs"}
    assert codex["docs"]["startup_timeout_sec"] == 20
    assert codex["remote-api"]["args"][-2:] == ["--url", "https://remote.example.invalid/mcp"]
    assert "url" not in codex["remote-api"]
    assert codex["authed"]["url"] == "https://authed.example.invalid/mcp"
    assert codex_text.startswith("# my codex settings\n")

    again = mcp(home, project, "wrap", "--bundle", str(bundle))
    assert "left files as it is: already wrapped" in again.stdout

    restored = mcp(home, project, "unwrap")
    assert restored.returncode == 0, restored.stderr
    for path, data in before.items():
        assert path.read_bytes() == data, path
    assert "nothing to unwrap" in mcp(home, project, "unwrap").stdout


def test_unwrap_after_the_client_changed_the_file_restores_only_what_wrap_wrote(
    tmp_path: Path, bundle: Path
) -> None:
    project, home, _ = layout(tmp_path)
    assert mcp(home, project, "wrap", "--bundle", str(bundle)).returncode == 0
    settings = home / ".gemini/settings.json"
    data = json.loads(settings.read_text())
    data["theme"] = "dark"  # the client (or the person) changed the file since
    data["mcpServers"]["added"] = {"command": "new-server"}
    settings.write_text(json.dumps(data, indent=2))
    codex = home / ".codex/config.toml"
    codex.write_text(codex.read_text() + '\n[mcp_servers.later]\ncommand = "later"\n')

    done = mcp(home, project, "unwrap", "--client", "gemini-cli", "--client", "codex")
    assert done.returncode == 0, done.stderr

    after = json.loads(settings.read_text())
    assert after["theme"] == "dark"
    assert after["mcpServers"] == {**GEMINI["mcpServers"], "added": {"command": "new-server"}}
    assert tomllib.loads(codex.read_text())["mcp_servers"]["docs"]["command"] == "docs-server"
    assert codex.read_text() == CODEX + '\n[mcp_servers.later]\ncommand = "later"\n'
    assert servers(project / ".mcp.json")["files"]["args"][0] == "mcp"  # not asked: wrapped


def test_wrap_refuses_an_unknown_client_or_a_missing_bundle(tmp_path: Path) -> None:
    project, home, before = layout(tmp_path)
    unknown = mcp(home, project, "wrap", "--bundle", "b.yaml", "--client", "vscode")
    missing = mcp(home, project, "wrap", "--bundle", str(tmp_path / "none.yaml"))
    assert (unknown.returncode, missing.returncode) == (2, 2)
    assert "unknown MCP client 'vscode'" in unknown.stderr
    assert "no bundle at" in missing.stderr
    assert all(p.read_bytes() == b for p, b in before.items())


def test_doctor_shows_the_wrapped_servers(tmp_path: Path, bundle: Path) -> None:
    project, home, _ = layout(tmp_path)
    assert mcp(home, project, "wrap", "--bundle", str(bundle), "--client", "codex").returncode == 0
    codex = home / ".codex" / "config.toml"

    shown = command(home, project, "doctor", "--no-probe")
    assert shown.returncode == 0, shown.stdout + shown.stderr
    assert f"MCP servers of Codex (home): {codex}" in shown.stdout
    assert f"  docs: through amplifier-hooks mcp, bundle {bundle}" in shown.stdout
    assert "  status: will run" in shown.stdout
    bundle.unlink()
    broken = command(home, project, "doctor", "--no-probe", "--json")
    assert broken.returncode == 1
    entry = next(e for e in json.loads(broken.stdout)["wired"] if e["host"] == "mcp:codex")
    assert entry["problems"] == [
        f"docs: no bundle at {bundle}", f"remote-api: no bundle at {bundle}"
    ]  # fmt: skip
