"""``apply_patch`` (Codex's, Copilot's and OpenClaw's patch tool) is judged as the writes,
edits, deletes and moves its patch makes: each path it adds, updates, deletes or moves (and
where it moves it) meets the rules a Write, Edit, ``rm`` or ``mv`` of that path meets."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from amplifier_hooks.cli import main
from amplifier_hooks.cli.session import PROJECT_ROOT
from amplifier_hooks.guard import Places, Policy, Verdict, judge

DEFAULT = str(PROJECT_ROOT / "bundles" / "default.md")


def _patch(*body: str) -> str:
    return "\n".join(["*** Begin Patch", *body, "*** End Patch", ""])


def _judge(pack: Policy, places: Places, patch: str, **more: Any) -> Verdict:
    data = {"tool_name": "apply_patch", "tool_input": {"command": patch, **more}}
    return judge(data, pack, places)


@pytest.mark.parametrize(
    ("body", "rule"),
    [
        (["*** Add File: .claude/settings.local.json", '+{"disableAllHooks": true}'],
         "self-protect-hook-settings"),
        (["*** Delete File: ~/.codex/hooks.json"], "self-protect-hook-settings"),
        (["*** Update File: .github/hooks/guard.json", "*** Move to: .github/guard.json.off"],
         "self-protect-hook-settings"),
        (["*** Update File: .opencode/plugin/amplifier-hooks.js", "@@", "-a", "+b"],
         "self-protect-hook-settings"),
        # the move's target is judged too: a file moved over the settings replaces them
        (["*** Update File: notes.json", "*** Move to: .gemini/settings.json"],
         "self-protect-hook-settings"),
        # the second file of a patch counts as much as the first
        (["*** Add File: docs/a.md", "+x", "*** Add File: .claude/settings.json", "+{}"],
         "self-protect-hook-settings"),
    ],
)  # fmt: skip
def test_a_patch_that_changes_a_hook_file_is_denied(
    pack: Policy, places: Places, body: list[str], rule: str
) -> None:
    verdict = _judge(pack, places, _patch(*body))
    assert (verdict.decision, verdict.rule) == ("deny", rule)


def test_a_patch_of_project_files_is_judged_as_edits_of_them(pack: Policy, places: Places) -> None:
    patch = _patch("*** Update File: src/app.py", "@@", "-a = 1", "+a = 2",
                   "*** Add File: docs/new.md", "+hello")  # fmt: skip
    verdict = _judge(pack, places, patch)
    # its Add File: a whole-file write without git's facts: free, not granted
    # (test_host_tool_losses judges it on a repository)
    assert verdict.decision is None, verdict
    assert [p.program for p in verdict.pieces] == ["edit_file", "write_file"]
    assert verdict.pieces[0].decision == "allow"


def test_a_patch_outside_the_workspace_is_asked(pack: Policy, places: Places) -> None:
    verdict = _judge(pack, places, _patch("*** Add File: /etc/cron.d/job", "+* * * * * x"))
    assert verdict.decision in ("ask", "deny")


def test_the_operations_field_can_only_add_paths(pack: Policy, places: Places) -> None:
    """A handler's or host's ``operations`` that disagree with the patch text never hide
    what the patch writes; what they add is judged too."""
    patch = _patch("*** Add File: .claude/settings.json", "+{}")
    hidden = _judge(pack, places, patch, operations=[{"op": "add", "path": "docs/x.md"}])
    assert hidden.decision == "deny"
    added = _judge(pack, places, _patch("*** Add File: docs/x.md", "+x"),
                   operations=[{"op": "delete", "path": ".claude/settings.json"}])  # fmt: skip
    assert added.decision == "deny"


@pytest.mark.parametrize(
    "patch",
    [
        _patch("*** Add File: docs/a.md", "+x", "*** Copy File: docs/b.md"),  # unknown header
        "just some text",  # names no file
        _patch(),
    ],
)
def test_a_patch_not_fully_read_is_never_granted(pack: Policy, places: Places, patch: str) -> None:
    verdict = _judge(pack, places, patch)
    assert verdict.decision is None, verdict


def test_no_patch_text_is_no_grant(pack: Policy, places: Places) -> None:
    verdict = judge({"tool_name": "apply_patch", "tool_input": {"command": 3}}, pack, places)
    assert verdict.decision is None


def _payload(tmp_path: Path, payload: dict[str, Any]) -> str:
    path = tmp_path / "payload.json"
    path.write_text(json.dumps(payload))
    return str(path)


def test_codex_and_copilot_patches_are_judged_through_their_hosts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The hosts' own payloads, as `amplifier-hooks test` reads them: Codex sends the patch
    in ``tool_input.command``, Copilot as the tool's free-form text."""
    patch = _patch("*** Add File: .claude/settings.local.json", '+{"disableAllHooks": true}')
    codex = {"hook_event_name": "PreToolUse", "session_id": "s", "cwd": str(tmp_path),
             "tool_name": "apply_patch", "tool_input": {"command": patch}}  # fmt: skip
    assert main(["test", DEFAULT, "--host", "codex", "--json",
                 "--payload", _payload(tmp_path, codex)]) == 4  # fmt: skip
    shown = json.loads(capsys.readouterr().out)
    assert shown["rule"] == "self-protect-hook-settings"
    assert "settings.local.json" in shown["reason"]
    copilot = {"hook_event_name": "preToolUse", "sessionId": "s", "timestamp": 1,
               "cwd": str(tmp_path), "toolName": "apply_patch",
               "toolArgs": _patch("*** Delete File: .github/hooks/guard.json")}  # fmt: skip
    assert main(["test", DEFAULT, "--host", "copilot", "--json",
                 "--payload", _payload(tmp_path, copilot)]) == 4  # fmt: skip
    assert json.loads(capsys.readouterr().out)["rule"] == "self-protect-hook-settings"
