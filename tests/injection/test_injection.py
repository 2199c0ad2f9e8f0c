"""ContextInjector: real token counts, limits, routing, turns, audit."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import structlog
import tiktoken
import tiktoken.registry
from hypothesis import given, settings
from hypothesis import strategies as st

from amplifier_hooks.engine.fold import HandlerOutcome, resolve
from amplifier_hooks.engine.resolution import Injection
from amplifier_hooks.engine.result import HookResult
from amplifier_hooks.injection import (
    AuditRecord,
    ContextInjector,
    ContextSink,
    EncodingUnavailableError,
    InjectionUsage,
)
from amplifier_hooks.injection import tokens as _tokens

ENCODING = _tokens.load_encoding()

ASCII = "The quick brown fox jumps over the lazy dog; tool:post returned exit code 0."
CJK = "你好，世界！今天天气很好。日本語のテキストも数えます。한국어 문장도 있습니다."  # noqa: RUF001 (real CJK punctuation)
EMOJI = "👍🏽 done ✅ — family 👨‍👩‍👧‍👦, flags 🇯🇵🇫🇷, sparkles ✨🚀🔥"


@pytest.fixture(autouse=True)
def default_structlog() -> Iterator[None]:
    """Log assertions below must not depend on another test's logging configuration."""
    saved = structlog.get_config()
    structlog.reset_defaults()
    yield
    structlog.configure(**saved)


def inj(text: str, source: str = "hook", **fields: Any) -> Injection:
    return Injection(text=text, source=source, **fields)


def repeat_to_tokens(n: int) -> str:
    """A text of exactly ``n`` tokens (" a" is one token in cl100k_base)."""
    text = " a" * n
    assert len(ENCODING.encode(text)) == n
    return text


class ListSink:
    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    def add_message(self, message: dict[str, Any]) -> None:
        self.messages.append(message)


class AsyncSink:
    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    async def add_message(self, message: dict[str, Any]) -> None:
        await asyncio.sleep(0)  # suspends, as a real sink doing I/O would
        self.messages.append(message)


class FailingSink:
    def __init__(self) -> None:
        self.calls = 0

    def add_message(self, message: dict[str, Any]) -> None:
        self.calls += 1
        raise RuntimeError("history store is down")


# --- token counting ---------------------------------------------------------------------


@pytest.mark.parametrize("text", [ASCII, CJK, EMOJI, ASCII + CJK + EMOJI, ASCII * 200])
def test_token_counts_equal_tiktoken(text: str) -> None:
    injector = ContextInjector()
    assert injector.count_tokens(text) == len(ENCODING.encode(text))
    assert injector.count_tokens(text) > 0


def test_counts_are_tokens_not_a_length_guess() -> None:
    injector = ContextInjector()
    assert injector.count_tokens("hello world") == 2
    # Four characters per token would say 6 here; a CJK sentence is far denser.
    assert injector.count_tokens(CJK) != len(CJK) // 4


def test_special_token_text_is_counted_as_plain_text() -> None:
    text = "a hook echoed <|endoftext|> from a log"
    injector = ContextInjector()
    assert injector.count_tokens(text) == len(ENCODING.encode(text, disallowed_special=()))


def test_model_name_selects_its_encoding() -> None:
    injector = ContextInjector(encoding="gpt-4")
    assert injector.encoding is ENCODING


def test_unavailable_encoding_fails_at_construction(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(_tokens, "_cache", {})
    monkeypatch.setattr(tiktoken.registry, "ENCODINGS", {})
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))
    with pytest.raises(EncodingUnavailableError, match="TIKTOKEN_CACHE_DIR"):
        ContextInjector(encoding="o200k_base")


# --- limits -----------------------------------------------------------------------------


async def test_exactly_at_budget_is_accepted() -> None:
    text = repeat_to_tokens(37)
    injector = ContextInjector(budget_per_turn=37)
    report = await injector.apply([inj(text)], "tool:post")
    assert [m["content"] for m in report.persisted] == [text]
    assert report.dropped == []
    assert injector.usage == InjectionUsage(
        used=37, budget=37, left=0, turn=0, accepted=1, dropped=0
    )


async def test_one_token_over_budget_is_dropped() -> None:
    injector = ContextInjector(budget_per_turn=36)
    report = await injector.apply([inj(repeat_to_tokens(37))], "tool:post")
    assert report.persisted == [] and report.ephemeral == []
    [dropped] = report.dropped
    assert (dropped.reason, dropped.tokens, dropped.accepted) == ("budget", 37, False)
    assert injector.usage.used == 0 and injector.usage.left == 36


async def test_budget_is_shared_across_injections_in_handler_order() -> None:
    injector = ContextInjector(budget_per_turn=30)
    report = await injector.apply(
        [
            inj(repeat_to_tokens(20), "first"),
            inj(repeat_to_tokens(11), "too_big"),
            inj(repeat_to_tokens(10), "fits_exactly"),
            inj(" a", "one_over"),
        ],
        "tool:post",
    )
    assert [m["metadata"]["source"] for m in report.persisted] == ["first", "fits_exactly"]
    assert [(r.source, r.reason) for r in report.dropped] == [
        ("too_big", "budget"),
        ("one_over", "budget"),
    ]
    assert injector.usage.used == 30
    assert report.tokens == 30


async def test_budget_spans_events_within_a_turn() -> None:
    injector = ContextInjector(budget_per_turn=10)
    await injector.apply([inj(repeat_to_tokens(6))], "tool:pre")
    report = await injector.apply([inj(repeat_to_tokens(6))], "tool:post")
    assert report.dropped[0].reason == "budget"
    assert injector.usage.left == 4


@pytest.mark.parametrize(
    ("text", "accepted"),
    [
        ("a" * 10, True),
        ("a" * 11, False),
        ("é" * 5, True),  # 5 characters, 10 bytes
        ("é" * 6, False),  # 6 characters (under 10), but 12 bytes
        ("日本語" + "a", True),  # 4 characters, 10 bytes
        ("😀" * 3, False),  # 3 characters, 12 bytes
    ],
)
async def test_size_limit_counts_utf8_bytes_not_characters(text: str, accepted: bool) -> None:
    injector = ContextInjector(size_limit=10, budget_per_turn=None)
    report = await injector.apply([inj(text)], "tool:post")
    assert bool(report.persisted) is accepted
    [record] = injector.audit
    assert record.bytes == len(text.encode("utf-8"))
    assert record.reason == (None if accepted else "size_limit")


async def test_default_size_limit_is_10_kib() -> None:
    injector = ContextInjector(budget_per_turn=None)
    report = await injector.apply([inj("x" * 10_240), inj("x" * 10_241)], "tool:post")
    assert len(report.persisted) == 1
    assert report.dropped[0].reason == "size_limit"
    assert report.dropped[0].bytes == 10_241


async def test_none_means_unlimited() -> None:
    injector = ContextInjector(size_limit=None, budget_per_turn=None)
    text = ASCII * 2000  # ~150 KB, ~34k tokens
    report = await injector.apply([inj(text), inj(text)], "tool:post")
    assert len(report.persisted) == 2
    assert injector.usage.left is None and injector.usage.budget is None
    assert injector.usage.used == 2 * len(ENCODING.encode(text))


async def test_zero_budget_accepts_nothing() -> None:
    injector = ContextInjector(budget_per_turn=0)
    report = await injector.apply([inj("x")], "tool:post")
    assert report.dropped[0].reason == "budget"


async def test_drop_is_a_warning_naming_handler_event_size_and_budget_left(
    logs: list[dict[str, Any]],
) -> None:
    injector = ContextInjector(budget_per_turn=25)
    await injector.apply([inj(repeat_to_tokens(20), "first")], "tool:post")
    await injector.apply([inj(repeat_to_tokens(9), "chatty_linter")], "tool:post")
    [warning] = [e for e in logs if e["log_level"] == "warning"]
    assert warning["event"] == "context injection dropped"
    assert warning["handler"] == "chatty_linter"
    assert warning["hook_event"] == "tool:post"
    assert (warning["tokens"], warning["bytes"]) == (9, 18)
    assert (warning["budget"], warning["budget_left"]) == (25, 5)
    assert warning["reason"] == "budget"


async def test_huge_oversized_text_is_dropped_without_tokenizing() -> None:
    injector = ContextInjector(size_limit=1000)
    report = await injector.apply([inj("word " * 400_000)], "tool:post")  # 2 MB
    [record] = report.dropped
    assert (record.reason, record.tokens, record.bytes) == ("size_limit", None, 2_000_000)


async def test_lone_surrogates_are_measured_not_raised() -> None:
    injector = ContextInjector()
    report = await injector.apply([inj("file \udcff name")], "tool:post")
    assert len(report.persisted) == 1
    assert injector.audit[0].bytes == len("file  name") + 3


# --- routing ----------------------------------------------------------------------------


async def test_persisted_go_to_sink_and_ephemeral_are_returned() -> None:
    sink = ListSink()
    injector = ContextInjector(sink=sink)
    report = await injector.apply(
        [
            inj("remember: lint errors in app.py", "linter"),
            inj("todo: 2 of 5 done", "todo_reminder", ephemeral=True),
        ],
        "tool:post",
    )
    assert [m["content"] for m in sink.messages] == ["remember: lint errors in app.py"]
    assert report.persisted == sink.messages
    [ephemeral] = report.ephemeral
    assert ephemeral["content"] == "todo: 2 of 5 done"
    assert ephemeral["metadata"]["ephemeral"] is True
    # Both kinds count against the turn.
    assert injector.usage.used == injector.count_tokens(
        "remember: lint errors in app.py"
    ) + injector.count_tokens("todo: 2 of 5 done")


async def test_message_carries_role_and_provenance() -> None:
    sink = ListSink()
    injector = ContextInjector(sink=sink)
    await injector.apply([inj(CJK, "translator", role="system")], "prompt:submit")
    [message] = sink.messages
    assert set(message) == {"role", "content", "metadata"}
    assert message["role"] == "system"
    metadata = message["metadata"]
    assert metadata == {
        "source": "translator",
        "event": "prompt:submit",
        "timestamp": metadata["timestamp"],
        "ephemeral": False,
        "append_to_last_tool_result": False,
        "tokens": len(ENCODING.encode(CJK)),
    }
    stamped = datetime.fromisoformat(metadata["timestamp"])
    assert stamped.tzinfo is not None and stamped.utcoffset() == UTC.utcoffset(None)


async def test_append_to_last_tool_result_is_marked_for_placement() -> None:
    sink = ListSink()
    injector = ContextInjector(sink=sink)
    report = await injector.apply(
        [
            inj("exit code 1", "tool_note", append_to_last_tool_result=True),
            inj("hint", "tool_hint", append_to_last_tool_result=True, ephemeral=True),
        ],
        "tool:post",
    )
    assert sink.messages[0]["metadata"]["append_to_last_tool_result"] is True
    assert report.ephemeral[0]["metadata"]["append_to_last_tool_result"] is True
    assert all(r.append_to_last_tool_result for r in injector.audit)


async def test_async_sink_is_awaited_in_order() -> None:
    sink = AsyncSink()
    injector = ContextInjector(sink=sink)
    await injector.apply([inj("one"), inj("two"), inj("three")], "tool:post")
    assert [m["content"] for m in sink.messages] == ["one", "two", "three"]


async def test_failing_sink_is_logged_and_counted_as_dropped(logs: list[dict[str, Any]]) -> None:
    sink = FailingSink()
    injector = ContextInjector(sink=sink)
    report = await injector.apply(
        [inj("lost?", "a"), inj("fleeting", "b", ephemeral=True)], "tool:post"
    )
    assert sink.calls == 1
    [dropped] = report.dropped
    assert (dropped.source, dropped.reason, dropped.accepted) == ("a", "sink_error", False)
    assert [m["content"] for m in report.ephemeral] == ["fleeting"]
    # The failed message never reached the context, so it does not use the budget.
    assert injector.usage.used == injector.count_tokens("fleeting")
    errors = [e for e in logs if e["log_level"] == "error"]
    assert errors and "history store is down" in errors[0]["error"]


async def test_without_a_sink_persisted_messages_are_still_returned() -> None:
    injector = ContextInjector()
    assert injector.sink is None
    report = await injector.apply([inj("keep me")], "tool:post")
    assert [m["content"] for m in report.persisted] == ["keep me"]
    assert injector.audit[0].accepted


async def test_sink_can_be_set_later() -> None:
    injector = ContextInjector()
    sink = AsyncSink()
    injector.sink = sink
    assert isinstance(sink, ContextSink)
    await injector.apply([inj("x")], "tool:post")
    assert len(sink.messages) == 1


async def test_concurrent_applies_never_overspend() -> None:
    """Tokens are reserved before the sink is awaited, so a second apply running while the
    first waits on a slow sink sees them as spent. (The sink suspends once: the second
    apply runs while the first is waiting on it.)"""
    sink = AsyncSink()
    injector = ContextInjector(budget_per_turn=15, sink=sink)
    reports = await asyncio.gather(
        injector.apply([inj(repeat_to_tokens(10), "a")], "tool:post"),
        injector.apply([inj(repeat_to_tokens(10), "b")], "tool:post"),
    )
    assert sum(len(r.persisted) for r in reports) == 1
    assert sum(len(r.dropped) for r in reports) == 1
    assert len(sink.messages) == 1 and injector.usage.used == 10


async def test_resolution_injections_apply_with_handler_names() -> None:
    outcomes = [
        HandlerOutcome(
            "linter",
            0,
            HookResult(action="inject_context", context_injection="E501 in app.py"),
        ),
        HandlerOutcome(
            "status",
            5,
            HookResult(action="inject_context", context_injection="3 tasks left", ephemeral=True),
        ),
    ]
    resolution = resolve({}, outcomes)
    sink = ListSink()
    report = await ContextInjector(sink=sink).apply(resolution.injections, "tool:post")
    assert [m["metadata"]["source"] for m in sink.messages] == ["linter"]
    assert [m["metadata"]["source"] for m in report.ephemeral] == ["status"]


# --- turns ------------------------------------------------------------------------------


async def test_budget_resets_at_the_turn_boundary_event() -> None:
    injector = ContextInjector(budget_per_turn=10)
    await injector.apply([inj(repeat_to_tokens(10))], "tool:post")
    injector.observe("tool:post")
    injector.observe("provider:response")
    assert injector.usage.left == 0 and injector.usage.turn == 0
    injector.observe("prompt:submit")
    assert injector.usage == InjectionUsage(
        used=0, budget=10, left=10, turn=1, accepted=0, dropped=0
    )
    report = await injector.apply([inj(repeat_to_tokens(10))], "prompt:submit")
    assert len(report.persisted) == 1
    assert injector.audit[-1].turn == 1


async def test_turn_event_is_configurable_and_reset_is_callable() -> None:
    injector = ContextInjector(budget_per_turn=5, turn_event="execution:start")
    await injector.apply([inj(repeat_to_tokens(5))], "tool:post")
    injector.observe("prompt:submit")
    assert injector.usage.left == 0
    injector.observe("execution:start")
    assert injector.usage.left == 5 and injector.usage.turn == 1
    await injector.apply([inj(repeat_to_tokens(5))], "tool:post")
    injector.reset_turn()
    assert injector.usage.left == 5 and injector.usage.turn == 2


@given(
    budget=st.integers(min_value=0, max_value=60),
    turns=st.lists(
        st.lists(
            st.lists(
                st.tuples(st.text(min_size=1, max_size=40), st.booleans()),
                max_size=5,
            ),
            max_size=3,
        ),
        min_size=1,
        max_size=4,
    ),
)
@settings(max_examples=75, deadline=None)
def test_accepted_tokens_per_turn_never_exceed_budget(
    budget: int, turns: list[list[list[tuple[str, bool]]]]
) -> None:
    injector = ContextInjector(size_limit=None, budget_per_turn=budget)

    async def run() -> None:
        for batches in turns:
            injector.observe("prompt:submit")
            accepted = 0
            expected_left = budget
            for batch in batches:
                report = await injector.apply(
                    [inj(text, f"h{i}", ephemeral=eph) for i, (text, eph) in enumerate(batch)],
                    "tool:post",
                )
                delivered = report.persisted + report.ephemeral
                for message in delivered:
                    assert message["metadata"]["tokens"] == len(
                        ENCODING.encode_ordinary(message["content"])
                    )
                accepted += report.tokens
                assert len(delivered) + len(report.dropped) == len(batch)
                # Greedy in handler order: a dropped one really did not fit.
                for text, _ in batch:
                    tokens = len(ENCODING.encode_ordinary(text))
                    if tokens <= expected_left:
                        expected_left -= tokens
                assert accepted == budget - expected_left
            assert accepted <= budget
            assert injector.usage.used == accepted

    asyncio.run(run())


# --- roles ------------------------------------------------------------------------------


async def test_user_and_assistant_roles_are_allowed_by_default_and_logged(
    logs: list[dict[str, Any]],
) -> None:
    injector = ContextInjector()
    report = await injector.apply(
        [
            inj("I approve", "impostor", role="user"),
            inj("Sure!", "ventriloquist", role="assistant"),
        ],
        "tool:post",
    )
    assert [m["role"] for m in report.persisted] == ["user", "assistant"]
    noted = [e for e in logs if e["event"] == "context injected with a non-system role"]
    assert [(e["handler"], e["role"]) for e in noted] == [
        ("impostor", "user"),
        ("ventriloquist", "assistant"),
    ]


async def test_a_missing_sink_is_noted_once_until_a_sink_is_set_again(
    logs: list[dict[str, Any]],
) -> None:
    injector = ContextInjector()
    report = await injector.apply([inj("one", "first"), inj("two", "second")], "tool:post")
    assert [m["content"] for m in report.persisted] == ["one", "two"]
    report = await injector.apply([inj("three", "third")], "tool:post")
    assert [m["content"] for m in report.persisted] == ["three"]  # still returned
    injector.sink = None  # configured again: worth a fresh note
    await injector.apply([inj("four", "fourth")], "tool:post")
    noted = [e for e in logs if e["event"].startswith("no context sink")]
    assert [(e["handlers"], e["log_level"]) for e in noted] == [
        (["first", "second"], "debug"),
        (["fourth"], "debug"),
    ]


async def test_audit_records_are_immutable_named_records() -> None:
    injector = ContextInjector()
    await injector.apply([inj("hello", "greeter")], "tool:post")
    (record,) = injector.audit
    assert (record.source, record.accepted, record.reason, record.bytes) == (
        "greeter",
        True,
        None,
        5,
    )
    with pytest.raises(AttributeError):
        record.accepted = False  # type: ignore[misc]


async def test_configured_roles_are_refused() -> None:
    injector = ContextInjector(refuse_roles={"user", "assistant"})
    report = await injector.apply(
        [inj("I approve", "impostor", role="user"), inj("context", "honest")], "tool:post"
    )
    assert [m["metadata"]["source"] for m in report.persisted] == ["honest"]
    [refused] = report.dropped
    assert (refused.source, refused.role, refused.reason) == ("impostor", "user", "role_refused")
    assert injector.usage.used == injector.count_tokens("context")


# --- audit and configuration ------------------------------------------------------------


async def test_every_decision_is_audited() -> None:
    injector = ContextInjector(size_limit=100, budget_per_turn=3)
    await injector.apply(
        [inj(" a a", "ok"), inj("x" * 101, "big"), inj(" a a", "over")], "tool:post"
    )
    records = list(injector.audit)
    assert [(r.source, r.accepted, r.reason, r.tokens) for r in records] == [
        ("ok", True, None, 2),
        ("big", False, "size_limit", len(ENCODING.encode("x" * 101))),
        ("over", False, "budget", 2),
    ]
    assert all(isinstance(r, AuditRecord) and r.event == "tool:post" for r in records)
    assert records[0].preview == " a a"
    assert injector.usage.accepted == 1 and injector.usage.dropped == 2


async def test_audit_is_bounded() -> None:
    injector = ContextInjector(audit_size=3)
    await injector.apply([inj(f"note {i}", f"h{i}") for i in range(5)], "tool:post")
    assert [r.source for r in injector.audit] == ["h2", "h3", "h4"]


async def test_empty_batch_is_a_no_op() -> None:
    injector = ContextInjector()
    report = await injector.apply([], "tool:post")
    assert (report.persisted, report.ephemeral, report.dropped) == ([], [], [])
    assert not injector.audit


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"size_limit": -1}, ValueError),
        ({"budget_per_turn": -5}, ValueError),
        ({"budget_per_turn": True}, TypeError),
        ({"size_limit": 10.5}, TypeError),
        ({"refuse_roles": "user"}, TypeError),
        ({"refuse_roles": ["robot"]}, ValueError),
        ({"turn_event": "PromptSubmit"}, ValueError),
        ({"sink": object()}, TypeError),
        ({"audit_size": 0}, ValueError),
    ],
)
def test_bad_configuration_is_a_clear_error(kwargs: dict[str, Any], error: type[Exception]) -> None:
    with pytest.raises(error):
        ContextInjector(**kwargs)


def test_setting_a_sink_without_add_message_is_rejected() -> None:
    injector = ContextInjector()
    with pytest.raises(TypeError, match="add_message"):
        injector.sink = "not a sink"  # type: ignore[assignment]
