"""An MCP tool of a server the table does not know, by the words of its name (and a switch
set off in its arguments): asked when it runs, cancels, flips a flag, changes access or
many records, uploads, changes production, or switches something off."""

from __future__ import annotations

from typing import Any

import pytest

from amplifier_hooks.guard.mcpverbs import MCP_SWITCHES_OFF, switch_marks, verb_marks
from tests.guard.conftest import tool_decided


@pytest.mark.parametrize(
    ("tool", "given", "rule"),
    [
        ("mcp__pagerduty__create_incident", {"title": "x"}, "mcp-tool-sends"),
        ("mcp__awx__launch_job_template", {"id": 4}, "mcp-tool-runs"),
        ("mcp__azure-devops__pipelines_run_pipeline", {"pipelineId": 57}, "mcp-tool-runs"),
        ("mcp__slurm__cancel_job", {"job_id": "1"}, "mcp-tool-cancels"),
        ("mcp__launchdarkly__update-feature-flag", {"featureFlagKey": "x"}, "mcp-tool-flags"),
        ("mcp__msgraph__update_user", {"userId": "a@b.example"}, "mcp-tool-access"),
        ("mcp__hubspot__crm_batch_update_objects", {"inputs": []}, "mcp-tool-bulk"),
        ("mcp__salesforce__dml_records", {"operation": "delete"}, "mcp-tool-bulk"),
        ("mcp__sftp__upload", {"local_path": "/home/dev/project/out.csv"}, "mcp-tool-uploads"),
        ("mcp__postgres_prod__execute", {"sql": "UPDATE t SET x = 1"}, "mcp-tool-production"),
        ("mcp__kibana__update_detection_rule", {"rule_id": "r", "enabled": False},
         "mcp-tool-switches-off"),
        ("mcp__splunk__update_saved_search", {"name": "n", "disabled": True},
         "mcp-tool-switches-off"),
        ("mcp__google_ads__update_campaign_budget", {"amount_micros": 5}, "mcp-tool-pays"),
        ("mcp__netsuite__create_journal_entry", {"lines": []}, "mcp-tool-pays"),
        ("mcp__stripe__create_credit_note", {"invoice": "in_1", "amount": 5}, "mcp-tool-pays"),
        ("mcp__chargebee__void_invoice", {"invoice_id": "INV-1"}, "mcp-tool-destroys"),
        ("mcp__fleet__rollback_all", {"group": "production"}, "mcp-tool-publishes"),
        ("mcp__crowdstrike__contain_host", {"device_id": "d"}, "mcp-tool-takes-offline"),
        # a record changed on the service (an unknown server's update)
        ("mcp__kibana__update_detection_rule", {"rule_id": "r", "query": "x"},
         "mcp-tool-changes"),
    ],
)  # fmt: skip
def test_asked(tool: str, given: dict[str, Any], rule: str) -> None:
    assert tool_decided(tool, given) == ("ask", rule)


@pytest.mark.parametrize(
    ("tool", "given"),
    [
        ("mcp__google_analytics__run_report", {"metrics": ["sessions"]}),
        ("mcp__azure_sentinel__run_query", {"query": "x"}),
        ("mcp__memory__create_entities", {"entities": []}),
        ("mcp__kibana__get_detection_rule", {"rule_id": "r", "enabled": False}),
        ("mcp__kibana__update_detection_rule", {"rule_id": "r", "enabled": True}),
        ("mcp__prod_docs__search_docs", {"q": "x"}),
    ],
)  # fmt: skip
def test_not_asked(tool: str, given: dict[str, Any]) -> None:
    assert tool_decided(tool, given)[0] not in ("ask", "deny")


def test_a_switch_one_level_down() -> None:
    name = "mcp__alerts__update_rule"
    assert switch_marks(name, {"rule": {"enabled": False}}) == (MCP_SWITCHES_OFF,)
    assert switch_marks(name, {"rule": {"enabled": "false"}}) == ()  # (text, not a switch)


def test_a_looking_name_has_no_mark() -> None:
    assert verb_marks("mcp__ci_prod__list_pipelines") == ()
