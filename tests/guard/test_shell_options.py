"""A shell's options are read from the table (`table.shells`) as the shell reads them: the
``-c`` command is the first operand after every option (``bash -co pipefail CMD``: CMD,
not ``pipefail``), ``-s`` or no operand reads the program from the shell's input, and the
first operand otherwise is the script. Each place that asks (what a shell runs, its
script, its input) reads them the same way."""

from __future__ import annotations

import shlex

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amplifier_hooks.guard import Places, Policy, judge, load_pack
from amplifier_hooks.guard.parser import parse_fresh
from amplifier_hooks.guard.scripts import run_words

PLACES = Places.of("/home/dev/project", home="/home/dev")
PACK: Policy = load_pack()
DESTROY = "rm -rf ~"


def _decision(command: str) -> str | None:
    return judge({"tool_name": "bash", "tool_input": {"command": command}}, PACK, PLACES).decision


@pytest.mark.parametrize(
    "options",
    ["-xc", "-c --", "-ec", "-co pipefail", "-euo pipefail -c", "-euxo pipefail -c",
     "-O extglob -c", "+x -c", "--norc -c", "-o pipefail +o errexit -c", "-lc", "-c -x"],
)  # fmt: skip
@pytest.mark.parametrize("shell", ["bash", "sh"])
def test_the_c_command_is_the_first_operand_after_every_option(shell: str, options: str) -> None:
    command = f"{shell} {options} {shlex.quote(DESTROY)}"
    assert [(p.program, p.args) for p in parse_fresh(command).pieces] == [("rm", ("-rf", "~"))]
    assert _decision(command) == "deny", command


@pytest.mark.parametrize("options", ["", "-s a b", "-o pipefail", "-eo pipefail", "+x", "--"])
def test_a_shell_with_no_script_runs_its_input(options: str) -> None:
    command = f"bash {options} <<'EOF'\n{DESTROY}\nEOF"
    assert _decision(command) == "deny", command


@pytest.mark.parametrize(
    ("args", "expected"),
    [(("-o", "pipefail", "/tmp/x.sh"), ("/tmp/x.sh",)),
     (("-eo", "pipefail", "/tmp/x.sh", "-c", "y"), ("/tmp/x.sh",)),
     (("--rcfile", "/tmp/rc", "+x", "/tmp/x.sh"), ("/tmp/rc", "/tmp/x.sh")),
     (("-", "/tmp/x.sh"), ("/tmp/x.sh",)), (("-co", "pipefail", "/tmp/x.sh"), ())],
)  # fmt: skip
def test_the_script_a_shell_runs_is_its_first_operand(
    args: tuple[str, ...], expected: tuple[str, ...]
) -> None:
    assert run_words("bash", args, ()) == expected


def test_a_file_a_shell_runs_first_or_an_unknown_option_is_never_granted() -> None:
    assert _decision("bash -c ls") == "allow"
    assert _decision("bash --rcfile /tmp/x.sh -c ls") != "allow"
    assert _decision("bash -Z -c ls") != "allow"


_LETTERS = "aefhkmnptuvxBCEHPT"


@st.composite
def _options(draw: st.DrawFn) -> list[str]:
    """A shell's options before its command, in any spelling bash accepts: bundles of set
    letters turned on or off, ``-o``/``+o``/``-O`` with a name (alone or ending a
    bundle), long options first."""
    words: list[str] = draw(st.lists(st.sampled_from(["--norc", "--noprofile", "--posix"]),
                                     max_size=2))  # fmt: skip
    for _ in range(draw(st.integers(0, 4))):
        sign = draw(st.sampled_from("-+"))
        letters = draw(st.text(_LETTERS, max_size=3))
        if draw(st.booleans()):
            words += [sign + letters + draw(st.sampled_from("oO")), "pipefail"]
        elif letters:
            words.append(sign + letters)
    return words


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(before=_options(), after=_options(), place=st.sampled_from(["own", "bundled", "ended"]))
def test_any_spelling_of_the_options_runs_the_same_command(
    before: list[str], after: list[str], place: str
) -> None:
    if place == "own":
        words = [*before, "-c", *after]
    elif place == "bundled":
        words = [*before, "-xc", *after]
    else:
        words = [*before, "-c", *after, "--"]
    command = shlex.join(["bash", *words, DESTROY])
    pieces = parse_fresh(command).pieces
    assert [(p.program, p.args) for p in pieces] == [("rm", ("-rf", "~"))], command
