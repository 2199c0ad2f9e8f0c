"""What an emit returns: the `Resolution`, the records it holds, and how it is built.

A `Resolution` is made once per emit, so it is built straight from values that were
validated where they were made (a `HookResult` checks itself), without validating again
(`amplifier_hooks.engine.shortcut.construct`). The records it holds (`Injection`,
`UserMessage`) are named tuples for the same reason; `ApprovalAsk` is a model because the
approval gate reads it as one.
"""

from __future__ import annotations

from typing import Annotated, Any, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, PlainSerializer

from amplifier_hooks.engine.result import AllowOrDeny, HookResult, Level, Role
from amplifier_hooks.engine.shortcut import construct
from amplifier_hooks.engine.trace import Trace

__all__ = [
    "ApprovalAsk",
    "Grant",
    "Injection",
    "Resolution",
    "UserMessage",
    "build_resolution",
    "continue_resolution",
]


class Injection(NamedTuple):
    """One inject_context contribution, kept whole: never merged with another.

    A NamedTuple rather than a pydantic model: one is built per injecting handler per
    emit, and a model costs several times more to build even without validation. Its
    values come from a validated `HookResult`; in a `Resolution` it is validated from, and
    serialized to, a mapping with these field names (see `_InjectionField`). Build it with
    keywords: ``source`` comes second because it has no default.
    """

    text: str
    source: str
    role: Role = "system"
    ephemeral: bool = False
    append_to_last_tool_result: bool = False
    approval: int | None = None
    """Index into `Resolution.approvals` of the ask_user this injection rides on, if any:
    such an injection is applied only if that approval is granted."""


class UserMessage(NamedTuple):
    """A message for the person (not the model), with its level and who sent it.

    A NamedTuple for the same reason as `Injection`; build it with keywords.
    """

    text: str
    source: str
    level: Level = "info"


class Grant(NamedTuple):
    """An explicit allow that survived the fold: who granted, and why.

    Kept only when nothing in the same emit denied or asked; a host that has a permission
    layer of its own receives it as that host's allow.
    """

    source: str
    reason: str | None = None


def _as_mapping(record: Injection | UserMessage | Grant) -> dict[str, Any]:
    return record._asdict()


# In a Resolution these records validate from and serialize to mappings (as the models
# they replaced did), not to the positional lists pydantic uses for a NamedTuple.
_InjectionField = Annotated[Injection, PlainSerializer(_as_mapping, return_type=dict)]
_UserMessageField = Annotated[UserMessage, PlainSerializer(_as_mapping, return_type=dict)]
_GrantField = Annotated[Grant, PlainSerializer(_as_mapping, return_type=dict)]


class ApprovalAsk(BaseModel):
    """One ask_user result with the handler that asked: the approval it asks for. The
    approval gate turns it into an `ApprovalRequest` for a provider to answer."""

    model_config = ConfigDict(frozen=True)

    source: str
    prompt: str
    options: list[str]
    timeout: float
    default: AllowOrDeny
    reason: str | None = None
    data: dict[str, Any] | None = None
    """The ask_user result's own ``data``, passed through for the gate (e.g. an explicit
    ``approval_key``)."""


class Resolution(HookResult):
    """The folded outcome of one emit.

    It is a `HookResult` (so code written against the spec's single-result API keeps
    working) plus everything the single result would have to throw away.
    """

    injections: list[_InjectionField] = Field(default_factory=list)
    approvals: list[ApprovalAsk] = Field(default_factory=list)
    messages: list[_UserMessageField] = Field(default_factory=list)
    trace: Trace = Field(default_factory=Trace)
    """One entry per handler that ran (a read-only sequence of `TraceEntry`)."""
    denied_by: str | None = None
    """Name of the handler whose deny (or fail-closed failure) decided the resolution."""
    granted: _GrantField | None = None
    """The first explicit allow (a result with ``grant=True``), when nothing in the emit
    denied or asked; then ``grant`` is True as well."""

    @property
    def allowed(self) -> bool:
        """False only when the resolution is a deny."""
        return self.action != "deny"


# Every Resolution field's default. The list fields are left out on purpose: each
# resolution gets fresh lists.
RESOLUTION_DEFAULTS: dict[str, Any] = {
    name: field.default
    for name, field in Resolution.model_fields.items()
    if field.default_factory is None
}


def continue_resolution(data: dict[str, Any], trace: Trace) -> Resolution:
    """The `Resolution` of an emit in which every handler that ran just continued.

    The common case, so it skips the fold's bookkeeping: only ``data`` and ``trace``
    differ from the defaults (plus fresh lists for the other list fields).
    """
    values = RESOLUTION_DEFAULTS.copy()  # copy-then-set: faster than a {**...} display
    values["data"] = data
    values["injections"] = []
    values["approvals"] = []
    values["messages"] = []
    values["trace"] = trace
    return construct(Resolution, values)


def build_resolution(fields: dict[str, Any]) -> Resolution:
    """A `Resolution` from already-validated field values; the rest take their defaults."""
    values = RESOLUTION_DEFAULTS.copy()
    values["injections"] = []
    values["approvals"] = []
    values["messages"] = []
    values["trace"] = Trace()
    values.update(fields)
    return construct(Resolution, values)
