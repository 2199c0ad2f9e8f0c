"""``amplifier-hooks claude-code hook``: one hook input on stdin, the answer on stdout
and nothing else, the exit code; failures block. Run as Claude Code runs it: a process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.hosts.support import ROOT, fixture

STRICT = ROOT / "bundles" / "strict.yaml"


def hook(
    bundle: Path, stdin: bytes, host: str = "claude-code"
) -> subprocess.CompletedProcess[bytes]:
    # --no-daemon: these tests are about answering in the hook's own process; relaying
    # to a server is tests/transports/test_daemon.py's.
    command = [sys.executable, "-m", "amplifier_hooks.cli", host, "hook", "--no-daemon"]
    return subprocess.run(
        [*command, "--bundle", str(bundle)],
        input=stdin,
        capture_output=True,
        cwd=bundle.parent,
        env={**os.environ, "AMPLIFIER_HOOKS_LOG": os.devnull},
        timeout=120,
        check=False,
    )


def pre(command: str) -> bytes:
    payload = {**fixture("claude-code", "PreToolUse"), "tool_input": {"command": command}}
    return json.dumps(payload).encode()


def test_a_denied_call_prints_the_deny_and_nothing_else() -> None:
    done = hook(STRICT, pre("rm -rf /"))
    assert done.returncode == 0
    lines = done.stdout.decode().splitlines()
    assert len(lines) == 1
    answer = json.loads(lines[0])
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_an_allowed_call_prints_the_allow() -> None:
    done = hook(STRICT, pre("git status"))
    assert done.returncode == 0
    assert json.loads(done.stdout)["hookSpecificOutput"]["permissionDecision"] == "allow"


@pytest.mark.parametrize(
    ("stdin", "why"),
    [
        (b"not json", "hook input is not JSON (Expecting value at line 1 column 1)"),
        (b"\xff\xfe", "hook input is not UTF-8 (byte 1)"),
        (b"", "hook input is not JSON"),
        (b"[1]", "hook input must be a JSON object, got an array"),
    ],
)
def test_malformed_input_blocks_with_exit_2(stdin: bytes, why: str) -> None:
    done = hook(STRICT, stdin)
    assert done.returncode == 2
    assert done.stdout == b""
    assert "amplifier-hooks could not check this call, so it is blocked" in done.stderr.decode()
    assert why in done.stderr.decode()


def test_an_unreadable_bundle_blocks(tmp_path: Path) -> None:
    bad = tmp_path / "bundle.yaml"
    bad.write_text("hooks: [")
    done = hook(bad, pre("ls"))
    answer = json.loads(done.stdout)
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "cannot load the bundle" in answer["hookSpecificOutput"]["permissionDecisionReason"]


def test_stray_output_of_a_module_never_reaches_stdout(tmp_path: Path) -> None:
    package = tmp_path / "noisy" / "amplifier_module_noisy"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(
        textwrap.dedent(
            """\
            import os, subprocess, sys

            async def mount(coordinator, config):
                print("hello from mount")
                async def handler(event, data):
                    print("hello from a handler")
                    os.write(1, b"raw bytes on fd 1\\n")
                    subprocess.run([sys.executable, "-c", "print('from a child')"], check=True)
                    return None
                coordinator.hooks.register("tool:pre", handler)
            """
        )
    )
    bundle = tmp_path / "bundle.yaml"
    bundle.write_text("hooks:\n  - module: noisy\n    source: ./noisy\n")
    done = hook(bundle, pre("ls"))
    assert done.returncode == 0
    assert done.stdout == b""  # an empty continue says nothing
    for text in ("hello from mount", "hello from a handler", "raw bytes on fd 1", "from a child"):
        assert text in done.stderr.decode()


def test_gemini_hook() -> None:
    payload = {**fixture("gemini-cli", "BeforeTool"), "tool_input": {"command": "rm -rf /"}}
    done = hook(STRICT, json.dumps(payload).encode(), host="gemini")
    assert done.returncode == 0
    assert json.loads(done.stdout)["decision"] == "deny"
