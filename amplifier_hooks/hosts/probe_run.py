"""Running a doctor's probe: one command, the probe's input on stdin, a deadline.

Every host's ``doctor`` sends its harmless guarded call through what is installed and
reads the answer its own way; running the command, and what a run that does not answer
in time is, are the same for all.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from amplifier_hooks.hosts.doctor_records import PROBE_TIMEOUT, Probe, Scope, Wiring

__all__ = ["each_scope", "json_answer", "judged", "no_answer", "run_probe"]

Reader = Callable[[int, str, str], tuple[str, bool]]
"""How a host reads one run: ``(exit code, stdout, stderr)`` -> (what it says of the run, ok)."""


def run_probe(
    argv: Sequence[str],
    *,
    cwd: Path | None,
    env: Mapping[str, str],
    payload: str | None = None,
    timeout: float = PROBE_TIMEOUT,
) -> subprocess.CompletedProcess[str] | None:
    """Run ``argv`` in ``cwd`` (None: ours) with exactly ``env`` and ``payload`` on stdin;
    None when it has not answered within ``timeout`` seconds. A program that cannot start
    raises (`OSError`)."""
    try:
        return subprocess.run(
            list(argv),
            input=payload,
            capture_output=True,
            text=True,
            cwd=cwd,
            env=dict(env),
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return None


def no_answer(event: str) -> Probe:
    """The `Probe` of a run that did not answer within `PROBE_TIMEOUT`."""
    return Probe(event, None, "", "", f"no answer within {PROBE_TIMEOUT:g} s", False)


def judged(event: str, done: subprocess.CompletedProcess[str] | None, read: Reader) -> Probe:
    """The `Probe` of one run of ``event``'s command, as the host reads it."""
    if done is None:
        return no_answer(event)
    said, ok = read(done.returncode, done.stdout, done.stderr)
    return Probe(event, done.returncode, done.stdout, done.stderr, said, ok)


def json_answer(text: str, not_json: str = "an answer that is not JSON") -> dict[str, Any] | str:
    """The JSON object of a hook's answer, or what is said of an answer that is not one
    (``not_json`` says what the host makes of text it cannot read)."""
    try:
        answer = json.loads(text)
    except ValueError:
        return f"{not_json}: {text[:200]!r}"
    if not isinstance(answer, dict):
        return f"an answer that is not a JSON object: {text[:200]!r}"
    return answer


def each_scope(check: Callable[[Scope, bool], Wiring | None]) -> list[Wiring]:
    """The wirings ``check`` finds in the user's place and the project's (its second
    argument: True for the user's, as the hosts' install functions take it)."""
    found = [check("user", True), check("project", False)]
    return [wiring for wiring in found if wiring is not None]
