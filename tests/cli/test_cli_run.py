"""``amplifier-hooks run`` end to end, headless: the report (in a subprocess, as ``make run``
runs it) and JSON lines, on the demo trace through the real bundles and modules."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest

from amplifier_hooks.cli import main
from amplifier_hooks.cli.session import DEMO_TRACE, PROJECT_ROOT
from amplifier_hooks.cli.trace_files import TraceEvent, read_trace

DEMO = read_trace(DEMO_TRACE).events
SECRET = "sk-proj-DEMOonlyNOTaREALkey000000000000"
AWS_KEY = "AKIAIOSFODNN7EXAMPLE"


@pytest.fixture(autouse=True)
def no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")


def numbers(predicate: Any) -> list[int]:
    """1-based positions of the demo events that ``predicate`` picks."""
    return [i for i, e in enumerate(DEMO, start=1) if predicate(e)]


def command(e: TraceEvent) -> str:
    return str(e.data.get("tool_input", {}).get("command", ""))


def is_pre(tool: str) -> Any:
    return lambda e: e.event == "tool:pre" and e.data.get("tool_name") == tool


BASH = numbers(is_pre("bash"))
OUTSIDE_WRITE = numbers(
    lambda e: is_pre("write_file")(e) and e.data["tool_input"]["path"].startswith("..")
)
SECRETS_READ = numbers(
    lambda e: is_pre("read_file")(e) and e.data["tool_input"]["path"] == "deploy/secrets.yaml"
)
ASKED = sorted(SECRETS_READ + OUTSIDE_WRITE)
"""The calls the default bundle's guard asks about (the others are everyday work)."""
SECRET_PROMPT = numbers(lambda e: SECRET in str(e.data.get("prompt", "")))
LEAKY_REQUESTS = numbers(lambda e: e.event == "provider:request" and AWS_KEY in json.dumps(e.data))


def test_the_demo_trace_exercises_what_the_report_must_show() -> None:
    assert len(BASH) == 4 and len(OUTSIDE_WRITE) == 1 and len(SECRET_PROMPT) == 1
    assert len(SECRETS_READ) == 1
    assert len(LEAKY_REQUESTS) >= 1


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> list[dict[str, Any]]:
    code = main(["run", "--json", "--approval-store", ":memory:", *args])
    out, err = capsys.readouterr()
    assert code == 0, err
    return [json.loads(line) for line in out.splitlines()]


def test_json_lines_describe_every_event_of_the_demo(capsys: pytest.CaptureFixture[str]) -> None:
    records = run_json(capsys)
    head, *steps, summary = records
    assert head["type"] == "replay" and head["events"] == len(DEMO)
    assert head["modules"] == [
        "ah-logging",
        "ah-redaction",
        "ah-guard",
        "ah-progress-monitor",
    ]
    assert [s["type"] for s in steps] == ["event"] * len(DEMO)
    assert [s["event"] for s in steps] == [e.event for e in DEMO]
    assert [s["line"] for s in steps] == [e.line for e in DEMO]
    by_index = {s["index"]: s for s in steps}

    # The guard let the shell commands (tests, git status, git commit) through with no
    # question; it asked about reading deploy/secrets.yaml and writing outside the
    # workspace, and the policy (the default bundle has no rules) denied them; their
    # tool:post never ran.
    for index in BASH:
        step = by_index[index]
        assert (step["outcome"], step["asked"]) == ("allowed", False)
        assert by_index[index + 1]["outcome"] == "allowed"
    for index in ASKED:
        step = by_index[index]
        assert (step["outcome"], step["asked"], step["by"]) == ("denied", True, ["guard"])
        [approval] = step["approvals"]
        assert (approval["via"], approval["choice"], approval["allowed"]) == (
            "policy",
            "Deny",
            False,
        )
        follow = by_index[index + 1]
        assert (follow["event"], follow["outcome"]) == ("tool:post", "skipped")

    # The secret in the prompt, and the secrets file's contents sent to the model, were redacted.
    for index in SECRET_PROMPT + LEAKY_REQUESTS:
        step = by_index[index]
        assert (step["outcome"], step["by"]) == ("modified", ["redact_secrets"])
        assert "[REDACTED:" in json.dumps(step["changes"])
    assert SECRET not in json.dumps(by_index[SECRET_PROMPT[0]]["changes"])

    # The runaway read loop got exactly one ephemeral nudge from the progress monitor.
    injected = [(s["index"], i) for s in steps for i in s["injected"]]
    assert len(injected) == 1
    index, nudge = injected[0]
    assert (nudge["source"], nudge["ephemeral"], nudge["role"]) == (
        "progress-monitor:tool-post",
        True,
        "system",
    )
    assert by_index[index]["event"] == "tool:post" and nudge["tokens"] > 0
    assert by_index[index]["budget"]["used"] == nudge["tokens"]

    assert summary["type"] == "summary" and summary["events"] == len(DEMO)
    assert summary["outcomes"]["denied"] == len(ASKED)
    assert summary["outcomes"]["skipped"] == len(ASKED)
    assert summary["approvals"] == {"policy: denied": len(ASKED)}
    assert [t["turn"] for t in summary["turns"]] == [0, 1, 2]


def test_approvals_allow_lets_every_call_run(capsys: pytest.CaptureFixture[str]) -> None:
    _, *steps, summary = run_json(capsys, "--approvals", "allow")
    for index in ASKED:
        step = steps[index - 1]
        assert (step["outcome"], step["asked"]) == ("allowed", True)
        assert step["approvals"][0]["choice"] == "Allow once"
        assert steps[index]["outcome"] == "allowed"  # the tool:post ran
    assert "skipped" not in summary["outcomes"]


def test_policy_approvals_use_the_bundle_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bundle = tmp_path / "ci.yaml"
    bundle.write_text(
        f"""
includes: [{PROJECT_ROOT / "bundles" / "default.md"}]
session:
  approvals:
    provider: policy
    policy:
      default: deny
      rules:
        - {{decision: allow, tool: write_file, path: "*/calc-shared/*"}}
""",
        encoding="utf-8",
    )
    _, *steps, _ = run_json(capsys, str(bundle))
    # The guard asks; the policy answers: its rule allows the write, its default denies
    # reading deploy/secrets.yaml. What the guard allows is never asked.
    assert [steps[i - 1]["outcome"] for i in OUTSIDE_WRITE + SECRETS_READ] == ["allowed", "denied"]
    assert all(steps[i - 1]["approvals"][0]["via"] == "policy" for i in ASKED)
    assert all(not steps[i - 1]["asked"] for i in BASH)


def report_line(report: str, index: int) -> str:
    match = re.search(rf"^\s*{index}  .*$", report, re.MULTILINE)
    assert match is not None, f"no report line for event #{index}"
    return match.group(0)


def details_of(report: str, index: int) -> str:
    """The indented lines under event #index."""
    lines = report.splitlines()
    start = lines.index(report_line(report, index))
    block = []
    for line in lines[start + 1 :]:
        if not line.startswith("        "):
            break
        block.append(line)
    return "\n".join(block)


def test_make_run_prints_the_report_unattended(tmp_path: Path) -> None:
    """What ``make run`` does: no arguments, stdin and stdout not terminals."""
    env = {**os.environ, "COLUMNS": "160"}
    done = subprocess.run(
        [sys.executable, "-m", "amplifier_hooks.cli", "run"],
        cwd=tmp_path,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=50,
    )
    assert done.returncode == 0, done.stderr
    report = done.stdout
    assert "\x1b[" not in report  # not a terminal, and NO_COLOR: plain text
    assert f"({len(DEMO)} events) through bundle default" in report
    assert "every question denied" in report
    for index in ASKED:
        line = report_line(report, index)
        assert "tool:pre" in line and "asked → denied" in line and "guard" in line
        assert "denied (Deny via policy) · asked by guard: " in details_of(report, index)
        assert "skipped" in report_line(report, index + 1)
        assert f"its tool:pre (#{index}) was denied" in details_of(report, index + 1)
    for index in SECRET_PROMPT + LEAKY_REQUESTS:
        assert "modified" in report_line(report, index)
        assert "redact_secrets" in report_line(report, index)
        assert "[REDACTED:" in details_of(report, index)
    assert SECRET not in report and AWS_KEY not in report
    assert "from progress-monitor:tool-post] Progress note" in report
    modified, denied = len(SECRET_PROMPT + LEAKY_REQUESTS), len(ASKED)
    assert re.search(
        rf"outcomes\s+\d+ allowed, {modified} modified, {denied} denied, {denied} skipped", report
    )
    assert re.search(rf"approvals\s+{denied} asked \({denied} by policy: denied\)", report)
    # The bundle's event log went where the environment said, and nothing else was made.
    assert (tmp_path / "events.jsonl").stat().st_size > 0
    assert not (tmp_path / ".amplifier").exists()


# -- bad input --------------------------------------------------------------------------


def write_trace(tmp_path: Path, *lines: str) -> Path:
    path = tmp_path / "session.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


GOOD = json.dumps({"event": "prompt:submit", "data": {"prompt": "hello"}})


def test_missing_trace_file_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nope.jsonl"
    assert main(["run", "--no-tui", "--trace", str(missing)]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"error: {missing}: trace file not found\n"
    assert captured.out == ""


def test_missing_bundle_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", "--no-tui", str(tmp_path / "nope.yaml")]) == 2
    assert "bundle file not found" in capsys.readouterr().err


def test_a_bad_line_stops_the_run_before_any_event(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trace = write_trace(tmp_path, GOOD, GOOD, '{"event": "tool:pre", "data": [1, 2]}', GOOD)
    assert main(["run", "--no-tui", "--trace", str(trace), "--approval-store", ":memory:"]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(f"error: {trace}:3: 'data' must be a JSON object")
    assert captured.out == ""
    assert not (tmp_path / "events.jsonl").exists()  # no hook saw anything


def test_a_bad_line_is_skipped_with_a_warning_when_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trace = write_trace(tmp_path, GOOD, "{broken", GOOD)
    args = ["run", "--json", "--trace", str(trace), "--on-bad-line", "skip"]
    assert main([*args, "--approval-store", ":memory:"]) == 0
    captured = capsys.readouterr()
    assert f"warning: {trace}:2: not valid JSON" in captured.err
    assert "(line skipped)" in captured.err
    records = [json.loads(line) for line in captured.out.splitlines()]
    assert [r["line"] for r in records if r["type"] == "event"] == [1, 3]
    assert records[0]["skipped_lines"] == 1 and records[-1]["skipped_lines"] == 1


@pytest.mark.parametrize(
    "args",
    [
        ["run", "--approvals", "maybe"],
        ["run", "--delay", "-1"],
        ["run", "--on-bad-line", "ignore"],
        [],
        ["frobnicate"],
    ],
)
def test_usage_errors_exit_2(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    assert capsys.readouterr().err


def test_an_unknown_flag_is_reported_with_the_usage_of_its_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["run", "--frobnicate"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: amplifier-hooks run ")
    assert "amplifier-hooks run: error: unrecognized arguments: --frobnicate" in err
    assert main(["approvals", "list", "--all"]) == 2
    assert "amplifier-hooks approvals list: error: unrecognized arguments: --all" in (
        capsys.readouterr().err
    )


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"amplifier-hooks {version('amplifier-hooks')}\n"


# -- the report at 80 columns -------------------------------------------------------------


def report_at(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["run", "--no-tui", "--approval-store", ":memory:", *args]) == 0
    return capsys.readouterr().out


def test_the_report_at_80_columns_keeps_every_verdict(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    report = report_at(capsys)
    assert all(len(line) <= 80 for line in report.splitlines())
    header = next(line for line in report.splitlines() if line.split()[:2] == ["#", "outcome"])
    assert header.split() == ["#", "outcome", "event", "by", "call"]
    for index, event in enumerate(DEMO, start=1):
        cells = report_line(report, index).split()
        assert cells[0] == str(index)
        # The verdict comes right after the number, whole.
        assert cells[1] in ("allowed", "modified", "skipped", "asked")
        if cells[1] == "asked":
            assert cells[2:4] == ["→", "denied"]
        assert event.event in cells
    for index in ASKED:
        details = details_of(report, index)
        # Each approval's verdict leads its line; the prompt follows and may be cut.
        assert details.splitlines()[0].split()[:4] == ["denied", "(Deny", "via", "policy)"]
        assert "approval guard" not in details


def test_the_report_shows_multi_line_text_on_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    report = report_at(capsys)
    # The progress note spans lines; the report joins them.
    assert "\\x0a" not in report
    assert "Progress note: the last 10 tool calls only read or searched. If you know" in report


def test_wide_terminals_give_the_call_the_width(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "160")
    report = report_at(capsys)
    commit = next(i for i in BASH if "git commit" in command(DEMO[i - 1]))
    assert f"bash: {command(DEMO[commit - 1])}" in report_line(report, commit)


def test_the_strict_bundle_runs_everyday_work_and_denies_every_question(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, *steps, _ = run_json(capsys, str(PROJECT_ROOT / "bundles" / "strict.yaml"))
    outcomes = {command(DEMO[i - 1]): steps[i - 1]["outcome"] for i in BASH}
    assert set(outcomes.values()) == {"allowed"}
    assert [steps[i - 1]["outcome"] for i in ASKED] == ["denied", "denied"]


def test_the_module_entry_point_prints_help() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "amplifier_hooks.cli", "--help"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0
    for name in ("run", "check", "events", "approvals"):
        assert name in done.stdout


def _exploding_bundle(tmp_path: Path) -> tuple[Path, Path]:
    # A name of its own: a package name is imported once per process.
    name = f"boom{uuid.uuid4().hex[:8]}"
    package = tmp_path / name / f"amplifier_module_{name}"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(
        "async def explode(event, data):\n"
        "    raise RuntimeError('kaboom: disk full')\n\n\n"
        "async def mount(coordinator, config):\n"
        "    coordinator.hooks.register('tool:pre', explode, name='explode')\n"
    )
    bundle = tmp_path / "boom.yaml"
    bundle.write_text(f"hooks:\n  - module: {name}\n    source: {name}\n")
    trace = tmp_path / "t.jsonl"
    trace.write_text(
        '{"event": "tool:pre", "data": {"tool_name": "bash", "tool_input": {"command": "ls"}}}\n'
    )
    return bundle, trace


@pytest.mark.parametrize("verbose", [False, True])
def test_a_failing_handler_is_one_line_and_its_traceback_only_with_v(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], verbose: bool
) -> None:
    bundle, trace = _exploding_bundle(tmp_path)
    args = ["run", str(bundle), "--trace", str(trace), "--no-tui", "--store", ":memory:"]
    assert main([*args, "-v"] if verbose else args) == 0
    out, err = capsys.readouterr()
    failed = [line.strip() for line in out.splitlines() if "explode" in line]
    assert failed == ["failed explode: raised: RuntimeError: kaboom: disk full"]
    assert "Traceback" not in out
    [log] = [line for line in err.splitlines() if "hook handler failed" in line]
    assert "error='RuntimeError: kaboom: disk full'" in log
    assert "handler=explode" in log and "hook_event=tool:pre" in log
    if verbose:
        assert "Traceback (most recent call last):" in err
        assert "raise RuntimeError('kaboom: disk full')" in err
    else:
        assert err.splitlines() == [log]
