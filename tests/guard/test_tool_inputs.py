"""A tool call is granted only when the guard understands every field of its input.

A shell tool's working folder and environment are part of what it runs; a file tool's path
has several names across hosts; any other field the guard does not know keeps the grant back.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amplifier_hooks.guard import Places, Policy, Verdict, judge
from amplifier_hooks.guard.inputs import (
    _FIELDS_OF,
    PATH_FIELDS,
    SHELL_PLAIN,
    file_input,
    shell_input,
)
from tests.guard.conftest import HOME

WS = HOME / "src" / "calc"


def call(pack: Policy, places: Places, tool: str, **inputs: Any) -> Verdict:
    return judge({"tool_name": tool, "tool_input": inputs}, pack, places)


# -- shell tools: where the command runs, and with what variables -----------------------


@pytest.mark.parametrize("key", ["dir_path", "workdir", "working_directory", "cwd"])
def test_a_shell_working_folder_outside_the_workspace_is_judged_there(
    pack: Policy, places: Places, key: str
) -> None:
    # `rm -f notes.txt` is a delete in the workspace; run in ~/.ssh it deletes a key's folder
    inside = call(pack, places, "bash", command="ls -la")
    assert inside.decision == "allow"
    there = call(pack, places, "bash", command="rm -f id_ed25519", **{key: str(HOME / ".ssh")})
    assert there.decision == "deny", there


def test_a_shell_working_folder_inside_the_workspace_keeps_the_grant(
    pack: Policy, places: Places
) -> None:
    assert call(pack, places, "bash", command="ls -la", dir_path="src").decision == "allow"
    assert call(pack, places, "bash", command="ls -la", workdir=str(WS)).decision == "allow"


def test_a_shell_working_folder_reaches_protected_places(pack: Policy, places: Places) -> None:
    verdict = call(pack, places, "bash", command="rm -f settings.json",
                   dir_path=str(WS / ".claude"))  # fmt: skip
    assert verdict.decision == "deny"
    assert (verdict.rule or "").startswith("self-protect")


def test_environment_that_runs_code_is_judged_as_code(pack: Policy, places: Places) -> None:
    plain = call(pack, places, "bash", command="git diff")
    assert plain.decision == "allow"
    hidden = call(pack, places, "bash", command="git diff",
                  env={"GIT_EXTERNAL_DIFF": "rm -rf .claude #"})  # fmt: skip
    assert hidden.decision in ("deny", "ask"), hidden
    unknown = call(pack, places, "bash", command="ls", env={"FOO": "bar"})
    assert unknown.decision is None  # a variable the guard does not know: no grant


@pytest.mark.parametrize(
    "env",
    [{"A-B": "x"}, {"A": 1}, ["GIT_PAGER=x"], "GIT_PAGER=x", {"A;B": "x"}],
)
def test_an_environment_the_guard_cannot_read_is_never_granted(
    pack: Policy, places: Places, env: object
) -> None:
    assert call(pack, places, "bash", command="ls", env=env).decision is None


@pytest.mark.parametrize(
    "extra",
    [{"host": "gateway"}, {"shell": "/tmp/x/sh"}, {"stdin": "rm -rf ~"},
     {"sandbox_permissions": ["odd"]}],
)  # fmt: skip
def test_a_field_the_guard_does_not_read_keeps_the_grant_back(
    pack: Policy, places: Places, extra: dict[str, Any]
) -> None:
    verdict = call(pack, places, "bash", command="ls -la", **extra)
    assert verdict.decision is None
    assert any("guard" in (p.reason or "") or "power" in (p.reason or "")
               for p in verdict.pieces), verdict  # fmt: skip


@pytest.mark.parametrize(
    "extra",
    [{"dangerouslyDisableSandbox": True}, {"with_escalated_permissions": True},
     {"elevated": True}, {"sandbox_permissions": "require_escalated"}],
)  # fmt: skip
def test_a_field_that_leaves_the_sandbox_is_asked(
    pack: Policy, places: Places, extra: dict[str, Any]
) -> None:
    verdict = call(pack, places, "bash", command="ls -la", **extra)
    assert (verdict.decision, verdict.rule) == ("ask", "host-sandbox-off"), verdict


@pytest.mark.parametrize(
    "extra",
    [{"description": "list"}, {"timeout": 120000, "run_in_background": False},
     {"is_background": False}, {"dangerouslyDisableSandbox": False}, {"yield_time_ms": 10}],
)  # fmt: skip
def test_fields_that_say_how_to_wait_or_show_keep_the_grant(
    pack: Policy, places: Places, extra: dict[str, Any]
) -> None:
    assert call(pack, places, "bash", command="ls -la", **extra).decision == "allow"


def test_a_denied_command_stays_denied_whatever_else_the_input_holds(
    pack: Policy, places: Places
) -> None:
    verdict = call(pack, places, "bash", command="cat ~/.ssh/id_rsa", host="gateway")
    assert verdict.decision == "deny"


def test_shell_input_folds_folder_and_variables_in_that_order() -> None:
    folded = shell_input("make", {"command": "make", "env": {"CC": "gcc"}, "workdir": "a b"})
    assert folded.command == "cd -- 'a b'\nexport CC=gcc\nmake"
    spaced = shell_input("make", {"env": {"CFLAGS": "-O2 -g"}})
    assert spaced.command == "export CFLAGS='-O2 -g'\nmake"
    assert folded.doubt is None


# -- file tools: every name of the path, and nothing unknown ----------------------------


def test_a_read_of_a_key_under_another_name_of_the_path_is_denied(
    pack: Policy, places: Places
) -> None:
    key = str(HOME / ".ssh" / "id_ed25519")
    for name in ("absolute_path", "file_path", "path", "filePath"):
        assert call(pack, places, "read_file", **{name: key}).decision == "deny", name


def test_a_read_whose_path_the_guard_cannot_find_is_never_granted(
    pack: Policy, places: Places
) -> None:
    verdict = call(pack, places, "read_file", where=str(HOME / ".ssh" / "id_ed25519"))
    assert verdict.decision is None
    assert call(pack, places, "read_file").decision is None


def test_two_names_of_the_path_that_disagree_are_both_judged(pack: Policy, places: Places) -> None:
    both = call(pack, places, "read_file", file_path=str(WS / "README.md"),
                path=str(HOME / ".ssh" / "id_rsa"))  # fmt: skip
    assert both.decision == "deny"
    same = call(pack, places, "read_file", file_path=str(WS / "x.py"), path=str(WS / "y.py"))
    assert same.decision is None


def test_a_listing_named_by_dir_path_is_placed(pack: Policy, places: Places) -> None:
    assert call(pack, places, "list_dir", dir_path="src").decision == "allow"
    assert call(pack, places, "list_dir", dir_path=str(HOME / ".ssh")).decision != "allow"


def test_everyday_file_calls_of_the_hosts_keep_their_grant(pack: Policy, places: Places) -> None:
    ok = [
        ("read_file", {"file_path": str(WS / "a.py"), "offset": 10, "limit": 40}),
        ("read_file", {"path": "a.py", "view_range": [1, 20]}),
        ("edit_file", {"file_path": str(WS / "a.py"), "old_string": "1", "new_string": "2",
                       "replace_all": False}),
        ("edit_file", {"file_path": str(WS / "a.py"), "instruction": "bump", "old_string": "1",
                       "new_string": "2", "expected_replacements": 1}),
        ("grep", {"pattern": "TODO", "path": "src", "output_mode": "content", "-n": True}),
        ("glob", {"pattern": "**/*.py"}),
    ]  # fmt: skip
    for tool, inputs in ok:
        assert call(pack, places, tool, **inputs).decision == "allow", (tool, inputs)


def test_a_file_call_with_a_field_the_guard_does_not_read_is_not_granted(
    pack: Policy, places: Places
) -> None:
    verdict = call(pack, places, "write_file", file_path=str(WS / "a.py"), content="x",
                   mode="0777")  # fmt: skip
    assert verdict.decision is None
    assert file_input("write_file", {"file_path": "a", "mode": "0777"}).doubt
    assert file_input("read_file", {"file_path": "a", "limit": 3}).doubt is None


_KNOWN = SHELL_PLAIN | set(PATH_FIELDS) | {"env", "workdir", "working_directory",
                                          "workingDirectory", "cwd", "directory",
                                          "offset", "limit", "content"}  # fmt: skip
_KNOWN |= _FIELDS_OF["edit_file"]  # the edit's own fields keep its grant


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    key=st.text(
        st.characters(min_codepoint=33, max_codepoint=0x2FF), min_size=1, max_size=12
    ).filter(lambda k: k not in _KNOWN),
    value=st.one_of(
        st.text(max_size=8), st.booleans(), st.integers(), st.lists(st.text(max_size=3))
    ),
    tool=st.sampled_from(["bash", "read_file", "edit_file"]),
)
def test_any_unknown_field_keeps_an_everyday_grant_back(
    pack: Policy, places: Places, key: str, value: object, tool: str
) -> None:
    inputs: dict[str, Any] = (
        {"command": "ls -la"}
        if tool == "bash"
        else {
            "file_path": str(WS / "a.py"),
            **({"old_string": "1", "new_string": "2"} if tool == "edit_file" else {}),
        }
    )
    assert call(pack, places, tool, **inputs).decision == "allow"
    inputs[key] = value
    assert call(pack, places, tool, **inputs).decision is None, (key, value)
