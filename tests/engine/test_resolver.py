"""Property tests of the fold: random sequences of handler outcomes in, one Resolution out.

`HookRegistry.emit` feeds the same `Fold` one handler at a time (there is no second copy of
the rules to agree with), so these properties are the fold's rules wherever it runs.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from amplifier_hooks import HookResult, resolve
from amplifier_hooks.engine.fold import Fold, HandlerOutcome, failure_reason
from amplifier_hooks.engine.resolution import Resolution

PRECEDENCE = ["continue", "modify", "inject_context", "ask_user", "deny"]

texts = st.text(min_size=1, max_size=12).filter(str.strip)
small_data = st.dictionaries(st.sampled_from("abcxyz"), st.integers(), max_size=3)


@st.composite
def results(draw: st.DrawFn) -> HookResult:
    """Any valid HookResult, with the optional extras the fold must carry along."""
    action = draw(st.sampled_from(PRECEDENCE))
    fields: dict[str, Any] = {"action": action}
    if action == "modify" or draw(st.booleans()):
        fields["data"] = draw(small_data)
    if action == "inject_context" or (action == "ask_user" and draw(st.booleans())):
        fields["context_injection"] = draw(texts)
        fields["context_injection_role"] = draw(st.sampled_from(["system", "user", "assistant"]))
        fields["ephemeral"] = draw(st.booleans())
        fields["append_to_last_tool_result"] = draw(st.booleans())
    if draw(st.booleans()):
        fields["reason"] = draw(texts)
    if action == "ask_user":
        if draw(st.booleans()):
            fields["approval_prompt"] = draw(texts)
        if draw(st.booleans()):
            fields["approval_options"] = draw(st.lists(texts, min_size=1, max_size=3, unique=True))
        fields["approval_timeout"] = draw(st.floats(min_value=0.01, max_value=600))
        fields["approval_default"] = draw(st.sampled_from(["allow", "deny"]))
    if draw(st.booleans()):
        fields["user_message"] = draw(texts)
        fields["user_message_level"] = draw(st.sampled_from(["info", "warning", "error"]))
        if draw(st.booleans()):
            fields["user_message_source"] = draw(texts)
    fields["suppress_output"] = draw(st.booleans())
    if action not in ("deny", "ask_user"):
        fields["grant"] = draw(st.booleans())
    return HookResult(**fields)


@st.composite
def outcome_lists(draw: st.DrawFn, *, failures: bool = True) -> list[HandlerOutcome]:
    """Outcomes of handlers h0, h1, ... in run order: results, Nones, and failures."""
    count = draw(st.integers(min_value=0, max_value=8))
    outcomes = []
    for index in range(count):
        kind = draw(st.sampled_from(["result", "none", "failure"] if failures else ["result"]))
        name, priority = f"h{index}", draw(st.integers(-3, 3))
        if kind == "result":
            outcomes.append(HandlerOutcome(name, priority, draw(results())))
        elif kind == "none":
            outcomes.append(HandlerOutcome(name, priority, None))
        else:
            failure = draw(st.sampled_from(["raised", "timeout", "invalid_return", "cancelled"]))
            outcomes.append(
                HandlerOutcome(
                    name, priority, None, failure, "boom", 0.0, fail_closed=draw(st.booleans())
                )
            )
    return outcomes


def is_deny(outcome: HandlerOutcome) -> bool:
    if outcome.failure is not None:
        return outcome.fail_closed
    return outcome.result is not None and outcome.result.action == "deny"


def folded(outcomes: list[HandlerOutcome]) -> list[HandlerOutcome]:
    """The prefix the fold looks at: everything up to and including the first deny."""
    for index, outcome in enumerate(outcomes):
        if is_deny(outcome):
            return outcomes[: index + 1]
    return outcomes


def action_of(outcome: HandlerOutcome) -> str:
    if outcome.failure is not None:
        return "deny" if outcome.fail_closed else "continue"
    return outcome.result.action if outcome.result is not None else "continue"


def ok_results(outcomes: list[HandlerOutcome]) -> list[tuple[str, HookResult]]:
    return [(o.name, o.result) for o in outcomes if o.result is not None and o.failure is None]


ORIGINAL = {"tool_name": "bash", "n": 1}


@given(outcome_lists())
def test_deny_anywhere_wins_and_stops_the_chain(outcomes: list[HandlerOutcome]) -> None:
    consumed: list[str] = []

    def feed() -> Iterator[HandlerOutcome]:
        for outcome in outcomes:
            consumed.append(outcome.name)
            yield outcome

    resolution = resolve(dict(ORIGINAL), feed())
    seen = folded(outcomes)
    first_deny = next((o for o in outcomes if is_deny(o)), None)
    # No outcome after the deny is even asked for: in emit, that handler never runs.
    assert consumed == [o.name for o in seen]
    assert [t.handler for t in resolution.trace] == [o.name for o in seen]
    if first_deny is None:
        assert resolution.action != "deny"
        assert resolution.denied_by is None
        assert resolution.allowed
        return
    assert resolution.action == "deny"
    assert not resolution.allowed
    assert resolution.denied_by == first_deny.name
    if first_deny.failure is not None:
        assert resolution.reason == failure_reason(first_deny)
        assert first_deny.name in (resolution.reason or "")
    else:
        assert first_deny.result is not None
        expected = first_deny.result.reason or f"denied by hook handler {first_deny.name!r}"
        assert resolution.reason == expected


@given(outcome_lists())
def test_action_is_the_highest_precedence_seen(outcomes: list[HandlerOutcome]) -> None:
    resolution = resolve(dict(ORIGINAL), outcomes)
    seen = folded(outcomes)
    expected = max((action_of(o) for o in seen), key=PRECEDENCE.index, default="continue")
    assert resolution.action == expected
    assert [t.action for t in resolution.trace] == [action_of(o) for o in seen]
    assert [t.failure for t in resolution.trace] == [o.failure for o in seen]
    assert [t.priority for t in resolution.trace] == [o.priority for o in seen]


@given(outcome_lists())
def test_every_ask_user_is_kept_in_order(outcomes: list[HandlerOutcome]) -> None:
    resolution = resolve(dict(ORIGINAL), outcomes)
    seen = folded(outcomes)
    asks = [(name, r) for name, r in ok_results(seen) if r.action == "ask_user"]
    if asks and not any(is_deny(o) for o in seen):
        assert resolution.action == "ask_user"
    assert [a.source for a in resolution.approvals] == [name for name, _ in asks]
    for approval, (_, result) in zip(resolution.approvals, asks, strict=True):
        assert approval.options == result.options
        assert approval.timeout == result.approval_timeout
        assert approval.default == result.approval_default
        assert approval.reason == result.reason
        assert approval.data == result.data
        assert approval.prompt == (
            result.approval_prompt or result.reason or "Allow this operation?"
        )
    if asks:
        # The single-result fields mirror the first ask, for spec-style callers.
        first = asks[0][1]
        assert resolution.approval_options == first.options
        assert resolution.approval_timeout == first.approval_timeout
        assert resolution.approval_default == first.approval_default


@given(outcome_lists())
def test_every_injection_keeps_its_own_settings(outcomes: list[HandlerOutcome]) -> None:
    resolution = resolve(dict(ORIGINAL), outcomes)
    expected = []
    asks = 0
    for name, result in ok_results(folded(outcomes)):
        if result.action == "ask_user":
            asks += 1
        if result.action in ("inject_context", "ask_user") and result.context_injection:
            approval = asks - 1 if result.action == "ask_user" else None
            expected.append(
                (
                    result.context_injection,
                    result.context_injection_role,
                    result.ephemeral,
                    result.append_to_last_tool_result,
                    name,
                    approval,
                )
            )
    got = [
        (i.text, i.role, i.ephemeral, i.append_to_last_tool_result, i.source, i.approval)
        for i in resolution.injections
    ]
    assert got == expected
    if expected:
        assert resolution.context_injection == "\n\n".join(e[0] for e in expected)
    else:
        assert resolution.context_injection is None


@given(outcome_lists())
def test_final_data_is_the_last_modify(outcomes: list[HandlerOutcome]) -> None:
    original = dict(ORIGINAL)
    resolution = resolve(original, outcomes)
    modifies = [r for _, r in ok_results(folded(outcomes)) if r.action == "modify"]
    if modifies:
        assert resolution.data == modifies[-1].data
    else:
        assert resolution.data is original
    assert original == ORIGINAL  # the fold never edits data in place


@given(outcome_lists())
def test_only_continues_give_continue_with_original_data(outcomes: list[HandlerOutcome]) -> None:
    # Keep only what counts as "continue": None, continue results, fail-open failures.
    continues = [o for o in outcomes if action_of(o) == "continue"]
    original = dict(ORIGINAL)
    resolution = resolve(original, continues)
    assert resolution.action == "continue"
    assert resolution.data is original
    assert resolution.reason is None
    assert resolution.injections == resolution.approvals == []
    assert len(resolution.trace) == len(continues)


@given(outcome_lists())
def test_every_user_message_is_kept_with_its_source(outcomes: list[HandlerOutcome]) -> None:
    resolution = resolve(dict(ORIGINAL), outcomes)
    expected = [
        (r.user_message, r.user_message_level, r.user_message_source or name)
        for name, r in ok_results(folded(outcomes))
        if r.user_message is not None
    ]
    assert [(m.text, m.level, m.source) for m in resolution.messages] == expected
    if expected:
        levels = ["info", "warning", "error"]
        top = max(expected, key=lambda m: levels.index(m[1]))
        assert (resolution.user_message, resolution.user_message_level) == top[:2]
    suppressed = any(r.suppress_output for _, r in ok_results(folded(outcomes)))
    assert resolution.suppress_output is suppressed


@given(outcome_lists())
def test_incremental_fold_equals_resolve(outcomes: list[HandlerOutcome]) -> None:
    fold = Fold(dict(ORIGINAL), outcomes)
    for outcome in outcomes:
        fold.add(outcome)  # adding past a deny is ignored
    assert fold.resolution() == resolve(dict(ORIGINAL), outcomes)
    assert fold.done == any(is_deny(o) for o in outcomes)


def test_resolution_is_a_valid_hook_result() -> None:
    outcomes = [
        HandlerOutcome("a", 0, HookResult(action="inject_context", context_injection="x")),
        HandlerOutcome("b", 0, HookResult(action="ask_user", approval_prompt="ok?")),
    ]
    resolution = resolve({"k": 1}, outcomes)
    assert isinstance(resolution, HookResult)
    # Everything the fold built passes full validation too.
    assert Resolution.model_validate(resolution.model_dump()) == resolution
    assert resolve({}, []) == Resolution.model_validate({"data": {}})


@given(outcome_lists())
def test_the_fast_constructor_equals_model_construct(outcomes: list[HandlerOutcome]) -> None:
    # `Fold.resolution` skips pydantic's model_construct for speed; it must build the same
    # model. If a pydantic upgrade changes how models are stored, this fails first.
    resolution = resolve(dict(ORIGINAL), outcomes)
    reference = Resolution.model_construct(**dict(resolution))
    assert resolution == reference
    assert resolution.__dict__ == reference.__dict__
    assert resolution.model_fields_set == set(Resolution.model_fields)
    assert resolution.__pydantic_extra__ is None and resolution.__pydantic_private__ is None
    assert Resolution.model_validate(resolution.model_dump()) == resolution


def test_reason_is_only_the_deny_reason() -> None:
    """CONTRACT §3: `reason` is the deny reason; an ask's reason stays on its ApprovalAsk."""
    ask = HookResult(action="ask_user", approval_prompt="ok?", reason="risky")
    resolution = resolve({}, [HandlerOutcome("asker", 0, ask)])
    assert resolution.action == "ask_user" and resolution.reason is None
    assert resolution.approvals[0].reason == "risky"


class _Ran:
    """A handler as a `Trace` sees it (what a registry's handler entry offers)."""

    def __init__(self, name: str, priority: int) -> None:
        self.name = name
        self.priority = priority


@given(outcome_lists())
def test_a_fold_that_knows_its_handlers_records_less_and_resolves_the_same(
    outcomes: list[HandlerOutcome],
) -> None:
    # The emit's way in: a None result is only its duration on `fold.trace`, a result goes
    # through `returned`; the trace's entries are made when read, and must be the same.
    fold = Fold(dict(ORIGINAL), [_Ran(o.name, o.priority) for o in outcomes])
    for outcome in outcomes:
        if outcome.failure is not None:
            fold.add(outcome)
        elif outcome.result is None:
            fold.trace.append(outcome.duration)
        else:
            fold.returned(outcome, outcome.result, outcome.duration)
        if fold.done:
            break
    assert fold.resolution() == resolve(dict(ORIGINAL), outcomes)
    assert list(fold.resolution().trace) == list(resolve(dict(ORIGINAL), outcomes).trace)


@given(outcome_lists())
def test_a_grant_survives_only_when_nothing_denies_or_asks(
    outcomes: list[HandlerOutcome],
) -> None:
    resolution = resolve({}, outcomes)
    ran = ok_results(folded(outcomes))
    grants = [(name, result) for name, result in ran if result.grant]
    blocked = resolution.action in ("deny", "ask_user")
    if grants and not blocked:
        name, first = grants[0]
        assert resolution.granted is not None
        assert (resolution.granted.source, resolution.granted.reason) == (name, first.reason)
        assert resolution.grant
    else:
        assert resolution.granted is None
        assert not resolution.grant


def test_a_grant_after_a_question_is_dropped_and_one_before_it_too() -> None:
    grant = HandlerOutcome("guard", 0, HookResult(grant=True, reason="read-only"))
    ask = HandlerOutcome("asker", 1, HookResult(action="ask_user", approval_prompt="sure?"))
    assert resolve({}, [grant]).granted == ("guard", "read-only")
    assert resolve({}, [grant, ask]).granted is None
    assert resolve({}, [ask, grant]).granted is None
    dumped = resolve({}, [grant]).model_dump()["granted"]
    assert dumped == {"source": "guard", "reason": "read-only"}
