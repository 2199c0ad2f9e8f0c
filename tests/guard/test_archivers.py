"""cpio, unrar and ar have their home in the table (`table.archivers`): the folder each
unpacks into (``cpio -i -D DIR``, ``cpio -p DIR``, ``unrar x A DIR/``, ``unrar x -opDIR``,
``ar --output DIR x A``), in any spelling the program reads, is judged as a place, as
``tar -C`` is: a protected one is denied. What they unpack is never granted."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amplifier_hooks.guard import Places, Policy, judge, load_pack
from amplifier_hooks.guard.table import SPELLED, Does, read_call, read_program
from amplifier_hooks.guard.table.archivers import ARCHIVERS, unpacked_into
from amplifier_hooks.guard.table.options import Opt, Options, Takes

PLACES = Places.of("/home/dev/project", home="/home/dev")
PACK: Policy = load_pack()
SHAPES = {
    # program: the command around the option that names the folder
    "cpio": "cpio -i {opt} < evil.cpio",
    "ar": "ar {opt} x evil.a",
}
FOLDERS = ["~/.claude", ".claude", ".gemini", "~/.codex"]


def _decision(command: str) -> str | None:
    return judge({"tool_name": "bash", "tool_input": {"command": command}}, PACK, PLACES).decision


def _spellings(options: Options, opt: Opt, value: str) -> list[str]:
    """Every way to give ``opt`` the value ``value`` that ``options`` reads as ``opt``."""
    found: list[str] = []
    for name in opt.names:
        if len(name) == 2:
            found += [f"{name} {value}", f"{name}{value}", f"-v{name[1]} {value}"]
            continue
        bare = name[2:]
        for end in range(1, len(bare) + 1):
            could, doubt = options.long(bare[:end])
            if doubt is None and [o for o, _ in could] == [opt]:
                found += [f"--{bare[:end]} {{v}}", f"--{bare[:end]}={{v}}"]
    return [f.replace("{v}", value) for f in found]


def _cases() -> list[str]:
    cases: list[str] = []
    for program, shape in SHAPES.items():
        options = SPELLED[program]
        every = {o for o, _ in options.longs.values()} | set(options.shorts.values())
        for opt in every:
            if opt.does == "into" and opt.takes == Takes.VALUE:
                cases += [shape.format(opt=s) for s in _spellings(options, opt, "{f}")]
    cases += [f"unrar {c} evil.rar {{f}}/" for c in ("x", "e", "x -y", "e -o+", "X")]
    cases += [
        "unrar x -op{f} evil.rar",
        "cpio -pdm {f} < list",
        "cpio -p -D {f} . < list",
        "ar -x evil.a --output={f}",
        "ar xv evil.a --out {f}",
    ]
    return cases


CASES = _cases()


def test_every_spelling_is_composed() -> None:
    assert "cpio -i --direc {f} < evil.cpio" in CASES
    assert "cpio -i -D{f} < evil.cpio" in CASES
    assert "ar --outp={f} x evil.a" in CASES
    assert "unrar x evil.rar {f}/" in CASES
    assert set(ARCHIVERS) == {"cpio", "unrar", "ar"}


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(CASES), folder=st.sampled_from(FOLDERS))
def test_unpacking_into_a_protected_folder_is_denied(case: str, folder: str) -> None:
    command = case.replace("{f}", folder)
    assert _decision(command) == "deny", command


@pytest.mark.parametrize(
    ("program", "args", "into"),
    [
        ("cpio", ("-idv",), (".",)),
        ("cpio", ("-i", "-D", "out", "-D", "out2"), ("out2",)),  # the last one wins
        ("cpio", ("-it",), ()),
        ("cpio", ("-i", "--to-stdout"), ()),
        ("cpio", ("-o", "-F", "a.cpio"), ()),
        ("cpio", ("-pdm", "-D", "src", "dest"), ("src/dest",)),
        ("unrar", ("x", "a.rar"), (".",)),
        ("unrar", ("x", "a.rar", "out/"), (".", "out/")),  # `out/` or a folder that exists
        ("unrar", ("x", "-opout", "a.rar"), ("out",)),
        ("unrar", ("l", "a.rar", "out/"), ()),
        ("ar", ("x", "lib.a"), (".",)),
        ("ar", ("--output", "out", "-xv", "lib.a"), ("out",)),
        ("ar", ("t", "lib.a"), ()),
        ("ar", ("rcs", "lib.a", "a.o"), ()),
    ],
)
def test_the_folder_each_unpacks_into(
    program: str, args: tuple[str, ...], into: tuple[str, ...]
) -> None:
    read = read_program(program, args)
    assert read is not None
    assert unpacked_into(program, read) == into


@pytest.mark.parametrize(
    "command",
    ["cpio -idv < a.cpio", "cpio -i -D build < a.cpio", "unrar x a.rar build/",
     "ar --output=build x lib.a", "ar x lib.a"],
)  # fmt: skip
def test_unpacking_in_the_workspace_is_never_granted_nor_asked(command: str) -> None:
    assert _decision(command) is None, command


@pytest.mark.parametrize(
    ("program", "args", "acts"),
    [
        ("ar", ("t", "lib.a"), ((Does.READ, "lib.a"),)),
        ("ar", ("rcs", "lib.a", "a.o"), ((Does.WRITE, "lib.a"), (Does.READ, "a.o"))),
        ("ar", ("rb", "x.o", "lib.a", "a.o"), ((Does.WRITE, "lib.a"), (Does.READ, "a.o"))),
        ("cpio", ("-it", "-F", "a.cpio"), ((Does.READ, "a.cpio"),)),
        ("unrar", ("l", "a.rar"), ((Does.READ, "a.rar"),)),
    ],
)
def test_listing_and_packing(
    program: str, args: tuple[str, ...], acts: tuple[tuple[Does, str], ...]
) -> None:
    reading = read_call(program, args)
    assert reading.doubt is None and tuple(reading.acts) == acts


@pytest.mark.parametrize(
    ("program", "args"),
    [("cpio", ("-i", "--absolute-filenames")), ("cpio", ("-ir",)), ("cpio", ()),
     ("unrar", ("rn", "a.rar")), ("ar", ()), ("ar", ("--bogus", "x", "a.a"))],
)  # fmt: skip
def test_what_the_table_cannot_say_is_doubtful(program: str, args: tuple[str, ...]) -> None:
    assert read_call(program, args).doubt is not None


def test_real_ar_extracts_into_the_output_folder(tmp_path: Path) -> None:
    """What the guard assumes of ``ar --output DIR -x A``, checked on GNU ar."""
    if shutil.which("ar") is None:
        if os.environ.get("CI"):
            pytest.fail("GNU ar is not installed")
        pytest.skip("GNU ar is not installed")
    (tmp_path / "m.o").write_bytes(b"member")
    (tmp_path / "out").mkdir()
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path), "LC_ALL": "C"}

    def run(*args: str) -> None:
        done = subprocess.run(["ar", *args], cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=60, check=False)  # fmt: skip
        assert done.returncode == 0, done.stderr

    run("rc", "lib.a", "m.o")
    args = ("--output", "out", "-x", "lib.a")
    run(*args)
    assert (tmp_path / "out" / "m.o").read_bytes() == b"member"
    read = read_program("ar", args)
    assert read is not None and unpacked_into("ar", read) == ("out",)
