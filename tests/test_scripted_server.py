"""``python -m amplifier_hooks.testing.scripted_server --script FILE``: the scripted model as a
command a person can point a real agent at, with a default API key."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

from amplifier_hooks.testing.messages_api import DEFAULT_API_KEY, ScriptedModel


def _ask(base: str, key: str) -> dict[str, object]:
    body = {"model": "m", "max_tokens": 10, "tools": [{"name": "Bash"}], "messages": []}
    request = urllib.request.Request(
        f"{base}/v1/messages",
        data=json.dumps(body).encode(),
        headers={"x-api-key": key, "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as reply:  # loopback
        answer: dict[str, object] = json.loads(reply.read())
    return answer


def test_the_command_serves_a_script_until_ctrl_c(tmp_path: Path) -> None:
    script = tmp_path / "script.json"
    script.write_text(json.dumps([[{"bash": "rm -rf build"}], "Done."]))
    process = subprocess.Popen(
        [sys.executable, "-m", "amplifier_hooks.testing.scripted_server", "--script", str(script)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        base = process.stdout.readline().strip()
        key = process.stdout.readline().strip()
        assert base.startswith("ANTHROPIC_BASE_URL=http://127.0.0.1:")
        assert key == f"ANTHROPIC_API_KEY={DEFAULT_API_KEY}"
        answer = _ask(base.split("=", 1)[1], DEFAULT_API_KEY)
        assert answer["stop_reason"] == "tool_use"
        [block] = answer["content"]  # type: ignore[misc]
        assert (block["name"], block["input"]["command"]) == ("Bash", "rm -rf build")
        process.send_signal(signal.SIGINT)
        rest, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, err
    assert rest == "answered 1 of 2 turns (0 over)\n"


def test_a_bad_script_is_one_line_saying_where(tmp_path: Path) -> None:
    script = tmp_path / "script.json"
    script.write_text(json.dumps(["Hi", [{"bsh": "ls"}]]))
    done = subprocess.run(
        [sys.executable, "-m", "amplifier_hooks.testing.scripted_server", "--script", str(script)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.startswith(f"error: {script}: turn 2, block 1: expected text, ")


def test_a_scripted_model_has_a_default_key_and_takes_another() -> None:
    assert ScriptedModel().api_key == DEFAULT_API_KEY
    assert ScriptedModel(api_key="mine").api_key == "mine"
