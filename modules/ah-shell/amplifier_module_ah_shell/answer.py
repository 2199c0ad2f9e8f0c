"""Turning a command's exit status and output into one `HookResult`.

The vocabulary is Claude Code's (exit code 2, ``decision``, ``continue``,
``hookSpecificOutput.permissionDecision``, ``updatedInput``, ``additionalContext``,
``systemMessage``), so scripts written for it work unchanged. An answer that cannot be
understood raises `AnswerError`; the handler reports it as a failure, which then fails open
or closed according to the hook's ``fail_closed``.
"""

from __future__ import annotations

import json
import re
import signal
from typing import Any

from amplifier_hooks import HookResult
from amplifier_hooks.logs import get_logger
from amplifier_module_ah_shell.config import PlainStdout
from amplifier_module_ah_shell.runner import Completed

logger = get_logger()

BLOCK_EXIT_CODE = 2
MAX_REASON_CHARS = 4000
"""Reasons and messages are clipped: a script that dumps a log to stderr should not flood
the model's context with it."""

CONTEXT_BY_DEFAULT = frozenset({"prompt:submit", "session:start"})
"""Events whose plain stdout becomes context under ``plain_stdout: auto`` (as in Claude
Code, where only these two add plain output to the conversation)."""

_DECISIONS = {"block": "deny", "deny": "deny", "approve": "allow", "allow": "allow"}
_PERMISSIONS = frozenset({"allow", "deny", "ask", "defer"})
# C0 controls and DEL, except tab, newline, carriage return and escape (colour codes).
_BINARY = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f]")
_KIND_NAMES: dict[type, str] = {dict: "an object", str: "a string", bool: "true or false"}


class AnswerError(Exception):
    """The command ran but its answer is not one we can act on."""


def clip(text: str, limit: int = MAX_REASON_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 15] + " ... [clipped]"


def interpret(
    completed: Completed,
    event: str,
    data: dict[str, Any],
    *,
    name: str,
    plain_stdout: PlainStdout,
    ephemeral: bool,
) -> HookResult | None:
    """The result for a command that ran to the end (see the module docstring)."""
    stderr = completed.stderr.decode("utf-8", errors="replace").strip()
    code = completed.returncode
    if code == BLOCK_EXIT_CODE:
        return HookResult(
            action="deny", reason=clip(stderr or f"blocked by shell hook {name!r} (exit 2)")
        )
    if code != 0:
        detail = f": {clip(stderr, 500)}" if stderr else ""
        raise AnswerError(f"{_describe_status(code)}{detail}")
    try:
        text = completed.stdout.decode("utf-8").strip()
    except UnicodeDecodeError as exc:
        raise AnswerError(f"stdout is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    if not text:
        return None
    control = _BINARY.search(text)
    if control is not None:
        raise AnswerError(
            f"stdout holds binary data (control character {control.group()!r} at offset "
            f"{control.start()}): {clip(text, 120)!r}"
        )
    if text[0] in "{[":
        try:
            answer = json.loads(text)
        except json.JSONDecodeError as exc:
            raise AnswerError(
                f"stdout looks like JSON but does not parse ({exc.msg} at line {exc.lineno} "
                f"column {exc.colno}): {clip(text, 120)!r}"
            ) from None
        if not isinstance(answer, dict):
            raise AnswerError(f"the JSON answer must be an object, got {type(answer).__name__}")
        return from_json(answer, data, name=name, ephemeral=ephemeral)
    return _from_plain(text, event, name=name, mode=plain_stdout, ephemeral=ephemeral)


def _describe_status(code: int) -> str:
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exited with status {code}"


def _from_plain(
    text: str, event: str, *, name: str, mode: PlainStdout, ephemeral: bool
) -> HookResult | None:
    if mode == "error":
        raise AnswerError(
            f"plain text on stdout where JSON or nothing was expected: {text[:120]!r}"
        )
    if mode == "context" or (mode == "auto" and event in CONTEXT_BY_DEFAULT):
        return HookResult(
            action="inject_context", context_injection=clip(text), ephemeral=ephemeral
        )
    logger.debug("shell hook stdout ignored", handler=name, hook_event=event, preview=text[:120])
    return None


def _get(answer: dict[str, Any], key: str, kind: type, where: str) -> Any:
    value = answer.get(key)
    if value is not None and not isinstance(value, kind):
        expected = _KIND_NAMES.get(kind, kind.__name__)
        raise AnswerError(f"{where}{key} must be {expected}, got {type(value).__name__}")
    return value


def from_json(
    answer: dict[str, Any], data: dict[str, Any], *, name: str, ephemeral: bool
) -> HookResult | None:
    """Map a JSON answer to one result. Precedence within one answer:
    deny > ask_user > modify > inject_context > continue.

    A handler yields exactly one result, so a lower-ranked part of the same answer is
    dropped (with a warning). ``updatedInput`` outranks ``additionalContext`` because
    dropping an input change would run something the script did not accept, while dropping
    context only loses information. ``systemMessage`` and ``suppressOutput`` ride on
    whatever result wins.
    """
    specific = _get(answer, "hookSpecificOutput", dict, "")
    specific = specific or {}

    def either(key: str, kind: type) -> Any:
        # hookSpecificOutput is where Claude Code puts these; a top-level key is accepted too.
        value = _get(specific, key, kind, "hookSpecificOutput.")
        return value if value is not None else _get(answer, key, kind, "")

    proceed = _get(answer, "continue", bool, "")
    stop_reason = _get(answer, "stopReason", str, "")
    decision_raw = _get(answer, "decision", str, "")
    reason = _get(answer, "reason", str, "")
    permission_raw = either("permissionDecision", str)
    permission_reason = either("permissionDecisionReason", str)
    updated = either("updatedInput", dict)
    context = either("additionalContext", str)
    message = _get(answer, "systemMessage", str, "")
    suppress = _get(answer, "suppressOutput", bool, "")

    decision = None
    if decision_raw is not None:
        decision = _DECISIONS.get(decision_raw.lower())
        if decision is None:
            raise AnswerError(f"decision must be one of block, approve; got {decision_raw!r}")
    permission = None
    if permission_raw is not None:
        permission = permission_raw.lower()
        if permission not in _PERMISSIONS:
            raise AnswerError(
                f"permissionDecision must be one of allow, deny, ask, defer; got {permission_raw!r}"
            )

    common: dict[str, Any] = {"suppress_output": bool(suppress)}
    if message:
        common["user_message"] = clip(message)

    def dropped(*parts: str) -> None:
        present = {"updatedInput": updated is not None, "additionalContext": bool(context)}
        lost = [p for p in parts if present[p]]
        if lost:
            logger.warning(
                "shell hook answer: lower-precedence parts ignored", handler=name, ignored=lost
            )

    if proceed is False:
        dropped("updatedInput", "additionalContext")
        text = stop_reason or reason or permission_reason or f"stopped by shell hook {name!r}"
        return HookResult(action="deny", reason=clip(text), **common)
    if decision == "deny" or permission == "deny":
        dropped("updatedInput", "additionalContext")
        text = permission_reason or reason or f"blocked by shell hook {name!r}"
        return HookResult(action="deny", reason=clip(text), **common)
    if permission == "ask":
        # Context may ride on the question (applied only if approved); an input change
        # cannot, so the person is asked about the input that will actually run.
        dropped("updatedInput")
        tool = data.get("tool_name")
        prompt = (
            permission_reason
            or reason
            or (f"Shell hook {name!r} asks: allow {tool}?" if tool else f"Shell hook {name!r} asks")
        )
        return HookResult(
            action="ask_user",
            approval_prompt=clip(prompt),
            reason=permission_reason or reason,
            context_injection=clip(context) if context else None,
            ephemeral=ephemeral,
            **common,
        )
    if updated is not None:
        dropped("additionalContext")
        return HookResult(action="modify", data={**data, "tool_input": updated}, **common)
    if context:
        return HookResult(
            action="inject_context", context_injection=clip(context), ephemeral=ephemeral, **common
        )
    if common["suppress_output"] or message:
        return HookResult(**common)
    return None
