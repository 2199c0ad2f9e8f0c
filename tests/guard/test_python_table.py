"""Python's home in the program table (`table.python`): its options are read as CPython
reads them (bundled, a value attached or next, ``-c``/``-m``/a script ending them), the
inline reader asks that reading whether ``-c`` code is run plainly, and Python is never
granted, in any version."""

from __future__ import annotations

import shlex

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amplifier_hooks.guard.facts import split_args
from amplifier_hooks.guard.inline import quiet_python_options
from amplifier_hooks.guard.table import read_call
from amplifier_hooks.guard.table.options import Opt, Takes
from amplifier_hooks.guard.table.python import PYTHON, python_read
from tests.guard.conftest import Judge

CODE = "print(1)"
"""Code the inline reader finds quiet: only the options decide."""
SHORTS = sorted(PYTHON.shorts.values(), key=lambda o: o.names)


def _words(chosen: list[tuple[Opt, bool]]) -> list[str]:
    """The options as words: each short one alone or bundled onto the one before (when
    that takes no value), a value attached or next."""
    words: list[str] = []
    bundle_open = False
    for opt, bundled in chosen:
        letter = opt.names[0][1]
        if bundled and bundle_open:
            words[-1] += letter
        else:
            words.append("-" + letter)
        bundle_open = opt.takes == Takes.NOTHING
        if opt.takes == Takes.VALUE:
            if bundled:
                words[-1] += "ignore"
            else:
                words.append("ignore")
    return words


_OPTIONS = st.lists(
    st.tuples(st.sampled_from([o for o in SHORTS if o.does not in ("code", "module")]),
              st.booleans()),
    max_size=4,
)  # fmt: skip


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(chosen=_OPTIONS, version=st.sampled_from(["python", "python3", "python3.12"]))
def test_code_is_quiet_only_behind_options_that_load_nothing(
    verdict: Judge, chosen: list[tuple[Opt, bool]], version: str
) -> None:
    words = _words(chosen)
    quiet = all(opt.does == "quiet" for opt, _ in chosen)
    assert quiet_python_options((*words, "-c", CODE)) == quiet, words
    if all(opt.takes == Takes.NOTHING for opt, _ in chosen):
        assert quiet_python_options((*words[:-1], words[-1] + "c", CODE) if words else
                                    ("-c", CODE)) == quiet, words  # fmt: skip
    command = shlex.join([version, *words, "-c", CODE])
    decision = verdict(command).decision
    assert decision == (None if quiet else "ask"), command


@pytest.mark.parametrize(
    ("args", "options", "rest"),
    [
        (("-IW", "ignore", "-c", CODE, "-i"), ("-I", "-W", "-c"), ("-i",)),  # -i: sys.argv
        (("-Bm", "http.server", "-d", "x"), ("-B", "-m"), ("-d", "x")),
        (("-E", "script.py", "-c", "x"), ("-E",), ("-c", "x")),
        (("-", "-i"), (), ("-i",)),
    ],
)
def test_the_program_ends_pythons_options(
    args: tuple[str, ...], options: tuple[str, ...], rest: tuple[str, ...]
) -> None:
    read, after = python_read(args)
    assert read.doubt is None
    assert tuple(g.opt.names[0] for g in read.given) == options
    assert after == rest


@pytest.mark.parametrize(
    "command",
    ["python3 -IW ignore -c 'print(1)'", "python3 -c 'print(1)' -i",
     "python3.12 -OO -c 'print(1)'", "python -X utf8 -sc 'print(1)'"],
)  # fmt: skip
def test_quiet_code_behind_quiet_options_gets_no_opinion(verdict: Judge, command: str) -> None:
    assert verdict(command).decision is None, command


@pytest.mark.parametrize(
    "command",
    ["python3 -i -c 'print(1)'", "python3 -IX dev -ic 'print(1)'",
     "python3 --check-hash-based-pycs never -c 'print(1)'", "python3 -v -c 'print(1)'",
     "python3 --help-al -c 'print(1)'"],
)  # fmt: skip
def test_other_options_keep_the_code_asked(verdict: Judge, command: str) -> None:
    assert verdict(command).decision == "ask", command


@pytest.mark.parametrize(
    "args", [(), ("--version",), ("-V",), ("-c", CODE), ("-m", "pytest"), ("a.py",), ("-Z",)]
)
@pytest.mark.parametrize("program", ["python", "python3", "python3.11", "python2.7"])
def test_python_is_in_the_table_and_never_granted(program: str, args: tuple[str, ...]) -> None:
    reading = read_call(program, args)
    assert reading.doubt is not None and not reading.acts
    assert "not in the guard's table" not in reading.doubt
    if args == ("-Z",):
        assert "-Z" in reading.doubt


@pytest.mark.parametrize(
    "command",
    ["python3 -I -c 'exec(input())'", "python3 -I -c 'import requests; requests.get(\"https://x\")'",
     "python3 -IE -c 'exec(input())'", "python3 -cexec(input())", "python3 -I -i -c 'print(1)'"],
)  # fmt: skip
def test_code_after_an_option_that_takes_no_value_is_asked(verdict: Judge, command: str) -> None:
    """``-I`` takes no value in Python (it does in perl and ruby): the ``-c`` after it
    still gives Python its code."""
    assert verdict(command).decision == "ask", command


@pytest.mark.parametrize(
    ("args", "flags", "words"),
    [
        (("-Wignore", "x.py"), {"-W"}, ("x.py",)),  # not -i, -g, -n, ... bundled
        (("-W", "ignore", "x.py", "-i"), {"-W"}, ("ignore", "x.py", "-i")),
        (("-c", CODE, "-i", "out.txt"), {"-c"}, (CODE, "-i", "out.txt")),  # -i: sys.argv
        (("-Im", "http.server", "-d", "/tmp"), {"-I", "-m"}, ("http.server", "-d", "/tmp")),
    ],
)
def test_the_rules_see_pythons_options_as_python_reads_them(
    args: tuple[str, ...], flags: set[str], words: tuple[str, ...]
) -> None:
    """Python is one of the programs whose options the rules see through the table
    (`table.SPELLED`): the program's own words after its script or ``-c``/``-m`` are
    operands, never Python's options."""
    for program in ("python", "python3"):
        found, operands, _, unknown = split_args(program, args)
        assert found == flags, args
        assert operands == words, args
        assert not unknown


@settings(max_examples=100, deadline=None)
@given(chosen=_OPTIONS)
def test_any_spelling_of_pythons_options_gives_the_rules_the_same_flags(
    chosen: list[tuple[Opt, bool]],
) -> None:
    apart = [w for opt, _ in chosen for w in _words([(opt, False)])]
    together = _words(chosen)
    assert (
        split_args("python3", (*apart, "x.py"))[0] == split_args("python3", (*together, "x.py"))[0]
    )
