"""An MCP tool the table has no row for, judged by the verb of its name.

A server the pack's MCP table does not know (an app store's, a cloud's, a chat's) still
names its tools for what they do: ``delete_track_release``, ``submit_for_review``,
``promote_release``. What they change is on a service others share, which nothing here
gives back, so a name whose words hold a verb that destroys (``delete``, ``drop``,
``purge``...), publishes (``publish``, ``deploy``, ``merge``, ``transfer``...) or takes
a hosted service offline (``pause_project``, ``suspend_instance``: its users lose it until
someone brings it back), sends a message to people (``send_email``, ``slack_post_message``:
read as soon as it arrives) or moves money (``create_refund``, ``create_payout``) is asked
(`MCP_DESTROYS`, `MCP_PUBLISHES`, `MCP_OFFLINE`, `MCP_SENDS`, `MCP_PAYS`). A name
that starts with a verb that only looks (``get_release``, ``list_deployments``) is not: its
other words name what it looks at.

Only the name is read, and only for a tool no row names: a known server's tool is judged
by its row (GitHub's ``delete_repository`` as ``gh repo delete``; the memory server's
``delete_entities`` changes only its own graph file, a row of data).
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.verbs import DESTROYS, LOOKS

__all__ = ["MCP_DESTROYS", "MCP_OFFLINE", "MCP_PAYS", "MCP_PUBLISHES", "MCP_SENDS", "verb_marks"]

MCP_DESTROYS = "@mcp-destroys"
"""The mark of an unknown MCP tool whose name says it deletes on the service."""
MCP_PUBLISHES = "@mcp-publishes"
"""The mark of an unknown MCP tool whose name says it publishes or hands over."""

_PUBLISH = frozenset({"publish", "release", "promote", "submit", "deploy", "merge", "transfer",
                      "visibility", "rollout", "unpublish", "ship"})  # fmt: skip
MCP_OFFLINE = "@mcp-offline"
"""The mark of an unknown MCP tool whose name says it takes a hosted service offline."""
_OFFLINE = frozenset({"pause", "suspend", "shutdown", "hibernate", "deactivate"})
_HOSTED = frozenset({"project", "projects", "database", "databases", "db", "instance",
                     "instances", "cluster", "clusters", "server", "servers", "branch",
                     "service", "services", "compute", "endpoint", "app", "site"})  # fmt: skip
"""What such a verb takes offline that others use (a media player's ``pause_playback``
is not one)."""
MCP_SENDS = "@mcp-sends"
"""The mark of an unknown MCP tool whose name says it sends a message to people."""
_SENDS = frozenset({"send", "post", "reply", "forward", "broadcast", "announce", "notify",
                    "email", "tweet", "dm", "sms"})  # fmt: skip
_DRAFTS = frozenset({"draft", "drafts", "schedule", "template", "templates"})
"""A message kept to be sent later by a person (``create_draft_email``) is not sent."""
MCP_PAYS = "@mcp-pays"
"""The mark of an unknown MCP tool whose name says it moves money."""
_PAYS = frozenset({"refund", "refunds", "payout", "payouts", "charge", "charges", "capture",
                   "pay", "payment", "payments", "disburse"})  # fmt: skip
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def verb_marks(name: str) -> tuple[str, ...]:
    """The marks of the MCP tool ``name`` (``mcp__<server>__<tool>``) by its tool's words:
    `MCP_DESTROYS`, `MCP_PUBLISHES`, `MCP_OFFLINE`, `MCP_SENDS`, `MCP_PAYS`, or none (a
    name that only looks, or no such verb)."""
    tool = name.rpartition("__")[2]
    words = [w.lower() for w in _WORD.findall(tool)]
    if not words or words[0] in LOOKS:
        return ()
    marks: tuple[str, ...] = ()
    if not DESTROYS.isdisjoint(words):
        marks += (MCP_DESTROYS,)
    if not _PUBLISH.isdisjoint(words):
        marks += (MCP_PUBLISHES,)
    if not _OFFLINE.isdisjoint(words) and not _HOSTED.isdisjoint(words):
        marks += (MCP_OFFLINE,)
    if not _SENDS.isdisjoint(words) and _DRAFTS.isdisjoint(words):
        marks += (MCP_SENDS,)
    if not _PAYS.isdisjoint(words):
        marks += (MCP_PAYS,)
    return marks
