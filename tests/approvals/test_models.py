"""Option words, memory keys, the readable data view, and request validation."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from amplifier_hooks.approvals import (
    ApprovalRequest,
    classify_option,
    memory_key,
    pick_option,
    summarize,
)
from amplifier_hooks.approvals.models import (
    _ALLOW_WORDS,
    _DENY_WORDS,
    clean_text,
    extract_fields,
    read_option,
)
from amplifier_hooks.ui.choosing import format_remaining, shortcuts


@pytest.mark.parametrize(
    ("option", "decision", "scope"),
    [
        ("Allow", "allow", "once"),
        ("Approve", "allow", "once"),
        ("Yes", "allow", "once"),
        ("Allow once", "allow", "once"),
        ("Allow always", "allow", "always"),
        ("Always allow", "allow", "always"),
        ("Allow for this session", "allow", "session"),
        ("Deny", "deny", "once"),
        ("Reject", "deny", "once"),
        ("No", "deny", "once"),
        ("Deny always", "deny", "always"),
        ("No, never in this session", "deny", "session"),
        ("Don't allow", "deny", "once"),
        ("Don\u2019t allow", "deny", "once"),
        ("Do not approve", "deny", "once"),
        ("Maybe later", None, "once"),
        ("Always", None, "always"),
        # The first allow/deny word decides; mixed words are never remembered.
        ("Allow always (not recommended)", "allow", "once"),
        ("Yes, and don't ask again", "allow", "once"),
        ("Deny always, unless I allow it", "deny", "once"),
        ("Never allow in this session", "deny", "once"),
        ("Block forever", "deny", "always"),
        ("OK for this session", "allow", "session"),
    ],
)
def test_options_are_read_by_their_words(option: str, decision: str | None, scope: str) -> None:
    assert classify_option(option) == (decision, scope)


def test_mixed_words_are_reported_with_the_scope_they_asked_for() -> None:
    assert read_option("Allow always (not recommended)") == ("allow", True, "always")
    assert read_option("Allow always") == ("allow", False, "always")
    assert read_option("Later") == (None, False, "once")


_SEPARATORS = st.sampled_from([" ", ", ", " - ", "! ", " (", ": ", "\t", "\u2019 "])
_TAIL = st.text(max_size=40) | st.lists(
    st.sampled_from(sorted(_ALLOW_WORDS | _DENY_WORDS | {"always", "session", "again"})),
    max_size=6,
).map(" ".join)


def _cased(word: str, style: str) -> str:
    return {"lower": word, "upper": word.upper(), "title": word.title()}[style]


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(sorted(_ALLOW_WORDS)),
    st.sampled_from(["lower", "upper", "title"]),
    _SEPARATORS,
    _TAIL,
)
def test_a_leading_allow_word_is_never_read_as_deny(
    word: str, style: str, separator: str, tail: str
) -> None:
    option = _cased(word, style) + separator + tail
    meaning = classify_option(option)
    assert meaning.decision == "allow", option
    if read_option(option).mixed:
        assert meaning.scope == "once", option


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(sorted(_DENY_WORDS)),
    st.sampled_from(["lower", "upper", "title"]),
    _SEPARATORS,
    _TAIL,
)
def test_a_leading_deny_word_is_never_read_as_allow(
    word: str, style: str, separator: str, tail: str
) -> None:
    option = _cased(word, style) + separator + tail
    meaning = classify_option(option)
    assert meaning.decision == "deny", option
    if read_option(option).mixed:
        assert meaning.scope == "once", option


def test_pick_option_prefers_the_one_time_answer() -> None:
    options = ["Allow always", "Allow once", "Deny for this session", "Deny"]
    assert pick_option(options, "allow") == "Allow once"
    assert pick_option(options, "deny") == "Deny"
    assert pick_option(["Allow always", "Deny"], "allow") == "Allow always"
    assert pick_option(["Allow"], "deny") is None


def test_memory_key_depends_on_source_prompt_and_options() -> None:
    base = memory_key("guard", "Run it?", ["Allow", "Deny"])
    assert base.startswith("auto:")
    assert base == memory_key("guard", "Run it?", ["Allow", "Deny"])
    assert base != memory_key("other", "Run it?", ["Allow", "Deny"])
    assert base != memory_key("guard", "Run that?", ["Allow", "Deny"])
    assert base != memory_key("guard", "Run it?", ["Allow always", "Deny"])


def test_explicit_memory_key_wins_and_blank_ones_are_ignored() -> None:
    assert memory_key("guard", "Run it?", ["Allow"], "write:/srv/*") == "write:/srv/*"
    assert memory_key("guard", "Run it?", ["Allow"], "  ").startswith("auto:")
    assert memory_key("guard", "Run it?", ["Allow"], 42).startswith("auto:")


def test_summary_finds_tool_command_and_path_in_common_shapes() -> None:
    data = {
        "tool_name": "bash",
        "tool_input": {"command": "rm -rf build", "cwd": "/repo"},
        "timestamp": "2025-01-01T00:00:00Z",
    }
    assert summarize(data) == {"tool": "bash", "command": "rm -rf build"}
    assert summarize({"tool": "write_file", "input": {"file_path": "/srv/app.env"}}) == {
        "tool": "write_file",
        "path": "/srv/app.env",
    }
    assert summarize({"url": "https://example.org"}) == {"url": "https://example.org"}


def test_summary_of_unknown_data_shows_a_few_plain_fields() -> None:
    data = {"timestamp": "t", "a": 1, "b": "two", "nested": {"x": 1}, "c": True, "d": 4, "e": 5}
    assert summarize(data) == {"a": "1", "b": "two", "c": "true", "d": "4"}


def test_summary_truncates_long_values_and_shows_control_characters() -> None:
    # A command is cut in the middle: what a `;` chains at its end stays in view.
    data = {"tool_input": {"command": "echo " + "x" * 500 + "; rm -rf ~"}}
    command = summarize(data)["command"]
    assert len(command) == 160 and command.startswith("echo x") and command.endswith("; rm -rf ~")
    assert "…" in command
    sneaky = summarize({"tool_input": {"command": "ls\x1b[2J\x1b[Hrm -rf /"}})["command"]
    assert "\x1b" not in sneaky and "\\x1b[2J" in sneaky
    assert clean_text("a\tb\nc", None) == "a\\x09b\\x0ac"


def test_extract_fields_keeps_full_values_for_policy_matching() -> None:
    command = "echo " + "y" * 400
    assert extract_fields({"tool_input": {"command": command}}) == {"command": command}
    assert extract_fields({"tool_name": "x", "tool_input": {"path": ["a", "b"]}}) == {
        "tool": "x",
        "path": '["a", "b"]',
    }


def test_request_defaults_and_validation() -> None:
    request = ApprovalRequest(prompt="Run it?")
    assert request.options == ["Allow", "Deny"]
    assert request.default == "deny" and request.default_option == "Deny"
    assert ApprovalRequest(prompt="p", default="allow").default_option == "Allow"
    assert ApprovalRequest(prompt="p", options=["Go", "Stop"]).default_option == "Stop"
    with pytest.raises(ValidationError, match="at least one option"):
        ApprovalRequest(prompt="p", options=[])
    with pytest.raises(ValidationError, match="distinct"):
        ApprovalRequest(prompt="p", options=["Allow", "Allow"])
    with pytest.raises(ValidationError, match="positive"):
        ApprovalRequest(prompt="p", timeout=0)


def test_shortcuts_give_each_option_a_number_and_its_own_letter() -> None:
    keys = shortcuts(["Allow once", "Allow always", "Deny"])
    assert keys == {
        "1": "Allow once",
        "a": "Allow once",
        "2": "Allow always",
        "l": "Allow always",
        "3": "Deny",
        "d": "Deny",
    }
    many = shortcuts([f"Option {i}" for i in range(11)])
    # o and p are the apps' own keys (RESERVED_KEYS): "Option 0" takes its next letter.
    assert "9" in many and "10" not in many and many["t"] == "Option 0"
    assert "o" not in many and "p" not in many


def test_format_remaining_rounds_up() -> None:
    assert format_remaining(299.2) == "5:00"
    assert format_remaining(0.1) == "0:01"
    assert format_remaining(-3) == "0:00"
    assert format_remaining(3725) == "1:02:05"
    assert format_remaining(float("inf")) == "no time limit"


def test_importing_the_package_does_not_import_textual() -> None:
    code = (
        "import sys, amplifier_hooks, amplifier_hooks.approvals as a\n"
        "a.default_store_path, a.ApprovalGate, a.PolicyApprovalProvider\n"
        "assert 'textual' not in sys.modules, 'textual imported eagerly'\n"
        "import amplifier_hooks.ui.providers\n"
        "assert 'textual' not in sys.modules, 'choosing a provider imported textual'\n"
        "import amplifier_hooks.ui.approval_app\n"
        "assert 'textual' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=30)


def test_invisible_reordering_characters_are_shown_escaped() -> None:
    text = clean_text("rm -rf /tmp/x\u202e\u200bgpj.txt")
    assert text == "rm -rf /tmp/x\\u202e\\u200bgpj.txt"
    assert clean_text("line one\nline two", newlines=True) == "line one\nline two"
