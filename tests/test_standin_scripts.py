"""Script files and the command-line entries of the model API stand-ins."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from pathlib import Path

import aiohttp
import pytest

from amplifier_hooks.testing.turns import CustomToolCall, Text, ToolUse, Turn, load_script


def write(tmp_path: Path, value: object) -> Path:
    path = tmp_path / "script.json"
    path.write_text(json.dumps(value))
    return path


def test_a_script_file_reads_as_turns(tmp_path: Path) -> None:
    script = load_script(
        write(
            tmp_path,
            {
                "turns": [
                    ["Looking.", {"tool": "exec_command", "arguments": {"cmd": "ls"}, "id": "c1"}],
                    {"tool": "apply_patch", "input": "*** Begin Patch\n*** End Patch\n"},
                    "Done here.",
                ],
                "then": [{"text": "Nothing more."}],
                "side_answer": "A title",
            },
        )
    )
    assert script.turns == (
        Turn("Looking.", ToolUse("exec_command", {"cmd": "ls"}, "c1")),
        Turn(CustomToolCall("apply_patch", "*** Begin Patch\n*** End Patch\n")),
        Turn(Text("Done here.")),
    )
    assert script.then == Turn("Nothing more.")
    assert script.side_answer == "A title"
    assert load_script(write(tmp_path, ["Hi."])).turns == (Turn("Hi."),)


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ({"turn": []}, "a list of turns"),
        ({"turns": [], "thn": "x"}, "unknown keys ['thn']"),
        ({"turns": [[]]}, "turn 1: a turn is a non-empty list"),
        ({"turns": [[{"tool": "x"}]]}, "turn 1, item 1: expected"),
        ({"turns": [[{"tool": "x", "arguments": {}, "input": "y"}]]}, "item 1: expected"),
        ({"turns": [[{"tool": "x", "arguments": []}]]}, "item 1: expected"),
        ({"turns": ["ok", [3]]}, "turn 2, item 1: expected"),
        ({"turns": [], "side_answer": 1}, "side_answer must be a string"),
    ],
)
def test_a_wrong_script_says_where(tmp_path: Path, value: object, says: str) -> None:
    with pytest.raises(ValueError, match=r"script\.json") as caught:
        load_script(write(tmp_path, value))
    assert says in str(caught.value)


def test_an_unreadable_script_says_so(tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(ValueError, match="cannot read the script"):
        load_script(tmp_path / "bad.json")
    with pytest.raises(ValueError, match="cannot read the script"):
        load_script(tmp_path / "missing.json")


@pytest.mark.parametrize(
    ("module", "path", "body", "answer_path"),
    [
        (
            "responses_api",
            "/v1/responses",
            {"tools": [{"name": "t"}], "input": "hi"},
            ("output", 0, "content", 0, "text"),
        ),
        (
            "gemini_api",
            "/v1beta/models/m:generateContent",
            {"tools": [{"functionDeclarations": [{"name": "t"}]}], "contents": []},
            ("candidates", 0, "content", "parts", 0, "text"),
        ),
        (
            "chat_completions",
            "/v1/chat/completions",
            {"tools": [{"function": {"name": "t"}}], "messages": []},
            ("choices", 0, "message", "content"),
        ),
        (
            "messages_api",
            "/v1/messages",
            {"tools": [{"name": "Bash"}], "messages": [{"role": "user", "content": "hi"}]},
            ("content", 0, "text"),
        ),
    ],
)
async def test_the_command_line_serves_a_script_and_records_requests(
    tmp_path: Path, module: str, path: str, body: dict[str, object], answer_path: tuple[object, ...]
) -> None:
    script = write(tmp_path, {"turns": ["From the script."]})
    record = tmp_path / "requests.jsonl"
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        f"amplifier_hooks.testing.{module}",
        "--script",
        str(script),
        "--api-key",
        "k-test",
        "--record",
        str(record),
        stdout=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert process.stdout is not None
        first = (await asyncio.wait_for(process.stdout.readline(), 60)).decode().strip()
        second = (await process.stdout.readline()).decode().strip()
        assert first.startswith("BASE_URL=http://127.0.0.1:")
        assert second == "API_KEY=k-test"
        base = first.removeprefix("BASE_URL=")
        async with aiohttp.ClientSession() as http:
            headers = {"Authorization": "Bearer k-test"}
            async with http.post(base + path, json=body, headers=headers) as response:
                answer = await response.json()
        for key in answer_path:
            answer = answer[key]
        assert answer == "From the script."
    finally:
        process.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(process.wait(), 60)
    assert code == 0
    [line] = record.read_text().splitlines()
    assert json.loads(line)["body"] == body and json.loads(line)["path"] == path


async def test_the_command_line_refuses_a_wrong_script(tmp_path: Path) -> None:
    script = write(tmp_path, {"turns": [[]]})
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "amplifier_hooks.testing.responses_api",
        "--script",
        str(script),
        stderr=asyncio.subprocess.PIPE,
    )
    _, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 2
    assert b"turn 1: a turn is a non-empty list" in err
