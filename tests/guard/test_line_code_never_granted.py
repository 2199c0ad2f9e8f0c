"""Inline Perl, Ruby and PHP are never granted, however quiet: Hypothesis composes one-liners
from the readers' quiet names, options and operands, and the guard's answer is at most no
opinion; an operand on a protected place is denied when ``-i`` rewrites it."""

from __future__ import annotations

import shlex

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amplifier_hooks.guard.perlnames import QUIET_FUNCTIONS as PERL_QUIET
from amplifier_hooks.guard.phpnames import QUIET_FUNCTIONS as PHP_QUIET
from amplifier_hooks.guard.rubynames import QUIET_FUNCTIONS as RUBY_QUIET
from tests.guard.conftest import Judge

_OPERANDS = st.sampled_from(["src/a.c", "README.md", "data/x.txt", "/tmp/log.txt", "-"])
_PROTECTED = st.sampled_from([".claude/settings.json", "~/.codex/config.toml", ".mcp.json",
                              ".gemini/settings.json"])  # fmt: skip


def _perl(name: str) -> str:
    return f"print 1; {name}('a') if 0;" if name.isidentifier() else "print 1;"


def _ruby(name: str) -> str:
    return f"puts 1; {name}('a') if false" if name.replace("?", "").isidentifier() else "p 1"


@st.composite
def _one_liners(draw: st.DrawFn) -> str:
    language = draw(st.sampled_from(["perl", "ruby", "php"]))
    if language == "perl":
        options = draw(st.sampled_from(["-e", "-ne", "-pe", "-le", "-lane", "-pi -e"]))
        code = _perl(draw(st.sampled_from(sorted(PERL_QUIET))))
    elif language == "ruby":
        options = draw(st.sampled_from(["-e", "-ne", "-pe", "-ryaml -e", "-pi -e"]))
        code = _ruby(draw(st.sampled_from(sorted(RUBY_QUIET))))
    else:
        options = draw(st.sampled_from(["-r", "-n -r"]))
        code = f"echo 1; if (0) {{ {draw(st.sampled_from(sorted(PHP_QUIET)))}('a'); }}"
    operands = draw(st.lists(_OPERANDS, max_size=3))
    return " ".join([language, options, shlex.quote(code), *operands])


@settings(max_examples=80, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                  HealthCheck.too_slow])  # fmt: skip
@given(command=_one_liners())
def test_inline_code_is_never_granted(verdict: Judge, command: str) -> None:
    assert verdict(command).decision != "allow", command


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                  HealthCheck.too_slow])  # fmt: skip
@given(language=st.sampled_from(["perl", "ruby"]), place=_PROTECTED)
def test_an_in_place_edit_of_a_protected_place_is_denied(
    verdict: Judge, language: str, place: str
) -> None:
    code = "s/a/b/" if language == "perl" else 'gsub(/a/, "b")'
    command = f"{language} -pi -e {shlex.quote(code)} {place}"
    assert verdict(command).decision == "deny", command
