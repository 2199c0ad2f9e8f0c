"""Standard lifecycle event names, and the rule every event name follows."""

from __future__ import annotations

import re
from typing import Final

SESSION_START: Final = "session:start"
SESSION_END: Final = "session:end"
SESSION_RESUME: Final = "session:resume"
EXECUTION_START: Final = "execution:start"
EXECUTION_COMPLETE: Final = "execution:complete"
PROMPT_SUBMIT: Final = "prompt:submit"
PROMPT_COMPLETE: Final = "prompt:complete"
PROVIDER_REQUEST: Final = "provider:request"
PROVIDER_RESPONSE: Final = "provider:response"
PROVIDER_ERROR: Final = "provider:error"
TOOL_PRE: Final = "tool:pre"
TOOL_POST: Final = "tool:post"
TOOL_ERROR: Final = "tool:error"
CONTEXT_COMPACTION: Final = "context:compaction"
APPROVAL_REQUIRED: Final = "approval:required"
APPROVAL_GRANTED: Final = "approval:granted"
APPROVAL_DENIED: Final = "approval:denied"
APPROVAL_DEFERRED: Final = "approval:deferred"

STANDARD_EVENTS: Final[tuple[str, ...]] = (
    SESSION_START,
    SESSION_END,
    SESSION_RESUME,
    EXECUTION_START,
    EXECUTION_COMPLETE,
    PROMPT_SUBMIT,
    PROMPT_COMPLETE,
    PROVIDER_REQUEST,
    PROVIDER_RESPONSE,
    PROVIDER_ERROR,
    TOOL_PRE,
    TOOL_POST,
    TOOL_ERROR,
    CONTEXT_COMPACTION,
    APPROVAL_REQUIRED,
    APPROVAL_GRANTED,
    APPROVAL_DENIED,
    APPROVAL_DEFERRED,
)

EVENT_NAME_PATTERN: Final = re.compile(r"^[a-z0-9_.-]+(:[a-z0-9_.-]+)+$")


# Names that passed `validate_event_name`: the same few dozen are checked again at every
# session's registrations. Bounded, so names made up by a caller cannot grow it forever.
_VALID_NAMES: set[str] = set()
_VALID_NAMES_MAX = 4096


def is_valid_event_name(name: object) -> bool:
    """True if ``name`` is a colon-delimited event name such as ``tool:pre``."""
    return isinstance(name, str) and EVENT_NAME_PATTERN.fullmatch(name) is not None


def validate_event_name(name: object) -> str:
    """Return ``name`` if it is a valid event name, else raise ``ValueError`` saying why.

    Validation happens at registration so that a misspelt event (``tool_pre``,
    ``Tool:Pre``) is caught when the handler is added, not by its silence later.
    """
    if type(name) is str and name in _VALID_NAMES:  # asked at every session's registrations
        return name
    if not isinstance(name, str):
        raise ValueError(f"event name must be a string, got {type(name).__name__}")
    if EVENT_NAME_PATTERN.fullmatch(name) is None:
        raise ValueError(
            f"invalid event name {name!r}: expected lowercase 'namespace:name' parts "
            "of [a-z0-9_.-] separated by ':' (for example 'tool:pre')"
        )
    if len(_VALID_NAMES) < _VALID_NAMES_MAX:
        _VALID_NAMES.add(name)
    return name
