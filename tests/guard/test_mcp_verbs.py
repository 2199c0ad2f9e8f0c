"""An MCP tool no table row names, judged by the verb of its name; known servers by rows."""

from __future__ import annotations

from typing import Any

import pytest

from amplifier_hooks.guard import Places, Policy, judge
from amplifier_hooks.guard.mcpverbs import (
    MCP_DESTROYS,
    MCP_OFFLINE,
    MCP_PAYS,
    MCP_PUBLISHES,
    MCP_SENDS,
    verb_marks,
)


def mcp(pack: Policy, places: Places, tool: str, **args: Any) -> tuple[str | None, str | None]:
    verdict = judge({"tool_name": tool, "tool_input": args}, pack, places)
    return verdict.decision, verdict.rule


@pytest.mark.parametrize(
    ("name", "marks"),
    [
        ("mcp__google_play__delete_track_release", (MCP_DESTROYS, MCP_PUBLISHES)),
        ("mcp__stripe__deleteCustomer", (MCP_DESTROYS,)),
        ("mcp__db__dropDatabase", (MCP_DESTROYS,)),
        ("mcp__cloud__purge-cache", (MCP_DESTROYS,)),
        ("mcp__appstoreconnect__submit_for_review", (MCP_PUBLISHES,)),
        ("mcp__google_play__promote_release", (MCP_PUBLISHES,)),
        ("mcp__vercel__deployProject", (MCP_PUBLISHES,)),
        ("mcp__gitlab__transfer_project", (MCP_PUBLISHES,)),
        ("mcp__hub__set_repo_visibility", (MCP_PUBLISHES,)),
        ("mcp__npm__publish", (MCP_PUBLISHES,)),
        ("mcp__supabase__pause_project", (MCP_OFFLINE,)),
        ("mcp__cloud__suspendInstance", (MCP_OFFLINE,)),
        ("mcp__spotify__pause_playback", ()),  # a player's pause takes no service offline
        ("mcp__cloud__get_paused_projects", ()),
        ("mcp__google_play__list_releases", ()),  # a verb that only looks comes first
        ("mcp__vercel__get_deployment", ()),
        ("mcp__cloud__describe_delete_protection", ()),
        ("mcp__slack__post_message", (MCP_SENDS,)),
        ("mcp__gmail__send_email", (MCP_SENDS,)),
        ("mcp__gmail__create_draft_email", ()),  # a draft waits for the person to send it
        ("mcp__slack__get_messages", ()),
        ("mcp__stripe__create_refund", (MCP_PAYS,)),
        ("mcp__stripe__list_payouts", ()),
        ("mcp__x__deleted", ()),  # a word, not the verb
        ("mcp__x__", ()),
    ],
)
def test_the_verbs_of_a_tools_name(name: str, marks: tuple[str, ...]) -> None:
    assert verb_marks(name) == marks


@pytest.mark.parametrize(
    ("tool", "args", "rule"),
    [
        ("mcp__google_play__delete_track_release", {"package_name": "io.a", "track": "production"},
         "mcp-tool-destroys"),
        ("mcp__appstoreconnect__submit_for_review", {"app_id": "1", "version": "4.2.0"},
         "mcp-tool-publishes"),
        ("mcp__google_play__promote_release", {"package_name": "io.a", "to_track": "production"},
         "mcp-tool-publishes"),
        ("mcp_stores_delete_app", {"app_id": "1"}, "mcp-tool-destroys"),  # Gemini's spelling
        ("mcp__supabase__pause_project", {"project_id": "abcd"}, "mcp-tool-takes-offline"),
    ],
)  # fmt: skip
def test_an_unknown_servers_destroying_or_publishing_tool_is_asked(
    pack: Policy, places: Places, tool: str, args: dict[str, Any], rule: str
) -> None:
    assert mcp(pack, places, tool, **args) == ("ask", rule)


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("mcp__google_play__list_releases", {"package_name": "io.a"}),
        ("mcp__memory__delete_entities", {"entityNames": ["old"]}),
        ("mcp__memory__delete_observations",
         {"deletions": [{"entityName": "a", "observations": ["b"]}]}),
        ("mcp__memory__delete_relations", {"relations": [{"from": "a", "to": "b"}]}),
        ("mcp__github__get_issue", {"owner": "a", "repo": "b", "issue_number": 3}),
        ("mcp__spotify__pause_playback", {}),
    ],
)  # fmt: skip
def test_looking_tools_and_the_memory_graph_are_not_asked(
    pack: Policy, places: Places, tool: str, args: dict[str, Any]
) -> None:
    assert mcp(pack, places, tool, **args) == (None, None)


def test_githubs_repository_delete_is_judged_as_gh_repo_delete(
    pack: Policy, places: Places
) -> None:
    verdict = mcp(pack, places, "mcp__github__delete_repository", owner="acme", repo="app")
    assert verdict == ("deny", "publish-release-repo-delete")


def test_a_verb_does_not_soften_a_protected_place(pack: Policy, places: Places) -> None:
    settings = str(places.workspace / ".claude" / "settings.json")
    assert mcp(pack, places, "mcp__files__remove", path=settings) == (
        "deny",
        "unknown-tool-protected",
    )


def test_a_known_rows_tool_is_judged_by_its_row(pack: Policy, places: Places) -> None:
    # `delete_file` of GitHub's server is its row's `gh api -X DELETE`, not the verb
    verdict = mcp(pack, places, "mcp__github__delete_file", owner="a", repo="b", path="x.py")
    assert verdict == ("ask", "github-api-delete")
