"""`amplifier_hooks.toolcalls`: the one reading of tool calls shared by the approval gate,
its policy provider and the ah-approval module."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from amplifier_module_ah_approval import matching
from hypothesis import given, settings
from hypothesis import strategies as st

from amplifier_hooks.approvals import models
from amplifier_hooks.toolcalls import (
    SHELL_OPERATORS,
    clean_text,
    command_allowed_by,
    command_of,
    extract_fields,
    path_of,
    resolve_path,
    resolve_workspace,
    shell_operators,
    tool_input,
    tool_name,
)


def test_the_approvals_and_the_module_share_one_implementation() -> None:
    assert models.clean_text is clean_text and models.extract_fields is extract_fields
    assert matching.resolve_path is resolve_path
    assert matching.resolve_workspace is resolve_workspace
    assert matching.SHELL_OPERATORS is SHELL_OPERATORS


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (
            {"tool_name": "bash", "tool_input": {"command": "  ls -la \n"}},
            {"tool": "bash", "command": "ls -la"},
        ),
        (
            {"tool": "bash", "arguments": '{"cmd": ["rm", "-rf", "my dir"]}'},
            {"tool": "bash", "command": "rm -rf 'my dir'"},
        ),
        (
            {"name": "notebook_edit", "params": {"notebook_path": "/n.ipynb"}},
            {"tool": "notebook_edit", "path": "/n.ipynb"},
        ),
        (
            {"tool_name": "write_file", "input": {"path": Path("/a/b"), "file_path": ""}},
            {"tool": "write_file", "path": "/a/b"},
        ),
        (
            {"tool_name": "fetch", "tool_input": "{not json", "url": "https://example.org"},
            {"tool": "fetch", "url": "https://example.org"},
        ),
        ({"tool_name": 3, "tool_input": ["x"]}, {}),
    ],
)
def test_fields_are_found_in_every_common_shape(
    data: dict[str, Any], expected: dict[str, str]
) -> None:
    assert extract_fields(data) == expected


def test_the_tools_own_arguments_win_over_the_envelope() -> None:
    data = {"tool_name": "w", "path": "/outer", "tool_input": {"file_path": "/inner"}}
    assert path_of(data) == "/inner"
    assert tool_input({"input": '{"a": 1}'}) == {"a": 1}
    assert tool_name({"tool_name": "", "tool": "bash"}) == "bash"
    assert command_of({"command": 42}) == "42"


def test_shell_operators_are_the_union_of_both_old_sets() -> None:
    assert set(";&|`$()<>\n\r") == SHELL_OPERATORS
    assert shell_operators("a; b $(c) > d") == frozenset(";$()>")


@settings(max_examples=200, deadline=None)
@given(
    st.text(alphabet="abc */-", max_size=12),
    st.sampled_from(sorted(SHELL_OPERATORS)),
    st.text(alphabet="abc */-", max_size=12),
)
def test_an_allow_glob_never_covers_an_operator_it_does_not_spell(
    prefix: str, operator: str, suffix: str
) -> None:
    command = prefix + operator + suffix
    assert not command_allowed_by(command, "*")
    assert not command_allowed_by(command, prefix + "*")
    assert command_allowed_by(command, f"*{operator}*")


def test_resolving_collapses_dots_follows_links_and_uses_the_workspace(tmp_path: Path) -> None:
    workspace = resolve_workspace(str(tmp_path))
    (workspace / "inside").mkdir()
    (workspace / "link").symlink_to("/etc", target_is_directory=True)
    assert resolve_path("inside/../a.txt", workspace) == workspace / "a.txt"
    assert resolve_path(f"{workspace}/../x", workspace) == workspace.parent / "x"
    assert resolve_path("link/passwd", workspace) == Path(os.path.realpath("/etc/passwd"))
    assert resolve_path("~/notes", workspace) == Path(os.path.realpath(Path.home() / "notes"))
    assert resolve_path("bad\x00name", workspace) is None


def test_display_text_escapes_control_ansi_bidi_and_zero_width() -> None:
    hostile = "ok\x1b[2J\x1b]0;title\x07\u202egpj.exe\u200b\ufeff\r\n\x9b"
    cleaned = clean_text(hostile, None)
    assert cleaned == "ok\\x1b[2J\\x1b]0;title\\x07\\u202egpj.exe\\u200b\\ufeff\\x0d\\x0a\\x9b"
    assert clean_text("a\nb", None, newlines=True) == "a\nb"
    assert clean_text("x" * 10, 5) == "xxxx…"
    # The module's prompts use the same escaping (they used to let bidi characters through).
    assert matching.display("rm\u202e -rf\t/") == "rm\\u202e -rf\\x09/"
