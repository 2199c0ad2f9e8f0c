"""``check``, ``events`` and ``approvals``: in-process through `main`, on real bundles."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from rich.cells import cell_len

from amplifier_hooks.approvals import ApprovalDecision, ApprovalRequest, ApprovalStore
from amplifier_hooks.cli import main
from amplifier_hooks.cli.session import PROJECT_ROOT
from amplifier_hooks.events import STANDARD_EVENTS

BUNDLES = sorted(p for p in (PROJECT_ROOT / "bundles").iterdir() if p.suffix in (".md", ".yaml"))
MODULES = PROJECT_ROOT / "modules"


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AMPLIFIER_HOOKS_LOG", str(tmp_path / "events.jsonl"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("COLUMNS", "200")


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
    tool_pre = [line for line in out.splitlines() if "approval_rules" in line]
    assert tool_pre, out
    # event, handler, priority, timeout, failure mode, module
    assert tool_pre[0].split() == [
        "tool:pre",
        "approval_rules",
        "-100",
        "30s",
        "closed",
        "ah-approval",
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


def test_events_without_a_bundle_are_the_standard_ones(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["events", "--json"]) == 0
    listing = json.loads(capsys.readouterr().out)
    assert [e["event"] for e in listing["events"]] == list(STANDARD_EVENTS)
    assert {e["kind"] for e in listing["events"]} == {"standard"}


def test_events_of_a_bundle_include_contributed_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bundle = tmp_path / "todo.yaml"
    bundle.write_text(
        f"hooks:\n  - {{module: ah-todo-reminder, source: {MODULES / 'ah-todo-reminder'}}}\n"
    )
    assert main(["events", str(bundle), "--json"]) == 0
    listing = json.loads(capsys.readouterr().out)
    kinds = {e["event"]: e["kind"] for e in listing["events"]}
    assert kinds["todo:updated"] == "contributed"
    assert kinds["todo:item_completed"] == "contributed"
    handlers = {e["event"]: e["handlers"] for e in listing["events"]}
    assert "todo-reminder:track (ah-todo-reminder)" in handlers["tool:post"]

    assert main(["events", str(bundle)]) == 0
    out = capsys.readouterr().out
    assert "todo:updated" in out and "contributed" in out


def remember(store: ApprovalStore, key: str, allowed: bool) -> None:
    choice = "Allow always" if allowed else "Deny always"
    request = ApprovalRequest(
        prompt=f"Run {key}?", options=["Allow always", "Deny always"], source="guard", key=key
    )
    decision = ApprovalDecision(
        allowed=allowed,
        choice=choice,
        via="person",
        scope="always",
        remembered=True,
        source="guard",
        prompt=request.prompt,
        key=key,
    )
    store.remember(request, decision)


def test_approvals_list_and_forget(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "approvals.db"
    store = ApprovalStore(path)
    remember(store, "shell:make test", True)
    remember(store, "shell:rm -rf /", False)
    store.close()

    assert main(["approvals", "list", "--store", str(path), "--json"]) == 0
    listing = json.loads(capsys.readouterr().out)
    assert [(r["key"], r["allowed"]) for r in listing["remembered"]] == [
        ("shell:make test", True),
        ("shell:rm -rf /", False),
    ]
    assert main(["approvals", "list", "--store", str(path)]) == 0
    out = capsys.readouterr().out
    assert "shell:make test" in out and "allow" in out and "deny" in out

    assert main(["approvals", "forget", "shell:make test", "--store", str(path)]) == 0
    assert "forgot 1 remembered decision" in capsys.readouterr().out
    assert main(["approvals", "forget", "shell:make test", "--store", str(path)]) == 1
    assert "nothing remembered under 'shell:make test'" in capsys.readouterr().err

    assert main(["approvals", "forget", "--all", "--store", str(path)]) == 0
    assert "forgot 1 remembered decision" in capsys.readouterr().out
    assert main(["approvals", "list", "--store", str(path)]) == 0
    assert "No remembered decisions" in capsys.readouterr().out


def test_approvals_default_store_is_the_state_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Nothing there yet: listed as empty, and the listing does not create the file.
    assert main(["approvals", "list"]) == 0
    assert str(tmp_path / "state" / "amplifier-hooks" / "approvals.db") in capsys.readouterr().out
    assert not (tmp_path / "state").exists()


def test_approvals_forget_needs_a_key_or_all(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["approvals", "forget"]) == 2
    assert main(["approvals", "forget", "k", "--all"]) == 2


LONG_KEY = "approval_rules:shell:python -m pytest -q tests/test_calc.py --maxfail=1"


def listed(out: str) -> dict[str, list[str]]:
    """The rows of ``approvals list`` by decision: the cells, split on runs of spaces."""
    rows: dict[str, list[str]] = {}
    for line in out.splitlines():
        cells = re.split(r"\s{2,}", line.strip())
        if cells[0] in ("allow", "deny"):
            rows[cells[0]] = cells
    return rows


@pytest.mark.parametrize("columns", [80, 100])
def test_approvals_list_on_a_normal_terminal_shows_the_decision_first(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    columns: int,
) -> None:
    monkeypatch.setenv("COLUMNS", str(columns))
    path = tmp_path / "approvals.db"
    store = ApprovalStore(path)
    remember(store, LONG_KEY, True)
    remember(store, "approval_rules:write-outside:/home/someone/elsewhere/pytest.ini", False)
    store.close()
    assert main(["approvals", "list", "--store", str(path)]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert all(cell_len(line.rstrip()) <= columns for line in lines)
    header = next(line for line in lines if line.split()[:1] == ["decision"])
    assert header.split() == ["decision", "scope", "age", "asked", "by", "key"]
    rows = listed(out)
    assert set(rows) == {"allow", "deny"}  # allow and deny tell apart at any width
    _, scope, age, source, key = rows["allow"]
    assert (scope, source) == ("always", "guard")
    assert re.fullmatch(r"\d+[smhd]", age)
    # Too long for what is left: cut in the middle, both ends kept.
    assert "…" in key and LONG_KEY.startswith(key.split("…")[0])
    assert LONG_KEY.endswith(key.split("…")[1])
    assert "'approvals forget' takes them as shown" in " ".join(out.split())


def test_a_key_shortened_by_the_listing_can_be_forgotten_as_shown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    path = tmp_path / "approvals.db"
    store = ApprovalStore(path)
    remember(store, LONG_KEY, True)
    remember(store, LONG_KEY.replace("--maxfail=1", "-x --maxfail=1"), True)
    remember(store, "shell:ls", False)
    store.close()
    assert main(["approvals", "list", "--store", str(path)]) == 0
    shown = [cells[-1] for cells in listed(capsys.readouterr().out).values()]
    # Both long keys start and end alike: a shortened form too short to tell them apart
    # is refused rather than guessed.
    ambiguous = "approval_rules:shell:python…--maxfail=1"
    assert main(["approvals", "forget", ambiguous, "--store", str(path)]) == 1
    assert "fits 2 remembered keys" in capsys.readouterr().err
    assert main(["approvals", "forget", "shell:ls", "--store", str(path)]) == 0
    capsys.readouterr()
    assert main(["approvals", "list", "--store", str(path), "--json"]) == 0
    keys = [r["key"] for r in json.loads(capsys.readouterr().out)["remembered"]]
    assert keys == [LONG_KEY, LONG_KEY.replace("--maxfail=1", "-x --maxfail=1")]
    exact = f"{LONG_KEY[:30]}…{LONG_KEY[-20:]}"  # the start of only one of them
    assert main(["approvals", "forget", exact, "--store", str(path)]) == 0
    assert "forgot 1 remembered decision" in capsys.readouterr().out
    assert main(["approvals", "list", "--store", str(path), "--json"]) == 0
    keys = [r["key"] for r in json.loads(capsys.readouterr().out)["remembered"]]
    assert keys == [LONG_KEY.replace("--maxfail=1", "-x --maxfail=1")]
    assert shown  # the listing showed the keys it was asked for


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


def test_verbose_works_before_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["-v", "events"]) == 0
    assert "tool:pre" in capsys.readouterr().out


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
