"""``gemini install``'s changes to a settings.json, and what it says about them."""

from __future__ import annotations

import json
from pathlib import Path

from amplifier_hooks.hosts.gemini.install import (
    GeminiPlan,
    gemini_settings_path,
    install_gemini,
    uninstall_gemini,
)
from amplifier_hooks.hosts.launch import HOOK_SCRIPT

PLAN = GeminiPlan(Path("/b.yaml"), ("BeforeTool", "SessionEnd", "SessionStart"), executable="/py")


def test_the_user_file_is_found_in_home_and_the_project_file_under_it(tmp_path: Path) -> None:
    home = gemini_settings_path(None, {"HOME": str(tmp_path)})
    assert home == tmp_path / ".gemini" / "settings.json"
    assert gemini_settings_path(tmp_path / "p") == tmp_path / "p" / ".gemini" / "settings.json"


def test_install_keeps_the_users_settings_and_writes_milliseconds(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    mine = {"matcher": "write_file", "hooks": [{"type": "command", "command": "echo mine"}]}
    path.write_text(json.dumps({"model": {"name": "x"}, "hooks": {"BeforeTool": [mine]}}))

    report = install_gemini(path, PLAN)
    again = install_gemini(path, PLAN)
    settings = json.loads(path.read_text())

    assert (report.changed, again.changed) == (True, False)
    assert settings["model"] == {"name": "x"}
    assert settings["hooks"]["BeforeTool"][0] == mine
    [guard] = settings["hooks"]["BeforeTool"][1]["hooks"]
    [start] = settings["hooks"]["SessionStart"][0]["hooks"]
    [end] = settings["hooks"]["SessionEnd"][0]["hooks"]
    assert guard["timeout"] == 600000 and guard["command"].startswith("sh -c ")
    assert "amplifier-hooks 590 2 " in guard["command"]  # our deadline: 10 s before Gemini's
    assert start["command"] == f"/py -S -P {HOOK_SCRIPT} gemini hook --bundle /b.yaml"
    assert (start["name"], end["timeout"]) == ("amplifier-hooks", 10000)
    assert report.status() == "status: Gemini CLI will run 3 amplifier-hooks hook(s)"

    removed = uninstall_gemini(path)
    assert removed.changed and removed.events == ()
    assert json.loads(path.read_text()) == {"model": {"name": "x"}, "hooks": {"BeforeTool": [mine]}}


def test_the_status_says_what_keeps_gemini_from_running_them(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"hooksConfig": {"enabled": False}}))
    assert "NOT RUN: hooksConfig.enabled is false" in install_gemini(path, PLAN).status()
    project = install_gemini(tmp_path / "p.json", PLAN, project=True).status()
    assert "GEMINI_CLI_TRUST_WORKSPACE=true" in project and "--skip-trust" in project
