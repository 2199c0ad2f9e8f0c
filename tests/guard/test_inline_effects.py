"""Inline Python whose only loud statements are literal commands (`pyeffects`): judged
as those commands, never granted; a loss of work, a keyword or anything unread keeps the
inline-code ask."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.pyeffects import effects_only
from amplifier_hooks.guard.pyreader import read_python
from tests.guard.conftest import Judge


@pytest.mark.parametrize(
    "command",
    [
        'python3 -c \'import subprocess; subprocess.run(["git", "status", "--short"], '
        "check=True)'",
        "python3 -c \"import shutil; shutil.rmtree('.mypy_cache', ignore_errors=True)\"",
        'python3 -c \'import subprocess; subprocess.run(["ruff", "check", "src"]); print("done")\'',
    ],
)
def test_literal_commands_in_python_have_no_opinion(verdict: Judge, command: str) -> None:
    judged = verdict(command)
    assert judged.decision is None, (command, judged)


@pytest.mark.parametrize(
    ("command", "decision"),
    [
        (
            'python3 -c \'import subprocess; subprocess.run(["git", "push", "-f", "origin", '
            '"main"])\'',
            "deny",
        ),
        ("python3 -c \"import shutil; shutil.rmtree('src')\"", "ask"),  # work lost
        ('python3 -c \'import subprocess; subprocess.run(["make"], cwd="/opt")\'', "ask"),
        ("python3 -c 'import subprocess; subprocess.run(\"make\", shell=True)'", "ask"),
        ("python3 -c 'import subprocess as s; s.run([\"make\"])'", "ask"),
        ("python3 -c 'import subprocess; subprocess = 1; subprocess.run([\"ls\"])'", "ask"),
        ('python3 -c \'import subprocess, os; subprocess.run(["ls"]); os.remove("x")\'', "ask"),
        ("python3 -c 'import subprocess; x = subprocess.run([\"ls\"])'", "ask"),  # result used
    ],
)
def test_their_harmful_or_unread_twins_are_still_stopped(verdict: Judge, command: str,
                                                         decision: str) -> None:  # fmt: skip
    judged = verdict(command)
    assert judged.decision == decision, (command, judged)


def test_effects_only_needs_a_read_call_and_a_quiet_rest() -> None:
    assert effects_only(read_python, 'import subprocess\nsubprocess.run(["ls"])')
    assert not effects_only(read_python, "print(1)")  # nothing taken out: the reader's call
    assert not effects_only(read_python, 'import subprocess\nsubprocess.run(["ls"], env={})')
    assert not effects_only(read_python, "import subprocess\nsubprocess.run(cmd)")
    assert not effects_only(read_python, "def f(:")
