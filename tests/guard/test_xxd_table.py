"""xxd's options are read by the table's option reader (`table.files.XXD`), after
`xxd_words` puts xxd's own spellings in getopt's form: xxd knows an option by its first
letter (``-revert``, ``-rx``, ``--r``), and a valued one takes the rest of its word
(``-c8``, and ``-co``: a number read from ``o``) or, alone or spelled out (``-cols``), the
next word. Whatever the spelling, the second operand is the file xxd writes."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amplifier_hooks.guard import Places, Policy, judge, load_pack
from amplifier_hooks.guard.table import read_call, read_program
from amplifier_hooks.guard.table.files import XXD
from amplifier_hooks.guard.table.options import Takes

PLACES = Places.of("/home/dev/project", home="/home/dev")
PACK: Policy = load_pack()
_SPELLED_OUT = {"a": "autoskip", "b": "bits", "C": "capitalize", "d": "decimal",
                "e": "e", "E": "EBCDIC", "i": "include", "p": "ps", "r": "revert",
                "u": "u", "c": "cols", "g": "groupsize", "l": "len", "n": "name",
                "o": "offset", "s": "seek"}  # fmt: skip


def _decision(command: str) -> str | None:
    return judge({"tool_name": "bash", "tool_input": {"command": command}}, PACK, PLACES).decision


def _spellings() -> list[str]:
    """Every option of `XXD` (but those that exit at once) in the ways xxd reads it."""
    found: list[str] = []
    for letter, opt in sorted(XXD.shorts.items()):
        if letter in "hvR":
            continue
        name = _SPELLED_OUT[letter]
        if opt.takes == Takes.NOTHING:
            found += [f"-{letter}", f"--{letter}", f"-{name}", f"-{letter}x"]
        elif letter == "n":
            found += ["-n var", "-nvar", "-name var", "--n var"]
        else:
            found += [
                f"-{letter} 4",
                f"-{letter}4",
                f"-{name} 4",
                f"--{letter} 4",
                f"-{letter}0x10",
                f"-{name[:2]}",
            ]  # `-co`: a number read from `o`
    return found


SPELLINGS = _spellings()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(before=st.lists(st.sampled_from(SPELLINGS), max_size=3),
       target=st.sampled_from([".claude/settings.json", "~/.codex/config.toml"]))  # fmt: skip
def test_the_file_xxd_writes_is_found_after_any_options(before: list[str], target: str) -> None:
    command = " ".join(["xxd", *before, "-r", "evil.hex", target])
    assert _decision(command) == "deny", command


@pytest.mark.parametrize(
    ("args", "operands"),
    [
        (("-co", "in", "out"), ("in", "out")),  # a value of its own word: `o`
        (("-cols", "8", "in", "out"), ("in", "out")),
        (("-c", "8", "-rev", "in", "out"), ("in", "out")),
        (("-capitalize", "in"), ("in",)),
        (("-s", "-16", "in"), ("in",)),
        (("--", "-r", "out"), ("-r", "out")),
    ],
)
def test_xxd_words_are_read_as_xxd_reads_them(
    args: tuple[str, ...], operands: tuple[str, ...]
) -> None:
    read = read_program("xxd", args)
    assert read is not None and read.operands == operands


@pytest.mark.parametrize("args", [("-zz", "a"), ("-cfoo", "a"), ("a", "b", "c")])
def test_what_xxd_would_refuse_is_doubtful(args: tuple[str, ...]) -> None:
    assert read_call("xxd", args).doubt is not None


@pytest.mark.parametrize(
    ("command", "expected"),
    [("xxd src/a.py", "allow"), ("xxd -l 16 -g 2 src/a.py", "allow"),
     ("xxd -s 0x10 -cols 8 src/a.py", "allow"), ("xxd -co evil.hex .claude/settings.json", "deny"),
     ("xxd -r -p hex.txt ../out.bin", "ask")],
)  # fmt: skip
def test_reading_is_granted_and_writing_judged(command: str, expected: str) -> None:
    assert _decision(command) == expected, command


def test_real_xxd_reads_co_as_a_count_and_writes_the_second_operand(tmp_path: Path) -> None:
    """What the guard assumes of ``xxd -co IN OUT``, checked on the real program."""
    if shutil.which("xxd") is None:
        if os.environ.get("CI"):
            pytest.fail("xxd is not installed")
        pytest.skip("xxd is not installed")
    (tmp_path / "in").write_bytes(b"abc")
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path), "LC_ALL": "C"}
    done = subprocess.run(["xxd", "-co", "in", "out"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out").exists()
    read = read_program("xxd", ("-co", "in", "out"))
    assert read is not None and read.operands == ("in", "out")
