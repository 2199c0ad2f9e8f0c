"""Programs that delete other than rm (`table.removers`: shred, srm, wipe, trash,
trash-put, gio trash/remove) have their home in the table: their operands, read as each
program reads its options, are what they delete, so a protected place given to them in
any spelling of any option is denied; an option's value is not a deleted file, and the
folder ``trash-put --trash-dir`` moves files into is written. None is ever granted."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amplifier_hooks.guard import Places, Policy, judge, load_pack
from amplifier_hooks.guard.table import SPELLED, Does, read_call
from amplifier_hooks.guard.table.options import Opt, Options, Takes
from amplifier_hooks.guard.table.removers import REMOVERS

PLACES = Places.of("/home/dev/project", home="/home/dev")
PACK: Policy = load_pack()
SHAPES = {
    # program: the command around the options, before the operand
    "shred": "shred {opt}", "srm": "srm {opt}", "wipe": "wipe {opt}", "trash": "trash {opt}",
    "trash-put": "trash-put {opt}", "gio": "gio trash {opt}",
}  # fmt: skip


def _decision(command: str) -> str | None:
    return judge({"tool_name": "bash", "tool_input": {"command": command}}, PACK, PLACES).decision


def _flag_spellings(options: Options, opt: Opt) -> list[str]:
    """Every spelling the program reads as ``opt`` (a flag): each short name, each unique
    prefix of each long name."""
    found: list[str] = []
    for name in opt.names:
        if len(name) == 2:
            found.append(name)
            continue
        bare = name[2:]
        for end in range(1, len(bare) + 1):
            could, doubt = options.long(bare[:end])
            if doubt is None and [o for o, _ in could] == [opt]:
                found.append(f"--{bare[:end]}")
    return found


def _cases() -> list[str]:
    cases: list[str] = []
    for program, shape in SHAPES.items():
        options = SPELLED[program]
        every = {o for o, _ in options.longs.values()} | set(options.shorts.values())
        for opt in sorted(every, key=lambda o: o.names):
            if opt.takes != Takes.NOTHING or opt.does in ("empty", "restore", "list"):
                continue
            cases += [shape.format(opt=s) for s in _flag_spellings(options, opt)]
    return cases


CASES = _cases()


def test_every_remover_has_a_home_in_the_table() -> None:
    assert set(SHAPES) == set(REMOVERS)
    for program in REMOVERS:
        assert program in SPELLED
        assert "not in the guard's table of programs" not in (read_call(program, ()).doubt or "")
    assert "trash-put --trash-d .claude" not in CASES  # a value, not a flag
    assert "srm --recu" in CASES and "gio trash -f" in CASES


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(CASES), target=st.sampled_from([".claude", "~/.claude/settings.json"]))
def test_a_protected_place_after_any_flag_is_denied(case: str, target: str) -> None:
    command = f"{case} {target}"
    assert _decision(command) == "deny", command


@pytest.mark.parametrize(
    ("program", "args", "acts"),
    [
        ("trash-put", ("-rf", "build"), ((Does.DELETE, "build"),)),
        ("trash-put", ("--trash-dir=/tmp/t", "a"), ((Does.WRITE, "/tmp/t"), (Does.DELETE, "a"))),
        ("gio", ("remove", "-f", "a", "b"), ((Does.DELETE, "a"), (Does.DELETE, "b"))),
        ("gio", ("trash", "--list"), ()),
        ("srm", ("-rz", "x"), ((Does.DELETE, "x"),)),
        ("shred", ("-n", "3", "x"), ((Does.WRITE, "x"),)),  # 3: a count, not a file
        ("shred", ("-zu", "x"), ((Does.WRITE, "x"), (Does.DELETE, "x"))),
        ("shred", ("--remove=wipe", "x"), ((Does.WRITE, "x"), (Does.DELETE, "x"))),
        ("wipe", ("-rf", "x"), ((Does.WRITE, "x"), (Does.DELETE, "x"))),
        ("wipe", ("-k", "x"), ((Does.WRITE, "x"),)),
    ],
)
def test_the_table_reads_what_each_deletes(
    program: str, args: tuple[str, ...], acts: tuple[tuple[Does, str], ...]
) -> None:
    reading = read_call(program, args)
    assert reading.doubt is None, reading
    assert tuple(reading.acts) == acts


@pytest.mark.parametrize(
    ("program", "args"),
    [("gio", ("move", "a", "b")), ("gio", ("trash", "--empty")), ("gio", ("trash", "--restore",
     "trash:///a")), ("trash-put", ("--bogus", "a")), ("wipe", ("-y", "a")), ("gio", ())],
)  # fmt: skip
def test_what_the_table_cannot_say_is_doubtful(program: str, args: tuple[str, ...]) -> None:
    assert read_call(program, args).doubt is not None


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("trash-put -rf ~/notes", "deny"),  # the home folder outside the workspace
        ("trash-put --trash-dir .claude build", "deny"),  # moved into a protected place
        ("trash --trash-d=.claude build", "deny"),
        ("gio move a .claude", "deny"),  # gio's other subcommands change their operands
        ("wipe -rf ~", "deny"),
        ("srm -r src", "deny"),
        ("shred -n 3 src/a.py", "deny"),
        ("gio trash ~/notes", "ask"),
        ("trash-put .", "deny"),  # the whole workspace (rm-workspace-root)
        ("trash-put $X", "ask"),
        ("trash-put -r .git", "ask"),
        ("trash-put build", None),
        ("gio remove build/a.o", None),
    ],
)
def test_removers_are_judged_by_what_they_delete(command: str, expected: str | None) -> None:
    assert _decision(command) == expected, command
