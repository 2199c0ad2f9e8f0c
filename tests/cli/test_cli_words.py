"""Counts read right everywhere: "1 rule", never "1 rules"."""

from __future__ import annotations

import io

from amplifier_hooks.bundles import Bundle
from amplifier_hooks.bundles.format import ApprovalSettings, PolicySettings, SessionSettings
from amplifier_hooks.cli.event_text import summarize
from amplifier_hooks.cli.report import ReplayInfo, RichReport, make_console
from amplifier_hooks.cli.run import describe_approvals
from amplifier_hooks.cli.words import plural


def test_plural() -> None:
    assert plural(1, "rule") == "1 rule"
    assert plural(0, "rule") == "0 rules"
    assert plural(2, "entry", "entries") == "2 entries"
    assert plural(1234, "token") == "1,234 tokens"
    assert plural(1.0, "day") == "1 day" and plural(0.5, "day") == "0.5 days"


def test_the_run_header_counts_one_rule_as_one_rule() -> None:
    policy = PolicySettings(rules=[{"tool": "bash", "decision": "allow"}])
    bundle = Bundle(name="b", session=SessionSettings(approvals=ApprovalSettings(policy=policy)))
    assert describe_approvals(bundle, "policy").startswith("the bundle's policy (1 rule, ")


def test_the_report_header_and_summaries_count_one_as_one() -> None:
    out = io.StringIO()
    RichReport(make_console(out)).start(ReplayInfo(trace="t.jsonl", events=1, bundle="b"))
    assert "(1 event) through bundle b" in out.getvalue()
    assert summarize("tool:pre", {"tool_name": "todo", "tool_input": {"todos": [{}]}}) == (
        "todo: 1 item"
    )
    assert summarize("provider:request", {"model": "m", "messages": [{}]}) == "m (1 message)"
