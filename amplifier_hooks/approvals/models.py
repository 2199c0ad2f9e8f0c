"""What an approval is made of: the request a person sees, the decision the gate returns,
the provider protocol, and how option words are read."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any, Literal, NamedTuple, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, field_validator

from amplifier_hooks.engine.result import DEFAULT_APPROVAL_OPTIONS, AllowOrDeny
from amplifier_hooks.toolcalls import DETAIL_LIMIT, as_text, clean_text, extract_fields

__all__ = [  # AllowOrDeny lives in engine.result; clean_text, extract_fields in toolcalls
    "DETAIL_LIMIT",
    "AllowOrDeny",
    "ApprovalDecision",
    "ApprovalDeferral",
    "ApprovalDismissed",
    "ApprovalError",
    "ApprovalProvider",
    "ApprovalRequest",
    "ApprovalTimeout",
    "OptionMeaning",
    "OptionWords",
    "Scope",
    "Via",
    "answer_fields",
    "classify_option",
    "clean_text",
    "extract_fields",
    "memory_key",
    "pick_option",
    "read_option",
    "summarize",
]

Scope = Literal["once", "session", "always"]
Via = Literal["person", "timeout", "remembered", "policy", "error", "host"]
"""Who decided: ``host`` is a person at the agent CLI's own permission prompt, as the
host reported it afterwards (it ran the tool call, or said it was denied): the answer
that completes an `ApprovalDeferral`."""


class ApprovalError(Exception):
    """Base class of the approval errors a provider may raise on purpose."""


class ApprovalTimeout(ApprovalError):
    """A provider's own countdown ran out: the gate applies the request's default.

    Deliberately not a `TimeoutError`: a provider that fails with some unrelated timeout
    (a network call, say) must fail closed, not fall through to an ``allow`` default.
    """


class ApprovalDismissed(ApprovalError):
    """The person closed the question without choosing an option (the gate denies)."""


class ApprovalRequest(BaseModel):
    """One question for a person (or a policy): everything needed to answer it."""

    model_config = ConfigDict(frozen=True)

    prompt: str
    options: list[str] = Field(default_factory=lambda: list(DEFAULT_APPROVAL_OPTIONS))
    timeout: float = 300.0
    default: AllowOrDeny = "deny"
    event: str = ""
    source: str = ""
    """Name of the hook handler that asked."""
    reason: str | None = None
    details: dict[str, str] = Field(default_factory=dict)
    """A short readable view of the event data (tool, command, path…), values truncated."""
    key: str = ""
    """What a remembered answer to this request is stored under (see `memory_key`)."""
    raw: dict[str, Any] = Field(default_factory=dict, exclude=True, repr=False)
    """The full, untruncated fields that `details` summarises, for policy matching."""
    shown_raw: dict[str, Any] | None = Field(None, exclude=True, repr=False)
    """``raw`` as it may be stored and shown (secrets redacted by the gate); None: ``raw``
    has nothing to hide. A policy matches ``raw``; a queue keeps this."""
    workspace: str = ""
    """The workspace (directory) the asking agent works in, when known."""
    session_id: str = ""
    """The session of the asking agent (the coordinator's, or its host's: a Claude Code
    session id), when known: what an approver is shown to tell agents apart."""
    remember_scope: str = ""
    """Where an "always" answer applies: a workspace path, or ``"*"`` for everywhere
    (empty: everywhere, for requests built by hand)."""

    @property
    def scope_text(self) -> str:
        """What an "always" answer would cover, in words shown next to the options."""
        where = self.remember_scope
        if not where or where == "*":
            return "this request, in every workspace"
        return f"this request, in {where}"

    def memory_note(self) -> str | None:
        """The line shown beside the options when one is remembered ("always"): which
        options and what they would cover; None when no option is remembered for good."""
        always = [o for o in self.options if classify_option(o).scope == "always"]
        if not always:
            return None
        names = ", ".join(f'"{o}"' for o in always)
        return f"{names}: don't ask again for {self.scope_text}"

    @field_validator("options")
    @classmethod
    def _check_options(cls, options: list[str]) -> list[str]:
        if not options:
            raise ValueError("an approval request needs at least one option")
        if any(not o.strip() for o in options) or len(set(options)) != len(options):
            raise ValueError("approval options must be non-blank and distinct")
        return options

    @field_validator("timeout")
    @classmethod
    def _check_timeout(cls, timeout: float) -> float:
        if not timeout > 0:
            raise ValueError("approval timeout must be a positive number of seconds")
        return timeout

    @property
    def default_option(self) -> str | None:
        """The option that means the default answer (what Escape picks), if there is one."""
        return pick_option(self.options, self.default)


class ApprovalDecision(BaseModel):
    """What the gate decided for one request, and how it came to it."""

    model_config = ConfigDict(frozen=True)

    allowed: bool
    choice: str | None
    """The option chosen (by a person, a policy or a remembered answer), None otherwise."""
    via: Via
    remembered: bool = False
    """True when this answer was stored now, to answer the same question later."""
    scope: Scope = "once"
    """How long the chosen option asked to be remembered for."""
    reason: str | None = None
    source: str
    prompt: str
    event: str = ""
    key: str = ""
    at: datetime | None = None


class ApprovalDeferral(BaseModel):
    """A question the gate left to the host's own permission prompt (approval provider
    ``host``): neither granted nor denied here. The host owns it; the host adapter turns
    it into the host's "ask", and what the host reports back (the tool call ran, or was
    denied) completes its audit record as a decision ``via="host"``."""

    model_config = ConfigDict(frozen=True)

    owner: Literal["host"] = "host"
    """Who answers the question: the agent CLI that asked for the tool call."""
    reason: str
    """Why the question went to the host, for people (the audit's reason)."""
    source: str
    prompt: str
    event: str = ""
    key: str = ""
    call_id: str | None = None
    """The host's id of the tool call (``tool_call_id``): how its report is matched."""
    at: datetime | None = None


def answer_fields(request: ApprovalRequest) -> dict[str, Any]:
    """What an answer (an `ApprovalDecision` or an `ApprovalDeferral`) copies from the
    question it answers, so the audit can tell which question it was, stamped now."""
    return {
        "source": request.source,
        "prompt": request.prompt,
        "event": request.event,
        "key": request.key,
        "at": datetime.now(UTC),
    }


@runtime_checkable
class ApprovalProvider(Protocol):
    """Anything that can answer an `ApprovalRequest` with one of its options.

    A provider may also carry a ``via`` attribute (``"person"`` by default, ``"policy"``
    for rule-based providers) so that decisions and the audit say who answered; raising
    `ApprovalTimeout` means "no answer in time", any other exception fails closed.
    """

    async def request_approval(self, request: ApprovalRequest) -> str: ...


class OptionMeaning(NamedTuple):
    """What an option's words say: allow or deny (None: neither), and for how long."""

    decision: AllowOrDeny | None
    scope: Scope


_DENY_WORDS = frozenset(
    {"deny", "reject", "no", "not", "never", "don't", "dont", "block", "decline", "refuse"}
    | {"cancel", "abort", "stop", "skip", "disallow", "forbid"}
)
_ALLOW_WORDS = frozenset({"allow", "approve", "yes", "ok", "okay", "accept", "permit"})
_ALWAYS_WORDS = frozenset({"always", "forever", "permanently"})
_SESSION_WORDS = frozenset({"session"})
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")


class OptionWords(NamedTuple):
    """Everything an option's words say, before the safety rules of `classify_option`."""

    decision: AllowOrDeny | None
    """Set by the first allow or deny word (None: the option has neither)."""
    mixed: bool
    """The option has both allow and deny words (``"Allow always (not recommended)"``)."""
    asked_scope: Scope
    """How long the words ask to be remembered for, taken at face value."""


def read_option(option: str) -> OptionWords:
    """Read an option's words: the first allow or deny word decides
    (``"Don't allow"`` denies, ``"Allow always (not recommended)"`` allows), and a session
    scope wins over "always" (the narrower memory is the safer)."""
    words = _WORD.findall(option.lower().replace("\u2019", "'"))
    decision: AllowOrDeny | None = None
    for word in words:
        if word in _ALLOW_WORDS:
            decision = "allow"
            break
        if word in _DENY_WORDS:
            decision = "deny"
            break
    present = set(words)
    mixed = bool(present & _ALLOW_WORDS) and bool(present & _DENY_WORDS)
    if present & _SESSION_WORDS:
        scope: Scope = "session"
    elif present & _ALWAYS_WORDS:
        scope = "always"
    else:
        scope = "once"
    return OptionWords(decision, mixed, scope)


def classify_option(option: str) -> OptionMeaning:
    """What choosing ``option`` means: its decision (`read_option`) and how long to remember
    it. An option with both allow and deny words is never remembered: its scope is "once",
    because which half the person meant cannot be known."""
    words = read_option(option)
    return OptionMeaning(words.decision, "once" if words.mixed else words.asked_scope)


def pick_option(options: list[str], decision: AllowOrDeny) -> str | None:
    """The option that gives ``decision`` just this once (preferred), else for longer."""
    matching = [o for o in options if classify_option(o).decision == decision]
    for option in matching:
        if classify_option(option).scope == "once":
            return option
    return matching[0] if matching else None


def memory_key(
    source: str,
    prompt: str,
    options: list[str],
    explicit: object = None,
    fields: Mapping[str, Any] | None = None,
) -> str:
    """The key a remembered answer is stored under.

    A hook may name the question itself (``data["approval_key"]``, e.g. ``"write:/srv/*"``)
    so that differently worded prompts share one answer; otherwise the key is a hash of
    who asked, what was asked, the options offered and the request's own fields (tool,
    command, path, url), so "always" for one command never answers another.
    """
    if isinstance(explicit, str) and explicit.strip():
        return explicit.strip()
    parts: list[Any] = [source, prompt, options]
    if fields:
        parts.append(sorted((str(k), as_text(v)) for k, v in fields.items()))
    blob = json.dumps(parts, ensure_ascii=False, separators=(",", ":"))
    return "auto:" + hashlib.sha256(blob.encode("utf-8")).hexdigest()[:32]


# -- a readable view of the event data ---------------------------------------------------

_SKIP = frozenset({"timestamp", "approval_key", "approval_ttl", "approval_scope"})


def summarize(
    data: Mapping[str, Any], limit: int = DETAIL_LIMIT, max_fields: int = 4
) -> dict[str, str]:
    """A short, display-safe view of the event data for a person deciding on it.

    The known fields (tool, command, path, url) come first; an event that has none of
    them shows its first few plain fields instead, so the person is never asked blind.
    """
    fields = extract_fields(data)
    if not fields:
        for key, value in data.items():
            if key in _SKIP or isinstance(value, Mapping | list):
                continue
            fields[str(key)] = as_text(value)
            if len(fields) >= max_fields:
                break
    # Values are commands, paths and URLs: cut in the middle, so the end stays in view.
    return {clean_text(k, 40): clean_text(v, limit, middle=True) for k, v in fields.items()}
