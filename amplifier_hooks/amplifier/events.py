"""The event names of the reference system (``amplifier_core.events``), for modules that
import them.

Both generations of the reference are covered: a module written for 1.x may import the
``*_DEBUG`` / ``*_RAW`` variants, one written for 2.x the provider and module events.
Every name is valid under this project's event-name rule, so a module that registers a
handler for each of `ALL_EVENTS` (a logger does) mounts here.
"""

from __future__ import annotations

from typing import Final

SESSION_START: Final = "session:start"
SESSION_START_DEBUG: Final = "session:start:debug"
SESSION_START_RAW: Final = "session:start:raw"
SESSION_END: Final = "session:end"
SESSION_FORK: Final = "session:fork"
SESSION_FORK_DEBUG: Final = "session:fork:debug"
SESSION_FORK_RAW: Final = "session:fork:raw"
SESSION_RESUME: Final = "session:resume"
SESSION_RESUME_DEBUG: Final = "session:resume:debug"
SESSION_RESUME_RAW: Final = "session:resume:raw"
PROMPT_SUBMIT: Final = "prompt:submit"
PROMPT_COMPLETE: Final = "prompt:complete"
PLAN_START: Final = "plan:start"
PLAN_END: Final = "plan:end"
PROVIDER_REQUEST: Final = "provider:request"
PROVIDER_RESPONSE: Final = "provider:response"
PROVIDER_RETRY: Final = "provider:retry"
PROVIDER_ERROR: Final = "provider:error"
PROVIDER_THROTTLE: Final = "provider:throttle"
PROVIDER_TOOL_SEQUENCE_REPAIRED: Final = "provider:tool_sequence_repaired"
PROVIDER_RESOLVE: Final = "provider:resolve"
LLM_REQUEST: Final = "llm:request"
LLM_REQUEST_DEBUG: Final = "llm:request:debug"
LLM_REQUEST_RAW: Final = "llm:request:raw"
LLM_RESPONSE: Final = "llm:response"
LLM_RESPONSE_DEBUG: Final = "llm:response:debug"
LLM_RESPONSE_RAW: Final = "llm:response:raw"
CONTENT_BLOCK_START: Final = "content_block:start"
CONTENT_BLOCK_DELTA: Final = "content_block:delta"
CONTENT_BLOCK_END: Final = "content_block:end"
THINKING_DELTA: Final = "thinking:delta"
THINKING_FINAL: Final = "thinking:final"
TOOL_PRE: Final = "tool:pre"
TOOL_POST: Final = "tool:post"
TOOL_ERROR: Final = "tool:error"
CONTEXT_PRE_COMPACT: Final = "context:pre_compact"
CONTEXT_POST_COMPACT: Final = "context:post_compact"
CONTEXT_COMPACTION: Final = "context:compaction"
CONTEXT_INCLUDE: Final = "context:include"
ORCHESTRATOR_COMPLETE: Final = "orchestrator:complete"
EXECUTION_START: Final = "execution:start"
EXECUTION_END: Final = "execution:end"
USER_NOTIFICATION: Final = "user:notification"
ARTIFACT_WRITE: Final = "artifact:write"
ARTIFACT_READ: Final = "artifact:read"
POLICY_VIOLATION: Final = "policy:violation"
APPROVAL_REQUIRED: Final = "approval:required"
APPROVAL_GRANTED: Final = "approval:granted"
APPROVAL_DENIED: Final = "approval:denied"
CANCEL_REQUESTED: Final = "cancel:requested"
CANCEL_COMPLETED: Final = "cancel:completed"
MODULE_LOAD_FAILED: Final = "module:load_failed"
MODULE_ON_SESSION_READY_FAILED: Final = "module:on_session_ready_failed"

ALL_EVENTS: Final[list[str]] = [
    value
    for name, value in dict(globals()).items()
    if name.isupper() and isinstance(value, str) and ":" in value
]
"""Every name above, in the order written (a list, as the reference has it)."""

NAMES: Final[dict[str, str]] = {
    name: value
    for name, value in dict(globals()).items()
    if name.isupper() and isinstance(value, str) and ":" in value
}
"""Constant name -> event name, for building the ``amplifier_core.events`` alias."""
