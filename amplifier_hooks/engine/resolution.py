"""What an emit returns: the `Resolution`, the records it holds, and how it is built.

A `Resolution` is made once per emit, so it is built straight from values that were
validated where they were made (a `HookResult` checks itself), without validating again
(`construct`). The records it holds (`Injection`, `UserMessage`) are named tuples for the
same reason; `AskUser` is a model because the approval gate reads it as one.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NamedTuple, TypeVar

from pydantic import BaseModel, ConfigDict, Field, PlainSerializer

from amplifier_hooks.engine.result import HookResult, Level, Role
from amplifier_hooks.engine.trace import Trace

__all__ = [
    "AskUser",
    "Grant",
    "Injection",
    "Resolution",
    "UserMessage",
    "build_resolution",
    "construct",
    "plain_resolution",
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


class AskUser(BaseModel):
    """One ask_user result with the handler that asked; the approval gate turns it into a
    question for a person."""

    model_config = ConfigDict(frozen=True)

    source: str
    prompt: str
    options: list[str]
    timeout: float
    default: Literal["allow", "deny"]
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
    approvals: list[AskUser] = Field(default_factory=list)
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
_object_new = object.__new__
# The setters of BaseModel's four instance slots: what object.__setattr__ would find for
# these names, minus its lookup (which cost more than everything else here together).
_set_dict = BaseModel.__dict__["__dict__"].__set__
_set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__
_FIELD_NAMES: dict[type[BaseModel], set[str]] = {
    model: set(model.model_fields) for model in (Resolution, AskUser)
}

M = TypeVar("M", bound=BaseModel)


def construct(model: type[M], values: dict[str, Any]) -> M:
    """A ``model`` whose field dict is ``values`` (every field present), unvalidated.

    This is what ``model.model_construct`` does, minus its generality: for every
    ``default_factory`` field it calls ``inspect.signature(list)``. ``python -m
    benchmarks.bench_plain_calls`` measured 1.3 µs per `Resolution` here against 10.6 µs
    through ``model_construct``: 15% against 119% of a whole emit of 10 handlers
    returning None (CPU time; docs/performance.md). Every value here was validated where
    it was made (a HookResult, ...). tests/engine/test_resolver.py checks that the result
    equals ``model_construct``'s, so a pydantic change that breaks this shortcut fails a
    test.
    """
    instance: M = _object_new(model)
    _set_dict(instance, values)
    # Every instance of a model shares one fields set: all its fields are set, and the
    # models are frozen, so pydantic never adds to it (model_copy copies it first).
    _set_fields_set(instance, _FIELD_NAMES[model])
    _set_extra(instance, None)
    _set_private(instance, None)
    return instance


def plain_resolution(data: dict[str, Any], trace: Trace) -> Resolution:
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
