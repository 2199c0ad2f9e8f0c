"""``amplifier-hooks claude-code install|uninstall``: our hooks merged into Claude Code's
settings, the user's own kept, idempotent, only ours removed, bad files untouched."""

from __future__ import annotations

import io
import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from amplifier_hooks.cli import main
from amplifier_hooks.hosts.claude_code.install import InstallPlan, is_ours
from amplifier_hooks.hosts.launch import HOOK_SCRIPT, hook_argv
from tests.hosts.support import ROOT

STRICT = ROOT / "bundles" / "strict.yaml"

USERS_OWN: dict[str, Any] = {
    "permissions": {"allow": ["Read"]},
    "model": "sonnet",
    "hooks": {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}
        ],
        "Notification": [{"hooks": [{"type": "command", "command": "notify-send hi"}]}],
    },
}


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        code = main(list(argv))
    finally:
        sys.stdout, sys.stderr = saved
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)  # the bundle's logging module writes under the cwd
    path = tmp_path / "settings.json"
    path.write_text(json.dumps(USERS_OWN, indent=2))
    return path


def ours(settings: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    found: dict[str, list[dict[str, Any]]] = {}
    for event, groups in settings.get("hooks", {}).items():
        for group in groups:
            found.setdefault(event, []).extend(h for h in group["hooks"] if is_ours(h))
    return {e: hs for e, hs in found.items() if hs}


def test_install_wires_the_bundles_events_and_keeps_the_users_own(settings: Path) -> None:
    code, out, err = run(
        "claude-code", "install", "--bundle", str(STRICT), "--settings", str(settings)
    )
    assert (code, err) == (0, "")
    assert out.startswith(f"installed amplifier-hooks in {settings} (command hooks): ")
    written = json.loads(settings.read_text())
    assert written["permissions"] == USERS_OWN["permissions"]
    assert written["model"] == "sonnet"
    assert written["hooks"]["PreToolUse"][0] == USERS_OWN["hooks"]["PreToolUse"][0]
    assert written["hooks"]["Notification"] == USERS_OWN["hooks"]["Notification"]
    installed = ours(written)
    assert {"PreToolUse", "PostToolUse", "UserPromptSubmit", "SessionStart", "SessionEnd"} <= set(
        installed
    )
    hook = installed["PreToolUse"][0]
    assert hook["type"] == "command"
    assert hook["command"] == (
        f"{sys.executable} -S -P {HOOK_SCRIPT} claude-code hook --bundle {STRICT}"
    )
    assert hook["timeout"] == 600
    assert installed["SessionEnd"][0]["timeout"] == 10


def test_installing_twice_changes_nothing(settings: Path) -> None:
    run("claude-code", "install", "--bundle", str(STRICT), "--settings", str(settings))
    before = settings.read_bytes()
    stamp = settings.stat().st_mtime_ns
    code, out, _ = run(
        "claude-code", "install", "--bundle", str(STRICT), "--settings", str(settings)
    )
    assert code == 0
    # (a second line says WILL NOT RUN where `claude` is not on PATH)
    assert out.splitlines()[0] == (
        f"amplifier-hooks is already installed in {settings}; nothing changed"
    )
    assert settings.read_bytes() == before
    assert settings.stat().st_mtime_ns == stamp


def test_uninstall_removes_only_ours(settings: Path) -> None:
    run("claude-code", "install", "--bundle", str(STRICT), "--settings", str(settings))
    code, out, _ = run("claude-code", "uninstall", "--settings", str(settings))
    assert (code, out) == (0, f"removed amplifier-hooks from {settings}\n")
    assert json.loads(settings.read_text()) == USERS_OWN
    code, out, _ = run("claude-code", "uninstall", "--settings", str(settings))
    assert out == f"no amplifier-hooks hooks in {settings}; nothing changed\n"


def test_http_hooks_carry_the_token_and_block_on_failure(settings: Path) -> None:
    url = "http://127.0.0.1:8765/claude-code"
    code, out, _ = run(
        "claude-code", "install", "--bundle", str(STRICT), "--settings", str(settings), "--url", url
    )
    assert code == 0 and f"(HTTP hooks to {url})" in out
    installed = ours(json.loads(settings.read_text()))
    pre = installed["PreToolUse"][0]
    assert pre == {
        "type": "http",
        "url": url,
        "headers": {
            "Authorization": "Bearer $AMPLIFIER_HOOKS_TOKEN",
            # Whether a person is at Claude Code's prompt (provider auto).
            "X-Claude-Code-Entrypoint": "$CLAUDE_CODE_ENTRYPOINT",
        },
        "allowedEnvVars": ["AMPLIFIER_HOOKS_TOKEN", "CLAUDE_CODE_ENTRYPOINT"],
        "timeout": 600,
        "onFailure": "block",
    }
    assert installed["UserPromptSubmit"][0]["onFailure"] == "block"
    assert "onFailure" not in installed["PostToolUse"][0]
    # Switching to command hooks replaces ours, never adds a second set.
    run("claude-code", "install", "--bundle", str(STRICT), "--settings", str(settings))
    again = ours(json.loads(settings.read_text()))
    assert [h["type"] for h in again["PreToolUse"]] == ["command"]


def test_command_hooks_on_guarding_events_block_when_they_fail(settings: Path) -> None:
    """A command that cannot start, exits 1 or times out must not let the call through."""
    run("claude-code", "install", "--bundle", str(STRICT), "--settings", str(settings))
    installed = ours(json.loads(settings.read_text()))
    assert installed["PreToolUse"][0]["onFailure"] == "block"
    assert installed["UserPromptSubmit"][0]["onFailure"] == "block"
    assert "onFailure" not in installed["PostToolUse"][0]
    assert "onFailure" not in installed["SessionEnd"][0]


def test_a_malformed_settings_file_is_an_error_and_untouched(settings: Path) -> None:
    settings.write_text('{\n  "hooks": {,\n}\n')
    code, out, err = run(
        "claude-code", "install", "--bundle", str(STRICT), "--settings", str(settings)
    )
    assert (code, out) == (2, "")
    assert err == (
        f"error: {settings}: not valid JSON: Expecting property name enclosed in double "
        "quotes at line 2 column 13\n"
    )
    assert settings.read_text() == '{\n  "hooks": {,\n}\n'


def test_hooks_of_the_wrong_shape_are_an_error(settings: Path) -> None:
    settings.write_text('{"hooks": {"PreToolUse": {"matcher": "Bash"}}}')
    code, _, err = run("claude-code", "uninstall", "--settings", str(settings))
    assert code == 2
    assert err == f"error: {settings}: 'hooks.PreToolUse' must be a list of matcher groups\n"


def test_a_new_settings_file_is_created(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, _ = run("claude-code", "install", "--bundle", str(STRICT))
    assert code == 0
    written = json.loads((tmp_path / ".claude" / "settings.json").read_text())
    assert set(written) == {"hooks"}


def test_a_bundle_path_with_spaces_is_quoted(tmp_path: Path) -> None:
    plan = InstallPlan(tmp_path / "my bundle.yaml", ("PreToolUse",), executable="/opt/py thon")
    command = plan.handler("PreToolUse")["command"]
    assert command == (
        f"'/opt/py thon' -S -P {HOOK_SCRIPT} claude-code hook --bundle '{tmp_path}/my bundle.yaml'"
    )
    assert is_ours({"type": "command", "command": command})


def test_hooks_of_every_form_we_ever_wrote_are_ours(tmp_path: Path) -> None:
    """An install replaces what an older one wrote (``-m amplifier_hooks.cli``), a hook
    run by the console script, and one whose script path needs quoting."""
    spaced = "/opt/my site/amplifier_hooks/cli/hook_start.py"
    argv = [spaced if w == HOOK_SCRIPT else w for w in hook_argv("/py", "codex", "/b.md")]
    assert f"'{spaced}' codex hook" in shlex.join(argv)
    for command in (
        "/py -m amplifier_hooks.cli claude-code hook --bundle /b.md",
        "amplifier-hooks gemini hook --bundle /b.md",
        shlex.join(argv),
    ):
        assert is_ours({"type": "command", "command": command}), command
    assert not is_ours({"type": "command", "command": "echo amplifier-hooks codex"})


def _git_repo(path: Path) -> Path:
    import subprocess

    path.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    return path


def test_install_in_a_subfolder_writes_at_the_git_root_and_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    project = _git_repo(tmp_path / "proj")
    (project / "build").mkdir()
    monkeypatch.chdir(project / "build")
    code, out, _ = run("claude-code", "install", str(STRICT))
    assert code == 0
    assert (project / ".claude" / "settings.json").exists()
    assert not (project / "build" / ".claude").exists()
    assert out.startswith(
        f"installed amplifier-hooks in {project / '.claude' / 'settings.json'} "
        f"(the project root: the git root of {project / 'build'}; --settings FILE "
        "writes elsewhere) (command hooks): "
    )


def test_install_uses_claude_project_dir_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "claude-project"
    project.mkdir()
    elsewhere = _git_repo(tmp_path / "repo")
    monkeypatch.chdir(elsewhere)
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(project))
    code, out, _ = run("claude-code", "install", str(STRICT))
    assert code == 0
    assert (project / ".claude" / "settings.json").exists()
    assert "(the project root: $CLAUDE_PROJECT_DIR;" in out


def test_install_outside_any_project_says_it_used_this_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    folder = tmp_path / "loose"
    folder.mkdir()
    monkeypatch.chdir(folder)
    code, out, _ = run("claude-code", "install", str(STRICT))
    assert code == 0
    assert (folder / ".claude" / "settings.json").exists()
    assert "(this folder: not in a git repository and no $CLAUDE_PROJECT_DIR;" in out


def test_uninstall_finds_the_same_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    project = _git_repo(tmp_path / "proj")
    (project / "build").mkdir()
    monkeypatch.chdir(project / "build")
    assert run("claude-code", "install", str(STRICT))[0] == 0
    code, out, _ = run("claude-code", "uninstall")
    assert (code, out.split(" (")[0]) == (
        0,
        f"removed amplifier-hooks from {project / '.claude' / 'settings.json'}",
    )


def test_installing_a_queue_bundle_with_a_file_store_warns_about_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, logs: list[dict[str, Any]]
) -> None:
    monkeypatch.chdir(tmp_path)
    bundle = tmp_path / "queued.md"
    bundle.write_text(
        "---\nbundle:\n  name: queued\nsession:\n  approvals:\n    provider: queue\n"
        f"    store: {tmp_path / 'approvals.db'}\nhooks:\n  - module: ah-approval\n---\n"
    )
    code, _, err = run("claude-code", "install", str(bundle), "--settings", "s.json")
    assert code == 0
    assert [r for r in logs if r["log_level"] in ("warning", "error")] == []
    assert "in-process" not in err
    assert not (tmp_path / "approvals.db").exists()  # installing opens no store
