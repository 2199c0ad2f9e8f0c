"""The programs whose options used to be read by hand (the grep family, sed, touch, uniq,
xxd, yq, chattr, chcon, setfacl, find, 7z, docker, kubectl, make, ssh-keygen) are read by
the table's one option reader: any spelling the program accepts for an option (a unique
prefix where it takes them, ``--opt=value`` and ``--opt value``, a short option bundled
or with its value attached, the last one winning) is read as that option. A patch or an
archive unpacked below a protected folder (``patch -d``, ``git apply --directory``,
``7z x -oDIR``) is denied; below a folder of the workspace it is not."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amplifier_hooks.guard import Places, Policy, judge, load_pack
from amplifier_hooks.guard.environment import ENV_DUMP, ENV_SECRETS, mark_env_dumps
from amplifier_hooks.guard.facts import split_args
from amplifier_hooks.guard.parser import parse_command
from amplifier_hooks.guard.table import SPELLED, patterned, read_program
from amplifier_hooks.guard.table.commanders import GLOBAL_OPTIONS, global_read
from amplifier_hooks.guard.table.options import Opt, Options, Takes
from amplifier_hooks.guard.table.sed import SED
from amplifier_hooks.guard.table.text import SEARCHES

PLACES = Places.of("/home/ada-guard-test/src/calc", home="/home/ada-guard-test")
PACK: Policy = load_pack()
WORD = st.from_regex(r"[a-z][a-z0-9_]{0,6}(/[a-z0-9_]{1,6}){0,2}", fullmatch=True)
"""A plain word: a pattern, a file, a folder of the workspace."""


def _decision(command: str) -> str:
    verdict = judge({"tool_name": "bash", "tool_input": {"command": command}}, PACK, PLACES)
    return verdict.decision


def spellings(options: Options, opt: Opt, value: str, quiet: str = "") -> list[tuple[str, ...]]:
    """Every way the program reads as ``opt`` with the value ``value``: each unique
    prefix of each long name (``=value`` and the next word), each short name with the
    value attached or next, bundled after ``quiet`` (a short flag with no value)."""
    found: list[tuple[str, ...]] = []
    for name in opt.names:
        if len(name) == 2:
            found += [(name, value), (name + value,)]
            if quiet:
                found += [(f"-{quiet}{name[1]}", value), (f"-{quiet}{name[1]}{value}",)]
            continue
        bare = name[2:]
        for end in range(1, len(bare) + 1):
            could, doubt = options.long(bare[:end])
            if doubt is None and [o for o, _ in could] == [opt]:
                found += [(f"--{bare[:end]}", value), (f"--{bare[:end]}={value}",)]
    return found


def _opt(options: Options, name: str) -> Opt:
    return options.shorts[name[1]] if len(name) == 2 else options.longs[name[2:]][0]


# -- the grep family and sed: the pattern (script) is not a path -----------------------------


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_any_spelling_of_a_given_pattern_leaves_every_operand_a_path(data: st.DataObject) -> None:
    program = data.draw(st.sampled_from(sorted({"grep", "egrep", "zgrep", "rg", "ack"})))
    options = SEARCHES[program]
    name = "--match" if program == "ack" else "-e"
    pattern, files = data.draw(WORD), data.draw(st.lists(WORD, min_size=1, max_size=3))
    spelled = data.draw(st.sampled_from(spellings(options, _opt(options, name), pattern, "i")))
    before = data.draw(st.sampled_from([(), ("-n",), ("-i", "-n")]))
    patterns, read = patterned(program, (*before, *spelled, *files))
    assert patterns == (pattern,), spelled
    assert read.operands == tuple(files)


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_without_a_pattern_option_the_first_operand_is_the_pattern(data: st.DataObject) -> None:
    program = data.draw(st.sampled_from(sorted(SEARCHES)))
    pattern, files = data.draw(WORD), data.draw(st.lists(WORD, max_size=3))
    patterns, read = patterned(program, ("-n", pattern, *files))
    assert patterns == (pattern,) and read.operands == tuple(files)


@pytest.mark.parametrize(
    "args",
    [("-f", "pats.txt", "a.txt"), ("--file=pats.txt", "a.txt"), ("--file", "pats.txt", "a.txt"),
     ("-nfpats.txt", "a.txt")],
)  # fmt: skip
def test_grep_f_gives_the_patterns_so_every_operand_is_a_file(args: tuple[str, ...]) -> None:
    for program in ("grep", "rg"):
        patterns, read = patterned(program, args)
        assert patterns == () and read.operands == ("a.txt",), (program, args)


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_any_spelling_of_a_sed_script_leaves_every_operand_a_file(data: st.DataObject) -> None:
    files = data.draw(st.lists(WORD, min_size=1, max_size=3))
    spelled = data.draw(st.sampled_from(spellings(SED, _opt(SED, "-e"), "s/a/b/", "n")))
    scripts, read = patterned("sed", (*spelled, *files))
    assert scripts == ("s/a/b/",) and read.operands == tuple(files)


@pytest.mark.parametrize(
    ("command", "secrets"),
    [("env | grep -i token", True), ("env | grep --regexp=PATH", False),
     ("env | rg -e HOME -e SECRET", True), ("env | grep --reg PATH", False)],
)  # fmt: skip
def test_an_environment_dump_searched_is_read_by_the_tables_grep(
    command: str, secrets: bool
) -> None:
    marks = mark_env_dumps(parse_command(command).pieces)[0].wrappers
    assert (ENV_SECRETS in marks) == secrets and (ENV_DUMP in marks) == secrets


@pytest.mark.parametrize(
    "command", ["env | grep -v PATH", "env | grep --invert PATH", "env | grep -f pats.txt"]
)
def test_an_inverted_search_or_one_from_a_file_is_still_a_dump(command: str) -> None:
    assert ENV_DUMP in mark_env_dumps(parse_command(command).pieces)[0].wrappers


# -- where a program writes: a protected place by any spelling is denied -----------------------

WRITERS = {
    # program: (the command around the option, the option, a short flag with no value, value)
    "touch": ("touch {opt} .claude/settings.json", "-d", "c", "yesterday"),
    "uniq": ("uniq {opt} evil.json .claude/settings.json", "-f", "c", "2"),
    "chcon": ("chcon {opt} ~/.claude", "-t", "v", "user_home_t"),
    "setfacl": ("setfacl {opt} ~/.codex", "-m", "R", "u:nobody:rwx"),
    "patch": ("patch {opt} < fix.diff", "-d", "s", "~/.gemini"),
}


def _writer_cases() -> list[str]:
    cases = []
    for program, (shape, name, quiet, value) in WRITERS.items():
        options = SPELLED[program]
        for spelled in spellings(options, _opt(options, name), value, quiet):
            cases.append(shape.format(opt=" ".join(spelled)))
    return cases


WRITER_CASES = _writer_cases()


def test_each_writer_has_spellings_to_try() -> None:
    assert "patch --direc ~/.gemini < fix.diff" in WRITER_CASES
    assert "touch -cdyesterday .claude/settings.json" in WRITER_CASES
    assert {c.split()[0] for c in WRITER_CASES} == set(WRITERS)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(WRITER_CASES))
def test_a_protected_place_written_in_any_spelling_is_denied(case: str) -> None:
    assert _decision(case) == "deny", case


@pytest.mark.parametrize(
    "command",
    [
        "patch -d .claude -p1 < hooks.diff",
        "patch --dir=~/.openclaw -i plugin.diff",
        "patch -d src --directory ~/.claude < x.diff",  # the last one wins
        "git apply --directory=.gemini fix.diff",
        "git apply --dir ~/.codex -p1 fix.diff",
        "git am --directory=.claude series.mbox",
        "7z x kit.7z -o.claude",
        "7za e -y kit.zip -O~/.gemini",  # 7-Zip's switches: any case
        "7zz x kit.7z -obuild -o~/.openclaw",  # the last -o wins
        "chattr -i .claude/settings.json",  # a mode, not an option
        "chattr -R +i ~/.codex",
        "chcon --type=user_home_t -R ~/.claude",
        "xxd -r -c16 evil.hex ~/.codex/config.toml",
        "xxd -revert evil.hex .claude/settings.json",
        "yq --inplace '.a = 1' .gemini/settings.json",
        "yq -i -o json '.a = 1' .gemini/settings.json",
        "yq --in-pl '.a = 1' .gemini/settings.json",  # the Python yq's argparse: a prefix
        "yq -yi '.a = 1' .gemini/settings.json",
        "find . -maxdepth 0 -fprintf .claude/settings.json %p",
        "find . -newerXY x -fls ~/.codex/hooks.json",
        "shred -n 3 -u ~/.codex/config.toml",
        "touch --date=now --refer=a ~/.codex/hooks.json",
    ],
)
def test_examples_of_routes_now_read_by_the_table(command: str) -> None:
    assert _decision(command) == "deny", command


@pytest.mark.parametrize(
    "command",
    [
        "patch -d src -p1 < fix.diff",
        "patch --directory=vendor/lib -i local.diff",
        "git apply --directory=packages/core fix.diff",
        "git am --directory=libs/parser series.mbox",
        "7z x assets.7z -obuild/assets -y",
        "7z x kit.7z -so",
        "7z l kit.7z",
        "yq '.a' .gemini/settings.json",  # prints only
        "chattr +i build/out.bin",
    ],
)
def test_the_same_routes_into_the_workspace_are_not_denied(command: str) -> None:
    assert _decision(command) != "deny", command


def test_seven_zip_switches_take_the_longest_name_and_a_glued_value() -> None:
    read = read_program("7z", ("x", "-aoa", "-SDEL", "-o/tmp/x", "k.7z"))
    assert read is not None and read.doubt is None
    assert read.values("into") == ("/tmp/x",) and read.has("remove")
    assert read.operands == ("x", "k.7z")
    unknown = read_program("7z", ("x", "-qq", "k.7z"))
    assert unknown is not None and unknown.doubt is not None


# -- options before a subcommand -----------------------------------------------------------

GLOBALS = {
    "docker": (("-H", "--host", "--context", "-c", "--config", "-l"), "D"),
    "kubectl": (("-n", "--namespace", "--context", "--kubeconfig", "-s", "--cluster"), ""),
    "make": (("-C", "--directory", "-f", "--file", "-j", "-I", "-o", "-W"), "k"),
}


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_any_spelling_of_a_global_option_leaves_the_subcommand_where_it_is(
    data: st.DataObject,
) -> None:
    program = data.draw(st.sampled_from(sorted(GLOBALS)))
    names, quiet = GLOBALS[program]
    options = GLOBAL_OPTIONS[program]
    opt = _opt(options, data.draw(st.sampled_from(names)))
    value = "4" if "-j" in opt.names else data.draw(WORD)
    ways = spellings(options, opt, value, quiet)
    if opt.takes == Takes.OPTIONAL:  # make -j: attached, or the next word when a number
        ways = [w for w in ways if len(w) == 1 or w[1].isdigit()]
    spelled = data.draw(st.sampled_from(ways))
    sub = data.draw(st.sampled_from(["delete", "run", "clean", "apply"]))
    args = (*spelled, sub, data.draw(WORD))
    read = global_read(program, args)
    assert read is not None and read.operands[:1] == (sub,), args
    assert split_args(program, args)[2] == sub, args


def test_a_global_option_kubectl_does_not_abbreviate_is_not_read_as_one() -> None:
    read = global_read("kubectl", ("--namesp", "prod", "delete", "ns"))
    assert read is not None and read.doubt is not None


@pytest.mark.parametrize(
    ("args", "reads_only"),
    [(("-lf", "k.pub"), True), (("-l", "-f", "k.pub"), True), (("-F", "host"), True),
     (("-qBf", "k"), True), (("-t", "ed25519", "-f", "k"), False), (("-yf", "k"), False),
     (("-g", "-lf", "k.pub"), True)],
)  # fmt: skip
def test_ssh_keygen_modes_that_only_read(args: tuple[str, ...], reads_only: bool) -> None:
    read = read_program("ssh-keygen", args)
    assert read is not None and read.has("only-reads") == reads_only


@pytest.mark.parametrize(
    "command",
    ["grep -f ~/.ssh/id_rsa notes.txt", "grep -nf ~/.aws/credentials src",
     "rg --file ~/.ssh/id_ed25519 .", "sed -f ~/.ssh/id_rsa notes.txt"],
)  # fmt: skip
def test_a_file_a_search_reads_its_patterns_from_is_a_file_it_reads(command: str) -> None:
    assert _decision(command) == "deny", command
