"""Input built to hurt: judging never raises, never takes long, and never allows it."""

from __future__ import annotations

import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amplifier_hooks.guard import Places, judge, load_pack, parse_command
from tests.guard.conftest import Judge

_PACK = load_pack()

HOSTILE = {
    "1 MB": "echo " + "a" * 1_000_000,
    "10,000 pipes": " | ".join(["cat"] * 10_000),
    "15,000 commands": "; ".join(["ls"] * 15_000),
    "nested $( ) 5,000 deep": "echo " + "$(" * 5000 + "ls" + ")" * 5000,
    "nested $( ) 100 deep": "echo " + "$(" * 100 + "ls" + ")" * 100,
    "nested subshells": "(" * 3000 + "ls" + ")" * 3000,
    "nested eval": "eval " * 500 + "ls",
    "NUL byte": "ls\x00; rm -rf ~",
    "lone surrogate": "ls \udcff",
    "unbalanced": "$(" * 300,
    "sudo chain": "sudo " * 5000 + "ls",
}


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_commands_are_denied_or_asked(verdict: Judge, name: str) -> None:
    result = verdict(HOSTILE[name])
    assert result.decision in ("deny", "ask") and result.reason


def test_hostile_commands_are_bounded_in_parts(verdict: Judge) -> None:
    # The bound is structural (bytes, nodes, depth, commands), not a clock: the largest
    # input is refused before it is parsed.
    started = time.monotonic()
    assert verdict(HOSTILE["1 MB"]).rule == "guard-unreadable"
    assert time.monotonic() - started < 30  # only a sanity bound on a busy machine


def test_badly_quoted_nesting_is_never_allowed(verdict: Judge) -> None:
    assert verdict("sh -c " + "'sh -c " * 200 + "ls" + "'" * 200).decision != "allow"


def test_bytes_that_are_not_utf8_are_a_problem_not_an_exception() -> None:
    parsed = parse_command(b"ls \xff\xfe")
    assert parsed.problem is not None and "UTF-8" in parsed.problem


@given(st.text(max_size=300))
def test_judging_any_text_never_raises_or_allows_what_it_cannot_read(text: str) -> None:
    places = Places.of("/home/ada-guard-test/src/calc", home="/home/ada-guard-test")
    result = judge({"tool_name": "bash", "tool_input": {"command": text}}, _PACK, places)
    if result.decision == "allow":
        parsed = parse_command(text)
        assert parsed.problem is None and not any(p.opaque for p in parsed.pieces)
        assert all(p.decision == "allow" for p in result.pieces)


@given(st.binary(max_size=300))
def test_parsing_any_bytes_never_raises(data: bytes) -> None:
    parse_command(data)


_SHELLISH = st.lists(
    st.sampled_from(
        ["rm", "-rf", "~", "/", "sudo", "bash", "-c", "'", '"', "$(", ")", "`", "|", ";",
         "&&", "curl", "sh", "$X", "\\", "<(", ">", "~/.ssh/id_rsa", "eval", "env", "x=1",
         "find", "-exec", "{}", "\\;", "<<EOF\n", "\nEOF\n", "xargs", "*", " "]
    ),
    max_size=25,
)  # fmt: skip


@given(_SHELLISH)
def test_shell_like_noise_with_rm_rf_home_is_never_allowed(words: list[str]) -> None:
    text = " ".join(words)
    places = Places.of("/home/ada-guard-test/src/calc", home="/home/ada-guard-test")
    result = judge({"tool_name": "bash", "tool_input": {"command": text}}, _PACK, places)
    if "rm -rf ~" in text and result.decision == "allow":
        pytest.fail(f"allowed: {text!r}")
    if result.decision == "allow":
        assert not any(p.opaque for p in parse_command(text).pieces)


@pytest.mark.parametrize("text", ["{\U000f4d3b", "{\U000a0000", "{\U000e0000", "${\U000f4d3b}"])
def test_characters_that_crash_tree_sitter_bash_are_read_safely(verdict: Judge, text: str) -> None:
    # tree-sitter-bash 0.25.1 crashes the whole process on these; the parser is given a
    # stand-in of the same length, and the texts are read from the command as written.
    assert verdict(text).decision != "allow"


def test_characters_outside_the_bmp_keep_their_text() -> None:
    commit, rm = parse_command('git commit -m "🎉 done" && rm -rf ~/🎉').pieces
    assert commit.args == ("commit", "-m", "🎉 done") and rm.args == ("-rf", "~/🎉")
