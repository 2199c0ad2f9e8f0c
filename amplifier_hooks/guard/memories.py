"""A fact a memory tool saves (Gemini CLI's ``save_memory {fact}``), read as what it is:
text put into every later session's instructions.

The host appends the fact to its memory file (``~/.gemini/GEMINI.md``), which it reads into
the model's context at every start. So a fact is an instruction the person never sees
again, and it outlives this session:

- a credential in it (by its shape, under a key that names a secret, or said in a sentence:
  ``the password is Pr0d-S3cret!2026``) is copied into every later transcript and into a
  file the model sends to its provider each time (`MEMORY_SECRET`, denied);
- one that names a switch that turns a host's prompts, sandbox or hooks off (``--yolo``,
  ``disableAllHooks``, ``hooksConfig``) tells every later session to run unguarded
  (`MEMORY_SAFETY_OFF`, asked: the person may mean it).

A subagent's brief (Claude Code's ``Task``/``Agent`` prompt) is read for the same
switches (`SUBAGENT_SAFETY_OFF`, asked): an order to another agent to run unguarded.

The switches are a list of the hosts' own names for them, not words of intent: "never
ask" alone is not judged (the guard does not guess what a sentence wants).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.keyedsecrets import keyed_secrets
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.secret_shapes import credentials_in

__all__ = [
    "MEMORY_SAFETY_OFF",
    "MEMORY_SECRET",
    "MEMORY_TOOLS",
    "SUBAGENT_SAFETY_OFF",
    "SUBAGENT_TOOLS",
    "mark_memory",
    "memory_marks",
]

MEMORY_TOOLS: Mapping[str, str] = {"save_memory": "fact"}
"""A memory tool's name -> the field that holds the text it saves."""
SUBAGENT_TOOLS: Mapping[str, str] = {"Task": "prompt", "Agent": "prompt", "task": "prompt"}
"""A subagent tool's name (Claude Code's ``Task``/``Agent``, OpenCode's ``task``) -> the
field that holds the brief the subagent follows."""
MEMORY_SECRET = "@memory-secret"
MEMORY_SAFETY_OFF = "@memory-safety-off"
SUBAGENT_SAFETY_OFF = "@subagent-safety-off"
"""A subagent's brief that names a host's own switch that turns its prompts, sandbox or
hooks off: the subagent's calls are judged too, but the brief is an order to switch the
guard off, which a person should see (asked). A credential in a brief is not judged: the
brief goes to the same provider as the conversation that wrote it."""
MAX_TEXT = 64 * 1024

_SWITCHES = re.compile(
    r"(?<![\w-])(?:--yolo|--approval-mode[= ]+yolo|approvalMode|--dangerously-skip-permissions"
    r"|--allow-dangerously-skip-permissions|bypassPermissions|dangerouslyDisableSandbox"
    r"|--dangerously-bypass-approvals-and-sandbox|danger-full-access|--allow-all-tools"
    r"|disableAllHooks|hooksConfig|--no-hooks|amplifier-hooks\s+\S+\s+uninstall)(?![\w-])"
)
"""The hosts' own names of the switches that turn their prompts, sandbox or hooks off
(Gemini CLI, Claude Code, Codex, Copilot CLI; this guard's own uninstall)."""

_SAID = re.compile(
    r"(?i)\b(?:password|passwd|passphrase|secret|token|api[ _-]?key|access[ _-]?key"
    r"|private[ _-]?key)\s+(?:is|was|=|:)\s*[`'\"]?(?P<value>[^\s`'\"]{8,128})"
)
"""A secret said in a sentence: ``the database password is <value>``."""
_PLACEHOLDER = re.compile(r"(?i)^[$<%{]|example|sample|dummy|changeme|your|xxxx|redacted")


def memory_marks(tool: str, inputs: Mapping[str, Any]) -> tuple[str, ...]:
    """The marks of a memory tool's call: `MEMORY_SECRET` when its text holds a
    credential, `MEMORY_SAFETY_OFF` when it names a switch that turns a host's safety off;
    none for any other tool, or a plain fact."""
    field = MEMORY_TOOLS.get(tool)
    text = inputs.get(field) if field is not None else None
    if field is None and tool in SUBAGENT_TOOLS:
        brief = inputs.get(SUBAGENT_TOOLS[tool])
        if isinstance(brief, str) and _SWITCHES.search(brief[:MAX_TEXT]):
            return (SUBAGENT_SAFETY_OFF,)
        return ()
    if not isinstance(text, str) or not text:
        return ()
    text = text[:MAX_TEXT]
    marks: list[str] = []
    if credentials_in(text) or keyed_secrets(text) or _said_secret(text):
        marks.append(MEMORY_SECRET)
    if _SWITCHES.search(text):
        marks.append(MEMORY_SAFETY_OFF)
    return tuple(marks)


def mark_memory(
    pieces: tuple[Piece, ...], tool: str, inputs: Mapping[str, Any]
) -> tuple[Piece, ...]:
    """``pieces`` with the `memory_marks` of the call."""
    marks = memory_marks(tool, inputs)
    if not marks:
        return pieces
    return tuple(p._replace(wrappers=(*p.wrappers, *marks)) for p in pieces)


def _said_secret(text: str) -> bool:
    """A value said to be a secret that looks like one: letters with two digits or more,
    seven distinct characters, no placeholder (``$DB_PASSWORD``, ``<token>``), no plain
    word (``stored in vault``) and no version-like name (``v2-format``)."""
    for match in _SAID.finditer(text):
        value = match.group("value").rstrip(".,;")
        if len(value) < 8 or _PLACEHOLDER.search(value):
            continue
        digits = sum(c.isdigit() for c in value)
        letters = sum(c.isalpha() for c in value)
        if digits >= 2 and letters >= 3 and len(set(value)) >= 7:  # not ``v2-format``
            return True
    return False
