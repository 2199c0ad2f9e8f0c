"""MCP tools judged as the file and shell calls they amount to (the pack's MCP table)."""

from __future__ import annotations

from typing import Any

import pytest

from amplifier_hooks.guard import Places, Policy, judge
from amplifier_hooks.guard.mcptable import McpTableError, parse_table, shipped_table
from amplifier_hooks.guard.mcptools import equivalents, pieces_of
from amplifier_hooks.guard.policy import judge_pieces, pieces_for
from tests.guard.conftest import HOME

WS = HOME / "src" / "calc"

FILESYSTEM_TOOLS = (
    "read_file", "read_text_file", "read_media_file", "read_multiple_files", "write_file",
    "edit_file", "create_directory", "list_directory", "list_directory_with_sizes",
    "directory_tree", "move_file", "search_files", "get_file_info", "list_allowed_directories",
)  # fmt: skip
"""What @modelcontextprotocol/server-filesystem lists (tests/mcp_proxy runs the real one)."""


def mcp(pack: Policy, places: Places, tool: str, server: str = "files", **args: Any) -> Any:
    return judge({"tool_name": f"mcp__{server}__{tool}", "tool_input": args}, pack, places)


def test_every_filesystem_tool_is_in_the_table() -> None:
    table = shipped_table()
    for tool in FILESYSTEM_TOOLS:
        assert table.rows_for(f"mcp__any-name__{tool}"), tool


@pytest.mark.parametrize(
    ("tool", "args", "rule"),
    [
        ("write_file", {"path": ".claude/settings.json", "content": "{}"}, "self-protect"),
        ("write_file", {"path": ".Claude/Settings.json", "content": "{}"}, "self-protect"),
        ("edit_file", {"path": str(HOME / ".claude/settings.json"), "edits": []}, "self-protect"),
        ("create_directory", {"path": "~/.claude/hooks"}, "self-protect"),
        ("move_file", {"source": ".claude/settings.json", "destination": "x.json"}, "self-protect"),
        ("move_file", {"source": "/tmp/s.json", "destination": ".claude/settings.json"}, "self"),
        ("read_multiple_files", {"paths": ["README.md", "~/.ssh/id_rsa"]}, "credential-read"),
        ("read_text_file", {"path": "~/.aws/credentials", "head": 2}, "credential-read"),
    ],
)
def test_a_change_or_read_of_a_guarded_place_is_denied(
    pack: Policy, places: Places, tool: str, args: dict[str, Any], rule: str
) -> None:
    verdict = mcp(pack, places, tool, **args)
    assert verdict.decision == "deny", verdict
    assert verdict.rule is not None and verdict.rule.startswith(rule)


def test_everyday_work_in_the_workspace_is_granted(pack: Policy, places: Places) -> None:
    for tool, args in [
        ("read_text_file", {"path": "src/app.py", "tail": 10}),
        ("edit_file", {"path": "src/app.py", "edits": [{"oldText": "a", "newText": "b"}]}),
        ("list_directory", {"path": str(WS)}),
        ("create_directory", {"path": "src/utils"}),
    ]:
        assert mcp(pack, places, tool, **args).decision == "allow", tool


def test_a_dry_run_edit_is_a_read(pack: Policy, places: Places) -> None:
    settings = {"path": ".claude/settings.json", "edits": []}
    assert mcp(pack, places, "edit_file", **settings, dryRun=True).decision == "allow"
    assert mcp(pack, places, "edit_file", **settings, dryRun=False).decision == "deny"
    assert mcp(pack, places, "edit_file", **settings, dryRun="true").decision == "deny"


def test_an_argument_the_table_does_not_name_withholds_the_grant(
    pack: Policy, places: Places
) -> None:
    edits = [{"oldText": "a", "newText": "b"}]
    plain = mcp(pack, places, "edit_file", path="src/a.py", edits=edits)
    odd = mcp(pack, places, "edit_file", path="src/a.py", edits=edits, mode="0777")
    shaped = mcp(pack, places, "read_text_file", path={"nested": "src/a.py"})
    assert plain.decision == "allow"
    assert odd.decision is None and shaped.decision is None
    assert any("mode: not in the guard's MCP table" in p.text for p in odd.pieces)


def test_a_move_is_granted_only_where_its_source_could_be_deleted(
    pack: Policy, places: Places
) -> None:
    """Without git's word (the pure judge has none) the source's delete is not granted."""
    moved = mcp(pack, places, "move_file", source="src/a.py", destination="src/b.py")
    assert moved.decision is None
    assert [p.text for p in moved.pieces] == ["mv -- src/a.py src/b.py", "rm -r -- src/a.py"]


def test_an_unknown_mcp_tool_is_judged_as_before(pack: Policy, places: Places) -> None:
    """Its path arguments as reads: a credential is denied, nothing is granted."""
    assert equivalents({"tool_name": "mcp__x__frobnicate", "tool_input": {}}) is None
    assert mcp(pack, places, "frobnicate", path="~/.ssh/id_rsa").decision == "deny"
    assert mcp(pack, places, "frobnicate", path="src/a.py").decision is None


def test_gemini_clis_mcp_names_are_judged_by_the_same_table(pack: Policy, places: Places) -> None:
    """Gemini CLI names a tool ``mcp_<server>_<tool>`` and says which server and tool in
    ``mcp_context``; without that context the name cannot be split (a server's name may
    hold ``_``), so the call is judged as an unknown tool's."""

    def gemini(tool: str, server: str = "my_files", **args: Any) -> dict[str, Any]:
        context = {"server_name": server, "tool_name": tool}
        return {"tool_name": f"mcp_{server}_{tool}", "tool_input": args, "mcp_context": context}

    settings = gemini("write_file", path=".claude/settings.json", content="{}")
    new_file = gemini("write_file", path=str(WS / "src/new.py"), content="x")
    assert judge(settings, pack, places).decision == "deny"
    assert (
        judge(new_file, pack, places).decision is None
    )  # a whole-file write without git's facts: free, not granted (test_host_tool_losses)
    bare = {"tool_name": "mcp_my_files_write_file", "tool_input": new_file["tool_input"]}
    other = {**new_file, "mcp_context": {"server_name": "my", "tool_name": "read_file"}}
    assert equivalents(bare) is None and equivalents(other) is None
    assert judge(bare, pack, places).decision is None


def test_a_home_path_keeps_its_tilde_in_shell_equivalents() -> None:
    same = equivalents(
        {"tool_name": "mcp__f__create_directory", "tool_input": {"path": "~/a b/$(x)"}}
    )
    assert same is not None
    assert same.calls[0]["tool_input"]["command"] == "mkdir -p -- ~/'a b/$(x)'"


def test_a_row_with_a_command_argument_is_judged_as_that_command(
    pack: Policy, places: Places
) -> None:
    table = parse_table(
        "mcp_tools:\n  - tool: mcp__*__run\n    args: {cmd: command, timeout: data}\n", "t.yaml"
    )
    data = {"tool_name": "mcp__sh__run", "tool_input": {"cmd": "rm -rf ~", "timeout": 5}}
    same = equivalents(data, places, table)
    assert same is not None and same.calls == (
        {"tool_name": "bash", "tool_input": {"command": "rm -rf ~"}},
    )
    argv = {"tool_name": "mcp__sh__run", "tool_input": {"cmd": ["rm", "-rf", "~"]}}
    same = equivalents(argv, places, table)
    assert same is not None and same.calls[0]["tool_input"]["command"] == "rm -rf '~'"
    # Not text nor words: what it runs cannot be told, so a person is asked.
    odd = {"tool_name": "mcp__sh__run", "tool_input": {"cmd": {"program": "rm"}}}
    same = equivalents(odd, places, table)
    assert same is not None and same.calls == () and same.unreadable == ("cmd",)
    command, pieces, _ = pieces_of(same, lambda call: pieces_for(call, places))
    assert judge_pieces(command, pieces, pack, places).decision == "ask"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("mcp_tools:\n  - tool: mcp__*__w\n    args: {path: writes}\n",
         "t.yaml:3: mcp_tools.0.args.path: Input should be 'read', "),
        ("mcp_tools:\n  - tool: write_file\n    args: {}\n",
         "t.yaml:2: mcp_tools.0.tool: Value error, 'write_file' is not an MCP tool name"),
        ("mcp_tools:\n  - tool: mcp__*__m\n    args: {a: move-from}\n",
         "t.yaml:3: mcp_tools.0.args: Value error, a move needs exactly one move-from"),
        ("mcp_tools:\n  - tool: mcp__*__m\n    arg: {}\n",
         "t.yaml:2: mcp_tools.0.args: Field required\nt.yaml:3: mcp_tools.0.arg: Extra"),
        ("mcp_tools: [\n", "t.yaml:2: invalid YAML"),
    ],
)  # fmt: skip
def test_a_bad_table_names_file_line_and_key(text: str, expected: str) -> None:
    with pytest.raises(McpTableError) as caught:
        parse_table(text, "t.yaml")
    assert str(caught.value).startswith(expected), str(caught.value)
