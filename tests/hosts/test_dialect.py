"""A host's table of events (one row an event) makes its `Dialect`: each fact of a row
lands in the record every adapter reads, and a row that cannot be right is refused."""

from __future__ import annotations

import pytest

from amplifier_hooks import events
from amplifier_hooks.hosts import HOSTS, HostAdapter
from amplifier_hooks.hosts.dialect import CLAUDE_CODE_DIALECT, On, dialect
from amplifier_hooks.hosts.tools import CLAUDE_TOOLS

TABLE = {
    "before": On(events.TOOL_PRE, "tool guards asks modifies context", "permission"),
    "prompt": On(events.PROMPT_SUBMIT, "guards", "block"),
    "stop": On(None, "keeps-working", "block"),
    "compact": On(events.CONTEXT_COMPACTION, only_when=("trigger", "manual")),
    "note": On(),
}


def test_each_fact_of_a_row_lands_in_the_dialect() -> None:
    made = dialect("demo", CLAUDE_TOOLS, TABLE, input_style="merge")

    assert made.known_events == {"before", "prompt", "stop", "compact", "note"}
    assert dict(made.standard) == {
        "before": events.TOOL_PRE,
        "prompt": events.PROMPT_SUBMIT,
        "compact": events.CONTEXT_COMPACTION,
    }
    assert made.can_ask == made.tool_events == made.modify_events == {"before"}
    assert made.guarding_events == {"before", "prompt"}
    assert made.keeps_working_events == {"stop"}
    assert made.context_events == {"before"}
    assert dict(made.deny_styles) == {"before": "permission", "prompt": "block", "stop": "block"}
    assert made.input_style == "merge"
    assert made.event_of("compact", {"trigger": "auto"}) == "demo:compact"
    assert made.event_of("compact", {"trigger": "manual"}) == events.CONTEXT_COMPACTION
    assert made.event_of("note") == "demo:note"
    assert made.non_guarding_events == {"stop", "compact", "note"}


def test_a_word_that_is_not_a_fact_is_refused() -> None:
    with pytest.raises(ValueError, match=r"demo before: \['guard'\] are not"):
        dialect("demo", CLAUDE_TOOLS, {"before": On(events.TOOL_PRE, "tool guard")})


def test_an_event_that_keeps_the_agent_working_cannot_guard() -> None:
    """Blocking such an event makes the agent carry on: a failure there must not."""
    with pytest.raises(ValueError, match="demo stop: an event that keeps the agent working"):
        dialect("demo", CLAUDE_TOOLS, {"stop": On(None, "guards keeps-working", "block")})


@pytest.mark.parametrize("adapter", HOSTS, ids=lambda a: a.profile.command)
def test_every_hosts_guarding_events_say_no_and_none_keeps_the_agent_working(
    adapter: HostAdapter,
) -> None:
    made = adapter.profile.dialect
    assert made.guarding_events <= made.known_events | CLAUDE_CODE_DIALECT.known_events
    assert not made.guarding_events & made.keeps_working_events
    assert all(made.deny_style(e) is not None for e in made.guarding_events)
