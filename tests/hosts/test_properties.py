"""Properties: any JSON value gives a well-formed answer, never an exception; a deny
never maps to an allowing answer; a guarding event is never allowed by a failure."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amplifier_hooks import HookResult
from amplifier_hooks.hosts import CLAUDE_CODE, CODEX, GEMINI, HostAdapter, HostAnswer
from amplifier_hooks.hosts.claude_code import CLAUDE_CODE_DIALECT
from amplifier_hooks.hosts.gemini import GEMINI_DIALECT
from amplifier_hooks.hosts.outcomes import STAMPED_FIELDS, changed_fields
from tests.hosts.support import answer_with, returning

ADAPTERS = st.sampled_from([CLAUDE_CODE, CODEX, GEMINI])
EVENT_NAMES = st.sampled_from(
    sorted(CLAUDE_CODE_DIALECT.known_events | GEMINI_DIALECT.known_events)
)
TOOLS = st.sampled_from(["Bash", "Write", "Read", "run_shell_command", "mcp__x__y", "Edit"])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)

payloads = st.fixed_dictionaries(
    {"hook_event_name": EVENT_NAMES | st.text(), "session_id": st.text() | json_values},
    optional={
        "cwd": st.text() | json_values,
        "tool_name": TOOLS | json_values,
        "tool_input": st.dictionaries(st.text(), json_values, max_size=4) | json_values,
        "prompt": st.text() | json_values,
        "extra": json_values,
    },
)

ALLOWING = {"allow", "approve"}


def allows(answer: HostAnswer) -> bool:
    """Whether the answer lets something through explicitly."""
    output = answer.output or {}
    specific = output.get("hookSpecificOutput") or {}
    decision = specific.get("decision")
    return (
        specific.get("permissionDecision") in ALLOWING
        or output.get("decision") in ALLOWING
        or (isinstance(decision, dict) and decision.get("behavior") == "allow")
    )


def blocks(answer: HostAnswer) -> bool:
    output = answer.output or {}
    specific = output.get("hookSpecificOutput") or {}
    decision = specific.get("decision")
    return (
        answer.exit_code == 2
        or specific.get("permissionDecision") == "deny"
        or output.get("decision") in ("deny", "block")
        or (isinstance(decision, dict) and decision.get("behavior") == "deny")
    )


def well_formed(answer: HostAnswer) -> None:
    assert answer.exit_code in (0, 2)
    assert answer.output is None or isinstance(answer.output, dict)
    json.dumps(answer.output)  # serializable, as the CLI prints it
    if answer.exit_code == 2:
        assert answer.stderr


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(adapter=ADAPTERS, payload=payloads | json_values)
def test_any_json_value_is_answered_and_a_failure_never_allows(
    adapter: HostAdapter, payload: Any
) -> None:
    failing = HookResult(action="deny", reason="nothing may pass")

    async def check() -> HostAnswer:
        try:
            call = adapter.parse(payload)
        except ValueError as exc:
            answer = adapter.refuse(None, str(exc), True)
            assert blocks(answer)
            return answer
        answer = await answer_with(adapter, payload, returning(failing))
        assert not allows(answer)
        if call.guarding:
            assert blocks(answer)
        refused = adapter.refuse(call, "boom", call.guarding)
        well_formed(refused)
        assert not allows(refused)
        if call.guarding:
            assert blocks(refused)
        return answer

    well_formed(asyncio.run(check()))


@settings(max_examples=100, deadline=None)
@given(
    adapter=ADAPTERS,
    event=EVENT_NAMES,
    reason=st.text(min_size=1, max_size=30_000),
    tool_input=st.dictionaries(st.text(max_size=10), json_values, max_size=4),
)
def test_a_deny_never_maps_to_an_allowing_answer(
    adapter: HostAdapter, event: str, reason: str, tool_input: dict[str, Any]
) -> None:
    payload = {
        "hook_event_name": event,
        "session_id": "s",
        "tool_name": "Bash",
        "tool_input": tool_input,
    }
    deny = HookResult(action="deny", reason=reason)
    answer = asyncio.run(answer_with(adapter, payload, returning(deny)))
    well_formed(answer)
    assert not allows(answer)
    call = adapter.parse(payload)
    if call.guarding:
        assert blocks(answer)
    for text in _strings(answer.output):
        assert len(text) <= 10_000


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


FIELD_NAMES = st.sampled_from(["tool_input", "cwd", "timestamp", "parent_id", "x", "y"])


@given(
    before=st.dictionaries(FIELD_NAMES, json_values, max_size=6),
    edits=st.dictionaries(FIELD_NAMES, st.none() | json_values, max_size=4),
    removed=st.sets(FIELD_NAMES, max_size=3),
    copied=st.booleans(),
)
def test_changed_fields_names_what_a_comparison_of_every_field_names(
    before: dict[str, Any], edits: dict[str, Any], removed: set[str], copied: bool
) -> None:
    """Which fields handlers changed: the fields whose values differ (by ==, whether or
    not they are the same objects), added or removed, never a stamped one; sorted."""
    after = {**before, **edits}
    for name in removed:
        after.pop(name, None)
    if copied:  # equal values that are other objects are no change either
        after = json.loads(json.dumps(after))
    missing = object()
    names = (set(before) | set(after)) - STAMPED_FIELDS
    expected = sorted(n for n in names if before.get(n, missing) != after.get(n, missing))
    assert changed_fields(before, after) == expected
