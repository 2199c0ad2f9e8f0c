"""MCP tools that change a shared remote (GitHub's server, a git server's push), judged as
the command that does the same there (a table row's ``runs``: guard/mcpremote.py)."""

from __future__ import annotations

from typing import Any

import pytest

from amplifier_hooks.guard import Places, Policy, judge
from amplifier_hooks.guard.mcpremote import filled, sends_secret_files, slot_names
from amplifier_hooks.guard.mcptable import McpTableError, parse_table, shipped_table
from amplifier_hooks.guard.mcptools import equivalents

REPO = {"owner": "dev", "repo": "project"}


def mcp(pack: Policy, places: Places, tool: str, **args: Any) -> Any:
    return judge({"tool_name": tool, "tool_input": args}, pack, places)


@pytest.mark.parametrize(
    ("name", "args", "decision", "rule"),
    [
        ("mcp__github__push_files",
         {**REPO, "branch": "main", "files": [{"path": "a.md", "content": "x"}], "message": "m"},
         "ask", "git-push-protected"),
        ("mcp__gh__create_or_update_file",
         {**REPO, "branch": "master", "path": "README.md", "content": "x", "message": "m"},
         "ask", "git-push-protected"),
        ("mcp__gitlab__push_files",
         {"project_id": "dev/project", "branch": "main", "commit_message": "m",
          "files": [{"file_path": "a.md", "content": "x"}]},
         "ask", "git-push-protected"),
        ("mcp__gitlab__create_or_update_file",
         {"project_id": "7", "branch": "fix/a", "file_path": ".env", "content": "A=1",
          "commit_message": "m"},
         "deny", "secret-to-mcp-tool"),
        ("mcp__github__delete_file", {**REPO, "path": "src/app.py", "message": "m", "branch": "f"},
         "ask", "github-api-delete"),
        ("mcp__github__merge_pull_request", {**REPO, "pull_number": 42}, "ask", "github-pr-merge"),
        ("mcp_github_merge_pull_request", {**REPO, "pull_number": 7}, "ask", "github-pr-merge"),
        ("mcp__github__create_repository", {"name": "copy", "private": False}, "ask",
         "publish-release"),
        ("mcp__github__create_repository", {"name": "copy"}, "ask", "publish-release"),
        ("mcp__git__git_push", {"repo_path": "/r", "branch": "main", "force": True}, "deny",
         "git-force-push-protected"),
        ("mcp__git__git_push", {"repo_path": "/r", "branch": "feature/x", "force": True}, "ask",
         "git-force-push"),
        ("mcp__git__git_push", {"repo_path": "/r", "remote": "origin", "branch": "main"}, "ask",
         "git-push-protected"),
    ],
)  # fmt: skip
def test_a_change_of_a_shared_remote_is_judged_as_its_command(
    pack: Policy, places: Places, name: str, args: dict[str, Any], decision: str, rule: str
) -> None:
    verdict = mcp(pack, places, name, **args)
    assert (verdict.decision, verdict.rule) == (decision, rule), verdict


def test_cline_bridge_reaches_the_same_row(pack: Policy, places: Places) -> None:
    given = '{"owner":"dev","repo":"p","branch":"main","files":[],"message":"m"}'
    verdict = mcp(pack, places, "use_mcp_tool", server_name="github", tool_name="push_files",
                  arguments=given)  # fmt: skip
    assert (verdict.decision, verdict.rule) == ("ask", "git-push-protected")


def test_a_remote_tool_is_never_granted(pack: Policy, places: Places) -> None:
    """A push to a feature branch has no rule against it, and no grant: the host decides."""
    files = [{"path": "src/a.py", "content": "x = 1\n"}]
    verdict = mcp(pack, places, "mcp__github__push_files", **REPO, branch="fix/a", files=files,
                  message="m")  # fmt: skip
    assert verdict.decision is None
    private = mcp(pack, places, "mcp__github__create_repository", name="copy", private=True)
    assert private.decision is None


def test_reading_and_reviewing_tools_stay_free(pack: Policy, places: Places) -> None:
    own = {"owner": "ada", "repo": "calc"}  # (no origin to read: the workspace's folder's name)
    for name, args in [
        ("mcp__github__create_pull_request", {**own, "title": "t", "head": "f", "base": "main"}),
        ("mcp__github__get_file_contents", {**REPO, "path": "src/app.py", "branch": "main"}),
        ("mcp__github__create_branch", {**REPO, "branch": "fix/a", "from_branch": "main"}),
    ]:
        assert mcp(pack, places, name, **args).decision is None, name


def test_a_comment_in_the_own_repository_is_asked(pack: Policy, places: Places) -> None:
    """Its readers are notified at once, and a bot or a chat-ops workflow may act on it
    (``@dependabot merge``, ``/deploy production``)."""
    own = {"owner": "ada", "repo": "calc"}
    verdict = mcp(pack, places, "mcp__github__add_issue_comment", **own, issue_number=1,
                  body="/deploy production")  # fmt: skip
    assert (verdict.decision, verdict.rule) == ("ask", "github-comment-posted")


def test_a_post_in_another_projects_repository_is_asked(pack: Policy, places: Places) -> None:
    for name, args in [
        ("mcp__github__create_pull_request", {**REPO, "title": "t", "head": "f", "base": "main"}),
        ("mcp__github__add_issue_comment", {**REPO, "issue_number": 1, "body": "done"}),
        ("mcp__github__create_issue", {**REPO, "title": "t", "body": "b"}),
    ]:
        verdict = mcp(pack, places, name, **args)
        assert (verdict.decision, verdict.rule) == ("ask", "github-post-elsewhere"), name


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("mcp__github__create_gist",
         {"public": True, "files": {".env": {"content": "DEBUG=1\n"}}}),
        ("mcp__github__create_gist",
         {"public": False, "files": {"notes.txt": {"content": "key: AKIAIOSFODNN7ABCDEFG"}}}),
        ("mcp__github__push_files",
         {**REPO, "branch": "fix/a", "files": [{"path": "config/.env.production", "content": "x"}],
          "message": "m"}),
        ("mcp__github__create_or_update_file",
         {**REPO, "branch": "fix/a", "path": "deploy/id_rsa", "content": "x", "message": "m"}),
    ],
)  # fmt: skip
def test_a_secret_uploaded_to_a_remote_is_denied(
    pack: Policy, places: Places, name: str, args: dict[str, Any]
) -> None:
    verdict = mcp(pack, places, name, **args)
    assert (verdict.decision, verdict.rule) == ("deny", "secret-to-mcp-tool"), verdict


def test_a_plain_gist_is_asked_not_denied(pack: Policy, places: Places) -> None:
    files = {"notes.md": {"content": "Build with make.\n"}}
    verdict = mcp(pack, places, "mcp__github__create_gist", public=True, files=files)
    assert verdict.decision == "ask", verdict


def test_slots_take_the_arguments_text_or_default_or_leave_the_word_out() -> None:
    words = ("git", "push", "{remote|origin}", "{branch}", "n={n}")
    assert filled(words, {"branch": "main", "n": 3}) == ["git", "push", "origin", "main", "n=3"]
    assert filled(words, {"remote": "up", "branch": {"x": 1}, "n": None}) == ["git", "push", "up"]
    # a flag is its word; a list fills a starred slot alone with its items
    flagged = filled((*words[:3], "{branch*}", "n={n}"), {"branch": ["a", "b"], "n": True})
    assert flagged == ["git", "push", "origin", "a", "b", "n=true"]
    assert filled(("-v={vol}",), {"vol": ["/:/host", "/etc:/e"]}) == ["-v=/:/host", "-v=/etc:/e"]
    assert filled(("--privileged={p}",), {"p": False}) == ["--privileged=false"]
    assert slot_names("repos/{owner|O}/{repo}") == ["owner", "repo"]


def test_a_slot_value_is_one_word_never_shell_text(places: Places) -> None:
    data = {"tool_name": "mcp__git__git_push",
            "tool_input": {"repo_path": "/r", "branch": "main; rm -rf ~"}}  # fmt: skip
    same = equivalents(data, places)
    assert same is not None
    assert same.calls[-1]["tool_input"]["command"] == "git push origin 'main; rm -rf ~'"


def test_a_row_whose_runs_names_an_argument_args_does_not_is_refused() -> None:
    text = "mcp_tools:\n  - tool: mcp__*__p\n    args: {a: data}\n    runs: [git, push, '{b}']\n"
    with pytest.raises(McpTableError) as caught:
        parse_table(text, "t.yaml")
    assert "runs names {b}, which args does not name" in str(caught.value)


def test_the_shipped_rows_parse_and_name_their_slots() -> None:
    rows = [row for row in shipped_table().rows if row.runs]
    assert len(rows) >= 8
    for row in rows:
        named = dict(row.args)
        assert all(name in named for word in row.runs for name in slot_names(word))


def test_secret_files_reads_names_and_text() -> None:
    assert sends_secret_files({"files": [{"path": "a/.env"}]})
    assert sends_secret_files({"files": {"id_ed25519": {"content": ""}}})
    assert not sends_secret_files({"files": [{"path": ".env.example", "content": "A=1"}]})
    assert not sends_secret_files({"path": "src/app.py", "content": "print(1)\n"})


def test_a_row_that_needs_arguments_leaves_a_file_servers_tool_of_the_name_alone(
    pack: Policy, places: Places
) -> None:
    """A file server's ``delete_file {path}`` is no GitHub delete: it stays an unknown
    tool (a protected place given to it is taken as changed)."""
    local = {"tool_name": "mcp__fs__delete_file", "tool_input": {"path": "~/.claude/settings.json"}}
    assert equivalents(local, places) is None
    verdict = judge(local, pack, places)
    assert (verdict.decision, verdict.rule) == ("deny", "unknown-tool-protected")


def test_a_row_whose_needs_names_an_argument_args_does_not_is_refused() -> None:
    text = "mcp_tools:\n  - tool: mcp__*__p\n    needs: [b]\n    args: {a: data}\n"
    with pytest.raises(McpTableError) as caught:
        parse_table(text, "t.yaml")
    assert "needs names b, which args does not name" in str(caught.value)


def test_a_force_sent_as_text_is_a_force(pack: Policy, places: Places) -> None:
    verdict = mcp(pack, places, "mcp__git__git_push", repo_path="/r", branch="f", force="true")
    assert (verdict.decision, verdict.rule) == ("ask", "git-force-push")


def test_opencodes_server_tool_spelling_of_a_service_tool(pack: Policy, places: Places) -> None:
    files = [{"path": "a.md", "content": "x"}]
    verdict = mcp(pack, places, "github_push_files", **REPO, branch="main", files=files,
                  message="m")  # fmt: skip
    assert (verdict.decision, verdict.rule) == ("ask", "git-push-protected")
    # a host's own tool of a like name is not read so
    assert mcp(pack, places, "delete_file", target_file="tmp/x.log").rule != "github-api-delete"
