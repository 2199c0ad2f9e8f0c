"""Codex's hook trust: the hash install records is the one Codex computes (checked on
the real binary's ``codex app-server`` ``hooks/list``), and config.toml keeps the rest."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from amplifier_hooks.hosts.codex.install import (
    CodexPlaces,
    CodexPlan,
    install_codex,
    uninstall_codex,
)
from amplifier_hooks.hosts.codex.trust import (
    HookTrust,
    TrustError,
    hook_hash,
    hook_key,
    trust_states,
    with_trust,
    without_trust,
)
from amplifier_hooks.testing.codex import Codex

BUNDLE = Path(__file__).resolve().parents[2] / "bundles" / "default.md"

HANDLERS = {
    "PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "echo hi", "timeout": 30}]},
        {"hooks": [{"type": "command", "command": "echo 'quoted \"é\" \\\\ $HOME'"}]},
        {
            "matcher": "^apply_patch$",
            "hooks": [
                {"type": "command", "command": "a", "async": True, "statusMessage": "checking"},
                {"type": "command", "command": "b\nc", "timeout": 0},
            ],
        },
    ],
    "UserPromptSubmit": [{"matcher": "ignored", "hooks": [{"type": "command", "command": "u"}]}],
    "Stop": [{"hooks": [{"type": "command", "command": "s", "timeout": 5}]}],
    "PostToolUse": [{"hooks": [{"type": "command", "command": "p"}]}],
}


async def test_our_hash_is_codexs_for_every_shape_of_hook(codex: Codex) -> None:
    await codex.write_hooks(HANDLERS, trust=False)
    listed = {hook["key"]: hook for hook in await codex.list_hooks()}
    ours = {}
    for event, groups in HANDLERS.items():
        for g, group in enumerate(groups):
            for h, handler in enumerate(group["hooks"]):
                key = hook_key(str(codex.hooks_path), event, g, h)
                ours[key] = hook_hash(event, group.get("matcher"), handler)
    assert {key: hook["currentHash"] for key, hook in listed.items()} == ours


async def test_install_makes_every_hook_trusted_in_codexs_own_eyes(
    codex: Codex, tmp_path: Path
) -> None:
    bundle = BUNDLE
    places = CodexPlaces(codex.hooks_path, codex.config_path)
    report = install_codex(places, CodexPlan(bundle, ("PreToolUse", "SessionEnd", "Stop")))
    assert [h.status for h in report.hooks] == ["trusted"] * 3

    listed = await codex.list_hooks()
    assert sorted(h["eventName"] for h in listed) == ["preToolUse", "sessionEnd", "stop"]
    assert {h["trustStatus"] for h in listed} == {"trusted"}
    assert sorted(h["key"] for h in listed) == sorted(h.key for h in report.hooks)


def test_trust_is_a_marked_block_and_the_users_config_stays() -> None:
    users = 'model = "o3"\n\n[hooks.state."/x/hooks.json:stop:0:0"]\ntrusted_hash = "sha256:1"\n'
    entries = [HookTrust("/x/hooks.json:pre_tool_use:1:0", "sha256:2")]
    written = with_trust(users, entries)
    assert written.startswith(users)
    assert trust_states(written) == {
        "/x/hooks.json:stop:0:0": "sha256:1",
        "/x/hooks.json:pre_tool_use:1:0": "sha256:2",
    }
    assert with_trust(written, entries) == written
    assert without_trust(written) == users
    assert tomllib.loads(without_trust(written))["model"] == "o3"


def test_a_users_stale_table_for_our_key_is_replaced() -> None:
    stale = (
        '[hooks.state."/x/hooks.json:pre_tool_use:0:0"]\ntrusted_hash = "sha256:old"\n'
        "\n[tui]\nx = 1\n"
    )
    written = with_trust(stale, [HookTrust("/x/hooks.json:pre_tool_use:0:0", "sha256:new")])
    assert trust_states(written) == {"/x/hooks.json:pre_tool_use:0:0": "sha256:new"}
    assert tomllib.loads(written)["tui"] == {"x": 1}


@pytest.mark.parametrize(
    ("config", "says"),
    [
        ("hooks = { state = {} }\n", "does the file define hooks.state inline"),
        ("model = \n", "not valid TOML"),
    ],
)
def test_a_config_we_cannot_add_to_is_an_error_naming_it(config: str, says: str) -> None:
    with pytest.raises(TrustError, match=says):
        with_trust(config, [HookTrust("k", "sha256:1")], "/h/config.toml")


def test_install_into_a_config_we_cannot_change_writes_nothing(tmp_path: Path) -> None:
    from amplifier_hooks.hosts.claude_code.install import SettingsError

    places = CodexPlaces(tmp_path / "hooks.json", tmp_path / "config.toml")
    places.config_file.write_text("hooks = { state = {} }\n")
    with pytest.raises(SettingsError, match="inline"):
        install_codex(places, CodexPlan(tmp_path / "b.md", ("PreToolUse",)))
    assert places.config_file.read_text() == "hooks = { state = {} }\n"
    assert json.loads(places.hooks_file.read_text())["hooks"]["PreToolUse"]


def _hooks_file(codex: Codex, pre: list[dict[str, object]]) -> None:
    """The user edits hooks.json by hand: ``pre`` is the new PreToolUse list."""
    settings = json.loads(codex.hooks_path.read_text())
    settings["hooks"]["PreToolUse"] = pre
    codex.hooks_path.write_text(json.dumps(settings, indent=2) + "\n")


def _user_hook(name: str) -> dict[str, object]:
    return {"hooks": [{"type": "command", "command": f"echo {name}", "timeout": 5}]}


async def test_ours_stay_trusted_when_the_user_adds_or_removes_hooks_before_ours(
    codex: Codex,
) -> None:
    """Codex keys trust by position (hooks/list's ``key``): a group the user puts before
    ours moves ours to another key. Ours stay trusted in Codex's own eyes as the user's
    hooks come and go, and an install afterwards keeps the user's trust."""
    await codex.write_hooks({"PreToolUse": [_user_hook("a")]})
    places = CodexPlaces(codex.hooks_path, codex.config_path)
    install_codex(places, CodexPlan(BUNDLE, ("PreToolUse", "Stop")))
    ours_hook = json.loads(codex.hooks_path.read_text())["hooks"]["PreToolUse"][1]

    async def statuses() -> dict[str, str]:
        return {h["command"]: h["trustStatus"] for h in await codex.list_hooks()}

    ours_command = ours_hook["hooks"][0]["command"]
    for pre in (
        [_user_hook("b"), _user_hook("a"), ours_hook],  # one added before ours
        [_user_hook("b"), _user_hook("c"), _user_hook("a"), ours_hook],
        [_user_hook("a"), ours_hook, _user_hook("d")],  # removed again, one added after
    ):
        _hooks_file(codex, pre)
        listed = await statuses()
        assert listed[ours_command] == "trusted", (pre, listed)

    # Ours moved onto the key of a hook the user trusted and then removed: that key
    # holds the user's hash, not ours, until an install takes it back.
    _hooks_file(codex, [ours_hook, _user_hook("d")])
    assert (await statuses())[ours_command] == "modified"
    report = install_codex(places, CodexPlan(BUNDLE, ("PreToolUse", "Stop")))
    assert [h.status for h in report.hooks] == ["trusted", "trusted"]
    assert (await statuses())[ours_command] == "trusted"

    # The user trusts their new hook as Codex's /hooks does: into the table its key
    # has -- one of our spare ones. Installing again keeps that trust, now the user's.
    _hooks_file(codex, [_user_hook("e"), ours_hook])
    [user_e] = [h for h in await codex.list_hooks() if h["command"] == "echo e"]
    config = codex.config_path.read_text()
    stale = f'[hooks.state.{json.dumps(user_e["key"])}]\ntrusted_hash = "'
    assert stale in config  # our spare entry, with our hash
    start = config.index(stale) + len(stale)
    end = config.index('"', start)
    codex.config_path.write_text(config[:start] + user_e["currentHash"] + config[end:])
    assert (await statuses())["echo e"] == "trusted"

    report = install_codex(places, CodexPlan(BUNDLE, ("PreToolUse", "Stop")))
    assert [h.status for h in report.hooks] == ["trusted", "trusted"]
    listed = await statuses()
    assert listed["echo e"] == "trusted" and listed[ours_command] == "trusted", listed

    uninstall_codex(places)
    [left] = await codex.list_hooks()
    assert (left["command"], left["trustStatus"]) == ("echo e", "trusted")
