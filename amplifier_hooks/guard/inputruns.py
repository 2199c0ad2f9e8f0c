"""An edit that makes the application run, as a command or as code, what a request sends.

A chat bot's command that hands the message's text to ``execSync``, a web handler that
passes ``req.query.cmd`` to ``os.system`` or ``eval``: whoever can send the bot a message
or the server a request runs commands on the machine it is deployed to. An edit whose new
text adds a call to a command runner or an evaluator whose first argument is read from
the incoming message or request (``ctx.text``, ``req.body``, ``message.content``,
``request.args``), one its old text did not have, is marked `INPUT_RUN` (asked).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.changedtext import more
from amplifier_hooks.guard.ignorefiles import change_pairs

__all__ = ["INPUT_RUN", "runs_input"]

INPUT_RUN = "@input-run"
_RUN = re.compile(
    r"\b(?:execSync|exec|execFile|execFileSync|spawn|spawnSync|eval|Function|vm\.runInNewContext"
    r"|os\.system|os\.popen|subprocess\.(?:run|call|check_output|check_call|Popen)|system"
    r"|shell_exec|passthru|popen|proc_open|Runtime\.getRuntime\(\)\.exec)\s*\(\s*"
    r"(?:[`'\"][^`'\"]*\$\{\s*)?"
    r"(?P<arg>(?:ctx|req|request|msg|message|interaction|event|evt|body|params|query|payload"
    r"|update|command)\b[\w.\[\]'\"()]*)"
)
"""A runner's or an evaluator's call whose argument starts from the incoming request (a
Slack command's ``command["text"]`` among them)."""
_RAW_SQL = re.compile(
    r"(?:def|function)\s+\w+\s*\([^)]*\b(?P<name>sql|query|statement|stmt)\s*(?::\s*str)?[^)]*\)"
    r"[^\n]*\n(?:[^\n]*\n){0,4}?[^\n]*\.(?:fetch\w*|execute\w*|query|raw)\(\s*(?P=name)\s*[,)]"
)
"""A command's (a handler's) SQL parameter run as it is sent: whoever calls it reads or
changes every table."""
_MAX_TEXT = 64 * 1024


def runs_input(inputs: Mapping[str, Any]) -> bool:
    """Whether a write or edit adds a call that runs what a request or message sends."""
    pairs = change_pairs(inputs)
    for old, new in pairs:
        if len(old) + len(new) > _MAX_TEXT:
            continue
        if more(_RUN, old, new) or more(_RAW_SQL, old, new):
            return True
    return False
