"""Running a doctor's probe: one command, the probe's input on stdin, a deadline.

Every host's ``doctor`` sends its harmless guarded call through what is installed and
reads the answer its own way; running the command, and what a run that does not answer
in time is, are the same for all.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from amplifier_hooks.hosts.doctor_records import PROBE_TIMEOUT, Probe

__all__ = ["judged", "no_answer", "run_probe"]

Verdict = Callable[[int, str, str], tuple[str, bool]]
"""How a host reads one run: ``(exit code, stdout, stderr)`` -> (verdict, ok)."""


def run_probe(
    argv: Sequence[str], *, cwd: Path, env: Mapping[str, str], payload: str | None = None
) -> subprocess.CompletedProcess[str] | None:
    """Run ``argv`` in ``cwd`` with exactly ``env`` and ``payload`` on stdin; None when it
    has not answered within `PROBE_TIMEOUT`."""
    try:
        return subprocess.run(
            list(argv),
            input=payload,
            capture_output=True,
            text=True,
            cwd=cwd,
            env=dict(env),
            timeout=PROBE_TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return None


def no_answer(event: str) -> Probe:
    """The `Probe` of a run that did not answer within `PROBE_TIMEOUT`."""
    return Probe(event, None, "", "", f"no answer within {PROBE_TIMEOUT:g} s", False)


def judged(event: str, done: subprocess.CompletedProcess[str] | None, verdict: Verdict) -> Probe:
    """The `Probe` of one run of ``event``'s command, as the host reads it."""
    if done is None:
        return no_answer(event)
    said, ok = verdict(done.returncode, done.stdout, done.stderr)
    return Probe(event, done.returncode, done.stdout, done.stderr, said, ok)
