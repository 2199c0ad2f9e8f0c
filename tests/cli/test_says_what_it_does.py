"""The command line tells the truth at once: ``install`` says WILL NOT RUN where doctor
would, an empty bundle is never a silent guard (``check`` warns, ``install`` refuses it
without ``--allow-empty``, ``test`` says so), and ``test`` with a bad bundle gives one
clean error (JSON with ``--json``). Each run as a person runs it: the real command, a
fresh HOME."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.hosts.support import ROOT, fixture

STRICT = ROOT / "bundles" / "strict.yaml"
MINIMAL = ROOT / "bundles" / "minimal.yaml"


def cli(tmp_path: Path, *argv: str, path: str | None = None) -> subprocess.CompletedProcess[str]:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("CODEX")}
    env.update(HOME=str(home), PATH=path if path is not None else env.get("PATH", ""))
    return subprocess.run(
        [sys.executable, "-m", "amplifier_hooks.cli", *argv],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=180,
        check=False,
    )


@pytest.fixture
def empty(tmp_path: Path) -> Path:
    bundle = tmp_path / "empty.yaml"
    bundle.write_text("hooks: []\n")
    return bundle


@pytest.mark.parametrize(("host", "binary"), [("codex", "codex"), ("gemini", "gemini")])
def test_install_says_will_not_run_when_the_host_is_missing(
    tmp_path: Path, host: str, binary: str
) -> None:
    bare = tmp_path / "bin"  # a PATH without the host's program
    bare.mkdir()
    done = cli(tmp_path, host, "install", "--bundle", str(STRICT), path=str(bare))
    assert done.returncode == 0, done.stderr
    assert f"status: WILL NOT RUN: {binary!r}" in done.stdout
    assert "is not on PATH" in done.stdout
    assert "trusted" not in done.stdout and "will run" not in done.stdout


def test_an_empty_bundle_is_refused_by_install_unless_allowed(tmp_path: Path, empty: Path) -> None:
    refused = cli(tmp_path, "claude-code", "install", "--bundle", str(empty))
    assert refused.returncode == 2
    assert "has no module that handles any event" in refused.stderr
    assert "--allow-empty" in refused.stderr
    assert not (tmp_path / ".claude").exists()
    allowed = cli(tmp_path, "claude-code", "install", "--bundle", str(empty), "--allow-empty")
    assert allowed.returncode == 0, allowed.stderr
    assert "is empty: it guards and records nothing" in allowed.stdout


def test_check_warns_about_an_empty_bundle(tmp_path: Path, empty: Path) -> None:
    done = cli(tmp_path, "check", str(empty), "--json")
    assert done.returncode == 0, done.stderr
    [warning] = json.loads(done.stdout)["warnings"]
    assert "has no module: it guards and records nothing" in warning
    text = cli(tmp_path, "check", str(empty))
    assert "warning: bundle empty has no module" in text.stdout
    assert "warning" not in cli(tmp_path, "check", str(MINIMAL)).stdout


def test_test_says_an_empty_bundle_allows_only_because_nothing_objects(
    tmp_path: Path, empty: Path
) -> None:
    done = cli(tmp_path, "test", str(empty), "--", "ls")
    assert done.returncode == 5  # no opinion: nothing grants it either
    assert "warning: bundle empty has no module: nothing guards this call" in done.stdout


def test_a_bad_bundle_is_one_clean_error_and_json_with_json(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("hooks:\n  - module: ah-nope\n")
    done = cli(tmp_path, "test", str(bad), "--", "ls")
    assert done.returncode == 2
    assert done.stderr.startswith("error: "), done.stderr  # no log line before it
    as_json = cli(tmp_path, "test", str(bad), "--json", "--", "ls")
    assert as_json.returncode == 2
    answer = json.loads(as_json.stdout)
    assert answer["ok"] is False and "ah-nope" in answer["error"]


BAD_BUNDLES = {
    # found when the bundle loads
    "a module that does not exist": ("hooks:\n  - module: ah-nope\n", "bad.yaml:2: hooks[0]"),
    # found when the module mounts: its config has a typo
    "a typo in a module's config": (
        "hooks:\n  - module: ah-approval\n    config:\n      decison: ask\n",
        "bad.yaml:4: hooks[0].config.decison: module 'ah-approval' rejected its config: "
        "unknown key 'decison'",
    ),
}


def answer_of(done: subprocess.CompletedProcess[str]) -> str:
    error: str = json.loads(done.stdout)["error"]
    return error


CLEAN_COMMANDS = {
    "run": ("run", "bad.yaml", "--no-tui"),
    "test": ("test", "bad.yaml", "--", "ls"),
}


@pytest.mark.parametrize("command", list(CLEAN_COMMANDS))
@pytest.mark.parametrize("what", list(BAD_BUNDLES))
def test_run_and_test_say_a_bad_bundle_in_one_clean_error(
    tmp_path: Path, what: str, command: str
) -> None:
    text, where = BAD_BUNDLES[what]
    (tmp_path / "bad.yaml").write_text(text)
    done = cli(tmp_path, *CLEAN_COMMANDS[command])
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    # One line naming file, line and key: no timestamped log line before it.
    assert done.stderr.startswith(f"error: {where}"), done.stderr
    assert done.stderr.count("\n") == 1, done.stderr


@pytest.mark.parametrize("what", list(BAD_BUNDLES))
def test_test_json_says_a_bad_bundle_in_a_json_error(tmp_path: Path, what: str) -> None:
    text, where = BAD_BUNDLES[what]
    (tmp_path / "bad.yaml").write_text(text)
    as_json = cli(tmp_path, "test", "bad.yaml", "--json", "--", "ls")
    assert as_json.returncode == 2
    assert as_json.stderr in ("", f"error: {answer_of(as_json)}\n")  # at most the error
    answer = json.loads(as_json.stdout)
    assert answer == {"ok": False, "error": answer["error"], "exit_code": 2}
    assert answer["error"].startswith(where)


def test_run_brings_the_loaders_log_back_with_v(tmp_path: Path) -> None:
    text, where = BAD_BUNDLES["a typo in a module's config"]
    (tmp_path / "bad.yaml").write_text(text)
    verbose = cli(tmp_path, "run", "bad.yaml", "--no-tui", "-v")
    assert verbose.returncode == 2
    assert "hook module failed" in verbose.stderr
    assert verbose.stderr.splitlines()[-1].startswith(f"error: {where}")


def test_test_judges_a_copilot_payload(tmp_path: Path) -> None:
    payload = fixture("copilot", "preToolUse")
    payload["toolArgs"]["command"] = "rm -rf /"
    (tmp_path / "call.json").write_text(json.dumps(payload))
    for host in ((), ("--host", "copilot")):
        done = cli(tmp_path, "test", str(STRICT), "--payload", "call.json", *host, "--json")
        assert done.returncode == 4, done.stderr
        assert json.loads(done.stdout)["decision"] == "deny"
