"""The fail-closed hook command: a few lines of ``sh`` around ours, for hosts that let a
call through when a hook fails (`HostProfile.failures`).

Codex runs the call when a hook exits 1, times out, prints something that is not JSON,
or cannot be started; Gemini CLI on three of those. Our own process blocks whatever
goes wrong inside it, but not what goes wrong around it: an interpreter that was moved,
an import that crashes, a hang. So ``install`` writes this as the command::

    sh -c SCRIPT amplifier-hooks SECONDS EXIT JSON PYTHON -S -P .../hook_start.py HOST hook ...

The script runs our command with stdin passed through and its stdout kept. If it exits
0 with nothing or a JSON object, that is printed (the answer). If it exits 2, that is our
own block (the reason is already on stderr) -- except where the host reads a block only
from JSON (below): there it is a failure like the rest (an interpreter that cannot open
our script exits 2 too). Anything else -- no such program (126, 127), a crash (1, a
signal), no answer within SECONDS (coreutils ``timeout``, where there is one), an answer
that is not a JSON object -- prints why on stderr and exits EXIT, the host's blocking
exit code (`AnswerRules.blocking_exit`); where the host reads a block only from JSON,
JSON is that answer (the why in it) and EXIT is 0. It is installed only on the events
that guard something: anywhere else a block would be a failure of its own.
"""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from amplifier_hooks import events
from amplifier_hooks.hosts.launch import hook_argv
from amplifier_hooks.hosts.profile import HostProfile

__all__ = [
    "COLD_START_ROOM",
    "WHY",
    "WRAPPER_NAME",
    "WRAPPER_SCRIPT",
    "CommandPlan",
    "event_command",
    "fail_closed_command",
]

WRAPPER_NAME = "amplifier-hooks"
"""``$0`` of the script: what ``sh`` names in its own messages."""

COLD_START_ROOM = 10
"""Seconds between our own deadline and the host's: a cold start takes ~1.5 s, and the
block must reach the host before the host gives up on the hook (which would let the
call through)."""

WRAPPER_SCRIPT = """\
t=$1 x=$2 j=$3; shift 3
if command -v timeout >/dev/null 2>&1; then out=$(timeout -k 2 "$t" "$@"); else out=$("$@"); fi
rc=$?
case $rc in
0) case $out in ''|'{'*'}') [ -z "$out" ] || printf '%s\\n' "$out"; exit 0;; esac
   why="its answer is not JSON";;
2) if [ -z "$j" ]; then [ -z "$out" ] || printf '%s\\n' "$out"; exit 2; fi
   why="it exited 2 without an answer in JSON";;
124) why="it gave no answer within ${t}s";;
137) why="it was killed (or gave no answer within ${t}s)";;
126|127) why="its program could not be started ($1)";;
*) why="it failed (exit $rc)";;
esac
m="amplifier-hooks could not check this call, so it is blocked: $why"
echo "$m" >&2
[ -z "$j" ] || printf '%s%s%s\\n' "${j%%@WHY@*}" "$(printf '%s' "$m" | tr -d '"\\\\')" "${j#*@WHY@}"
exit "$x"
"""


WHY = "@WHY@"
"""Where the wrapper puts its message in a JSON ``failure_answer``."""


def fail_closed_command(
    profile: HostProfile,
    argv: Sequence[str],
    host_timeout: int,
    failure_answer: Mapping[str, Any] | None = None,
) -> str:
    """The shell command that runs ``argv`` fail-closed for ``profile``'s host, whose
    timeout for the hook is ``host_timeout`` (in the host's unit).

    With ``failure_answer`` (a JSON answer with `WHY` where the reason goes) a failure
    prints that answer and exits 0 instead of exiting with the blocking code: for a host
    that reads a block only from JSON on some event (Copilot CLI lets a prompt through
    on any exit code, and shows the model no reason for a failed tool hook)."""
    seconds = max(1, int(profile.timeouts.seconds(host_timeout)) - COLD_START_ROOM)
    exit_code = str(profile.answers.blocking_exit)
    template = ""
    if failure_answer is not None:
        template = json.dumps(failure_answer, ensure_ascii=False)
        if template.count(WHY) != 1:
            raise ValueError(f"failure_answer must hold {WHY} once: {template}")
        exit_code = "0"
    return shlex.join(
        ["sh", "-c", WRAPPER_SCRIPT, WRAPPER_NAME, str(seconds), exit_code, template, *argv]
    )


def event_command(
    profile: HostProfile,
    argv: Sequence[str],
    event: str,
    failure_answer: Mapping[str, Any] | None = None,
) -> tuple[str, int]:
    """Our command for the host's ``event`` and the timeout to write beside it: the
    host's shorter one on the session's last event, where it has one; the command runs in
    the fail-closed wrapper where the event guards (``failure_answer``: see
    `fail_closed_command`)."""
    timeouts = profile.timeouts
    last = event == profile.dialect.host_event_of(events.SESSION_END)
    timeout = timeouts.session_end if last and timeouts.session_end is not None else timeouts.ours
    if not profile.dialect.guarding(event):
        return shlex.join(argv), timeout
    return fail_closed_command(profile, argv, timeout, failure_answer), timeout


@dataclass(frozen=True)
class CommandPlan:
    """What to install for a host whose hooks are commands in a settings file (its
    `profile`): the bundle and the host's events to wire."""

    profile: ClassVar[HostProfile]
    bundle: Path
    events: tuple[str, ...]
    executable: str = sys.executable

    def argv(self) -> list[str]:
        return hook_argv(self.executable, self.profile.command, self.bundle)

    def command(self, event: str) -> tuple[str, int]:
        """Our command for ``event`` and its timeout (`event_command`)."""
        return event_command(self.profile, self.argv(), event)
