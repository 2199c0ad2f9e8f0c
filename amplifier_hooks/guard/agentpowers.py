"""An edit that gives the application's own language-model agent more power over the
machine, or takes away the person who approved its acts.

An LLM agent's tools are what a prompt injection reaches: a tool list that gains a shell
(LangChain's ``ShellTool``, a Python REPL), a flag that lets the model's code run or a
pickled index load (``allow_dangerous_code=True``, ``allow_dangerous_deserialization=True``),
a requests toolkit that carries a token the model never needed to see, or a graph
compiled without the ``interrupt_before`` that stopped it before a refund or an email, a
system prompt whose "never" and "do not" lines are taken out: from the next deploy on,
whoever writes into the agent's input acts with those powers.
Each is marked `AGENT_EMPOWERED` (asked: a person who knows the agent's users says so).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.changedtext import more
from amplifier_hooks.guard.ignorefiles import change_pairs

__all__ = ["AGENT_EMPOWERED", "empowers_agent"]

AGENT_EMPOWERED = "@agent-empowered"
_POWERS = re.compile(
    r"\b(?:ShellTool|BashProcess|TerminalTool|PythonREPLTool|PythonAstREPLTool|PythonREPL"
    r"|E2BDataAnalysisTool|LocalCommandLineCodeExecutor|create_python_agent"
    r"|allow_dangerous_(?:code|deserialization|requests)\s*=\s*True"
    r"|allowDangerous\w*\s*:\s*true|use_docker\"?\s*[:=]\s*False)\b"
)
"""A shell or code execution handed to the model, or a library's own refusal switched off."""
_TOKEN_TOOL = re.compile(
    r"\b(?:RequestsToolkit|RequestsWrapper|TextRequestsWrapper|OpenAPIToolkit)\b"
    r"[^\n]{0,200}(?:Authorization|Bearer|api[_-]?key|token)",
    re.I,
)
"""A tool the model calls with a credential in every request it makes."""
_APPROVAL = re.compile(
    r"\binterrupt_(?:before|after)\s*=|\bhuman_in_the_loop\b|\brequire_approval\b"
)
"""Where a graph or agent stops for a person before a tool runs."""
_PROMPT_FILE = re.compile(
    r"(?:^|/)prompts?/|system[_-]?prompt|\.prompty?\Z|(?:^|/)[^/]*prompt[^/]*\.(?:md|txt|ya?ml"
    r"|j2|jinja2?)\Z",
    re.I,
)
_RULE_LINE = re.compile(
    r"^\s*(?:[-*+]\s+|\d+[.)]\s+)?(?:never|do\s+not|don'?t|must\s+not|under\s+no\s+circumstances"
    r"|only\s+\w+|always\s+(?:escalate|refuse|ask|decline|verify))\b",
    re.I,
)
"""A system prompt's rule: what the model must never do, or must hand to a person."""
_MAX_TEXT = 64 * 1024


def empowers_agent(paths: tuple[str, ...], inputs: Mapping[str, Any]) -> bool:
    """Whether a write or edit hands the application's agent a shell, code execution, a
    credential, drops its approval step or its prompt's rules."""
    if any(_PROMPT_FILE.search(path) for path in paths):
        for old, new in change_pairs(inputs):
            kept = {line.strip() for line in new.splitlines()}
            dropped = [line for line in old.splitlines() if line.strip() not in kept]
            if any(_RULE_LINE.match(line) for line in dropped):
                return True
    for old, new in change_pairs(inputs):
        if len(old) + len(new) > _MAX_TEXT:
            continue
        for pattern in (_POWERS, _TOKEN_TOOL):
            if more(pattern, old, new):
                return True
        if old and len(_APPROVAL.findall(new)) < len(_APPROVAL.findall(old)):
            return True
    return False
