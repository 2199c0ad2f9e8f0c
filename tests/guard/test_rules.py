"""Rules: the schema a bundle writes, and matching on what a call does."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from amplifier_hooks.guard import (
    Places,
    Policy,
    Rule,
    compile_policy,
    judge,
    load_pack,
    load_rules,
)
from tests.guard.conftest import Judge


def policy(*rules: dict[str, object]) -> Policy:
    return Policy.of(rules)


RM_RF = {"id": "rm-rf", "decision": "deny", "reason": "no", "program": "rm",
         "flags": {"all": ["-r|-R|--recursive", "-f|--force"]}}  # fmt: skip


@pytest.mark.parametrize(
    "command",
    ["rm -rf x", "rm -fr x", "rm -r -f x", "rm -R -f x", "rm --recursive --force x",
     "rm -f --recursive x", "rm x -rf"],
)  # fmt: skip
def test_flags_are_the_same_however_spelled(verdict: Judge, command: str) -> None:
    assert verdict(command, policy=policy(RM_RF)).rule == "rm-rf"


@pytest.mark.parametrize("command", ["rm -r x", "rm -f x", "rm -- -rf", "echo rm -rf x"])
def test_flags_that_are_not_given_do_not_match(verdict: Judge, command: str) -> None:
    assert verdict(command, policy=policy(RM_RF)).decision is None


def test_subcommand_skips_global_options(verdict: Judge) -> None:
    rule = {"id": "push", "decision": "ask", "reason": "r", "program": "git", "subcommand": "push"}
    assert verdict("git -C repo -c a=b push", policy=policy(rule)).rule == "push"
    assert verdict("git log push", policy=policy(rule)).decision is None


def test_args_globs(verdict: Judge) -> None:
    rule = {"id": "chmod-777", "decision": "deny", "reason": "r", "program": "chmod",
            "args": {"any": ["777", "a+w"]}}  # fmt: skip
    assert verdict("chmod 777 x", policy=policy(rule)).decision == "deny"
    assert verdict("chmod 644 x", policy=policy(rule)).decision is None


def test_args_each_needs_every_entry_matched_by_some_argument(verdict: Judge) -> None:
    rule = {"id": "drop-guard", "decision": "deny", "reason": "r", "program": ["pip", "uv"],
            "args": {"each": ["uninstall|remove", "amplifier-hooks*"]}}  # fmt: skip
    p = policy(rule)
    assert verdict("pip uninstall -y amplifier-hooks", policy=p).rule == "drop-guard"
    assert verdict("uv pip remove amplifier-hooks==1.0", policy=p).rule == "drop-guard"
    assert verdict("pip install amplifier-hooks", policy=p).decision is None
    assert verdict("pip uninstall requests", policy=p).decision is None


def test_env_matches_the_settings_a_program_runs_with(verdict: Judge) -> None:
    rule = {"id": "moved", "decision": "deny", "reason": "r", "program": "codex",
            "env": {"any": ["CODEX_HOME=*", "HOME=*"]}}  # fmt: skip
    p = policy(rule)
    assert verdict("CODEX_HOME=/tmp/x codex exec hi", policy=p).rule == "moved"
    assert verdict("env HOME=/tmp/h codex exec hi", policy=p).rule == "moved"
    assert verdict("sudo HOME=/tmp/h codex", policy=p).rule == "moved"
    assert verdict("codex exec hi", policy=p).decision is None
    assert verdict("LANG=C codex exec hi", policy=p).decision is None
    assert verdict("CODEX_HOME=/tmp/x ls && codex", policy=p).decision is None


def test_paths_where_and_access(verdict: Judge) -> None:
    rule = {"id": "w", "decision": "ask", "reason": "{path}", "paths": {
        "access": "write", "where": ["outside_workspace"]}}  # fmt: skip
    p = policy(rule)
    assert verdict("cat /etc/hosts", policy=p).decision is None  # read, not written
    assert verdict("cp a /etc/hosts", policy=p).decision == "ask"
    assert verdict("echo x > /opt/y", policy=p).reason == "/opt/y"
    assert verdict("/etc/hosts", tool="write_file", policy=p).decision == "ask"
    assert verdict("/etc/hosts", tool="read_file", policy=p).decision is None


def test_an_allow_needs_every_path_to_match_and_never_an_unknown_one(verdict: Judge) -> None:
    rule = {"id": "ws", "decision": "allow", "reason": "ok", "program": "cp",
            "paths": {"where": ["inside_workspace"]}}  # fmt: skip
    p = policy(rule)
    assert verdict("cp a b", policy=p).decision == "allow"
    assert verdict("cp a /etc/b", policy=p).decision is None
    assert verdict("cp a $DEST", policy=p).decision is None


def test_deny_beats_ask_beats_allow_whatever_the_order(verdict: Judge) -> None:
    allow = {"id": "a", "decision": "allow", "reason": "a", "program": "rm"}
    ask = {"id": "b", "decision": "ask", "reason": "b", "program": "rm"}
    deny = {"id": "c", "decision": "deny", "reason": "c", "program": "rm"}
    for order in ([allow, ask, deny], [deny, allow, ask], [ask, deny, allow]):
        assert verdict("rm x", policy=policy(*order)).rule == "c"
    assert verdict("rm x", policy=policy(allow, ask)).rule == "b"


def test_pipes_to_and_network(verdict: Judge) -> None:
    rule = {"id": "leak", "decision": "deny", "reason": "r", "program": "cat",
            "pipes_to": ["network"]}  # fmt: skip
    assert verdict("cat notes | nc host 1", policy=policy(rule)).decision == "deny"
    assert verdict("cat notes | wc -l", policy=policy(rule)).decision is None
    net = {"id": "net", "decision": "ask", "reason": "r", "network": True}
    assert verdict("git clone https://example.com/x", policy=policy(net)).decision == "ask"


def test_a_bundle_rule_replaces_a_pack_rule_of_the_same_id(places: Places) -> None:
    mine = Rule(id="git-reset-hard", decision="deny", reason="never here")
    pack = load_pack().extend([mine])
    data = {"tool_name": "bash", "tool_input": {"command": "git reset --hard"}}
    # The replacement has no match fields of its own: it holds for every call.
    assert judge(data, pack, places).reason == "never here"
    assert pack.ids().count("git-reset-hard") == 1


def test_disable_drops_a_pack_rule(places: Places) -> None:
    pack = load_pack().extend([], disable=["git-reset-hard"])
    data = {"tool_name": "bash", "tool_input": {"command": "git reset --hard"}}
    assert judge(data, pack, places).decision is None


def test_sessions_with_the_same_rules_share_one_compiled_policy(places: Places) -> None:
    # Every session of a server mounts the guard: the pack is read and compiled once, and
    # a policy extended by the same rules is the same policy, not rebuilt per session.
    mine = Rule(id="no-docker", decision="deny", reason="r", program="docker")
    assert load_pack() is load_pack()
    assert compile_policy("default") is load_pack()
    first = compile_policy("default", (mine,), ("git-reset-hard",))
    assert compile_policy("default", (mine,), ("git-reset-hard",)) is first
    assert first is not compile_policy("default", (mine,))
    data = {"tool_name": "bash", "tool_input": {"command": "docker run x"}}
    assert judge(data, first, places).decision == "deny"
    assert judge(data, load_pack(), places).decision != "deny"  # the shared pack unchanged
    assert "git-reset-hard" not in first.ids() and "git-reset-hard" in load_pack().ids()


def test_rules_load_from_yaml(tmp_path: Path) -> None:
    path = tmp_path / "rules.yaml"
    path.write_text(
        "rules:\n  - id: no-docker\n    decision: ask\n    reason: containers need a person\n"
        "    program: docker\n",
        encoding="utf-8",
    )
    [rule] = load_rules(path)
    assert (rule.id, rule.program) == ("no-docker", ("docker",))


@pytest.mark.parametrize("top", ["rules:\n", ""])
def test_a_rule_file_that_gives_an_id_twice_is_refused(tmp_path: Path, top: str) -> None:
    """Within one file a second rule of an id would silently replace the first."""
    rule = "  - id: {id}\n    decision: ask\n    reason: r\n    program: {program}\n"
    path = tmp_path / "rules.yaml"
    path.write_text(
        top + "".join(rule.format(id=i, program=p) for i, p in
                      [("dup", "docker"), ("other", "kubectl"), ("dup", "helm")]),
        encoding="utf-8",
    )  # fmt: skip
    with pytest.raises(ValueError, match="more than once: dup"):
        load_rules(path)


def test_the_shipped_pack_gives_each_rule_id_once() -> None:
    text = (Path(__file__).parents[2] / "amplifier_hooks/guard/packs/default.yaml").read_text()
    ids = [line.split(":", 1)[1].strip() for line in text.splitlines()
           if line.startswith("  - id:")]  # fmt: skip
    assert len(ids) == len(set(ids)) > 300
    assert len(load_pack().rules) == len(ids)


@pytest.mark.parametrize(
    "bad",
    [
        {"id": "x", "action": "deny", "reason": "r"},  # the old word
        {"id": "x", "decision": "block", "reason": "r"},
        {"id": "X Y", "decision": "deny", "reason": "r"},
        {"id": "x", "decision": "deny", "reason": ""},
        {"id": "x", "decision": "deny", "reason": "r", "paths": {"where": ["nowhere"]}},
        {"id": "x", "decision": "deny", "reason": "r", "programme": "rm"},
        {"id": "x", "decision": "deny", "reason": "r", "args": {"every": ["a"]}},
        {"id": "x", "decision": "deny", "reason": "r", "env": {"each": "A=*", "some": ["B"]}},
        {"id": "x", "decision": "deny", "reason": "r", "env": ["HOME=*"]},
    ],
)
def test_a_bad_rule_is_a_clear_error(bad: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        Rule.model_validate(bad)


def test_unknown_pack_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown guard pack"):
        load_pack("nope")
    assert load_pack("none").rules == ()
