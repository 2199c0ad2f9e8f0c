"""The wrappers a command may be granted under (``env``, ``nice``, ``timeout``, ``time``,
``stdbuf``, ...) have their options in the table (`table.wrapping`), read by its option
reader: whatever spelling of an option comes first (a unique prefix, ``=value`` or the
next word, bundled, attached), the command after it is judged, and it is granted only
when every option was known and none is risky. The wrappers no command is granted under
(``sudo``, ``xargs``, ``watch``, ...: `table.wrapping.UNGRANTED`) are read by the same
reader, so the command after them is the word the wrapper takes for it."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amplifier_hooks.guard import Places, Policy, judge, load_pack
from amplifier_hooks.guard.parser import parse_fresh
from amplifier_hooks.guard.table.options import Opt, Options, Takes
from amplifier_hooks.guard.table.wrapping import RISKY, SPLIT, UNGRANTED, WRAPPING
from amplifier_hooks.guard.wrappers import WRAPPERS

PLACES = Places.of("/home/dev/project", home="/home/dev")
PACK: Policy = load_pack()
BEFORE_COMMAND = {"timeout": "5 ", "chroot": "/ ", "chrt": "0 ", "taskset": "1 "}
"""What comes between a wrapper's options and its command."""


def _decision(command: str) -> str | None:
    return judge({"tool_name": "bash", "tool_input": {"command": command}}, PACK, PLACES).decision


def _spellings(options: Options, opt: Opt) -> list[str]:
    value = "1"
    found: list[str] = []
    for name in opt.names:
        if len(name) == 2:
            found += [f"{name} {value}", f"{name}{value}"] if opt.takes == Takes.VALUE else [name]
            continue
        bare = name[2:]
        for end in range(1, len(bare) + 1):
            could, doubt = options.long(bare[:end])
            if doubt is not None or [o for o, _ in could] != [opt]:
                continue
            if opt.takes == Takes.VALUE:
                found += [f"--{bare[:end]} {value}", f"--{bare[:end]}={value}"]
            else:
                found.append(f"--{bare[:end]}")
    return found


def _cases() -> list[tuple[str, str, bool]]:
    """(wrapper, its options spelled, whether they are all plain)."""
    cases: list[tuple[str, str, bool]] = [(name, "", True) for name in WRAPPING]
    cases += [(name, "", False) for name in UNGRANTED]
    for name, options in sorted({**WRAPPING, **UNGRANTED}.items()):
        every = {o for o, _ in options.longs.values()} | set(options.shorts.values())
        for opt in sorted(every, key=lambda o: o.names):
            if opt.does == SPLIT:
                continue  # its value is (part of) the command: `test_env_s_splits_...`
            for spelled in _spellings(options, opt):
                cases.append((name, spelled, opt.does != RISKY and name in WRAPPING))
    return cases


CASES = _cases()


def test_the_table_reads_the_wrappers_options() -> None:
    for name, options in {**WRAPPING, **UNGRANTED}.items():
        assert WRAPPERS[name].options is options
    assert all(WRAPPERS[name].why for name in UNGRANTED)
    assert ("sudo", "--us 1", False) in CASES
    assert ("timeout", "--sig 1", True) in CASES
    assert ("env", "--chd=1", False) in CASES


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(CASES))
def test_the_command_after_any_spelling_is_judged(case: tuple[str, str, bool]) -> None:
    name, spelled, plain = case
    head = f"{name} {spelled} {BEFORE_COMMAND.get(name, '')}".replace("  ", " ")
    if name in ("command", "builtin", "busybox", "exec"):
        return  # not a wrapper a grant is asked of here: a builtin or a shell's own word
    assert _decision(f"{head}rm -rf /") == "deny", head
    granted = _decision(f"{head}ls src") == "allow"
    assert granted == plain, head


@pytest.mark.parametrize(
    "command",
    ["env -z ls", "timeout --bogus 5 ls", "nice --frob ls", "time -o out ls", "env -C /etc ls",
     "stdbuf --x=L ls", "env -S 'ls -la'"],
)  # fmt: skip
def test_an_option_the_table_does_not_know_or_that_is_risky_is_not_granted(command: str) -> None:
    assert _decision(command) != "allow", command


@pytest.mark.parametrize(
    "command",
    ["timeout 5 -s KILL rm -rf /", "env FOO=1 -i rm -rf /", "env -- rm -rf /",
     "nice -n 5 env -i timeout -k 1 5 rm -rf /"],
)  # fmt: skip
def test_what_follows_is_judged_even_where_the_program_would_not_run_it(command: str) -> None:
    assert _decision(command) == "deny", command


def test_a_lone_dash_is_envs_ignore_environment_and_no_other_wrappers() -> None:
    assert _decision("env - ls src") == "allow"
    assert _decision("nice - ls src") != "allow"  # nice runs a program named `-`


@pytest.mark.parametrize(
    ("command", "program"),
    [("sudo -u root -- rm -rf ~", "rm"), ("sudo -uroot rm -rf ~", "rm"),
     ("sudo --user=root rm -rf ~", "rm"), ("sudo --us root rm -rf ~", "rm"),
     ("sudo -Eu root rm -rf ~", "rm"), ("sudo -nu root rm -rf ~", "rm"),
     ("sudo -h rm -rf ~", "rm"), ("doas -u root rm -rf ~", "rm"),
     ("xargs -I{} rm -rf ~", "rm"), ("xargs -i rm -rf ~", "rm"), ("xargs -tn 1 rm -rf ~", "rm"),
     ("xargs --max-a 1 rm -rf ~", "rm"), ("xargs -l rm -rf ~", "rm"),
     ("watch -n1 -- rm -rf ~", "rm"), ("watch -d rm -rf ~", "rm"),
     ("watch -x rm -rf ~", "rm"), ("chroot --userspec=x / rm -rf ~", "rm"),
     ("chroot --user x / rm -rf ~", "rm"), ("chrt -T 100 0 rm -rf ~", "rm"),
     ("chrt -bT100 0 rm -rf ~", "rm"), ("taskset -c 0 rm -rf ~", "rm")],
)  # fmt: skip
def test_the_command_after_a_wrapper_never_granted_is_the_one_it_runs(
    command: str, program: str
) -> None:
    """An option that takes the next word (``-Eu root``, ``--us root``) or only an
    attached one (``xargs -i``, ``watch -d``, ``sudo -h``), bundled or abbreviated: the
    command is the word after it, and judged (a reading by name took ``root``, ``1`` or
    ``~`` for the command)."""
    pieces = parse_fresh(command).pieces
    assert [(p.program, p.args) for p in pieces] == [(program, ("-rf", "~"))], command
    assert pieces[0].doubt is not None
    assert _decision(command) == "deny", command


@pytest.mark.parametrize(
    "command",
    ["env -S 'rm -rf /'", "env -iS'rm -rf /'", "env --split-string='rm -rf /'",
     "env --sp 'rm -rf /'", "env -S 'A=1 rm' -rf /", "env -S '-i rm -rf /'"],
)  # fmt: skip
def test_env_s_splits_its_value_into_the_command(command: str) -> None:
    assert _decision(command) == "deny", command


@pytest.mark.parametrize("command", ["env -S 'ls -la'", "env -S '$X ls'", "env -S 'ls \\c'"])
def test_env_s_is_never_granted(command: str) -> None:
    assert _decision(command) != "allow", command


@pytest.mark.parametrize("command", ["command -v git", "command -pv git", "command -p -V git"])
def test_command_v_in_any_spelling_names_the_command_and_runs_nothing(command: str) -> None:
    pieces = parse_fresh(command).pieces
    assert [(p.program, p.args[-1]) for p in pieces] == [("command", "git")], command
    assert _decision(command) == "allow", command


@pytest.mark.parametrize(
    "command", ["command -v git reset --hard", "command -pvV -- git reset --hard"]
)
def test_command_v_given_a_whole_command_is_not_granted(command: str) -> None:
    # it runs nothing, but it reads as the command it names: no grant of a look-alike
    assert _decision(command) is None, command


def test_command_runs_a_program_named_like_an_option_after_its_end() -> None:
    assert [p.program for p in parse_fresh("command -- -v").pieces] == ["-v"]
    assert _decision("command -- -v") != "allow"
