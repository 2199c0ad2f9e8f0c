"""The agent CLIs' own tokens are credentials: OpenClaw's openclaw.json (its gateway token
and providers' keys beside the settings) and the hosts' MCP login files."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard import Places, Policy, judge


@pytest.mark.parametrize(
    "path",
    [
        "~/.openclaw/openclaw.json", "~/.openclaw/openclaw.json.bak", "~/.openclaw/openclaw.json5",
        "~/.local/share/opencode/mcp-auth.json", "~/.gemini/mcp-oauth-tokens.json",
        "~/.codex/.credentials.json", "~/.config/cursor/auth.json",
    ],
)  # fmt: skip
def test_reading_a_hosts_tokens_is_denied(pack: Policy, places: Places, path: str) -> None:
    full = str(places.home / path[2:])
    for data in ({"tool_name": "Read", "tool_input": {"file_path": full}},
                 {"tool_name": "bash", "tool_input": {"command": f"cat {path}"}}):  # fmt: skip
        verdict = judge(data, pack, places)
        assert (verdict.decision, verdict.rule) == ("deny", "credential-read"), data


def test_listing_the_folder_and_changing_the_file_keep_their_rules(
    pack: Policy, places: Places
) -> None:
    listed = judge({"tool_name": "bash", "tool_input": {"command": "ls ~/.openclaw"}}, pack, places)
    assert listed.decision != "deny"
    path = str(places.home / ".openclaw" / "openclaw.json")
    written = judge({"tool_name": "Write", "tool_input": {"file_path": path, "content": "{}"}},
                    pack, places)  # fmt: skip
    assert (written.decision, written.rule) == ("deny", "self-protect-hook-settings")
