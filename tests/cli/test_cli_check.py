"""``check``: in-process through `main`, on real bundles."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.cells import cell_len

from amplifier_hooks.cli import main
from amplifier_hooks.cli.session import PROJECT_ROOT

BUNDLES = sorted(p for p in (PROJECT_ROOT / "bundles").iterdir() if p.suffix in (".md", ".yaml"))
MODULES = PROJECT_ROOT / "modules"


pytestmark = pytest.mark.usefixtures("wide_terminal")


def test_there_are_bundles_to_check() -> None:
    assert {p.name for p in BUNDLES} >= {"default.md", "strict.yaml", "minimal.yaml"}


@pytest.mark.parametrize("bundle", BUNDLES, ids=lambda p: p.name)
def test_check_passes_on_every_shipped_bundle(
    bundle: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", str(bundle), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is True
    assert report["modules"], "a shipped bundle mounts at least one module"
    owners = {h["module"] for h in report["handlers"]}
    assert owners == {m["key"] for m in report["modules"]}
    for handler in report["handlers"]:
        assert isinstance(handler["priority"], int) and handler["name"]
    assert report["unused_overrides"] == {}


def test_check_lists_handlers_per_event_in_run_order(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(PROJECT_ROOT / "bundles" / "default.md")]) == 0
    out = capsys.readouterr().out
    assert "bundle default is valid: 4 modules" in out
    tool_pre = [line for line in out.splitlines() if " guard " in line]
    assert tool_pre, out
    # event, handler, priority, timeout, failure mode, module
    assert tool_pre[0].split() == [
        "tool:pre",
        "guard",
        "-100",
        "30s",
        "closed",
        "ah-guard",
    ]
    lines = out.splitlines()
    after = lines[lines.index(tool_pre[0]) + 1].split()
    assert after[:2] == ["log_event", "1000"]  # same event, runs later


def test_check_reports_a_bad_bundle_with_its_location(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bundle = tmp_path / "typo.yaml"
    bundle.write_text("bundle:\n  name: typo\nhooks:\n  - module: ah-logging\n    confg: {}\n")
    assert main(["check", str(bundle)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {bundle}:5")
    assert "confg" in err


def test_check_fails_on_a_module_that_does_not_load(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bundle = tmp_path / "missing.yaml"
    bundle.write_text("hooks:\n  - module: hooks-does-not-exist\n")
    assert main(["check", str(bundle)]) == 2
    captured = capsys.readouterr()
    assert "hooks-does-not-exist" in captured.err and "could not be loaded" in captured.err
    assert "hook module failed" not in captured.err  # said once, not also logged
    assert captured.out == ""


def test_check_fails_on_a_module_that_rejects_its_config_naming_file_line_and_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bundle = tmp_path / "guard.yaml"
    bundle.write_text(
        "hooks:\n"
        "  - module: ah-approval\n"
        f"    source: {MODULES / 'ah-approval'}\n"
        "    config:\n"
        "      ask_befor_shell: true\n",
        encoding="utf-8",
    )
    assert main(["check", str(bundle)]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(
        f"error: {bundle}:5: hooks[0].config.ask_befor_shell: module 'ah-approval' "
        "rejected its config: unknown key 'ask_befor_shell'"
    )
    assert captured.out == ""


def test_check_warns_about_an_optional_module_left_out_and_fails_with_strict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bundle = tmp_path / "optional.yaml"
    bundle.write_text(
        "hooks:\n"
        "  - module: ah-logging\n"
        f"    source: {MODULES / 'ah-logging'}\n"
        "  - module: hooks-does-not-exist\n"
        "    optional: true\n",
        encoding="utf-8",
    )
    assert main(["check", str(bundle)]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "bundle optional is valid: 1 module" in out
    assert (
        f"warning: optional module left out: {bundle}:4: hooks[1]: module "
        "'hooks-does-not-exist' could not be loaded: not found"
    ) in out
    assert main(["check", str(bundle), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [m["key"] for m in report["modules"]] == ["ah-logging"]
    [skipped] = report["skipped_optional"]
    assert skipped.startswith(f"{bundle}:4: hooks[1]: module 'hooks-does-not-exist'")
    assert main(["check", "--strict", str(bundle)]) == 2
    assert "could not be loaded" in capsys.readouterr().err


def test_check_of_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(tmp_path / "none.yaml")]) == 2
    assert "bundle file not found" in capsys.readouterr().err


def test_check_at_80_columns_shows_every_event_and_handler_name_whole(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["check", str(PROJECT_ROOT / "bundles" / "default.md"), "--json"]) == 0
    handlers = json.loads(capsys.readouterr().out)["handlers"]
    assert main(["check", str(PROJECT_ROOT / "bundles" / "default.md")]) == 0
    out = capsys.readouterr().out
    assert all(cell_len(line.rstrip()) <= 80 for line in out.splitlines())
    words = set(out.split())
    for handler in handlers:
        assert handler["event"] in words and handler["name"] in words, handler
    assert "…" not in "".join(line for line in out.splitlines() if "approval_rules" in line)


def test_check_warns_about_handlers_on_events_nothing_emits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bundle = tmp_path / "typo.yaml"
    script = tmp_path / "guard.sh"
    script.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    bundle.write_text(
        f"""
hooks:
  - module: ah-shell
    source: {PROJECT_ROOT / "modules" / "ah-shell"}
    config:
      hooks:
        - {{event: "tools:pre", command: "{script}", name: guard}}
""",
        encoding="utf-8",
    )
    assert main(["check", str(bundle)]) == 0
    out = capsys.readouterr().out
    assert "'tools:pre' is neither a standard event nor one a module says it emits" in out
    assert "guard may never run (did you mean 'tool:pre'?)" in out
    assert main(["check", str(bundle), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert list(report["unknown_events"]) == ["tools:pre"]


def test_check_warns_about_disabling_an_entry_nothing_enables(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bundle = tmp_path / "typo.yaml"
    bundle.write_text(
        f"includes: [{PROJECT_ROOT / 'bundles' / 'default.md'}]\n"
        "hooks:\n"
        "  - module: hooks-progres-monitor\n"
        "    enabled: false\n",
        encoding="utf-8",
    )
    assert main(["check", str(bundle)]) == 0
    out = capsys.readouterr().out
    assert (
        "typo.yaml:3: hooks[0]: 'enabled: false' for 'hooks-progres-monitor', which nothing "
        "before it enables (did you mean 'ah-progress-monitor'?)"
    ) in " ".join(out.split())
