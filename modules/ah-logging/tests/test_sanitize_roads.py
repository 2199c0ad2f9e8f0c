"""The sanitizer's two roads: a record of plain, clean JSON data is written as it is (no
copy, one question to the scrub for all its strings); anything else is converted string
by string. Both must give the same record."""

from __future__ import annotations

import math
from typing import Any

import pytest
from amplifier_module_ah_logging.sanitize import KeyMatcher, Sanitizer
from amplifier_module_ah_redaction import RedactionConfig, Redactor
from hypothesis import given, settings
from hypothesis import strategies as st

OPENAI_KEY = "sk-proj-" + "Zz9" * 10

_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()  # NaN and infinities: not JSON, the full road turns them into text
    | st.text(max_size=30)
    | st.sampled_from([OPENAI_KEY, "password=hunter2!", "x" * 50, "/tmp/notes.txt"]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(
            st.text(max_size=8) | st.sampled_from(["api_key", "token", "command"]) | st.integers(),
            inner,
            max_size=4,
        )
    ),
    max_leaves=20,
)


def _same(a: Any, b: Any) -> bool:
    # NaN != NaN; the full road never returns one (it becomes text), so == is enough
    # once both are compared as the JSON they become.
    return repr(a) == repr(b)


@settings(max_examples=300, deadline=None)
@given(_values, st.sampled_from([None, 40]), st.booleans())
def test_the_fast_road_gives_what_the_full_road_gives(
    value: Any, max_chars: int | None, scrub: bool
) -> None:
    sanitize = Sanitizer(
        KeyMatcher(["api_key", "token"]), max_chars, Redactor(RedactionConfig()) if scrub else None
    )
    assert _same(sanitize(value), sanitize._convert(value, 0, set()))


def test_clean_plain_data_is_written_as_it_is_and_anything_else_is_copied() -> None:
    sanitize = Sanitizer(KeyMatcher(["token"]), 100, Redactor(RedactionConfig()))
    clean = {"cwd": "/tmp", "tool_input": {"command": "git status"}, "n": [1, 2.5, None, True]}
    assert sanitize(clean) is clean
    for unsafe, field in (
        ({"tool_input": {"command": f"echo {OPENAI_KEY}"}}, "[REDACTED:openai_api_key]"),
        ({"auth": {"token": "abc"}}, "[REDACTED]"),
        ({"long": "y" * 150}, "…[+50 chars]"),
        ({"nan": math.nan}, "nan"),
        ({"pair": ("a", b"xy")}, "<2 bytes>"),
    ):
        safe = sanitize(unsafe)
        assert safe is not unsafe and field in repr(safe)


def test_a_clean_long_result_is_cut_with_only_what_holds_it_copied() -> None:
    # A tool's result under both names (as every host sends it): cut in each, once
    # looked at by the scrub, and the parts without a long string are not copied.
    asked: list[int] = []
    redactor = Redactor(RedactionConfig())

    class Counting:
        def __call__(self, value: Any) -> Any:
            raise AssertionError("a clean record is not scrubbed string by string")

        def unchanged(self, texts: Any) -> bool:
            asked.append(len(texts))
            return redactor.unchanged(texts)

    sanitize = Sanitizer(KeyMatcher(["token"]), 100, Counting())
    result = {"content": [{"type": "text", "text": "line\n" * 1000}], "isError": False}
    tool_input = {"path": "/work/notes.txt"}
    data = {"tool_input": tool_input, "tool_result": result, "result": result}
    safe = sanitize(data)
    assert asked == [3]  # one question for the three strings (the result's text once)
    assert safe["tool_input"] is tool_input
    assert safe["tool_result"] is safe["result"]  # held twice, copied once
    for key in ("tool_result", "result"):
        text = safe[key]["content"][0]["text"]
        assert text == "line\n" * 20 + "…[+4900 chars]"
    assert result["content"][0]["text"] == "line\n" * 1000  # the event's own data intact
    assert _same(safe, Sanitizer(KeyMatcher(["token"]), 100, redactor)._convert(data, 0, set()))


def test_a_scrub_without_unchanged_is_asked_string_by_string() -> None:
    asked: list[str] = []

    def scrub(value: Any) -> Any:
        asked.append(value)
        return value.replace("secret", "[gone]")

    sanitize = Sanitizer(KeyMatcher([]), None, scrub)
    assert sanitize({"a": "my secret", "b": ["ok"]}) == {"a": "my [gone]", "b": ["ok"]}
    assert sorted(asked) == ["my secret", "ok"]


@pytest.mark.parametrize("answer", [False, None, "yes", RuntimeError("broken")])
def test_unchanged_must_say_true_itself_for_the_fast_road(answer: Any) -> None:
    class Scrub:
        def __call__(self, value: Any) -> Any:
            return value.replace("secret", "[gone]")

        def unchanged(self, texts: Any) -> Any:
            if isinstance(answer, Exception):
                raise answer
            return answer

    data = {"a": "my secret"}
    assert Sanitizer(KeyMatcher([]), None, Scrub())(data) == {"a": "my [gone]"}
